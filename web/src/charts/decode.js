// @ts-check
// Prefill beside one decode step at the same shapes: small multiples for work (FLOPs), HBM
// traffic and time on linear axes, and arithmetic intensity on a log axis with the ridge.
// The lesson's point is in the contrast: decode moves about as many bytes as prefill for a
// tiny fraction of the arithmetic. Figures are the trace's totals and decode_comparison.

import { scaleLinear, scaleLog } from 'd3-scale';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, decadeTicks, joinMarks, label, part, rowLabels, sizeSvg, tableData, verticalRule } from './common.js';
import { writeAttrs, writeText } from './writes.js';
import { roofsOf } from './roofline.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').TraceModel} TraceModel */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('d3-scale').ScaleContinuousNumeric<number, number>} Scale */

/**
 * @param {TraceDocument} trace
 * @returns {{label: string, unit: string, format: (v: number) => string, prefill: number, decode: number}[]}
 */
function metrics(trace) {
  const d = trace.decode_comparison;
  return [
    { label: 'Arithmetic', unit: 'FLOP', format: fmt.flops, prefill: trace.totals.flops, decode: d.flops },
    { label: 'HBM traffic', unit: 'B', format: (v) => fmt.si(v, 'B'), prefill: trace.totals.hbm_bytes, decode: d.hbm_bytes },
    { label: 'Time', unit: 's', format: fmt.seconds, prefill: trace.totals.seconds, decode: d.seconds },
  ];
}

/** @param {TraceModel} model */
function key({ trace }) {
  return JSON.stringify([
    trace.decode_comparison,
    trace.totals.flops,
    trace.totals.hbm_bytes,
    trace.totals.seconds,
    trace.roofline,
    trace.scenario.prompt_tokens,
  ]);
}

const BAR_H = 14;

/** The y of the Prefill (j = 0) and Decode (j = 1) bars of the group starting at `top`. */
const barY = (/** @type {number} */ top, /** @type {number} */ j) => top + 20 + j * (BAR_H + 4);

/**
 * One group's title and its Prefill and Decode bars (labels, bars and values) on scale `x`,
 *  * the values printed with `format`.
 * @param {Sel} group
 * @param {Scale} x
 * @param {number} left
 * @param {number} top
 * @param {{title: string, prefill: number, decode: number, format: (value: number) => string}} values
 */
