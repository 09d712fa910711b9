// @ts-check
// Which parts of the results are in the viewport or near it, and how wide each chart is, from
// three observers: two IntersectionObservers (a part in view is drawn with the update; one
// coming near the viewport is brought up to date before it shows) and a ResizeObserver on the
// chart canvases (widths read while the layout is clean, so an update never forces a layout to
// measure them).

/**
 * How far outside the viewport a part counts as near: a stale part entering this band is drawn
 * at once, before a scroll brings it into view.
 */
const NEAR_VIEWPORT = '50% 0px';

/** A whenKnown caller: the parts it waits for. @typedef {{names: string[], resolve: () => void}} Waiter */

export class PartVisibility {
  /** @type {Map<string, boolean>} */
  #inView = new Map();
  /** @type {Map<string, number>} */
  #widths = new Map();
  /** @type {Map<Element, string>} */
  #observedParts = new Map();
  /** @type {Map<Element, string>} */
  #observedCanvases = new Map();
  /** @type {IntersectionObserver | null} */
  #nearness = null;
  /** @type {IntersectionObserver | null} */
  #views = null;
  /** @type {ResizeObserver} */
  #resizes;
  /** @type {Waiter[]} */
  #known = [];

  /**
   * @param {object} callbacks
   * @param {(names: string[]) => void} callbacks.onNear     parts that came near the viewport or into it
   * @param {(names: string[]) => void} callbacks.onResized  charts whose width changed
   */
  constructor({ onNear, onResized }) {
    if (typeof IntersectionObserver === 'function') {
      /**
       * @param {string} rootMargin
       * @param {Map<string, boolean> | null} [states]
       */
      const watch = (rootMargin, states = null) =>
        new IntersectionObserver(
          (entries) => {
            /** @type {string[]} */
            const entered = [];
            for (const entry of entries) {
              const name = /** @type {string} */ (this.#observedParts.get(entry.target));
              states?.set(name, entry.isIntersecting);
              if (entry.isIntersecting) entered.push(name);
            }
            if (states) this.#settleKnown();
            if (entered.length) onNear(entered);
          },
          { rootMargin },
        );
      this.#nearness = watch(NEAR_VIEWPORT);
      this.#views = watch('0px', this.#inView);
    }
    this.#resizes = new ResizeObserver((entries) => {
      /** @type {string[]} */
      const resized = [];
      for (const entry of entries) {
        const name = /** @type {string} */ (this.#observedCanvases.get(entry.target));
        const width = entry.target.clientWidth;
        if (this.#widths.get(name) !== width) {
          this.#widths.set(name, width);
          resized.push(name);
        }
      }
      onResized(resized);
    });
  }

  /**
   * Settles once the observer has said whether each of `names` is in the viewport (its first
   * report on a part follows the first layout with the part in the page), or after
   * `timeoutMs` (a page that is not rendered; without IntersectionObserver at once): parts
   * not reported count as in view.
   * @param {string[]} names
   * @param {number} timeoutMs
   * @returns {Promise<void>}
   */
  whenKnown(names, timeoutMs) {
    if (!this.#views) return Promise.resolve();
    return new Promise((resolve) => {
      /** @type {Waiter} */
      const waiter = { names, resolve: () => resolve() };
      this.#known.push(waiter);
      setTimeout(() => this.#settleKnown(waiter), timeoutMs);
      this.#settleKnown();
    });
  }

  /**
   * Settles the whenKnown waiters whose parts are all reported (and `expired`, whatever they are).
   * @param {Waiter | null} [expired]
   */
  #settleKnown(expired = null) {
    this.#known = this.#known.filter((waiter) => {
      if (waiter !== expired && !waiter.names.every((name) => this.#inView.has(name))) return true;
      waiter.resolve();
      return false;
    });
  }

  /** Stops observing (the explorer was removed). */
  disconnect() {
    for (const waiter of this.#known.splice(0)) waiter.resolve();
    this.#nearness?.disconnect();
    this.#views?.disconnect();
    this.#resizes.disconnect();
    this.#observedParts.clear();
    this.#observedCanvases.clear();
  }

  /**
   * Reports when part `name` (shown by `element`) comes near the viewport, and whether it is in it.
   * @param {string} name
   * @param {Element | null | undefined} element
   */
  observePart(name, element) {
    if (!element || !this.#nearness) return;
    this.#observedParts.set(element, name);
    this.#nearness.observe(element);
    this.#views?.observe(element);
  }

  /**
   * Observes a chart: off screen until the IntersectionObserver says otherwise (a new chart
   * is drawn at once only when it is near the viewport or in it), and its canvas's width.
   * @param {string} name
   * @param {Element} element
   * @param {Element} canvas
   */
  observeChart(name, element, canvas) {
    if (this.#views) this.#inView.set(name, false);
    this.observePart(name, element);
    this.#observedCanvases.set(canvas, name);
    this.#resizes.observe(canvas);
  }

  /**
   * Whether part `name` is (partly) in the viewport; unknown (not yet reported) counts as in view.
   * @param {string} name
   */
  isInView(name) {
    return this.#inView.get(name) !== false;
  }

  /**
   * The chart's last known width, or undefined before it was measured.
   * @param {string} name
   */
  width(name) {
    return this.#widths.get(name);
  }

  /**
   * Records a width measured directly (before the ResizeObserver's first report).
   * @param {string} name
   * @param {number} width
   */
  setWidth(name, width) {
    this.#widths.set(name, width);
  }
}
