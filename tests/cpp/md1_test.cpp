// The exact M/D/1 waiting-time distribution (src/numeric/md1.hpp) against values derived by hand
// from Erlang's formula, against Erlang's alternating sum evaluated in long double where it is
// still accurate, against the Pollaczek–Khinchine mean, and against a brute-force Lindley
// recursion. No expectation comes from the code under test.

#include "numeric/md1.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "numeric/exact_math.hpp"
#include "serving/random.hpp"

namespace prefill_trace {
namespace {

// Erlang (1909): P(W ≤ t) = (1 − ρ) Σ_{k=0..⌊t⌋} (ρ(k − t))^k / k! · e^{−ρ(k − t)}, D = 1. Exact
// but alternating; in long double it keeps ~10 digits for t ≤ 20 at these loads.
long double erlang_cdf(long double rho, long double t) {
  long double sum = 0;
  long double factorial = 1;
  for (int k = 0; k <= static_cast<int>(std::floor(t)); ++k) {
    if (k > 0) factorial *= k;
    const long double x = rho * (k - t);
    sum += std::pow(x, static_cast<long double>(k)) / factorial * std::exp(-x);
  }
  return (1 - rho) * sum;
}

TEST(Md1, NoWaitWithProbabilityOneMinusRho) {
  // P(W = 0) = 1 − ρ (PASTA: the server is idle that share of the time).
  Md1WaitingTime wait(0.6);
  EXPECT_NEAR(wait.cdf(0), 0.4, 1e-15);
  // p ≤ 1 − ρ: no wait at all.
  EXPECT_EQ(wait.quantile(0.3), 0);
}

TEST(Md1, FirstServiceTimeByHand) {
  // For t < D Erlang's sum has one term: P(W ≤ t) = (1 − ρ)·e^{ρt}. At ρ = 0.6 the median
  // solves 0.4·e^{0.6 t} = 0.5: t = ln(1.25)/0.6 = 0.371906... service times.
  Md1WaitingTime wait(0.6);
  EXPECT_NEAR(wait.cdf(0.5), 0.4 * std::exp(0.3), 1e-13);
  EXPECT_NEAR(wait.quantile(0.5), std::log(1.25) / 0.6, 1e-11);
  // P(W ≤ D) = (1 − ρ)e^ρ = P(N ≤ 1) = π0 + π1 with π1 = (1 − ρ)(e^ρ − 1).
  EXPECT_NEAR(wait.cdf(1), 0.4 * std::exp(0.6), 1e-13);
}

TEST(Md1, SecondServiceTimeByHand) {
  // 1 ≤ t < 2: P(W ≤ t) = (1 − ρ)[e^{ρt} − ρ(t − 1)e^{ρ(t − 1)}]. ρ = 0.5, t = 1.5:
  // 0.5·[e^{0.75} − 0.25·e^{0.25}].
  Md1WaitingTime wait(0.5);
  EXPECT_NEAR(wait.cdf(1.5), 0.5 * (std::exp(0.75) - 0.25 * std::exp(0.25)), 1e-13);
}

TEST(Md1, AgreesWithErlangsSumWhereThatIsAccurate) {
  for (const double rho : {0.3, 0.7, 0.9}) {
    Md1WaitingTime wait(rho);
    for (double t = 0.25; t < 12; t += 0.85) {
      EXPECT_NEAR(wait.cdf(t), static_cast<double>(erlang_cdf(rho, t)), 1e-9)
          << "rho " << rho << " t " << t;
    }
  }
}

TEST(Md1, MeanMatchesPollaczekKhinchine) {
  // E[W] = ∫ (1 − F(t)) dt = ρD/(2(1 − ρ)) (Pollaczek–Khinchine with deterministic service).
  // Integrated by the midpoint rule on a 1/64 grid out to where 1 − F < 1e-13.
  for (const double rho : {0.5, 0.95}) {
    Md1WaitingTime wait(rho);
    double integral = 0;
    const double h = 1.0 / 64;
    for (double t = h / 2; 1 - wait.cdf(t) > 1e-13; t += h) integral += (1 - wait.cdf(t)) * h;
    EXPECT_NEAR(integral, rho / (2 * (1 - rho)), 2e-4 * rho / (1 - rho)) << rho;
  }
}

TEST(Md1, StableNearSaturation) {
  // ρ = 0.999: the alternating sum is useless here (terms of e^{ρt} ≈ 1e100 at t = 230). The
  // heavy-traffic tail is exponential, P(W > t) ≈ C·e^{−θt} with θ the root of
  // e^{θ} − 1 = θ/ρ, θ ≈ 2(1 − ρ)/ρ; so the gap between the p90 and p99 quantiles is ln(10)/θ.
  const double rho = 0.999;
  double theta = 2 * (1 - rho) / rho;
  for (int i = 0; i < 50; ++i) {  // Newton on g(θ) = e^θ − 1 − θ/ρ
    theta -= (std::exp(theta) - 1 - theta / rho) / (std::exp(theta) - 1 / rho);
  }
  Md1WaitingTime wait(rho);
  const double p90 = wait.quantile(0.9);
  const double p99 = wait.quantile(0.99);
  EXPECT_NEAR(p99 - p90, std::log(10.0) / theta, 1e-6 * p99);
  EXPECT_GT(wait.cdf(p99), 0.99 - 1e-9);
  EXPECT_LT(wait.cdf(p99 * (1 - 1e-9)), 0.99);
}

TEST(Md1, GeometricTailContinuesTheExactStates) {
  // The same quantile from 4096 exact states and from 64 exact states plus the geometric tail.
  Md1WaitingTime exact(0.98, 4096);
  Md1WaitingTime extrapolated(0.98, 64);
  EXPECT_NEAR(exact.quantile(0.99), extrapolated.quantile(0.99), 1e-9 * exact.quantile(0.99));
}

TEST(Md1, BruteForceLindleyRecursion) {
  // W_{n+1} = max(0, W_n + D − A_n), A ~ Exp(λ): 400,000 customers at ρ = 0.8 after a burn-in.
  // At the exact quantile x_q the share of waits ≤ x_q estimates q with variance q(1 − q)/n,
  // inflated by autocorrelation: the queue relaxes in ~1/(1 − √ρ)² ≈ 90 services, and a mean of
  // correlated samples has ~2×90 = 180× the variance. Asserted within 4 standard errors.
  const double rho = 0.8;
  serving_random::Generator random(42);
  std::vector<double> waits;
  double w = 0;
  for (int n = 0; n < 420000; ++n) {
    if (n >= 20000) waits.push_back(w);
    w = std::max(0.0, w + 1 - random.exponential() / rho);
  }
  Md1WaitingTime wait(rho);
  for (const double q : {0.5, 0.9, 0.99}) {
    const double x = wait.quantile(q);
    const double share = static_cast<double>(std::count_if(waits.begin(), waits.end(),
                                                           [&](double v) { return v <= x; })) /
                         static_cast<double>(waits.size());
    EXPECT_NEAR(share, q, 4 * std::sqrt(180 * q * (1 - q) / static_cast<double>(waits.size())))
        << q;
  }
}

TEST(Md1, QuantilesInSeconds) {
  // ρ = λD = 0.6 with D = 2 s: the median is ln(1.25)/0.6 service times = 0.7438 s; none at ρ ≥ 1.
  const auto q = md1_wait_quantiles(0.3, 2.0);
  ASSERT_TRUE(q.has_value());
  EXPECT_NEAR(q->p50_seconds, 2 * std::log(1.25) / 0.6, 1e-10);
  EXPECT_FALSE(md1_wait_quantiles(0.5, 2.0).has_value());
}

TEST(ServingRandom, LogAndExpWithinTwoUlp) {
  // Against the platform's libm in long double (64-bit mantissa: exact enough to judge 2 ulp).
  const auto ulp = [](double v) { return std::nextafter(std::fabs(v), 1e308) - std::fabs(v); };
  for (double x = 1e-300; x < 1e300; x *= 1.7) {
    const auto truth = static_cast<double>(std::log(static_cast<long double>(x)));
    EXPECT_NEAR(numeric::log(x), truth, 2 * ulp(truth)) << x;
  }
  for (double x = -700; x < 700; x += 0.37) {
    const auto truth = static_cast<double>(std::exp(static_cast<long double>(x)));
    EXPECT_NEAR(numeric::exp(x), truth, 2 * ulp(truth)) << x;
  }
}

TEST(ServingRandom, Xoshiro256StarStarReferenceOutput) {
  // xoshiro256** from the state splitmix64(0) gives: splitmix64 outputs for seed 0 are
  // e220a8397b1dcdaf, 6e789e6aa1b965f4, 06c45d188009454f, f88bb8a8724c81ec (Vigna's splitmix64.c);
  // the first xoshiro256** output is rotl(s1·5, 7)·9 with s1 = 6e789e6aa1b965f4.
  serving_random::Generator random(0);
  const uint64_t s1 = 0x6e789e6aa1b965f4ULL;
  const uint64_t times5 = s1 * 5;
  const uint64_t expected = ((times5 << 7) | (times5 >> 57)) * 9;
  EXPECT_EQ(random.next(), expected);
}

}  // namespace
}  // namespace prefill_trace
