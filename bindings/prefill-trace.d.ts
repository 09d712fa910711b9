// Type declarations for the prefill-trace WebAssembly module (Emscripten 3.1.6 + Embind).
// Hand-written: Embind in 3.1.6 has no --emit-tsd. https://github.com/SemiAIFoundry/prefill-trace/blob/main/tests/js/api-surface.test.mjs checks every
// name declared here against the real module's exports, so this file cannot drift silently.
//
// Nothing throws across the boundary, whatever is passed (https://github.com/SemiAIFoundry/prefill-trace/blob/main/bindings/boundary-post.js checks every
// argument in JS before anything enters wasm; https://github.com/SemiAIFoundry/prefill-trace/blob/main/tests/js/boundary.test.mjs calls each function with
// no arguments, too many, every wrong type and a 200 MiB string). Every call except version()
// returns its result object; `ok === false` means `error` holds one line naming the argument,
// JSON path or field that is wrong, and the payload fields hold their empty values ("", false,
// 0, -1 for correctIndex, an empty Float64Array). The refusals at the boundary:
//   - a wrong argument count: "computeTrace: expects 1 argument (scenarioJson), got 0";
//   - a wrong type: "id must be a string, not null", "checkIndex must be a number, not string";
//   - a document (lessonText, scenarioJson) of more than 1 MiB (1 048 576 bytes of UTF-8):
//     "scenarioJson: byte 0: document of more than 1048576 bytes exceeds the limit of 1048576";
//   - a name (sweep's variable, checkGenerated's id) of more than 256 bytes:
//     "id: string of more than 256 bytes exceeds the limit of 256";
//   - sweep values that are not an array or typed array of 1 to 4096 numbers.
// The limits are https://github.com/SemiAIFoundry/prefill-trace/blob/main/src/limits.hpp's (https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/robustness.md).
//
// Every result also carries `code` (an ErrorCode, ErrorCode.none when ok), `path` (the JSON
// Pointer of the value concerned, "" when none; a sweep value is "/values/I"), `what` (the
// problem without the path) and `detail` (its parts: the expected kind, the bounds, the refused
// value). Branch on these, never on the wording of `error`, which is for people and may change.

/** What kind of problem a refusal is: stable names and numbers (include/prefill_trace/result.hpp). */
export interface ErrorCodeValue<Name extends string = string> {
  /** The code's stable number (include/prefill_trace/result.hpp). */
  readonly value: number;
}
/** In the order of their numbers, as result.hpp's kErrorCodeNames (tests/js/error-codes.test.mjs). */
export type ErrorCodeName =
  | "none" | "invalid_json" | "too_large" | "wrong_type" | "missing_field" | "unknown_field"
  | "out_of_range" | "unknown_name" | "incompatible" | "integrity" | "usage" | "io" | "internal";
export type ErrorCodeEnum = { readonly [N in ErrorCodeName]: ErrorCodeValue<N> } & {
  readonly values: { readonly [value: number]: ErrorCodeValue };
};

/**
 * What the engine's field readers knew about a value they refused (include/prefill_trace/result.hpp
 * ErrorDetail): a member that does not apply is "" (texts) or NaN (bounds), as it is for every
 * error raised outside the field readers.
 */
export interface ErrorDetail {
  /** The kind the value must be: "integer", "number", "string", "boolean", "object", "one_of" (a field's choices), or "". */
  expected: string;
  /** A wrong_type value's JSON type ("string", "null", "number" for a fraction where an integer is expected), or "". */
  found: string;
  /** The refused value's JSON text (excerpted to one line), or "". */
  value: string;
  /** out_of_range: the allowed range, minimum to maximum; NaN otherwise. */
  minimum: number;
  maximum: number;
  /** The range is above minimum, not from it. */
  minimumExcluded: boolean;
  /** 0 (none) is allowed besides the range. */
  zeroAllowed: boolean;
}

/** The fields every result has when it is refused. */
export interface Refusal {
  code: ErrorCodeValue;
  /** JSON Pointer of the value concerned ("/prompt_tokens"), or "" */
  path: string;
  /** The problem without the path ("must be an integer from 1 to 4096"); `error` is "path: what", or `what` alone. */
  what: string;
  detail: ErrorDetail;
}

/** Result of validating a lesson-data file against the Atlas lesson contract. */
export interface LessonResult extends Refusal {
  ok: boolean;
  /** e.g. "/check/answer: must be an integer index into /check/options (3 items)" */
  error: string;
  /** The validated lesson re-serialized as canonical JSON (unknown fields kept). */
  lessonJson: string;
}

/** Result of checking one quiz answer with the engine. */
export interface QuizResult extends Refusal {
  ok: boolean;
  error: string;
  correct: boolean;
  /** 0-based index of the correct option. */
  correctIndex: number;
  explanation: string;
}

/** A JSON payload (trace, presets, sweep, generated checks) or an error. */
export interface JsonResult extends Refusal {
  ok: boolean;
  error: string;
  /** JSON text; the shape is documented in https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/trace-json.md (a trace: `TraceDocument`). */
  json: string;
}

/** The trace as CSV text (one row per operator; the CLI's --csv), or an error. */
export interface CsvResult extends Refusal {
  ok: boolean;
  error: string;
  /** CSV text (RFC 4180, CRLF); empty when ok is false. */
  csv: string;
}

/** The trace's figures as one flat array (no JSON), or an error. */
export interface FiguresResult extends Refusal {
  ok: boolean;
  error: string;
  /** Empty when ok is false. */
  figures: Float64Array;
}

/** What a trace leaf's number counts (`TraceLeaves`): "none" for flags, texts and bounds; a group's is the unit its members share, or "none". */
export type LeafUnit =
  | "bytes" | "seconds" | "flop" | "flop_per_byte" | "flop_per_second" | "bytes_per_second"
  | "per_second" | "count" | "tokens" | "fraction" | "factor" | "version" | "none";

