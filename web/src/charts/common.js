// Shared pieces of the explorer's charts: the figure frame (title, SVG, caption, and a data
// table for screen readers), in-place updates of the SVG (parts, joins, axes), and log-axis
// ticks.
// Charts are SVG drawn with d3 (scales, axes, shapes); colours come from CSS classes so the
// light and dark schemes apply, and nothing here sets an inline style (the CSP forbids them).

import { axisBottom, axisLeft } from 'd3-axis';
import { create, namespace, selection } from 'd3-selection';
import { symbol, symbolCircle, symbolDiamond, symbolSquare, symbolTriangle } from 'd3-shape';
import { h, setAttr, setText } from '../dom.js';
import { tick } from '../format.js';

// Charts are updated in place, and on a new scenario most of an SVG's attributes and texts keep
// their values (axis ticks, labels, sizes). d3 writes every value it is given, and Blink treats
// any write to an SVG attribute or text as a change to lay out again. These two methods of d3's
// selections (this bundle's own copy) skip a write whose value is already there; everything
// else about them is d3's.
const d3Attr = selection.prototype.attr;
const d3Text = selection.prototype.text;

selection.prototype.attr = function attr(name, value) {
  if (arguments.length < 2 || typeof namespace(name) !== 'string') return d3Attr.apply(this, arguments);
  return this.each(function write(d, i, group) {
    const v = typeof value === 'function' ? value.call(this, d, i, group) : value;
    if (v === null || v === undefined) {
      if (this.hasAttribute(name)) this.removeAttribute(name);
    } else {
      setAttr(this, name, v);
    }
  });
};

selection.prototype.text = function text(value) {
  if (arguments.length < 1) return d3Text.call(this);
  return this.each(function write(d, i, group) {
    const v = typeof value === 'function' ? value.call(this, d, i, group) : value;
    setText(this, v === null || v === undefined ? '' : v);
  });
};

let uid = 0;

/** A document-unique id for SVG <pattern>/<clipPath> references. */
export function uniqueId(prefix) {
  uid += 1;
  return `${prefix}-${uid}`;
}


/**
 * One chart: a <figure> with a heading, the drawing, a visible caption and a data table that
 * is visually hidden but read by screen readers (the SVG itself is one labelled image).
 *
 * The <svg> is made once and updated in place: `draw` joins the model's marks to the existing
 * elements (d3's join), so a new scenario moves, adds or removes marks instead of rebuilding
 * the picture. `key` names what the picture depends on: when neither it nor the width changed,
 * an update does nothing at all.
 */
export class ChartPanel {
  /**
   * @param {object} options
   * @param {string} options.id        element id (unique inside the lesson)
   * @param {string} options.title     heading
   * @param {(svg: import('d3-selection').Selection, width: number, model: object) => void} options.draw
   *        updates the <svg> (size, marks) in place for `model` at `width`
   * @param {(model: object) => {caption: string, columns: string[], rows: string[][]}} options.table
   * @param {(model: object) => string} options.describe   one-sentence summary (caption, aria-label)
   * @param {(model: object) => string} [options.key]       what the drawing depends on
   * @param {HTMLElement[]} [options.extra]   controls shown under the heading
   * @param {HTMLElement} [options.legend]    key shown under the drawing
   */
  constructor({ id, title, draw, table, describe, key = null, extra = [], legend = null }) {
    this.draw = draw;
    this.table = table;
    this.describe = describe;
    this.key = key;
    this.model = null;
    this.width = 0;
    this.lastKey = null;
    this.svg = create('svg').attr('role', 'img');
    this.canvas = h('div', { class: 'chart-canvas' }, this.svg.node());
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

  /**
   * Draws `model` at `width` (default: the canvas's current width).
   * @returns {boolean} false when nothing changed (same key and width), so nothing was touched
   */
  update(model, width = this.measure()) {
    const key = this.key ? this.key(model) : null;
    const w = drawWidth(width);
    const unchanged = key !== null && key === this.lastKey && w === this.width && !this.element.hasAttribute('data-error');
    this.model = model;
    if (unchanged) return false;
    this.lastKey = key;
    if (this.element.hasAttribute('data-error')) {
      this.element.removeAttribute('data-error');
      this.canvas.replaceChildren(this.svg.node());
    }
    const summary = this.describe(model);
    this.#render(w, summary);
    setText(this.caption, summary);
    renderTable(this.data, this.table(model));
    return true;
  }

  /** Redraws after a resize; returns false when the width did not change. */
  resize(width = this.measure()) {
    const w = drawWidth(width);
    if (!this.model || w === this.width) return false;
    this.#render(w, this.describe(this.model));
    return true;
  }

  #render(width, summary) {
    this.width = width;
    this.draw(this.svg, width, this.model);
    const svg = this.svg.node();
    setAttr(svg, 'aria-label', summary);
  }

