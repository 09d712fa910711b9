// @ts-check
// The evidence beside a guided investigation's sentence (investigations/form.js): its key
// figure, small, right under the sentence, so a reader on a phone sees the result without
// scrolling to the explorer's charts. Drawn from the sentence's own figures (the <data> values,
// by name) and, for the queueing claim, the engine's sweep of TTFT against the arrival rate:
// nothing here computes a number of the model.
//
// Two kinds of picture (catalog.js `picture`):
//   pair   the A/B pair (or a value and its reference) on one axis: bars on a linear axis, dots
//          on a log axis (a bar's length means nothing there), a rule for a reference value;
//          `top` holds a linear axis at a value another group shares (fixed axes when compared)
//   curve  TTFT against the arrival rate on linear axes, the readings' points marked on it, the
//          axes given by the caller (held between the two readings)
// Each picture is an <svg role="img"> labelled by the words and numbers it draws (the same
// texts as the sentence's <data> elements). Every mark carries its figure's name and value
// (data-name, data-value: the <data> element's value), which the browser tests compare.

import { scaleLinear, scaleLog } from 'd3-scale';
import { create } from 'd3-selection';
import { line } from 'd3-shape';
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { bottomAxis, hatchPattern, joinMarks, label, leftAxis, part, sizeSvg } from './common.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('d3-scale').ScaleContinuousNumeric<number, number>} Scale */
/**
 * A number of the sentence (investigations/catalog.js figure()): shown as `text`, kept as
 * `value` (null, or not finite, for an unbounded figure: an overloaded TTFT).
 * @typedef {{name: string, value: number | null, text: string}} Figure
 */
/** A pair group's row: the figure `name`, labelled, in scenario A's or B's tone. @typedef {{name: string, label: string, tone?: string}} PairRow */
/**
 * Figures on one axis: a row each, a reference rule (a figure too), and the axis's least top.
 * @typedef {{kind?: 'pair', scale: 'log' | 'linear', unit?: 'seconds' | 'bytes' | 'none', title: string, rows: PairRow[], rule?: {name: string, label: string} | null, top?: number}} PairGroup
 */
/**
 * TTFT against the arrival rate: the engine's sweep as the curve, each reading's rate and TTFT
 * figures (by name) marked.
 * @typedef {{kind: 'curve', title: string, points: import('prefill-trace').SweepPoint[], xTop: number, yTop: number, saturationText: string, marks: {rate: string, ttft: string, label: string, tone: string}[]}} CurveGroup
 */
/** The key figure drawn under an investigation's sentence. @typedef {{groups: (PairGroup | CurveGroup)[]}} Picture */
/** @typedef {Record<string, Figure>} Figures */
/** @typedef {PairRow & {figure: Figure}} PlacedRow */

const ROW = 34;
const MARGIN = { top: 8, right: 18, bottom: 46, left: 10 };
/**
 * Tick labels by a picture group's `unit`: as the page writes such values (format.js).
 * @type {Record<string, (value: number) => string>}
 */
const TICK_FORMATS = { seconds: fmt.seconds, bytes: (v) => fmt.si(v, 'B') };
/** Room above the rows for a reference rule's label. */
const RULE_LABEL = 18;

/** A mark's data attributes: the figure it draws, as the sentence's <data> holds it. */
const dataOf = (/** @type {Figure} */ figure) => ({ 'data-name': figure.name, 'data-value': String(figure.value) });

/**
 * The investigation's picture: a <div> of one <svg> per group of `picture` (catalog.js), drawn
 * `width` px wide from `figures` (name → {name, value, text}, the sentence's <data> elements).
 * @param {Picture} picture
 * @param {Figures} figures
 * @param {number} width
 */
export function inlineFigure(picture, figures, width) {
  const w = Math.max(240, Math.min(640, Math.floor(width)));
  const groups = picture.groups.map((group) =>
    group.kind === 'curve' ? curveGroup(group, figures, w) : pairGroup(group, figures, w),
  );
  return h('div', { class: 'inline-figure' }, groups);
}

/**
 * A figure of the sentence by name, or a clear error (a catalog entry naming a figure it lacks).
 * @param {Figures} figures
 * @param {string} name
 */
function named(figures, name) {
  const figure = figures[name];
  if (!figure) throw new Error(`the sentence has no figure "${name}"`);
  return figure;
}

/**
 * The words a picture stands for: its title and each mark's label and text.
 * @param {string} title
 * @param {{label: string, figure: Figure}[]} items
 */
function altText(title, items) {
  return `${title}: ${items.map(({ label: text, figure }) => `${text} ${figure.text}`).join('; ')}.`;
}

