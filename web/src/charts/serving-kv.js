// K/V memory in use over the simulated minute, paged against reserve ("Under load", issue 30
// item 3): two runs of the engine on the same arrivals under one scheduler, one with `kv:
// "paged"` (vLLM's blocks on demand, preemption by recomputation) and one with `kv: "reserve"`
// (each request's prompt + output reserved at admission), drawn on one figure. Each line is the
// engine's `timeline.kv_blocks` (docs/serving.md, "Output": blocks in use on every instance
// after each step's last iteration; reserve counts each reservation as ⌈tokens / block_size⌉
// blocks, "K/V memory"), against one instance's `kv_capacity_blocks` (the same bytes in both
// runs); the paged run's preemptions are ticks on the time axis at the steps of its
// `timeline.preemptions`. The caption reads the figure from the reports: peak blocks,
// preemptions and `running_requests_mean` of each. Nothing here is computed but the axes'
// extents and each column's largest value.

import { scaleLinear } from 'd3-scale';
import { curveStepBefore, line } from 'd3-shape';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, joinMarks, label, leftAxis, part, sizeSvg, spreadLabels, tableData } from './common.js';
import { POLICIES } from './serving.js';
import { writeAttrs } from './writes.js';

/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('./serving.js').ServingModel} ServingModel */
/** @typedef {import('./serving.js').ServingRun} ServingRun */
/** @typedef {import('./serving.js').ServingFigures} ServingFigures */
/** @typedef {{t0: number, t1: number, count: number}} PreemptionStep */

const MINUTE = 60;
/** Below this share of the capacity the capacity is named above the plot, not drawn. */
const CAPACITY_DRAWN = 0.25;
const policyLabel = (/** @type {string} */ id) => POLICIES.find((p) => p.id === id)?.label ?? id;

/**
 * The minute's K/V column of a run: [{t, blocks}] (each step's end).
 * @param {ServingFigures} report
 */
function blocksOf(report) {
  const t = report.timeline;
  const blocks = t?.kv_blocks;
  if (!blocks) return [];
  return t.time_seconds.map((time, i) => ({ t: time, blocks: blocks[i] })).filter((d) => d.t <= MINUTE + 1e-9);
}

/**
 * The minute's steps with preemptions: [{t0, t1, count}].
 * @param {ServingFigures} report
 * @returns {PreemptionStep[]}
 */
function preemptionsOf(report) {
  const t = report.timeline;
  const counts = t?.preemptions;
  if (!counts) return [];
  return t.time_seconds
    .map((end, i) => ({ t0: end - t.step_seconds, t1: end, count: counts[i] }))
    .filter((d) => d.count > 0 && d.t0 < MINUTE);
}

/**
 * Why a run has no line, in words, or null when it has one: no K/V column at all, or no block
 * held in the whole minute (nothing admitted before it ended).
 * @param {ServingFigures} report
 */
function emptyOf(report) {
  const rows = blocksOf(report);
  if (rows.length === 0) return 'no K/V series reported';
  return rows.every((d) => d.blocks === 0) ? 'no request admitted in the minute, no block held' : null;
}

/** A run's most blocks in use over the minute. */
const peakOf = (/** @type {ServingFigures} */ report) => Math.max(0, ...blocksOf(report).map((d) => d.blocks));
/** Preemptions within the minute (the ticks' sum). */
const minutePreemptions = (/** @type {ServingFigures} */ report) => preemptionsOf(report).reduce((sum, d) => sum + d.count, 0);

/**
 * The run that has both modes: the paged base run and its reserve twin.
 * @param {ServingRun[]} runs
 * @returns {{policy: string, paged: ServingFigures, reserve: ServingFigures} | null}
 */
function pairOf(runs) {
  const run = runs.find((r) => r.reserve);
  return run?.reserve ? { policy: run.policy, paged: run.report, reserve: run.reserve } : null;
}

/**
 * One instance's capacity: a dashed rule when the lines reach near it, and its words above the
 * plot, clear of the top tick and of the lines' names on the right.
 * @param {Sel} svg
 * @param {{capacity: number, drawn: boolean, narrow: boolean, left: number, right: number, y: number, top: number}} at
 */
function drawCapacity(svg, { capacity, drawn, narrow, left, right, y, top }) {
  part(svg, 'capacity', 'line').call(writeAttrs, { class: 'slo-rule', display: drawn ? null : 'none', x1: left, x2: right, y1: y, y2: y });
  const words = `${narrow ? 'capacity' : 'capacity of one instance'}: ${fmt.count(capacity)} blocks${drawn ? ' (dashed)' : ' (far above)'}`;
  label(svg, 'capacity-label', capacity > 0 ? words : null, { class: 'chart-note', x: left, y: top - 14 });
}

