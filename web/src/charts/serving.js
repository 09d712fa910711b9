// The "Under load" pictures (under-load/under-load.js): the engine's serving simulation of the
// same scenario under three schedulers. Every figure is a field of a report the engine wrote
// (docs/serving.md, "Output"), read in the worker (under-load/worker.js).
//   - TTFT and TPOT percentiles (p50, p90, p99) per scheduler, with the SLOs drawn;
//   - SLO attainment against arrival rate per scheduler, the attainment target and each
//     scheduler's goodput (the highest rate that meets it) marked;
//   - a timeline of the first simulated minute: prompt (prefill) and output (decode) tokens
//     computed in each step, and the requests waiting.

import { scaleBand, scaleLinear } from 'd3-scale';
import { area, curveStepBefore, line } from 'd3-shape';
import * as fmt from '../format.js';
import { bottomAxis, chartPanel, joinMarks, label, leftAxis, part, rowLabels, sizeSvg, tableData, verticalRule } from './common.js';
import { drawParts } from './in-parts.js';
import { writeAttrs, writeText } from './writes.js';

/** @typedef {import('./common.js').Sel} Sel */
/** @typedef {import('../under-load/summary.js').ServingFigures} ServingFigures */
/**
 * One scheduler's report as "Under load" assembles it (under-load.js #assemble): the base run's
 * figures with the sweep's and the goodput search's folded in.
 * @typedef {{policy: string, report: ServingFigures, reserve?: ServingFigures}} ServingRun
 */
/**
 * What every serving chart draws: the runs, the reader's rate and objectives (seconds; null when
 * none) and the attainment target.
 * @typedef {{runs: ServingRun[], rate: number, ttftSlo: number | null, tpotSlo: number | null, target: number}} ServingModel
 */
/** A run's sweep point (rate, attainment, overloaded). @typedef {ServingFigures['sweep'][number]} SweepPoint */
/** @typedef {import('d3-scale').ScaleLinear<number, number>} Scale */
/** @typedef {'ttft_seconds' | 'tpot_seconds'} LatencyKey */

export const POLICIES = Object.freeze([
  { id: 'prefill-first', label: 'Prefill first' },
  { id: 'chunked', label: 'Chunked prefill' },
  { id: 'disaggregated', label: 'Disaggregated' },
]);
const policyLabel = (/** @type {string} */ id) => POLICIES.find((p) => p.id === id)?.label ?? id;
/** A run's devices (at least 1): goodput and rates compare per device, on equal hardware. */
const devicesOf = (/** @type {ServingRun} */ run) => Math.max(1, run.report.devices ?? 1);
/** "Disaggregated (2 devices)": a scheduler's label with its device count. */
const policyWithDevices = (/** @type {ServingRun} */ run) => `${policyLabel(run.policy)} (${fmt.count(devicesOf(run))} ${devicesOf(run) === 1 ? 'device' : 'devices'})`;
/** @type {('p50' | 'p90' | 'p99')[]} */
const PERCENTILES = ['p50', 'p90', 'p99'];

/**
 * A run's summary of `key`, where missing() found it there (not null).
 * @param {ServingFigures} report
 * @param {LatencyKey} key
 */
const summaryOf = (report, key) => /** @type {import('prefill-trace').ServingSummary} */ (report[key]);

/**
 * What a run's row says instead of bars, or null when it has bars: the engine writes a summary
 * as null when no finished request has the figure (TPOT when every request has one output token).
 * @param {ServingFigures} report
 * @param {LatencyKey} key
 */
function missing(report, key) {
  if (report.overloaded) return 'overloaded: the queue grows without bound';
  if (report[key] == null) return key === 'tpot_seconds' ? 'no figure: one output token per request' : 'no figure: no request finished';
  return null;
}

// --- Percentiles ---------------------------------------------------------------------------

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {ServingModel} model
 */
