#pragma once
// Every bound on the engine's input, in one place. The JSON parser, the scenario reader, the
// sweep, the CLI and the wasm bindings take their limits from here, and docs/robustness.md cites
// these names. Together they keep every figure of a trace finite (no Infinity, no NaN) and every
// integer count computed in double exact below 2^53 for the presets; docs/robustness.md works
// out the largest figure they allow.

#include <cstddef>
#include <cstdint>

namespace prefill_trace::limits {

// --- Text, checked before the allocator is involved ---------------------------------------
/// One lesson or scenario document: the real lesson is 4.7 KB, a scenario ~100 bytes.
constexpr std::size_t max_document_bytes = std::size_t{1} << 20;  // 1 MiB
/// JSON nesting: the lesson needs 3 levels, a scenario 3.
constexpr std::size_t max_json_depth = 32;
/// One JSON string or key: the longest real one is ~700 bytes.
constexpr std::size_t max_json_string_bytes = std::size_t{64} << 10;  // 64 KiB
/// A name passed on its own (a sweep variable, a generated check's id): the longest real ones
/// are 17 bytes ("step2-bound-at-t1", "projection-flops" is 16).
constexpr std::size_t max_identifier_bytes = 256;
/// Input quoted back in an error message (a key in a JSON path, an unknown preset id, a flag's
/// value, a file name): at most this many bytes of it, then "… (N bytes)". Control characters
/// are escaped, so a message is one line of printable text whatever the input held.
constexpr std::size_t max_quoted_bytes = 80;

// --- Sweep -----------------------------------------------------------------------------------
/// Points per sweep call: one call is one trace per point and must not freeze a page.
constexpr std::size_t max_sweep_points = 4096;
/// Work per sweep call, in chunk passes: a prompt_tokens point costs ⌈T/C⌉ (the trace's one loop
/// that grows with input), an arrival_rate sweep one trace. 2^22 passes (4 points of T = 2^24 at
/// C = 16) took 0.72–0.95 s natively on this shared 2-core machine at load ~30; 4096 such points
/// (4.3e9 passes, both limits above respected) took 45–55 s in one call before this bound. The
/// page's 320-point prompt sweep stays inside it unless T is in the millions with a small C.
constexpr double max_sweep_work = double(1 << 22);

// --- Model shape -----------------------------------------------------------------------------
constexpr int64_t max_layers = 4096;
constexpr int64_t max_width = int64_t{1} << 20;  // d_model, d_ff, head counts, head_dim
constexpr int64_t max_vocab = int64_t{1} << 24;
constexpr int64_t max_experts = 4096;

// --- Accelerator -----------------------------------------------------------------------------
/// Dense peak arithmetic rate, FLOP/s: below 1 MFLOP/s means nothing, above 1 EFLOP/s is no chip.
constexpr double min_peak_flops = 1e6;
constexpr double max_peak_flops = 1e18;
/// HBM bandwidth (bytes/s) and capacity (bytes).
constexpr double min_memory_bandwidth = 1e6;
constexpr double max_memory_bandwidth = 1e15;
constexpr double min_memory_capacity = 1e6;
constexpr double max_memory_capacity = 1e15;
constexpr int64_t max_compute_units = int64_t{1} << 20;
/// On-chip memory one block may use (sets FlashAttention's tile edge).
constexpr double min_sram_per_unit_bytes = 1024;
constexpr double max_sram_per_unit_bytes = 1e9;
constexpr double max_l2_bytes = 1e12;
constexpr double max_launch_overhead_seconds = 1;
/// Device-to-device link bandwidth (bytes/s, one way) for tensor parallelism's all-reduces:
/// 0 (no link stated) or the same range as HBM bandwidth. Without a floor, 1e-300 B/s gave
/// infinite all-reduce times.
constexpr double min_interconnect_bandwidth = 1e6;
constexpr double max_interconnect_bandwidth = 1e15;
/// The estimate profile's times per kernel or per call (launch gaps, the memory latency floor,
/// the all-reduce overhead), seconds: measured ones are microseconds.
constexpr double max_profile_seconds = 1;
/// The estimate's interval factors (seconds_low = seconds·low, seconds_high = seconds·high):
/// low from 1/100 to 1, high from 1 to 100; a wider range would say nothing.
constexpr double min_interval_low = 0.01;
constexpr double max_interval_high = 100;

// --- Workload --------------------------------------------------------------------------------
constexpr int64_t max_prompt_tokens = int64_t{1} << 24;  // 16.7 M tokens
constexpr int64_t max_batch = int64_t{1} << 16;
constexpr int64_t max_chunks = int64_t{1} << 20;  // ⌈T/C⌉, the attention loop's length
constexpr int64_t max_gemm_m_tile = 4096;
constexpr int64_t max_attention_block = 4096;
/// Requests/s: 0 (no queue), else at least 1e-30. Batch formation waits (B − 1)/(2λ): at the
/// floor and B = 2^16 that is 3.3e34 s, finite (λ = 1e-320 made it Infinity with `overloaded`
/// false). The floor sits below every rate a sweep may sensibly ask for: the slowest admitted
/// scenario (below) serves a batch in ~2.3e26 s, a saturation rate of ~2.9e-22/s, and the page
/// sweeps from 1e-3 of the saturation rate.
constexpr double min_arrival_rate = 1e-30;
constexpr double max_arrival_rate = 1e9;
constexpr double max_delivery_seconds = 3600;
/// Devices one layer is split over (tensor parallelism).
constexpr int64_t max_tensor_parallel = 1024;
/// Achievable / peak, for arithmetic and for bandwidth. Measured kernels reach 0.3 to 0.8 of
/// peak; 0.001 leaves room to explore a thousandfold-slow device while keeping every time
/// finite: the largest FLOP count the bounds above allow (~1e40) over the slowest allowed rate
/// (1e6 FLOP/s × 0.001) is 1e37 s, far inside double range. A denormal efficiency such as
/// 1e-310 would otherwise overflow times to Infinity.
constexpr double min_efficiency = 1e-3;
constexpr double max_efficiency = 1;

}  // namespace prefill_trace::limits

