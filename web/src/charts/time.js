// @ts-check
// Time breakdown: one stacked bar per mechanism step; each segment is one operator's device
// time (count × its roofline time), and the step's kernel-launch overhead is a separate hatched
// segment at the end. All figures are the engine's per-operator seconds.

import { scaleBand, scaleLinear } from 'd3-scale';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, hatchPattern, joinMarks, operatorLabel, part, rowLabels, sizeSvg, tableData } from './common.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').TraceOperator} TraceOperator */
/** @typedef {import('./common.js').Sel} Sel */
/** The time chart's model: the trace and the selected step's operators (none: null). @typedef {{trace: TraceDocument, highlight?: Set<string> | null}} TimeModel */
/** @typedef {ReturnType<typeof timeRows>[number]} TimeRow */
/** @typedef {ReturnType<typeof layOut>} Marks */

/**
 * Per step: operator segments and the launch overhead, in seconds. The overhead is the
 * engine's `totals.overhead_seconds` of the step (summed here only for a trace without it).
 * @param {TraceDocument} trace
 */
export function timeRows(trace) {
  const byName = new Map(trace.operators.map((op) => [op.name, op]));
  return trace.steps.map((step) => {
    const ops = step.operators.map((name) => byName.get(name)).filter((op) => op !== undefined);
    const segments = ops.map((op) => ({
      op,
      seconds: op.count * (op.seconds - op.overhead_seconds),
    }));
    const overhead =
      typeof step.totals.overhead_seconds === 'number'
        ? step.totals.overhead_seconds
        : ops.reduce((sum, op) => sum + op.count * op.overhead_seconds, 0);
    return { step, segments, overhead, total: step.totals.seconds };
  });
}

/**
 * The launch overhead of the whole prefill (the engine's total, or the steps' sum).
 * @param {TraceDocument} trace
 * @param {TimeRow[]} rows
 */
function totalOverhead(trace, rows) {
  return typeof trace.totals.overhead_seconds === 'number'
    ? trace.totals.overhead_seconds
    : rows.reduce((sum, r) => sum + r.overhead, 0);
}

/** @param {TimeModel} model */
function key({ trace, highlight }) {
  return JSON.stringify([
    trace.steps.map((s) => [s.operators, s.totals]),
    trace.operators.map((op) => [op.name, op.count, op.seconds, op.overhead_seconds, op.bound]),
    trace.totals.overhead_seconds ?? null,
    highlight ? [...highlight] : null,
  ]);
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {TimeModel} model
 */
function draw(svg, width, { trace, highlight }) {
  const rows = timeRows(trace);
  const rowHeight = 34;
  const m = { top: 8, right: 70, bottom: 50, left: 52 };
  const height = m.top + m.bottom + rowHeight * rows.length;
  sizeSvg(svg, width, height, 'timebars');
  const hatch = hatchPattern(svg, 'overhead');
  const maxTotal = Math.max(...rows.map((r) => r.total), 1e-9);
  const x = scaleLinear().domain([0, maxTotal]).nice().range([m.left, width - m.right]);
  const y = scaleBand()
    .domain(rows.map((r) => String(r.step.step)))
    .range([m.top, height - m.bottom])
    .padding(0.25);
  const bandHeight = y.bandwidth();

  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    format: fmt.seconds,
    title: 'Time (all layers and chunks)',
  });

  // Lay out every mark first (plain data), then join each kind once.
  const marks = layOut(rows, x, y, highlight ?? null);
  const labelY = (/** @type {TimeRow} */ r) => /** @type {number} */ (y(String(r.step.step))) + bandHeight / 2 + 4;
  rowLabels(svg, rows, (r) => String(r.step.step), m.left - 8, labelY, (r) => `Step ${r.step.step}`);
  drawMarks(svg, marks, bandHeight, hatch);
}

/**
 * Per step's bar: its operators' segments (and their labels where they fit), its launch
 * overhead, and its total at the end; as plain data, placed on the scales x and y.
 * @param {TimeRow[]} rows
 * @param {import('d3-scale').ScaleLinear<number, number>} x
 * @param {import('d3-scale').ScaleBand<string>} y
 * @param {Set<string> | null} highlight
 */