function drawPercentiles(svg, width, { runs, ttftSlo, tpotSlo }) {
  /** @type {{key: LatencyKey, title: string, slo: number | null}[]} */
  const groups = [
    { key: 'ttft_seconds', title: 'Time to first token', slo: ttftSlo },
    { key: 'tpot_seconds', title: 'Time per output token', slo: tpotSlo },
  ];
  const rowH = 30;
  const m = { left: width < 480 ? 104 : 130, right: 18 };
  const groupH = 26 + runs.length * rowH + 40;
  sizeSvg(svg, width, groups.length * groupH + 6, 'serving-percentiles');
  groups.forEach((g, gi) => {
    const top = gi * groupH;
    const group = part(svg, `group-${gi}`);
    const values = runs.flatMap((r) => (missing(r.report, g.key) ? [] : PERCENTILES.map((p) => summaryOf(r.report, g.key)[p]))).concat(g.slo ?? []);
    const x = scaleLinear().domain([0, Math.max(...values, 1e-6) * 1.08]).nice().range([m.left, width - m.right]);
    // On a phone the percentiles' names stay in the legend: the title then leaves room for the
    // objective's label on the same line.
    const title = width < 480 ? g.title : `${g.title} (p50, p90, p99)`;
    label(group, 'title', title, { class: 'group-title', x: 0, y: top + 14 });
    const rows = runs.map((r, i) => ({ run: r, y: top + 24 + i * rowH }));
    percentileRows(group, g.key, rows, { x, rowH, left: m.left });
    const axisY = top + 24 + runs.length * rowH;
    sloRule(group, g.slo, x, { top, axisY, width, m });
    bottomAxis(group, x, { y: axisY, width: width - m.left - m.right, format: fmt.seconds, name: `axis-${gi}` });
  });
}

/**
 * Per run (`rows`: {run, y}), its label and its three percentile bars of `key`, or why it has none.
 * @param {Sel} group
 * @param {LatencyKey} key
 * @param {{run: ServingRun, y: number}[]} rows
 * @param {{x: Scale, rowH: number, left: number}} place
 */
function percentileRows(group, key, rows, { x, rowH, left }) {
  const band = scaleBand().domain(PERCENTILES).range([0, rowH - 6]).padding(0.12);
  rowLabels(group, rows, (d) => d.run.policy, left - 6, (d) => d.y + rowH / 2, (d) => policyLabel(d.run.policy));
  const bars = rows.flatMap((d) =>
    missing(d.run.report, key) ? [] : PERCENTILES.map((p) => ({ id: `${d.run.policy}:${p}`, p, value: summaryOf(d.run.report, key)[p], y: d.y + /** @type {number} */ (band(p)), policy: d.run.policy })),
  );
  joinMarks(part(group, 'bars'), 'rect', 'percentile-bar', bars, (b) => b.id, true)
    .call(writeAttrs, {
      class: (b) => `percentile-bar percentile-${b.p}`,
      x: left,
      y: (b) => b.y,
      height: band.bandwidth(),
      width: (b) => Math.max(1, x(b.value) - left),
    })
    .select('title')
    .call(writeText, (b) => `${policyLabel(b.policy)} ${b.p}: ${fmt.seconds(b.value)}`);
  joinMarks(part(group, 'overloaded'), 'text', 'fit-verdict', rows.filter((d) => missing(d.run.report, key)), (d) => d.run.policy)
    .call(writeAttrs, {
      class: (d) => `fit-verdict${d.run.report.overloaded ? ' does-not-fit' : ''}`,
      x: left + 4,
      y: (d) => d.y + rowH / 2,
    })
    .call(writeText, (d) => missing(d.run.report, key));
}

/**
 * The objective `slo` (seconds; none when null) as a rule across the group's rows, labelled.
 * @param {Sel} group
 * @param {number | null} slo
 * @param {Scale} x
 * @param {{top: number, axisY: number, width: number, m: {left: number, right: number}}} place
 */
function sloRule(group, slo, x, { top, axisY, width, m }) {
  verticalRule(group, 'slo', 'slo-rule', slo ? x(slo) : null, top + 20, axisY);
  // Beside the rule, on the side with room: an objective near the axis's end would put its
  // label past the chart's edge (clipped at 390 px).
  const sloInRightHalf = slo != null && x(slo) > (m.left + width - m.right) / 2;
  label(group, 'slo-label', slo ? `SLO ${fmt.seconds(slo)}` : null, {
    class: 'chart-note',
    x: slo ? x(slo) + (sloInRightHalf ? -4 : 4) : 0,
    y: top + 14,
    'text-anchor': sloInRightHalf ? 'end' : 'start',
  });
}

/** @param {ServingModel} model */
function describePercentiles({ runs, rate }) {
  return (
    `At ${fmt.rate(rate)}: ` +
    runs
      .map((r) =>
        r.report.overloaded
          ? `${policyLabel(r.policy)} overloaded`
          : `${policyLabel(r.policy)} TTFT p99 ${r.report.ttft_seconds ? fmt.seconds(r.report.ttft_seconds.p99) : 'none'}, ` +
            `TPOT p99 ${r.report.tpot_seconds ? fmt.seconds(r.report.tpot_seconds.p99) : 'none (one output token)'}`,
      )
      .join('; ') +
    '.'
  );
}

