#include "format.hpp"

#include <cmath>
#include <cstdio>

namespace prefill_trace::cli {
namespace {

std::string three_digits(double value) {
  char buffer[32];
  const double magnitude = std::fabs(value);
  const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

}  // namespace

std::string si(double value, const std::string& unit) {
  static const char* const prefixes[] = {"", "k", "M", "G", "T", "P", "E", "Z", "Y"};
  if (value == 0) return "0 " + unit;
  int index = 0;
  double scaled = value;
  while (std::fabs(scaled) >= 999.5 && index < 8) {
    scaled /= 1000;
    ++index;
  }
  return three_digits(scaled) + " " + prefixes[index] + unit;
}

std::string bytes(double value) {
  static const char* const binary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  int index = 0;
  double scaled = value;
  while (std::fabs(scaled) >= 1023.5 && index < 6) {
    scaled /= 1024;
    ++index;
  }
  const std::string decimal = si(value, "B");
  return index == 0 ? decimal : decimal + " (" + three_digits(scaled) + " " + binary[index] + ")";
}

std::string seconds(double value) {
  if (value == 0) return "0 s";
  if (std::fabs(value) >= 1) return three_digits(value) + " s";
  if (std::fabs(value) >= 1e-3) return three_digits(value * 1e3) + " ms";
  if (std::fabs(value) >= 1e-6) return three_digits(value * 1e6) + " µs";
  return three_digits(value * 1e9) + " ns";
}

std::string plain(double value) {
  return three_digits(value);
}

}  // namespace prefill_trace::cli
