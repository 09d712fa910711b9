// "Under load" on the page itself, where no Worker can run (under-load.js #onPage): the engine's
// simulation in slices, the page yielding between them (docs/serving.md, "In slices"), and a
// warm-up that compiles the engine's serving path before the first run needs it.

import * as fmt from '../format.js';

/** A slice's aim on the page (ms): well inside the 50 ms of a long task, also after a result's JSON is read. */
const SLICE_MS = 8;
/** The first slice's budget, in the engine's work units (~5 ns each natively: ~1 ms here). */
export const FIRST_BUDGET = 50_000;
const MIN_BUDGET = 2_000;
/** How often the status follows the run (ms). */
export const STATUS_MS = 500;
/** ~16 ms of the engine's work at full speed in wasm (~8 ns a unit measured under Node). */
const MAX_BUDGET = 2_000_000;

/**
 * The next slice's budget from the last one's time: toward SLICE_MS, at most doubling or halving at once.
 * @param {number} budget
 * @param {number} elapsedMs
 */
export function nextBudget(budget, elapsedMs) {
  const factor = elapsedMs > 0 ? Math.min(2, Math.max(0.5, SLICE_MS / elapsedMs)) : 2;
  return Math.min(MAX_BUDGET, Math.max(MIN_BUDGET, Math.round(budget * factor)));
}

/**
 * The status while the page simulates: which run, and how far it is (the engine's counts).
 * @param {number} index
 * @param {number} count
 * @param {{done: boolean, requestsFinished: number, requests: number}} step
 */
export function onPageStatus(index, count, step) {
  const part = step.requests > 0 && !step.done ? `, ${fmt.count(step.requestsFinished)} of ${fmt.count(step.requests)} requests done` : '';
  return `Simulating on this page, step by step (run ${index + 1} of ${count}${part})…`;
}

/**
 * Resolves in a new task after the page's next frame, so it paints and handles input between two
 * slices: one slice per frame. Not `scheduler.yield()`: its continuation goes ahead of the
 * frame, and Chromium ran ten slices back to back before painting (frames of ~115 ms on a 4×
 * throttled phone, measured with long-animation-frame entries; docs/performance.md). The frame's
 * callback posts a message to ourselves, so the slice runs after the paint, not inside the
 * frame. A hidden page has no frames, and a throttled frame (an offscreen frame) may not come:
 * 100 ms at most.
 * @returns {Promise<void>}
 */
export function yieldToPage() {
  return new Promise((resolve) => {
    let posted = false;
    const post = () => {
      if (posted) return;
      posted = true;
      nextTask().then(resolve);
    };
    if (typeof requestAnimationFrame !== 'function' || globalThis.document?.visibilityState !== 'visible') {
      post();
      return;
    }
    const timer = setTimeout(post, 100);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      post();
    });
  });
}

/**
 * Advances `handle` (the engine's ServingSimulation or ServingPlan, Engine.startServing /
 * startPlan) to its end, one slice per frame (yieldToPage). With `adapt`, each slice's budget
 * follows the last one's time (nextBudget, at most `maxBudget`); a slice that ended the call
 * stopped short of its budget, so its time says nothing and the budget stays. The one loop of
 * Under load's runs, its warm-up and the investigations' plans on the page.
 * @template {{ok: boolean, error: string, done: boolean}} Step
 * @param {{advance: (budget: number) => Step}} handle
 * @param {object} options
 * @param {() => boolean} options.live  false once the caller no longer wants the result (checked before each slice)
 * @param {number} [options.budget]  the first slice's budget
 * @param {boolean} [options.adapt]  whether the budget follows the slices' times
 * @param {number} [options.maxBudget]
 * @param {(step: Step) => void} [options.onStep]  after each slice the engine accepted
 * @returns {Promise<{done: true, budget: number} | {stopped: true} | {error: string}>}  done with the budget reached, stopped, or the engine's refusal
 */
export async function advanceInSlices(handle, { live, budget = FIRST_BUDGET, adapt = true, maxBudget = MAX_BUDGET, onStep = () => {} }) {
  for (let done = false; !done; ) {
    await yieldToPage();
    if (!live()) return { stopped: true };
    const started = performance.now();
    const step = handle.advance(budget);
    if (!step.ok) return { error: step.error };
    done = step.done;
    if (!done && adapt) budget = Math.min(maxBudget, nextBudget(budget, performance.now() - started));
    onStep(step);
  }
  return { done: true, budget };
}

/**
 * Resolves in a new task, by a message to ourselves, without waiting for a frame: input and a
 * due frame may run first, but no frame is asked for. Under load's drawing uses it between
 * steps that need not be painted apart (a chart's panels, the hidden data tables): each frame
 * of this page costs 44–160 ms at 4× (docs/performance.md), so a frame per step made more long
 * tasks than it removed.
 * @returns {Promise<void>}
 */
export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(undefined);
    channel.port2.postMessage(null);
  });
}

/**
 * Runs each of `jobs` (scenario JSON, a few requests each) through `engine` once, every call in
 * a task of its own after yieldToPage, and throws the results away: V8 compiles a wasm function
 * on its first call, on the main thread, and the serving path's first start, advance and result
 * were one 224-255 ms task of the first run on a 4× slowed phone (issue 30 item 6). Compiled
 * here, while the reader fills the form, the run's own slices stay short. Stops as soon as
 * `live()` is false (a run started, the element was removed) or the engine refuses.
 * @param {import('../engine.js').Engine} engine
 * @param {string[]} jobs
 * @param {() => boolean} live
 */
export async function warmServing(engine, jobs, live) {
  for (const json of jobs) {
    await yieldToPage();
    if (!live()) return;
    const simulation = engine.startServing(json);
    if (!simulation.ok) return;
    try {
      const advanced = await advanceInSlices(simulation, { live, adapt: false });
      if (!('done' in advanced)) return;
      await yieldToPage();
      if (live()) simulation.result();
    } finally {
      simulation.dispose();
    }
  }
}
