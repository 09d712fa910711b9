// Loads the prefill-trace WebAssembly module (the package's ES-module build, through import())
// and wraps its calls so the page always gets a plain result object: the module never throws
// across the boundary by contract, but a trap or a missing export must still reach the reader
// as a message.
//
// `import('prefill-trace')` is the package's own browser entry: script/build-site turns it into
// `import("./wasm/prefill_trace.mjs")` beside app.js, a literal every bundler follows (webpack 5,
// Vite, Rollup, esbuild bundle the module and emit its .wasm), and a host that also imports
// `prefill-trace` gets the same module, whose factory compiles the .wasm once per document
// (bindings/shared-compile-pre.js). No <script> element, so no Trusted Types policy and no
// global.
//
// The page never computes a figure of the model itself: every number it shows comes from one
// of these calls (bindings/prefill-trace.d.ts).

import { ENGINE_DIR, assetUrl, defaultAssetBase, isBundledBase } from './config.js';

/**
 * @typedef {import('prefill-trace').PrefillTraceModule} PrefillTraceModule
 * @typedef {import('prefill-trace').ModuleOptions} ModuleOptions
 * @typedef {(options?: ModuleOptions) => Promise<PrefillTraceModule>} ModuleFactory
 * @typedef {Map<number, string>} CodeNames  the module's ErrorCode names by number
 */
/**
 * The module's functions (not its ErrorCode enum), by name: what #use calls.
 * @typedef {{[K in keyof PrefillTraceModule as PrefillTraceModule[K] extends (...args: any[]) => any ? K : never]: PrefillTraceModule[K]}} ModuleCalls
 */

/** @param {unknown} error */
function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @type {ModuleFactory|null} */
let hostFactory = null;

/**
 * The module factory the element calls instead of the package's own (PrefillTraceLesson's
 * static `engineFactory`): a host that wraps the engine (counting calls, as the browser tests
 * do) or builds it some other way. Read when the engine is first loaded, not when set.
 * @param {ModuleFactory|null|undefined} factory
 */
export function setEngineFactory(factory) {
  if (factory != null && typeof factory !== 'function') throw new TypeError('engineFactory must be a function or null');
  hostFactory = factory ?? null;
}

export function engineFactory() {
  return hostFactory;
}

/** @type {Promise<Engine>|null} */
let enginePromise = null;

/**
 * Loads the engine once per document: every <prefill-trace-lesson> on a page shares one module
 * instance. The .wasm comes from where the bundler (or the package's folder) put it, unless the
 * first element's asset base names another folder: then from its `wasm/`.
 * @param {URL} [base]  the asset base (config.js)
 * @returns {Promise<Engine>}
 */
export function loadEngine(base = defaultAssetBase()) {
  enginePromise ??= (async () => {
    const imported = await import('prefill-trace');
    const factory = hostFactory ?? imported.default;
    const options = isBundledBase(base) ? {} : { locateFile: (/** @type {string} */ path) => new URL(path, assetUrl(ENGINE_DIR, base)).href };
    // The instance's abort (its WebAssembly memory at the 128 MB cap) is noted here; the Engine
    // then makes a new instance with the same options (issue 33, item 2).
    const life = { aborted: false };
    const make = () => {
      life.aborted = false;
      return factory({ ...options, onAbort: () => (life.aborted = true) });
    };
    return new Engine(await make(), { life, make });
  })();
  return enginePromise;
}

const ABORTED =
  'the engine aborted (most likely its WebAssembly memory reached the 128 MB cap) and was discarded; a new instance answers later calls';
const RENEWING = 'the engine aborted on an earlier call and its new instance is still loading; try again';

/**
 * @typedef {object} PageErrorDetail  a refusal's detail (the d.ts's ErrorDetail), bounds that do not apply null
 * @property {string} expected  the kind the value must be ("integer", "number", …), or ""
 * @property {string} found     a wrong_type value's JSON type, or ""
 * @property {string} value     the refused value's JSON text, or ""
 * @property {number|null} minimum
 * @property {number|null} maximum
 * @property {boolean} minimumExcluded
 * @property {boolean} zeroAllowed
 */