/** One leaf of a trace document, as `traceLeaves` describes it. */
export interface TraceLeaf {
  /** Keys from the root, "/"-separated; an array's items are "*" ("steps/*\/facts/kv_bytes_kept"). */
  path: string;
  /** "object" is a group of members, listed so that a group has its label too. */
  kind: "number" | "number_or_null" | "boolean" | "text" | "bound" | "object";
  unit: LeafUnit;
  /** A short label for a person; "" for texts the table does not describe. */
  label: string;
  /** The description's row in the engine's table: the order to show facts in; -1 for none. */
  rank: number;
}

/** `JSON.parse(traceLeaves(s).json)`: every leaf path of the scenario's trace, in document order. */
export interface TraceLeaves {
  leaves: TraceLeaf[];
  /** Every LeafUnit name, in the engine's order. */
  units: LeafUnit[];
}

/** What limits a kernel, a step or a decode step (the engine's Bound, in code order). */
export type Bound = "compute" | "memory" | "overhead" | "interconnect";

/**
 * `JSON.parse(figuresLayout())`: what a reader of `traceFigures` needs besides a parsed trace.
 * `figures` = [version, signature, then every number, null (NaN), boolean (1 / 0) and bound
 * (its index in `bound_names`) of the trace document, in the order its JSON text prints them].
 * A string whose key is in `bound_keys` is a bound; every other string is part of the shape the
 * signature hashes.
 */
export interface FiguresLayout {
  /** ["bound", "prefill_bound"] */
  bound_keys: string[];
  /** ["compute", "memory", "overhead", "interconnect"]: a bound's figure is its index here. */
  bound_names: Bound[];
  /** 3 */
  version: number;
}

/**
 * A scenario as `computeTrace` and the CLI's `--scenario` read it (docs/trace-json.md,
 * "Scenario (input)"; ranges and defaults: `scenarioFields()`). Only `model` and `hardware` are
 * required; a key not listed here is refused by its JSON path.
 */
export interface ScenarioInput {
  model: string | ModelShapeInput;
  /** A preset id, or an accelerator object. */
  hardware: string | AcceleratorInput;
  precision?: "bf16" | "fp16" | "fp8" | "int8" | "int4" | { weights?: string; activations?: string; kv?: string };
  prompt_tokens?: number;
  batch?: number;
  chunk_tokens?: number | null;
  attention?: "fused" | "materialized";
  gemm_m_tile?: number;
  attention_block?: number;
  arrival_rate?: number;
  delivery_seconds?: number;
  compute_efficiency?: number | null;
  memory_efficiency?: number | null;
  timing?: "bound" | "estimate";
  graphs?: "on" | "off";
  stack?: "tensorrt-llm" | "vllm" | "sglang" | "llama.cpp" | "transformers" | "kernels" | "vllm-0.2";
  attention_kernel?: "auto" | "flash-attention-2" | "flash-attention-3" | "flashinfer" | "sdpa";
  tensor_parallel?: number;
}

/**
 * The `serving` object `simulateServing` and `prefill-trace serve --scenario` read
 * (docs/serving.md, "Input"; ranges, defaults and CLI flags: `servingFields()`). rate, requests,
 * prompt and output are required unless `rows` are given; a key not listed here is refused by
 * its JSON path.
 */
export interface ServingInput {
  policy?: "prefill-first" | "chunked" | "disaggregated";
  rate?: number;
  requests?: number;
  seed?: number;
  /** A token count, or "fixed:T", "uniform:A:B", "lognormal:MEAN:SIGMA". */
  prompt?: number | string;
  output?: number | string;
  /** "poisson" or "gamma:CV". */
  arrival?: string;
  /** [arrival_seconds, prompt_tokens, output_tokens] per request, in arrival order. */
  rows?: [number, number, number][];
  prefix_hit?: number;
  token_budget?: number;
  max_batch?: number;
  max_queue?: number;
  prefill_devices?: number;
  decode_devices?: number;
  prefill_tensor_parallel?: number;
  decode_tensor_parallel?: number;
  ttft_slo?: number;
  tpot_slo?: number;
  attainment?: number;
  goodput?: boolean;
  goodput_tolerance?: number;
  sweep_rates?: number[];
  timeline_points?: number;
  /** K/V memory: "paged" (blocks on demand, preemption by recomputation; the default) or "reserve". */
  kv?: "paged" | "reserve";
  /** Tokens per K/V block (16); under reserve only the unit its blocks are counted in. */
  block_size?: number;
  /** Share of device memory for weights, activations and K/V (0.9 paged, 1 reserve). */
  gpu_memory_utilization?: number;
  /** Requests whose every token time the report returns (`token_times`), 0 to 64. */
  token_times?: number;
  /** With a request trace (`simulateServingTrace`): its arrivals divided by this (1e-3 to 1e3). */
  trace_rate_scale?: number;
  /** With a request trace: its first N requests only; 0 = all. */
  trace_limit?: number;
}

/** A scenario with its serving workload: what `simulateServing` takes (as JSON text). */
export interface ServingScenarioInput extends ScenarioInput {
  serving: ServingInput;
}

/** A model shape object: without `preset`, layers, d_model, query_heads, d_ff and vocab are required. */
export interface ModelShapeInput {
  preset?: string;
  id?: string;
  name?: string;
  source_url?: string;
  layers?: number;
  d_model?: number;
  query_heads?: number;
  kv_heads?: number;
  head_dim?: number;
  d_ff?: number;
  mlp?: "gated" | "plain";
  vocab?: number;
  experts?: number;
  active_experts?: number;
  tied_embeddings?: boolean;
  sliding_window?: number | null;
  parallel_attention?: boolean;
}

/**
 * An accelerator object (`"hardware": {…}`): without `preset`, peak_flops, memory_bandwidth,
 * memory_capacity and sram_per_unit_bytes are required.
 */
