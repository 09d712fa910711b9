// @ts-check
// "At a glance": a one-paragraph summary (announced politely to screen readers after each
// update), the key figures of the trace, and the trace's stated assumptions and omissions,
// which stay visible beside the numbers they qualify.

import { h, setText } from '../dom.js';
import * as fmt from '../format.js';

/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** @typedef {TraceDocument['scenario']} Scenario */

/**
 * TTFT as the page says it: the bound alone, or the estimate with the p10–p90 range the engine
 * fitted on held-out measurements ("≈ 120 ms, typically 95–160 ms"; docs/validation.md).
 * @param {import('prefill-trace').TtftTotals} ttft
 * @param {Scenario} [scenario]
 */
export function ttftText(ttft, scenario) {
  if (ttft.overloaded) return 'unbounded — overloaded';
  const low = ttft.total_seconds_low;
  const high = ttft.total_seconds_high;
  if (scenario?.timing === 'estimate' && low != null && high != null && high > low) {
    return `≈ ${fmt.seconds(ttft.total_seconds)}, typically ${fmt.seconds(low)}–${fmt.seconds(high)}`;
  }
  return fmt.seconds(ttft.total_seconds);
}

/**
 * The mean wait, and when requests do wait, the engine's percentiles of it beside the mean (the
 * exact M/D/1 distribution plus batch formation, docs/model.md "Queue percentiles"): the mean
 * alone hides that most requests wait less and a few far more.
 * @param {import('prefill-trace').QueueFigures} ttft
 */
export function queueText(ttft) {
  const mean = fmt.seconds(ttft.queue_seconds);
  const { queue_p50_seconds: p50, queue_p90_seconds: p90, queue_p99_seconds: p99 } = ttft;
  if (!(ttft.queue_seconds !== null && ttft.queue_seconds > 0) || p50 == null || p90 == null || p99 == null) return mean;
  return `${mean} on average (median ${fmt.seconds(p50)}, p90 ${fmt.seconds(p90)}, p99 ${fmt.seconds(p99)})`;
}

/** @param {TraceDocument['totals']['memory']} memory */
function memoryText(memory) {
  return memory.fits
    ? `${fmt.bytes(memory.peak_bytes)} of ${fmt.bytes(memory.capacity_bytes)} — fits`
    : `${fmt.bytes(memory.peak_bytes)} of ${fmt.bytes(memory.capacity_bytes)} — does not fit`;
}

/**
 * Which timing the times follow: the lesson's lower bound or the calibrated estimate.
 * @param {Scenario} scenario
 */
function timingText(scenario) {
  return scenario.timing === 'estimate' ? 'calibrated estimate' : 'lower bound';
}

/**
 * The devices the scenario runs on; under tensor parallelism every figure is one device's.
 * @param {Scenario} scenario
 */
function devicesText(scenario) {
  return scenario.tensor_parallel > 1
    ? `${fmt.count(scenario.tensor_parallel)} × ${scenario.hardware.name} (tensor parallel, figures per device)`
    : `one ${scenario.hardware.name}`;
}

/**
 * The summary sentence of a trace.
 * @param {TraceDocument} trace
 */
export function summaryText(trace) {
  const s = trace.scenario;
  const ttft = trace.totals.ttft;
  const memory = trace.totals.memory;
  const step2 = trace.steps[1];
  return (
    `${s.model.name} on ${devicesText(s)} in ${s.precision.name}, ${fmt.count(s.batch)} × ` +
    `${fmt.count(s.prompt_tokens)} tokens: time to first token ${ttftText(ttft, s)} ` +
    `(${timingText(s)}); the step-2 projections are ${fmt.bound(step2.bound)}; the prompt leaves ` +
    `${fmt.bytes(trace.totals.kv_cache.bytes)} of KV cache; peak memory ${memoryText(memory)}` +
    (memory.fits ? '.' : ` (over by ${fmt.bytes(memory.exceeds_by_bytes)}).`)
  );
}

/**
 * The figures a reader watches while editing, in one line (the scenario bar's sheet shows it,
 * scenario-bar.js): the same texts as the figures below.
 * @param {TraceDocument} trace
 */
export function keyFiguresText(trace) {
  return `Time to first token ${ttftText(trace.totals.ttft)} · step 2 ${fmt.bound(trace.steps[1].bound)} · peak memory ${memoryText(trace.totals.memory)}`;
}

/**
 * The figures at a glance: label, the value's and the note's text of a trace, and 'bad' when the
 * value is a warning.
 * @type {{key: string, label: string, value: (t: TraceDocument) => string, state?: (t: TraceDocument) => 'bad' | null, note: (t: TraceDocument) => string}[]}
 */