/** @param {ServingModel} model */
function tablePercentiles({ runs }) {
  return tableData(
    'TTFT and TPOT percentiles per scheduler',
    ['Scheduler', 'TTFT p50', 'TTFT p90', 'TTFT p99', 'TPOT p50', 'TPOT p90', 'TPOT p99'],
    runs.map((r) => [
      policyLabel(r.policy),
      .../** @type {LatencyKey[]} */ (['ttft_seconds', 'tpot_seconds']).flatMap((k) =>
        PERCENTILES.map((p) => (r.report.overloaded ? 'overloaded' : r.report[k] == null ? '—' : fmt.seconds(summaryOf(r.report, k)[p]))),
      ),
    ]),
  );
}

export function percentileChart() {
  return chartPanel('chart-serving-percentiles', 'Latency percentiles per scheduler', { draw: drawPercentiles, describe: describePercentiles, table: tablePercentiles }, [
    { kind: 'bar', className: 'percentile-bar percentile-p50', label: 'median (p50)' },
    { kind: 'bar', className: 'percentile-bar percentile-p90', label: 'p90' },
    { kind: 'bar', className: 'percentile-bar percentile-p99', label: 'p99' },
    { kind: 'rule', className: 'slo-rule', label: 'service-level objective (SLO)' },
  ]);
}

// --- Attainment against rate ---------------------------------------------------------------

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {ServingModel} model
 */
function drawAttainment(svg, width, { runs, target }) {
  const height = width < 480 ? 260 : 300;
  const m = { top: 14, right: 16, bottom: 50, left: 58 };
  sizeSvg(svg, width, height, 'serving-attainment');
  // Per device: a scheduler on two devices is drawn at half its arrival rate, so the curves
  // compare what each device sustains (DistServe's goodput per GPU), not fleets of different size.
  const rates = runs.flatMap((r) => r.report.sweep.map((p) => p.rate / devicesOf(r)));
  const x = scaleLinear().domain([0, Math.max(...rates, 1e-6)]).nice().range([m.left, width - m.right]);
  const y = scaleLinear().domain([0, 1]).range([height - m.bottom, m.top]);
  bottomAxis(svg, x, { y: height - m.bottom, width: width - m.left - m.right, title: 'Arrival rate per device (requests/s)' });
  leftAxis(svg, y, { x: m.left, height: height - m.top - m.bottom, format: (v) => fmt.percent(v), title: 'Requests within both SLOs' });
  part(svg, 'target', 'line').call(writeAttrs, { class: 'slo-rule', x1: m.left, x2: width - m.right, y1: y(target), y2: y(target) });
  label(svg, 'target-label', `target ${fmt.percent(target)}`, { class: 'chart-note', x: width - m.right, y: y(target) - 5, 'text-anchor': 'end' });
  const path = (/** @type {ServingRun} */ run) =>
      /** @type {import('d3-shape').Line<SweepPoint>} */ (line())
      .defined((p) => p.slo_attainment !== null && !p.overloaded)
      .x((p) => x(p.rate / devicesOf(run)))
      .y((p) => y(p.slo_attainment ?? 0))(run.report.sweep);
  joinMarks(part(svg, 'lines'), 'path', 'attainment-line', runs, (r) => r.policy, true)
    .call(writeAttrs, { class: (r, i) => `attainment-line series-${i}`, d: path })
    .select('title')
    .call(writeText, policyWithDevices);
  const marks = runs.filter((r) => (r.report.goodput_requests_per_second ?? 0) > 0).map((r) => ({ r, i: runs.indexOf(r) }));
  joinMarks(part(svg, 'goodput'), 'line', 'goodput-rule', marks, (d) => d.r.policy, true)
    .call(writeAttrs, {
      class: (d) => `goodput-rule series-${d.i}`,
      x1: (d) => x((d.r.report.goodput_requests_per_second ?? 0) / devicesOf(d.r)),
      x2: (d) => x((d.r.report.goodput_requests_per_second ?? 0) / devicesOf(d.r)),
      y1: y(target),
      y2: height - m.bottom,
    })
    .select('title')
    .call(writeText, (d) => `${policyWithDevices(d.r)} goodput ${goodputWords(d.r)}`);
}

/**
 * "14.9 requests/s per device (29.8 on 2 devices)", or "none found".
 * @param {ServingRun} run
 */