export interface AcceleratorInput {
  preset?: string;
  id?: string;
  name?: string;
  source_url?: string;
  note?: string;
  peak_flops?: Partial<Record<"fp32" | "bf16" | "fp16" | "fp8" | "int8" | "int4", number>>;
  memory_bandwidth?: number;
  memory_capacity?: number;
  compute_units?: number;
  sram_per_unit_bytes?: number;
  l2_bytes?: number;
  launch_overhead_seconds?: number;
  architecture?: "ampere" | "ada" | "hopper" | "blackwell" | "cdna3";
  interconnect_name?: string;
  interconnect_source_url?: string;
  interconnect_bandwidth?: number;
  interconnect_kind?: "nvlink" | "pcie";
  interconnect_reduces_in_network?: boolean;
  estimate?: EstimateProfileInput;
}

/**
 * An accelerator's calibrated profile (`"estimate": {…}`, used under timing "estimate"): the four
 * efficiencies are required unless the preset it overrides has a profile.
 */
export interface EstimateProfileInput {
  gemm_efficiency?: number;
  attention_efficiency?: number;
  expert_gemm_efficiency?: number;
  memory_efficiency?: number;
  interconnect_efficiency?: number;
  all_reduce_overhead_seconds?: number;
  kernel_gap_seconds?: number;
  graph_launch_gap_seconds?: number;
  memory_latency_seconds?: number;
  decode_memory_efficiency?: number;
  decode_memory_latency_seconds?: number;
  stack_gap_seconds?: Partial<Record<"tensorrt-llm" | "vllm" | "sglang" | "llama.cpp" | "transformers" | "kernels", number>>;
  attention_kernel_efficiency?: Partial<Record<"flash-attention-2" | "flash-attention-3" | "flashinfer" | "sdpa", number>>;
  interval?: Partial<Record<"end_to_end_single" | "end_to_end_parallel" | "gemm" | "attention" | "elementwise" | "all_reduce" | "end_to_end_single_unseen_stack" | "end_to_end_parallel_unseen_stack", { low?: number; high?: number }>>;
  fitted_on?: string[];
  fit?: string;
}

/** One input field of the scenario, as `JSON.parse(scenarioFields())` lists it. */
export interface ScenarioField {
  name: string;
  /**
   * named_numbers: an object of numbers keyed by the choices' values (peak_flops); object: an
   * object keyed by the choices' values when there are any (interval), or with a table of its
   * own (estimate); list: an array.
   */
  kind:
    | "integer"
    | "number"
    | "zero_or_number"
    | "choice"
    | "flag"
    | "text"
    | "preset"
    | "named_numbers"
    | "object"
    | "list"
    | "length";
  /** null: required, derived (`docs` says how) or unset (a null efficiency). */
  default: number | string | boolean | null;
  /** Bounds of a numeric kind (`zero_or_number`: 0, or from min to max; `named_numbers`: each number); null otherwise. */
  min: number | null;
  max: number | null;
  /** null is accepted and means the default (or, without one, unset). */
  nullable: boolean;
  /** Absent is an error (a model shape's numbers: only without a preset). */
  required: boolean;
  /** A choice's values in order, with names for people; a preset field's named values. */
  choices: { label: string; value: string }[];
  unit: string;
  /** The lesson's symbol ("T", "B", "h_q"), or "". */
  symbol: string;
  /** The page's control label and the line under it ("" when the page has no control). */
  label: string;
  hint: string;
  /** One line for docs/trace-json.md's table. */
  docs: string;
}

/**
 * `JSON.parse(scenarioFields())`: the scenario's own members, a model shape's, an accelerator's
 * (`hardware`) and its calibrated profile's (`hardware.estimate`).
 */
export interface ScenarioFields {
  estimate: ScenarioField[];
  hardware: ScenarioField[];
  model: ScenarioField[];
  scenario: ScenarioField[];
}

/** One field of the serving object, as `JSON.parse(servingFields()).serving` lists it. */
export interface ServingField extends ScenarioField {
  /** The CLI flag of `prefill-trace serve` that sets it ("--rate"), "" when only a scenario file can. */
  flag: string;
  /** min itself is refused: the range is "> min and ≤ max". */
  min_exclusive: boolean;
}

/**
 * `JSON.parse(servingFields())`: the serving object's fields (docs/serving.md, "Input") and the
 * CLI spellings kept beside their flags (`--prompt T` for `--prompt-length`), each read as a
 * number or as text.
 */
export interface ServingFields {
  aliases: { flag: string; key: string; kind: "number" | "text" }[];
  serving: ServingField[];
}

/** A per-request figure's mean and nearest-rank percentiles; null when no finished request has it. */
export interface ServingSummary {
  mean: number;
  p50: number;
  p90: number;
  p99: number;
}

/** `JSON.parse(listPresets().json)` (src/trace/trace_json.cpp presets_to_json). */
export interface PresetList {
  /** Each built-in model's shape (as a trace's `scenario.model`) and its parameter count. */
  models: (TraceDocument["scenario"]["model"] & { parameters: number })[];
  /** Each built-in accelerator (as a trace's `scenario.hardware`). */
  accelerators: TraceDocument["scenario"]["hardware"][];
  /** The named precisions (the scenario's "precision" menu). */
  precisions: string[];
}

/** One check of `GeneratedChecks` (src/engine.cpp generate_checks); answers are not included. */
export interface GeneratedCheck {
  id: string;
  kind: "numeric" | "choice";
  question: string;
  /** Choice checks only. */
  options?: string[];
  /** Numeric checks only. */
  unit?: string;
  relative_tolerance?: number;
}

/** `JSON.parse(generateChecks(...).json)`. */
export interface GeneratedChecks {
  checks: GeneratedCheck[];
}

/** One value of a TTFT sweep (`SweepDocument.points`): the time to first token's parts there; seconds. */
export interface SweepPoint {
  value: number;
  /** null when overloaded (the queue grows without bound). */
  queue_seconds: number | null;
  execution_seconds: number;
  delivery_seconds: number;
  total_seconds: number | null;
  overloaded: boolean;
}