function phaseBars(group, x, left, top, { title, prefill, decode, format }) {
  label(group, 'title', title, { class: 'group-title', x: 0, y: top + 12 });
  /** @type {[string, number, string][]} */
  const phases = [['Prefill', prefill, 'phase-prefill'], ['Decode', decode, 'phase-decode']];
  const rows = phases.map(([name, value, className], j) => ({
    label: name,
    value,
    className,
    y: barY(top, j),
    text: format(value),
  }));
  rowLabels(group, rows, (r) => r.label, left - 6, (r) => r.y + BAR_H - 3, (r) => r.label);
  joinMarks(part(group, 'bars'), 'rect', 'phase', rows, (r) => r.label).call(writeAttrs, {
    class: (r) => `phase ${r.className}`,
    x: left,
    y: (r) => r.y,
    height: BAR_H,
    width: (r) => Math.max(1, x(r.value) - left),
  });
  joinMarks(part(group, 'values'), 'text', 'bar-total', rows, (r) => r.label)
    .call(writeAttrs, { x: (r) => x(r.value) + 5, y: (r) => r.y + BAR_H - 3 })
    .call(writeText, (r) => r.text);
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {TraceModel} model
 */
function draw(svg, width, { trace }) {
  const d = trace.decode_comparison;
  const groupH = 92;
  const m = { top: 6, right: 74, left: 64 };
  const rows = metrics(trace);
  sizeSvg(svg, width, m.top + groupH * (rows.length + 1), 'decode');

  rows.forEach((row, i) => {
    const top = m.top + i * groupH;
    const group = part(svg, `metric-${i}`);
    const x = scaleLinear()
      .domain([0, Math.max(row.prefill, row.decode) || 1])
      .nice()
      .range([m.left, width - m.right]);
    phaseBars(group, x, m.left, top, { title: row.label, prefill: row.prefill, decode: row.decode, format: row.format });
    bottomAxis(group, x, { y: barY(top, 2), width: width - m.left - m.right, format: (v) => row.format(v) });
  });

  // Intensity, log scale, with the ridge point.
  const top = m.top + rows.length * groupH;
  const group = part(svg, 'intensity');
  const ridge = roofsOf(trace).ridge;
  const values = [d.prefill_intensity, d.intensity, ridge ?? 0].filter((v) => v > 0);
  const x = scaleLog()
    .domain([10 ** Math.floor(Math.log10(Math.min(...values) / 2)), 10 ** Math.ceil(Math.log10(Math.max(...values) * 2))])
    .range([m.left, width - m.right]);
  phaseBars(group, x, m.left, top, {
    title: 'Intensity, FLOP/byte (log scale)',
    prefill: d.prefill_intensity,
    decode: d.intensity,
    format: (v) => fmt.number(v, 3),
  });
  verticalRule(group, 'ridge', 'ridge', ridge ? x(ridge) : null, top + 16, barY(top, 2));
  bottomAxis(group, x, { y: barY(top, 2), width: width - m.left - m.right, ticks: decadeTicks(x, Math.floor((width - 140) / 40)) });
}

/**
 * "2,048 tokens", or at batch B "16 × 2,048 tokens": the totals are the whole batch's.
 * @param {{batch: number, prompt_tokens: number}} scenario
 */
export function promptWords({ batch, prompt_tokens: tokens }) {
  const prompt = `${fmt.count(tokens)} tokens`;
  return batch > 1 ? `${fmt.count(batch)} × ${prompt}` : prompt;
}

/** @param {TraceModel} model */
function describe({ trace }) {
  const d = trace.decode_comparison;
  return (
    `Prefill of ${promptWords(trace.scenario)}: ${fmt.flops(trace.totals.flops)}, ` +
    `${fmt.bytes(trace.totals.hbm_bytes)} of HBM traffic, ${fmt.seconds(trace.totals.seconds)}, ` +
    `${fmt.intensity(d.prefill_intensity)} (${fmt.bound(d.prefill_bound)}). One decode step${trace.scenario.batch > 1 ? ` of the ${fmt.count(trace.scenario.batch)} requests` : ''} after ` +
    `${fmt.count(d.context_tokens)} tokens: ${fmt.flops(d.flops)}, ${fmt.bytes(d.hbm_bytes)}, ` +
    `${fmt.seconds(d.seconds)}, ${fmt.intensity(d.intensity)} (${fmt.bound(d.bound)}).`
  );
}

/** @param {TraceModel} model */
function table({ trace }) {
  const d = trace.decode_comparison;
  return tableData(
    'Prefill and one decode step',
    ['Quantity', 'Prefill', 'One decode step'],
    [
      ['Arithmetic', fmt.flops(trace.totals.flops), fmt.flops(d.flops)],
      ['HBM traffic', fmt.bytes(trace.totals.hbm_bytes), fmt.bytes(d.hbm_bytes)],
      ['Time', fmt.seconds(trace.totals.seconds), fmt.seconds(d.seconds)],
      ['Arithmetic intensity', fmt.intensity(d.prefill_intensity), fmt.intensity(d.intensity)],
      ['Q/K/V projection intensity', fmt.intensity(d.prefill_projection_intensity), fmt.intensity(d.projection_intensity)],
      ['Bound (most time)', fmt.bound(d.prefill_bound), fmt.bound(d.bound)],
    ],
  );
}

export function decodeChart() {
  return chartPanel('chart-decode', 'Prefill beside one decode step', { draw, describe, table, key }, [
    { kind: 'bar', className: 'phase phase-prefill', label: 'Prefill (whole prompt)' },
    { kind: 'bar', className: 'phase phase-decode', label: 'One decode step (one token per request)' },
    { kind: 'rule', className: 'ridge', label: 'Ridge point' },
  ]);
}
