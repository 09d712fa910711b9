// The lesson's engineering example made live: one weight tile (the q-projection, d × h_q·d_h)
// shared by 128 token rows versus used by 1 row. The engine's reuse_example gives, for each,
// the weight bytes each row pays for and the arithmetic intensity; the ridge shows how far
// either is from being compute-bound on the chosen accelerator.

import { scaleLog } from 'd3-scale';
import * as fmt from '../format.js';
import { ChartPanel, bottomAxis, dataTable, decadeTicks, legend, svgOf } from './common.js';

function rowsOf(trace) {
  return [...(trace.steps[1]?.facts?.reuse_example ?? [])].sort((a, b) => b.rows - a.rows);
}

function logDomain(values) {
  const positive = values.filter((v) => v > 0);
  return [
    10 ** Math.floor(Math.log10(Math.min(...positive) / 2)),
    10 ** Math.ceil(Math.log10(Math.max(...positive) * 2)),
  ];
}

function draw(width, { trace }) {
  const rows = rowsOf(trace);
  const ridge = trace.steps[1].facts.ridge_flops_per_byte;
  const m = { top: 6, right: 64, left: 64 };
  const barH = 16;
  const groupH = 50 + rows.length * (barH + 6);
  const height = m.top + 2 * groupH;
  const svg = svgOf(width, height, 'reuse');
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
  groups.forEach((group, i) => {
    const top = m.top + i * groupH;
    const x = scaleLog().domain(group.domain).range([m.left, width - m.right]);
    svg.append('text').attr('class', 'group-title').attr('x', 0).attr('y', top + 12).text(group.title);
    rows.forEach((row, j) => {
      const y = top + 20 + j * (barH + 6);
      const value = group.value(row);
      svg
        .append('text')
        .attr('class', 'row-label')
        .attr('x', m.left - 6)
        .attr('y', y + barH - 3)
        .attr('text-anchor', 'end')
        .text(row.rows === 1 ? '1 row' : `${fmt.count(row.rows)} rows`);
      svg
        .append('rect')
        .attr('class', `reuse-bar rows-${row.rows === 1 ? 'one' : 'many'} bound-${row.bound}`)
        .attr('x', m.left)
        .attr('y', y)
        .attr('height', barH)
        .attr('width', Math.max(1, x(value) - m.left));
      svg
        .append('text')
        .attr('class', 'bar-total')
        .attr('x', x(value) + 5)
        .attr('y', y + barH - 3)
        .text(group.format(value));
    });
    const axisY = top + 20 + rows.length * (barH + 6);
    if (group.ridge) {
      svg
        .append('line')
        .attr('class', 'ridge')
        .attr('x1', x(group.ridge))
        .attr('x2', x(group.ridge))
        .attr('y1', top + 16)
        .attr('y2', axisY);
    }
    bottomAxis(svg, x, {
      y: axisY,
      ticks: decadeTicks(x, Math.floor((width - 170) / 40)),
      format: group.ridge ? undefined : (v) => fmt.si(v, 'B'),
    });
  });
  return svg.node();
}

function describe({ trace }) {
  const rows = rowsOf(trace);
  const ridge = trace.steps[1].facts.ridge_flops_per_byte;
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

function table({ trace }) {
  return dataTable(
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
  return new ChartPanel({
    id: 'chart-reuse',
    title: 'Engineering example, live: 128 rows vs 1 row on one weight tile',
    draw,
    describe,
    table,
    legend: legend([
      { kind: 'bar', className: 'reuse-bar rows-many', label: '128 token rows share the tile' },
      { kind: 'bar', className: 'reuse-bar rows-one', label: 'One token row' },
      { kind: 'rule', className: 'ridge', label: 'Ridge point' },
    ]),
  });
}
