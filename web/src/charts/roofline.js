// Roofline (log–log): arithmetic intensity against attainable FLOP/s, with the accelerator's
// memory slope and compute roof, the ridge point, and each operator as a point at the rate the
// engine's time gives it (useful FLOPs / modelled seconds, per kernel instance).

import { scaleLog } from 'd3-scale';
import { line, symbol, symbolCircle, symbolSquare, symbolTriangle } from 'd3-shape';
import * as fmt from '../format.js';
import { ChartPanel, bottomAxis, dataTable, decadeTicks, leftAxis, operatorLabel, spreadLabels, svgOf } from './common.js';

const SYMBOLS = { memory: symbolCircle, compute: symbolSquare, overhead: symbolTriangle };

/**
 * The effective roofs the engine used, read back from its own per-kernel times
 * (compute_seconds = computed_flops / P, memory_seconds = hbm_bytes / β). The trace does not
 * state P and β directly; reading them back avoids re-deriving them from datasheet figures.
 */
export function effectiveRoofs(trace) {
  const computeOp = trace.operators.find((op) => op.compute_seconds > 0 && op.computed_flops > 0);
  const memoryOp = trace.operators.find((op) => op.memory_seconds > 0 && op.hbm_bytes.total > 0);
  return {
    peak: computeOp ? computeOp.computed_flops / computeOp.compute_seconds : null,
    bandwidth: memoryOp ? memoryOp.hbm_bytes.total / memoryOp.memory_seconds : null,
    ridge: trace.steps[1]?.facts?.ridge_flops_per_byte ?? null,
  };
}

/** Operators that do arithmetic (a zero intensity has no place on a log axis). */
function plotted(trace) {
  return trace.operators
    .filter((op) => op.flops > 0 && op.seconds > 0 && op.intensity > 0)
    .map((op) => ({ op, x: op.intensity, y: op.flops / op.seconds }));
}

function domainOf(values, padLow, padHigh) {
  const lo = Math.min(...values) / padLow;
  const hi = Math.max(...values) * padHigh;
  return [10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi))];
}

