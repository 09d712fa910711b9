// @ts-check
// The parts of the explorer's results (explorer.js, scheduling.js StaleParts): their names, and
// the rules that say when one can be drawn and whether an update draws it at once.

import { STEP_COUNT } from './steps.js';

/** The charts, in the order they are shown (and drawn when stale); see charts/index.js. */
/** @type {(keyof import('./chart-inputs.js').Charts)[]} */
export const CHART_NAMES = ['roofline', 'intensity', 'time', 'bytes', 'memory', 'ttft', 'sweep', 'decode', 'reuse'];

/**
 * Whether chart `chart` shows step `step`'s operators (a selected step marks it related).
 * @param {string} chart
 * @param {number|null} step  1 to 5, or null for none
 */
export function relatedToStep(chart, step) {
  if (!step) return false;
  if (step === 4) return chart === 'memory';
  if (step === 5) return chart === 'ttft' || chart === 'sweep' || chart === 'time';
  if (step === 2) return chart === 'roofline' || chart === 'time' || chart === 'reuse' || chart === 'intensity' || chart === 'bytes';
  if (step === 3) return chart === 'roofline' || chart === 'time' || chart === 'bytes';
  return chart === 'roofline' || chart === 'time';
}

/**
 * The parts drawn with the first trace wherever they are: the figures and the steps a reader
 * meets first. Every other part waits on a cold load until it nears the viewport or the page
 * is idle.
 */
export const STEP_PARTS = Array.from({ length: STEP_COUNT }, (_, i) => `step-${i + 1}`);
export const FIRST_PARTS = new Set(['glance', ...STEP_PARTS]);
/** The part that writes a chart's data table: never on screen, so always drawn in idle time. */
export const dataPart = (/** @type {string} */ chart) => `${chart}-data`;
const DATA_PARTS = new Set(CHART_NAMES.map(dataPart));
/** Every part that needs the charts module. */
export const CHART_PARTS = new Set([...CHART_NAMES, ...DATA_PARTS]);

/**
 * Whether part `name` can be drawn now: a chart and its data wait for the charts module; a
 * chart also for its width (the ResizeObserver's first report, which comes with the frame
 * after the charts are placed: measured before it, a drawing would force the layout of the
 * new chart grid itself), and a chart's data table for its chart.
 * @param {string} name
 * @param {{chartsFailed: boolean, charts: object|null, parts: {isStale(name: string): boolean},
 *   visibility: {width(name: string): number|undefined}}} explorer  the charts (null before they
 *   load), the stale parts (scheduling.js StaleParts), their widths (visibility.js PartVisibility)
 */
export function canRenderPart(name, { chartsFailed, charts, parts, visibility }) {
  if (chartsFailed || !CHART_PARTS.has(name)) return true;
  if (!charts) return false;
  if (DATA_PARTS.has(name)) return !parts.isStale(name.slice(0, -'-data'.length));
  return visibility.width(name) !== undefined;
}

/**
 * Whether `name` is drawn with an update. Before the first drawing only FIRST_PARTS count,
 * and of those only the ones the IntersectionObserver has not placed outside the viewport
 * (not yet reported counts as in view; nothing is measured: that would force the explorer's
 * first layout early). On a phone the explorer starts below the first screen, and its steps
 * follow one per idle moment, each laid out in a frame of its own. Later a part counts unless
 * the IntersectionObserver placed it outside the viewport: parts off screen, near it or not,
 * follow in idle time (usually within the next frame or two), or at once when they come near
 * (visibility.js).
 * @param {string} name
 * @param {boolean} firstDrawn
 * @param {{isInView(name: string): boolean}} visibility  visibility.js PartVisibility
 */
export function isPartVisible(name, firstDrawn, visibility) {
  if (DATA_PARTS.has(name)) return false;
  if (!firstDrawn) return FIRST_PARTS.has(name) && visibility.isInView(name);
  return visibility.isInView(name);
}
