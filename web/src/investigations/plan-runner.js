// The guided investigations' placement search (serving-catalog.js `plans`: the engine's
// planServing, `prefill-trace plan`; docs/serving.md, "Placement search") off the page's main
// thread. One search takes 1–2 s of a throttled phone's CPU, which as one task froze the page
// that long: it now runs in the serving Worker (under-load/worker.js, its 'plan' message) when
// one can run, else on the page in slices of the engine's work between frames (Engine.startPlan,
// the engine's ServingPlan), as "Under load" runs its simulation without a Worker. Either way the
// document is planServing's, the same bytes.
//
// The Worker is this runner's own (the same script as Under load's, a second instance): the two
// parts run independently, and a plan never waits behind a minute of simulation.

import { ENGINE_DIR, ENGINE_WASM, assetUrl } from '../config.js';
import { advanceInSlices, yieldToPage } from '../under-load/on-page.js';
import { startServingWorker, workerErrorWords } from '../under-load/under-load.js';

/** @typedef {import('prefill-trace').PlanDocument} PlanDocument */
/** A plan's outcome: the document and where it ran, or why there is none. @typedef {{ok: true, plan: PlanDocument, ranIn: 'worker' | 'page'} | {ok: false, error: string}} PlanOutcome */
/** What the Worker posts for a plan (worker.js). @typedef {{type: 'capability' | 'plan', id?: number, ok: boolean, error?: string, plan?: PlanDocument}} PlanMessage */

const GONE = 'the lesson was removed from the page';
/**
 * A slice's most work on the page, in the engine's units (~2 ms at full speed in wasm, ~8 ns a
 * unit): a fifth of Under load's. A plan moves from one scheduler's goodput searches to the next,
 * and the first slice in code the page has not run yet (the engine's baseline tier, compiled as
 * it is first called) took ~10× its budget's time: 144 ms at Under load's cap (measured in
 * tests/browser/investigations-plan.test.mjs, unthrottled).
 */
const MAX_BUDGET = 400_000;

export class PlanRunner {
  #engine;
  #base;
  /** @type {Worker | null} */
  #worker = null;
  /** Why no Worker can run, once known: later plans go to the page directly. @type {string | null} */
  #noWorker = null;
  #id = 0;
  #disposed = false;
  /** The Worker's plans under way: id → how to settle it (a reason to run it on the page, or its outcome). */
  /** @type {Map<number, (outcome: PlanOutcome | {noWorker: string}) => void>} */
  #pending = new Map();

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine  the page's engine (the slices' and the fallback's)
   * @param {URL} [options.assetBase]  where the Worker's script and the .wasm live (config.js)
   */
  constructor({ engine, assetBase }) {
    this.#engine = engine;
    this.#base = assetUrl('', assetBase);
  }

  /**
   * planServing(scenarioJson, devices), off the main thread. `onStatus(text)` is told, in the
   * reader's words, when it runs on the page instead of in the Worker (and why).
   * @param {string} scenarioJson
   * @param {number} devices
   * @param {(text: string) => void} [onStatus]
   * @returns {Promise<PlanOutcome>}
   */
  async plan(scenarioJson, devices, onStatus = () => {}) {
    const outcome = await this.#inWorker(scenarioJson, devices);
    if (!('noWorker' in outcome)) return outcome;
    return this.#onPage(scenarioJson, devices, outcome.noWorker, onStatus);
  }

