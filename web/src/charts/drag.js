// @ts-check
// Direct manipulation on a chart: the point that marks the current scenario (the prompt length
// on the intensity chart, the swept value on the TTFT sweep) as a handle a reader can drag with
// a mouse, a pen or a finger, or move with the keyboard.
//
// The handle lives in a second, transparent <svg> laid over the chart's own: the chart is one
// labelled image (role="img"), whose children a screen reader does not reach, so a focusable
// slider inside it would be lost. The overlay has the chart's size and coordinates, and only the
// handle takes pointer events. Pointer events with capture follow a drag outside the handle (a
// finger slides off a 24 px strip at once); `touch-action: none` (style.css) keeps the page from
// scrolling while a finger drags it.
//
// Keys, as a native slider takes them (WAI-ARIA slider pattern): ←/↓ and →/↑ move by 1% of the
// axis, Page Down/Page Up by 10%, Home/End to the axis's ends. On a log axis a step is 1% of
// the axis's span in log space (a constant factor), so the keys and the pointer agree with
// what is drawn. Every value goes through `snap` (a whole number of tokens, a rate to four
// digits) and is reported as `onChange(value, commit)`: commit is false while a drag moves and
// true when it ends or a key is pressed, as the explorer's controls report their edits.

import { create } from 'd3-selection';
import { writeAttrs } from './writes.js';

/** A chart's axis the handle moves along: a d3 continuous scale, log or linear. @typedef {import('d3-scale').ScaleContinuousNumeric<number, number> & {base?: unknown}} Axis */
/**
 * Where a drawing puts the handle (draw functions return it).
 * @typedef {object} HandlePlace
 * @property {number} width
 * @property {number} height
 * @property {Axis} x
 * @property {number} value  where the handle stands on the axis
 * @property {number} y1
 * @property {number} y2
 * @property {number} knobY
 * @property {number} [shown]  the value it reads (default `value`)
 * @property {string | null} [label]
 * @property {((value: number) => string) | null} [format]
 * @property {((value: number) => number) | null} [snap]
 */

/** The half-width of the handle's strip: a 24 px target (WCAG 2.5.8). */
const HALF_WIDTH = 12;
/**
 * @type {Record<string, number>}
 */
const KEY_STEPS = { ArrowRight: 0.01, ArrowUp: 0.01, ArrowLeft: -0.01, ArrowDown: -0.01, PageUp: 0.1, PageDown: -0.1 };

/**
 * `value` moved by `fraction` of the axis `x` (a d3 scale, log or linear), kept inside it.
 * Exported for the tests' derivation to name, not to reuse: they compute the step themselves.
 * @param {Axis} x
 * @param {number} value
 * @param {number} fraction
 */
export function stepAlong(x, value, fraction) {
  const [lo, hi] = x.domain();
  const log = typeof x.base === 'function';
  const from = Math.min(hi, Math.max(lo, value));
  const next = log ? from * (hi / lo) ** fraction : from + (hi - lo) * fraction;
  return Math.min(hi, Math.max(lo, next));
}

export class DragHandle {
  /** @type {Axis | null} */
  #x = null;
  /** @type {number | null} */
  #value = null;
  #dragging = false;

  /**
   * @param {HTMLElement} canvas  the chart's canvas (the overlay is appended to it)
   * @param {object} options
   * @param {string} options.label  the handle's accessible name ("Prompt tokens")
   * @param {(value: number) => string} options.format  the value as words (aria-valuetext)
   * @param {(value: number) => number} options.snap  a value the control takes
   * @param {(value: number, commit: boolean) => void} options.onChange
   */
  constructor(canvas, { label, format, snap, onChange }) {
    this.format = format;
    this.snap = snap;
    this.onChange = onChange;
    canvas.classList.add('chart-canvas--draggable');
    /** @type {import('./writes.js').Sel} */
    this.svg = create('svg').call(writeAttrs, { class: 'chart-overlay' });
    this.handle = this.svg
      .append('g')
      .call(writeAttrs, { class: 'drag-handle', role: 'slider', tabindex: 0, 'aria-label': label, 'aria-orientation': 'horizontal' });
    this.handle.append('rect').call(writeAttrs, { class: 'drag-strip', width: 2 * HALF_WIDTH });
    this.handle.append('circle').call(writeAttrs, { class: 'drag-knob', r: 7 });
    canvas.append(this.svg.node());
    this.#listen(/** @type {SVGGElement} */ (this.handle.node()));
  }

