// Time to first token: queueing + execution + first-token delivery as one stacked bar (the
// sweep of TTFT against prompt length or arrival rate is sweep.js).
// When the queue is overloaded the engine gives no queue time (null): the bar shows an
// unbounded hatched queue.

import { scaleLinear } from 'd3-scale';
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, hatchPattern, joinMarks, label, part, segmentLabels, sizeSvg, tableData } from './common.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('prefill-trace').TtftTotals} TtftTotals */
/** @typedef {import('d3-scale').ScaleLinear<number, number>} LinearScale */
/**
 * The TTFT bar's model: the trace, the pinned scenario's trace (compare.js; null when none) and
 * the held axis's end (null: the axis follows the bar).
 * @typedef {{trace: TraceDocument, ghost?: TraceDocument | null, top?: number | null}} BarModel
 */
/** @typedef {{key: 'queue_seconds' | 'execution_seconds' | 'delivery_seconds', label: string, className: string}} TtftPart */
/** @typedef {TtftPart & {value: number, x0: number, w: number}} Segment */

/**
 * @type {TtftPart[]}
 */
const PARTS = [
  { key: 'queue_seconds', label: 'Queueing', className: 'ttft-queue' },
  { key: 'execution_seconds', label: 'Execution', className: 'ttft-execution' },
  { key: 'delivery_seconds', label: 'First-token delivery', className: 'ttft-delivery' },
];

/** @param {BarModel} model */
function keyBar({ trace, ghost = null, top = null }) {
  return JSON.stringify([trace.totals.ttft, trace.steps[4].facts.utilization, ghost?.totals.ttft ?? null, top]);
}

/**
 * The stacked segments of a TTFT bar on scale `x` (the known parts; an overloaded queue is left out).
 * @param {TtftTotals} ttft
 * @param {LinearScale} x
 */
function segmentsOf(ttft, x) {
  let start = 0;
  /** @type {Segment[]} */
  const segments = [];
  for (const p of PARTS) {
    const value = ttft[p.key];
    if (value === null) continue;
    const x0 = x(Math.min(start, x.domain()[1]));
    const x1 = x(Math.min(start + value, x.domain()[1]));
    segments.push({ ...p, value, x0, w: Math.max(0, x1 - x0) });
    start += value;
  }
  return { segments, end: start };
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {BarModel} model
 */
function drawBar(svg, width, { trace, ghost = null, top = null }) {
  const ttft = trace.totals.ttft;
  // While comparing (compare.js), the pinned scenario A is a thin grey bar above B's, and the
  // axis is fixed (`top`) so that changing B moves its bar, not the scale.
  const ghostH = ghost ? 14 : 0;
  const height = 118 + (ghost ? ghostH + 8 : 0);
  const m = { top: 22 + (ghost ? ghostH + 8 : 0), right: 16, bottom: 50, left: 16 };
  sizeSvg(svg, width, height, 'ttft');
  const hatch = hatchPattern(svg, 'unbounded');
  const known = (ttft.execution_seconds ?? 0) + (ttft.delivery_seconds ?? 0);
  const end = ttft.overloaded ? known * 2 : ttft.total_seconds;
  const x = top
    ? scaleLinear().domain([0, top]).range([m.left, width - m.right])
    : scaleLinear().domain([0, end || 1e-9]).nice().range([m.left, width - m.right]);
  svg.call(writeAttrs, { 'data-x-domain': x.domain().join(',') });
  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    format: fmt.seconds,
    title: 'Time to first token',
  });
  const bar = { y: m.top, h: height - m.bottom - m.top - 8 };
  const { segments, end: start } = segmentsOf(ttft, x);
  drawGhostBar(svg, ghost, x, { h: ghostH, left: m.left, right: width - m.right });
  ttftParts(svg, 'parts', segments, { y: bar.y, h: bar.h, ghost: false });
  segmentLabels(svg, segments, bar.y, bar.h);
  drawUnbounded(svg, ttft.overloaded, x(Math.min(start, x.domain()[1])), { bar, right: width - m.right, hatch });
}

/**
 * The stacked parts of one TTFT bar (A's, pinned, when `ghost`) at y…y + h, in the part `name`.
 * @param {Sel} svg
 * @param {string} name
 * @param {Segment[]} segments
 * @param {{y: number, h: number, ghost: boolean}} place
 */
function ttftParts(svg, name, segments, { y, h, ghost }) {
  joinMarks(part(svg, name), 'rect', 'ttft-part', segments, (d) => d.key, true)
    .call(writeAttrs, {
      class: (d) => `ttft-part ${ghost ? 'ttft-part--ghost ' : ''}${d.className}`,
      x: (d) => d.x0,
      y,
      width: (d) => d.w,
      height: h,
    })
    .select('title')
    .call(writeText, (d) => `${ghost ? 'A: ' : ''}${d.label}: ${fmt.seconds(d.value)}`);
}

