// @ts-check
// The lesson's engineering example made live: one weight tile (the q-projection, d × h_q·d_h)
// shared by 128 token rows versus used by 1 row. The engine's reuse_example gives, for each,
// the weight bytes each row pays for and the arithmetic intensity; the ridge shows how far
// either is from being compute-bound on the chosen accelerator.

import { scaleLog } from 'd3-scale';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, decadeTicks, joinMarks, label, part, rowLabels, sizeSvg, tableData, verticalRule } from './common.js';
import { writeAttrs, writeText } from './writes.js';
import { roofsOf } from './roofline.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').TraceModel} TraceModel */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('prefill-trace').Step2Facts['reuse_example'][number]} ReuseRow */
/**
 * One group of bars: what it shows of a row, how, on which log domain, and the ridge when its
 * values are intensities.
 * @typedef {{title: string, value: (r: ReuseRow) => number, format: (v: number) => string, domain: number[], ridge?: number}} GroupSpec
 */

/** @param {TraceDocument} trace */
function rowsOf(trace) {
  return [...(trace.steps[1]?.facts?.reuse_example ?? [])].sort((a, b) => b.rows - a.rows);
}

/** @param {TraceDocument} trace */
function ridgeOf(trace) {
  return roofsOf(trace).ridge ?? trace.steps[1].facts.ridge_flops_per_byte;
}

/** @param {number[]} values */
function logDomain(values) {
  const positive = values.filter((v) => v > 0);
  return [
    10 ** Math.floor(Math.log10(Math.min(...positive) / 2)),
    10 ** Math.ceil(Math.log10(Math.max(...positive) * 2)),
  ];
}

/** @param {TraceModel} model */
function key({ trace }) {
  return JSON.stringify([rowsOf(trace), ridgeOf(trace)]);
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {TraceModel} model
 */
function draw(svg, width, { trace }) {
  const rows = rowsOf(trace);
  const ridge = ridgeOf(trace);
  const m = { top: 6, right: 64, left: 64 };
  const barH = 16;
  const groupH = 50 + rows.length * (barH + 6);
  const height = m.top + 2 * groupH;
  sizeSvg(svg, width, height, 'reuse');
  /** @type {GroupSpec[]} */
  const groups = [
    {
      title: 'Weight bytes per token row (log scale)',
      value: (r) => r.weight_bytes_per_row,
      format: (v) => fmt.si(v, 'B'),
      domain: logDomain(rows.map((r) => r.weight_bytes_per_row)),
    },
    {
      title: `Intensity, FLOP/byte (log) · ridge ${fmt.number(ridge, 3)}`,
      value: (r) => r.intensity,
      format: (v) => fmt.number(v, 3),
      domain: logDomain([...rows.map((r) => r.intensity), ridge]),
      ridge,
    },
  ];
  groups.forEach((spec, i) => drawGroup(part(svg, `group-${i}`), spec, rows, { top: m.top + i * groupH, barH, m, width }));
}

/**
 * One group: its title, a bar per row (labels, bars, values), the ridge when it has one, the axis.
 * @param {Sel} group
 * @param {GroupSpec} spec
 * @param {ReuseRow[]} rows
 * @param {{top: number, barH: number, m: {left: number, right: number}, width: number}} place
 */
function drawGroup(group, spec, rows, { top, barH, m, width }) {
  const x = scaleLog().domain(spec.domain).range([m.left, width - m.right]);
  label(group, 'title', spec.title, { class: 'group-title', x: 0, y: top + 12 });
  const marks = rows.map((row, j) => ({ row, y: top + 20 + j * (barH + 6), value: spec.value(row) }));
  const rowsText = (/** @type {{row: ReuseRow}} */ d) => (d.row.rows === 1 ? '1 row' : `${fmt.count(d.row.rows)} rows`);
  rowLabels(group, marks, (d) => d.row.rows, m.left - 6, (d) => d.y + barH - 3, rowsText);
  joinMarks(part(group, 'bars'), 'rect', 'reuse-bar', marks, (d) => d.row.rows).call(writeAttrs, {
    class: (d) => `reuse-bar rows-${d.row.rows === 1 ? 'one' : 'many'} bound-${d.row.bound}`,
    x: m.left,
    y: (d) => d.y,
    height: barH,
    width: (d) => Math.max(1, x(d.value) - m.left),
  });
  joinMarks(part(group, 'values'), 'text', 'bar-total', marks, (d) => d.row.rows)
    .call(writeAttrs, { x: (d) => x(d.value) + 5, y: (d) => d.y + barH - 3 })
    .call(writeText, (d) => spec.format(d.value));
  const axisY = top + 20 + rows.length * (barH + 6);
  verticalRule(group, 'ridge', 'ridge', spec.ridge ? x(spec.ridge) : null, top + 16, axisY);
  bottomAxis(group, x, {
        y: axisY,
    width: width - m.left - m.right,
    ticks: decadeTicks(x, Math.floor((width - 170) / 40)),
    format: spec.ridge ? undefined : (v) => fmt.si(v, 'B'),
  });
}

/** @param {TraceModel} model */
function describe({ trace }) {
  const rows = rowsOf(trace);
  const ridge = ridgeOf(trace);
  return (
    rows
      .map(
        (r) =>
          `${fmt.count(r.rows)} ${r.rows === 1 ? 'row' : 'rows'}: ${fmt.bytes(r.weight_bytes_per_row)} of weights ` +
          `per row, ${fmt.intensity(r.intensity)}, ${fmt.bound(r.bound)}`,
      )
      .join('; ') + `. Ridge point ${fmt.intensity(ridge)}.`
  );
}

/** @param {TraceModel} model */
function table({ trace }) {
  return tableData(
    'One weight tile shared by token rows',
    ['Token rows', 'Weight bytes per row', 'Intensity', 'Bound'],
    rowsOf(trace).map((r) => [
      fmt.count(r.rows),
      fmt.bytes(r.weight_bytes_per_row),
      fmt.intensity(r.intensity),
      fmt.bound(r.bound),
    ]),
  );
}

export function reuseChart() {
  return chartPanel('chart-reuse', 'Engineering example, live: 128 rows vs 1 row on one weight tile', { draw, describe, table, key }, [
    { kind: 'bar', className: 'reuse-bar rows-many', label: '128 token rows share the tile' },
    { kind: 'bar', className: 'reuse-bar rows-one', label: 'One token row' },
    { kind: 'rule', className: 'ridge', label: 'Ridge point' },
  ]);
}
