#include "numeric/md1.hpp"

#include <algorithm>
#include <cmath>

#include "numeric/exact_math.hpp"  // ln and exp that give the same bits native and in wasm

namespace prefill_trace {
namespace {

// Poisson(ρ) terms beyond this are below 1/31! ≈ 1.2e-34 of the total (ρ < 1): nothing at
// double precision.
constexpr int kPoissonTerms = 30;

// Pois_0..Pois_{count−1} of mean `mean` < 1, by the recurrence p_j = p_{j−1}·mean/j.
void poisson_terms(double mean, int count, double* out) {
  out[0] = numeric::exp(-mean);
  for (int j = 1; j < count; ++j) out[j] = out[j - 1] * mean / j;
}

}  // namespace

Md1WaitingTime::Md1WaitingTime(double utilization, int exact_states)
    : rho_(utilization), exact_states_(std::max(exact_states, 2)) {
  a_.resize(kPoissonTerms + 1);
  poisson_terms(rho_, kPoissonTerms + 1, a_.data());
  a_tail_.assign(kPoissonTerms + 2, 0.0);
  // Summed from the smallest term up: Ā_m keeps its relative precision however small it is.
  for (int m = kPoissonTerms; m >= 0; --m) a_tail_[m] = a_tail_[m + 1] + a_[m];
  a_tail_[0] = 1;
  pi_.push_back(1 - rho_);
  cdf_.push_back(1 - rho_);
}

void Md1WaitingTime::extend_to(long n) {
  const long last = std::min(n, exact_states_);
  while (static_cast<long>(pi_.size()) <= last) {
    const long j = static_cast<long>(pi_.size());
    double flow_up = j <= kPoissonTerms ? pi_[0] * a_tail_[j] : 0;
    // Ā_{j−i+1} vanishes (below 1e-34) once j − i + 1 > kPoissonTerms.
    for (long i = std::max(1L, j + 1 - kPoissonTerms); i <= j - 1; ++i)
      flow_up += pi_[i] * a_tail_[j - i + 1];
    const double pi_j = flow_up / a_[0];
    pi_.push_back(pi_j);
    cdf_.push_back(std::min(1.0, cdf_.back() + pi_j));
  }
}

double Md1WaitingTime::number_cdf(long n) {
  if (n < 0) return 0;
  extend_to(n);
  if (n <= exact_states_) return cdf_[n];
  // Geometric tail at the converged ratio of successive state probabilities.
  const double ratio = pi_[exact_states_] / pi_[exact_states_ - 1];
  const double tail = 1 - cdf_[exact_states_];
  return 1 - tail * numeric::exp(static_cast<double>(n - exact_states_) * numeric::log(ratio));
}

double Md1WaitingTime::cdf(double t) {
  if (t < 0) return 0;
  const double whole = std::floor(t);
  const auto k = static_cast<long>(whole);
  const double u = t - whole;
  double terms[kPoissonTerms + 1];
  const int count = static_cast<int>(std::min<long>(k, kPoissonTerms)) + 1;
  poisson_terms(rho_ * (1 - u), count, terms);
  double sum = 0;
  for (int j = count - 1; j >= 0; --j) sum += terms[j] * number_cdf(k + 1 - j);
  return std::min(1.0, sum);
}

double Md1WaitingTime::quantile(double p) {
  if (p <= number_cdf(0)) return 0;  // P(W = 0) = 1 − ρ
  // P(W ≤ n) = P(N ≤ n) at whole service times: find the first n that reaches p.
  long n = 1;
  while (number_cdf(n) < p) n *= 2;
  long low = n / 2;  // number_cdf(low) < p (low ≥ 1) or low = 0
  while (n - low > 1) {
    const long mid = low + (n - low) / 2;
    (number_cdf(mid) < p ? low : n) = mid;
  }
  // The quantile lies in (n − 1, n]: bisect the continuous CDF there.
  double lo = static_cast<double>(n - 1);
  double hi = static_cast<double>(n);
  for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    (cdf(mid) < p ? lo : hi) = mid;
  }
  return hi;
}

std::optional<Md1Quantiles> md1_wait_quantiles(double arrival_rate, double service_seconds) {
  const double rho = arrival_rate * service_seconds;
  if (rho >= 1) return std::nullopt;
  if (rho <= 0) return Md1Quantiles{};
  Md1WaitingTime wait(rho);
  return Md1Quantiles{wait.quantile(0.5) * service_seconds, wait.quantile(0.9) * service_seconds,
                      wait.quantile(0.99) * service_seconds};
}

}  // namespace prefill_trace