function goodputWords(run) {
  const { goodput_requests_per_second: total, goodput_per_device: perDevice } = run.report;
  if (!(total !== null && total > 0)) return 'none found';
  const devices = devicesOf(run);
  return devices === 1 ? `${fmt.rate(perDevice)} per device` : `${fmt.rate(perDevice)} per device (${fmt.rate(total)} on ${fmt.count(devices)} devices)`;
}

/** @param {ServingModel} model */
function describeAttainment({ runs, target }) {
  return (
    `Share of requests meeting both SLOs against the arrival rate per device; goodput is the highest rate at which at least ${fmt.percent(target)} do, ` +
    'per device so that schedulers on different numbers of devices compare on equal hardware: ' +
    runs.map((r) => `${policyLabel(r.policy)} ${goodputWords(r)}`).join(', ') +
    '.'
  );
}

/** @param {ServingModel} model */
function tableAttainment({ runs }) {
  const rates = runs[0]?.report.sweep.map((p) => p.rate) ?? [];
  return tableData(
    'SLO attainment by arrival rate',
    ['Arrival rate (all devices)', ...runs.map(policyWithDevices)],
    rates.map((rate, i) => [
      fmt.rate(rate),
      ...runs.map((r) => {
        const p = r.report.sweep[i];
        return !p ? '—' : p.overloaded ? 'overloaded' : p.slo_attainment === null ? '—' : fmt.percent(p.slo_attainment);
      }),
    ]),
  );
}

export function attainmentChart() {
  return chartPanel('chart-serving-attainment', 'SLO attainment against arrival rate per device, goodput marked', { draw: drawAttainment, describe: describeAttainment, table: tableAttainment }, [
    ...POLICIES.map((p, i) => /** @type {import('./common.js').LegendItem} */ ({ kind: 'bar', className: `attainment-swatch series-${i}`, label: p.label })),
    { kind: 'rule', className: 'goodput-rule', label: 'goodput (dashed, per scheduler)' },
  ]);
}

// --- Timeline of a simulated minute --------------------------------------------------------

const MINUTE = 60;

/** @param {ServingFigures['timeline'] | undefined} timeline */
function minuteOf(timeline) {
  const rows = (timeline?.time_seconds ?? []).map((t, i) => ({
    t,
    step: /** @type {ServingFigures['timeline']} */ (timeline).step_seconds,
    prefill: /** @type {ServingFigures['timeline']} */ (timeline).prefill_tokens[i],
    decode: /** @type {ServingFigures['timeline']} */ (timeline).decode_tokens[i],
    queued: /** @type {ServingFigures['timeline']} */ (timeline).queued[i],
  }));
  return rows.filter((r) => r.t <= MINUTE + 1e-9);
}

/** The timeline's panel sizes (px): tokens area, the queue's strip under it, the gap between panels. */
const TIMELINE = { tokensH: 100, queueTop: 114, queueH: 34, gap: 40, m: { left: 58, right: 50 } };
/** @typedef {ReturnType<typeof minuteOf>[number]} MinuteRow */

/**
 * @param {Sel} svg
 * @param {number} width
 * @param {ServingModel} model
 */
function drawTimeline(svg, width, { runs }) {
  // Per scheduler: the tokens of each step (stacked areas), and under them, on a strip of its
  // own, the requests waiting (drawn over the tokens, its spikes hid them on a phone). The
  // scales are shared; each panel is a part of its own (in-parts.js: a task each after a run).
  const { queueTop, queueH, gap, m } = TIMELINE;
  const panelH = queueTop + queueH;
  sizeSvg(svg, width, runs.length * (panelH + gap) + 28, 'serving-timeline');
  const minutes = runs.map((r) => minuteOf(r.report.timeline));
  const tokens = Math.max(1, ...minutes.flat().map((r) => r.prefill + r.decode));
  const queue = Math.max(1, ...minutes.flat().map((r) => r.queued));
  const x = scaleLinear().domain([0, MINUTE]).range([m.left, width - m.right]);
  const scales = { x, tokens, queue, width, last: runs.length - 1 };
  drawParts(runs.map((r, i) => () => timelinePanel(part(svg, `panel-${i}`), i * (panelH + gap) + 18, r.policy, minutes[i], i, scales)));
}

/**
 * One scheduler's panel of the timeline, `top` px down.
 * @param {Sel} g @param {number} top @param {string} policy @param {MinuteRow[]} rows @param {number} i
 * @param {{x: Scale, tokens: number, queue: number, width: number, last: number}} scales
 */
