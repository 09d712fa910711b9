// Which parts of the results are near the viewport, and how wide each chart is, from two
// observers: an IntersectionObserver (a part far off screen is drawn later) and a
// ResizeObserver on the chart canvases (widths read while the layout is clean, so an update
// never forces a layout to measure them).

/** How far outside the viewport a part still counts as visible (rendered with the update). */
const NEAR_VIEWPORT = '50% 0px';

export class PartVisibility {
  #near = new Map();
  #widths = new Map();
  #observedParts = new Map();
  #observedCanvases = new Map();
  #intersections = null;
  #resizes;

  /**
   * @param {object} callbacks
   * @param {(names: string[]) => void} callbacks.onNear     parts that came near the viewport
   * @param {(names: string[]) => void} callbacks.onResized  charts whose width changed
   */
  constructor({ onNear, onResized }) {
    if (typeof IntersectionObserver === 'function') {
      this.#intersections = new IntersectionObserver(
        (entries) => {
          const near = [];
          for (const entry of entries) {
            const name = this.#observedParts.get(entry.target);
            this.#near.set(name, entry.isIntersecting);
            if (entry.isIntersecting) near.push(name);
          }
          if (near.length) onNear(near);
        },
        { rootMargin: NEAR_VIEWPORT },
      );
    }
    this.#resizes = new ResizeObserver((entries) => {
      const resized = [];
      for (const entry of entries) {
        const name = this.#observedCanvases.get(entry.target);
        const width = entry.target.clientWidth;
        if (this.#widths.get(name) !== width) {
          this.#widths.set(name, width);
          resized.push(name);
        }
      }
      onResized(resized);
    });
  }

  /** Stops observing (the explorer was removed). */
  disconnect() {
    this.#intersections?.disconnect();
    this.#resizes.disconnect();
    this.#observedParts.clear();
    this.#observedCanvases.clear();
  }

  /** Reports whether part `name` (shown by `element`) is near the viewport. */
  observePart(name, element) {
    if (!element || !this.#intersections) return;
    this.#observedParts.set(element, name);
    this.#intersections.observe(element);
  }

  /**
   * Observes a chart: off screen until the IntersectionObserver says otherwise (a new chart
   * is drawn at once only when it is near the viewport), and its canvas's width.
   */
  observeChart(name, element, canvas) {
    if (this.#intersections) this.#near.set(name, false);
    this.observePart(name, element);
    this.#observedCanvases.set(canvas, name);
    this.#resizes.observe(canvas);
  }

  /** Whether part `name` is near the viewport; unknown (not yet reported) counts as near. */
  isNear(name) {
    return this.#near.get(name) !== false;
  }

  /** The chart's last known width, or undefined before it was measured. */
  width(name) {
    return this.#widths.get(name);
  }

  /** Records a width measured directly (before the ResizeObserver's first report). */
  setWidth(name, width) {
    this.#widths.set(name, width);
  }
}
