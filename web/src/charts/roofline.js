// @ts-check
// Roofline (log–log): arithmetic intensity against attainable FLOP/s, with the accelerator's
// memory slope and compute roof, the ridge point, and each operator as a point at the rate the
// engine's time gives it (useful FLOPs / modelled seconds, per kernel instance).

import { scaleLog } from 'd3-scale';
import { line, symbol, symbolCircle, symbolDiamond, symbolSquare, symbolTriangle } from 'd3-shape';
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
  spreadLabels,
  tableData,
  verticalRule,
} from './common.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').TraceDocument} TraceDocument */
/** @typedef {import('./common.js').TraceOperator} TraceOperator */
/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('d3-scale').ScaleLogarithmic<number, number>} Scale */
/**
 * The roofline's model: the trace, the selected step's operators (null: none selected) and the
 * pinned scenario's trace drawn behind it (compare.js; null when none).
 * @typedef {{trace: TraceDocument, highlight?: Set<string> | null, ghost?: TraceDocument | null}} RooflineModel
 */
/** @typedef {{peak: number | null, bandwidth: number | null, ridge: number | null}} Roofs */
/** An operator placed on the chart: its intensity (x) and attained FLOP/s (y). @typedef {{op: TraceOperator, x: number, y: number}} Point */
/**
 * The axes and the drawing's size; px and py place a value, clamped to the axis.
 * @typedef {{x: Scale, y: Scale, px: (v: number) => number, py: (v: number) => number, width: number, height: number, m: {top: number, right: number, bottom: number, left: number}}} Frame
 */

/**
 * @type {Record<import('prefill-trace').Bound, import('d3-shape').SymbolType>}
 */
const SYMBOLS = {
  memory: symbolCircle,
  compute: symbolSquare,
  overhead: symbolTriangle,
  interconnect: symbolDiamond,
};
/**
 * @type {Map<string, string | null>}
 */
const SYMBOL_PATHS = new Map();

/**
 * The d attribute of an operator's mark (a handful of shapes and sizes: computed once each).
 * @param {import('prefill-trace').Bound} bound
 * @param {number} size
 */
function symbolPath(bound, size) {
  const key = `${bound}:${size}`;
  if (!SYMBOL_PATHS.has(key)) SYMBOL_PATHS.set(key, symbol(SYMBOLS[bound] ?? symbolCircle, size)());
  return SYMBOL_PATHS.get(key);
}

/**
 * The effective roofs the engine used (the trace's `roofline`): P, the activation format's peak
 * FLOP/s × η_c; β, the memory bandwidth × η_m; and the ridge P/β.
 * @param {TraceDocument} trace
 * @returns {Roofs}
 */
export function roofsOf(trace) {
  /** @type {Partial<TraceDocument['roofline']>} */
  const r = trace.roofline ?? {};
  return {
    peak: r.peak_flops !== undefined && r.peak_flops > 0 ? r.peak_flops : null,
    bandwidth: r.bandwidth !== undefined && r.bandwidth > 0 ? r.bandwidth : null,
    ridge: r.ridge_flops_per_byte !== undefined && r.ridge_flops_per_byte > 0 ? r.ridge_flops_per_byte : null,
  };
}

/** Operators that do arithmetic (a zero intensity has no place on a log axis). */
/**
 * @param {TraceDocument} trace
 * @returns {Point[]}
 */
function plotted(trace) {
  return trace.operators
    .filter((op) => op.flops > 0 && op.seconds > 0 && op.intensity > 0)
    .map((op) => ({ op, x: op.intensity, y: op.flops / op.seconds }));
}

/**
 * The intensity axis, the same for every scenario: 0.01 to 100,000 FLOP/byte holds every
 * operator the engine models (norms and gathers near 1, long-prompt attention in the
 * thousands); an operator outside is drawn at the edge.
 * @type {readonly [number, number]}
 */
export const INTENSITY_DOMAIN = Object.freeze([1e-2, 1e5]);

/**
 * The rate axis of an accelerator, fixed whatever the scenario (precision, timing, model): from
 * the decade below its memory slope at the axis's lowest intensity to the decade above 1.5 × its
 * highest peak of any number format. Changing the prompt, the model or the precision moves the
 * points, never the axes; only another accelerator (A's, when comparing) widens them.
 * @param {{peak_flops?: Record<string, number>, memory_bandwidth?: number} | null | undefined} hardware
 * @returns {[number, number]}
 */
