// Loads the prefill-trace WebAssembly module (Emscripten UMD build) and wraps its calls so the
// page always gets a plain result object: the module never throws across the boundary by
// contract, but a trap or a missing export must still reach the reader as a message.
//
// The page never computes a figure of the model itself: every number it shows comes from one
// of these calls (bindings/prefill-trace.d.ts).

import { ENGINE_DIR, ENGINE_GLOBAL, ENGINE_SCRIPT, ENGINE_WASM, assetUrl } from './config.js';

/** The Trusted Types policy a host with `require-trusted-types-for 'script'` must allow. */
export const TRUSTED_TYPES_POLICY = 'prefill-trace';

let scriptUrlPolicy;

/**
 * The engine loader's address as the sink expects it: a TrustedScriptURL from the
 * `prefill-trace` policy where Trusted Types exist (the policy admits only the loader under the
 * asset base it was created for), the plain string elsewhere.
 */
function trustedScriptUrl(url, dir) {
  if (!globalThis.trustedTypes?.createPolicy) return url.href;
  scriptUrlPolicy ??= globalThis.trustedTypes.createPolicy(TRUSTED_TYPES_POLICY, {
    createScriptURL: (value) => {
      const asked = new URL(value, document.baseURI);
      if (asked.href !== new URL(ENGINE_SCRIPT, dir).href) {
        throw new TypeError(`${TRUSTED_TYPES_POLICY}: refused script address ${asked.href}`);
      }
      return asked.href;
    },
  });
  return scriptUrlPolicy.createScriptURL(url.href);
}

/** Adds the classic <script> that defines the UMD factory; resolves once it has run. */
function loadScript(url, dir) {
  const src = url.href;
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = trustedScriptUrl(url, dir);
    script.async = true;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => reject(new Error(`could not load ${src}`)), {
      once: true,
    });
    document.head.append(script);
  });
}

function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Compiles the WebAssembly module at `url`: streamed (compiled while it downloads) when the
 * server sends it as application/wasm, else from its bytes.
 * @returns {Promise<WebAssembly.Module>}
 */
async function compileWasm(url) {
  const request = () => fetch(url, { credentials: 'same-origin' });
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(request());
    } catch {
      // Another MIME type, or an HTTP error: the second request below says which.
    }
  }
  const response = await request();
  if (!response.ok) throw new Error(`could not load ${url.pathname}: HTTP ${response.status}`);
  return WebAssembly.compile(await response.arrayBuffer());
}

let enginePromise = null;

/**
 * Loads the engine from `ENGINE_DIR` under the asset base, once per document: every
 * <prefill-trace-lesson> on a page shares one module instance (so the first element's asset
 * base is the one used). The module is fetched and compiled while the loader script downloads
 * and runs (Emscripten would start it only after), and handed to the loader through its
 * `instantiateWasm` hook.
 * @param {URL} [base]  the asset base (config.js)
 * @returns {Promise<Engine>}
 */
export function loadEngine(base) {
  enginePromise ??= (async () => {
    const dir = assetUrl(ENGINE_DIR, base);
    const compiled = compileWasm(new URL(ENGINE_WASM, dir));
    // Awaited below; until then a failure must not count as unhandled.
    compiled.catch(() => {});
    if (typeof globalThis[ENGINE_GLOBAL] !== 'function') {
      await loadScript(new URL(ENGINE_SCRIPT, dir), dir);
    }
    const factory = globalThis[ENGINE_GLOBAL];
    if (typeof factory !== 'function') {
      throw new Error(`${ENGINE_SCRIPT} did not define the ${ENGINE_GLOBAL} factory`);
    }
    // The loader waits for receiveInstance forever if instantiation fails: race the failure.
    let instantiationFailed;
    const failure = new Promise((resolve, reject) => {
      instantiationFailed = reject;
    });
    const module = await Promise.race([
      factory({
        // Emscripten asks for "prefill_trace.wasm"; serve it from the loader's own folder.
        locateFile: (path) => new URL(path, dir).href,
        instantiateWasm(imports, receiveInstance) {
          compiled
            .then((wasmModule) =>
              WebAssembly.instantiate(wasmModule, imports).then((instance) => receiveInstance(instance, wasmModule)),
            )
            .catch(instantiationFailed);
          return {}; // the exports arrive later, through receiveInstance
        },
      }),
      failure,
    ]);
    return new Engine(module);
  })();
  return enginePromise;
}