const FIGURES = [
  {
    key: 'ttft',
    label: 'Time to first token',
    value: (t) => ttftText(t.totals.ttft, t.scenario),
    state: (t) => (t.totals.ttft.overloaded ? 'bad' : null),
    note: (t) =>
      t.totals.ttft.overloaded
        ? `Arrivals outpace service: utilization ρ = ${fmt.number(t.steps[4].facts.utilization, 3)}.`
        : `${t.scenario.timing === 'estimate' ? `Calibrated estimate (${t.scenario.stack} host gaps; the range is the 10th–90th percentile of held-out errors)` : 'Lower bound'}: queueing ${queueText(t.totals.ttft)} + execution ${fmt.seconds(t.totals.ttft.execution_seconds)} + delivery ${fmt.seconds(t.totals.ttft.delivery_seconds)}.`,
  },
  {
    key: 'step2-bound',
    label: 'Step-2 projections',
    value: (t) => fmt.bound(t.steps[1].bound),
    note: (t) =>
      `Ridge ${fmt.intensity(t.steps[1].facts.ridge_flops_per_byte)}; Q/K/V projection at ${fmt.intensity(
        t.steps[1].facts.projections.find((p) => p.name === 'qkv_projection')?.intensity,
      )}.`,
  },
  {
    key: 'kv-bytes',
    label: 'KV cache left behind',
    value: (t) => fmt.bytes(t.totals.kv_cache.bytes),
    note: (t) => `${fmt.bytes(t.steps[2].facts.kv_bytes_per_token)} per token.`,
  },
  {
    key: 'memory',
    label: 'Peak device memory',
    value: (t) => memoryText(t.totals.memory),
    state: (t) => (t.totals.memory.fits ? null : 'bad'),
    note: (t) =>
      t.totals.memory.fits
        ? 'Weights + KV state + the largest set of temporaries.'
        : `Exceeds the device by ${fmt.bytes(t.totals.memory.exceeds_by_bytes)}.`,
  },
  {
    key: 'flops',
    label: 'Arithmetic',
    value: (t) => fmt.flops(t.totals.flops),
    note: (t) => `${fmt.parameters(t.parameters)} parameters.`,
  },
  {
    key: 'hbm-bytes',
    label: 'HBM traffic',
    value: (t) => fmt.bytes(t.totals.hbm_bytes),
    note: (t) => `Overall ${fmt.intensity(t.decode_comparison.prefill_intensity)}.`,
  },
];

export class Glance {
  constructor() {
    this.summary = h('p', { class: 'summary', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' });
    // The figures are made once; an update changes their text (and state) in place.
    this.items = FIGURES.map((f) => {
      const value = h('dd', { class: 'figure-value' });
      const note = h('dd', { class: 'figure-note' });
      const item = h('div', { class: 'figure', 'data-figure': f.key }, h('dt', {}, f.label), value, note);
      return { f, item, value, note };
    });
    this.figures = h('dl', { class: 'figures' }, this.items.map((i) => i.item));
    this.omissions = h('ul', { class: 'omissions-list' });
    this.element = h(
      'div',
      { class: 'glance' },
      h(
        'section',
        { class: 'explorer-block glance-figures', 'aria-labelledby': 'glance-heading' },
        h('h3', { id: 'glance-heading' }, 'At a glance'),
        this.summary,
        this.figures,
      ),
      h(
        'section',
        { class: 'explorer-block omissions', 'aria-labelledby': 'omissions-heading' },
        // Folded under their count: a dozen caveats would otherwise push the figures they
        // qualify below the first screen.
        h(
          'details',
          { class: 'omissions-fold' },
          h('summary', {}, h('h3', { id: 'omissions-heading' }, 'What these numbers leave out ', (this.omissionsCount = h('span', { class: 'omissions-count' })))),
          h('p', { class: 'hint' }, 'The trace states its assumptions and omissions; they qualify every figure here.'),
          this.omissions,
        ),
      ),
    );
  }

  /** @param {TraceDocument} trace */
  update(trace) {
    setText(this.summary, summaryText(trace));
    for (const { f, item, value, note } of this.items) {
      const bad = f.state?.(trace) === 'bad';
      if (item.classList.contains('figure--bad') !== bad) item.classList.toggle('figure--bad', bad);
      setText(value, f.value(trace));
      setText(note, f.note(trace));
    }
    setText(this.omissionsCount, `(${trace.assumptions.length})`);
    const items = this.omissions.children;
    if (items.length === trace.assumptions.length) {
      trace.assumptions.forEach((text, i) => setText(items[i], text));
    } else {
      this.omissions.replaceChildren(...trace.assumptions.map((text) => h('li', {}, text)));
    }
  }
}