/**
 * @typedef {object} PageRefusal  what a refusal is about (engine.js refusal)
 * @property {string} code   the ErrorCode's stable name ("unknown_field")
 * @property {string} path   the JSON Pointer of the value concerned ("" when none)
 * @property {string} what   the problem without the path ("" when the engine itself failed)
 * @property {PageErrorDetail} detail
 */

/** A detail that says nothing: the engine itself failed, no field is to blame. */
const NO_DETAIL = Object.freeze({ expected: '', found: '', value: '', minimum: null, maximum: null, minimumExcluded: false, zeroAllowed: false });

/** A bound as a plain number, null where the engine sent NaN (no bound). @param {unknown} value */
const bound = (value) => (typeof value === 'number' && !Number.isNaN(value) ? value : null);

/**
 * What a refusal is about: `code`, the ErrorCode's stable name ("unknown_field"; the module
 * exports the enum, include/prefill_trace/result.hpp lists them), `path`, the JSON Pointer of
 * the value concerned ("" when none), `what` and the `detail` (bounds, expected kind, the
 * refused value). The page branches and words on these, never on the message.
 * @param {Partial<import('prefill-trace').Refusal>} reply
 * @param {CodeNames} codes
 * @returns {PageRefusal}
 */
function refusal(reply, codes) {
  /** @type {Partial<import('prefill-trace').ErrorDetail>} */
  const detail = reply.detail ?? {};
  return {
    code: codes.get(Number(reply.code?.value)) ?? 'internal',
    path: String(reply.path ?? ''),
    what: String(reply.what ?? ''),
    detail: {
      expected: String(detail.expected ?? ''),
      found: String(detail.found ?? ''),
      value: String(detail.value ?? ''),
      minimum: bound(detail.minimum),
      maximum: bound(detail.maximum),
      minimumExcluded: Boolean(detail.minimumExcluded),
      zeroAllowed: Boolean(detail.zeroAllowed),
    },
  };
}

/**
 * The module's ErrorCode values by number, to their names ("unknown_field").
 * @param {PrefillTraceModule} module
 * @returns {CodeNames}
 */
function codeNames(module) {
  /** @type {[string, {value?: unknown}][]} */
  const entries = Object.entries(module.ErrorCode ?? {});
  return new Map(entries.flatMap(([k, v]) => (typeof v?.value === 'number' ? [[v.value, k]] : [])));
}

/** The engine itself failed (a trap, unreadable output): no field is to blame. @type {PageRefusal} */
const FAILED = Object.freeze({ code: 'internal', path: '', what: '', detail: NO_DETAIL });

/**
 * Runs an answer-checking call and returns a plain `{ok, error, correct, explanation, ...}`;
 * `extra(reply)` adds the call's own fields, `fallback` holds them when the engine traps.
 * @template {import('prefill-trace').QuizResult | import('prefill-trace').GeneratedCheckResult} R
 * @template {object} X
 * @param {() => R} call
 * @param {(reply: R) => X} extra
 * @param {X} fallback
 * @param {CodeNames} codes
 */
function answerResult(call, extra, fallback, codes) {
  try {
    const r = call();
    return {
      ok: Boolean(r.ok),
      error: String(r.error),
      ...refusal(r, codes),
      correct: Boolean(r.correct),
      explanation: String(r.explanation),
      ...extra(r),
    };
  } catch (error) {
    return {
      ok: false,
      error: `the engine failed while checking the answer: ${describe(error)}`,
      ...FAILED,
      correct: false,
      explanation: '',
      ...fallback,
    };
  }
}

/**
 * @template T
 * @typedef {{ok: true, error: '', value: T, json: string} | ({ok: false, error: string} & PageRefusal)} JsonOutcome
 */
/**
 * Parses the `json` payload of a JsonResult into `{ok, error, value, json}`; `value` is what the
 * d.ts says the call's JSON holds (a TraceDocument, a ServingReport, …).
 * @template T
 * @param {() => import('prefill-trace').JsonResult} call
 * @param {string} what
 * @param {CodeNames} codes
 * @returns {JsonOutcome<T>}
 */
