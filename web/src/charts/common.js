// Shared pieces of the explorer's charts: the figure frame (title, SVG, caption, and a data
// table for screen readers), SVG creation at the container's width, and log-axis ticks.
// Charts are SVG drawn with d3 (scales, axes, shapes); colours come from CSS classes so the
// light and dark schemes apply, and nothing here sets an inline style (the CSP forbids them).

import { axisBottom, axisLeft } from 'd3-axis';
import { create } from 'd3-selection';
import { symbol, symbolCircle, symbolSquare, symbolTriangle } from 'd3-shape';
import { h } from '../dom.js';
import { tick } from '../format.js';

let uid = 0;

/** A document-unique id for SVG <pattern>/<clipPath> references. */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}

/**
 * One chart: a <figure> with a heading, the drawing, a visible caption and a data table that
 * is visually hidden but read by screen readers (the SVG itself is one labelled image).
 */
export class ChartPanel {
  /**
   * @param {object} options
   * @param {string} options.id        element id (unique inside the lesson)
   * @param {string} options.title     heading
   * @param {(width: number, model: object) => SVGSVGElement} options.draw
   * @param {(model: object) => HTMLElement} options.table
   * @param {(model: object) => string} options.describe   one-sentence summary (caption, aria-label)
   * @param {HTMLElement[]} [options.extra]   controls shown under the heading
   * @param {HTMLElement} [options.legend]    key shown under the drawing
   */
  constructor({ id, title, draw, table, describe, extra = [], legend = null }) {
    this.draw = draw;
    this.table = table;
    this.describe = describe;
    this.model = null;
    this.width = 0;
    this.canvas = h('div', { class: 'chart-canvas' });
    this.caption = h('figcaption', { class: 'chart-caption', id: `${id}-caption` });
    this.data = h('div', { class: 'visually-hidden chart-data' });
    this.element = h(
      'figure',
      { class: 'chart', id, 'aria-labelledby': `${id}-title` },
      h('h3', { id: `${id}-title`, class: 'chart-title' }, title),
      extra,
      this.canvas,
      legend,
      this.caption,
      this.data,
    );
  }

  /** The width to draw at (reading it may force a layout: read every chart's before drawing any). */
  measure() {
    return this.canvas.clientWidth;
  }

  /** Draws `model` at `width` (default: the canvas's current width). */
  update(model, width = this.measure()) {
    this.model = model;
    this.element.removeAttribute('data-error');
    this.#render(width);
    const summary = this.describe(model);
    this.caption.replaceChildren(summary);
    this.data.replaceChildren(this.table(model));
  }

  /** Redraws after a resize; returns false when the width did not change. */
  resize(width = this.measure()) {
    if (!this.model || Math.abs(width - this.width) < 1) return false;
    this.#render(width);
    return true;
  }

  #render(width) {
    this.width = width;
    const svg = this.draw(Math.max(240, Math.floor(width || 320)), this.model);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', this.describe(this.model));
    this.canvas.replaceChildren(svg);
  }

  /** Shows `message` instead of the drawing (the rest of the explorer still updates). */
  showError(message) {
    this.model = null;
    this.element.setAttribute('data-error', '');
    this.canvas.replaceChildren(h('p', { class: 'inline-error' }, message));
    this.caption.replaceChildren();
    this.data.replaceChildren();
  }
}

/** A new <svg> of the given size as a d3 selection. */
export function svgOf(width, height, className) {
  return create('svg')
    .attr('class', `chart-svg ${className}`)
    .attr('width', width)
    .attr('height', height)
    .attr('viewBox', `0 0 ${width} ${height}`);
}

/** Powers of ten inside a log scale's domain (at most `max`, thinned evenly). */
export function decadeTicks(scale, max = 8) {
  const [lo, hi] = scale.domain();
  const ticks = [];
  for (let e = Math.ceil(Math.log10(lo) - 1e-9); e <= Math.floor(Math.log10(hi) + 1e-9); e += 1) {
    ticks.push(10 ** e);
  }
  if (ticks.length <= max) return ticks;
  const step = Math.ceil(ticks.length / max);
  return ticks.filter((_, i) => i % step === 0);
}