/**
 * @param {PairGroup} group
 * @param {(number | null)[]} values
 * @param {number} w
 * @returns {Scale}
 */
function pairScale(group, values, w) {
  const found = values.filter((v) => v !== null).filter((v) => Number.isFinite(v) && v > 0);
  const finite = found.length ? found : [1];
  const range = [MARGIN.left, w - MARGIN.right];
  if (group.scale === 'log') {
    const lo = 10 ** Math.floor(Math.log10(Math.min(...finite)));
    const hi = 10 ** Math.ceil(Math.log10(Math.max(...finite) * 1.01));
    return scaleLog().domain([lo, hi]).range(range);
  }
  // A group compared with another keeps the axis they share (`top`, the larger group's value).
  return scaleLinear()
    .domain([0, Math.max(...finite, group.top ?? 0) * 1.08])
    .nice()
    .range(range);
}

/**
 * One pair on one axis: a row per figure (its label above its mark), a reference rule.
 * @param {PairGroup} group
 * @param {Figures} figures
 * @param {number} w
 */
function pairGroup(group, figures, w) {
  const rows = group.rows.map((row) => ({ ...row, figure: named(figures, row.name) }));
  const rule = group.rule ? { ...group.rule, figure: named(figures, group.rule.name) } : null;
  const x = pairScale(group, [...rows, ...(rule ? [rule] : [])].map((r) => r.figure.value), w);
  const top = MARGIN.top + (rule ? RULE_LABEL : 0);
  const height = top + rows.length * ROW + MARGIN.bottom;
  const svg = create('svg');
  sizeSvg(svg, w, height, 'inline-pair');
  const bottom = height - MARGIN.bottom;
  const log = group.scale === 'log';
  // Ticks in the unit the sentence writes ("20 ms", "500 GB"), not bare decimals beside it.
  const format = TICK_FORMATS[group.unit ?? 'none'] ?? fmt.tick;
  bottomAxis(svg, x, { y: bottom, width: w - MARGIN.left - MARGIN.right, title: group.title, ticks: log ? decades(x) : undefined, format });
  drawRows(svg, x, rows, { log, top });
  if (rule) drawRule(svg, clampTo(x, /** @type {number} */ (rule.figure.value)), rule, { top: MARGIN.top, bottom, width: w });
  svg.call(writeAttrs, { role: 'img', 'aria-label': altText(group.title, [...rows, ...(rule ? [rule] : [])]) });
  return svg.node();
}

/**
 * x(v), v kept inside the scale's domain.
 * @param {Scale} x
 * @param {number} v
 */
function clampTo(x, v) {
  const [lo, hi] = x.domain();
  return x(Math.min(hi, Math.max(lo, v)));
}

/**
 * Each row's label and mark: a bar from 0 (linear) or a dot (log); a figure with no finite
 * value (an overloaded TTFT) is the hatched "unbounded" band across the axis.
 * @param {Sel} svg
 * @param {Scale} x
 * @param {PlacedRow[]} rows
 * @param {{log: boolean, top: number}} place
 */
function drawRows(svg, x, rows, { log, top }) {
  const y = (/** @type {PlacedRow} */ r) => top + rows.indexOf(r) * ROW + 16;
  joinMarks(part(svg, 'rows'), 'text', 'inline-label', rows)
    .call(writeAttrs, { x: MARGIN.left, y: (r) => y(r) - 4 })
    .call(writeText, (r) => `${r.label}: ${r.figure.text}`);
  /** @type {Record<string, import('./writes.js').Written>} */
  const common = {
    class: (r) => `inline-mark ${r.tone ?? 'inline-b'}`,
    'data-name': (r) => r.figure.name,
    'data-value': (r) => String(r.figure.value),
  };
  const bounded = rows.filter((r) => Number.isFinite(r.figure.value));
  /** @type {Record<string, import('./writes.js').Written>} */
  const shape = log
    ? { cx: (r) => clampTo(x, r.figure.value), cy: (r) => y(r) + 6, r: 6 }
    : { x: x(0), y, width: (r) => Math.max(1, clampTo(x, r.figure.value) - x(0)), height: 12 };
  joinMarks(part(svg, 'marks'), log ? 'circle' : 'rect', 'inline-mark', bounded).call(writeAttrs, { ...common, ...shape });
  const [left, right] = x.range();
  joinMarks(part(svg, 'unbounded'), 'rect', 'unbounded-area', rows.filter((r) => !Number.isFinite(r.figure.value)))
    .call(writeAttrs, { ...common, class: 'unbounded-area', fill: hatchPattern(svg, 'unbounded'), x: left, y, width: right - left, height: 12 });
}