/**
 * The paged run's preemptions: a tick under the time axis over each step that had one, its
 * count in a title.
 * @param {Sel} svg
 * @param {ServingFigures} paged
 * @param {import('d3-scale').ScaleLinear<number, number>} x
 * @param {number} baseline  the time axis's y
 */
function drawPreemptions(svg, paged, x, baseline) {
  const ticks = preemptionsOf(paged);
  const marks = joinMarks(part(svg, 'preemptions'), 'rect', 'kv-preemption', ticks, (d) => d.t0, true);
  marks.call(writeAttrs, {
    x: (d) => x(Math.max(0, d.t0)),
    width: (d) => Math.max(2, x(Math.min(MINUTE, d.t1)) - x(Math.max(0, d.t0))),
    y: baseline - 8,
    height: 8,
    'data-count': (d) => String(d.count),
    'data-time': (d) => String(d.t1),
  });
  marks.select('title').text((d) => `${fmt.count(d.count)} ${d.count === 1 ? 'preemption' : 'preemptions'} by ${fmt.seconds(d.t1)}`);
}

/**
 * The two runs' lines, each named at its right end, or, for a run with no line, its reason in
 * words at the top left of the plot.
 * @param {Sel} svg
 * @param {{paged: ServingFigures, reserve: ServingFigures}} pair
 * @param {import('d3-scale').ScaleLinear<number, number>} x
 * @param {import('d3-scale').ScaleLinear<number, number>} y
 * @param {{left: number, right: number, top: number, bottom: number}} plot
 */