/** Draws a bottom axis at y with `title` under it. */
export function bottomAxis(svg, scale, { y, title, ticks, format = tick, width }) {
  const axis = axisBottom(scale).tickFormat(format).tickSizeOuter(0);
  if (ticks) axis.tickValues(ticks);
  else axis.ticks(Math.max(2, Math.floor(width / 80)));
  svg.append('g').attr('class', 'axis axis--x').attr('transform', `translate(0,${y})`).call(axis);
  if (title) {
    const [a, b] = scale.range();
    svg
      .append('text')
      .attr('class', 'axis-title')
      .attr('x', (a + b) / 2)
      .attr('y', y + 34)
      .attr('text-anchor', 'middle')
      .text(title);
  }
}

/** Draws a left axis at x with a rotated `title` beside it. */
export function leftAxis(svg, scale, { x, title, ticks, format = tick, height, titleOffset = 42 }) {
  const axis = axisLeft(scale).tickFormat(format).tickSizeOuter(0);
  if (ticks) axis.tickValues(ticks);
  else axis.ticks(Math.max(2, Math.floor(height / 50)));
  svg.append('g').attr('class', 'axis axis--y').attr('transform', `translate(${x},0)`).call(axis);
  if (title) {
    const [a, b] = scale.range();
    svg
      .append('text')
      .attr('class', 'axis-title')
      .attr('transform', `translate(${x - titleOffset},${(a + b) / 2}) rotate(-90)`)
      .attr('text-anchor', 'middle')
      .text(title);
  }
}

/** A diagonal-hatch <pattern> for "overhead" and "unbounded" areas; returns its url(). */
export function hatchPattern(svg, className) {
  const id = uniqueId('hatch');
  const pattern = svg
    .append('defs')
    .append('pattern')
    .attr('id', id)
    .attr('width', 6)
    .attr('height', 6)
    .attr('patternUnits', 'userSpaceOnUse')
    .attr('patternTransform', 'rotate(45)');
  pattern.append('rect').attr('class', `${className} hatch-bg`).attr('width', 6).attr('height', 6);
  pattern.append('line').attr('class', `${className} hatch-line`).attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6);
  return `url(#${id})`;
}

/** A data table: `columns` are header strings, `rows` arrays of cell text. */
export function dataTable(caption, columns, rows) {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h(
      'tbody',
      {},
      rows.map((row) =>
        h('tr', {}, row.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell)))),
      ),
    ),
  );
}

/** Operator names as the charts print them: "qkv_projection" → "qkv projection". */
export function operatorLabel(name) {
  return String(name).replaceAll('_', ' ');
}

/** Moves label y positions apart so no two are closer than `gap` (sorted top to bottom). */
export function spreadLabels(labels, gap, top, bottom) {
  const sorted = [...labels].sort((a, b) => a.y - b.y);
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i].y - sorted[i - 1].y < gap) sorted[i].y = sorted[i - 1].y + gap;
  }
  const overflow = sorted.length ? sorted[sorted.length - 1].y - bottom : 0;
  if (overflow > 0) for (const label of sorted) label.y = Math.max(top, label.y - overflow);
  return sorted;
}

const SWATCH_SYMBOLS = { circle: symbolCircle, square: symbolSquare, triangle: symbolTriangle };

/**
 * A chart key: `items` are `{kind: 'circle'|'square'|'triangle'|'bar'|'hatch'|'rule', className,
 * label}`. Swatches are small SVGs styled by the same classes as the chart's marks.
 */
export function legend(items) {
  return h(
    'ul',
    { class: 'legend' },
    items.map((item) => {
      const swatch = create('svg')
        .attr('class', 'swatch')
        .attr('width', 16)
        .attr('height', 16)
        .attr('viewBox', '0 0 16 16')
        .attr('aria-hidden', 'true');
      if (SWATCH_SYMBOLS[item.kind]) {
        swatch
          .append('path')
          .attr('class', item.className)
          .attr('transform', 'translate(8,8)')
          .attr('d', symbol(SWATCH_SYMBOLS[item.kind], 60)());
      } else if (item.kind === 'rule') {
        swatch.append('line').attr('class', item.className).attr('x1', 8).attr('x2', 8).attr('y1', 1).attr('y2', 15);
      } else {
        swatch.append('rect').attr('class', item.className).attr('x', 1).attr('y', 3).attr('width', 14).attr('height', 10);
        if (item.kind === 'hatch') {
          for (const offset of [-6, 0, 6, 12]) {
            swatch
              .append('line')
              .attr('class', `${item.className} hatch-line`)
              .attr('x1', offset + 1)
              .attr('y1', 13)
              .attr('x2', offset + 11)
              .attr('y2', 3);
          }
        }
      }
      return h('li', {}, swatch.node(), item.label);
    }),
  );
}
