// A few requests' tokens over time, per scheduler ("Under load", issue 30 item 3): the engine's
// `token_times` (docs/serving.md, "Token times": the request with the longest prompt and its
// neighbours in arrival order). Per request a row: a thin line from its arrival to its first
// admission (waiting), its prefill passes as blocks (one under prefill first, a block per chunk
// under chunked prefill), and every output token as a tick; a gap in the ticks is a stall. The
// three schedulers' panels share one time axis, from the earliest chosen arrival to the latest
// chosen token, so their rows compare. Colours as the minute's timeline: prompt (prefill) work
// blue, output (decode) tokens green. Nothing is computed here but the axis's extent.

import { scaleLinear } from 'd3-scale';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, joinMarks, label, part, sizeSvg, tableData } from './common.js';
import { drawParts } from './in-parts.js';
import { POLICIES } from './serving.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('./serving.js').ServingModel} ServingModel */
/** @typedef {import('./serving.js').ServingRun} ServingRun */
/** @typedef {import('prefill-trace').ServingTokenTimes} TokenTimes */

const ROW = 18;
const policyLabel = (/** @type {string} */ id) => POLICIES.find((p) => p.id === id)?.label ?? id;
const chosen = (/** @type {ServingRun} */ run) => run.report.token_times ?? [];
const lastToken = (/** @type {TokenTimes} */ q) => (q.token_seconds.length ? q.token_seconds[q.token_seconds.length - 1] : q.arrival_seconds);

/**
 * The shared time axis: the earliest chosen arrival to the latest chosen token of every run.
 * @param {ServingRun[]} runs
 * @returns {[number, number]}
 */
function extent(runs) {
  const all = runs.flatMap(chosen);
  if (!all.length) return [0, 1];
  const lo = Math.min(...all.map((q) => q.arrival_seconds));
  const hi = Math.max(...all.map(lastToken));
  return [lo, hi > lo ? hi : lo + 1];
}

/**
 * One tick per output token as a single path ("M x y V y2" each): hundreds of tokens, one node.
 * @param {TokenTimes} q
 * @param {(t: number) => number} x
 * @param {number} y
 */
function ticksPath(q, x, y) {
  return q.token_seconds.map((t) => `M${x(t).toFixed(1)},${y + 2}V${y + ROW - 6}`).join('');
}

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {ServingModel} model
 */
function drawTokens(svg, width, { runs }) {
  const m = { left: 58, right: 18 };
  const rows = Math.max(1, ...runs.map((r) => chosen(r).length));
  const panelH = rows * ROW;
  const gap = 44;
  const height = runs.length * (panelH + gap) + 24;
  sizeSvg(svg, width, height, 'serving-tokens');
  const [lo, hi] = extent(runs);
  const x = scaleLinear().domain([lo, hi]).range([m.left, width - m.right]);
  svg.call(writeAttrs, { 'data-x-domain': `${lo},${hi}` });
  // Each scheduler's panel a part of its own (in-parts.js: a task each after a run).
  const axis = { x, width, last: runs.length - 1, panelH, m };
  drawParts(runs.map((r, i) => () => tokensPanel(part(svg, `panel-${i}`), i * (panelH + gap) + 22, r, i, axis)));
}

/**
 * One scheduler's rows of the token picture, `top` px down.
 * @param {Sel} g @param {number} top @param {ServingRun} r @param {number} i
 * @param {{x: import('d3-scale').ScaleLinear<number, number>, width: number, last: number, panelH: number, m: {left: number, right: number}}} axis
 */
