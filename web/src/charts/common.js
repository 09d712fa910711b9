// @ts-check
// Shared pieces of the explorer's charts: the figure frame (title, SVG, caption, and a data
// table for screen readers), in-place updates of the SVG (parts, joins, axes), and log-axis
// ticks.
// Charts are SVG drawn with d3 (scales, axes, shapes); colours come from CSS classes so the
// light and dark schemes apply, and nothing here sets an inline style (the CSP forbids them).

import { axisBottom, axisLeft } from 'd3-axis';
import { create, select } from 'd3-selection';
import { symbol, symbolCircle, symbolDiamond, symbolSquare, symbolTriangle } from 'd3-shape';
import { h, setAttr, setText } from '../dom.js';
import { tick } from '../format.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./writes.js').Sel} Sel */
/** A scale an axis is drawn from (linear or log). @typedef {import('d3-axis').AxisScale<number> & {ticks?(count?: number): number[]}} AxisScale */
/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** One operator of a trace. @typedef {TraceDocument['operators'][number]} TraceOperator */
/** The model of a chart drawn from the trace alone. @typedef {{trace: TraceDocument}} TraceModel */
/** A screen reader's data table: `{caption, columns, rows}` (rows of cell text). @typedef {{caption: string, columns: string[], rows: string[][]}} TableData */
/**
 * What a chart module gives ChartPanel for its model type M.
 * @template M
 * @typedef {object} ChartDrawing
 * @property {(svg: Sel, width: number, model: M) => void} draw  updates the <svg> (size, marks) in place for `model` at `width`
 * @property {(model: M) => TableData} table
 * @property {(model: M) => string} describe  one-sentence summary (caption, aria-label)
 * @property {((model: M) => string) | null} [key]  what the drawing depends on
 */
/** A chart key's entry (legend()). @typedef {{kind: 'circle'|'square'|'triangle'|'diamond'|'bar'|'hatch'|'rule', className: string, label: string}} LegendItem */

let uid = 0;

/**
 * A document-unique id for SVG <pattern>/<clipPath> references.
 * @param {string} prefix
 */
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
 * an update does nothing at all. The data table is not drawn by `update`: `updateData` writes
 * it (the explorer calls it when the page is idle; it is never on screen).
 * @template M  the chart's model (what its module builds from a trace)
 */
export class ChartPanel {
  /**
   * @param {ChartDrawing<M> & {id: string, title: string, extra?: HTMLElement[], legend?: HTMLElement | null}} options
   *        id: element id (unique inside the lesson); title: heading; extra: controls shown
   *        under the heading; legend: key shown under the drawing
   */
  constructor({ id, title, draw, table, describe, key = null, extra = [], legend = null }) {
    this.draw = draw;
    this.table = table;
    this.describe = describe;
    this.key = key;
    /** @type {M | null} */
    this.model = null;
    this.width = 0;
    /** @type {string | null} */
    this.lastKey = null;
    this.dataStale = false;
    /** @type {Sel} */
    this.svg = create('svg').call(writeAttrs, { role: 'img' });
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
  /**
   * @param {M} model
   * @param {number} [width]
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
    this.dataStale = true;
    return true;
  }

  /** Brings the data table up to date with the last drawing (nothing to do when it is). */
  updateData() {
    if (!this.dataStale || !this.model) return;
    this.dataStale = false;
    renderTable(this.data, this.table(this.model));
  }

  /** Redraws after a resize; returns false when the width did not change. */
  resize(width = this.measure()) {
    const w = drawWidth(width);
    if (!this.model || w === this.width) return false;
    this.#render(w, this.describe(this.model));
    return true;
  }

  /**
   * @param {number} width
   * @param {string} summary
   */
  #render(width, summary) {
    this.width = width;
    this.draw(this.svg, width, /** @type {M} */ (this.model));
    const svg = this.svg.node();
    setAttr(svg, 'aria-label', summary);
  }

