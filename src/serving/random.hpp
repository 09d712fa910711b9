#pragma once
// The serving simulation's random numbers, the same bits on every platform: xoshiro256** seeded
// through splitmix64 (Blackman and Vigna, https://prng.di.unimi.it/), and every transform to a
// distribution written here with +, −, ×, ÷, sqrt and the exact ln/exp of
// src/numeric/exact_math.hpp only — operations rounded the same everywhere — so the native CLI
// and the WebAssembly module draw the same workload for a seed. No std:: distribution (their
// algorithms differ between standard libraries) and no libm log/exp/cos (glibc and the musl that
// Emscripten links may differ in the last bit).

#include <cstdint>

namespace prefill_trace::serving_random {

class Generator {
 public:
  explicit Generator(uint64_t seed);
  uint64_t next();
  /// Uniform on [0, 1): the top 53 bits.
  double uniform();
  /// Uniform on (0, 1]: never 0, so ln is finite.
  double uniform_open_zero() { return 1.0 - uniform(); }
  /// Exponential with mean 1: −ln U (inverse CDF).
  double exponential();
  /// Standard normal by Marsaglia's polar method (needs ln and sqrt only; no sin/cos).
  double normal();
  /// Gamma(shape, 1) by Marsaglia and Tsang (2000); shape < 1 through Gamma(shape+1)·U^(1/shape).
  /// Finite for every finite shape ≥ 1e-4 (CV ≤ 100); an infinite shape gives Infinity.
  double gamma(double shape);
  /// A gamma draw of mean 1 and coefficient of variation `cv` (shape 1/cv², scale cv²), finite
  /// and ≥ 0 for every cv in (0, limits::max_arrival_cv], subnormal cv included: below
  /// kNormalGammaCv it is the normal limit 1 + cv·Z instead, as 1/cv² overflows to Infinity
  /// for cv < ~1e-154 (Infinity/Infinity gave NaN arrivals and a SIGFPE further on).
  double gamma_mean_one(double cv);
  /// Below this CV (shape above 1e12) a mean-1 gamma is drawn as 1 + cv·Z: the gamma's
  /// skewness 2·cv is then under 2e-6, and |Z| ≤ 12.1 from the polar method (|Z| ≤ √(−2 ln s)
  /// with s ≥ 2^-104, as u and v are multiples of 2^-52), so the draw stays in 1 ± 1.3e-5.
  static constexpr double kNormalGammaCv = 1e-6;
  /// An integer uniform on [low, high].
  int64_t uniform_integer(int64_t low, int64_t high);

 private:
  uint64_t state_[4];
  bool has_spare_normal_ = false;
  double spare_normal_ = 0;
};

}  // namespace prefill_trace::serving_random