function layOut(rows, x, y, highlight) {
  /** @type {{segment: TimeRow['segments'][number], x0: number, w: number, top: number, className: string}[]} */
  const segments = [];
  /** @type {{id: string, x: number, top: number, text: string}[]} */
  const segmentLabels = [];
  /** @type {{id: string, x0: number, w: number, top: number, overhead: number}[]} */
  const overheads = [];
  /** @type {{id: string, x: number, top: number, text: string}[]} */
  const totals = [];
  for (const row of rows) {
    const stepKey = String(row.step.step);
    const top = /** @type {number} */ (y(stepKey));
    let start = 0;
    row.segments.forEach((segment, i) => {
      const x0 = x(start);
      const w = Math.max(0, x(start + segment.seconds) - x0);
      const state = !highlight ? '' : highlight.has(segment.op.name) ? ' is-hi' : ' is-dim';
      // All-reduces (tensor parallelism) are the link's time, not a kernel's: their own fill.
      const fill = segment.op.family === 'interconnect' ? 'link' : `step-${stepKey} shade-${i % 2}`;
      segments.push({ segment, x0, w, top, className: `segment ${fill}${state}` });
      const text = operatorLabel(segment.op.name);
      if (w > text.length * 6.2 + 8) segmentLabels.push({ id: segment.op.name, x: x0 + 4, top, text });
      start += segment.seconds;
    });
    if (row.overhead > 0) {
      const x0 = x(start);
      overheads.push({ id: stepKey, x0, w: Math.max(1, x(start + row.overhead) - x0), top, overhead: row.overhead });
      start += row.overhead;
    }
    totals.push({ id: stepKey, x: x(start) + 6, top, text: row.segments.length ? fmt.seconds(row.total) : 'no kernels' });
  }
  return { segments, segmentLabels, overheads, totals };
}

/**
 * Joins each kind of mark laid out by layOut (bands `bandHeight` high; `hatch` the overhead's fill).
 * @param {Sel} svg
 * @param {Marks} marks
 * @param {number} bandHeight
 * @param {string} hatch
 */
function drawMarks(svg, { segments, segmentLabels, overheads, totals }, bandHeight, hatch) {
  joinMarks(part(svg, 'segments'), 'rect', 'segment', segments, (d) => d.segment.op.name, true)
    .call(writeAttrs, {
      class: (d) => d.className,
      x: (d) => d.x0,
      y: (d) => d.top,
      width: (d) => d.w,
      height: bandHeight,
    })
    .select('title')
    .call(
      writeText,
      ({ segment }) =>
        `${segment.op.name}: ${fmt.seconds(segment.seconds)} (${segment.op.count} × ` +
        `${fmt.seconds(segment.op.seconds - segment.op.overhead_seconds)}), ${fmt.bound(segment.op.bound)}`,
    );

  joinMarks(part(svg, 'segment-labels'), 'text', 'segment-label', segmentLabels, (d) => d.id)
    .call(writeAttrs, { x: (d) => d.x, y: (d) => d.top + bandHeight / 2 + 4 })
    .call(writeText, (d) => d.text);

  joinMarks(part(svg, 'overheads'), 'rect', 'overhead-segment', overheads, (d) => d.id, true)
    .call(writeAttrs, {
      class: 'overhead-segment segment',
      fill: hatch,
      x: (d) => d.x0,
      y: (d) => d.top,
      width: (d) => d.w,
      height: bandHeight,
    })
    .select('title')
    .call(writeText, (d) => `kernel-launch overhead: ${fmt.seconds(d.overhead)}`);

  joinMarks(part(svg, 'totals'), 'text', 'bar-total', totals, (d) => d.id)
    .call(writeAttrs, { x: (d) => d.x, y: (d) => d.top + bandHeight / 2 + 4 })
    .call(writeText, (d) => d.text);
}

/** @param {TimeModel} model */
function describe({ trace }) {
  const rows = timeRows(trace);
  const longest = rows.reduce((a, b) => (b.total > a.total ? b : a));
  return (
    `Time by step: ${rows.map((r) => `step ${r.step.step} ${fmt.seconds(r.total)}`).join(', ')}; ` +
    `step ${longest.step.step} takes longest. Launch overhead in total: ` +
    `${fmt.seconds(totalOverhead(trace, rows))}.`
  );
}

/** @param {TimeModel} model */
function table({ trace }) {
  /** @type {string[][]} */
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
  return tableData(
    'Time by operator (device time and launch overhead, all instances)',
    ['Operator', 'Step', 'Instances', 'Device time', 'Launch overhead', 'Bound'],
    rows,
  );
}

export function timeChart() {
  return chartPanel('chart-time', 'Where the time goes, step by step', { draw, describe, table, key }, [
    { kind: 'bar', className: 'segment step-1 shade-0', label: 'Step 1 kernels' },
    { kind: 'bar', className: 'segment step-2 shade-0', label: 'Step 2 kernels' },
    { kind: 'bar', className: 'segment step-3 shade-0', label: 'Step 3 kernels' },
    { kind: 'bar', className: 'segment step-5 shade-0', label: 'Step 5 kernels' },
    { kind: 'bar', className: 'segment link', label: 'All-reduces between devices (tensor parallelism)' },
    { kind: 'hatch', className: 'overhead', label: 'Kernel-launch overhead' },
  ]);
}
