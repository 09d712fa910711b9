#pragma once
// The exact waiting-time distribution of the M/D/1 queue (Poisson arrivals, one server, every
// service D long), evaluated without the alternating sum of Erlang's formula, which loses every
// digit as the utilization ρ approaches 1 (docs/model.md, "Queue percentiles").
//
// With t = (k + u)·D, 0 ≤ u < 1 and N the number in system at a random time:
//   P(W ≤ t) = Σ_{j=0..k} Pois_j(ρ(1 − u)) · P(N ≤ k + 1 − j)
// (Crommelin's form: every term is positive), and P(N ≤ n) comes from the level-crossing
// balance of the embedded chain N' = (N − 1)⁺ + A, A ~ Poisson(ρ):
//   π_j·a_0 = π_0·Ā_j + Σ_{i=1..j−1} π_i·Ā_{j−i+1},   π_0 = 1 − ρ,
// again a sum of positive terms (Ā_m = P(A ≥ m)), stable for any ρ < 1. Beyond `exact_states`
// states the tail continues geometrically at the last ratio π_j/π_{j−1}, its limit 1/σ (σ the root
// > 1 of e^{ρ(z−1)} = z) to well within double precision by then.

#include <optional>
#include <vector>

namespace prefill_trace {

class Md1WaitingTime {
 public:
  /// ρ = λ·D in (0, 1). Time is in units of D.
  explicit Md1WaitingTime(double utilization, int exact_states = 4096);
  /// P(W ≤ t), t ≥ 0 in service times.
  double cdf(double t);
  /// The smallest t with P(W ≤ t) ≥ p, p in (0, 1), in service times (to 1e-12 relative).
  double quantile(double p);
  /// P(N ≤ n): the stationary number in system.
  double number_cdf(long n);

 private:
  void extend_to(long n);
  double rho_;
  long exact_states_;
  std::vector<double> a_;       // Poisson(ρ) probabilities a_0..a_J
  std::vector<double> a_tail_;  // Ā_m = P(A ≥ m), m = 0..J+1
  std::vector<double> pi_;      // π_0..π_n computed so far
  std::vector<double> cdf_;     // P(N ≤ n)
};

struct Md1Quantiles {
  double p50_seconds = 0;
  double p90_seconds = 0;
  double p99_seconds = 0;
};

/// The M/D/1 waiting-time quantiles in seconds; none when λ·D ≥ 1 (the queue grows without
/// bound). λ = 0 waits nothing.
std::optional<Md1Quantiles> md1_wait_quantiles(double arrival_rate, double service_seconds);

}  // namespace prefill_trace