function draw(width, { trace, highlight }) {
  const height = width < 480 ? 300 : 340;
  const m = { top: 16, right: 14, bottom: 50, left: 58 };
  const svg = svgOf(width, height, 'roofline');
  const points = plotted(trace);
  const roofs = effectiveRoofs(trace);
  const xs = points.map((p) => p.x).concat(roofs.ridge ?? []);
  const x = scaleLog()
    .domain(domainOf(xs.length ? xs : [1, 1000], 3, 3))
    .range([m.left, width - m.right]);
  const [x0, x1] = x.domain();
  const ys = points.map((p) => p.y);
  if (roofs.peak) ys.push(roofs.peak);
  if (roofs.bandwidth) ys.push(roofs.bandwidth * x0);
  const y = scaleLog()
    .domain(domainOf(ys.length ? ys : [1e9, 1e15], 1.5, 2))
    .range([height - m.bottom, m.top]);

  bottomAxis(svg, x, {
    y: height - m.bottom,
    ticks: decadeTicks(x, Math.floor((width - 80) / 45)),
    title: 'Arithmetic intensity (FLOP/byte, log scale)',
  });
  leftAxis(svg, y, {
    x: m.left,
    ticks: decadeTicks(y, 7),
    title: 'Attainable FLOP/s (log scale)',
  });

  if (roofs.peak && roofs.bandwidth && roofs.ridge) {
    const ridgeX = roofs.ridge;
    const roofPath = line()
      .x((d) => x(d[0]))
      .y((d) => y(d[1]));
    const startX = Math.max(x0, y.domain()[0] / roofs.bandwidth);
    svg
      .append('path')
      .attr('class', 'roof')
      .attr('d', roofPath([[startX, roofs.bandwidth * startX], [ridgeX, roofs.peak], [x1, roofs.peak]]));
    svg
      .append('line')
      .attr('class', 'ridge')
      .attr('x1', x(ridgeX))
      .attr('x2', x(ridgeX))
      .attr('y1', y(roofs.peak))
      .attr('y2', height - m.bottom);
    svg
      .append('text')
      .attr('class', 'chart-note')
      .attr('x', x(ridgeX) + 4)
      .attr('y', height - m.bottom - 6)
      .text(`ridge ${fmt.number(ridgeX, 3)} FLOP/byte`);
    svg
      .append('text')
      .attr('class', 'chart-note')
      .attr('x', width - m.right)
      .attr('y', y(roofs.peak) - 6)
      .attr('text-anchor', 'end')
      .text(`compute roof P = ${fmt.flopRate(roofs.peak)}`);
    // Label the memory slope along its own angle, low on the left.
    const ax = x(startX);
    const ay = y(roofs.bandwidth * startX);
    const angle = (Math.atan2(y(roofs.peak) - ay, x(ridgeX) - ax) * 180) / Math.PI;
    svg
      .append('text')
      .attr('class', 'chart-note')
      .attr('transform', `translate(${ax + 14},${ay - 12}) rotate(${angle})`)
      .text(`memory slope β = ${fmt.byteRate(roofs.bandwidth)}`);
  }

  const marks = svg.append('g').attr('class', 'points');
  for (const p of points) {
    const state = !highlight ? '' : highlight.has(p.op.name) ? ' is-hi' : ' is-dim';
    marks
      .append('path')
      .attr('class', `point bound-${p.op.bound}${state}`)
      .attr('transform', `translate(${x(p.x)},${y(p.y)})`)
      .attr('d', symbol(SYMBOLS[p.op.bound] ?? symbolCircle, highlight?.has(p.op.name) ? 90 : 60)())
      .append('title')
      .text(`${p.op.name} (step ${p.op.step}): ${fmt.intensity(p.x)}, ${fmt.flopRate(p.y)}, ${fmt.bound(p.op.bound)}`);
  }
  if (highlight) {
    const labels = points
      .filter((p) => highlight.has(p.op.name))
      .map((p) => ({ p, y: y(p.y) }));
    const placed = spreadLabels(labels, 12, m.top + 8, height - m.bottom - 4);
    for (const label of placed) {
      const px = x(label.p.x);
      const leftSide = px > width * 0.6;
      svg
        .append('text')
        .attr('class', 'point-label')
        .attr('x', px + (leftSide ? -9 : 9))
        .attr('y', label.y + 4)
        .attr('text-anchor', leftSide ? 'end' : 'start')
        .text(operatorLabel(label.p.op.name));
    }
  }
  return svg.node();
}

function describe({ trace }) {
  const roofs = effectiveRoofs(trace);
  const projections = trace.steps[1]?.facts?.projections ?? [];
  const bounds = [...new Set(projections.map((p) => p.bound))];
  return (
    `Roofline of ${trace.scenario.model.name} on ${trace.scenario.hardware.name}: ridge at ` +
    `${fmt.intensity(roofs.ridge)}; the step-2 projections sit at ` +
    `${projections.map((p) => fmt.number(p.intensity, 4)).join(', ')} FLOP/byte ` +
    `(${bounds.map(fmt.bound).join(', ')}).`
  );
}

function table({ trace }) {
  return dataTable(
    'Operators on the roofline (per kernel instance)',
    ['Operator', 'Step', 'Intensity', 'Attained rate', 'Bound'],
    trace.operators.map((op) => [
      op.name,
      String(op.step),
      fmt.intensity(op.intensity),
      op.seconds > 0 ? fmt.flopRate(op.flops / op.seconds) : fmt.MISSING,
      fmt.bound(op.bound),
    ]),
  );
}

export function rooflineChart(legend) {
  return new ChartPanel({
    id: 'chart-roofline',
    title: 'Roofline: where each operator sits',
    draw,
    describe,
    table,
    legend,
  });
}