/**
 * The pinned scenario A's bar (`h` high; none without a pin) above B's, and its total beside it.
 * @param {Sel} svg
 * @param {TraceDocument | null} ghost
 * @param {LinearScale} x
 * @param {{h: number, left: number, right: number}} place
 */
function drawGhostBar(svg, ghost, x, { h, left, right }) {
  const ghostSegments = ghost ? segmentsOf(ghost.totals.ttft, x).segments : [];
  ttftParts(svg, 'ghost', ghostSegments, { y: 8, h, ghost: true });
  // A's label just after its bar (before it, when the bar reaches the right edge).
  const ghostEnd = ghostSegments.length ? Math.max(...ghostSegments.map((d) => d.x0 + d.w)) : left;
  const ghostText = ghost ? `A (pinned): ${ghost.totals.ttft.overloaded ? 'overloaded' : fmt.seconds(ghost.totals.ttft.total_seconds)}` : null;
  const ghostRight = ghostEnd + 6 + (ghostText?.length ?? 0) * 6.3 <= right;
  label(svg, 'ghost-label', ghostText, {
    class: 'chart-note',
    x: ghostRight ? ghostEnd + 6 : ghostEnd - 6,
    y: 8 + h - 3,
    'text-anchor': ghostRight ? 'start' : 'end',
  });
}

/**
 * When overloaded, the queue as a hatched stretch from x0 to the chart's right edge, and the verdict.
 * @param {Sel} svg
 * @param {boolean} overloaded
 * @param {number} x0
 * @param {{bar: {y: number, h: number}, right: number, hatch: string}} place
 */
function drawUnbounded(svg, overloaded, x0, { bar, right, hatch }) {
  part(svg, 'unbounded', 'rect').call(writeAttrs, {
    class: 'ttft-part unbounded-area',
    fill: hatch,
    display: overloaded ? null : 'none',
    x: x0,
    y: bar.y,
    width: Math.max(0, right - x0),
    height: bar.h,
  });
  label(svg, 'verdict', overloaded ? 'Overloaded: the queue grows without bound →' : null, {
    class: 'fit-verdict does-not-fit',
    x: right,
    y: bar.y - 6,
    'text-anchor': 'end',
  });
}

/** @param {BarModel} model */
function describeBar({ trace, ghost = null }) {
  const pinned = ghost
    ? ` Pinned scenario A (the thin bar): ${ghost.totals.ttft.overloaded ? 'overloaded' : fmt.seconds(ghost.totals.ttft.total_seconds)}.`
    : '';
  return describeOne(trace) + pinned;
}

/** @param {TraceDocument} trace */
function describeOne(trace) {
  const ttft = trace.totals.ttft;
  const rho = trace.steps[4].facts.utilization;
  if (ttft.overloaded) {
    return (
      `Overloaded: utilization ρ = ${fmt.number(rho, 3)} ≥ 1, so the queue grows without bound and ` +
      `there is no steady time to first token. Execution ${fmt.seconds(ttft.execution_seconds)}, ` +
      `delivery ${fmt.seconds(ttft.delivery_seconds)}.`
    );
  }
  return (
    `Time to first token ${fmt.seconds(ttft.total_seconds)} = queueing ` +
    `${fmt.seconds(ttft.queue_seconds)} + execution ${fmt.seconds(ttft.execution_seconds)} + ` +
    `delivery ${fmt.seconds(ttft.delivery_seconds)} (utilization ρ = ${fmt.number(rho, 3)}).`
  );
}

/** @param {BarModel} model */
function tableBar({ trace }) {
  const ttft = trace.totals.ttft;
  return tableData(
    'Time to first token',
    ['Part', 'Seconds'],
    [
      ...PARTS.map((p) => [p.label, ttft[p.key] === null ? 'unbounded (overloaded)' : fmt.seconds(ttft[p.key])]),
      ['Total', ttft.total_seconds === null ? 'unbounded (overloaded)' : fmt.seconds(ttft.total_seconds)],
    ],
  );
}

/**
 * The TTFT bar, with a "Hold this axis" box: checked, the axis stops following each scenario
 * (it is only widened when a bar would run off it), so moving a control moves the bar, not the
 * scale. `onHold(held)` gets the box's state.
 * @param {(held: boolean) => void} [onHold]
 */
export function ttftChart(onHold = () => {}) {
  const hold = /** @type {HTMLInputElement} */ (h('input', { type: 'checkbox', id: 'ttft-hold' }));
  hold.addEventListener('change', () => onHold(hold.checked));
  const extra = [h('p', { class: 'chart-option' }, h('label', { for: 'ttft-hold' }, hold, ' Hold this axis while I change the scenario'))];
  const parts = { draw: drawBar, describe: describeBar, table: tableBar, key: keyBar };
  return chartPanel(
    'chart-ttft',
    'Time to first token',
    parts,
    [
      ...PARTS.map((p) => /** @type {import('./common.js').LegendItem} */ ({ kind: 'bar', className: `ttft-part ${p.className}`, label: p.label })),
      { kind: 'hatch', className: 'unbounded', label: 'Unbounded queue (overloaded)' },
    ],
    extra,
  );
}
