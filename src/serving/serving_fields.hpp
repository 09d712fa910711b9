#pragma once
// The serving input (the scenario's `serving` object, docs/serving.md) described once, as the
// scenario's fields are (scenario_fields.hpp, whose row type and builders it shares): each key's
// kind, default, bounds (from limits.hpp), menu, CLI flag, the page's label and a line for the
// docs. The reader (serving_json.cpp) takes its key list, bounds and defaults from here; the
// engine exports the table as JSON (api::serving_fields(), the page's servingFields()), from
// which the CLI's serve flags (src/cli/flags.cpp) and the page's Under-load controls take their
// names, labels and hints; tests fail when docs/serving.md's input table,
// bindings/prefill-trace.d.ts's ServingInput or the page disagree with it
// (tests/js/serving-fields.test.mjs, tests/cpp/serving_fields_test.cpp).
//
// Adding a serving input: a row here, its member in ServingConfig (serving.hpp) and its read in
// serving_json.cpp (read order decides which of two errors is reported first), its effect, and
// a row in the docs' table and a member in the d.ts, which the tests name when missing.

#include <array>
#include <cstdint>
#include <string_view>

#include "limits.hpp"
#include "scenario/scenario_fields.hpp"

namespace prefill_trace {

/// The members of the `serving` object, in the order docs/serving.md states them.
inline constexpr std::array<ScenarioField, 29> kServingFields = [] {
  using namespace field_rows;
  constexpr int64_t max_seed = int64_t{1} << 53;  // every seed a JSON double holds exactly
  return std::array<ScenarioField, 29>{
      // In SchedulerPolicy's order.
      choice("policy", 1,
             {{"prefill-first", "Prefill first"},
              {"chunked", "Chunked prefill"},
              {"disaggregated", "Disaggregated prefill and decode"}})
          .with_flag("--policy")
          .with_docs("the scheduler (\"Schedulers\" below)"),
      number("rate", 0, 0, limits::max_arrival_rate)
          .above_min()
          .required_field()
          .with_unit("requests/s", "λ")
          .with_flag("--rate")
          .with_control("Arrival rate (requests/s)", "Poisson arrivals for one simulated minute.")
          .with_docs("arrival rate, required unless `rows` are given; at least `requests` / 3.2e7: "
                     "the arrivals must end within a year, as explicit rows must "
                     "(`limits::max_arrival_seconds`)"),
      integer("requests", 0, 1, limits::max_serving_requests)
          .required_field()
          .with_flag("--requests")
          .with_docs("number of requests, required unless `rows` are given"),
      integer("seed", 1, 0, max_seed)
          .with_flag("--seed")
          .with_docs("seed of the generated arrivals and lengths"),
      length("prompt", limits::max_prompt_tokens)
          .required_field()
          .with_unit("tokens")
          .with_flag("--prompt-length")
          .with_docs("prompt tokens: a count, or `fixed:T`, `uniform:A:B` (whole numbers, "
                     "inclusive), `lognormal:MEAN:SIGMA` (mean of the count, σ of its logarithm, "
                     "0 ≤ σ ≤ 4); required unless `rows` are given"),
      length("output", limits::max_output_tokens)
          .required_field()
          .with_unit("tokens")
          .with_flag("--output-length")
          .with_control("Output tokens per request", "Each request decodes this many tokens.")
          .with_docs("output tokens, same forms; the first comes from the prefill; required "
                     "unless `rows` are given"),
      text("arrival", "poisson")
          .with_flag("--arrival")
          .with_docs("`poisson`, or `gamma:CV` (gamma inter-arrival times with coefficient of "
                     "variation CV, 0 < CV ≤ 100; CV > 1 is burstier than Poisson)"),
      list("rows").with_docs(
          "explicit requests `[[arrival_seconds, prompt_tokens, output_tokens], ...]` in arrival "
          "order (scenario file only); replaces rate, requests, prompt, output, arrival"),
      number("prefix_hit", 0, 0, 1)
          .with_flag("--prefix-hit")
          .with_docs("share of every prompt already in the prefix cache (⌊f·T⌋ tokens, at most "
                     "T − 1: the last prompt token is always computed, it samples)"),
      integer("token_budget", 0, 1, limits::max_token_budget)
          .without_default()
          .with_unit("tokens")
          .with_flag("--token-budget")
          .with_docs("tokens one iteration may carry; default 512 (chunked), 8192 "
                     "(prefill-first, disaggregated prefill)"),
      integer("max_batch", 0, 1, limits::max_running_requests)
          .without_default()
          .with_unit("requests")
          .with_flag("--max-batch")
          .with_docs("running requests per instance; default 256"),
      integer("max_queue", 0, 1, limits::max_serving_requests)
          .without_default()
          .with_unit("requests")
          .with_flag("--max-queue")
          .with_docs("a run stops as overloaded when more requests than this wait for "
                     "admission; default 1000"),
      integer("prefill_devices", 0, 1, limits::max_serving_instances)
          .without_default()
          .with_flag("--prefill-devices")
          .with_docs("disaggregated only: prefill instances; default 1"),
      integer("decode_devices", 0, 1, limits::max_serving_instances)
          .without_default()
          .with_flag("--decode-devices")
          .with_docs("disaggregated only: decode instances; default 1"),
      integer("prefill_tensor_parallel", 0, 1, limits::max_tensor_parallel)
          .without_default()
          .with_unit("devices")
          .with_flag("--prefill-tensor-parallel")
          .with_docs("a prefill (or colocated) instance's tensor-parallel degree, checked by the "
                     "scenario's TP rules; default the scenario's `tensor_parallel`"),
      integer("decode_tensor_parallel", 0, 1, limits::max_tensor_parallel)
          .without_default()
          .with_unit("devices")
          .with_flag("--decode-tensor-parallel")
          .with_docs("disaggregated only: a decode instance's tensor-parallel degree; default the "
                     "scenario's `tensor_parallel`"),
      number("ttft_slo", 0, 0, limits::max_slo_seconds)
          .above_min()
          .without_default()
          .with_unit("s")
          .with_flag("--ttft-slo")
          .with_control("TTFT objective (s)",
                        "A request meets it when its first token comes within this.")
          .with_docs("time-to-first-token objective; none when absent"),
      number("tpot_slo", 0, 0, limits::max_slo_seconds)
          .above_min()
          .without_default()
          .with_unit("s")
          .with_flag("--tpot-slo")
          .with_control("TPOT objective (s)", "The mean gap between its later tokens.")
          .with_docs("time-per-output-token objective; none when absent"),
      number("attainment", 0.9, 0, 1)
          .above_min()
          .with_flag("--attainment")
          .with_docs("goodput target: share of requests meeting every given SLO"),
      flag("goodput", false)
          .with_flag("--goodput")
          .with_docs("search the goodput (needs an SLO and generated arrivals)"),
      number("goodput_tolerance", 0.01, 1e-4, 0.5)
          .with_docs("relative width of the goodput search's final bracket (scenario file only)"),
      list("sweep_rates")
          .with_unit("requests/s")
          .with_flag("--sweep-rates")
          .with_docs("extra runs at these rates (attainment against rate), 1 to 256 rates, each "
                     "> 0 and ≤ 1e9"),
      integer("timeline_points", 200, 0, limits::max_timeline_points)
          .with_flag("--timeline-points")
          .with_docs("points of the downsampled timeline"),
      // In KvMode's order.
      choice("kv", 0,
             {{"paged", "Paged (blocks on demand, preemption)"}, {"reserve", "Reserved up front"}})
          .with_flag("--kv")
          .with_docs(
              "K/V memory: `paged` (vLLM's blocks on demand, preemption by recomputation) or "
              "`reserve` (each request's whole K/V reserved at admission; \"K/V memory\" below)"),
      integer("block_size", 16, 1, limits::max_kv_block_size)
          .with_unit("tokens")
          .with_flag("--block-size")
          .with_docs("tokens per K/V block (vLLM's default 16); under reserve only the unit its "
                     "blocks are counted in"),
      number("gpu_memory_utilization", 0, 0, 1)
          .above_min()
          .without_default()
          .with_flag("--gpu-memory-utilization")
          .with_docs("share of device memory for weights, activations and K/V (vLLM's meaning); "
                     "0.9 under paged, 1 under reserve when absent"),
      integer("token_times", 0, 0, limits::max_token_times_requests)
          .with_unit("requests")
          .with_flag("--token-times")
          .with_docs("return every token time of this many requests: the longest prompt and its "
                     "neighbours in arrival order (\"Token times\" below); their output tokens "
                     "sum to at most 262,144 (`limits::max_token_times_tokens`)"),
      number("trace_rate_scale", 1, limits::min_trace_rate_scale, limits::max_trace_rate_scale)
          .with_flag("--trace-rate-scale")
          .with_docs("with a request trace (`--trace FILE`): its arrival times divided by this "
                     "(2 replays it at twice its rate)"),
      integer("trace_limit", 0, 0, limits::max_serving_requests)
          .with_unit("requests")
          .with_flag("--trace-limit")
          .with_docs("with a request trace: its first N requests only; 0 = all"),
  };
}();

constexpr const ScenarioField& serving_field(std::string_view name) {
  return field_named(kServingFields, name);
}

/// A CLI spelling kept beside a field's own flag (docs/serving.md): `--prompt T` and
/// `--prompt-dist D` were serve's prompt flags before `--prompt-length`, and `--prompt` means
/// `prompt_tokens` under `trace`. `kind` is how the flag's value is read: number (a decimal
/// the CLI parses) or text (passed as typed).
struct FlagAlias {
  std::string_view flag;
  std::string_view key;
  FieldKind kind;
};
inline constexpr std::array<FlagAlias, 4> kServingFlagAliases{{
    {"--prompt", "prompt", FieldKind::number},
    {"--prompt-dist", "prompt", FieldKind::text},
    {"--output", "output", FieldKind::number},
    {"--output-dist", "output", FieldKind::text},
}};

/// The table as JSON text: {"serving": [field…], "aliases": [{flag, key, kind}]}, each field as
/// scenario_fields_json() writes one plus {flag, min_exclusive}.
std::string serving_fields_json();

}  // namespace prefill_trace
