// @ts-check
// Memory ledger: weights, KV state and the largest simultaneous temporaries stacked against the
// device's capacity. When the peak exceeds the capacity the overflow is hatched and labelled
// "does not fit". All figures are the engine's step-4 ledger.

import { scaleLinear } from 'd3-scale';
import * as fmt from '../format.js';
import {
  bottomAxis,
  chartPanel,
  hatchPattern,
  joinMarks,
  label,
  part,
  segmentLabels,
  sizeSvg,
  tableData,
  verticalRule,
} from './common.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('prefill-trace').Step4Facts['memory']} Memory */
/** @typedef {import('d3-scale').ScaleLinear<number, number>} Scale */
/** The ledger's model: the trace, and whether the selected step is the one it belongs to (4). @typedef {{trace: TraceDocument, related?: boolean}} MemoryModel */
/** @typedef {{key: string, label: string, field: 'weight_bytes' | 'kv_bytes' | 'temporaries_bytes'}} LedgerPart */

/**
 * The stacked parts of the ledger: one label each, for the bar, its legend and its table.
 * @type {LedgerPart[]}
 */
const PARTS = [
  { key: 'weights', label: 'Weights', field: 'weight_bytes' },
  { key: 'kv', label: 'KV state', field: 'kv_bytes' },
  { key: 'temporaries', label: 'Temporaries', field: 'temporaries_bytes' },
];
const CAPACITY_LABEL = 'Device capacity';
const OVERFLOW_LABEL = 'Does not fit';

/** @param {TraceDocument} trace */
function ledger(trace) {
  const memory = trace.steps[3].facts.memory;
  return { memory, parts: PARTS.map((p) => ({ ...p, bytes: memory[p.field] })) };
}

/** @param {MemoryModel} model */
function key({ trace, related }) {
  return JSON.stringify([trace.steps[3].facts.memory, related]);
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {MemoryModel} model
 */
function draw(svg, width, { trace, related }) {
  const { memory, parts } = ledger(trace);
  const height = 160;
  const m = { top: 44, right: 16, bottom: 50, left: 16 };
  sizeSvg(svg, width, height, `memory${related ? ' is-related' : ''}`);
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
  const bar = { y: m.top + 8, h: height - m.bottom - (m.top + 8) - 10 };
  const bars = ledgerBars(svg, parts, x, bar);
  overflowArea(svg, memory, x, hatch, bar);
  segmentLabels(svg, bars, bar.y, bar.h);
  capacityRule(svg, memory.capacity_bytes, x, { top: m.top, bottom: height - m.bottom, width });
  label(
    svg,
    'verdict',
    memory.fits
      ? `Fits: peak ${fmt.si(memory.peak_bytes, 'B')}`
      : `${OVERFLOW_LABEL}: over by ${fmt.si(memory.exceeds_by_bytes, 'B')}`,
    { class: `fit-verdict ${memory.fits ? 'fits' : 'does-not-fit'}`, x: m.left, y: 16 },
  );
}

/**
 * The ledger's parts stacked left to right in the bar (`bar`: its y and height h); returns them placed.
 * @param {Sel} svg
 * @param {(LedgerPart & {bytes: number})[]} parts
 * @param {Scale} x
 * @param {{y: number, h: number}} bar
 */
function ledgerBars(svg, parts, x, bar) {
  let start = 0;
  const bars = parts.map((p) => {
    const x0 = x(start);
    const w = Math.max(0, x(start + p.bytes) - x0);
    start += p.bytes;
    return { ...p, x0, w };
  });
  joinMarks(part(svg, 'bars'), 'rect', 'ledger', bars, (d) => d.key, true)
    .call(writeAttrs, { class: (d) => `ledger ledger-${d.key}`, x: (d) => d.x0, y: bar.y, height: bar.h, width: (d) => d.w })
    .select('title')
    .call(writeText, (d) => `${d.label}: ${fmt.bytes(d.bytes)}`);
  return bars;
}

/**
 * The hatched stretch from the capacity to the peak, when the peak does not fit.
 * @param {Sel} svg
 * @param {Memory} memory
 * @param {Scale} x
 * @param {string} hatch
 * @param {{y: number, h: number}} bar
 */
function overflowArea(svg, memory, x, hatch, bar) {
  const overflow = part(svg, 'overflow', 'rect').call(writeAttrs, { class: 'overflow-area', fill: hatch, display: memory.fits ? 'none' : null });
  if (memory.fits) return;
  const cx0 = x(memory.capacity_bytes);
  overflow.call(writeAttrs, { x: cx0, y: bar.y - 4, height: bar.h + 8, width: Math.max(2, x(memory.peak_bytes) - cx0) });
}

/**
 * The device's capacity as a rule from `top` to `bottom`, labelled on the side with room.
 * @param {Sel} svg
 * @param {number} capacity
 * @param {Scale} x
 * @param {{top: number, bottom: number, width: number}} place
 */
function capacityRule(svg, capacity, x, { top, bottom, width }) {
  const cx0 = x(capacity);
  verticalRule(svg, 'capacity', 'capacity', cx0, top, bottom);
  const capacityOnRight = cx0 > width / 2;
  label(svg, 'capacity-label', `capacity ${fmt.si(capacity, 'B')}`, {
    class: 'chart-note',
    x: cx0 + (capacityOnRight ? -5 : 5),
    y: top - 4,
    'text-anchor': capacityOnRight ? 'end' : 'start',
  });
}

/** @param {MemoryModel} model */
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

/** @param {MemoryModel} model */
function table({ trace }) {
  const { memory } = ledger(trace);
  /** @type {[string, number][]} */
  const items = [
    ...PARTS.map((p) => /** @type {[string, number]} */ ([p.key === 'temporaries' ? `${p.label} (largest simultaneous set)` : p.label, memory[p.field]])),
    ['  residual stream', memory.residual_bytes],
    ['  attention workspace', memory.attention_workspace_bytes],
    ['  materialized scores', memory.score_bytes],
    ['  MLP workspace', memory.mlp_workspace_bytes],
    ['  logits', memory.logits_bytes],
    ['Peak', memory.peak_bytes],
        [CAPACITY_LABEL, memory.capacity_bytes],
  ];
  const rows = items.map(([label, value]) => [label, fmt.bytes(value)]);
  rows.push(['Fits', memory.fits ? 'yes' : `no, exceeds by ${fmt.bytes(memory.exceeds_by_bytes)}`]);
  return tableData('Memory ledger', ['Item', 'Bytes'], rows);
}

export function memoryChart() {
  /** @type {import('./common.js').LegendItem[]} */
  const legendItems = [
    ...PARTS.map((p) => /** @type {import('./common.js').LegendItem} */ ({ kind: 'bar', className: `ledger ledger-${p.key}`, label: p.label })),
    { kind: 'rule', className: 'capacity', label: CAPACITY_LABEL },
    { kind: 'hatch', className: 'overflow', label: OVERFLOW_LABEL },
  ];
  return chartPanel('chart-memory', 'Memory ledger against capacity', { draw, describe, table, key }, legendItems);
}
