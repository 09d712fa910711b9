// @ts-check
// The explorer's traces, computed once per scenario and refilled in place where possible.
//
// Traces computed as JSON are kept by their figures' shape signature (the last few shapes, so
// going back and forth between two attention schedules stays on the fast path): a change to a
// known shape refills that trace in place from one traceFigures call (trace-from-figures.js)
// instead of parsing a new one. Only the trace being shown is read, so no copy is needed. The
// last scenario's result is kept too: redrawing the same scenario calls the engine not at all.

import { figuresSignature, refillTrace } from './trace-from-figures.js';

/**
 * @typedef {import('prefill-trace').TraceDocument} TraceDocument
 * @typedef {{ok: true, error: string, value: TraceDocument, json?: string}
 *   | ({ok: false, error: string} & import('../engine.js').PageRefusal)} TraceResult  a trace
 *   (`json` when it was read as JSON, not refilled from figures) or the engine's refusal
 */

/** How many trace shapes (model, attention, … : trace-from-figures.js) are kept. */
const SHAPES_KEPT = 8;

export class TraceCache {
  #engine;
  /** @type {Map<number, TraceDocument>} */
  #shapes = new Map();
  /** The last scenario's JSON text and its result (`{ok, value, error, path, json?}`). */
  /** @type {string|null} */
  #lastJson = null;
  /** @type {TraceResult|null} */
  #lastResult = null;

  /** @param {import('../engine.js').Engine} engine */
  constructor(engine) {
    this.#engine = engine;
  }

  /** The last scenario computed (or remembered): `{json, result}`. */
  get last() {
    return { json: this.#lastJson, result: this.#lastResult };
  }

  /**
   * The result for `json`, computed unless it is the last scenario's.
   * @param {string} json
   * @returns {TraceResult}
   */
  resultOf(json) {
    if (json !== this.#lastJson) this.remember(json, this.trace(json));
    return /** @type {TraceResult} */ (this.#lastResult); // remembered just now, or before
  }

  /**
   * Makes `result` the last scenario's (one computed elsewhere: the permalink's, url-sync.js).
   * @param {string} json
   * @param {TraceResult} result
   */
  remember(json, result) {
    this.#lastJson = json;
    this.#lastResult = result;
  }

  /**
   * The trace of `json`: from its figures when the shape is known, else from its JSON.
   * @param {string} json
   * @returns {TraceResult}
   */
  trace(json) {
    const engine = this.#engine;
    const figures = engine.traceFigures(json);
    if (!figures.ok) return figures;
    const signature = figuresSignature(figures.figures);
    const trace = this.#shapes.get(signature);
    const layout = engine.figuresLayout();
    if (trace && layout) {
      if (refillTrace(trace, signature, figures.figures, layout)) return { ok: true, error: '', value: trace };
      this.#shapes.delete(signature);
    }
    const result = engine.computeTrace(json);
    if (result.ok) {
      const oldest = this.#shapes.keys().next().value;
      if (this.#shapes.size >= SHAPES_KEPT && oldest !== undefined) this.#shapes.delete(oldest);
      this.#shapes.set(signature, result.value);
    }
    return result;
  }

  /**
   * The shape signature of `trace` (one this cache gave out, else the trace of `json`), or NaN.
   * @param {TraceDocument} trace
   * @param {string} json
   */
  signatureOf(trace, json) {
    for (const [signature, kept] of this.#shapes) if (kept === trace) return signature;
    const own = this.#engine.traceFigures(json);
    return own.ok ? figuresSignature(own.figures) : NaN;
  }
}
