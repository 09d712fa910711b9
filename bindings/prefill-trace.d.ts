// Type declarations for the prefill-trace WebAssembly module (Emscripten 3.1.6 + Embind).
// Hand-written: Embind in 3.1.6 has no --emit-tsd. tests/js/api-surface.test.mjs checks every
// name declared here against the real module's exports, so this file cannot drift silently.
//
// Every call returns a result object; nothing throws across the boundary. `ok === false`
// means `error` holds one line naming the JSON path or field that is wrong, and the payload
// fields are empty/zero.

/** Result of validating a lesson-data file against the Atlas lesson contract. */
export interface LessonResult {
  ok: boolean;
  /** e.g. "/check/answer: must be an integer index into /check/options (3 items)" */
  error: string;
  /** The validated lesson re-serialized as canonical JSON (unknown fields kept). */
  lessonJson: string;
}

/** Result of checking one quiz answer with the engine. */
export interface QuizResult {
  ok: boolean;
  error: string;
  correct: boolean;
  /** 0-based index of the correct option. */
  correctIndex: number;
  explanation: string;
}

/** A JSON payload (trace, presets, sweep, generated checks) or an error. */
export interface JsonResult {
  ok: boolean;
  error: string;
  /** JSON text; the shape is documented in docs/trace-json.md. */
  json: string;
}

/** The trace's figures as one flat array (no JSON), or an error. */
export interface FiguresResult {
  ok: boolean;
  error: string;
  /** Empty when ok is false. */
  figures: Float64Array;
}

/** Result of checking an answer to a generated check. */
export interface GeneratedCheckResult {
  ok: boolean;
  error: string;
  correct: boolean;
  /** The engine's answer: a number for numeric checks, the correct option's index for choices. */
  expected: number;
  /** The worked answer, with the formula and this scenario's numbers. */
  explanation: string;
}

export interface PrefillTraceModule {
  /** Engine version, e.g. "0.1.0". */
  version(): string;
  /** Parse and validate lesson-data JSON text. */
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
   * `json` is the trace (docs/trace-json.md), byte for byte what `prefill-trace trace --json`
   * prints for the same scenario.
   */
  computeTrace(scenarioJson: string): JsonResult;
  /**
   * The trace's headline figures without JSON, for redrawing on every slider movement:
   * `figures` = [layout version 1, operator count n, 16 summary values, n × 12 operator values]
   * (layout in docs/trace-json.md, "Figures"). Operators come in computeTrace's order.
   */
  traceFigures(scenarioJson: string): FiguresResult;
  /**
   * The trace's operators as CSV (RFC 4180, CRLF; columns in docs/trace-json.md, "CSV"),
   * byte for byte what `prefill-trace trace --csv` prints for the same scenario.
   */
  traceCsv(scenarioJson: string): CsvResult;
  /** The built-in models, accelerators and precisions (with their source URLs) as JSON. */
  listPresets(): JsonResult;
  /**
   * TTFT (queue, execution, delivery, total; null total when overloaded) at each value of
   * `variable`, computed in one call. At most 4096 values; more is an error, not a long freeze.
   */
  sweep(scenarioJson: string, variable: "prompt_tokens" | "arrival_rate",
        values: Float64Array | number[]): JsonResult;
  /**
   * Further checks generated from the scenario: `{"checks": [{id, kind: "numeric" | "choice",
   * question, options?, unit?, relative_tolerance?}]}`. Answers are not included.
   */
  generateChecks(scenarioJson: string): JsonResult;
  /** Checks `answer` (a number, or a 0-based option index) against generated check `id`. */
  checkGenerated(scenarioJson: string, id: string, answer: number): GeneratedCheckResult;
}

export interface ModuleOptions {
  /** In Node, pass the .wasm bytes (Emscripten 3.1.6 cannot fetch a file path under Node 18+). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** In browsers, where to find prefill_trace.wasm relative to the page. */
  locateFile?: (path: string, prefix: string) => string;
}

/** UMD factory: a global `PrefillTrace` in a <script>, `module.exports` under require(). */
declare function PrefillTrace(options?: ModuleOptions): Promise<PrefillTraceModule>;
export default PrefillTrace;