/** `JSON.parse(sweep(...).json)` (src/trace/trace_json.cpp sweep_to_json). */
export interface SweepDocument {
  variable: "prompt_tokens" | "arrival_rate";
  points: SweepPoint[];
}

/** One run of a sweep (`sweep_rates`): the figures of attainment against rate. */
export interface ServingSweepPoint {
  busy_fraction: number;
  completed_requests: number;
  e2e_seconds: ServingSummary | null;
  overloaded: boolean;
  rate_requests_per_second: number;
  slo_attainment: number | null;
  tbt_max_seconds: ServingSummary | null;
  throughput_requests_per_second: number;
  tpot_seconds: ServingSummary | null;
  ttft_seconds: ServingSummary | null;
}

/**
 * The serving report (docs/serving.md, "Output"): `JSON.parse(simulateServing(s).json)`,
 * written from src/serving/serving_schema.hpp; times in seconds. Keys print sorted.
 */
export interface ServingReport {
  busy_fraction: number;
  completed_requests: number;
  decode_busy_fraction: number;
  decode_instance_devices: number;
  devices: number;
  /** 101 nearest-rank quantiles (0 %, 1 %, …, 100 %); null without finished requests. */
  distributions: {
    tpot_seconds: number[] | null;
    ttft_seconds: number[] | null;
  };
  e2e_seconds: ServingSummary | null;
  /** With `goodput: true`: the search, every run of it by rate. */
  goodput?: {
    bounded: boolean;
    probes: {
      overloaded: boolean;
      rate_requests_per_second: number;
      slo_attainment: number;
    }[];
    target: number;
    tolerance: number;
  };
  /** With `goodput: true`; null when the search is unbounded. */
  goodput_per_device?: number | null;
  goodput_requests_per_second?: number | null;
  hardware: string;
  /** Estimate under a stack with a host profile (vllm, vllm-0.2) only: host seconds of every
   * instance's iterations, summed (each iteration = device time + host time). */
  host_seconds?: number;
  iterations: number;
  kv_bytes_per_token: number;
  /** The K/V blocks of `block_size` one (decode, else colocated) instance holds (reserve: the
   * whole blocks its token capacity fills). */
  kv_capacity_blocks: number;
  kv_capacity_tokens: number;
  kv_transfer_bytes_per_token: number;
  /** The longest single iteration (one pass of one instance), seconds. */
  longest_iteration_seconds: number;
  model: string;
  overload: {
    completed_requests: number;
    queued_requests: number;
    reason: string;
    simulated_seconds: number;
  } | null;
  overloaded: boolean;
  policy: "prefill-first" | "chunked" | "disaggregated";
  precision: string;
  /** Running requests preempted for lack of a free K/V block (paged; 0 under reserve). */
  preemptions: number;
  prefill_busy_fraction: number;
  prefill_instance_devices: number;
  /** With a request trace whose lines carry Mooncake `hash_ids` only: the LRU block cache
   * that decided each request's cached prefix (docs/serving.md, "Prefix cache from hash_ids"). */
  prefix_cache?: {
    /** Prompt tokens one hash id names (Mooncake's block: 512). */
    block_tokens: number;
    /** Hash blocks evicted from the cache, every instance. */
    evicted_blocks: number;
    /** hit_tokens / prompt_tokens (0 when no request was admitted). */
    hit_rate: number;
    /** Prompt tokens found cached at each admitted request's first admission. */
    hit_tokens: number;
    /** Prompt tokens of the admitted requests. */
    prompt_tokens: number;
  };
  queue_seconds: ServingSummary | null;
  /** Prompt and generated tokens computed again after preemptions. */
  recomputed_tokens: number;
  requests: number;
  /** Time-average of the requests admitted and unfinished. */
  running_requests_mean: number;
  /** The input with every default filled in; lengths and arrival as text ("rows" with rows, "trace" and "trace:FORMAT" with a trace). */
  serving: {
    arrival: string;
    attainment: number;
    /** Paged K/V's block; reserve's unit of kv_blocks. */
    block_size: number;
    decode_devices: number;
    decode_tensor_parallel: number;
    goodput: boolean;
    goodput_tolerance: number;
    gpu_memory_utilization: number;
    kv: "paged" | "reserve";
    max_batch: number;
    max_queue: number;
    output: string;
    policy: "prefill-first" | "chunked" | "disaggregated";
    prefill_devices: number;
    prefill_tensor_parallel: number;
    prefix_hit: number;
    prompt: string;
    rate: number | null;
    requests: number;
    seed: number | null;
    timeline_points: number;
    token_budget: number;
    token_times: number;
    tpot_slo: number | null;
    trace_limit: number;
    trace_rate_scale: number;
    ttft_slo: number | null;
  };
  simulated_seconds: number;
  slo_attainment: number | null;
  /** With `sweep_rates`: one run per rate. */
  sweep?: ServingSweepPoint[];
  tbt_max_seconds: ServingSummary | null;
  throughput_requests_per_second: number;
  throughput_tokens_per_second: number;
  /** Columns at `timeline_points` equal steps of simulated time. */
  timeline: {
    busy_fraction: number[];
    decode_tokens: number[];
    /** K/V blocks in use on every instance at the step's end (reserve: each reservation's
     * ⌈tokens / block_size⌉). */
    kv_blocks: number[];
    /** Requests preempted during the step (paged K/V; 0 under reserve). */
    preemptions: number[];
    prefill_tokens: number[];
    queued: number[];
    running: number[];
    step_seconds: number;
    time_seconds: number[];
  };
  timing: string;
  /** With `token_times` > 0: the chosen requests (the longest prompt and its neighbours), in arrival order. */
  token_times?: ServingTokenTimes[];
  tpot_seconds: ServingSummary | null;
  ttft_seconds: ServingSummary | null;
}