export function rateDomain(hardware) {
  const peaks = Object.values(hardware?.peak_flops ?? {}).filter((v) => v > 0);
  const peak = peaks.length ? Math.max(...peaks) : 1e15;
  const bandwidth = hardware?.memory_bandwidth !== undefined && hardware.memory_bandwidth > 0 ? hardware.memory_bandwidth : 1e12;
  return [10 ** Math.floor(Math.log10(bandwidth * INTENSITY_DOMAIN[0] * 0.5)), 10 ** Math.ceil(Math.log10(peak * 1.5))];
}

/**
 * Keeps a value inside a log domain (a point outside is drawn at the edge).
 * @param {number} value
 * @param {number[]} domain
 */
function clamp(value, [lo, hi]) {
  return Math.min(hi, Math.max(lo, value));
}

/** @param {RooflineModel} model */
function key({ trace, highlight, ghost }) {
  return JSON.stringify([
    ghost ? ghost.operators.map((op) => [op.name, op.intensity, op.flops, op.seconds]) : null,
    ghost?.roofline ?? null,
    trace.operators.map((op) => [op.name, op.step, op.intensity, op.flops, op.seconds, op.bound]),
    trace.roofline,
    highlight ? [...highlight] : null,
    trace.scenario.model.name,
    trace.scenario.hardware.name,
    (trace.steps[1]?.facts?.projections ?? []).map((p) => [p.intensity, p.bound]),
  ]);
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {RooflineModel} model
 */
function draw(svg, width, { trace, highlight, ghost = null }) {
  const height = width < 480 ? 300 : 340;
  const m = { top: 16, right: 14, bottom: 50, left: 58 };
  sizeSvg(svg, width, height, 'roofline');
  const x = scaleLog().domain(INTENSITY_DOMAIN).range([m.left, width - m.right]);
  const domains = [rateDomain(trace.scenario.hardware)];
  if (ghost) domains.push(rateDomain(ghost.scenario.hardware));
  const yDomain = [Math.min(...domains.map((d) => d[0])), Math.max(...domains.map((d) => d[1]))];
  const y = scaleLog().domain(yDomain).range([height - m.bottom, m.top]);
  // The axes a test (or a host) can read: they change only with the accelerator(s).
  svg.call(writeAttrs, { 'data-x-domain': x.domain().join(','), 'data-y-domain': y.domain().join(',') });
  // Everything a part of the drawing places by: the scales, a point's position (clamped into
  // the axes), the size and the margins.
  /** @type {Frame} */
  const frame = { x, y, px: (v) => x(clamp(v, x.domain())), py: (v) => y(clamp(v, y.domain())), width, height, m };

  bottomAxis(svg, x, {
    y: height - m.bottom,
    width: width - m.left - m.right,
    ticks: decadeTicks(x, Math.floor((width - 80) / 45)),
    title: 'Arithmetic intensity (FLOP/byte, log scale)',
  });
  leftAxis(svg, y, {
    x: m.left,
    height: height - m.top - m.bottom,
    ticks: decadeTicks(y, 7),
    title: 'Attainable FLOP/s (log scale)',
  });
  drawRoofs(svg, roofsOf(trace), frame);
  drawGhost(svg, ghost, frame);
  drawPoints(svg, plotted(trace), highlight ?? null, frame);
}

/**
 * Where the memory slope starts: the axis's left end, or higher where the slope meets the rate axis's floor.
 * @param {Frame} frame
 * @param {number} bandwidth
 */
function slopeStart({ x, y }, bandwidth) {
  return Math.max(x.domain()[0], y.domain()[0] / bandwidth);
}

/**
 * The roof (memory slope and compute roof), the ridge and their labels; hidden without all three roofs.
 * @param {Sel} svg
 * @param {Roofs} roofs
 * @param {Frame} frame
 */
function drawRoofs(svg, roofs, frame) {
  const { x, y, height, m } = frame;
  const roofs3 = roofs.peak && roofs.bandwidth && roofs.ridge;
  const roofLayer = part(svg, 'roofs').call(writeAttrs, { display: roofs3 ? null : 'none' });
  if (!roofs.peak || !roofs.bandwidth || !roofs.ridge) return;
  const roofPath = line()
    .x((d) => x(d[0]))
    .y((d) => y(d[1]));
  const startX = slopeStart(frame, roofs.bandwidth);
  part(roofLayer, 'roof', 'path').call(writeAttrs, {
    class: 'roof',
    d: roofPath([[startX, roofs.bandwidth * startX], [roofs.ridge, roofs.peak], [x.domain()[1], roofs.peak]]),
  });
  verticalRule(roofLayer, 'ridge', 'ridge', x(roofs.ridge), y(roofs.peak), height - m.bottom);
  roofLabels(roofLayer, { peak: roofs.peak, bandwidth: roofs.bandwidth, ridge: roofs.ridge }, startX, frame);
}

/**
 * The ridge's, the compute roof's and the memory slope's labels.
 * @param {Sel} roofLayer
 * @param {{peak: number, bandwidth: number, ridge: number}} roofs  all three known
 * @param {number} startX
 * @param {Frame} frame
 */
function roofLabels(roofLayer, roofs, startX, { x, y, width, height, m }) {
  const ridgeX = roofs.ridge;
  // The ridge's label sits at the foot of its line, shortened (the axis names the unit) or
  // put left of the line when it would run off the chart (11.5px text: ~6.3px a character).
  const room = width - m.right - (x(ridgeX) + 4);
  const full = `ridge ${fmt.number(ridgeX, 3)} FLOP/byte`;
  const short = `ridge ${fmt.number(ridgeX, 3)}`;
  const ridgeText = full.length * 6.3 <= room ? full : short;
  const ridgeRight = ridgeText.length * 6.3 <= room;
  label(roofLayer, 'ridge-label', ridgeText, {
    class: 'chart-note',
    x: x(ridgeX) + (ridgeRight ? 4 : -4),
    y: height - m.bottom - 6,
    'text-anchor': ridgeRight ? 'start' : 'end',
  });
  label(roofLayer, 'peak-label', `compute roof P = ${fmt.flopRate(roofs.peak)}`, {
    class: 'chart-note',
    x: width - m.right,
    y: y(roofs.peak) - 6,
    'text-anchor': 'end',
  });
  // Label the memory slope along its own angle, centred 60% of the way up to the ridge
  // (memory-bound operators sit on the slope's lower part).
  const ax = x(startX);
  const ay = y(roofs.bandwidth * startX);
  const bx = x(ridgeX);
  const by = y(roofs.peak);
  const angle = (Math.atan2(by - ay, bx - ax) * 180) / Math.PI;
  const slopeText = `${width < 480 ? '' : 'memory slope '}β = ${fmt.byteRate(roofs.bandwidth)}`;
  label(roofLayer, 'slope-label', slopeText, {
    class: 'chart-note',
    transform: `translate(${ax + 0.6 * (bx - ax)},${ay + 0.6 * (by - ay)}) rotate(${angle}) translate(0,-7)`,
    'text-anchor': 'middle',
  });
}

/**
 * A pinned scenario (compare.js): its roof dashed and its operators as hollow marks behind B's.
 * @param {Sel} svg
 * @param {TraceDocument | null} ghost
 * @param {Frame} frame
 */
function drawGhost(svg, ghost, frame) {
  const { x, y, px, py } = frame;
  const ghostRoofs = ghost ? roofsOf(ghost) : null;
  const ghostLayer = part(svg, 'ghost').call(writeAttrs, { class: 'ghost', display: ghost ? null : 'none' });
  if (ghostRoofs && ghostRoofs.peak && ghostRoofs.bandwidth && ghostRoofs.ridge) {
    const startX = slopeStart(frame, ghostRoofs.bandwidth);
    /** @type {[number, number][]} */
    const corners = [[startX, ghostRoofs.bandwidth * startX], [ghostRoofs.ridge, ghostRoofs.peak], [x.domain()[1], ghostRoofs.peak]];
    part(ghostLayer, 'ghost-roof', 'path').call(writeAttrs, { class: 'roof roof--ghost', d: line()(corners.map(([a, b]) => [x(a), y(b)])) });
  }
  joinMarks(part(ghostLayer, 'ghost-points'), 'path', 'point', ghost ? plotted(ghost) : [], (p) => p.op.name, true)
    .call(writeAttrs, {
      class: 'point point--ghost',
      transform: (p) => `translate(${px(p.x)},${py(p.y)})`,
      d: (p) => symbolPath(p.op.bound, 60),
    })
    .select('title')
    .call(writeText, (p) => `A: ${p.op.name} (step ${p.op.step}): ${fmt.intensity(p.x)}, ${fmt.flopRate(p.y)}, ${fmt.bound(p.op.bound)}`);
}

/**
 * The operators as marks by bound; with a highlight, its operators larger and named, the rest dimmed.
 * @param {Sel} svg
 * @param {Point[]} points
 * @param {Set<string> | null} highlight
 * @param {Frame} frame
 */
function drawPoints(svg, points, highlight, { px, py, width, height, m }) {
  const hi = (/** @type {Point} */ p) => Boolean(highlight?.has(p.op.name));
  joinMarks(part(svg, 'points').call(writeAttrs, { class: 'points' }), 'path', 'point', points, (p) => p.op.name, true)
    .call(writeAttrs, {
      class: (p) => `point bound-${p.op.bound}${!highlight ? '' : hi(p) ? ' is-hi' : ' is-dim'}`,
      transform: (p) => `translate(${px(p.x)},${py(p.y)})`,
      d: (p) => symbolPath(p.op.bound, hi(p) ? 90 : 60),
    })
    .select('title')
    .call(writeText, (p) => `${p.op.name} (step ${p.op.step}): ${fmt.intensity(p.x)}, ${fmt.flopRate(p.y)}, ${fmt.bound(p.op.bound)}`);

  const labels = highlight
    ? spreadLabels(
        points.filter(hi).map((p) => ({ p, y: py(p.y) })),
        12,
        m.top + 8,
        height - m.bottom - 4,
      )
    : [];
  joinMarks(part(svg, 'point-labels'), 'text', 'point-label', labels, (d) => d.p.op.name)
    .each(/** @this {SVGTextElement} @param {{p: Point, y: number}} d */ function place(d) {
      const at = px(d.p.x);
      const leftSide = at > width * 0.6;
      this.setAttribute('x', String(at + (leftSide ? -9 : 9)));
      this.setAttribute('y', String(d.y + 4));
      this.setAttribute('text-anchor', leftSide ? 'end' : 'start');
    })
    .call(writeText, (d) => operatorLabel(d.p.op.name));
}

/** @param {RooflineModel} model */
function describe({ trace, ghost = null }) {
  const roofs = roofsOf(trace);
  const projections = trace.steps[1]?.facts?.projections ?? [];
  const bounds = [...new Set(projections.map((p) => p.bound))];
  const pinned = ghost
    ? ` Pinned scenario A in grey: ${ghost.scenario.model.name} on ${ghost.scenario.hardware.name}, ridge at ${fmt.intensity(roofsOf(ghost).ridge)}.`
    : '';
  return (
    `Roofline of ${trace.scenario.model.name} on ${trace.scenario.hardware.name}: ridge at ` +
    `${fmt.intensity(roofs.ridge)}; the step-2 projections sit at ` +
    `${projections.map((p) => fmt.number(p.intensity, 4)).join(', ')} FLOP/byte ` +
    `(${bounds.map(fmt.bound).join(', ')}).${pinned}`
  );
}

/** @param {RooflineModel} model */
function table({ trace }) {
  return tableData(
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

export function rooflineChart() {
  return chartPanel('chart-roofline', 'Roofline: where each operator sits', { draw, describe, table, key }, [
    { kind: 'circle', className: 'point bound-memory', label: 'memory-bound operator' },
    { kind: 'square', className: 'point bound-compute', label: 'compute-bound operator' },
    { kind: 'triangle', className: 'point bound-overhead', label: 'launch-overhead-bound operator' },
    { kind: 'diamond', className: 'point bound-interconnect', label: 'interconnect-bound operator (all-reduce)' },
    { kind: 'rule', className: 'roof', label: 'roof: min(P, β × intensity)' },
  ]);
}