function jsonResult(call, what, codes) {
  let result;
  try {
    result = call();
  } catch (error) {
    return { ok: false, error: `the engine failed while ${what}: ${describe(error)}`, ...FAILED };
  }
  if (!result.ok) return { ok: false, error: String(result.error), ...refusal(result, codes) };
  try {
    return { ok: true, error: '', value: JSON.parse(result.json), json: String(result.json) };
  } catch (error) {
    return { ok: false, error: `the engine returned unreadable JSON while ${what}: ${describe(error)}`, ...FAILED };
  }
}

/** Thin wrapper over the module: same names as bindings/prefill-trace.d.ts, plain results. */
export class Engine {
  /** @type {PrefillTraceModule} */
  #module;
  /** @type {CodeNames} */
  #codes;
  /** @type {import('prefill-trace').FiguresLayout|null|undefined} */
  #layout;
  /** @type {import('prefill-trace').ScenarioFields|undefined} */
  #fields;
  /** @type {{life: {aborted: boolean}, make: () => Promise<PrefillTraceModule>}|null} */
  #life;
  /** @type {Promise<void>|null} */
  #renewing = null;
  /** @type {import('prefill-trace').ServingFields|null|undefined} */
  #servingFields;
  /** @type {Map<string, import('prefill-trace').TraceLeaf>|null|undefined} */
  #leaves;

  /**
   * @param {PrefillTraceModule} module  the module instance
   * @param {{life: {aborted: boolean}, make: () => Promise<PrefillTraceModule>}|null} [renewal]  how loadEngine
   *   learns of an abort and makes a new instance; without it an aborted module stays aborted
   */
  constructor(module, renewal = null) {
    this.#module = module;
    this.#codes = codeNames(module);
    this.#life = renewal;
  }

  /**
   * Calls export `name` on the live instance. A call that aborts the instance throws the reason
   * in words (each method's catch turns it into its reply) and starts a new instance: an aborted
   * module answered every later call with "Aborted()" until the page was reloaded.
   * @template {keyof ModuleCalls} K
   * @param {K} name
   * @param {Parameters<ModuleCalls[K]>} args
   * @returns {ReturnType<ModuleCalls[K]>}
   */
  #use(name, ...args) {
    const call = /** @type {(...args: Parameters<ModuleCalls[K]>) => ReturnType<ModuleCalls[K]>} */ (this.#module[name]);
    return this.#live(() => call(...args));
  }