function timelinePanel(g, top, policy, rows, i, { x, tokens, queue, width, last }) {
  const { tokensH, queueTop, queueH, m } = TIMELINE;
  const panelH = queueTop + queueH;
  const y = scaleLinear().domain([0, tokens]).nice().range([top + tokensH, top]);
  const yq = scaleLinear().domain([0, queue]).nice().range([top + panelH, top + queueTop]);
  label(g, 'title', policyLabel(policy), { class: 'group-title', x: 0, y: top - 6 });
  // Each column sums the tokens of the step that ends at its time: stacked step areas (bars
  // of a pixel or two on a phone were unreadable), prompt tokens under output tokens.
  /**
   * @param {Scale} scale
   * @param {(d: MinuteRow) => number} lower
   * @param {(d: MinuteRow) => number} upper
   */
  const steps = (scale, lower, upper) =>
      /** @type {import('d3-shape').Area<MinuteRow>} */ (area())
      .curve(curveStepBefore)
      .x((d) => x(d.t))
      .y0((d) => scale(lower(d)))
      .y1((d) => scale(upper(d)));
  const start = rows.length ? [{ ...rows[0], t: Math.max(0, rows[0].t - rows[0].step) }, ...rows] : rows;
  part(g, 'prefill', 'path').call(writeAttrs, { class: 'timeline-prefill', d: steps(y, () => 0, (d) => d.prefill)(start) });
  part(g, 'decode', 'path').call(writeAttrs, { class: 'timeline-decode', d: steps(y, (d) => d.prefill, (d) => d.prefill + d.decode)(start) });
  part(g, 'queue', 'path').call(writeAttrs, { class: 'timeline-queue', d: steps(yq, () => 0, (d) => d.queued)(start) });
  leftAxis(g, y, { x: m.left, height: tokensH, ticks: y.ticks(3), title: i === 0 ? 'tokens per step' : null, name: 'y', titleOffset: 46 });
  leftAxis(g, yq, { x: m.left, height: queueH, ticks: yq.domain(), name: 'yq' });
  label(g, 'queue-top', 'waiting', { class: 'chart-note', x: width - m.right + 4, y: top + queueTop + queueH / 2 + 4 });
  bottomAxis(g, x, { y: top + panelH, width: width - m.left - m.right, format: (v) => `${v} s`, name: 'x', title: i === last ? 'Simulated time (s)' : null });
}

/** @param {ServingModel} model */
function describeTimeline({ runs }) {
  return (
    `The first simulated minute, per scheduler: prompt tokens (prefill) and output tokens (decode) computed in each ${fmt.seconds(runs[0]?.report.timeline?.step_seconds)} step, and the requests waiting. ` +
    runs
      .map((r) => {
        const rows = minuteOf(r.report.timeline);
        const most = Math.max(0, ...rows.map((d) => d.queued));
        return `${policyLabel(r.policy)}: at most ${fmt.count(most)} waiting`;
      })
      .join('; ') +
    '.'
  );
}

/** @param {ServingModel} model */
function tableTimeline({ runs }) {
  const rows = minuteOf(runs[0]?.report.timeline).filter((_, i) => i % 10 === 0);
  // Each run's minute read once (not once per row: 24 rows × 240 steps × 3 runs).
  const minutes = runs.map((r) => minuteOf(r.report.timeline));
  return tableData(
    'Timeline (every 10th step)',
    ['Time', ...runs.flatMap((r) => [`${policyLabel(r.policy)} prefill tokens`, `${policyLabel(r.policy)} decode tokens`, `${policyLabel(r.policy)} waiting`])],
    rows.map((row) => {
      const cells = [fmt.seconds(row.t)];
      for (const minute of minutes) {
        const match = minute.find((d) => Math.abs(d.t - row.t) < 1e-9);
        cells.push(...(match ? [fmt.count(match.prefill), fmt.count(match.decode), fmt.count(match.queued)] : ['—', '—', '—']));
      }
      return cells;
    }),
  );
}

export function timelineChart() {
  return chartPanel('chart-serving-timeline', 'A simulated minute: prefill and decode tokens per step, and the queue', { draw: drawTimeline, describe: describeTimeline, table: tableTimeline }, [
    { kind: 'bar', className: 'timeline-prefill', label: 'prompt tokens (prefill)' },
    { kind: 'bar', className: 'timeline-decode', label: 'output tokens (decode)' },
    { kind: 'bar', className: 'timeline-queue', label: 'requests waiting (the strip under each)' },
  ]);
}
