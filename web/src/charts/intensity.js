// @ts-check
// The reuse claim as one picture: the arithmetic intensity of each step-2 projection against
// the prompt length, with the accelerator's ridge point drawn across. Below the ridge a
// projection is memory-bound (its weights are loaded for too few token rows); the curve crosses
// it where enough rows share each weight load. Both axes are fixed (1 to 131,072 tokens; 0.1 to
// 100,000 FLOP/byte), so changing the model, the precision or the accelerator moves the curves
// and the ridge, never the scale. The points are the engine's: one traceFigures call per prompt
// length (explorer.js), each operator's intensity read from its figures.

import { scaleLog } from 'd3-scale';
import { line } from 'd3-shape';
import * as fmt from '../format.js';
import {
  bottomAxis,
  chartPanel,
  decadeTicks,
  joinMarks,
  label,
  leftAxis,
  operatorLabel,
  part,
  sizeSvg,
  tableData,
  verticalRule,
} from './common.js';
import { DragHandle } from './drag.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').Sel} Sel */
/** One prompt length's intensity of a projection. @typedef {{prompt: number, intensity: number}} CurvePoint */
/**
 * The projections' intensity at each of curvePrompts() (explorer/chart-inputs.js computes it
 * with the engine); `id` names what it was computed for.
 * @typedef {{id: number, series: {name: string, points: CurvePoint[]}[]}} IntensityCurve
 */
/** @typedef {{trace: TraceDocument, curve: IntensityCurve}} IntensityModel */

/** @type {readonly [number, number]} */
export const PROMPT_DOMAIN = Object.freeze([1, 131072]);
/** @type {readonly [number, number]} */
export const INTENSITY_AXIS = Object.freeze([0.1, 1e5]);

/** The prompt lengths the curve is computed at: every power of two from 1 to 131,072. */
export function curvePrompts() {
  return Array.from({ length: 18 }, (_, i) => 2 ** i);
}

/**
 * The projection operators: the step-2 GEMMs (their names come from the trace).
 * @param {TraceDocument} trace
 */
export function projectionNames(trace) {
  return (trace.steps[1]?.facts?.projections ?? []).map((p) => p.name);
}

const clamp = (/** @type {number} */ v) => Math.min(INTENSITY_AXIS[1], Math.max(INTENSITY_AXIS[0], v));

/** @param {IntensityModel} model */
function key({ curve, trace }) {
  return JSON.stringify([curve.id, trace.scenario.prompt_tokens, trace.scenario.batch, trace.roofline.ridge_flops_per_byte]);
}

/**
 * Draws the chart; returns where the current prompt's handle goes (drag.js DragHandle.place).
 * @param {Sel} svg
 * @param {number} width
 * @param {IntensityModel} model
 * @returns {import('./drag.js').HandlePlace}
 */
function draw(svg, width, { curve, trace }) {
  const height = width < 480 ? 280 : 320;
  const m = { top: 14, right: 16, bottom: 50, left: 62 };
  sizeSvg(svg, width, height, 'intensity');
  const x = scaleLog().domain(PROMPT_DOMAIN).range([m.left, width - m.right]);
  const y = scaleLog().domain(INTENSITY_AXIS).range([height - m.bottom, m.top]);
  svg.call(writeAttrs, { 'data-x-domain': x.domain().join(','), 'data-y-domain': y.domain().join(',') });
  bottomAxis(svg, x, { y: height - m.bottom, width: width - m.left - m.right, ticks: decadeTicks(x, Math.floor((width - 80) / 48)), title: 'Prompt tokens (log scale)' });
  leftAxis(svg, y, { x: m.left, height: height - m.top - m.bottom, ticks: decadeTicks(y, 7), title: 'Intensity (FLOP/byte, log)', titleOffset: 46 });

  const ridge = trace.roofline.ridge_flops_per_byte;
  part(svg, 'ridge', 'line').call(writeAttrs, { class: 'ridge', x1: m.left, x2: width - m.right, y1: y(clamp(ridge)), y2: y(clamp(ridge)) });
  // Under the line at the right, where the curves have climbed above it.
  label(svg, 'ridge-label', `ridge ${fmt.number(ridge, 3)} FLOP/byte${width < 480 ? '' : ': above it, compute-bound'}`, {
    class: 'chart-note',
    x: width - m.right - 4,
    y: y(clamp(ridge)) + 15,
    'text-anchor': 'end',
  });

  const path = /** @type {import('d3-shape').Line<CurvePoint>} */ (line())
    .defined((p) => p.intensity > 0)
    .x((p) => x(p.prompt))
    .y((p) => y(clamp(p.intensity)));
  joinMarks(part(svg, 'curves'), 'path', 'intensity-line', curve.series, (s) => s.name, true)
    .call(writeAttrs, { class: (s, i) => `intensity-line series-${i}`, d: (s) => path(s.points) })
    .select('title')
    .call(writeText, (s) => operatorLabel(s.name));

  const here = trace.scenario.prompt_tokens;
  const hx = x(Math.min(PROMPT_DOMAIN[1], Math.max(PROMPT_DOMAIN[0], here)));
  verticalRule(svg, 'current', 'current-rule', hx, m.top, height - m.bottom);
  const projections = trace.steps[1].facts.projections;
  joinMarks(part(svg, 'current-dots'), 'circle', 'current-dot', projections, (p) => p.name)
    .call(writeAttrs, { cx: hx, cy: (p) => y(clamp(p.intensity)), r: 4 });
  label(svg, 'current-label', `current: ${fmt.count(here)}`, {
    class: 'chart-note',
    x: hx + (hx > width * 0.65 ? -10 : 10), // clear of the handle's knob (drag.js)
    y: height - m.bottom - 6,
    'text-anchor': hx > width * 0.65 ? 'end' : 'start',
  });
  return { width, height, x, value: here, y1: m.top, y2: height - m.bottom, knobY: height - m.bottom };
}

