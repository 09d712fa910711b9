// @ts-check
// When the explorer draws. FrameScheduler: the first edit in a frame is rendered in its own
// event handler (no wait for the next frame); further edits in the same frame are coalesced
// into one requestAnimationFrame. StaleParts: which parts of the results do not show the
// current scenario yet; those on screen are drawn with the update, the rest in idle moments
// (in document order, as many per idle callback as its deadline allows: another part only when
// one as long as the last still fits, and never after a part's first drawing, whose new nodes
// are styled and laid out in the next frame, outside the callback's own time) or as soon as
// they near the viewport, whichever comes first. nextTask() and nextFrame(): how the page's
// start is cut into tasks short enough for a phone (no task over 50 ms on a 4x slowed CPU,
// docs/performance.md).

/** The longest a part off screen may stay stale. */
const DEFERRED_TIMEOUT_MS = 250;
/** Idle time (ms) an idle callback leaves unused rather than start drawing one more part. */
const IDLE_RESERVE_MS = 4;

/**
 * Settles in a later task, so that what follows does not lengthen the current one: the browser
 * may paint and answer input in between. `scheduler.yield()` where it exists (the rest of the
 * work keeps its place ahead of other tasks), else a message to a MessageChannel (a task without
 * setTimeout's minimum delay). The new task starts with the mark `prefill-trace:<step>`, which
 * names what it does (a browser test reads the marks from a trace and checks that each step of
 * the start is a task of its own).
 * @param {string} step
 */
export async function nextTask(step) {
  // Prioritized Task Scheduling is not in TypeScript's DOM library yet: Chromium's scheduler.yield().
  const scheduler = /** @type {{scheduler?: {yield?: () => Promise<void>}}} */ (globalThis).scheduler;
  if (typeof scheduler?.yield === 'function') {
    await scheduler.yield();
  } else {
    await /** @type {Promise<void>} */ (new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    }));
  }
  performance.mark(`prefill-trace:${step}`);
}

/** The longest nextFrame waits for a frame (a page that is not rendered gets none). */
const FRAME_TIMEOUT_MS = 100;

/**
 * Like nextTask, but after the next rendering: the DOM changed before it is styled and laid out
 * in that frame, apart from what the caller does next. A page that is not being rendered (a
 * background tab) goes on after FRAME_TIMEOUT_MS.
 * @param {string} step
 */
export async function nextFrame(step) {
  await /** @type {Promise<void>} */ (new Promise((resolve) => {
    const timer = setTimeout(resolve, FRAME_TIMEOUT_MS);
    requestAnimationFrame(() => {
      clearTimeout(timer);
      resolve();
    });
  }));
  // rAF callbacks run before the frame's style and layout: the step begins in the task after.
  await nextTask(step);
}

export class FrameScheduler {
  #frame = 0;
  #frameReset = 0;
  #updatedThisFrame = false;
  #update;
  #stopped = false;

  /** @param {() => void} update  draws the current state */
  constructor(update) {
    this.#update = update;
  }

  /**
   * Renders the current state: at once when nothing has been rendered in this frame yet (the
   * reader's edit shows without waiting for a frame), otherwise once in the next frame however
   * many edits arrive before it.
   */
  schedule() {
    if (this.#frame || this.#stopped) return;
    if (!this.#updatedThisFrame) {
      this.#run();
      return;
    }
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#run();
    });
  }

  /** Cancels pending frames; nothing is drawn after this. */
  stop() {
    this.#stopped = true;
    cancelAnimationFrame(this.#frame);
    cancelAnimationFrame(this.#frameReset);
    this.#frame = 0;
    this.#frameReset = 0;
  }

  #run() {
    this.#updatedThisFrame = true;
    this.#frameReset ||= requestAnimationFrame(() => {
      this.#frameReset = 0;
      this.#updatedThisFrame = false;
    });
    this.#update();
  }
}

/**
 * The parts of the results, each drawn on its own from the scenario being shown, and which of
 * them are stale. A part is `{render(shown)}`; `shown` is `{json, ok, trace}`.
 * @typedef {{json: string, ok: boolean, trace: import('prefill-trace').TraceDocument | null}} Shown
 */
export class StaleParts {
  /** @type {Map<string, {render: (shown: Shown) => void}>} */
  #parts = new Map();
  /** @type {Set<string>} */
  #dirty = new Set();
  /** Parts drawn at least once (a later drawing changes nodes in place; the first makes them). */
  /** @type {Set<string>} */
  #drawn = new Set();
  #deferred = 0;
  /** @type {Shown | null} */
  #shown = null;
  /** @type {(() => void)[]} */
  #waiters = [];
  #canRender;
  #onFullyShown;
  #stopped = false;

