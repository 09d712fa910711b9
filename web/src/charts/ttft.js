// @ts-check
// Time to first token: queueing + execution + first-token delivery as one stacked bar, and a
// sweep of TTFT against prompt length or arrival rate computed by the engine in one call.
// When the queue is overloaded the engine gives no queue time (null): the bar shows an
// unbounded hatched queue and the sweep leaves those points out, shading the overloaded range.

import { scaleLinear, scaleLog } from 'd3-scale';
import { line } from 'd3-shape';
import { h } from '../dom.js';
import * as fmt from '../format.js';
import {
  bottomAxis,
  chartPanel,
  decadeTicks,
  hatchPattern,
  joinMarks,
  label,
  leftAxis,
  part,
  segmentLabels,
  sizeSvg,
  tableData,
  verticalRule,
} from './common.js';
import { DragHandle } from './drag.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('prefill-trace').SweepPoint} SweepPoint */
/** @typedef {import('prefill-trace').TtftTotals} TtftTotals */
/** @typedef {import('d3-scale').ScaleLinear<number, number>} LinearScale */
/**
 * The TTFT bar's model: the trace, the pinned scenario's trace (compare.js; null when none) and
 * the held axis's end (null: the axis follows the bar).
 * @typedef {{trace: TraceDocument, ghost?: TraceDocument | null, top?: number | null}} BarModel
 */
/** @typedef {'prompt_tokens' | 'arrival_rate'} SweepVariable */
/** @typedef {{points: SweepPoint[], variable: SweepVariable, trace: TraceDocument, scale?: string}} SweepModel */
/** The current scenario's point on the sweep. @typedef {{value: number, total_seconds: number | null}} CurrentPoint */
/**
 * The sweep's axes and the drawing's size.
 * @typedef {{x: import('d3-scale').ScaleContinuousNumeric<number, number>, y: import('d3-scale').ScaleContinuousNumeric<number, number>, width: number, height: number, m: {top: number, right: number, bottom: number, left: number}}} SweepFrame
 */
/** @typedef {{key: 'queue_seconds' | 'execution_seconds' | 'delivery_seconds', label: string, className: string}} TtftPart */
/** @typedef {TtftPart & {value: number, x0: number, w: number}} Segment */
/**
 * The sweep's panel, with setters for its radio groups' choices.
 * @typedef {import('./common.js').ChartPanel<SweepModel> & {setVariable: (value: string) => void, setScale: (value: string) => void}} SweepPanel
 */

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

// --- Sweep -------------------------------------------------------------------------------

/**
 * @type {Record<SweepVariable, {label: string, choice: string, axis: string, format: (v: number) => string, current: (trace: TraceDocument) => number, handle: string, snap: (v: number) => number}>}
 */
export const SWEEP_VARIABLES = {
  prompt_tokens: {
    label: 'Prompt length',
    choice: 'prompt length (T)',
    axis: 'Prompt tokens (log scale)',
    format: (v) => `${fmt.count(v)} ${v === 1 ? 'token' : 'tokens'}`,
    current: (trace) => trace.scenario.prompt_tokens,
    handle: 'Prompt tokens on the sweep',
    snap: (v) => Math.max(1, Math.round(v)),
  },
  arrival_rate: {
    label: 'Arrival rate',
    choice: 'arrival rate (λ)',
    axis: 'Arrival rate (requests/s, log scale)',
    format: (v) => fmt.rate(v),
    current: (trace) => trace.scenario.arrival_rate,
    handle: 'Arrival rate on the sweep',
    // Four significant digits, as the rate's field shows a rate the page sets (catalog.js).
    snap: (v) => (v > 0 ? Number(v.toPrecision(4)) : 0),
  },
};

const SWEEP_POINTS = 320;
const PROMPT_SWEEP_TOP = 131072;

/**
 * @param {number} lo
 * @param {number} hi
 * @param {number} count
 */
function logSpaced(lo, hi, count) {
  const a = Math.log10(lo);
  const b = Math.log10(hi);
  return Array.from({ length: count }, (_, i) => 10 ** (a + ((b - a) * i) / (count - 1)));
}