function drawLines(svg, pair, x, y, plot) {
  const path = /** @type {import('d3-shape').Line<{t: number, blocks: number}>} */ (line())
    .curve(curveStepBefore)
    .x((d) => x(d.t))
    .y((d) => y(d.blocks));
  const modes = [
    { id: 'paged', name: 'paged', report: pair.paged, y: 0 },
    { id: 'reserve', name: 'reserve', report: pair.reserve, y: 0 },
  ];
  let notes = 0;
  for (const mode of modes) {
    const rows = blocksOf(mode.report);
    // A run that held no block in the minute (it admitted nothing, or reported no series) has
    // no line to draw: the plot says so in words instead of an empty path.
    const empty = emptyOf(mode.report);
    part(svg, `blocks-${mode.id}`, 'path').call(writeAttrs, {
      class: `kv-line kv-${mode.id}`,
      d: empty ? null : path(rows),
      'data-peak': String(peakOf(mode.report)),
    });
    label(svg, `empty-${mode.id}`, empty ? `${mode.name}: ${empty}` : null, { class: `chart-note kv-empty kv-empty-${mode.id}`, x: plot.left + 8, y: plot.top + 16 + 16 * notes });
    if (empty) notes += 1;
    mode.y = empty ? NaN : y(rows[rows.length - 1].blocks);
  }
  // Each drawn line named at its right end, moved apart when the two ends meet.
  const drawnModes = modes.filter((mode) => !Number.isNaN(mode.y));
  const ends = spreadLabels(
    drawnModes.map((mode) => ({ id: mode.id, name: mode.name, y: mode.y + 4 })),
    13,
    plot.top + 8,
    plot.bottom + 4,
  );
  for (const mode of modes) {
    const end = ends.find((e) => e.id === mode.id);
    label(svg, `name-${mode.id}`, end ? end.name : null, { class: `chart-note kv-name-${mode.id}`, x: plot.right + 6, y: end?.y ?? 0 });
  }
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {ServingModel} model
 */
function drawKv(svg, width, { runs }) {
  const pair = pairOf(runs);
  // Room on the right for the lines' names ("reserve" at 11 px); a phone's column is narrow.
  const narrow = width < 520;
  const m = { top: 36, right: 56, bottom: 58, left: 64 };
  const plotH = 170;
  sizeSvg(svg, width, m.top + plotH + m.bottom, 'serving-kv');
  if (!pair) return;
  const capacity = pair.paged.kv_capacity_blocks;
  const peak = Math.max(peakOf(pair.paged), peakOf(pair.reserve));
  // The capacity is drawn when the lines reach a quarter of it; otherwise the lines would lie
  // flat on the axis, so the axis ends above them and the capacity is named at the top.
  const drawn = capacity > 0 && peak >= CAPACITY_DRAWN * capacity;
  // Whole blocks: the top tick is labelled with a count (2.4 read "2" above a line at 2).
  const top = Math.max(1, drawn ? Math.max(capacity, peak) : Math.ceil(peak * 1.2));
  const x = scaleLinear().domain([0, MINUTE]).range([m.left, width - m.right]);
  const y = scaleLinear().domain([0, top]).range([m.top + plotH, m.top]);
  // The scales, for a reader of the drawing (tests/browser/serving-kv.test.mjs places the ticks by them).
  svg.call(writeAttrs, { 'data-y-domain': `0,${top}`, 'data-x-domain': `0,${MINUTE}`, 'data-x-range': x.range().join(','), 'data-policy': pair.policy });
  drawCapacity(svg, { capacity, drawn, narrow, left: m.left, right: width - m.right, y: y(capacity), top: m.top });
  drawLines(svg, pair, x, y, { left: m.left, right: width - m.right, top: m.top, bottom: m.top + plotH });
  leftAxis(svg, y, { x: m.left, height: plotH, ticks: [0, Math.round(top / 2), top], format: fmt.count, title: 'K/V blocks in use', name: 'y', titleOffset: 52 });
  bottomAxis(svg, x, {
    y: m.top + plotH,
    width: width - m.left - m.right,
    ticks: narrow ? [0, 30, 60] : undefined,
    format: (v) => `${v} s`,
    name: 'x',
    title: 'Simulated time (s)',
  });
  drawPreemptions(svg, pair.paged, x, m.top + plotH);
}

/** The reading, from the two reports: what each mode holds at most, preempts and runs at once. @param {ServingModel} model */
function describeKv({ runs }) {
  const pair = pairOf(runs);
  if (!pair) return 'K/V memory in use over the first simulated minute, paged against reserve.';
  const { paged, reserve } = pair;
  const size = paged.block_size;
  const capacity = paged.kv_capacity_blocks;
  const [pp, rp] = [peakOf(paged), peakOf(reserve)];
  const k = minutePreemptions(paged);
  const held = pp > rp ? 'more than' : pp < rp ? 'fewer than' : 'as many as';
  const running = (/** @type {ServingFigures} */ r) => fmt.number(r.running_requests_mean ?? 0);
  const preempts = k > 0 ? `preempts ${fmt.count(k)} ${k === 1 ? 'time' : 'times'} in the minute (the ticks under the time axis)` : 'never preempts in the minute';
  const reserveEmpty = emptyOf(reserve);
  if (reserveEmpty) {
    return (
      `K/V memory in use over the first simulated minute under ${policyLabel(pair.policy).toLowerCase()}, in blocks of ${fmt.count(size ?? 0)} tokens against one instance’s ${fmt.count(capacity ?? 0)}: ` +
      `paged K/V holds at most ${fmt.count(pp)} blocks and ${preempts}; reserve has no line: ${reserveEmpty}.`
    );
  }
  const admits =
    (reserve.running_requests_mean ?? 0) < (paged.running_requests_mean ?? 0)
      ? 'reserve never preempts but admits fewer at once'
      : 'reserve never preempts, and here admits as many at once';
  return (
    `K/V memory in use over the first simulated minute under ${policyLabel(pair.policy).toLowerCase()}, the same arrivals twice, in blocks of ${fmt.count(size ?? 0)} tokens against one instance’s ${fmt.count(capacity ?? 0)}: ` +
    `paged K/V holds at most ${fmt.count(pp)} blocks, ${held} reserve’s ${fmt.count(rp)}, and ${preempts}; ${admits} ` +
    `(${running(reserve)} requests running on average against paged’s ${running(paged)}), because it holds each request’s whole prompt + output from admission while paged K/V takes a block only when a token needs it.`
  );
}

/** @param {ServingModel} model */
function tableKv({ runs }) {
  const pair = pairOf(runs);
  /** @type {[string, ServingFigures][]} */
  const modes = pair
    ? [
        ['Paged', pair.paged],
        ['Reserve', pair.reserve],
      ]
    : [];
  const rows = modes.map(([name, r]) => [name, fmt.count(peakOf(r)), fmt.count(r.kv_capacity_blocks ?? 0), fmt.count(minutePreemptions(r)), fmt.number(r.running_requests_mean ?? 0)]);
  return tableData('K/V blocks in use over the minute', ['K/V', 'Most blocks in use', 'One instance’s capacity', 'Preemptions', 'Running requests (mean)'], rows);
}

export function kvChart() {
  return chartPanel('chart-serving-kv', 'K/V memory in use over the minute: paged against reserve', { draw: drawKv, describe: describeKv, table: tableKv }, [
    { kind: 'rule', className: 'kv-line kv-paged', label: 'paged: blocks taken as tokens need them' },
    { kind: 'rule', className: 'kv-line kv-reserve', label: 'reserve: prompt + output held from admission' },
    { kind: 'bar', className: 'kv-preemption', label: 'a preemption (paged)' },
    { kind: 'rule', className: 'slo-rule', label: 'capacity of one instance (dashed)' },
  ]);
}
