// The serving simulation against queueing theory where it is exact (docs/serving.md,
// "Validation"): fixed-length FCFS one-at-a-time prefill against the exact M/D/1 waiting-time
// distribution, a length distribution against the Pollaczek–Khinchine mean, and DistServe's
// §3.1 prefill-instance equation. The service time D comes from the single-request trace
// (compute_trace), an independent path from the simulator's iteration cost; every tolerance is
// a sampling error derived in the comment beside it.

#include "serving/serving.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "limits.hpp"
#include "numeric/md1.hpp"
#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "serving/serving_json.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

Scenario preset_scenario(int64_t prompt_tokens, int64_t tensor_parallel = 1) {
  auto parsed = scenario_from_json(json{{"model", "llama-3.1-8b"},
                                        {"hardware", "h100-sxm"},
                                        {"prompt_tokens", prompt_tokens},
                                        {"tensor_parallel", tensor_parallel}});
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

// The single-request trace's device time for one prompt: execution + LM head and sampling.
double service_seconds(int64_t prompt_tokens, int64_t tensor_parallel = 1) {
  return compute_trace(preset_scenario(prompt_tokens, tensor_parallel), {}).ttft.service_seconds;
}

ServingConfig fcfs(double rate, int64_t requests, LengthDistribution prompt) {
  ServingConfig config;
  config.policy = SchedulerPolicy::prefill_first;
  config.rate = rate;
  config.requests = requests;
  config.seed = 7;
  config.prompt = prompt;
  config.output = LengthDistribution{LengthDistribution::Kind::fixed, 1, 0};
  config.max_batch = 1;  // one request at a time: a plain FCFS queue of prefills
  config.max_queue = requests;
  config.timeline_points = 0;
  return config;
}

TEST(Serving, OneAtATimeServiceIsTheTracesPrefill) {
  // With no queue (one request), TTFT is exactly the trace's execution + delivery compute.
  ServingConfig config = fcfs(1, 1, {LengthDistribution::Kind::fixed, 2048, 0});
  const auto report = simulate_serving(preset_scenario(2048), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_NEAR(report->run.ttft.mean, service_seconds(2048), 1e-12 * service_seconds(2048));
}

TEST(Serving, FcfsQueueFollowsTheExactMd1Distribution) {
  // ρ = λD = 0.5 with n = 20,000 requests. At the exact quantile x_q the share of requests that
  // waited at most x_q estimates q with binomial variance q(1 − q)/n, inflated by the waits'
  // autocorrelation: M/D/1 at ρ = 0.5 relaxes in about E[S]/(1 − √ρ)² ≈ 12 services, and a
  // sum's variance grows by about twice the relaxation time, so we allow 25× the variance, and
  // assert within 4 of those standard errors.
  const double d = service_seconds(1024);
  const double rho = 0.5;
  const int64_t n = 20000;
  ServingConfig config = fcfs(rho / d, n, {LengthDistribution::Kind::fixed, 1024, 0});
  const auto report = simulate_serving(preset_scenario(1024), config);
  ASSERT_TRUE(report.ok()) << report.error();
  Md1WaitingTime exact(rho);
  for (const double q : {0.5, 0.9, 0.99}) {
    const double x = exact.quantile(q) * d;
    double within = 0;
    for (const RequestOutcome& out : report->run.outcomes)
      within += out.ttft_seconds - d <= x + 1e-12 * d ? 1 : 0;
    const double se = std::sqrt(25 * q * (1 - q) / static_cast<double>(n));
    EXPECT_NEAR(within / static_cast<double>(n), q, 4 * se) << "q " << q;
  }
  // P(no wait) = 1 − ρ, same tolerance.
  double no_wait = 0;
  for (const RequestOutcome& out : report->run.outcomes)
    no_wait += out.ttft_seconds <= d * (1 + 1e-12) ? 1 : 0;
  EXPECT_NEAR(no_wait / static_cast<double>(n), 1 - rho, 4 * std::sqrt(25 * 0.25 / n));
}

TEST(Serving, LengthDistributionMeetsPollaczekKhinchine) {
  // M/G/1: prompts uniform on 256..768 tokens, service S(T) from the trace per length. The mean
  // wait is λE[S²]/(2(1 − λE[S])). Its sampling error: Var W = E[W²] − E[W]², with
  // E[W²] = 2E[W]² + λE[S³]/(3(1 − ρ)); waits are correlated over ~12 services at ρ = 0.5, so
  // the variance of the mean is taken 25× Var W / n (twice the relaxation time), and we assert
  // within 4 standard errors.
  double s1 = 0, s2 = 0, s3 = 0;
  for (int64_t t = 256; t <= 768; ++t) {
    const double s = service_seconds(t);
    s1 += s / 513;
    s2 += s * s / 513;
    s3 += s * s * s / 513;
  }
  const double rho = 0.5;
  const double lambda = rho / s1;
  const int64_t n = 20000;
  const double mean_wait = lambda * s2 / (2 * (1 - rho));
  const double second_moment = 2 * mean_wait * mean_wait + lambda * s3 / (3 * (1 - rho));
  const double se = std::sqrt(25 * (second_moment - mean_wait * mean_wait) / n);
  ServingConfig config = fcfs(lambda, n, {LengthDistribution::Kind::uniform, 256, 768});
  const auto report = simulate_serving(preset_scenario(1024), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_NEAR(report->run.queue.mean, mean_wait, 4 * se);
}

TEST(Serving, DistServePrefillInstanceEquation) {
  // DistServe §3.1: a prefill instance serving one request at a time is M/D/1, and with
  // intra-op parallelism of speedup K the average TTFT is D/K + R·D²/(2K(K − R·D)) (their
  // Eq. 2), i.e. D_K + R·D_K²/(2(1 − R·D_K)) with D_K = D/K. Here K is whatever the engine's
  // operator model gives for TP 2 (all-reduces make it < 2): D_K from the trace at TP 2. The
  // disaggregated policy with output 1 and a token budget of one prompt is that instance.
  // Sampling error of the mean TTFT as in the PK test: ρ = 0.6, 20,000 requests,
  // Var W = E[W²] − E[W]² with E[W²] = 2E[W]² + λD³/(3(1 − ρ)); at ρ = 0.6 the relaxation
  // time is 1/(1 − √0.6)² ≈ 19 services, so 40× for correlation, 4 SE.
  const double dk = service_seconds(2048, 2);
  const double d1 = service_seconds(2048, 1);
  ASSERT_LT(dk, d1);  // K = D/D_K > 1
  const double rho = 0.6;
  const double rate = rho / dk;
  const int64_t n = 20000;
  const double wait = rate * dk * dk / (2 * (1 - rho));
  const double second = 2 * wait * wait + rate * dk * dk * dk / (3 * (1 - rho));
  const double se = std::sqrt(40 * (second - wait * wait) / n);
  ServingConfig config = fcfs(rate, n, {LengthDistribution::Kind::fixed, 2048, 0});
  config.policy = SchedulerPolicy::disaggregated;
  config.token_budget = 2048;
  config.max_batch = 256;
  config.prefill_tensor_parallel = 2;
  config.decode_tensor_parallel = 2;
  const auto report = simulate_serving(preset_scenario(2048, 2), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_NEAR(report->run.ttft.mean, dk + wait, 4 * se);
  EXPECT_EQ(report->devices, 4);  // one prefill and one decode instance of two devices each
}

TEST(Serving, ChunkingBoundsTheStallOfDecodes) {
  // One long prompt arriving while another request decodes: under prefill-first the decode waits
  // for the whole 32k prefill (its max TBT ≥ that prefill's time, from the trace); chunked at a
  // 512-token budget bounds each stall to one iteration of ≤ 512 tokens, far below it.
  ServingConfig config;
  config.rows = {{0, 128, 64}, {0.05, 32768, 1}};
  config.max_queue = 10;
  config.timeline_points = 0;
  config.policy = SchedulerPolicy::prefill_first;
  const double long_prefill = service_seconds(32768);
  const auto first = simulate_serving(preset_scenario(128), config);
  ASSERT_TRUE(first.ok()) << first.error();
  EXPECT_GE(first->run.outcomes[0].tbt_max_seconds, long_prefill);
  config.policy = SchedulerPolicy::chunked;
  const auto chunked = simulate_serving(preset_scenario(128), config);
  ASSERT_TRUE(chunked.ok()) << chunked.error();
  EXPECT_LT(chunked->run.outcomes[0].tbt_max_seconds, long_prefill / 10);
  // The longest pass: under prefill-first the long prompt's own iteration (it runs alone: the
  // short prompt was admitted and decoding before it arrived, and prefill-first iterations hold
  // prompts only), which is the trace's prefill of 32,768 tokens, as for a lone request above;
  // under chunked a pass of at most the 512-token budget, at least as long as any gap between
  // request 0's tokens (each of its gaps is exactly one iteration: it decodes in every one).
  EXPECT_NEAR(first->run.longest_iteration_seconds, long_prefill, 1e-12 * long_prefill);
  EXPECT_GE(chunked->run.longest_iteration_seconds, chunked->run.outcomes[0].tbt_max_seconds);
  EXPECT_LT(chunked->run.longest_iteration_seconds, long_prefill / 10);
}

TEST(Serving, OverloadStopsAtTheQueueCap) {
  // Ten times the one-at-a-time capacity: the queue passes 50 long before 1,000 requests finish.
  ServingConfig config =
      fcfs(10 / service_seconds(1024), 1000, {LengthDistribution::Kind::fixed, 1024, 0});
  config.max_queue = 50;
  config.ttft_slo_seconds = 1.0;
  const auto report = simulate_serving(preset_scenario(1024), config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(report->run.overloaded);
  EXPECT_GT(report->run.queued_at_stop, 50);
  EXPECT_LT(report->run.completed, 1000);
  // Unfinished requests count as SLO misses.
  EXPECT_LE(*report->run.slo_attainment, static_cast<double>(report->run.completed) / 1000.0);
}

TEST(Serving, BadInputNamesThePath) {
  // Each refusal is asserted by its code and JSON path (include/prefill_trace/result.hpp), never
  // by its wording; the message still starts with the path ("path: what").
  const auto expect_refused = [](const json& serving, ErrorCode code, const std::string& path) {
    json doc = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"serving", serving}};
    const auto reply = api::simulate_serving(doc.dump());
    EXPECT_FALSE(reply.ok) << path;
    EXPECT_EQ(error_code_name(reply.code), std::string(error_code_name(code))) << path;
    EXPECT_EQ(reply.path, path);
    EXPECT_EQ(reply.error.rfind(path + ": ", 0), 0u) << reply.error;
  };
  const json base = {{"rate", 1}, {"requests", 10}, {"prompt", 128}, {"output", 8}};
  const auto with = [&](const char* key, const json& value) {
    json s = base;
    s[key] = value;
    return s;
  };
  expect_refused(with("rate", 0), ErrorCode::out_of_range, "/serving/rate");
  expect_refused(with("rate", "fast"), ErrorCode::wrong_type, "/serving/rate");
  expect_refused(with("requests", 100001), ErrorCode::out_of_range, "/serving/requests");
  expect_refused(with("prompt", "uniform:9:3"), ErrorCode::out_of_range, "/serving/prompt");
  expect_refused(with("prompt", "zipf:3"), ErrorCode::unknown_name, "/serving/prompt");
  expect_refused(with("output", "lognormal:100:-1"), ErrorCode::out_of_range, "/serving/output");
  expect_refused(with("arrival", "gamma:0"), ErrorCode::out_of_range, "/serving/arrival");
  expect_refused(with("arrival", "bursty"), ErrorCode::unknown_name, "/serving/arrival");
  expect_refused(with("policy", "fifo"), ErrorCode::unknown_name, "/serving/policy");
  expect_refused(with("batch", 4), ErrorCode::unknown_field, "/serving/batch");
  expect_refused(with("prefill_devices", 2), ErrorCode::incompatible, "/serving/prefill_devices");
  expect_refused(with("goodput", true), ErrorCode::incompatible, "/serving/goodput");  // no SLO
  // 32 query heads and 8 K/V heads do not split over 3 devices.
  expect_refused(with("prefill_tensor_parallel", 3), ErrorCode::incompatible,
                 "/serving/prefill_tensor_parallel");
  expect_refused(json{{"rate", 1}}, ErrorCode::missing_field, "/serving/prompt");
  // Arrivals must end within a year (limits::max_arrival_seconds = 3.2e7 s): 10 requests need
  // a rate ≥ 10 / 3.2e7 = 3.1e-7. 1e-320 (a denormal) used to put every arrival at Infinity and
  // report an empty run with exit 0.
  expect_refused(with("rate", 1e-7), ErrorCode::out_of_range, "/serving/rate");
  expect_refused(with("rate", 1e-320), ErrorCode::out_of_range, "/serving/rate");
  expect_refused(with("sweep_rates", json::array({1, 1e-7})), ErrorCode::out_of_range,
                 "/serving/sweep_rates/1");
  expect_refused(with("decode_devices", 2), ErrorCode::incompatible, "/serving/decode_devices");
  expect_refused(with("decode_tensor_parallel", 2), ErrorCode::incompatible,
                 "/serving/decode_tensor_parallel");
  json rows = {{"rows", {{1.0, 128, 8}, {0.5, 128, 8}}}};
  expect_refused(rows, ErrorCode::out_of_range, "/serving/rows/1/0");
  // A request whose K/V cannot fit an instance beside the weights (80 GB, 16 GB of weights,
  // 128 KiB of K/V per token: ~490k tokens) is refused, not admitted or left waiting forever.
  expect_refused(with("prompt", 1000000), ErrorCode::incompatible, "/serving/prompt");
  // The document itself: not an object, or no serving object.
  const auto root = api::simulate_serving("[1]");
  EXPECT_EQ(root.code, ErrorCode::wrong_type);
  const auto none = api::simulate_serving(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm"})");
  EXPECT_EQ(none.code, ErrorCode::missing_field);
  EXPECT_EQ(none.path, "/serving");
}

// A CSV is one rate's requests (issue 32): with sweep rates the CSV call is refused at the sweep's
// path, where its rows would otherwise be the base rate's alone; without them it gives a header
// and one row per request (10 requests: 11 CRLF-ended lines).
TEST(Serving, CsvRefusesASweep) {
  json doc = {{"model", "llama-3.1-8b"},
              {"hardware", "h100-sxm"},
              {"serving", {{"rate", 1}, {"requests", 10}, {"prompt", 128}, {"output", 8}}}};
  const auto one_rate = api::simulate_serving_csv(doc.dump());
  ASSERT_TRUE(one_rate.ok) << one_rate.error;
  std::size_t lines = 0;
  for (std::size_t at = one_rate.csv.find("\r\n"); at != std::string::npos;
       at = one_rate.csv.find("\r\n", at + 2))
    ++lines;
  EXPECT_EQ(lines, 11u);
  doc["serving"]["sweep_rates"] = {1, 2};
  const auto sweep = api::simulate_serving_csv(doc.dump());
  EXPECT_FALSE(sweep.ok);
  EXPECT_TRUE(sweep.csv.empty());
  EXPECT_EQ(sweep.code, ErrorCode::incompatible);
  EXPECT_EQ(sweep.path, "/serving/sweep_rates");
  EXPECT_EQ(sweep.error.rfind("/serving/sweep_rates: ", 0), 0u) << sweep.error;
  // The JSON report still takes the sweep.
  EXPECT_TRUE(api::simulate_serving(doc.dump()).ok);
}

// The goodput search's report for 5 requests of 128 prompt and 4 output tokens (Llama-3.1-8B on
// an H100), starting at 1 req/s, against a TTFT objective of `ttft_slo` seconds.
json goodput_search_of_five_short_requests(double ttft_slo) {
  const json doc = {{"model", "llama-3.1-8b"},
                    {"hardware", "h100-sxm"},
                    {"serving",
                     {{"rate", 1},
                      {"requests", 5},
                      {"prompt", 128},
                      {"output", 4},
                      {"ttft_slo", ttft_slo},
                      {"goodput", true}}}};
  const auto reply = api::simulate_serving(doc.dump());
  EXPECT_TRUE(reply.ok) << reply.error;
  return reply.ok ? json::parse(reply.json) : json::object();
}

// Too few requests to find a goodput: 5 requests of 128 prompt and 4 output tokens meet a 10 s
// TTFT objective even when all arrive at once (one 128-token prefill of Llama-3.1-8B on an H100
// reads its 16.06 GB of weights at 3.35 TB/s: >= 4.8 ms; five prefills and four decode steps
// take well under a second). Doubling the rate must stop once every arrival falls within the
// median TTFT (the run is one burst) and report the goodput as unbounded (null), not the last
// rate tried: the search used to double to the arrival-rate limit (2^29 = 5.4e8 req/s, 30 runs).
// Stop rate: the first r with U/r < median TTFT (U = the 5 unit arrivals' span, a sum of five
// Exp(1) draws, < 50 for any practical seed) and median TTFT >= 4.8 ms, so r < 2 * 50 / 0.0048
// = 2.1e4 req/s.
TEST(Serving, GoodputOfABurstThatMeetsTheTargetIsUnbounded) {
  const json report = goodput_search_of_five_short_requests(10);
  EXPECT_TRUE(report["goodput_requests_per_second"].is_null());
  EXPECT_TRUE(report["goodput_per_device"].is_null());
  EXPECT_EQ(report["goodput"]["bounded"], false);
  const json& probes = report["goodput"]["probes"];
  ASSERT_FALSE(probes.empty());
  for (const json& probe : probes) EXPECT_EQ(probe["slo_attainment"], 1.0);
  EXPECT_LT(probes.back()["rate_requests_per_second"].get<double>(), 2.1e4);
}

// A goodput search whose target no rate meets halves the rate from `rate` and stops where 5
// requests would arrive over more than a year: the floor is 5 / 3.2e7 = 1.5625e-7, so the last
// rate run is 2^-22 = 2.38e-7 (2^-23 = 1.19e-7 is below it): 23 runs, goodput 0. A 1 ns TTFT
// SLO is met by no request.
TEST(Serving, GoodputSearchStopsAtTheRateFloor) {
  const json report = goodput_search_of_five_short_requests(1e-9);
  EXPECT_EQ(report["goodput_requests_per_second"], 0.0);
  const json& probes = report["goodput"]["probes"];
  ASSERT_EQ(probes.size(), 23u);
  EXPECT_EQ(probes.front()["rate_requests_per_second"], 1.0 / (1 << 22));
  EXPECT_EQ(probes.back()["rate_requests_per_second"], 1.0);
}

TEST(Serving, SameSeedSameBytes) {
  json doc = {{"model", "llama-3.1-8b"},
              {"hardware", "h100-sxm"},
              {"serving",
               {{"rate", 20},
                {"requests", 300},
                {"prompt", "lognormal:900:0.6"},
                {"output", "uniform:10:200"},
                {"arrival", "gamma:2"},
                {"seed", 3}}}};
  const auto a = api::simulate_serving(doc.dump());
  const auto b = api::simulate_serving(doc.dump());
  ASSERT_TRUE(a.ok) << a.error;
  EXPECT_EQ(a.json, b.json);
  // Another seed draws other requests: the TTFT summary changes, not only the echoed seed.
  doc["serving"]["seed"] = 4;
  EXPECT_NE(json::parse(api::simulate_serving(doc.dump()).json)["ttft_seconds"],
            json::parse(a.json)["ttft_seconds"]);
}

// Issue 33, V3: gamma arrivals over the whole documented CV range (0, 100]. At 770e613 a CV of
// 1e-300 made the shape 1/CV² Infinity, the gaps NaN and the run die of SIGFPE.
TEST(Serving, GammaArrivalsAtTheTiniestCvAreEvenlySpaced) {
  for (const double cv : {std::numeric_limits<double>::denorm_min(), 1e-300, 1e-160, 1e-7}) {
    ServingConfig config = fcfs(10, 50, {LengthDistribution::Kind::fixed, 128, 0});
    config.arrival = ArrivalKind::gamma;
    config.arrival_cv = cv;
    const auto report = simulate_serving(preset_scenario(128), config);
    ASSERT_TRUE(report.ok()) << cv << ": " << report.error();
    ASSERT_EQ(report->run.outcomes.size(), 50u);
    for (std::size_t i = 0; i < 50; ++i) {
      // A gamma of mean 1 and CV c has gaps 1 ± c·|Z|; |Z| ≤ 12.1 from the polar method, so
      // the i+1 gaps sum to i+1 within (i+1)·12.1·c: exactly i+1 when c ≤ 1e-160, as the
      // deviation is far below half an ulp of 1. At the rate of 10 the arrival is (i+1)/10.
      const double expected = static_cast<double>(i + 1) / 10;
      EXPECT_NEAR(report->run.outcomes[i].arrival_seconds, expected, 1e-5 * expected) << cv;
      if (cv <= 1e-160) {
        EXPECT_EQ(report->run.outcomes[i].arrival_seconds, expected) << cv;
      }
    }
  }
}

TEST(Serving, GammaArrivalsAtTheLargestCvStayFinite) {
  // CV 100: shape 1e-4, drawn as Gamma(1 + 1e-4)·U^(1e4); most gaps underflow to 0 and a few
  // are ~1e4 (mean 1). Every arrival finite, in order, and the run completes.
  ServingConfig config = fcfs(1, 200, {LengthDistribution::Kind::fixed, 64, 0});
  config.arrival = ArrivalKind::gamma;
  config.arrival_cv = limits::max_arrival_cv;
  const auto report = simulate_serving(preset_scenario(64), config);
  ASSERT_TRUE(report.ok()) << report.error();
  double previous = 0;
  for (const RequestOutcome& outcome : report->run.outcomes) {
    ASSERT_TRUE(std::isfinite(outcome.arrival_seconds));
    EXPECT_GE(outcome.arrival_seconds, previous);
    previous = outcome.arrival_seconds;
  }
  EXPECT_EQ(report->run.completed, 200);
}

// Issue 33, V5: a lognormal length is clamped at the per-request limit the reader checks
// explicit lengths against (output ≤ 2^20); it was clamped at 2^24, so a request could carry
// 1,146,770 output tokens, or a context over max_context_tokens that refused the whole run.
TEST(Serving, LognormalLengthsStayWithinTheRequestLimit) {
  auto scenario = scenario_from_json(json{{"model", "llama-3.1-8b"},
                                          {"hardware", "b200"},
                                          {"prompt_tokens", 16},
                                          {"tensor_parallel", 8}});
  ASSERT_TRUE(scenario.ok()) << scenario.error();
  ServingConfig config = fcfs(1e9, 200, {LengthDistribution::Kind::fixed, 16, 0});
  // Mean 2^20 and σ = 4: P(X > 2^20) = P(Z > (ln 2^20 − μ)/σ) with μ = ln 2^20 − σ²/2, so
  // P(Z > σ/2 = 2) = 2.3 %: ~4.6 of 200 requests draw past the limit. All arrive at once and the
  // queue cap of 1 stops the run at its first iteration, so the draws are all it costs.
  config.output = {LengthDistribution::Kind::lognormal, double(limits::max_output_tokens), 4};
  config.max_queue = 1;
  const auto report = simulate_serving(*scenario, config);
  ASSERT_TRUE(report.ok()) << report.error();
  int64_t longest = 0;
  for (const RequestOutcome& outcome : report->run.outcomes)
    longest = std::max(longest, outcome.output_tokens);
  EXPECT_EQ(longest, limits::max_output_tokens);  // some drawn past it, held at it
}

// Issue 33, V2: the decode cost cache is bounded by limits::max_decode_cache_slots, not sized by
// the longest context. One mistral-7b request of 16,777,215 prompt tokens (its sliding window
// keeps 4,096 tokens of K/V, so it fits an H100) reserved 80 bytes a token, 1.3 GB, at 770e613.
// The process's peak resident memory may now rise by at most 2^16 slots · 80 bytes (5.2 MB) for
// the cache plus the run's own few MB: 256 MB is far above that and far below 1.3 GB. (Where
// getrusage reports nothing, under Emscripten, both readings are 0 and the bound holds.)
TEST(Serving, DecodeCacheDoesNotGrowWithTheLongestContext) {
  auto scenario = scenario_from_json(json{{"model", "mistral-7b"}, {"hardware", "h100-sxm"}});
  ASSERT_TRUE(scenario.ok()) << scenario.error();
  ServingConfig config = fcfs(1, 1, {LengthDistribution::Kind::fixed, 16777215, 0});
  config.policy = SchedulerPolicy::chunked;
  config.max_batch = 0;  // the default
  const auto peak_kb = [] {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return static_cast<double>(usage.ru_maxrss);  // KB on Linux
  };
  const double before = peak_kb();
  const auto report = simulate_serving(*scenario, config);
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->run.completed, 1);
  EXPECT_LT(peak_kb() - before, 256.0 * 1024);
}

}  // namespace
}  // namespace prefill_trace
