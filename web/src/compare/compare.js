// @ts-check
// Pin and compare: the reader pins the scenario shown as A, changes anything, and sees the
// scenario now shown (B) beside A — the glance figures of both with B's signed difference, and
// the charts on fixed axes with A drawn as a ghost series (explorer.js passes `comparison` to
// the roofline and the TTFT bar). A can be swapped with B or cleared. When the element owns
// the page's URL, A is in it (`?pin=` holding A's own query string), so a comparison is a
// permalink. Beside it, always: prefill against decode per token for B, the comparison the
// lesson makes at fixed settings (the trace's `decode_comparison`).
//
// Every number is a field of a trace the engine returned, or the difference or per-token
// quotient of such fields.

import { h, setText } from '../dom.js';
import * as fmt from '../format.js';
import { CUSTOM_MODEL, fromQuery, sameScenario, scenarioJson, toQuery } from '../scenario.js';

/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** @typedef {import('../scenario.js').ScenarioState} ScenarioState */
/** What the charts draw beside B: A's trace and the fixed TTFT axis's end. @typedef {{trace: TraceDocument, ttftTop: number | null}} Comparison */
/** @typedef {(value: number | null | undefined) => string} Format */

/** The query parameter that holds the pinned scenario (its own query string). */
export const PIN_PARAM = 'pin';

const ttftValue = (/** @type {TraceDocument} */ t) => (t.totals.ttft.overloaded ? null : t.totals.ttft.total_seconds);
const qkv = (/** @type {TraceDocument} */ t) => t.steps[1].facts.projections.find((p) => p.name === 'qkv_projection')?.intensity ?? null;

/**
 * The figures compared: label (with unit), value of a trace, formatter.
 * @type {{key: string, label: string, value: (t: TraceDocument) => number | null, format: Format, missing?: string}[]}
 */
const FIGURES = [
  { key: 'ttft', label: 'Time to first token', value: ttftValue, format: fmt.seconds, missing: 'unbounded (overloaded)' },
  { key: 'execution', label: 'Execution time', value: (t) => t.totals.ttft.execution_seconds, format: fmt.seconds },
  { key: 'queue', label: 'Waiting in the queue', value: (t) => t.totals.ttft.queue_seconds, format: fmt.seconds, missing: 'unbounded' },
  { key: 'qkv-intensity', label: 'Q/K/V projection intensity', value: qkv, format: fmt.intensity },
  { key: 'kv-bytes', label: 'KV cache left behind', value: (t) => t.totals.kv_cache.bytes, format: fmt.bytes },
  { key: 'peak-bytes', label: 'Peak device memory', value: (t) => t.totals.memory.peak_bytes, format: fmt.bytes },
  { key: 'flops', label: 'Arithmetic', value: (t) => t.totals.flops, format: fmt.flops },
  { key: 'hbm-bytes', label: 'Memory (HBM) traffic', value: (t) => t.totals.hbm_bytes, format: fmt.bytes },
];

/**
 * B − A with its sign and the relative change: "+1.2 ms (+4.5%)", "no change". A growth of ten
 * times or more reads as a factor ("+15.4 s (15,400× A)"), since "+1,540,000%" asks the reader to
 * divide by a hundred in their head; a fall stays a percentage (it cannot pass −100%).
 * @param {number | null | undefined} a
 * @param {number | null | undefined} b
 * @param {Format} format
 */
export function signedDifference(a, b, format) {
  if (a === null || b === null || a === undefined || b === undefined) return '—';
  const d = b - a;
  if (d === 0) return 'no change';
  const sign = d > 0 ? '+' : '−';
  const magnitude = format(Math.abs(d)).replace(/ \(.*\)$/, '');
  return `${sign}${magnitude}${relativeChange(a, b, sign)}`;
}

/**
 * @param {number} a
 * @param {number} b
 * @param {string} sign
 */
function relativeChange(a, b, sign) {
  if (a === 0) return '';
  const ratio = b / a;
  if (ratio >= 10) return ` (${fmt.number(ratio, 3)}× A)`;
  return ` (${sign}${fmt.percent(Math.abs(ratio - 1))})`;
}