/** One iteration that ran part of a request's prompt (seconds, tokens). */
export interface ServingPrefillPass {
  end_seconds: number;
  start_seconds: number;
  tokens: number;
}

/** One request's times for a chart of decode stalls (docs/serving.md, "Token times"); seconds. */
export interface ServingTokenTimes {
  /** First admission; null when the run stopped before admitting it. */
  admitted_seconds: number | null;
  arrival_seconds: number;
  cached_tokens: number;
  output_tokens: number;
  /** When each preemption (paged K/V) dropped its K/V. */
  preemption_seconds: number[];
  /** Each iteration that ran part of its prompt (or, after a preemption, its recomputation). */
  prefill_passes: ServingPrefillPass[];
  prompt_tokens: number;
  /** Index in arrival order (the CSV's `request`). */
  request: number;
  /** Each output token's time, the first at the end of its last prefill pass. */
  token_seconds: number[];
  /** Passes or preemptions past 4,096 (limits::max_token_times_events) were left out. */
  truncated: boolean;
}

/** The serving report as JSON text (`ServingReport`), or an error. */
export interface ServingResult extends Refusal {
  ok: boolean;
  error: string;
  /** `JSON.parse(json)` is a `ServingReport`; "" when ok is false. */
  json: string;
}

/** How far a `ServingSimulation` is (its `advance`), or why it cannot advance. */
export interface ServingProgress extends Refusal {
  ok: boolean;
  error: string;
  /** `result()` is ready. */
  done: boolean;
  /** Runs finished: the run, then the goodput search's probes, then the sweep's rates. */
  runs: number;
  /** Requests finished in the run under way (0 when done). */
  requestsFinished: number;
  /** Requests per run. */
  requests: number;
}

/**
 * `simulateServing` in slices (docs/serving.md, "In slices"), for a page that must not wait for
 * the whole call (no Worker): `start` takes what `simulateServing` takes and refuses what it
 * refuses, with the same reply; each `advance(budget)` runs the simulation until its work has
 * grown by `budget` units (a request row 1, an iteration 40, an operator-model evaluation 50;
 * at most one iteration more) and says how far it is; once `done`, `result()` is
 * `simulateServing`'s reply, the same bytes. Start twice, advance before start, after a refusal
 * or once done, or read the result before done: refused with code `usage`; a budget not above 0:
 * `out_of_range` at "/budget". An Embind object: call `delete()` when finished with it, also
 * when abandoning it mid-run (its memory is not collected otherwise).
 */
export interface ServingSimulation {
  start(scenarioJson: string): ServingResult;
  startTrace(scenarioJson: string, traceText: string): ServingResult;
  advance(budget: number): ServingProgress;
  result(): ServingResult;
  delete(): void;
}

/** One placement the search tried (`PlanDocument.candidates`). */
export interface PlanCandidate {
  policy: "prefill-first" | "chunked" | "disaggregated";
  /** Colocated policies: the instances, each prefilling and decoding. */
  prefill_instances: number;
  /** 0 under a colocated policy. */
  decode_instances: number;
  prefill_tensor_parallel: number;
  /** 0 under a colocated policy. */
  decode_tensor_parallel: number;
  /** Devices the placement uses (at most the budget). */
  devices: number;
  goodput_requests_per_second: number;
  goodput_per_device: number;
  /** False: too few requests to find a rate that misses, so the goodput is a lower bound. */
  bounded: boolean;
}

/** The placement search's report: `JSON.parse(planServing(s, n).json)`. Keys print sorted. */
export interface PlanDocument {
  model: string;
  hardware: string;
  precision: string;
  timing: string;
  /** The device budget. */
  devices: number;
  /** The tensor-parallel degrees the model splits into within the budget. */
  tensor_parallel_options: number[];
  /** Goodput searches run (colocated instance counts share one under Poisson arrivals). */
  searches: number;
  /** Best first: the most goodput per device, then the fewest devices. */
  candidates: PlanCandidate[];
  /** The first candidate; null when no candidate meets the target at any rate tried. */
  best: PlanCandidate | null;
  /** Policy and degree pairs no instance count can run, with the simulation's reason. */
  skipped: { policy: string; prefill_tensor_parallel: number; decode_tensor_parallel: number;
             reason: string }[];
}

/** The placement search's report as JSON text (`PlanDocument`), or an error. */
export interface PlanResult extends Refusal {
  ok: boolean;
  error: string;
  /** `JSON.parse(json)` is a `PlanDocument`; "" when ok is false. */
  json: string;
}

/** How far a `ServingPlan` is (its `advance`), or why it cannot advance. */
export interface PlanProgress extends Refusal {
  ok: boolean;
  error: string;
  /** `result()` is ready. */
  done: boolean;
  /** Goodput searches finished. */
  searches: number;
  /** Placements passed: ranked, or skipped with their policy and degrees. */
  placements: number;
  /** Every placement within the devices (known from the first slice on). */
  placementsTotal: number;
}

/**
 * `planServing` in slices (docs/serving.md, "Placement search"), as `ServingSimulation` is
 * `simulateServing`'s: `start(scenarioJson, devices)` takes what `planServing` takes and refuses
 * what it refuses, with the same reply; each `advance(budget)` runs the goodput searches until
 * their work has grown by `budget` units (the serving simulation's units; at most one iteration
 * more) and says how far the plan is; once `done`, `result()` is `planServing`'s reply, the same
 * bytes. Misuse is refused as `ServingSimulation`'s is (`usage`; `out_of_range` at "/budget").
 * An Embind object: call `delete()` when finished with it, also when abandoning it.
 */
export interface ServingPlan {
  start(scenarioJson: string, devices: number): PlanResult;
  advance(budget: number): PlanProgress;
  result(): PlanResult;
  delete(): void;
}