function tokensPanel(g, top, r, i, { x, width, last, panelH, m }) {
  label(g, 'title', policyLabel(r.policy), { class: 'group-title', x: 0, y: top - 8 });
  const items = chosen(r).map((q, k) => ({ q, y: top + k * ROW }));
  joinMarks(part(g, 'names'), 'text', 'row-label', items, (d) => d.q.request)
    .call(writeAttrs, { x: m.left - 6, y: (d) => d.y + ROW / 2 + 1, 'text-anchor': 'end' })
    .call(writeText, (d) => `#${fmt.count(d.q.request)}`);
  joinMarks(part(g, 'waits'), 'line', 'token-wait', items, (d) => d.q.request).call(writeAttrs, {
    x1: (d) => x(d.q.arrival_seconds),
    x2: (d) => x(d.q.admitted_seconds ?? d.q.arrival_seconds),
    y1: (d) => d.y + ROW / 2 - 2,
    y2: (d) => d.y + ROW / 2 - 2,
  });
  const passes = items.flatMap((d) => d.q.prefill_passes.map((p, k) => ({ ...p, y: d.y, request: d.q.request, id: `${d.q.request}:${k}` })));
  joinMarks(part(g, 'passes'), 'rect', 'token-pass', passes, (p) => p.id).call(writeAttrs, {
    'data-request': (p) => String(p.request),
    'data-tokens': (p) => String(p.tokens),
    x: (p) => x(p.start_seconds),
    y: (p) => p.y + 2,
    width: (p) => Math.max(1.5, x(p.end_seconds) - x(p.start_seconds)),
    height: ROW - 8,
  });
  joinMarks(part(g, 'ticks'), 'path', 'token-ticks', items, (d) => d.q.request).call(writeAttrs, {
    d: (d) => ticksPath(d.q, x, d.y) || null,
    'data-tokens': (d) => String(d.q.token_seconds.length),
  });
  bottomAxis(g, x, { y: top + panelH, width: width - m.left - m.right, format: (v) => `${fmt.number(v, 3)} s`, name: 'x', title: i === last ? 'Simulated time (s)' : null });
}

/**
 * The run's worst gap between two tokens of a request (the engine's p99 of tbt_max), in words.
 * @param {ServingRun} run
 */
function worstGap(run) {
  const p99 = run.report.tbt_max_seconds?.p99;
  return p99 == null ? 'no gap (one output token)' : `the longest wait between two tokens is ${fmt.seconds(p99)} at the 99th percentile of requests`;
}

/** @param {ServingModel} model */
function describeTokens({ runs }) {
  const n = chosen(runs[0] ?? { report: {} }).length;
  return (
    `${fmt.count(n)} neighbouring requests per scheduler on one time axis: blocks are the passes that ran each prompt, ticks its output tokens, a gap in the ticks a stall while other work runs. ` +
    runs.map((r) => `${policyLabel(r.policy)}: ${worstGap(r)}`).join('; ') +
    '.'
  );
}

/** @param {ServingModel} model */
function tableTokens({ runs }) {
  return tableData(
    'Chosen requests per scheduler',
    ['Scheduler', 'Request', 'Arrival', 'First token', 'Last token', 'Prefill passes', 'Output tokens'],
    runs.flatMap((r) =>
      chosen(r).map((q) => [
        policyLabel(r.policy),
        `#${fmt.count(q.request)}`,
        fmt.seconds(q.arrival_seconds),
        q.token_seconds.length ? fmt.seconds(q.token_seconds[0]) : '—',
        q.token_seconds.length ? fmt.seconds(lastToken(q)) : '—',
        fmt.count(q.prefill_passes.length),
        fmt.count(q.token_seconds.length),
      ]),
    ),
  );
}

export function tokensChart() {
  return chartPanel('chart-serving-tokens', 'A few requests’ tokens: passes, ticks and stalls', { draw: drawTokens, describe: describeTokens, table: tableTokens }, [
    { kind: 'bar', className: 'token-pass', label: 'a prefill pass of the request’s prompt' },
    { kind: 'bar', className: 'token-tick-swatch', label: 'an output token (tick)' },
    { kind: 'rule', className: 'token-wait', label: 'waiting for admission' },
  ]);
}