/**
 * Prefill's and one decode step's figures per token, for one trace (rows of the built-in table).
 * @param {TraceDocument} trace
 */
export function perTokenRows(trace) {
  const prefillTokens = trace.scenario.batch * trace.scenario.prompt_tokens;
  const decodeTokens = trace.scenario.batch;
  const d = trace.decode_comparison;
  return [
    { key: 'seconds', label: 'Time per token', prefill: trace.totals.seconds / prefillTokens, decode: d.seconds / decodeTokens, format: fmt.seconds },
    { key: 'bytes', label: 'Memory traffic per token', prefill: trace.totals.hbm_bytes / prefillTokens, decode: d.hbm_bytes / decodeTokens, format: fmt.bytes },
    { key: 'flops', label: 'Arithmetic per token', prefill: trace.totals.flops / prefillTokens, decode: d.flops / decodeTokens, format: fmt.flops },
    { key: 'intensity', label: 'Arithmetic intensity', prefill: d.prefill_intensity, decode: d.intensity, format: fmt.intensity },
  ];
}

export class Compare {
  #engine;
  #explorer;
  /** @type {ScenarioState | null} */
  #pinned = null;
  /** @type {TraceDocument | null} */
  #pinnedTrace = null;
  /** @type {TraceDocument | null} */
  #current = null;
  /** @type {number | null} */
  #ttftTop = null;
  /** Why the last pin was refused, shown until the next pin succeeds or A is cleared. @type {string | null} */
  #refusal = null;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {import('../explorer/explorer.js').Explorer} options.explorer
   */
  constructor({ engine, explorer }) {
    this.#engine = engine;
    this.#explorer = explorer;
    this.pinButton = h('button', { type: 'button', class: 'button', 'data-action': 'pin' }, 'Pin this scenario as A');
    this.swapButton = h('button', { type: 'button', class: 'button button--quiet', 'data-action': 'swap', hidden: true }, 'Swap A and B');
    this.clearButton = h('button', { type: 'button', class: 'button button--quiet', 'data-action': 'clear', hidden: true }, 'Clear A');
    this.status = h('p', { class: 'hint compare-status', role: 'status' }, 'Pin the scenario shown as A, then change anything: B is what the explorer shows.');
    this.table = /** @type {HTMLTableElement} */ (h('table', { class: 'compare-table', hidden: true }));
    this.perToken = /** @type {HTMLTableElement} */ (h('table', { class: 'compare-table per-token' }));
    this.element = h(
      'section',
      { class: 'explorer-block compare', 'aria-labelledby': 'compare-heading', 'data-pinned': 'false' },
      h('h3', { id: 'compare-heading' }, 'Pin and compare'),
      h('div', { class: 'compare-actions' }, this.pinButton, this.swapButton, this.clearButton),
      this.status,
      this.table,
      h(
        'details',
        { class: 'per-token-block' },
        h('summary', {}, 'Prefill against decode, per token (built in)'),
        h('p', { class: 'hint' }, 'For the scenario shown: the prefill of every prompt token against one decode step at the same context, which makes one token per request.'),
        this.perToken,
      ),
    );
    this.pinButton.addEventListener('click', () => this.pin(this.#explorer.state));
    this.clearButton.addEventListener('click', () => this.pin(null));
    this.swapButton.addEventListener('click', () => this.swap());
  }

  /** The pinned scenario's state, or null. */
  get pinned() {
    return this.#pinned;
  }

  /**
   * What the charts draw beside B: A's trace and the fixed TTFT axis, or null.
   * @returns {Comparison | null}
   */
  get comparison() {
    return this.#pinnedTrace ? { trace: this.#pinnedTrace, ttftTop: this.#ttftTop } : null;
  }

  /**
   * Pins `state` as A (null clears it); the URL follows when the element owns it.
   * @param {ScenarioState | null} state
   * @param {{updateUrl?: boolean}} [options]
   */
  pin(state, { updateUrl = true } = {}) {
    let trace = null;
    if (state) {
      const result = this.#engine.computeTrace(scenarioJson(state));
      if (!result.ok) {
        this.#refusal = `A could not be pinned: the engine rejects that scenario (${result.error}).`;
        setText(this.status, this.#refusal);
        return false;
      }
      trace = result.value;
    }
    this.#refusal = null;
    this.#pinned = state ? { ...state, shape: { ...state.shape } } : null;
    this.#pinnedTrace = trace;
    this.#ttftTop = null;
    this.#fitTtftAxis();
    if (updateUrl) this.#writeUrl();
    this.#render();
    this.#explorer.setComparison(this.comparison);
    return true;
  }

  /** B becomes A and A is shown as B. */
  swap() {
    if (!this.#pinned) return;
    const previous = this.#pinned;
    this.pin(this.#explorer.state, { updateUrl: false });
    this.#explorer.apply(previous);
    this.#writeUrl();
  }

  /**
   * Reads `?pin=` (a permalink's A) on top of the explorer's defaults.
   * @param {URLSearchParams} params
   * @param {{clearMissing?: boolean}} [options]
   */
  readUrl(params, { clearMissing = false } = {}) {
    const text = params.get(PIN_PARAM);
    if (!text) {
      if (clearMissing && this.#pinned) this.pin(null, { updateUrl: false });
      return;
    }
    let { state } = fromQuery(new URLSearchParams(text), this.#explorer.defaults);
    state = this.#explorer.withPresetShape(state);
    if (this.pin(state, { updateUrl: false })) return;
    // Refused: said in the status (kept there by #render) and taken out of the address, which
    // would otherwise go on naming an A that is not pinned (issue 33, L3). Any earlier A stays.
    this.#refusal = `The address's pinned scenario (pin=) was not pinned and is removed from the address: ${(this.#refusal ?? '').replace(/^A could not be pinned: /, '')}`;
    this.#writeUrl();
    this.#render();
  }

  /**
   * The explorer shows a new trace (B): the table and the TTFT axis follow.
   * @param {TraceDocument | null | undefined} trace
   */
  update(trace) {
    if (!trace) return;
    this.#current = trace;
    if (this.#pinned) {
      const before = this.#ttftTop;
      this.#fitTtftAxis();
      if (before !== this.#ttftTop) this.#explorer.setComparison(this.comparison);
    }
    this.#render();
  }

  /**
   * The TTFT axis while comparing: fixed at pinning to 1.25 × the larger of A's and B's TTFT
   * (rounded up to 1, 2 or 5 × a power of ten), so moving B leaves it in place; it is only
   * widened (never narrowed) when B runs off its end.
   */
  #fitTtftAxis() {
    if (!this.#pinnedTrace) return;
    const longest = Math.max(ttftSpan(this.#pinnedTrace), this.#current ? ttftSpan(this.#current) : 0);
    if (this.#ttftTop !== null && longest <= this.#ttftTop) return;
    this.#ttftTop = niceCeil(longest * 1.25);
  }

  #writeUrl() {
    if (!this.#explorer.syncsUrl) return;
    const url = new URL(window.location.href);
    if (this.#pinned) url.searchParams.set(PIN_PARAM, toQuery(this.#pinned).toString());
    else url.searchParams.delete(PIN_PARAM);
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
  }

  #render() {
    const pinned = Boolean(this.#pinned);
    this.element.dataset.pinned = String(pinned);
    this.swapButton.hidden = !pinned;
    this.clearButton.hidden = !pinned;
    this.pinButton.textContent = pinned ? 'Pin this scenario as A instead' : 'Pin this scenario as A';
    const b = this.#current;
    if (b) this.#renderPerToken(b);
    if (!pinned || !b) {
      this.table.hidden = true;
      if (!pinned) setText(this.status, this.#refusal ?? 'Pin the scenario shown as A, then change anything: B is what the explorer shows.');
      return;
    }
    const a = this.#pinnedTrace;
    const pinnedState = /** @type {ScenarioState} */ (this.#pinned);
    const same = sameScenario(pinnedState, this.#explorer.state);
    setText(
      this.status,
      same
        ? `A is pinned: ${describeState(pinnedState, this.#explorer.presets)}. Change anything to see B beside it.`
        : `A: ${describeState(pinnedState, this.#explorer.presets)}. B: ${describeState(this.#explorer.state, this.#explorer.presets)}.`,
    );
    this.table.hidden = false;
    this.table.replaceChildren(
      h('caption', { class: 'visually-hidden' }, 'Scenario A against scenario B, with the difference B − A'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Figure'), h('th', { scope: 'col' }, 'A (pinned)'), h('th', { scope: 'col' }, 'B (shown)'), h('th', { scope: 'col' }, 'B − A'))),
      h(
        'tbody',
        {},
        FIGURES.map((f) => {
          const [va, vb] = [f.value(/** @type {TraceDocument} */ (a)), f.value(b)];
          const show = (/** @type {number | null} */ v) => (v === null ? f.missing ?? '—' : f.format(v));
          return h(
            'tr',
            { 'data-figure': f.key },
            h('th', { scope: 'row' }, f.label),
            h('td', { 'data-value': va ?? '' }, show(va)),
            h('td', { 'data-value': vb ?? '' }, show(vb)),
            h('td', { class: 'difference' }, signedDifference(va, vb, f.format)),
          );
        }),
      ),
    );
  }

  /** @param {TraceDocument} trace */
  #renderPerToken(trace) {
    const rows = perTokenRows(trace);
    this.perToken.replaceChildren(
      h('caption', { class: 'visually-hidden' }, 'Prefill against one decode step, per token'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Per token'), h('th', { scope: 'col' }, 'Prefill'), h('th', { scope: 'col' }, 'Decode'), h('th', { scope: 'col' }, 'Decode ÷ prefill'))),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            { 'data-figure': r.key },
            h('th', { scope: 'row' }, r.label),
            h('td', { 'data-value': r.prefill }, r.format(r.prefill)),
            h('td', { 'data-value': r.decode }, r.format(r.decode)),
            h('td', {}, r.prefill > 0 ? `${fmt.number(r.decode / r.prefill, 3)}×` : '—'),
          ),
        ),
      ),
    );
  }
}

/**
 * A scenario in a few words: model and accelerator by their names (the presets'), the numbers a
 * reader changes.
 * @param {ScenarioState} state
 * @param {{models?: {id: string, name: string}[], accelerators?: {id: string, name: string}[]} | null} [presets]
 */
function describeState(state, presets) {
  /**
   * @param {{id: string, name: string}[] | undefined} list
   * @param {unknown} id
   */
  const named = (list, id) => list?.find((item) => item.id === id)?.name ?? id;
  const model = state.model === CUSTOM_MODEL ? 'custom model' : named(presets?.models, state.model);
  const hardware = named(presets?.accelerators, state.hardware);
  const parts = [
    model,
    Number(state.devices) > 1 ? `${state.devices} × ${hardware}` : hardware,
    state.precision,
    `${fmt.count(Number(state.prompt))} tokens`,
  ];
  if (Number(state.batch) !== 1) parts.push(`batch ${state.batch}`);
  if (Number(state.chunk) > 0) parts.push(`chunks of ${state.chunk}`);
  if (state.attention !== 'fused') parts.push(`${state.attention} attention`);
  if (Number(state.rate) > 0) parts.push(`${state.rate} requests/s`);
  if (state.timing !== 'bound') parts.push('calibrated estimate');
  return parts.join(', ');
}

/**
 * How long a trace's TTFT bar is: its total, or twice the known part when overloaded.
 * @param {TraceDocument} trace
 * @returns {number}
 */
export function ttftSpan(trace) {
  const t = trace.totals.ttft;
  return t.overloaded ? 2 * ((t.execution_seconds ?? 0) + (t.delivery_seconds ?? 0)) : /** @type {number} */ (t.total_seconds);
}

/**
 * The smallest 1, 2 or 5 × 10^k at or above `value`.
 * @param {number} value
 */
export function niceCeil(value) {
  if (!(value > 0)) return 1e-9;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value * (1 - 1e-12)) return step * power;
  return 10 * power;
}
