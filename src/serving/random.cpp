#include "serving/random.hpp"

#include <cmath>

#include "numeric/exact_math.hpp"

namespace prefill_trace::serving_random {
namespace {

uint64_t rotate_left(uint64_t x, int k) {
  return (x << k) | (x >> (64 - k));
}

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

}  // namespace

Generator::Generator(uint64_t seed) {
  uint64_t state = seed;
  for (uint64_t& word : state_) word = splitmix64(state);
}

uint64_t Generator::next() {
  const uint64_t result = rotate_left(state_[1] * 5, 7) * 9;
  const uint64_t t = state_[1] << 17;
  state_[2] ^= state_[0];
  state_[3] ^= state_[1];
  state_[1] ^= state_[2];
  state_[0] ^= state_[3];
  state_[2] ^= t;
  state_[3] = rotate_left(state_[3], 45);
  return result;
}

double Generator::uniform() {
  return static_cast<double>(next() >> 11) * 0x1.0p-53;
}

double Generator::exponential() {
  return -numeric::log(uniform_open_zero());
}

double Generator::normal() {
  if (has_spare_normal_) {
    has_spare_normal_ = false;
    return spare_normal_;
  }
  double u = 0;
  double v = 0;
  double s = 0;
  do {
    u = 2 * uniform() - 1;
    v = 2 * uniform() - 1;
    s = u * u + v * v;
  } while (s >= 1 || s == 0);
  const double scale = std::sqrt(-2 * numeric::log(s) / s);
  spare_normal_ = v * scale;
  has_spare_normal_ = true;
  return u * scale;
}

double Generator::gamma(double shape) {
  if (shape < 1) {
    // Gamma(a) = Gamma(a + 1)·U^(1/a) (Marsaglia and Tsang, §6).
    const double boost = numeric::exp(numeric::log(uniform_open_zero()) / shape);
    return gamma(shape + 1) * boost;
  }
  const double d = shape - 1.0 / 3;
  const double c = 1 / std::sqrt(9 * d);
  for (;;) {
    double x = 0;
    double v = 0;
    do {
      x = normal();
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = uniform_open_zero();
    if (u < 1 - 0.0331 * (x * x) * (x * x)) return d * v;
    if (numeric::log(u) < 0.5 * x * x + d * (1 - v + numeric::log(v))) return d * v;
  }
}

double Generator::gamma_mean_one(double cv) {
  if (cv < kNormalGammaCv) return 1 + cv * normal();
  const double shape = 1 / (cv * cv);
  return gamma(shape) / shape;
}

int64_t Generator::uniform_integer(int64_t low, int64_t high) {
  const double span = static_cast<double>(high - low + 1);
  const auto offset = static_cast<int64_t>(uniform() * span);
  return low + (offset > high - low ? high - low : offset);
}

}  // namespace prefill_trace::serving_random