/** The trace document (docs/trace-json.md): `JSON.parse(computeTrace(s).json)`. Keys print sorted. */
export interface TraceDocument {
  assumptions: string[];
  decode_comparison: {
    bound: Bound;
    context_tokens: number;
    flops: number;
    hbm_bytes: number;
    intensity: number;
    prefill_bound: Bound;
    prefill_intensity: number;
    prefill_projection_intensity: number;
    projection_intensity: number;
    seconds: number;
  };
  engine_version: string;
  operators: {
    bound: Bound;
    compute_seconds: number;
    computed_flops: number;
    count: number;
    family: "gemm" | "expert_gemm" | "attention" | "memory" | "interconnect";
    flops: number;
    hbm_bytes: {
      activations: number;
      kv: number;
      scores: number;
      total: number;
      weights: number;
    };
    intensity: number;
    interconnect_seconds: number;
    launches: number;
    link_bytes: number;
    memory_seconds: number;
    name: string;
    occupancy: number;
    overhead_seconds: number;
    per_layer: boolean;
    seconds: number;
    seconds_high: number;
    seconds_low: number;
    step: number;
    useful_fraction: number;
  }[];
  parameters: number;
  roofline: {
    /** Bytes/s, × η_m. */
    bandwidth: number;
    /** FLOP/s of the activation format's arithmetic, × η_c (one number: src/trace/trace.hpp Roofline). */
    peak_flops: number;
    ridge_flops_per_byte: number;
    timing: "bound" | "estimate";
  };
  scenario: {
    arrival_rate: number;
    attention: "fused" | "materialized";
    attention_block: number;
    attention_kernel: string;
    batch: number;
    chunk_tokens: number;
    compute_efficiency: number | null;
    delivery_seconds: number;
    gemm_m_tile: number;
    graphs: string;
    hardware: {
      /** "" when the accelerator states none (a custom one: attention kernels not checked). */
      architecture: "ampere" | "ada" | "hopper" | "blackwell" | "cdna3" | "";
      compute_units: number;
      estimate: {
        all_reduce_overhead_seconds: number;
        attention_efficiency: number;
        attention_kernel_efficiency: Record<string, number>;
        /** A decode step's η_m and floor; 0 = not stated (the decode step runs at memory_efficiency and memory_latency_seconds). */
        decode_memory_efficiency: number;
        decode_memory_latency_seconds: number;
        expert_gemm_efficiency: number;
        gemm_efficiency: number;
        graph_launch_gap_seconds: number;
        interconnect_efficiency: number;
        interval: Record<string, { high: number; low: number }>;
        kernel_gap_seconds: number;
        memory_efficiency: number;
        memory_latency_seconds: number;
        /** Only the stacks the profile states a gap for (fitted on their own rows); any other is charged kernel_gap_seconds. */
        stack_gap_seconds: Record<string, number>;
      } | null;
      id: string;
      interconnect_bandwidth: number;
      interconnect_kind: string;
      interconnect_name: string;
      interconnect_reduces_in_network: boolean;
      interconnect_source_url: string;
      l2_bytes: number;
      launch_overhead_seconds: number;
      memory_bandwidth: number;
      memory_capacity: number;
      name: string;
      peak_flops: Record<string, number>;
      source_url: string;
      sram_per_unit_bytes: number;
    };
    memory_efficiency: number | null;
    model: {
      active_experts: number;
      d_ff: number;
      d_model: number;
      experts: number;
      head_dim: number;
      id: string;
      kv_heads: number;
      layers: number;
      mlp: "gated" | "plain";
      name: string;
      parallel_attention: boolean;
      query_heads: number;
      sliding_window: number;
      source_url: string;
      tied_embeddings: boolean;
      vocab: number;
    };
    precision: {
      activations: string;
      kv: string;
      name: string;
      weights: string;
    };
    prompt_tokens: number;
    stack: string;
    tensor_parallel: number;
    timing: "bound" | "estimate";
  };
  schema_version: number;
  /** Always the lesson's five steps, in order (src/trace/step_facts.cpp mechanism_steps). */
  steps: [TraceStep1, TraceStep2, TraceStep3, TraceStep4, TraceStep5];
  totals: {
    flops: number;
    hbm_bytes: number;
    kv_cache: {
      bytes: number;
    };
    memory: {
      capacity_bytes: number;
      exceeds_by_bytes: number;
      fits: boolean;
      peak_bytes: number;
    };
    overhead_seconds: number;
    seconds: number;
    seconds_high: number;
    seconds_low: number;
    ttft: TtftTotals;
  };
}

/**
 * The time to first token of one request and its queue: the figures totals.ttft and step 5's
 * facts (steps[4].facts) both carry.
 */
export interface QueueFigures {
  delivery_seconds: number;
  execution_seconds: number;
  overloaded: boolean;
  /** Quantiles of the queue wait (exact M/D/1 + batch formation); null when overloaded. */
  queue_p50_seconds: number | null;
  queue_p90_seconds: number | null;
  queue_p99_seconds: number | null;
  queue_seconds: number | null;
  total_seconds: number | null;
}

/** totals.ttft: the queue figures with the estimate's interval of the total. */
export interface TtftTotals extends QueueFigures {
  total_seconds_high: number | null;
  total_seconds_low: number | null;
}

/** One of the lesson's five mechanism steps; `facts` depends on `step` (TraceDocument.steps types each: TraceStep1…TraceStep5). */
export interface TraceStep {
  bound: Bound | null;
  facts: Step1Facts | Step2Facts | Step3Facts | Step4Facts | Step5Facts;
  operators: string[];
  step: number;
  text: string;
  title: string;
  totals: {
    flops: number;
    hbm_bytes: number;
    overhead_seconds: number;
    seconds: number;
    seconds_high: number;
    seconds_low: number;
  };
}

/** steps[0]: the embedding and the kernel launches. */
export interface TraceStep1 extends TraceStep {
  facts: Step1Facts;
}