/**
 * The values to sweep, log-spaced: 1…131,072 tokens (or to the current prompt, if longer); or
 * arrival rates centred on the knee, from 10⁻³·λsat to 2·λsat, where λsat (the trace's
 * `saturation_arrival_rate`) is the rate at which utilization reaches 1 — widened to take in
 * the current rate. The current value is not among them: its marker is drawn from the trace
 * itself, so the sweep does not change while only the swept value moves (a slider drag).
 * @param {SweepVariable} variable
 * @param {TraceDocument} trace
 */
export function sweepValues(variable, trace) {
  const current = SWEEP_VARIABLES[variable].current(trace);
  if (variable === 'prompt_tokens') {
    const top = Math.max(PROMPT_SWEEP_TOP, Number.isFinite(current) ? current : 0);
    return [...new Set(logSpaced(1, top, SWEEP_POINTS).map(Math.round))];
  }
  const saturation = trace.steps[4]?.facts?.saturation_arrival_rate;
  const knee = saturation !== undefined && Number.isFinite(saturation) && saturation > 0 ? saturation : 1;
  let lo = knee * 1e-3;
  let hi = knee * 2;
  if (Number.isFinite(current) && current > 0) {
    lo = Math.min(lo, current / 1.25);
    hi = Math.max(hi, current * 1.25);
  }
  return logSpaced(lo, hi, SWEEP_POINTS);
}

/**
 * The point the current scenario marks on the sweep (from the trace), or null.
 * @param {SweepVariable} variable
 * @param {TraceDocument} trace
 * @returns {CurrentPoint | null}
 */
function currentPoint(variable, trace) {
  const value = SWEEP_VARIABLES[variable].current(trace);
  if (!(Number.isFinite(value) && value > 0)) return null;
  return { value, total_seconds: trace.totals.ttft.total_seconds };
}

// A sweep's points are recomputed only when the scenario (apart from the swept value) changes:
// the same array means the same curve.
/**
 * @type {WeakMap<SweepPoint[], number>}
 */
const sweepIds = new WeakMap();
let nextSweepId = 0;

/** @param {SweepModel} model */
function keySweep({ points, variable, trace, scale = 'log' }) {
  if (!sweepIds.has(points)) sweepIds.set(points, (nextSweepId += 1));
  return JSON.stringify([variable, sweepIds.get(points), currentPoint(variable, trace), trace.scenario.arrival_rate, scale]);
}

/**
 * The top of the linear TTFT axis: against arrival rate, ten times the least TTFT on the curve
 * (the wait grows without bound near saturation, and a linear axis up to the largest finite value
 * would flatten the knee into the floor); against prompt length, the largest; at least the
 * current point.
 * @param {SweepPoint[]} points
 * @param {CurrentPoint | null} here
 * @param {SweepVariable} [variable]
 */