/** Parses the `json` payload of a JsonResult into `{ok, error, value, json}`. */
/**
 * What a refusal is about: `code`, the ErrorCode's stable name ("unknown_field"; the module
 * exports the enum, include/prefill_trace/result.hpp lists them), and `path`, the JSON Pointer of
 * the value concerned ("" when none). The page branches on these, never on the message.
 */
function refusal(reply, codes) {
  return { code: codes.get(reply.code?.value) ?? 'internal', path: String(reply.path ?? '') };
}

/** The module's ErrorCode values by number, to their names ("unknown_field"). */
function codeNames(module) {
  const entries = Object.entries(module.ErrorCode ?? {});
  return new Map(entries.filter(([, v]) => typeof v?.value === 'number').map(([k, v]) => [v.value, k]));
}

/** The engine itself failed (a trap, unreadable output): no field is to blame. */
const FAILED = { code: 'internal', path: '' };

/**
 * Runs an answer-checking call and returns a plain `{ok, error, correct, explanation, ...}`;
 * `extra(reply)` adds the call's own fields, `fallback` holds them when the engine traps.
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
  #module;
  #codes;

  constructor(module) {
    this.#module = module;
    this.#codes = codeNames(module);
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
   * @returns {{ok: true, lesson: object} | {ok: false, error: string}}
   */
  loadLesson(text) {
    let result;
    try {
      result = this.#module.loadLesson(text);
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
   * @returns {{ok: boolean, error: string, correct: boolean, correctIndex: number, explanation: string}}
   */
  checkAnswer(text, checkIndex, choice) {
    return answerResult(
      () => this.#module.checkAnswer(text, checkIndex, choice),
      (r) => ({ correctIndex: Number(r.correctIndex) }),
      { correctIndex: -1 },
      this.#codes,
    );
  }

  /** Whether this build of the engine has the serving simulation (docs/serving.md). */
  hasServing() {
    return typeof this.#module.simulateServing === 'function';
  }

  /** The built-in models, accelerators and precisions: `{ok, error, value}`. */
  listPresets() {
    return jsonResult(() => this.#module.listPresets(), 'listing presets', this.#codes);
  }

  /** The trace of a scenario given as JSON text: `{ok, error, value: trace, json}`. */
  computeTrace(scenarioJson) {
    return jsonResult(() => this.#module.computeTrace(scenarioJson), 'computing the trace', this.#codes);
  }

  /**
   * The trace's numbers without JSON (docs/trace-json.md, "Figures"): `{ok, error, figures}`,
   * figures a Float64Array. explorer/trace-from-figures.js turns it back into a trace.
   */
  traceFigures(scenarioJson) {
    try {
      const r = this.#module.traceFigures(scenarioJson);
      return { ok: Boolean(r.ok), error: String(r.error), ...refusal(r, this.#codes), figures: r.figures };
    } catch (error) {
      return { ok: false, error: `the engine failed while computing the trace: ${describe(error)}`, ...FAILED, figures: null };
    }
  }

  /** The trace's operators as CSV (the CLI's --csv schema): `{ok, error, csv}`. */
  traceCsv(scenarioJson) {
    try {
      const r = this.#module.traceCsv(scenarioJson);
      return { ok: Boolean(r.ok), error: String(r.error), ...refusal(r, this.#codes), csv: String(r.csv) };
    } catch (error) {
      return { ok: false, error: `the engine failed while writing the CSV: ${describe(error)}`, ...FAILED, csv: '' };
    }
  }

  /** TTFT at each of `values` of `variable`, in one call: `{ok, error, value: {points}}`. */
  sweep(scenarioJson, variable, values) {
    return jsonResult(
      () => this.#module.sweep(scenarioJson, variable, Float64Array.from(values)),
      'sweeping',
      this.#codes,
    );
  }

  /** Checks generated from the scenario: `{ok, error, value: {checks}}`. */
  generateChecks(scenarioJson) {
    return jsonResult(() => this.#module.generateChecks(scenarioJson), 'generating checks', this.#codes);
  }

  /**
   * Checks an answer to generated check `id`.
   * @returns {{ok: boolean, error: string, correct: boolean, expected: number, explanation: string}}
   */
  checkGenerated(scenarioJson, id, answer) {
    return answerResult(
      () => this.#module.checkGenerated(scenarioJson, id, answer),
      (r) => ({ expected: Number(r.expected) }),
      { expected: NaN },
      this.#codes,
    );
  }
}