/**
 * A reference value's rule across the rows, labelled above them (on the side with room).
 * @param {Sel} svg
 * @param {number} px
 * @param {{label: string, figure: Figure}} rule
 * @param {{top: number, bottom: number, width: number}} place
 */
function drawRule(svg, px, rule, { top, bottom, width }) {
  part(svg, 'rule', 'line').call(writeAttrs, { class: 'ridge', x1: px, x2: px, y1: top + 4, y2: bottom, ...dataOf(rule.figure) });
  const nearRight = px > width * 0.6;
  label(svg, 'rule-label', `${rule.label} ${rule.figure.text}`, {
    class: 'chart-note',
    x: nearRight ? px - 4 : px + 4,
    y: top + 8,
    'text-anchor': nearRight ? 'end' : 'start',
  });
}

/**
 * Powers of ten in a log scale's domain.
 * @param {Scale} x
 */
function decades(x) {
  const [lo, hi] = x.domain().map(Math.log10);
  return Array.from({ length: Math.round(hi - lo) + 1 }, (_, i) => 10 ** (Math.round(lo) + i));
}

/**
 * TTFT against the arrival rate (linear axes from 0 to `group.xTop` and `group.yTop`), the
 * engine's sweep as the curve, saturation as a rule, and each reading's point (rate and TTFT
 * figures by name) marked and labelled.
 * @param {CurveGroup} group
 * @param {Figures} figures
 * @param {number} w
 */
function curveGroup(group, figures, w) {
  const m = { top: 12, right: 18, bottom: 50, left: 58 };
  const height = w < 400 ? 210 : 240;
  const svg = create('svg');
  sizeSvg(svg, w, height, 'inline-curve');
  const x = scaleLinear().domain([0, group.xTop]).range([m.left, w - m.right]);
  const y = scaleLinear().domain([0, group.yTop]).range([height - m.bottom, m.top]);
  svg.call(writeAttrs, { 'data-x-domain': x.domain().join(','), 'data-y-domain': y.domain().join(',') });
  bottomAxis(svg, x, { y: height - m.bottom, width: w - m.left - m.right, title: 'Arrival rate (requests/s)' });
  leftAxis(svg, y, { x: m.left, height: height - m.top - m.bottom, format: fmt.seconds, title: 'TTFT', titleOffset: 48 });
  const path = /** @type {import('d3-shape').Line<import('prefill-trace').SweepPoint>} */ (line())
    .defined((p) => p.total_seconds !== null && p.total_seconds <= group.yTop)
    .x((p) => x(p.value))
    .y((p) => y(/** @type {number} */ (p.total_seconds)));
  part(svg, 'curve', 'path').call(writeAttrs, { class: 'sweep-line sweep-total', d: path(group.points) });
  part(svg, 'saturation', 'line').call(writeAttrs, { class: 'ridge', x1: x(group.xTop), x2: x(group.xTop), y1: m.top, y2: height - m.bottom });
  label(svg, 'saturation-label', group.saturationText, { class: 'chart-note', x: x(group.xTop) - 4, y: m.top + 10, 'text-anchor': 'end' });
  // A reading whose queue is unbounded (overloaded) has no point on the curve.
  const marks = group.marks
    .filter((mark) => figures[mark.ttft] && Number.isFinite(figures[mark.ttft].value))
    .map((mark) => ({ ...mark, rate: named(figures, mark.rate), ttft: named(figures, mark.ttft) }));
  joinMarks(part(svg, 'marks'), 'circle', 'inline-mark', marks).call(writeAttrs, {
    class: (d) => `inline-mark ${d.tone}`,
    cx: (d) => x(d.rate.value),
    cy: (d) => y(Math.min(group.yTop, d.ttft.value)),
    r: 5.5,
    'data-name': (d) => d.ttft.name,
    'data-value': (d) => String(d.ttft.value),
    'data-x-name': (d) => d.rate.name,
    'data-x-value': (d) => String(d.rate.value),
  });
  joinMarks(part(svg, 'mark-labels'), 'text', 'chart-note', marks)
    .call(writeAttrs, { x: (d) => x(d.rate.value) - 8, y: (d) => y(Math.min(group.yTop, d.ttft.value)) - 9, 'text-anchor': 'end' })
    .call(writeText, (d) => `${d.label}: ${d.ttft.text}`);
  const items = marks.map((d) => ({ label: `${d.label} (${d.rate.text})`, figure: d.ttft }));
  svg.call(writeAttrs, { role: 'img', 'aria-label': `${altText(group.title, items)} ${group.saturationText}.` });
  return svg.node();
}