  /**
   * Places the handle for a drawing `width` × `height` with axis `x`, at `value` (or at the
   * axis's start, reading `shown`, when the scenario has no point on it), from y1 to y2 with its
   * knob at knobY.
   * @param {HandlePlace} place
   */
  place({ width, height, x, value, y1, y2, knobY, shown = value, label = null, format = null, snap = null }) {
    if (format) this.format = format;
    if (snap) this.snap = snap;
    if (label) this.handle.call(writeAttrs, { 'aria-label': label });
    this.#x = x;
    this.#value = shown;
    const [lo, hi] = x.domain();
    const at = x(Math.min(hi, Math.max(lo, value)));
    this.svg.call(writeAttrs, { width, height, viewBox: `0 0 ${width} ${height}` });
    this.handle.call(writeAttrs, {
      'aria-valuemin': lo,
      'aria-valuemax': hi,
      'aria-valuenow': shown,
      'aria-valuetext': this.format(shown),
    });
    this.handle.select('.drag-strip').call(writeAttrs, { x: at - HALF_WIDTH, y: y1, height: Math.max(0, y2 - y1) });
    this.handle.select('.drag-knob').call(writeAttrs, { cx: at, cy: knobY });
  }

  /**
   * @param {number} value
   * @param {boolean} commit
   */
  #report(value, commit) {
    const snapped = this.snap(value);
    this.#value = snapped;
    this.onChange(snapped, commit);
  }

  /**
   * The axis value under a pointer event (through the overlay's screen transform).
   * @param {PointerEvent} event
   * @returns {number | null}
   */
  #valueAt(event) {
    const matrix = this.svg.node().getScreenCTM();
    if (!matrix || !this.#x) return null;
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    const [a, b] = this.#x.range();
    return this.#x.invert(Math.min(b, Math.max(a, point.x)));
  }

  /** @param {SVGGElement} node */
  #listen(node) {
    node.addEventListener('pointerdown', (event) => {
      if (event.button !== 0 || !this.#x) return;
      event.preventDefault();
      node.setPointerCapture(event.pointerId);
      node.focus({ preventScroll: true });
      this.#dragging = true;
    });
    node.addEventListener('pointermove', (event) => {
      if (!this.#dragging) return;
      const value = this.#valueAt(event);
      if (value !== null) this.#report(value, false);
    });
    const end = (/** @type {PointerEvent} */ event) => {
      if (!this.#dragging) return;
      this.#dragging = false;
      const value = event.type === 'pointercancel' ? this.#value : this.#valueAt(event) ?? this.#value;
      if (value !== null) this.#report(value, true);
    };
    node.addEventListener('pointerup', end);
    node.addEventListener('pointercancel', end);
    node.addEventListener('keydown', (event) => this.#key(event));
  }

  /** @param {KeyboardEvent} event */
  #key(event) {
    const x = this.#x;
    if (!x) return;
    const [lo, hi] = x.domain();
    let next = null;
    if (event.key === 'Home') next = lo;
    else if (event.key === 'End') next = hi;
    else if (KEY_STEPS[event.key] !== undefined) {
      const from = this.#value ?? lo;
      next = stepAlong(x, from, KEY_STEPS[event.key]);
      // A step that snaps back to where it started (one token at the axis's low end) moves by
      // the least the control takes instead: a key always moves the handle unless at an end.
      if (this.snap(next) === from && next !== from) next = this.snap(from + Math.sign(next - from));
    }
    if (next === null) return;
    event.preventDefault();
    this.#report(Math.min(hi, Math.max(lo, next)), true);
  }
}
