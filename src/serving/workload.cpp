#include "serving/workload.hpp"

#include <algorithm>
#include <cmath>

#include "limits.hpp"
#include "numeric/exact_math.hpp"
#include "serving/random.hpp"

namespace prefill_trace::serving {
namespace {

// μ of a lognormal length distribution: ln X ~ N(μ, σ²) with E[X] = e^{μ + σ²/2} = mean.
// Worked out once per distribution, not per draw (ln is a 12-term series).
double lognormal_mu(const LengthDistribution& dist) {
  if (dist.kind != LengthDistribution::Kind::lognormal) return 0;
  const double sigma = dist.b;
  return numeric::log(dist.a) - sigma * sigma / 2;
}

// One draw of a length distribution, rounded to a whole number of tokens, at least 1 and at most
// `most` (the per-request limit the reader checks explicit lengths against: a lognormal of σ = 4
// has no upper end, and clamped only at max_context_tokens it drew outputs of 1,146,770 > 2^20);
// `mu` is lognormal_mu(dist).
int64_t draw_length(const LengthDistribution& dist, double mu, serving_random::Generator& random,
                    int64_t most) {
  switch (dist.kind) {
    case LengthDistribution::Kind::fixed:
      return static_cast<int64_t>(dist.a);
    case LengthDistribution::Kind::uniform:
      return random.uniform_integer(static_cast<int64_t>(dist.a), static_cast<int64_t>(dist.b));
    case LengthDistribution::Kind::lognormal: {
      const double sigma = dist.b;
      const double x = numeric::exp(mu + sigma * random.normal());
      const double rounded = std::floor(x + 0.5);
      return static_cast<int64_t>(std::clamp(rounded, 1.0, static_cast<double>(most)));
    }
  }
  return 1;
}

}  // namespace

// The requests: explicit rows, or arrivals at rate 1 (scaled by the run's rate) and lengths,
// each from its own generator stream so changing one distribution leaves the others' draws.
std::vector<RequestSpec> workload(const ServingConfig& config) {
  std::vector<RequestSpec> specs;
  const auto cached_of = [&](int64_t prompt) {
    const auto cached =
        static_cast<int64_t>(std::floor(config.prefix_hit * static_cast<double>(prompt)));
    return std::min(cached, prompt - 1);  // the last prompt token is always computed: it samples
  };
  if (!config.rows.empty()) {
    for (const RequestRow& row : config.rows) {
      specs.push_back(RequestSpec{row.arrival_seconds, row.prompt_tokens,
                                  cached_of(row.prompt_tokens), row.output_tokens, row.hash_ids});
    }
    return specs;
  }
  serving_random::Generator arrivals(config.seed);
  serving_random::Generator prompts(config.seed ^ 0x50524f4d50540000ULL);  // "PROMPT"
  serving_random::Generator outputs(config.seed ^ 0x4f55545055540000ULL);  // "OUTPUT"
  const double prompt_mu = lognormal_mu(config.prompt);
  const double output_mu = lognormal_mu(config.output);
  double time = 0;
  specs.reserve(static_cast<std::size_t>(config.requests));
  for (int64_t i = 0; i < config.requests; ++i) {
    // Poisson: exponential gaps of mean 1. Gamma: shape 1/CV², scale CV² (mean 1).
    time += config.arrival == ArrivalKind::poisson ? arrivals.exponential()
                                                   : arrivals.gamma_mean_one(config.arrival_cv);
    const int64_t prompt =
        draw_length(config.prompt, prompt_mu, prompts, limits::max_prompt_tokens);
    specs.push_back(
        RequestSpec{time, prompt, cached_of(prompt),
                    draw_length(config.output, output_mu, outputs, limits::max_output_tokens)});
  }
  return specs;
}

}  // namespace prefill_trace::serving

namespace prefill_trace {

double LengthDistribution::mean() const {
  switch (kind) {
    case Kind::fixed:
      return a;
    case Kind::uniform:
      return (a + b) / 2;
    case Kind::lognormal:
      return a;
  }
  return a;
}

}  // namespace prefill_trace
