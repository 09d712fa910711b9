// Speed of the serving simulation (docs/performance.md, "Serving simulation"): simulated seconds
// per CPU second for 10,000 Poisson requests of Llama-3.1-8B on an H100 at 80 % load, and how
// the cost grows with requests and output length. Reports figures; nothing fails on time.
// The core run only (no JSON text): `simulate_serving` as the CLI and the module call it.
#include <benchmark/benchmark.h>

#include <string>

#include "serving/serving.hpp"
#include "serving/serving_json.hpp"

namespace {

using namespace prefill_trace;

// The workload of bench/serving-bench.mjs: Llama-3.1-8B, H100-SXM, bf16, bound timing.
std::string request_text(const std::string& policy, double rate, int64_t requests,
                         int64_t output_mean) {
  return std::string(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "serving": {)") +
         R"("policy": ")" + policy + R"(", "rate": )" + std::to_string(rate) + R"(, "requests": )" +
         std::to_string(requests) + R"(, "prompt": "lognormal:1024:0.5", "output": "lognormal:)" +
         std::to_string(output_mean) +
         R"(:0.5", "ttft_slo": 0.5, "tpot_slo": 0.05, "max_queue": 100000}})";
}

ServingRequest parsed(const std::string& text) {
  return parse_serving_request(text).value();
}

// Capacity of a policy: the throughput of a saturated run (every request queued at once).
double capacity(const std::string& policy, int64_t output_mean) {
  const ServingRequest saturated = parsed(request_text(policy, 1e6, 3000, output_mean));
  return simulate_serving(saturated.scenario, saturated.config)
      .value()
      .run.throughput_requests_per_second;
}

// One run at 80 % of capacity; counters: simulated seconds, iterations, and simulated seconds
// per CPU second (the figure the issue asks for, ≥ 1e4).
void run_at_80_percent(benchmark::State& state, const std::string& policy, int64_t requests,
                       int64_t output_mean) {
  const double rate = 0.8 * capacity(policy, output_mean);
  const ServingRequest request = parsed(request_text(policy, rate, requests, output_mean));
  double simulated = 0;
  double iterations = 0;
  for (auto _ : state) {
    const ServingReport report = simulate_serving(request.scenario, request.config).value();
    simulated = report.run.simulated_seconds;
    iterations = static_cast<double>(report.run.iterations);
    benchmark::DoNotOptimize(report.run.ttft.p99);
  }
  state.counters["simulated_s"] = simulated;
  state.counters["iterations"] = iterations;
  state.counters["sim_s_per_cpu_s"] =
      benchmark::Counter(simulated, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Serving10k_Chunked(benchmark::State& state) {
  run_at_80_percent(state, "chunked", 10000, 128);
}
BENCHMARK(BM_Serving10k_Chunked)->Unit(benchmark::kMillisecond);

void BM_Serving10k_PrefillFirst(benchmark::State& state) {
  run_at_80_percent(state, "prefill-first", 10000, 128);
}
BENCHMARK(BM_Serving10k_PrefillFirst)->Unit(benchmark::kMillisecond);

void BM_Serving10k_Disaggregated(benchmark::State& state) {
  run_at_80_percent(state, "disaggregated", 10000, 128);
}
BENCHMARK(BM_Serving10k_Disaggregated)->Unit(benchmark::kMillisecond);

// Growth in requests (output ~128) and in output length (2,500 requests, rate at 80 % of the
// capacity for that output length).
void BM_ServingByRequests(benchmark::State& state) {
  run_at_80_percent(state, "chunked", state.range(0), 128);
}
BENCHMARK(BM_ServingByRequests)
    ->Arg(2500)
    ->Arg(5000)
    ->Arg(10000)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);

void BM_ServingByOutput(benchmark::State& state) {
  run_at_80_percent(state, "chunked", 2500, state.range(0));
}
BENCHMARK(BM_ServingByOutput)->Arg(64)->Arg(128)->Arg(256)->Arg(512)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