  /**
   * @param {object} options
   * @param {(name: string) => boolean} options.canRender  whether part `name` can be drawn now
   * @param {(shown: Shown) => void} options.onFullyShown  every part shows `shown`
   */
  constructor({ canRender, onFullyShown }) {
    this.#canRender = canRender;
    this.#onFullyShown = onFullyShown;
  }

  /**
   * Adds a part, in document order (the order idle moments draw them).
   * @param {string} name
   * @param {(shown: Shown) => void} render
   */
  add(name, render) {
    this.#parts.set(name, { render });
  }

  /** The scenario being shown, or null before the first update. */
  get shown() {
    return this.#shown;
  }

  /**
   * Sets the scenario to show.
   * @param {Shown} shown
   */
  show(shown) {
    this.#shown = shown;
  }

  /**
   * Marks each part for which `which(name)` holds stale.
   * @param {(name: string) => boolean} which
   */
  markStale(which) {
    for (const name of this.#parts.keys()) if (which(name)) this.#dirty.add(name);
  }

  /**
   * Forgets that the parts for which `which(name)` holds are stale: they will not be drawn.
   * @param {(name: string) => boolean} which
   */
  clearStale(which) {
    for (const name of [...this.#dirty]) if (which(name)) this.#dirty.delete(name);
  }

  /** @param {string} name */
  isStale(name) {
    return this.#dirty.has(name);
  }

  staleNames() {
    return [...this.#dirty];
  }

  /** Settles once every part, visible or not, shows the current scenario. */
  fullyShown() {
    if (this.#shown && this.#dirty.size === 0) return Promise.resolve();
    return /** @type {Promise<void>} */ (new Promise((resolve) => this.#waiters.push(resolve)));
  }

  /**
   * Renders stale parts now; when none is left, the scenario is fully shown.
   * @param {Iterable<string>} names
   */
  render(names) {
    const shown = this.#shown;
    if (!shown) return;
    for (const name of names) this.#renderPart(name, shown);
    this.settle();
  }

  /**
   * @param {string} name
   * @param {Shown} shown
   */
  #renderPart(name, shown) {
    if (!this.#dirty.has(name) || !this.#canRender(name)) return;
    this.#dirty.delete(name);
    if (name !== 'checks' && !shown.ok) return;
    this.#parts.get(name)?.render(shown);
    this.#drawn.add(name);
  }

  /** Resolves the waiters when no part is stale. */
  settle() {
    if (this.#dirty.size > 0 || !this.#shown) return;
    this.#onFullyShown(this.#shown);
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /** Cancels the idle callback and settles the waiters; nothing is drawn after this. */
  stop() {
    this.#stopped = true;
    if (typeof cancelIdleCallback === 'function') cancelIdleCallback(this.#deferred);
    clearTimeout(this.#deferred);
    this.#deferred = 0;
    for (const resolve of this.#waiters.splice(0)) resolve();
  }

  /**
   * Brings the stale parts up to date in idle moments, in document order: as many per idle
   * callback as its deadline allows, at least one, and none left stale longer than about
   * DEFERRED_TIMEOUT_MS per part while the page is busy. A part's first drawing ends the
   * callback: the nodes it made are styled and laid out in the next frame, a cost its own time
   * does not show (tens of ms at 4x on a phone for a step card or a chart); one first drawing
   * per frame keeps each of those layouts to one part's (docs/performance.md).
   */
  scheduleDeferred() {
    // Parts that cannot be drawn yet (charts waiting for their module) are scheduled again
    // by whoever makes them drawable.
    if (this.#stopped || this.#deferred || !this.staleNames().some((name) => this.#canRender(name))) return;
    const run = (/** @type {IdleDeadline | undefined} */ deadline) => {
      this.#deferred = 0;
      const shown = this.#shown;
      if (!shown) return;
      for (const name of this.#parts.keys()) {
        if (!this.#dirty.has(name) || !this.#canRender(name)) continue;
        const first = !this.#drawn.has(name);
        const started = performance.now();
        this.#renderPart(name, shown);
        if (first && this.#drawn.has(name)) break;
        // Another part only if one as long as this one still fits in the idle period.
        const took = performance.now() - started;
        if (!deadline || deadline.timeRemaining() < IDLE_RESERVE_MS + took) break;
      }
      this.settle();
      this.scheduleDeferred();
    };
    this.#deferred =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(run, { timeout: DEFERRED_TIMEOUT_MS })
        : setTimeout(run, 16);
  }
}