  /**
   * Shows `message` instead of the drawing (the rest of the explorer still updates).
   * @param {string} message
   */
  showError(message) {
    this.model = null;
    this.lastKey = null;
    this.dataStale = false;
    this.element.setAttribute('data-error', '');
    this.canvas.replaceChildren(h('p', { class: 'inline-error' }, message));
    this.caption.replaceChildren();
    this.data.replaceChildren();
  }
}

/** @param {number} width */
function drawWidth(width) {
  return Math.max(240, Math.floor(width || 320));
}

/**
 * Sizes the chart's <svg> (and its class) for this drawing.
 * @param {Sel} svg
 * @param {number} width
 * @param {number} height
 * @param {string} className
 */
export function sizeSvg(svg, width, height, className) {
  const node = svg.node();
  setAttr(node, 'class', `chart-svg ${className}`);
  setAttr(node, 'width', width);
  setAttr(node, 'height', height);
  setAttr(node, 'viewBox', `0 0 ${width} ${height}`);
  return svg;
}

/**
 * The parts (part()) of each parent element, by name.
 * @type {WeakMap<Element, Map<string, Element>>}
 */
const partsOf = new WeakMap();

/**
 * The child of `parent` that holds one part of a drawing (`name`), made on first use. Parts
 * keep the order in which a drawing first asks for them, so a draw function that asks for all
 * of its parts every time (even empty ones) keeps a stable stacking order.
 * @param {Sel} parent
 * @param {string} name
 * @returns {Sel}
 */
export function part(parent, name, tag = 'g') {
  // Found through a map kept per parent: a redraw asks for dozens of parts, and matching a
  // selector against the parent's children for each was a visible share of a redraw's profile.
  const node = parent.node();
  let parts = partsOf.get(node);
  if (!parts) partsOf.set(node, (parts = new Map()));
  const known = parts.get(name);
  if (known && known.parentNode === node) return select(known);
  /** @type {Sel} */
  let made = parent.selectChild(`[data-part="${name}"]`);
  if (made.empty()) made = parent.append(tag).call(writeAttrs, { 'data-part': name });
  parts.set(name, made.node());
  return made;
}

/**
 * Joins `items` to `tag.className` elements under `parent` (keyed by `key` when given) and
 * returns the merged selection; each new element gets a <title> child when `withTitle`.
 * @param {Sel} parent
 * @param {string} tag
 * @param {string} className
 * @param {readonly unknown[]} items
 * @param {((d: any) => string | number) | null} [key]  d: one of `items` (each chart's own record)
 * @returns {Sel}
 */
export function joinMarks(parent, tag, className, items, key, withTitle = false) {
  return parent
    .selectAll(`${tag}.${className.split(' ')[0]}`)
        .data(items, key ?? undefined)
    .join((/** @type {Sel} */ enter) => {
      const made = enter.append(tag).call(writeAttrs, { class: className });
      if (withTitle) made.append('title');
      return made;
    });
}

/**
 * A chart made by a chart module: its drawing (`draw`, `describe`, `table` and, when it has
 * one, `key`, as ChartPanel takes them) with the key `legendItems` (legend()) under it.
 * @template M
 * @param {string} id
 * @param {string} title
 * @param {ChartDrawing<M>} drawing
 * @param {LegendItem[]} legendItems
 * @param {HTMLElement[]} [extra]
 * @returns {ChartPanel<M>}
 */
export function chartPanel(id, title, { draw, describe, table, key = null }, legendItems, extra = []) {
  return new ChartPanel({ id, title, draw, describe, table, key, extra, legend: legend(legendItems) });
}

/**
 * A vertical rule across y1…y2 at x in the part `name` (a <line> of class `className`), hidden
 * when x is null.
 * @param {Sel} parent
 * @param {string} name
 * @param {string} className
 * @param {number | null} x
 * @param {number} y1
 * @param {number} y2
 */