/** @param {IntensityModel} model */
function describe({ trace }) {
  const qkv = trace.steps[1].facts.projections[0];
  const rows = qkv?.rows_to_reach_ridge;
  const batch = trace.scenario.batch;
  return (
    `Projection intensity against prompt length, ${fmt.count(PROMPT_DOMAIN[0])} to ${fmt.count(PROMPT_DOMAIN[1])} tokens` +
    (batch > 1 ? ` at ${fmt.count(batch)} requests a batch` : '') +
    `: the ${operatorLabel(qkv?.name ?? 'projection')} crosses the ridge point (${fmt.intensity(trace.roofline.ridge_flops_per_byte)}) ` +
    (rows === null || rows === undefined ? 'at no prompt length' : `at ${fmt.count(rows)} token rows in one pass`) +
    `; at the current ${fmt.count(trace.scenario.prompt_tokens)} tokens it does ${fmt.intensity(qkv?.intensity)}.`
  );
}

/** @param {IntensityModel} model */
function table({ curve }) {
  const prompts = curve.series[0]?.points.map((p) => p.prompt) ?? [];
  return tableData(
    'Projection intensity (FLOP/byte) by prompt length',
    ['Prompt tokens', ...curve.series.map((s) => operatorLabel(s.name))],
    prompts.map((prompt, i) => [fmt.count(prompt), ...curve.series.map((s) => fmt.number(s.points[i]?.intensity, 4))]),
  );
}

/**
 * The intensity chart; with `onPrompt`, the current prompt length is a handle (drag.js) that
 * reports a new length as `onPrompt(tokens, commit)`.
 * @param {((tokens: number, commit: boolean) => void) | null} [onPrompt]
 */
export function intensityChart(onPrompt = null) {
  /** @type {DragHandle | null} */
  let handle = null;
  /** @type {(svg: Sel, width: number, model: IntensityModel) => void} */
  const drawWithHandle = (svg, width, model) => {
    const place = draw(svg, width, model);
    handle?.place(place);
  };
  /** @type {import('./common.js').LegendItem[]} */
  const legendItems = [
    { kind: 'bar', className: 'intensity-swatch series-0', label: 'Q/K/V projection' },
    { kind: 'bar', className: 'intensity-swatch series-1', label: 'output projection' },
    { kind: 'bar', className: 'intensity-swatch series-2', label: 'MLP up (and gate)' },
    { kind: 'bar', className: 'intensity-swatch series-3', label: 'MLP down' },
    { kind: 'rule', className: 'ridge', label: 'ridge point' },
  ];
  const panel = chartPanel('chart-intensity', 'Weight reuse: projection intensity against prompt length', { draw: drawWithHandle, describe, table, key }, legendItems);
  if (onPrompt) {
    handle = new DragHandle(panel.canvas, {
      label: 'Prompt tokens on the chart',
      format: (v) => `${fmt.count(v)} ${v === 1 ? 'token' : 'tokens'}`,
      snap: (v) => Math.max(PROMPT_DOMAIN[0], Math.round(v)),
      onChange: onPrompt,
    });
  }
  return panel;
}