  /** Shows `message` instead of the drawing (the rest of the explorer still updates). */
  showError(message) {
    this.model = null;
    this.lastKey = null;
    this.element.setAttribute('data-error', '');
    this.canvas.replaceChildren(h('p', { class: 'inline-error' }, message));
    this.caption.replaceChildren();
    this.data.replaceChildren();
  }
}

function drawWidth(width) {
  return Math.max(240, Math.floor(width || 320));
}

/** Sizes the chart's <svg> (and its class) for this drawing. */
export function sizeSvg(svg, width, height, className) {
  const node = svg.node();
  setAttr(node, 'class', `chart-svg ${className}`);
  setAttr(node, 'width', width);
  setAttr(node, 'height', height);
  setAttr(node, 'viewBox', `0 0 ${width} ${height}`);
  return svg;
}

/**
 * The child of `parent` that holds one part of a drawing (`name`), made on first use. Parts
 * keep the order in which a drawing first asks for them, so a draw function that asks for all
 * of its parts every time (even empty ones) keeps a stable stacking order.
 */
export function part(parent, name, tag = 'g') {
  let selection = parent.selectChild(`[data-part="${name}"]`);
  if (selection.empty()) selection = parent.append(tag).attr('data-part', name);
  return selection;
}

/**
 * Joins `items` to `tag.className` elements under `parent` (keyed by `key` when given) and
 * returns the merged selection; each new element gets a <title> child when `withTitle`.
 */
export function joinMarks(parent, tag, className, items, key, withTitle = false) {
  return parent
    .selectAll(`${tag}.${className.split(' ')[0]}`)
    .data(items, key)
    .join((enter) => {
      const made = enter.append(tag).attr('class', className);
      if (withTitle) made.append('title');
      return made;
    });
}

/** Shows `text` at (x, y) in the part `name`, or hides the part when text is null. */
export function label(parent, name, text, attrs = {}) {
  const node = part(parent, name, 'text');
  node.attr('display', text === null ? 'none' : null);
  if (text === null) return node;
  for (const [attr, value] of Object.entries(attrs)) node.attr(attr, value);
  return node.text(text);
}

/**
 * The in-bar labels of a stacked bar (memory ledger, TTFT): one set of constants for every
 * such bar. A label is shown only where its segment is wide enough: LABEL_CHAR_PX is the
 * width of one character of `.segment-label` (11 px semibold sans-serif, the average of the
 * labels' letters, rounded up), plus the inset on both sides.
 */
const LABEL_CHAR_PX = 6.5;
const LABEL_INSET_PX = 5;

/** Labels `segments` ({key, label, x0, w}) inside the bar at barY…barY + barH. */
export function segmentLabels(svg, segments, barY, barH) {
  return joinMarks(
    part(svg, 'labels'),
    'text',
    'segment-label',
    segments.filter((d) => d.w > d.label.length * LABEL_CHAR_PX + 2 * LABEL_INSET_PX),
    (d) => d.key,
  )
    .attr('x', (d) => d.x0 + LABEL_INSET_PX)
    .attr('y', barY + barH / 2 + 4)
    .text((d) => d.label);
}

/** A data table for screen readers as data: `{caption, columns, rows}`. */
export function tableData(caption, columns, rows) {
  return { caption, columns, rows };
}

/**
 * Renders `{caption, columns, rows}` into `container`, reusing the table in place when its
 * shape is unchanged (only the cells whose text changed are touched).
 */
