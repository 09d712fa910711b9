// @ts-check
// Where each operator's memory traffic goes: its HBM bytes (every run: × count) split into
// weights, activations, K/V cache and materialized scores, stacked (the engine's
// `hbm_bytes{weights, activations, kv, scores}` per operator). Short prompts are weight
// traffic; long prompts move activations; materialized attention is all scores.

import { scaleLinear } from 'd3-scale';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, joinMarks, operatorLabel, part, sizeSvg, tableData } from './common.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').TraceModel} TraceModel */
/** @typedef {'weights' | 'activations' | 'kv' | 'scores'} BytePart */

/**
 * @type {readonly {key: BytePart, label: string, words: string}[]}
 */
export const BYTE_PARTS = Object.freeze([
  { key: 'weights', label: 'Weights', words: 'weights' },
  { key: 'activations', label: 'Activations', words: 'activations' },
  { key: 'kv', label: 'K/V cache', words: 'K/V cache' },
  { key: 'scores', label: 'Scores (materialized)', words: 'materialized scores' },
]);

/** @param {TraceDocument} trace */
function rowsOf(trace) {
  return trace.operators
    .filter((op) => op.hbm_bytes.total > 0)
    .map((op) => ({ op, parts: BYTE_PARTS.map((p) => ({ ...p, bytes: op.count * op.hbm_bytes[p.key] })), total: op.count * op.hbm_bytes.total }));
}

/** @param {TraceModel} model */
function key({ trace }) {
  return JSON.stringify(trace.operators.map((op) => [op.name, op.count, op.hbm_bytes]));
}

/**
 * @param {import('./common.js').Sel} svg
 * @param {number} width
 * @param {TraceModel} model
 */
function draw(svg, width, { trace }) {
  const rows = rowsOf(trace);
  const barH = 16;
  const gap = 6;
  const m = { top: 8, right: 16, bottom: 50, left: width < 480 ? 118 : 140 };
  const height = m.top + rows.length * (barH + gap) + m.bottom;
  sizeSvg(svg, width, height, 'bytes');
  const most = Math.max(...rows.map((r) => r.total), 1);
  const x = scaleLinear().domain([0, most]).nice().range([m.left, width - m.right]);
  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    format: (v) => fmt.si(v, 'B'),
    title: 'HBM bytes per prefill (all layers)',
  });
  const placed = rows.map((r, i) => ({ ...r, y: m.top + i * (barH + gap) }));
  joinMarks(part(svg, 'labels'), 'text', 'row-label', placed, (r) => r.op.name)
    .call(writeAttrs, { x: m.left - 6, y: (r) => r.y + barH - 3, 'text-anchor': 'end' })
    .call(writeText, (r) => operatorLabel(r.op.name));
  const segments = placed.flatMap((r) => {
    let start = 0;
    return r.parts.map((p) => {
      const x0 = x(start);
      start += p.bytes;
      return { id: `${r.op.name}:${p.key}`, key: p.key, label: p.label, bytes: p.bytes, op: r.op.name, x0, w: Math.max(0, x(start) - x0), y: r.y };
    });
  });
  joinMarks(part(svg, 'segments'), 'rect', 'byte-part', segments, (s) => s.id, true)
    .call(writeAttrs, {
      class: (s) => `byte-part byte-${s.key}`,
      x: (s) => s.x0,
      y: (s) => s.y,
      width: (s) => s.w,
      height: barH,
    })
    .select('title')
    .call(writeText, (s) => `${operatorLabel(s.op)}: ${s.label} ${fmt.bytes(s.bytes)}`);
}

/** @param {TraceModel} model */
function describe({ trace }) {
  const sums = BYTE_PARTS.map((p) => ({ ...p, bytes: trace.operators.reduce((sum, op) => sum + op.count * op.hbm_bytes[p.key], 0) }));
  const total = trace.totals.hbm_bytes;
  return (
    `HBM traffic of each operator, split by what it moves: of ${fmt.bytes(total)} in all, ` +
    sums.filter((s) => s.bytes > 0).map((s) => `${s.words} ${fmt.percent(s.bytes / total)}`).join(', ') +
    '.'
  );
}

/** @param {TraceModel} model */
function table({ trace }) {
  return tableData(
    'HBM bytes per operator (all runs), by kind',
    ['Operator', ...BYTE_PARTS.map((p) => p.label), 'Total'],
    rowsOf(trace).map((r) => [operatorLabel(r.op.name), ...r.parts.map((p) => fmt.si(p.bytes, 'B')), fmt.si(r.total, 'B')]),
  );
}

export function bytesChart() {
  /** @type {import('./common.js').LegendItem[]} */
  const legendItems = BYTE_PARTS.map((p) => ({ kind: 'bar', className: `byte-part byte-${p.key}`, label: p.label }));
  return chartPanel('chart-bytes', 'Memory traffic by operator: weights, activations, K/V', { draw, describe, table, key }, legendItems);
}
