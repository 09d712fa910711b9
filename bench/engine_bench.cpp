// Native engine benchmarks: one trace (core only, and through the JSON facade the CLI and the
// module share), a 1 000-point sweep, and how the cost scales with layers, operators and chunks.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "scenarios.hpp"
#include "trace/trace.hpp"
#include "trace/trace_json.hpp"

namespace {

using namespace prefill_trace;

Scenario parsed(const std::string& text) {
  return parse_scenario(text).value();
}

void BM_Trace405B_Core(benchmark::State& state) {
  const Scenario scenario = parsed(bench::k405b);
  for (auto _ : state) benchmark::DoNotOptimize(compute_trace(scenario, {}));
}
BENCHMARK(BM_Trace405B_Core);

void BM_Trace405B_JsonFacade(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(api::compute_trace(bench::k405b));
}
BENCHMARK(BM_Trace405B_JsonFacade);

void BM_Trace405B_Figures(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(api::trace_figures(bench::k405b));
}
BENCHMARK(BM_Trace405B_Figures);

void BM_ParseScenario(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(parse_scenario(bench::k405b));
}
BENCHMARK(BM_ParseScenario);

void BM_Sweep1000PromptLengths(benchmark::State& state) {
  std::vector<double> values;
  for (int i = 1; i <= 1000; ++i) values.push_back(i * 128.0);
  for (auto _ : state) benchmark::DoNotOptimize(api::sweep(bench::k7b, "prompt_tokens", values));
}
BENCHMARK(BM_Sweep1000PromptLengths)->Unit(benchmark::kMillisecond);

// Layers are identical, so the trace is computed once per distinct layer: cost must not grow
// with L.
void BM_TraceByLayers(benchmark::State& state) {
  Scenario scenario = parsed(bench::k7b);
  scenario.model.layers = state.range(0);
  for (auto _ : state) benchmark::DoNotOptimize(compute_trace(scenario, {}));
}
BENCHMARK(BM_TraceByLayers)->Arg(1)->Arg(32)->Arg(126)->Arg(1024);

// Chunks are the one loop that grows with the input (attention's prior-key sums).
void BM_TraceByChunks(benchmark::State& state) {
  Scenario scenario = parsed(bench::k7b);
  scenario.workload.prompt_tokens = 1 << 20;
  scenario.workload.chunk_tokens = (1 << 20) / state.range(0);
  for (auto _ : state) benchmark::DoNotOptimize(compute_trace(scenario, {}));
}
BENCHMARK(BM_TraceByChunks)->Arg(1)->Arg(64)->Arg(4096)->Arg(65536);

// Operators per layer: dense fused (9), materialized (11), MoE (10).
void BM_TraceByOperators(benchmark::State& state) {
  Scenario scenario = parsed(
      state.range(0) == 2 ? R"({"model":"mixtral-8x7b","hardware":"h100-sxm"})" : bench::k7b);
  if (state.range(0) == 1) scenario.workload.attention = AttentionKind::materialized;
  for (auto _ : state) benchmark::DoNotOptimize(compute_trace(scenario, {}));
  state.SetLabel(std::to_string(compute_trace(scenario, {}).operators.size()) + " operators");
}
BENCHMARK(BM_TraceByOperators)->Arg(0)->Arg(1)->Arg(2);

}  // namespace

BENCHMARK_MAIN();
