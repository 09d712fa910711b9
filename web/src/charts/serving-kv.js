// @ts-check
// K/V memory in use over the simulated minute, per scheduler ("Under load", issue 30 item 3):
// the engine's paged K/V timeline (docs/serving.md, "Output": `timeline.kv_blocks`, the blocks
// in use on every instance after each step's last iteration) against one instance's capacity
// (`kv_capacity_blocks`), and the run's preemptions (`preemptions`). One panel per scheduler on
// the same axes: time 0–60 s, blocks 0 to the largest capacity (or use) of the three, so a
// panel's height reads the share of the K/V memory in use. Scheduler colours are those of the
// attainment chart (series-i). Nothing here is computed but the axes' extents.

import { scaleLinear } from 'd3-scale';
import { curveStepBefore, line } from 'd3-shape';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, label, leftAxis, part, sizeSvg, tableData } from './common.js';
import { POLICIES } from './serving.js';
import { writeAttrs } from './writes.js';

/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('./serving.js').ServingModel} ServingModel */
/** @typedef {import('./serving.js').ServingFigures} ServingFigures */

const MINUTE = 60;
const policyLabel = (/** @type {string} */ id) => POLICIES.find((p) => p.id === id)?.label ?? id;
const seriesOf = (/** @type {string} */ id) => `series-${Math.max(0, POLICIES.findIndex((p) => p.id === id))}`;

/**
 * The minute's K/V column of a run: [{t, blocks}], empty under reserve K/V (no such column).
 * @param {ServingFigures} report
 */
function blocksOf(report) {
  const t = report.timeline;
  const blocks = t?.kv_blocks;
  if (!blocks) return [];
  return t.time_seconds.map((time, i) => ({ t: time, blocks: blocks[i] })).filter((d) => d.t <= MINUTE + 1e-9);
}

/** A run's most blocks in use over the minute. */
const peakOf = (/** @type {ServingFigures} */ report) => Math.max(0, ...blocksOf(report).map((d) => d.blocks));

/**
 * "1,476 of 26,656 blocks at most (5.5%), no preemption" for a run.
 * @param {ServingFigures} report
 */
function readingOf(report) {
  const peak = peakOf(report);
  const capacity = report.kv_capacity_blocks;
  const share = capacity !== null && capacity > 0 ? ` (${fmt.percent(peak / capacity)} of one instance’s ${fmt.count(capacity)})` : '';
  const preempted = report.preemptions > 0 ? `${fmt.count(report.preemptions)} preemptions` : 'no preemption';
  return `at most ${fmt.count(peak)} blocks in use${share}, ${preempted}`;
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {ServingModel} model
 */
function drawKv(svg, width, { runs }) {
  const panelH = 84;
  const gap = 46;
  const m = { left: 64, right: 18 };
  const height = runs.length * (panelH + gap) + 20;
  sizeSvg(svg, width, height, 'serving-kv');
  const top = Math.max(1, ...runs.map((r) => Math.max(r.report.kv_capacity_blocks ?? 0, peakOf(r.report))));
  const x = scaleLinear().domain([0, MINUTE]).range([m.left, width - m.right]);
  svg.call(writeAttrs, { 'data-y-domain': `0,${top}` });
  runs.forEach((r, i) => {
    const y0 = i * (panelH + gap) + 22;
    const g = part(svg, `panel-${i}`);
    const y = scaleLinear().domain([0, top]).range([y0 + panelH, y0]);
    const preempted = r.report.preemptions > 0 ? `, ${fmt.count(r.report.preemptions)} preemptions` : ', no preemption';
    label(g, 'title', `${policyLabel(r.policy)}${preempted}`, { class: 'group-title', x: 0, y: y0 - 8 });
    const capacity = r.report.kv_capacity_blocks;
    part(g, 'capacity', 'line').call(writeAttrs, {
      class: 'slo-rule',
      display: capacity !== null && capacity > 0 ? null : 'none',
      x1: m.left,
      x2: width - m.right,
      y1: y(capacity ?? 0),
      y2: y(capacity ?? 0),
    });
    label(g, 'capacity-label', capacity !== null && capacity > 0 ? `one instance holds ${fmt.count(capacity)}` : null, {
      class: 'chart-note',
      x: width - m.right,
      y: y(capacity ?? 0) + 12,
      'text-anchor': 'end',
    });
    const rows = blocksOf(r.report);
    const path = /** @type {import('d3-shape').Line<{t: number, blocks: number}>} */ (line())
      .curve(curveStepBefore)
      .x((d) => x(d.t))
      .y((d) => y(d.blocks));
    part(g, 'blocks', 'path').call(writeAttrs, { class: `kv-line ${seriesOf(r.policy)}`, d: rows.length ? path(rows) : null, 'data-peak': String(peakOf(r.report)) });
    leftAxis(g, y, { x: m.left, height: panelH, ticks: [0, top], format: fmt.count, title: i === 0 ? 'K/V blocks' : null, name: 'y', titleOffset: 52 });
    bottomAxis(g, x, { y: y0 + panelH, width: width - m.left - m.right, format: (v) => `${v} s`, name: 'x', title: i === runs.length - 1 ? 'Simulated time (s)' : null });
  });
}

/** @param {ServingModel} model */
function describeKv({ runs }) {
  const size = runs[0]?.report.block_size;
  return (
    `Paged K/V memory over the first simulated minute, per scheduler${size ? ` (blocks of ${fmt.count(size)} tokens)` : ''}, on the same axes: ` +
    runs.map((r) => `${policyLabel(r.policy)} ${readingOf(r.report)}`).join('; ') +
    '. A line far below its instance’s capacity means the load leaves K/V memory to spare; a preemption drops a running request’s K/V to admit another, which then computes it again.'
  );
}

/** @param {ServingModel} model */
function tableKv({ runs }) {
  return tableData(
    'K/V blocks in use',
    ['Scheduler', 'Most blocks in use', 'One instance’s capacity', 'Preemptions'],
    runs.map((r) => [policyLabel(r.policy), fmt.count(peakOf(r.report)), fmt.count(r.report.kv_capacity_blocks ?? 0), fmt.count(r.report.preemptions ?? 0)]),
  );
}

export function kvChart() {
  return chartPanel('chart-serving-kv', 'K/V memory in use over the minute, per scheduler', { draw: drawKv, describe: describeKv, table: tableKv }, [
    ...POLICIES.map((p, i) => /** @type {import('./common.js').LegendItem} */ ({ kind: 'bar', className: `attainment-swatch series-${i}`, label: p.label })),
    { kind: 'rule', className: 'slo-rule', label: 'capacity of one instance (dashed)' },
  ]);
}