export function verticalRule(parent, name, className, x, y1, y2) {
  return part(parent, name, 'line').call(writeAttrs, {
    class: className,
    display: x === null ? 'none' : null,
    x1: x ?? 0,
    x2: x ?? 0,
    y1,
    y2,
  });
}

/**
 * The labels at the left of a bar chart's rows (the part 'row-labels'), right-aligned at x;
 * `y` and `text` as writeAttrs and writeText take them, per row.
 * @param {Sel} parent
 * @param {readonly unknown[]} rows
 * @param {(d: any) => string | number} key  d: one of `rows`
 * @param {import('./writes.js').Written} x
 * @param {import('./writes.js').Written} y
 * @param {import('./writes.js').Written} text
 */
export function rowLabels(parent, rows, key, x, y, text) {
  return joinMarks(part(parent, 'row-labels'), 'text', 'row-label', rows, key)
    .call(writeAttrs, { x, y, 'text-anchor': 'end' })
    .call(writeText, text);
}

/**
 * Shows `text` at (x, y) in the part `name`, or hides the part when text is null; undefined
 * shows the part and leaves its content to the caller (lines as <tspan>s).
 * @param {Sel} parent
 * @param {string} name
 * @param {import('./writes.js').Written | null | undefined} text
 * @param {Record<string, import('./writes.js').Written>} [attrs]
 */
export function label(parent, name, text, attrs = {}) {
  const node = part(parent, name, 'text');
  node.call(writeAttrs, { display: text === null ? 'none' : null });
  if (text === null) return node;
  node.call(writeAttrs, attrs);
  return text === undefined ? node : node.call(writeText, text);
}

/**
 * The in-bar labels of a stacked bar (memory ledger, TTFT): one set of constants for every
 * such bar. A label is shown only where its segment is wide enough: LABEL_CHAR_PX is the
 * width of one character of `.segment-label` (11 px semibold sans-serif, the average of the
 * labels' letters, rounded up), plus the inset on both sides.
 */
const LABEL_CHAR_PX = 6.5;
const LABEL_INSET_PX = 5;

/**
 * Labels `segments` ({key, label, x0, w}) inside the bar at barY…barY + barH.
 * @param {Sel} svg
 * @param {{key: string, label: string, x0: number, w: number}[]} segments
 * @param {number} barY
 * @param {number} barH
 */
export function segmentLabels(svg, segments, barY, barH) {
  return joinMarks(
    part(svg, 'labels'),
    'text',
    'segment-label',
    segments.filter((d) => d.w > d.label.length * LABEL_CHAR_PX + 2 * LABEL_INSET_PX),
    (d) => d.key,
  )
    .call(writeAttrs, { x: (d) => d.x0 + LABEL_INSET_PX, y: barY + barH / 2 + 4 })
    .call(writeText, (d) => d.label);
}

/**
 * A data table for screen readers as data: `{caption, columns, rows}`.
 * @param {string} caption
 * @param {string[]} columns
 * @param {string[][]} rows
 * @returns {TableData}
 */
export function tableData(caption, columns, rows) {
  return { caption, columns, rows };
}

/**
 * Renders `{caption, columns, rows}` into `container`, reusing the table in place when its
 * columns are unchanged: only the cells whose text changed are touched, and rows are added or
 * removed at the end when their number changes.
 * @param {HTMLElement} container
 * @param {TableData} data
 */
export function renderTable(container, { caption, columns, rows }) {
    const table = /** @type {HTMLTableElement | null} */ (container.firstElementChild);
  const columnsKey = columns.join('\u001f');
  if (!table || container.dataset.columns !== columnsKey) {
    container.dataset.columns = columnsKey;
    container.replaceChildren(dataTable(caption, columns, rows));
    return;
  }
  setText(/** @type {HTMLTableCaptionElement} */ (table.caption), caption);
  const body = table.tBodies[0];
  while (body.rows.length > rows.length) body.rows[body.rows.length - 1].remove();
  rows.forEach((row, r) => {
    if (r >= body.rows.length) {
      body.append(tableRow(row));
      return;
    }
    const cells = body.rows[r].cells;
    row.forEach((cell, c) => setText(cells[c], cell));
  });
}

