// Memory ledger: weights, KV state and the largest simultaneous temporaries stacked against the
// device's capacity. When the peak exceeds the capacity the overflow is hatched and labelled
// "does not fit". All figures are the engine's step-4 ledger.

import { scaleLinear } from 'd3-scale';
import * as fmt from '../format.js';
import { ChartPanel, bottomAxis, dataTable, hatchPattern, legend, svgOf } from './common.js';

function ledger(trace) {
  const memory = trace.steps[3].facts.memory;
  return {
    memory,
    parts: [
      { key: 'weights', label: 'Weights', bytes: memory.weight_bytes },
      { key: 'kv', label: 'KV state', bytes: memory.kv_bytes },
      { key: 'temporaries', label: 'Temporaries', bytes: memory.temporaries_bytes },
    ],
  };
}

function draw(width, { trace, related }) {
  const { memory, parts } = ledger(trace);
  const height = 160;
  const m = { top: 44, right: 16, bottom: 50, left: 16 };
  const svg = svgOf(width, height, `memory${related ? ' is-related' : ''}`);
  const hatch = hatchPattern(svg, 'overflow');
  const x = scaleLinear()
    .domain([0, Math.max(memory.peak_bytes, memory.capacity_bytes) * 1.04])
    .nice()
    .range([m.left, width - m.right]);
  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    format: (v) => fmt.si(v, 'B'),
    title: 'Device memory (1 GB = 10⁹ bytes)',
  });
  const barY = m.top + 8;
  const barH = height - m.bottom - barY - 10;
  let start = 0;
  const labels = [];
  for (const part of parts) {
    const x0 = x(start);
    const w = Math.max(0, x(start + part.bytes) - x0);
    svg
      .append('rect')
      .attr('class', `ledger ledger-${part.key}`)
      .attr('x', x0)
      .attr('y', barY)
      .attr('height', barH)
      .attr('width', w)
      .append('title')
      .text(`${part.label}: ${fmt.bytes(part.bytes)}`);
    if (w > part.label.length * 6.5 + 10) labels.push({ x: x0 + 5, text: part.label });
    start += part.bytes;
  }
  if (!memory.fits) {
    const x0 = x(memory.capacity_bytes);
    svg
      .append('rect')
      .attr('class', 'overflow-area')
      .attr('fill', hatch)
      .attr('x', x0)
      .attr('y', barY - 4)
      .attr('height', barH + 8)
      .attr('width', Math.max(2, x(memory.peak_bytes) - x0));
  }
  for (const label of labels) {
    svg
      .append('text')
      .attr('class', 'segment-label')
      .attr('x', label.x)
      .attr('y', barY + barH / 2 + 4)
      .text(label.text);
  }
  const cx = x(memory.capacity_bytes);
  svg
    .append('line')
    .attr('class', 'capacity')
    .attr('x1', cx)
    .attr('x2', cx)
    .attr('y1', m.top)
    .attr('y2', height - m.bottom);
  const capacityOnRight = cx > width / 2;
  svg
    .append('text')
    .attr('class', 'chart-note')
    .attr('x', cx + (capacityOnRight ? -5 : 5))
    .attr('y', m.top - 4)
    .attr('text-anchor', capacityOnRight ? 'end' : 'start')
    .text(`capacity ${fmt.si(memory.capacity_bytes, 'B')}`);
  svg
    .append('text')
    .attr('class', `fit-verdict ${memory.fits ? 'fits' : 'does-not-fit'}`)
    .attr('x', m.left)
    .attr('y', 16)
    .text(
      memory.fits
        ? `Fits: peak ${fmt.si(memory.peak_bytes, 'B')}`
        : `Does not fit: over by ${fmt.si(memory.exceeds_by_bytes, 'B')}`,
    );
  return svg.node();
}

function describe({ trace }) {
  const { memory, parts } = ledger(trace);
  const verdict = memory.fits
    ? 'fits'
    : `does not fit: it exceeds the capacity by ${fmt.bytes(memory.exceeds_by_bytes)}`;
  return (
    `Peak memory ${fmt.bytes(memory.peak_bytes)} = ` +
    `${parts.map((p) => `${p.label.toLowerCase()} ${fmt.bytes(p.bytes)}`).join(' + ')}, ` +
    `against ${fmt.bytes(memory.capacity_bytes)} of device memory: ${verdict}.`
  );
}

function table({ trace }) {
  const { memory } = ledger(trace);
  const rows = [
    ['Weights', memory.weight_bytes],
    ['KV state', memory.kv_bytes],
    ['Temporaries (largest simultaneous set)', memory.temporaries_bytes],
    ['  residual stream', memory.residual_bytes],
    ['  attention workspace', memory.attention_workspace_bytes],
    ['  materialized scores', memory.score_bytes],
    ['  MLP workspace', memory.mlp_workspace_bytes],
    ['  logits', memory.logits_bytes],
    ['Peak', memory.peak_bytes],
    ['Capacity', memory.capacity_bytes],
  ].map(([label, value]) => [label, fmt.bytes(value)]);
  rows.push(['Fits', memory.fits ? 'yes' : `no, exceeds by ${fmt.bytes(memory.exceeds_by_bytes)}`]);
  return dataTable('Memory ledger', ['Item', 'Bytes'], rows);
}

export function memoryChart() {
  return new ChartPanel({
    id: 'chart-memory',
    title: 'Memory ledger against capacity',
    draw,
    describe,
    table,
    legend: legend([
      { kind: 'bar', className: 'ledger ledger-weights', label: 'Weights' },
      { kind: 'bar', className: 'ledger ledger-kv', label: 'KV state' },
      { kind: 'bar', className: 'ledger ledger-temporaries', label: 'Temporaries' },
      { kind: 'rule', className: 'capacity', label: 'Device capacity' },
      { kind: 'hatch', className: 'overflow', label: 'Does not fit' },
    ]),
  });
}
