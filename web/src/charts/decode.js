// Prefill beside one decode step at the same shapes: small multiples for work (FLOPs), HBM
// traffic and time on linear axes, and arithmetic intensity on a log axis with the ridge.
// The lesson's point is in the contrast: decode moves about as many bytes as prefill for a
// tiny fraction of the arithmetic. Figures are the trace's totals and decode_comparison.

import { scaleLinear, scaleLog } from 'd3-scale';
import * as fmt from '../format.js';
import { ChartPanel, bottomAxis, dataTable, decadeTicks, legend, svgOf } from './common.js';
import { effectiveRoofs } from './roofline.js';

function metrics(trace) {
  const d = trace.decode_comparison;
  return [
    { label: 'Arithmetic', unit: 'FLOP', format: fmt.flops, prefill: trace.totals.flops, decode: d.flops },
    { label: 'HBM traffic', unit: 'B', format: (v) => fmt.si(v, 'B'), prefill: trace.totals.hbm_bytes, decode: d.hbm_bytes },
    { label: 'Time', unit: 's', format: fmt.seconds, prefill: trace.totals.seconds, decode: d.seconds },
  ];
}

function draw(width, { trace }) {
  const d = trace.decode_comparison;
  const groupH = 92;
  const m = { top: 6, right: 74, left: 64 };
  const rows = metrics(trace);
  const height = m.top + groupH * (rows.length + 1);
  const svg = svgOf(width, height, 'decode');
  const barH = 14;

  rows.forEach((row, i) => {
    const top = m.top + i * groupH;
    const x = scaleLinear()
      .domain([0, Math.max(row.prefill, row.decode) || 1])
      .nice()
      .range([m.left, width - m.right]);
    svg.append('text').attr('class', 'group-title').attr('x', 0).attr('y', top + 12).text(row.label);
    [['Prefill', row.prefill, 'phase-prefill'], ['Decode', row.decode, 'phase-decode']].forEach(([label, value, cls], j) => {
      const y = top + 20 + j * (barH + 4);
      svg.append('text').attr('class', 'row-label').attr('x', m.left - 6).attr('y', y + barH - 3).attr('text-anchor', 'end').text(label);
      svg.append('rect').attr('class', `phase ${cls}`).attr('x', m.left).attr('y', y).attr('height', barH).attr('width', Math.max(1, x(value) - m.left));
      svg.append('text').attr('class', 'bar-total').attr('x', x(value) + 5).attr('y', y + barH - 3).text(row.format(value));
    });
    bottomAxis(svg, x, {
      y: top + 20 + 2 * (barH + 4),
      width: width - m.left - m.right,
      format: (v) => row.format(v),
    });
  });

  // Intensity, log scale, with the ridge point.
  const top = m.top + rows.length * groupH;
  const ridge = effectiveRoofs(trace).ridge;
  const values = [d.prefill_intensity, d.intensity, ridge].filter((v) => v > 0);
  const x = scaleLog()
    .domain([10 ** Math.floor(Math.log10(Math.min(...values) / 2)), 10 ** Math.ceil(Math.log10(Math.max(...values) * 2))])
    .range([m.left, width - m.right]);
  svg.append('text').attr('class', 'group-title').attr('x', 0).attr('y', top + 12).text('Intensity, FLOP/byte (log scale)');
  [['Prefill', d.prefill_intensity, 'phase-prefill'], ['Decode', d.intensity, 'phase-decode']].forEach(([label, value, cls], j) => {
    const y = top + 20 + j * (barH + 4);
    svg.append('text').attr('class', 'row-label').attr('x', m.left - 6).attr('y', y + barH - 3).attr('text-anchor', 'end').text(label);
    svg.append('rect').attr('class', `phase ${cls}`).attr('x', m.left).attr('y', y).attr('height', barH).attr('width', Math.max(1, x(value) - m.left));
    svg.append('text').attr('class', 'bar-total').attr('x', x(value) + 5).attr('y', y + barH - 3).text(fmt.number(value, 3));
  });
  if (ridge) {
    svg
      .append('line')
      .attr('class', 'ridge')
      .attr('x1', x(ridge))
      .attr('x2', x(ridge))
      .attr('y1', top + 16)
      .attr('y2', top + 20 + 2 * (barH + 4));
  }
  bottomAxis(svg, x, { y: top + 20 + 2 * (barH + 4), ticks: decadeTicks(x, Math.floor((width - 140) / 40)) });
  return svg.node();
}

function describe({ trace }) {
  const d = trace.decode_comparison;
  return (
    `Prefill of ${fmt.count(trace.scenario.prompt_tokens)} tokens: ${fmt.flops(trace.totals.flops)}, ` +
    `${fmt.bytes(trace.totals.hbm_bytes)} of HBM traffic, ${fmt.seconds(trace.totals.seconds)}, ` +
    `${fmt.intensity(d.prefill_intensity)} (${fmt.bound(d.prefill_bound)}). One decode step after ` +
    `${fmt.count(d.context_tokens)} tokens: ${fmt.flops(d.flops)}, ${fmt.bytes(d.hbm_bytes)}, ` +
    `${fmt.seconds(d.seconds)}, ${fmt.intensity(d.intensity)} (${fmt.bound(d.bound)}).`
  );
}

function table({ trace }) {
  const d = trace.decode_comparison;
  return dataTable(
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
  return new ChartPanel({
    id: 'chart-decode',
    title: 'Prefill beside one decode step',
    draw,
    describe,
    table,
    legend: legend([
      { kind: 'bar', className: 'phase phase-prefill', label: 'Prefill (whole prompt)' },
      { kind: 'bar', className: 'phase phase-decode', label: 'One decode step (one token per request)' },
      { kind: 'rule', className: 'ridge', label: 'Ridge point' },
    ]),
  });
}