export function linearTop(points, here, variable = 'arrival_rate') {
  const finite = points.map((p) => p.total_seconds).filter((v) => v !== null).filter((v) => v > 0);
  if (!finite.length) return 1;
  const most = Math.max(...finite);
  const cap = variable === 'arrival_rate' ? Math.min(most, 10 * Math.min(...finite)) : most;
  return Math.max(cap, here?.total_seconds ?? 0);
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {SweepModel} model
 * @returns {import('./drag.js').HandlePlace}
 */
function drawSweep(svg, width, { points, variable, trace, scale = 'log' }) {
  const spec = SWEEP_VARIABLES[variable];
  const linear = scale === 'linear';
  const height = width < 480 ? 260 : 300;
  const m = { top: 14, right: 16, bottom: 50, left: 70 };
  sizeSvg(svg, width, height, 'sweep');
  const hatch = hatchPattern(svg, 'unbounded');
  const here = currentPoint(variable, trace);
  const { x, y } = sweepScales(points, here, variable, linear, { width, height, m });
  svg.call(writeAttrs, { 'data-x-domain': x.domain().join(','), 'data-y-domain': y.domain().join(',') });
  const axisName = linear ? spec.axis.replace(', log scale', '').replace(' (log scale)', '') : spec.axis;
  bottomAxis(svg, x, {
    y: height - m.bottom,
    ticks: linear ? undefined : decadeTicks(x, Math.floor((width - 80) / 48)),
    width: width - m.left - m.right,
    title: axisName,
  });
  leftAxis(svg, y, {
    x: m.left,
    ticks: linear ? undefined : decadeTicks(y, 7),
    height: height - m.top - m.bottom,
    format: fmt.seconds,
    title: linear ? 'Seconds' : 'Seconds (log scale)',
    titleOffset: 58,
  });
  /** @type {SweepFrame} */
  const frame = { x, y, width, height, m };
  drawOverloadedRange(svg, points.find((p) => p.overloaded), hatch, frame);
  const top = y.domain()[1];
  const curve = (/** @type {'execution_seconds' | 'total_seconds'} */ key) =>
      /** @type {import('d3-shape').Line<SweepPoint>} */ (line())
      .defined((p) => { const v = p[key]; return v !== null && v > 0 && v <= top * 1.0001 && p.value >= x.domain()[0]; })
      .x((p) => x(p.value))
      .y((p) => y(/** @type {number} */ (p[key])));
  part(svg, 'execution', 'path').call(writeAttrs, { class: 'sweep-line sweep-execution', d: curve('execution_seconds')(points) });
  part(svg, 'total', 'path').call(writeAttrs, { class: 'sweep-line sweep-total', d: curve('total_seconds')(points) });
  drawCurrent(svg, here, frame);
  // The handle sits on the current point, or at the axis's start when the scenario has none
  // (an arrival rate of 0: no queue), reading the scenario's own value.
  const shown = spec.current(trace);
  return {
    width,
    height,
    x,
    value: here ? here.value : x.domain()[0],
    shown: Number.isFinite(shown) ? shown : 0,
    y1: m.top,
    y2: height - m.bottom,
    knobY: height - m.bottom,
    label: spec.handle,
    format: spec.format,
    snap: spec.snap,
  };
}

/**
 * The sweep's scales: x over the swept values (from 0 on linear axes); y over the TTFTs and
 * execution times on the curve and the current point's, in whole decades (log), or from 0 to
 * linearTop (linear).
 * @param {SweepPoint[]} points
 * @param {CurrentPoint | null} here
 * @param {SweepVariable} variable
 * @param {boolean} linear
 * @param {{width: number, height: number, m: SweepFrame['m']}} size
 * @returns {{x: SweepFrame['x'], y: SweepFrame['y']}}
 */
function sweepScales(points, here, variable, linear, { width, height, m }) {
  const xDomain = [linear ? 0 : points[0].value, points[points.length - 1].value];
  const x = (linear ? scaleLinear() : scaleLog()).domain(xDomain).range([m.left, width - m.right]);
  const ys = points
    .flatMap((p) => [p.total_seconds, p.execution_seconds])
    .concat(here?.total_seconds ?? [])
    .filter((v) => v !== null)
    .filter((v) => v > 0);
  const lo = Math.min(...ys);
  const hi = Math.max(...ys);
  const y = linear
    ? scaleLinear().domain([0, linearTop(points, here, variable)]).nice().range([height - m.bottom, m.top])
    : scaleLog()
        .domain([10 ** Math.floor(Math.log10(lo)), 10 ** Math.ceil(Math.log10(hi * 1.01))])
        .range([height - m.bottom, m.top]);
  return { x, y };
}

/**
 * The overloaded range, hatched from its first point (`firstOverloaded`, or none) to the right edge, labelled.
 * @param {Sel} svg
 * @param {SweepPoint | undefined} firstOverloaded
 * @param {string} hatch
 * @param {SweepFrame} frame
 */
function drawOverloadedRange(svg, firstOverloaded, hatch, { x, width, height, m }) {
  const area = part(svg, 'overloaded', 'rect').call(writeAttrs, { class: 'unbounded-area', fill: hatch, display: firstOverloaded ? null : 'none' });
  const x0 = firstOverloaded ? x(firstOverloaded.value) : 0;
  if (firstOverloaded) {
    area.call(writeAttrs, { x: x0, y: m.top, width: Math.max(0, width - m.right - x0), height: height - m.bottom - m.top });
  }
  label(svg, 'overloaded-label', firstOverloaded ? 'overloaded' : null, {
    class: 'fit-verdict does-not-fit',
    x: Math.min(x0 + 6, width - m.right - 70),
    y: m.top + 14,
  });
}

/**
 * The current scenario's marker (`here`, or none): a rule, its dot on the TTFT curve when on the axis, a label.
 * @param {Sel} svg
 * @param {CurrentPoint | null} here
 * @param {SweepFrame} frame
 */
function drawCurrent(svg, here, { x, y, width, height, m }) {
  const top = y.domain()[1];
  const cx = here ? x(here.value) : 0;
  const marker = part(svg, 'current').call(writeAttrs, { display: here ? null : 'none' });
  verticalRule(marker, 'rule', 'current-rule', cx, m.top, height - m.bottom);
  joinMarks(part(marker, 'dot'), 'circle', 'current-dot', here && here.total_seconds !== null && here.total_seconds <= top * 1.0001 ? [here] : [])
    .call(writeAttrs, { cx, cy: (d) => y(d.total_seconds), r: 4.5 });
  label(marker, 'label', 'current', {
    class: 'chart-note',
    x: cx + (cx > width * 0.65 ? -10 : 10), // clear of the handle's knob (drag.js)
    y: height - m.bottom - 6,
    'text-anchor': cx > width * 0.65 ? 'end' : 'start',
  });
}

/** @param {SweepModel} model */
function describeSweep({ points, variable, trace, scale = 'log' }) {
  const spec = SWEEP_VARIABLES[variable];
  const finite = points.filter((p) => p.total_seconds !== null);
  const firstOverloaded = points.find((p) => p.overloaded);
  const parts = [
    `TTFT against ${spec.label.toLowerCase()}, ${points.length} points from ` +
      `${spec.format(points[0].value)} to ${spec.format(points[points.length - 1].value)}`,
  ];
  if (finite.length) {
    // The least and the most TTFT on the curve, the current point included (the curve's last
    // finite point is not its maximum when the current point lies between it and the overload).
    const here = currentPoint(variable, trace);
    const values = finite.map((p) => /** @type {number} */ (p.total_seconds)).concat(here?.total_seconds ?? []);
    parts.push(`TTFT from ${fmt.seconds(Math.min(...values))} to ${fmt.seconds(Math.max(...values))}`);
  }
  if (firstOverloaded) parts.push(`overloaded from ${spec.format(firstOverloaded.value)} on`);
  const current = spec.current(trace);
  const here = currentPoint(variable, trace);
  if (here) {
    parts.push(
      `current ${spec.format(here.value)}: ` +
        `${here.total_seconds === null ? 'overloaded' : fmt.seconds(here.total_seconds)}`,
    );
  }
  if (variable === 'arrival_rate' && !(current > 0)) parts.push('current rate 0: no queue');
  if (scale === 'linear') parts.push(`linear axes, TTFT shown up to ${fmt.seconds(linearTop(points, here, variable))}`);
  return `${parts.join('; ')}.`;
}

/** @param {SweepModel} model */
function tableSweep({ points, variable }) {
  const spec = SWEEP_VARIABLES[variable];
  // Every 16th point keeps the table readable; the chart holds all of them.
  const sample = points.filter((_, i) => i % 16 === 0 || i === points.length - 1);
  return tableData(
    `TTFT sweep (every 16th of ${points.length} points)`,
    [spec.label, 'Queueing', 'Execution', 'Delivery', 'TTFT'],
    sample.map((p) => [
      spec.format(p.value),
      p.queue_seconds === null ? 'unbounded' : fmt.seconds(p.queue_seconds),
      fmt.seconds(p.execution_seconds),
      fmt.seconds(p.delivery_seconds),
      p.total_seconds === null ? 'overloaded' : fmt.seconds(p.total_seconds),
    ]),
  );
}

/**
 * The sweep's "Sweep TTFT against" and "Axes" radio groups, each in a form of its own: radio
 * buttons outside a form are grouped by name across the whole shadow root, and Chromium kept a
 * removed rendering's buttons (and through them its explorer) in that group until the element
 * was removed (issue 24, W5). Returns the forms and a setter for each group.
 * @param {(variable: string) => void} onVariable
 * @param {(scale: string) => void} onScale
 */
function sweepOptions(onVariable, onScale) {
  /**
   * @param {string} legend
   * @param {string} name
   * @param {string[][]} choices  [value, text] each
   */
  const radios = (legend, name, choices) => {
    const set = h(
      'fieldset',
      { class: 'segmented' },
      h('legend', {}, legend),
      choices.map(([value, text], i) => h('label', {}, h('input', { type: 'radio', name, value, checked: i === 0 }), ' ', text)),
    );
    const select = (/** @type {string} */ value) => {
      for (const input of set.querySelectorAll('input')) input.checked = input.value === value;
    };
    return { set, select };
  };
  const variables = radios('Sweep TTFT against', 'sweep-variable', Object.entries(SWEEP_VARIABLES).map(([value, spec]) => [value, spec.choice]));
  const scales = radios('Axes', 'sweep-scale', [['log', 'log'], ['linear', 'linear']]);
  variables.set.addEventListener('change', (event) => onVariable(/** @type {HTMLInputElement} */ (event.target).value));
  scales.set.addEventListener('change', (event) => onScale(/** @type {HTMLInputElement} */ (event.target).value));
  return {
    forms: [
      h('form', { class: 'sweep-variable-form', 'aria-label': 'Sweep TTFT against' }, variables.set),
      h('form', { class: 'sweep-scale-form', 'aria-label': 'Axes' }, scales.set),
    ],
    setVariable: variables.select,
    setScale: scales.select,
  };
}

/**
 * The sweep chart with its "Sweep TTFT against" and "Axes" radio groups; `onVariable` gets the new
 * variable, `onScale` the new scale ('log' | 'linear': linear shows the queueing knee as a
 * knee, where the log axes squeeze it); with `onValue`, the current point is a handle (drag.js)
 * that sets the swept variable, reported as `onValue(variable, value, commit)`.
 * @param {(variable: string) => void} onVariable
 * @param {(scale: string) => void} [onScale]
 * @param {((variable: SweepVariable, value: number, commit: boolean) => void) | null} [onValue]
 * @returns {SweepPanel}
 */
export function sweepChart(onVariable, onScale = () => {}, onValue = null) {
  const options = sweepOptions(onVariable, onScale);
  /** @type {DragHandle | null} */
  let handle = null;
  /** @type {(svg: Sel, width: number, model: SweepModel) => void} */
  const draw = (svg, width, model) => {
    const place = drawSweep(svg, width, model);
    handle?.place(place);
  };
  const parts = { draw, describe: describeSweep, table: tableSweep, key: keySweep };
  const panel = /** @type {SweepPanel} */ (chartPanel(
    'chart-sweep',
    'TTFT sweep',
    parts,
    [
      { kind: 'bar', className: 'sweep-swatch sweep-total', label: 'Time to first token' },
      { kind: 'bar', className: 'sweep-swatch sweep-execution', label: 'Execution alone' },
      { kind: 'hatch', className: 'unbounded', label: 'Overloaded' },
    ],
    options.forms,
  ));
  panel.setVariable = options.setVariable;
  panel.setScale = options.setScale;
  if (onValue) {
    const first = SWEEP_VARIABLES.prompt_tokens;
    handle = new DragHandle(panel.canvas, {
      label: first.handle,
      format: first.format,
      snap: first.snap,
      onChange: (value, commit) => onValue(panel.model?.variable ?? 'prompt_tokens', value, commit),
    });
  }
  return panel;
}