export function renderTable(container, { caption, columns, rows }) {
  const table = container.firstElementChild;
  const sameShape =
    table &&
    table.tBodies[0]?.rows.length === rows.length &&
    container.dataset.columns === columns.join('\u001f');
  if (!sameShape) {
    container.dataset.columns = columns.join('\u001f');
    container.replaceChildren(dataTable(caption, columns, rows));
    return;
  }
  setText(table.caption, caption);
  const body = table.tBodies[0];
  rows.forEach((row, r) => {
    const cells = body.rows[r].cells;
    row.forEach((cell, c) => setText(cells[c], cell));
  });
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

/**
 * Calls d3's axis on the part `name` unless it would draw exactly what is there: same position,
 * range and tick labels (d3's axis rewrites every tick on every call).
 */
function drawAxis(svg, name, className, transform, axis, scale, tickValues) {
  const g = part(svg, name).attr('class', className).attr('transform', transform);
  const values = tickValues ?? (scale.ticks ? scale.ticks(...axis.tickArguments()) : scale.domain());
  const format = axis.tickFormat();
  const key = JSON.stringify([scale.range(), values.map((v) => [scale(v), format(v)])]);
  const node = g.node();
  if (node.__axisKey === key) return;
  node.__axisKey = key;
  g.call(axis);
}

/** Draws (or updates) a bottom axis at y in part `name`, with `title` under it. */
export function bottomAxis(svg, scale, { y, title, ticks, format = tick, width, name = 'x-axis' }) {
  const axis = axisBottom(scale).tickFormat(format).tickSizeOuter(0);
  if (ticks) axis.tickValues(ticks);
  else axis.ticks(Math.max(2, Math.floor(width / 80)));
  drawAxis(svg, name, 'axis axis--x', `translate(0,${y})`, axis, scale, ticks);
  const [a, b] = scale.range();
  const lines = titleLines(title, b - a);
  const node = label(svg, `${name}-title`, title ? '' : null, {
    class: 'axis-title',
    x: (a + b) / 2,
    y: lines.length > 1 ? y + 30 : y + 34,
    'text-anchor': 'middle',
  });
  if (!title) return;
  // One tspan per line (a narrow chart's title takes two): the whole title stays inside the
  // chart's own width, whatever the column (style.css sizes axis titles at 12 px).
  node
    .selectAll('tspan')
    .data(lines)
    .join('tspan')
    .attr('x', (a + b) / 2)
    .attr('dy', (_, i) => (i === 0 ? null : '1.2em'))
    .text((line) => line);
}

/**
 * An axis title as one line, or two when it would be wider than `room` pixels: an estimate
 * from its length (0.58 em per character, a little wider than bold DejaVu Sans's 0.55 measured
 * on these titles, so the estimate errs towards wrapping), split before its parenthesis (the
 * unit), else at the space nearest the middle.
 */
function titleLines(title, room) {
  if (!title || title.length * 0.58 * 12 <= room) return title ? [title] : [];
  let at = title.indexOf(' (');
  if (at === -1) {
    const middle = title.length / 2;
    for (let i = title.indexOf(' '); i !== -1; i = title.indexOf(' ', i + 1)) {
      if (at === -1 || Math.abs(i - middle) < Math.abs(at - middle)) at = i;
    }
  }
  return at === -1 ? [title] : [title.slice(0, at), title.slice(at + 1)];
}

/** Draws (or updates) a left axis at x in part `name`, with a rotated `title` beside it. */
export function leftAxis(svg, scale, { x, title, ticks, format = tick, height, titleOffset = 42, name = 'y-axis' }) {
  const axis = axisLeft(scale).tickFormat(format).tickSizeOuter(0);
  if (ticks) axis.tickValues(ticks);
  else axis.ticks(Math.max(2, Math.floor(height / 50)));
  drawAxis(svg, name, 'axis axis--y', `translate(${x},0)`, axis, scale, ticks);
  const [a, b] = scale.range();
  label(svg, `${name}-title`, title ?? null, {
    class: 'axis-title',
    transform: `translate(${x - titleOffset},${(a + b) / 2}) rotate(-90)`,
    'text-anchor': 'middle',
  });
}

/** A diagonal-hatch <pattern> for "overhead" and "unbounded" areas (made once); returns its url(). */
export function hatchPattern(svg, className) {
  const defs = part(svg, 'defs', 'defs');
  let pattern = defs.selectChild(`[data-hatch="${className}"]`);
  if (pattern.empty()) {
    pattern = defs
      .append('pattern')
      .attr('data-hatch', className)
      .attr('id', uniqueId('hatch'))
      .attr('width', 6)
      .attr('height', 6)
      .attr('patternUnits', 'userSpaceOnUse')
      .attr('patternTransform', 'rotate(45)');
    pattern.append('rect').attr('class', `${className} hatch-bg`).attr('width', 6).attr('height', 6);
    pattern.append('line').attr('class', `${className} hatch-line`).attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 6);
  }
  return `url(#${pattern.attr('id')})`;
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

const SWATCH_SYMBOLS = { circle: symbolCircle, square: symbolSquare, triangle: symbolTriangle, diamond: symbolDiamond };

/**
 * A chart key: `items` are `{kind: 'circle'|'square'|'triangle'|'diamond'|'bar'|'hatch'|'rule', className,
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
