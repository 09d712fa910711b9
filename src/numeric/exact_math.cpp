#include "numeric/exact_math.hpp"

#include <cmath>

namespace prefill_trace::numeric {
namespace {

// ln 2 split so that k·kLn2High is exact for |k| < 2^11 (Cody and Waite reduction).
constexpr double kLn2High = 6.93147180369123816490e-01;
constexpr double kLn2Low = 1.90821492927058770002e-10;
constexpr double kSqrtHalf = 0.70710678118654752440;

}  // namespace

double log(double x) {
  int exponent = 0;
  // frexp and ldexp only move the exponent: exact, and the same on every IEEE platform.
  double m = std::frexp(x, &exponent);  // m in [0.5, 1)
  if (m < kSqrtHalf) {
    m *= 2;
    exponent -= 1;
  }
  const double s = (m - 1) / (m + 1);  // |s| ≤ 0.1716
  const double s2 = s * s;
  // atanh(s)/s = Σ s^(2k)/(2k+1): s^2 ≤ 0.0295, so 12 terms reach 0.0295^12/25 < 2^-64.
  double series = 0;
  for (int k = 12; k >= 1; --k) series = (series + 1.0 / (2 * k + 1)) * s2;
  const double e = static_cast<double>(exponent);
  return e * kLn2High + (2 * s + (2 * s * series + e * kLn2Low));
}

double exp(double x) {
  const double k = std::floor(x / (kLn2High + kLn2Low) + 0.5);
  const double r = (x - k * kLn2High) - k * kLn2Low;  // |r| ≤ 0.3466
  // Σ r^n/n!: 0.3466^18/18! < 2^-80.
  double sum = 1;
  for (int n = 18; n >= 1; --n) sum = 1 + sum * r / n;
  return std::ldexp(sum, static_cast<int>(k));
}

}  // namespace prefill_trace::numeric