/** steps[1]: the projections. */
export interface TraceStep2 extends TraceStep {
  facts: Step2Facts;
}

/** steps[2]: attention. */
export interface TraceStep3 extends TraceStep {
  facts: Step3Facts;
}

/** steps[3]: memory and chunking (no kernels of its own). */
export interface TraceStep4 extends TraceStep {
  facts: Step4Facts;
}

/** steps[4]: the queue and the first token. */
export interface TraceStep5 extends TraceStep {
  facts: Step5Facts;
}

/** steps[0].facts */
export interface Step1Facts {
  embedding_bytes: number;
  kernel_launches: number;
  kernels_per_layer: number;
  launch_overhead_total_seconds: number;
  layers: number;
}

/** steps[1].facts */
export interface Step2Facts {
  kv_heads_per_device: number;
  kv_heads_replicated: boolean;
  projection_flops_per_request: number;
  projections: {
    bound: Bound;
    d_in: number;
    d_out: number;
    flops_per_request: number;
    intensity: number;
    name: string;
    rows_to_reach_ridge: number | null;
  }[];
  reuse_example: {
    bound: Bound;
    intensity: number;
    rows: number;
    weight_bytes_per_row: number;
  }[];
  ridge_flops_per_byte: number;
  tensor_parallel: number;
  weight_reuse_rows: number;
}

/** steps[2].facts */
export interface Step3Facts {
  attention: "fused" | "materialized";
  block: number;
  computed_pairs_per_head: number;
  kv_bytes_kept: number;
  kv_bytes_per_token: number;
  kv_bytes_written: number;
  kv_tokens_kept: number;
  score_bytes_avoided: number;
  score_matrix_bytes: number;
  score_traffic_bytes: number;
  sliding_window: number;
  tiles_per_head: number;
  useful_pairs_per_head: number;
}

/** steps[3].facts */
export interface Step4Facts {
  chunking: {
    chunk_tokens: number;
    chunks: number;
    extra_weight_bytes: number;
    kv_reread_bytes: number;
    temporaries_unchunked_bytes: number;
  };
  memory: {
    attention_workspace_bytes: number;
    capacity_bytes: number;
    exceeds_by_bytes: number;
    fits: boolean;
    kv_bytes: number;
    logits_bytes: number;
    mlp_workspace_bytes: number;
    peak_bytes: number;
    residual_bytes: number;
    score_bytes: number;
    temporaries_bytes: number;
    weight_bytes: number;
  };
}

/** steps[4].facts */
export interface Step5Facts extends QueueFigures {
  batch_formation_seconds: number;
  saturation_arrival_rate: number;
  service_seconds: number;
  utilization: number;
}

/** Result of checking an answer to a generated check. */
export interface GeneratedCheckResult extends Refusal {
  ok: boolean;
  error: string;
  correct: boolean;
  /** The engine's answer: a number for numeric checks, the correct option's index for choices. */
  expected: number;
  /** The worked answer, with the formula and this scenario's numbers. */
  explanation: string;
}

export interface PrefillTraceModule {
  /** The error codes every result's `code` is one of: `reply.code === module.ErrorCode.unknown_field`. */
  readonly ErrorCode: ErrorCodeEnum;
  /** Engine version, e.g. "0.1.0". Cannot fail; arguments are ignored. */
  version(): string;