  /**
   * Loads the engine in the Worker now, when the reader opens an investigation that plans: its
   * first "Show me" then waits for the search only (on a throttled phone the Worker's script and
   * the .wasm's compilation took ~1 s of the first answer). Nothing when no Worker can run.
   */
  warm() {
    if (this.#disposed || this.#noWorker) return;
    const worker = this.#startWorker();
    if (typeof worker === 'string') this.#noWorker = worker;
    else worker.postMessage({ type: 'load', wasm: assetUrl(ENGINE_DIR + ENGINE_WASM, this.#base).href });
  }

  /** The element is gone: the Worker ends, and a plan on the page stops before its next slice. */
  dispose() {
    this.#disposed = true;
    this.#worker?.terminate();
    this.#worker = null;
    for (const settle of this.#pending.values()) settle({ ok: false, error: GONE });
    this.#pending.clear();
  }

  /** The Worker, made at the first plan, or why none can run. @returns {Worker | string} */
  #startWorker() {
    if (this.#worker) return this.#worker;
    const worker = startServingWorker(this.#base, 'prefill-trace-plan');
    if (typeof worker === 'string') return worker;
    worker.onmessage = (event) => this.#received(worker, /** @type {PlanMessage} */ (event.data));
    // A script that does not load (404, refused by a CSP's worker-src) or throws.
    worker.onerror = (event) => {
      event.preventDefault?.();
      this.#failed(worker, workerErrorWords(event));
    };
    this.#worker = worker;
    return worker;
  }

  /** @param {Worker} worker @param {PlanMessage} message */
  #received(worker, message) {
    if (message.type === 'capability' && !message.ok) this.#failed(worker, message.error ?? '');
    if (message.type !== 'plan') return;
    const settle = this.#pending.get(/** @type {number} */ (message.id));
    this.#pending.delete(/** @type {number} */ (message.id));
    settle?.(message.ok ? { ok: true, plan: /** @type {PlanDocument} */ (message.plan), ranIn: 'worker' } : { ok: false, error: message.error ?? '' });
  }

  /** A Worker that cannot load is not used again: its plans, and later ones, run on the page. @param {Worker} worker @param {string} reason */
  #failed(worker, reason) {
    worker.terminate();
    if (this.#worker === worker) this.#worker = null;
    this.#noWorker = reason;
    for (const settle of this.#pending.values()) settle({ noWorker: reason });
    this.#pending.clear();
  }

  /** @param {string} scenarioJson @param {number} devices @returns {Promise<PlanOutcome | {noWorker: string}>} */
  #inWorker(scenarioJson, devices) {
    if (this.#disposed) return Promise.resolve({ ok: false, error: GONE });
    if (this.#noWorker) return Promise.resolve({ noWorker: this.#noWorker });
    const worker = this.#startWorker();
    if (typeof worker === 'string') {
      this.#noWorker = worker;
      return Promise.resolve({ noWorker: worker });
    }
    const id = ++this.#id;
    const settled = new Promise((settle) => this.#pending.set(id, settle));
    worker.postMessage({ type: 'plan', id, wasm: assetUrl(ENGINE_DIR + ENGINE_WASM, this.#base).href, scenario: scenarioJson, devices });
    return /** @type {Promise<PlanOutcome | {noWorker: string}>} */ (settled);
  }

  /**
   * The page's own engine searches in slices: each `advance` runs a budget of the engine's work
   * and the page yields a frame between them, the budget following the time a slice took
   * (on-page.js's advanceInSlices: ~8 ms a slice). An engine without slices (an older build a host
   * supplies) answers in one call, as before.
   * @param {string} scenarioJson
   * @param {number} devices
   * @param {string} reason
   * @param {(text: string) => void} onStatus
   * @returns {Promise<PlanOutcome>}
   */
  async #onPage(scenarioJson, devices, reason, onStatus) {
    const engine = this.#engine;
    onStatus(`Searching every placement on this page itself, in short steps between which the page stays responsive (${reason})…`);
    await yieldToPage();
    if (this.#disposed) return { ok: false, error: GONE };
    if (!engine.hasPlanSlices()) {
      const result = engine.planServing(scenarioJson, devices);
      return result.ok ? { ok: true, plan: result.value, ranIn: 'page' } : { ok: false, error: result.error };
    }
    const plan = engine.startPlan(scenarioJson, devices);
    if (!plan.ok) return { ok: false, error: plan.error };
    try {
      const advanced = await advanceInSlices(plan, { live: () => !this.#disposed, maxBudget: MAX_BUDGET });
      if ('stopped' in advanced) return { ok: false, error: GONE };
      if ('error' in advanced) return { ok: false, error: advanced.error };
      const result = plan.result();
      return result.ok ? { ok: true, plan: result.value, ranIn: 'page' } : { ok: false, error: result.error };
    } finally {
      plan.dispose();
    }
  }
}
