// A sweep of TTFT against prompt length or arrival rate, computed by the engine in one call
// (the TTFT bar is ttft.js). When the queue is overloaded the engine gives no queue time (null):
// the sweep leaves those points out, shading the overloaded range.

import { scaleLinear, scaleLog } from 'd3-scale';
import { line } from 'd3-shape';
import { h } from '../dom.js';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, decadeTicks, hatchPattern, joinMarks, label, leftAxis, part, sizeSvg, tableData, verticalRule } from './common.js';
import { DragHandle } from './drag.js';
import { writeAttrs } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('prefill-trace').SweepPoint} SweepPoint */
/** @typedef {'prompt_tokens' | 'arrival_rate'} SweepVariable */
/** @typedef {{points: SweepPoint[], variable: SweepVariable, trace: TraceDocument, scale?: string}} SweepModel */
/** The current scenario's point on the sweep. @typedef {{value: number, total_seconds: number | null}} CurrentPoint */
/**
 * The sweep's axes and the drawing's size.
 * @typedef {{x: import('d3-scale').ScaleContinuousNumeric<number, number>, y: import('d3-scale').ScaleContinuousNumeric<number, number>, width: number, height: number, m: {top: number, right: number, bottom: number, left: number}}} SweepFrame
 */
/**
 * The sweep's panel, with setters for its radio groups' choices.
 * @typedef {import('./common.js').ChartPanel<SweepModel> & {setVariable: (value: string) => void, setScale: (value: string) => void}} SweepPanel
 */

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
