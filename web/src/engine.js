// Loads the prefill-trace WebAssembly module (Emscripten UMD build) and wraps its calls so the
// page always gets a plain result object: the module never throws across the boundary by
// contract, but a trap or a missing export must still reach the reader as a message.

import { ENGINE_DIR, ENGINE_GLOBAL, ENGINE_SCRIPT } from './config.js';

/** Adds the classic <script> that defines the UMD factory; resolves once it has run. */
function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
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
 * Loads the engine from `ENGINE_DIR` relative to the page.
 * @returns {Promise<Engine>}
 */
export async function loadEngine(baseUrl = document.baseURI) {
  const dir = new URL(ENGINE_DIR, baseUrl);
  await loadScript(new URL(ENGINE_SCRIPT, dir).href);
  const factory = globalThis[ENGINE_GLOBAL];
  if (typeof factory !== 'function') {
    throw new Error(`${ENGINE_SCRIPT} did not define the ${ENGINE_GLOBAL} factory`);
  }
  // Emscripten asks for "prefill_trace.wasm"; serve it from the loader's own folder.
  const module = await factory({ locateFile: (path) => new URL(path, dir).href });
  return new Engine(module);
}

/** Thin wrapper over the module: same names as bindings/prefill-trace.d.ts, plain results. */
export class Engine {
  #module;

  constructor(module) {
    this.#module = module;
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
      return { ok: false, error: `the engine failed while validating: ${describe(error)}` };
    }
    if (!result.ok) return { ok: false, error: String(result.error) };
    try {
      return { ok: true, lesson: JSON.parse(result.lessonJson) };
    } catch (error) {
      return { ok: false, error: `the engine returned unreadable lesson JSON: ${describe(error)}` };
    }
  }

  /**
   * Checks one quiz answer (`checkIndex` 0 is the lesson's `check`).
   * @returns {{ok: boolean, error: string, correct: boolean, correctIndex: number, explanation: string}}
   */
  checkAnswer(text, checkIndex, choice) {
    try {
      const r = this.#module.checkAnswer(text, checkIndex, choice);
      return {
        ok: Boolean(r.ok),
        error: String(r.error),
        correct: Boolean(r.correct),
        correctIndex: Number(r.correctIndex),
        explanation: String(r.explanation),
      };
    } catch (error) {
      return {
        ok: false,
        error: `the engine failed while checking the answer: ${describe(error)}`,
        correct: false,
        correctIndex: -1,
        explanation: '',
      };
    }
  }
}
