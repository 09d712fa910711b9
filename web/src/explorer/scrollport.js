// @ts-check
// The box the explorer scrolls in: the page, or a host's scrolling panel (the Atlas's
// inspector, its lab modal). Sticky parts (the controls beside the results, the phone's
// scenario bar and its sheet) size themselves from it, not from the viewport: `100vh` is taller
// than a modal that is 88 % of it, and a panel's padding leaves a gap above a bar stuck at
// `top: 0`, through which the text scrolling under it shows. Two custom properties on the
// explorer say what CSS cannot read:
//   --scrollport-height  the visible height of that box (px; never taller than the window)
//   --scrollport-inset   its top padding (px): a sticky `top` of minus this sits at its edge
// Everything is read in ResizeObserver callbacks, after a layout and before anything is
// written, so measuring never forces a layout of its own (tests/browser/start-tasks).

/**
 * Whether `node` clips and scrolls its content (a scroll container, whose box sticky parts stick to).
 * @param {CSSStyleDeclaration} style
 */
function scrolls(style) {
  return /^(auto|scroll|hidden|overlay)$/.test(style.overflowY);
}

/**
 * The nearest ancestor of `node` that is a scroll container, across shadow roots; null for the page.
 * @param {Element} node
 * @returns {Element | null}
 */
export function scrollContainerOf(node) {
  let current = node;
  for (;;) {
    // Out of a shadow root: to its host (a document has none).
    const parent = current.parentElement ?? /** @type {Partial<ShadowRoot>} */ (current.getRootNode())?.host ?? null;
    if (!parent || parent === document.body || parent === document.documentElement) return null;
    if (scrolls(getComputedStyle(parent))) return parent;
    current = parent;
  }
}

export class ScrollportWatch {
  #target;
  /** @type {Element | null | undefined} */
  #container = undefined;
  /** @type {{height: number, inset: number} | null} */
  #containerBox = null; // {height, inset} of the container, from its last ResizeObserver entry
  #ownResizes;
  #containerResizes;
  #onWindowResize = () => this.#write();

  /** @param {HTMLElement} target  the element that gets the two properties (and is watched) */
  constructor(target) {
    this.#target = target;
    // The target's first layout (and every change of its size, e.g. a host moving it): look
    // for the box it scrolls in again.
    this.#ownResizes = new ResizeObserver(() => this.#locate());
    this.#containerResizes = new ResizeObserver((entries) => {
      const entry = /** @type {ResizeObserverEntry} */ (entries.at(-1));
      this.#containerBox = {
        height: entry.borderBoxSize?.[0]?.blockSize ?? entry.contentRect.height,
        inset: entry.contentRect.top, // the content box's offset: the top padding
      };
      this.#write();
    });
    this.#ownResizes.observe(target);
    window.addEventListener('resize', this.#onWindowResize);
  }

  #locate() {
    if (!this.#target.isConnected) return;
    const container = scrollContainerOf(this.#target);
    if (container === this.#container) return;
    if (this.#container) this.#containerResizes.unobserve(this.#container);
    this.#container = container;
    this.#containerBox = null;
    if (container) this.#containerResizes.observe(container, { box: 'border-box' });
    else this.#write();
  }

  #write() {
    if (this.#container && !this.#containerBox) return; // its observer reports it shortly
    const height = Math.min(window.innerHeight, this.#containerBox?.height ?? Infinity);
    const style = this.#target.style;
    style.setProperty('--scrollport-height', `${Math.round(height)}px`);
    style.setProperty('--scrollport-inset', `${Math.round(this.#containerBox?.inset ?? 0)}px`);
  }

  disconnect() {
    this.#ownResizes.disconnect();
    this.#containerResizes.disconnect();
    window.removeEventListener('resize', this.#onWindowResize);
  }
}
