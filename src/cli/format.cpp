#include "format.hpp"

#include <cmath>
#include <cstdio>
#include <string>

namespace prefill_trace::cli {
namespace {

// snprintf into a string of the size it asks for: no fixed buffer to cut a long number short.
std::string print(const char* format, int precision, double value) {
  const int size = std::snprintf(nullptr, 0, format, precision, value);
  if (size <= 0) return "?";
  std::string out(static_cast<std::size_t>(size) + 1, '\0');
  std::snprintf(out.data(), out.size(), format, precision, value);
  out.resize(static_cast<std::size_t>(size));
  return out;
}

// Three significant digits; beyond the largest SI prefix (or a second count of a million and
// more) in scientific notation, so any finite double prints in a few characters.
std::string three_digits(double value) {
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6) return print("%.*e", 2, value);  // 1.58e+26
  const int decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2;
  return print("%.*f", decimals, value);
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
  // Beyond the largest prefix (Y, 10^24), the unscaled value in scientific notation.
  if (std::fabs(scaled) >= 999.5) return three_digits(value) + " " + unit;
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