namespace prefill_trace::limits {

// --- Serving simulation (src/serving/serving.hpp, docs/serving.md) -----------------------------------
/// Requests per run: 100,000 simulate in well under a second natively (docs/performance.md).
constexpr int64_t max_serving_requests = 100000;
/// Output tokens of one request, and prompt + output of one request (its context).
constexpr int64_t max_output_tokens = int64_t{1} << 20;
constexpr int64_t max_context_tokens = int64_t{1} << 24;
/// Σ output tokens of a run's requests: one decode row each, so it bounds a run's work. With the
/// requests bound it keeps one run under ~2 s natively and a goodput search under a minute.
constexpr double max_serving_output_tokens = 1e8;
/// Σ prompt tokens of a run's requests.
constexpr double max_serving_prompt_tokens = 1e9;
/// Tokens one iteration may carry, and requests one instance may run at once.
constexpr int64_t max_token_budget = int64_t{1} << 20;
constexpr int64_t max_running_requests = int64_t{1} << 16;
/// Instances of each role under the disaggregated policy.
constexpr int64_t max_serving_instances = 256;
/// Waiting requests that stop a run as overloaded: default and largest.
constexpr int64_t default_serving_max_queue = 1000;
/// Extra runs of a rate sweep, and points of the downsampled timeline.
constexpr std::size_t max_serving_sweep_rates = 256;
constexpr int64_t max_timeline_points = 10000;
/// Gamma inter-arrival coefficient of variation, and lognormal σ of ln(length).
constexpr double max_arrival_cv = 100;
constexpr double max_length_sigma = 4;
/// Seconds of an explicit request row's arrival: a year. It bounds generated arrivals too: at
/// every rate a run uses (`rate`, `sweep_rates`, the goodput search's), requests / rate — the
/// expected last arrival — must not exceed it. The simulation keeps absolute times in doubles,
/// which resolve about t·2⁻⁵² s at time t: 7e-9 s at a year, below any iteration. Unbounded,
/// λ = 1e-300 put arrivals near 1e300 s, where a 1 ms prefill vanished into rounding (TTFT 0),
/// and λ = 1e-320 made every arrival Infinity (an empty report). The trace's queue is a formula
/// without a clock and keeps min_arrival_rate (1e-30).
constexpr double max_arrival_seconds = 3.2e7;
/// SLO targets, seconds.
constexpr double max_slo_seconds = 1e6;
/// A request trace's text (src/serving/request_trace.hpp): Azure's conversation trace is 0.8 MB
/// (19,366 requests), a Mooncake trace with its hash ids ~10 MB; 64 MiB leaves room for the
/// request limit above at any line length a real trace has, and refuses a 2 GB file unread.
constexpr std::size_t max_request_trace_bytes = std::size_t{64} << 20;
/// A trace's rate scale (arrivals divided by it): a thousandfold either way.
constexpr double min_trace_rate_scale = 1e-3;
constexpr double max_trace_rate_scale = 1e3;
/// Slots of a cost model's decode cache (src/serving/cost.hpp), a power of two: 80 bytes each,
/// 5.2 MB at most per cost model, two in a disaggregated run. Sized by the longest context, the
/// cache took 80 bytes a token: 1.3 GB for one 16,777,215-token prompt, past the wasm heap's
/// 128 MB. Contexts past it share slots (direct-mapped): the same figures, recomputed on a miss.
constexpr std::size_t max_decode_cache_slots = std::size_t{1} << 16;
/// Tokens per K/V block under `kv: "paged"` (vLLM's block_size: 16 by default; its CUDA kernels
/// take 8 to 32, some backends more). 1 is token-granular paging.
constexpr int64_t max_kv_block_size = 1024;
/// `token_times` (docs/serving.md, "Token times"): requests whose every token time a report
/// returns, Σ output tokens of those requests (one double each: 2 MiB, ~5 MB of JSON at most),
/// and prefill passes and preemptions kept per request (each list keeps its first this many and
/// says `truncated`: a 16.7 M-token prompt in 512-token chunks has 32,768 passes). Together at
/// most 64 × 2 × 4096 × 24 bytes + 2 MiB ≈ 15 MB, within the wasm heap.
constexpr int64_t max_token_times_requests = 64;
constexpr int64_t max_token_times_tokens = int64_t{1} << 18;
constexpr std::size_t max_token_times_events = 4096;
/// Iterations of one run, and of all the runs of one call (the run, a second pass of it that
/// draws a long run's timeline, the goodput search's runs and the sweep's). A run's memory does
/// not grow with its iterations (the timeline is folded into its buckets as the run goes); these
/// bound its time: 2^22 one-row iterations took ~0.8 s of CPU natively (docs/robustness.md).
/// Checked before a call from its longest request's decode steps, and during it.
constexpr int64_t max_serving_run_iterations = int64_t{1} << 22;
constexpr int64_t max_serving_call_iterations = int64_t{1} << 23;
/// Work of one call, in units of one decode row: a row (decode or prompt chunk) 1, an iteration
/// 40, an operator-model evaluation (a cost-cache miss) 50 — the ratios of their measured CPU
/// times (docs/robustness.md). 4e8 units is ~2 s of CPU natively at the worst mix measured;
/// 256 sweep rates of a heavy-decode workload (~5 s each) are refused instead of running 20 min.
/// Checked before the call from its lower bound and during it, every iteration.
constexpr double max_serving_call_work = 4e8;
/// The placement search (src/serving/plan.hpp): its device budget, and the work of all its
/// goodput searches together in max_serving_call_work's units. The candidates grow as N² (the
/// disaggregated pairs of instance counts; docs/performance.md, "Placement search"): 16 devices
/// are ~5× the searches of 8. 2e9 units was ~7 s of CPU natively on 200 requests at 16 devices
/// (docs/performance.md); a plan past it is refused, naming the limit, instead of running for
/// minutes.
constexpr int64_t max_plan_devices = 16;
constexpr double max_plan_work = 2e9;

}  // namespace prefill_trace::limits