  /**
   * The published lesson compiled into the module (the bytes of
   * lesson-data/prefill-resource-trace-a76d037833bd69f7.json, as C++'s
   * `prefill_trace::api::bundled_lesson_text()`): what `loadLesson` and `checkAnswer` take when
   * no other lesson file is at hand. Cannot fail; arguments are ignored.
   */
  bundledLessonText(): string;
  /** Parse and validate lesson-data JSON text (at most 1 MiB). */
  loadLesson(lessonText: string): LessonResult;
  /**
   * Check a quiz answer. `checkIndex` 0 is the lesson's `check`; i >= 1 is `checks[i-1]`.
   * `choice` is the chosen option's 0-based index; a non-integer or out-of-range choice is an
   * error (ok === false), never "wrong".
   */
  checkAnswer(lessonText: string, checkIndex: number, choice: number): QuizResult;
  /**
   * The prefill resource trace for a scenario given as JSON text, e.g.
   * `{"model": "llama-3.1-8b", "hardware": "h100-sxm", "prompt_tokens": 2048}`.
   * `json` is the trace (https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/trace-json.md), byte for byte what `prefill-trace trace --json`
   * prints for the same scenario.
   */
  computeTrace(scenarioJson: string): JsonResult;
  /**
   * The trace's numbers without JSON, for redrawing on every slider movement: `figures` =
   * [layout version 3, the shape's signature, every number of the trace document in the order
   * its JSON text prints them] (https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/trace-json.md, "Figures"; `figuresLayout()`).
   * Two scenarios with the same signature give documents that differ only in those numbers.
   */
  traceFigures(scenarioJson: string): FiguresResult;
  /**
   * The scenario's trace described for readers: `JSON.parse(traceLeaves(s).json)` is a
   * `TraceLeaves` — each leaf's path (array items as "*"), kind, unit and label
   * (https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/trace-json.md, "Units and labels").
   */
  traceLeaves(scenarioJson: string): JsonResult;
  /** The figures' layout as JSON text (`FiguresLayout`). Cannot fail; arguments are ignored. */
  figuresLayout(): string;
  /**
   * The scenario's input fields as JSON text (`ScenarioFields`: the scenario's, a model shape's,
   * an accelerator's and its estimate profile's): name, kind, default, bounds, choices, unit, the
   * page's label and hint, a line of docs. Cannot fail; arguments are ignored.
   */
  scenarioFields(): string;
  /**
   * The serving object's input fields as JSON text (`ServingFields`): as `scenarioFields()`'s,
   * plus each field's CLI flag, and the older flag spellings kept. Cannot fail; arguments are
   * ignored.
   */
  servingFields(): string;
  /**
   * The trace's operators as CSV (RFC 4180, CRLF; columns in https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/trace-json.md, "CSV"),
   * byte for byte what `prefill-trace trace --csv` prints for the same scenario.
   */
  traceCsv(scenarioJson: string): CsvResult;
  /** The built-in models, accelerators and precisions (with their source URLs) as JSON: a `PresetList`. */
  listPresets(): JsonResult;
  /**
   * TTFT (queue, execution, delivery, total; null total only when overloaded) at each value of
   * `variable`, computed in one call. 1 to 4096 values (an array of numbers or a typed array,
   * copied once); more is an error, not a long freeze. `variable` is at most 256 bytes.
   * `JSON.parse(json)` is a `SweepDocument`.
   */
  sweep(scenarioJson: string, variable: "prompt_tokens" | "arrival_rate",
        values: Float64Array | number[]): JsonResult;
  /**
   * Further checks generated from the scenario: `{"checks": [{id, kind: "numeric" | "choice",
   * question, options?, unit?, relative_tolerance?}]}` (`GeneratedChecks`). Answers are not included.
   */
  generateChecks(scenarioJson: string): JsonResult;
  /**
   * Checks `answer` (a number, or a 0-based option index) against generated check `id` (at most
   * 256 bytes).
   */
  checkGenerated(scenarioJson: string, id: string, answer: number): GeneratedCheckResult;
  /**
   * The serving simulation (docs/serving.md): many requests sharing devices under a scheduler.
   * `scenarioJson` is a scenario with a `serving` object, e.g. `{"model": "llama-3.1-8b",
   * "hardware": "h100-sxm", "serving": {"policy": "chunked", "rate": 10, "requests": 500,
   * "prompt": "lognormal:1024:0.5", "output": 128, "ttft_slo": 0.5, "tpot_slo": 0.05}}`.
   * `json` is the report (docs/serving.md, "Output": ttft_seconds, tpot_seconds,
   * tbt_max_seconds, e2e_seconds as {mean, p50, p90, p99}, slo_attainment, throughput, a
   * timeline, and with `goodput: true` goodput_requests_per_second — null when too few requests
   * to bound it, `goodput.bounded` false), byte for byte what
   * `prefill-trace serve --json` prints for the same input. Deterministic for a seed.
   */
  simulateServing(scenarioJson: string): ServingResult;
  /**
   * The placement search (docs/serving.md, "Placement search"): every scheduler policy ×
   * instance count × tensor-parallel degree per phase that fits `devices` (an integer, 1 to 16)
   * — colocated: instances × TP ≤ devices; disaggregated: prefill instances × prefill TP +
   * decode instances × decode TP ≤ devices — each with the goodput `simulateServing` finds for
   * it, best first. `scenarioJson` is `simulateServing`'s input with an SLO and without the
   * placement (`policy`, instance counts, tensor parallelism, `sweep_rates`: refused by path);
   * its `rate` is where each search starts. Byte for byte what `prefill-trace plan --json`
   * prints; a refusal of the budget has path "/devices".
   */
  planServing(scenarioJson: string, devices: number): PlanResult;
  /**
   * The same run with a request trace replayed (docs/serving.md, "Real traces"): `traceText` is
   * Azure's LLM inference trace CSV (`TIMESTAMP,ContextTokens,GeneratedTokens`) or Mooncake-style
   * JSON Lines, at most 64 MiB. Its requests replace the serving object's `rate`, `requests`,
   * `prompt`, `output`, `arrival` and `rows` (each refused beside it: "is set by the trace");
   * `trace_rate_scale` and `trace_limit` there say how it is read. An error in the trace has the
   * path "/trace" and names its line. The same bytes as `prefill-trace serve --trace FILE --json`.
   */
  simulateServingTrace(scenarioJson: string, traceText: string): ServingResult;
  /** `new module.ServingSimulation()`: the serving simulation in slices (`ServingSimulation`). */
  ServingSimulation: new () => ServingSimulation;
  /** `new module.ServingPlan()`: the placement search in slices (`ServingPlan`). */
  ServingPlan: new () => ServingPlan;
}

/**
 * The imports Emscripten hands to `instantiateWasm`: pass them to `WebAssembly.instantiate` as
 * they are. Typed loosely (like the instance and module objects below) so that these
 * declarations need neither the DOM library nor @types/node, which lack `WebAssembly` in some
 * Node setups.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WasmImports = any;

/** Options of the module factory (Emscripten's incoming Module API, as far as it is enabled). */
export interface ModuleOptions {
  /**
   * The .wasm bytes. The package's Node entries pass them for you; pass them yourself only when
   * loading prefill_trace.js directly under Node (Emscripten 3.1.6 cannot fetch a file path
   * under Node 18+).
   */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Where to find prefill_trace.wasm. Default: next to the loader (the ES module uses
   * `new URL("prefill_trace.wasm", import.meta.url)`, which bundlers follow).
   */
  locateFile?: (path: string, prefix: string) => string;
  /**
   * Instantiate the module yourself, e.g. from a WebAssembly.Module compiled while the loader
   * downloads: call `receiveInstance` when done and return `{}` (the exports arrive later).
   */
  instantiateWasm?: (
    imports: WasmImports,
    receiveInstance: (instance: object, module?: object) => void,
  ) => object;
  /** Receives what the module would print to stdout / stderr (it prints nothing in normal use). */
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  /** Called if the module aborts (a bug: the engine reports bad input as results, never aborts). */
  onAbort?: (what: unknown) => void;
}

/**
 * The module factory: each call instantiates a new module. Default export of the ES module and
 * of the package's Node entries; a global `PrefillTrace` from the UMD file in a <script>.
 * (script/package derives the CommonJS declarations, `export =`, from this file.)
 */
declare function PrefillTrace(options?: ModuleOptions): Promise<PrefillTraceModule>;
export default PrefillTrace;
