// Time breakdown: one stacked bar per mechanism step; each segment is one operator's device
// time (count × its roofline time), and the step's kernel-launch overhead is a separate hatched
// segment at the end. All figures are the engine's per-operator seconds.

import { scaleBand, scaleLinear } from 'd3-scale';
import * as fmt from '../format.js';
import { ChartPanel, bottomAxis, dataTable, hatchPattern, legend, operatorLabel, svgOf } from './common.js';

/** Per step: operator segments and the launch overhead, in seconds. */
export function timeRows(trace) {
  return trace.steps.map((step) => {
    const ops = step.operators
      .map((name) => trace.operators.find((op) => op.name === name))
      .filter(Boolean);
    const segments = ops.map((op) => ({
      op,
      seconds: op.count * (op.seconds - op.overhead_seconds),
    }));
    const overhead = ops.reduce((sum, op) => sum + op.count * op.overhead_seconds, 0);
    return { step, segments, overhead, total: step.totals.seconds };
  });
}

function draw(width, { trace, highlight }) {
  const rows = timeRows(trace);
  const rowHeight = 34;
  const m = { top: 8, right: 70, bottom: 50, left: 52 };
  const height = m.top + m.bottom + rowHeight * rows.length;
  const svg = svgOf(width, height, 'timebars');
  const hatch = hatchPattern(svg, 'overhead');
  const maxTotal = Math.max(...rows.map((r) => r.total), 1e-9);
  const x = scaleLinear().domain([0, maxTotal]).nice().range([m.left, width - m.right]);
  const y = scaleBand()
    .domain(rows.map((r) => String(r.step.step)))
    .range([m.top, height - m.bottom])
    .padding(0.25);

  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    format: fmt.seconds,
    title: 'Time (all layers and chunks)',
  });

  for (const row of rows) {
    const key = String(row.step.step);
    const top = y(key);
    const bandHeight = y.bandwidth();
    svg
      .append('text')
      .attr('class', 'row-label')
      .attr('x', m.left - 8)
      .attr('y', top + bandHeight / 2 + 4)
      .attr('text-anchor', 'end')
      .text(`Step ${key}`);
    let start = 0;
    row.segments.forEach((segment, i) => {
      const x0 = x(start);
      const w = Math.max(0, x(start + segment.seconds) - x0);
      const state = !highlight ? '' : highlight.has(segment.op.name) ? ' is-hi' : ' is-dim';
      svg
        .append('rect')
        .attr('class', `segment step-${key} shade-${i % 2}${state}`)
        .attr('x', x0)
        .attr('y', top)
        .attr('width', w)
        .attr('height', bandHeight)
        .append('title')
        .text(`${segment.op.name}: ${fmt.seconds(segment.seconds)} (${segment.op.count} × ${fmt.seconds(segment.op.seconds - segment.op.overhead_seconds)}), ${fmt.bound(segment.op.bound)}`);
      const label = operatorLabel(segment.op.name);
      if (w > label.length * 6.2 + 8) {
        svg
          .append('text')
          .attr('class', 'segment-label')
          .attr('x', x0 + 4)
          .attr('y', top + bandHeight / 2 + 4)
          .text(label);
      }
      start += segment.seconds;
    });
    if (row.overhead > 0) {
      const x0 = x(start);
      svg
        .append('rect')
        .attr('class', 'segment overhead-segment')
        .attr('fill', hatch)
        .attr('x', x0)
        .attr('y', top)
        .attr('width', Math.max(1, x(start + row.overhead) - x0))
        .attr('height', bandHeight)
        .append('title')
        .text(`kernel-launch overhead: ${fmt.seconds(row.overhead)}`);
      start += row.overhead;
    }
    svg
      .append('text')
      .attr('class', 'bar-total')
      .attr('x', x(start) + 6)
      .attr('y', top + bandHeight / 2 + 4)
      .text(row.segments.length ? fmt.seconds(row.total) : 'no kernels');
  }
  return svg.node();
}

function describe({ trace }) {
  const rows = timeRows(trace);
  const longest = rows.reduce((a, b) => (b.total > a.total ? b : a));
  return (
    `Time by step: ${rows.map((r) => `step ${r.step.step} ${fmt.seconds(r.total)}`).join(', ')}; ` +
    `step ${longest.step.step} takes longest. Launch overhead in total: ` +
    `${fmt.seconds(rows.reduce((sum, r) => sum + r.overhead, 0))}.`
  );
}

function table({ trace }) {
  const rows = [];
  for (const row of timeRows(trace)) {
    for (const segment of row.segments) {
      rows.push([
        segment.op.name,
        String(row.step.step),
        String(segment.op.count),
        fmt.seconds(segment.seconds),
        fmt.seconds(segment.op.count * segment.op.overhead_seconds),
        fmt.bound(segment.op.bound),
      ]);
    }
  }
  return dataTable(
    'Time by operator (device time and launch overhead, all instances)',
    ['Operator', 'Step', 'Instances', 'Device time', 'Launch overhead', 'Bound'],
    rows,
  );
}

export function timeChart() {
  return new ChartPanel({
    id: 'chart-time',
    title: 'Where the time goes, step by step',
    draw,
    describe,
    table,
    legend: legend([
      { kind: 'bar', className: 'segment step-1 shade-0', label: 'Step 1 kernels' },
      { kind: 'bar', className: 'segment step-2 shade-0', label: 'Step 2 kernels' },
      { kind: 'bar', className: 'segment step-3 shade-0', label: 'Step 3 kernels' },
      { kind: 'bar', className: 'segment step-5 shade-0', label: 'Step 5 kernels' },
      { kind: 'hatch', className: 'overhead', label: 'Kernel-launch overhead' },
    ]),
  });
}