  /**
   * Runs `run` (a call into the live instance) as #use runs an export: refused while a new
   * instance is being made, and an abort in it thrown in words.
   * @template R
   * @param {() => R} run
   * @returns {R}
   */
  #live(run) {
    if (this.#renewing) throw new Error(RENEWING);
    const reply = run();
    const life = this.#life;
    if (!life?.life.aborted) return reply;
    this.#renewing = life.make().then(
      (module) => {
        this.#module = module;
        this.#codes = codeNames(module);
        this.#renewing = null;
      },
      () => {
        this.#renewing = null; // the next call meets the aborted instance and tries again
        life.life.aborted = true;
      },
    );
    throw new Error(ABORTED);
  }

  version() {
    try {
      return String(this.#module.version());
    } catch {
      return 'unknown';
    }
  }

  /**
   * Validates lesson-data text.
   * @param {string} text
   * @returns {{ok: true, lesson: object} | ({ok: false, error: string} & PageRefusal)}
   */
  loadLesson(text) {
    let result;
    try {
      result = this.#use('loadLesson', text);
    } catch (error) {
      return { ok: false, error: `the engine failed while validating: ${describe(error)}`, ...FAILED };
    }
    if (!result.ok) return { ok: false, error: String(result.error), ...refusal(result, this.#codes) };
    try {
      return { ok: true, lesson: JSON.parse(result.lessonJson) };
    } catch (error) {
      return { ok: false, error: `the engine returned unreadable lesson JSON: ${describe(error)}`, ...FAILED };
    }
  }

  /**
   * Checks one quiz answer (`checkIndex` 0 is the lesson's `check`).
   * @param {string} text
   * @param {number} checkIndex
   * @param {number} choice
   * @returns {{ok: boolean, error: string, correct: boolean, correctIndex: number, explanation: string}}
   */
  checkAnswer(text, checkIndex, choice) {
    return answerResult(
      () => this.#use('checkAnswer', text, checkIndex, choice),
      (r) => ({ correctIndex: Number(r.correctIndex) }),
      { correctIndex: -1 },
      this.#codes,
    );
  }

  /** Whether this build of the engine has the serving simulation (docs/serving.md). */
  hasServing() {
    return typeof this.#module.simulateServing === 'function';
  }

  /**
   * The serving simulation's report (docs/serving.md): `{ok, error, value, json}`. The page calls
   * it only when no Worker can run it (under-load/under-load.js): it takes seconds.
   * @param {string} scenarioJson
   * @returns {JsonOutcome<import('prefill-trace').ServingReport>}
   */
  simulateServing(scenarioJson) {
    return jsonResult(() => this.#use('simulateServing', scenarioJson), 'simulating', this.#codes);
  }

  /**
   * The serving simulation in slices (docs/serving.md, "In slices"), for the page when no Worker
   * can run it: refused as simulateServing refuses (`{ok: false, error, …}`), or `{ok: true,
   * advance, result, dispose}`. `advance(budget)` runs about `budget` units of the engine's work
   * and says `{ok, error, done, runs, requestsFinished, requests}`; once done, `result()` is
   * simulateServing's outcome, the same bytes. `dispose()` frees the engine's object: call it
   * when done and when abandoning the run (Embind collects nothing by itself).
   * @param {string} scenarioJson
   */
  startServing(scenarioJson) {
    return this.#sliced(() => new this.#module.ServingSimulation(), (live) => live.start(scenarioJson), 'simulating',
      (r) => ({ runs: Number(r.runs), requestsFinished: Number(r.requestsFinished), requests: Number(r.requests) }),
      { runs: 0, requestsFinished: 0, requests: 0 }, /** @type {import('prefill-trace').ServingReport | null} */ (null));
  }

  /**
   * The placement search in slices (docs/serving.md, "Placement search"), for the page when no
   * Worker can run it: as startServing, `advance(budget)` says `{ok, error, done, searches,
   * placements, placementsTotal}` and `result()` is planServing's outcome, the same bytes.
   * @param {string} scenarioJson
   * @param {number} devices
   */
  startPlan(scenarioJson, devices) {
    return this.#sliced(() => new this.#module.ServingPlan(), (live) => live.start(scenarioJson, devices), 'planning',
      (r) => ({ searches: Number(r.searches), placements: Number(r.placements), placementsTotal: Number(r.placementsTotal) }),
      { searches: 0, placements: 0, placementsTotal: 0 }, /** @type {import('prefill-trace').PlanDocument | null} */ (null));
  }

  /**
   * An engine object that runs in slices (ServingSimulation, ServingPlan), as plain results:
   * refused at start (`{ok: false, error, …}`), or `{ok: true, advance, result, dispose}`.
   * `progress(reply)` reads an advance's own fields, `idle` holds them when the engine traps;
   * `_document` only names the type of result()'s value.
   * @template {{start: (...args: any[]) => import('prefill-trace').JsonResult, advance: (budget: number) => import('prefill-trace').Refusal & {ok: boolean, error: string, done: boolean}, result: () => import('prefill-trace').JsonResult, delete: () => void}} L
   * @template {object} P
   * @template D
   * @param {() => L} create
   * @param {(live: L) => import('prefill-trace').JsonResult} start
   * @param {string} what
   * @param {(reply: ReturnType<L['advance']>) => P} progress
   * @param {P} idle
   * @param {D | null} _document
   */
  #sliced(create, start, what, progress, idle, _document) {
    const failed = (/** @type {unknown} */ error) => ({ ok: /** @type {const} */ (false), error: `the engine failed while ${what}: ${describe(error)}`, ...FAILED });
    /** @type {L} */
    let live;
    try {
      live = this.#live(create);
    } catch (error) {
      return failed(error);
    }
    let freed = false;
    const dispose = () => {
      if (freed) return;
      freed = true;
      try {
        live.delete();
      } catch {
        // An instance that aborted (and was replaced) took its objects with it.
      }
    };
    let started;
    try {
      started = this.#live(() => start(live));
    } catch (error) {
      dispose();
      return failed(error);
    }
    if (!started.ok) {
      dispose();
      return { ok: /** @type {const} */ (false), error: String(started.error), ...refusal(started, this.#codes) };
    }
    return {
      ok: /** @type {const} */ (true),
      /** @param {number} budget */
      advance: (budget) => {
        try {
          const r = /** @type {ReturnType<L['advance']>} */ (this.#live(() => live.advance(budget)));
          return { ok: Boolean(r.ok), error: String(r.error), done: Boolean(r.done), ...progress(r) };
        } catch (error) {
          return { ...failed(error), done: false, ...idle };
        }
      },
      /** @returns {JsonOutcome<D>} */
      result: () => jsonResult(() => this.#live(() => live.result()), what, this.#codes),
      dispose,
    };
  }

  /** Whether this build of the engine can simulate serving in slices (startServing). */
  hasServingSlices() {
    return typeof this.#module.ServingSimulation === 'function';
  }

  /** Whether this build of the engine can search placements in slices (startPlan). */
  hasPlanSlices() {
    return typeof this.#module.ServingPlan === 'function';
  }

  /**
   * The placement search (`prefill-trace plan`, docs/serving.md, "Placement search"): every
   * placement of `devices` devices with its goodput per device, `{ok, error, value, json}`.
   * @param {string} scenarioJson
   * @param {number} devices
   * @returns {JsonOutcome<import('prefill-trace').PlanDocument>}
   */
  planServing(scenarioJson, devices) {
    return jsonResult(() => this.#use('planServing', scenarioJson, devices), 'planning', this.#codes);
  }

  /**
   * The built-in models, accelerators and precisions: `{ok, error, value}`.
   * @returns {JsonOutcome<import('prefill-trace').PresetList>}
   */
  listPresets() {
    return jsonResult(() => this.#use('listPresets'), 'listing presets', this.#codes);
  }

  /**
   * The trace of a scenario given as JSON text: `{ok, error, value: trace, json}`.
   * @param {string} scenarioJson
   * @returns {JsonOutcome<import('prefill-trace').TraceDocument>}
   */
  computeTrace(scenarioJson) {
    return jsonResult(() => this.#use('computeTrace', scenarioJson), 'computing the trace', this.#codes);
  }

  /**
   * What explorer/trace-from-figures.js needs besides a parsed trace to refill it from figures
   * (docs/trace-json.md, "Figures"): `{version, bound_keys, bound_names}`, parsed once; null when
   * the module has none (then the explorer reads every trace as JSON).
   */
  figuresLayout() {
    if (this.#layout === undefined) {
      try {
        this.#layout = JSON.parse(this.#module.figuresLayout());
      } catch {
        this.#layout = null;
      }
    }
    return this.#layout;
  }

  /**
   * The scenario's input fields (docs/trace-json.md, "Scenario (input)"): `{scenario, model}`,
   * rows of {name, kind, default, min, max, choices, label, hint, …}, parsed once; what the
   * explorer's controls are built from.
   * @returns {import('prefill-trace').ScenarioFields}
   */
  scenarioFields() {
    return (this.#fields ??= JSON.parse(this.#module.scenarioFields()));
  }

  /**
   * The trace's leaves described (docs/trace-json.md, "Units and labels"): each leaf path
   * ("steps/*\/facts/memory/peak_bytes") to its kind, unit, label and rank, read once from the
   * trace of `scenarioJson` (the labels and units do not depend on the numbers). null when the
   * module cannot say (then facts show under their keys).
   * @param {string} scenarioJson
   * @returns {Map<string, import('prefill-trace').TraceLeaf>|null}
   */
  traceLeaves(scenarioJson) {
    if (this.#leaves === undefined) {
      const result = jsonResult(() => this.#use('traceLeaves', scenarioJson), 'describing the trace', this.#codes);
      const value = /** @type {import('prefill-trace').TraceLeaves|undefined} */ (result.ok ? result.value : undefined);
      this.#leaves = value ? new Map(value.leaves.map((leaf) => [leaf.path, leaf])) : null;
    }
    return this.#leaves;
  }

  /**
   * The serving object's input fields (docs/serving.md, "Input"): `{serving, aliases}`, rows as
   * scenarioFields()'s plus `flag`, parsed once; null when the module has none. What the
   * Under-load controls take their labels and hints from.
   * @returns {import('prefill-trace').ServingFields | null}
   */
  servingFields() {
    if (this.#servingFields === undefined) {
      try {
        this.#servingFields = JSON.parse(this.#module.servingFields());
      } catch {
        this.#servingFields = null;
      }
    }
    return /** @type {import('prefill-trace').ServingFields | null} */ (this.#servingFields); // set above
  }

  /**
   * The trace's numbers without JSON (docs/trace-json.md, "Figures"): `{ok, error, figures}`,
   * figures a Float64Array. explorer/trace-from-figures.js turns it back into a trace.
   * @param {string} scenarioJson
   * @returns {({ok: true, error: string, figures: Float64Array} | {ok: false, error: string, figures: Float64Array|null}) & PageRefusal}
   */
  traceFigures(scenarioJson) {
    try {
      const r = this.#use('traceFigures', scenarioJson);
      const reply = { error: String(r.error), ...refusal(r, this.#codes), figures: r.figures };
      return r.ok ? { ok: true, ...reply } : { ok: false, ...reply };
    } catch (error) {
      return { ok: false, error: `the engine failed while computing the trace: ${describe(error)}`, ...FAILED, figures: null };
    }
  }

  /**
   * The trace's operators as CSV (the CLI's --csv schema): `{ok, error, csv}`.
   * @param {string} scenarioJson
   */
  traceCsv(scenarioJson) {
    try {
      const r = this.#use('traceCsv', scenarioJson);
      return { ok: Boolean(r.ok), error: String(r.error), ...refusal(r, this.#codes), csv: String(r.csv) };
    } catch (error) {
      return { ok: false, error: `the engine failed while writing the CSV: ${describe(error)}`, ...FAILED, csv: '' };
    }
  }

  /**
   * TTFT at each of `values` of `variable`, in one call: `{ok, error, value: {points}}`.
   * @param {string} scenarioJson
   * @param {Parameters<PrefillTraceModule['sweep']>[1]} variable
   * @param {ArrayLike<number>} values
   * @returns {JsonOutcome<import('prefill-trace').SweepDocument>}
   */
  sweep(scenarioJson, variable, values) {
    return jsonResult(
      () => this.#use('sweep', scenarioJson, variable, Float64Array.from(values)),
      'sweeping',
      this.#codes,
    );
  }

  /**
   * Checks generated from the scenario: `{ok, error, value: {checks}}`.
   * @param {string} scenarioJson
   * @returns {JsonOutcome<import('prefill-trace').GeneratedChecks>}
   */
  generateChecks(scenarioJson) {
    return jsonResult(() => this.#use('generateChecks', scenarioJson), 'generating checks', this.#codes);
  }

  /**
   * Checks an answer to generated check `id`.
   * @param {string} scenarioJson
   * @param {string} id
   * @param {number} answer
   * @returns {{ok: boolean, error: string, correct: boolean, expected: number, explanation: string}}
   */
  checkGenerated(scenarioJson, id, answer) {
    return answerResult(
      () => this.#use('checkGenerated', scenarioJson, id, answer),
      (r) => ({ expected: Number(r.expected) }),
      { expected: NaN },
      this.#codes,
    );
  }
}