/** A data table's row: the first cell heads the row. */
/** @param {string[]} row */
function tableRow(row) {
  return h('tr', {}, row.map((cell, i) => (i === 0 ? h('th', { scope: 'row' }, cell) : h('td', {}, cell))));
}

/**
 * Powers of ten inside a log scale's domain (at most `max`, thinned evenly).
 * @param {{domain(): number[]}} scale  a log scale
 */
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
 * range and tick labels (d3's axis rewrites every tick's attributes and text on every call, with
 * d3's own attr and text: writes.js does not reach inside it).
 * @param {Sel} svg
 * @param {string} name
 * @param {string} className
 * @param {string} transform
 * @param {import('d3-axis').Axis<number>} axis
 * @param {AxisScale} scale
 * @param {number[] | undefined} tickValues
 */
function drawAxis(svg, name, className, transform, axis, scale, tickValues) {
  const g = part(svg, name).call(writeAttrs, { class: className, transform });
  const values = tickValues ?? (scale.ticks ? scale.ticks(...axis.tickArguments()) : scale.domain());
  // Every axis here is given a format (bottomAxis, leftAxis).
  const format = /** @type {(value: number) => string} */ (axis.tickFormat());
  const key = JSON.stringify([scale.range(), values.map((v) => [scale(v), format(v)])]);
  /** @type {Element & {__axisKey?: string}} */
  const node = g.node();
  if (node.__axisKey === key) return;
  node.__axisKey = key;
  // d3's axis keys its ticks by their position, so on a new domain every tick would leave and
  // a new one (a group, a line and a text) would be made. Binding the new values to the ticks
  // already there, in order, first makes the axis move and relabel them instead; only a change
  // in the number of ticks adds or removes any.
  g.selectAll('.tick').data(values);
  g.call(axis);
}

/**
 * Draws (or updates) a bottom axis at y in part `name`, with `title` under it.
 * @param {Sel} svg
 * @param {AxisScale} scale
 * @param {{y: number, title?: string | null, ticks?: number[], format?: (value: number) => string, width: number, name?: string}} options
 */
export function bottomAxis(svg, scale, { y, title, ticks, format = tick, width, name = 'x-axis' }) {
  const axis = axisBottom(scale).tickFormat(format).tickSizeOuter(0);
  if (ticks) axis.tickValues(ticks);
  else axis.ticks(Math.max(2, Math.floor(width / 80)));
  drawAxis(svg, name, 'axis axis--x', `translate(0,${y})`, axis, scale, ticks);
  const [a, b] = scale.range();
  const lines = titleLines(title, b - a);
  const node = label(svg, `${name}-title`, title ? undefined : null, {
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
    .call(writeAttrs, { x: (a + b) / 2, dy: (_, i) => (i === 0 ? null : '1.2em') })
    .call(writeText, (line) => line);
}

/**
 * An axis title as one line, or two when it would be wider than `room` pixels: an estimate
 * from its length (0.58 em per character, a little wider than bold DejaVu Sans's 0.55 measured
 * on these titles, so the estimate errs towards wrapping), split before its parenthesis (the
 * unit), else at the space nearest the middle.
 * @param {string | null | undefined} title
 * @param {number} room
 * @returns {string[]}
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

/**
 * Draws (or updates) a left axis at x in part `name`, with a rotated `title` beside it.
 * @param {Sel} svg
 * @param {AxisScale} scale
 * @param {{x: number, title?: string | null, ticks?: number[], format?: (value: number) => string, height: number, titleOffset?: number, name?: string}} options
 */
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

/**
 * A diagonal-hatch <pattern> for "overhead" and "unbounded" areas (made once); returns its url().
 * @param {Sel} svg
 * @param {string} className
 */
export function hatchPattern(svg, className) {
  const defs = part(svg, 'defs', 'defs');
  /** @type {Sel} */
  let pattern = defs.selectChild(`[data-hatch="${className}"]`);
  if (pattern.empty()) {
    pattern = defs
      .append('pattern')
      .call(writeAttrs, {
        'data-hatch': className,
        id: uniqueId('hatch'),
        width: 6,
        height: 6,
        patternUnits: 'userSpaceOnUse',
        patternTransform: 'rotate(45)',
      });
    pattern.append('rect').call(writeAttrs, { class: `${className} hatch-bg`, width: 6, height: 6 });
    pattern.append('line').call(writeAttrs, { class: `${className} hatch-line`, x1: 0, y1: 0, x2: 0, y2: 6 });
  }
  return `url(#${pattern.attr('id')})`;
}

/**
 * A data table: `columns` are header strings, `rows` arrays of cell text.
 * @param {string} caption
 * @param {string[]} columns
 * @param {string[][]} rows
 */
export function dataTable(caption, columns, rows) {
  return h(
    'table',
    {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.map(tableRow)),
  );
}

/**
 * Operator names as the charts print them: "qkv_projection" → "qkv projection".
 * @param {unknown} name
 */
export function operatorLabel(name) {
  return String(name).replaceAll('_', ' ');
}

/**
 * Moves label y positions apart so no two are closer than `gap` (sorted top to bottom).
 * @template {{y: number}} L
 * @param {L[]} labels
 * @param {number} gap
 * @param {number} top
 * @param {number} bottom
 */
export function spreadLabels(labels, gap, top, bottom) {
  const sorted = [...labels].sort((a, b) => a.y - b.y);
  for (let i = 1; i < sorted.length; i += 1) {
    if (sorted[i].y - sorted[i - 1].y < gap) sorted[i].y = sorted[i - 1].y + gap;
  }
  const overflow = sorted.length ? sorted[sorted.length - 1].y - bottom : 0;
  if (overflow > 0) for (const label of sorted) label.y = Math.max(top, label.y - overflow);
  return sorted;
}

/** @type {Partial<Record<LegendItem['kind'], import('d3-shape').SymbolType>>} */
const SWATCH_SYMBOLS = { circle: symbolCircle, square: symbolSquare, triangle: symbolTriangle, diamond: symbolDiamond };

/**
 * A chart key: `items` are `{kind: 'circle'|'square'|'triangle'|'diamond'|'bar'|'hatch'|'rule', className,
 * label}`. Swatches are small SVGs styled by the same classes as the chart's marks.
 * @param {LegendItem[]} items
 */
export function legend(items) {
  return h(
    'ul',
    { class: 'legend' },
    items.map((item) => {
      const swatch = create('svg')
        .call(writeAttrs, {
          class: 'swatch',
          width: 16,
          height: 16,
          viewBox: '0 0 16 16',
          'aria-hidden': 'true',
        });
      const shape = SWATCH_SYMBOLS[item.kind];
      if (shape) {
        swatch
          .append('path')
          .call(writeAttrs, {
            class: item.className,
            transform: 'translate(8,8)',
                        d: symbol(shape, 60)(),
          });
      } else if (item.kind === 'rule') {
        swatch.append('line').call(writeAttrs, { class: item.className, x1: 8, x2: 8, y1: 1, y2: 15 });
      } else {
        swatch.append('rect').call(writeAttrs, { class: item.className, x: 1, y: 3, width: 14, height: 10 });
        if (item.kind === 'hatch') {
          for (const offset of [-6, 0, 6, 12]) {
            swatch
              .append('line')
              .call(writeAttrs, {
                class: `${item.className} hatch-line`,
                x1: offset + 1,
                y1: 13,
                x2: offset + 11,
                y2: 3,
              });
          }
        }
      }
      return h('li', {}, swatch.node(), item.label);
    }),
  );
}
