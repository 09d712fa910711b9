// The five mechanism steps as a trace: each lesson step with the engine's facts for it, its
// totals and its dominant bound. A toggle per step selects it, and the charts highlight its
// operators. The cards persist across updates (only their contents change), so focus on a
// toggle survives a new trace.

import { append, h } from '../dom.js';
import * as fmt from '../format.js';

/**
 * Labels of the engine's step facts, in the order they are shown (the engine's JSON is sorted
 * by key). A fact without a label still shows, under its key, after the known ones.
 */
const FACT_LABELS = {
  layers: 'Layers',
  kernels_per_layer: 'Kernels per layer',
  kernel_launches: 'Kernel launches in all',
  launch_overhead_seconds: 'Launch overhead in all',
  embedding_bytes: 'Embedding traffic',
  ridge_flops_per_byte: 'Ridge point of the accelerator (P/β)',
  weight_reuse_rows: 'Token rows sharing each weight load',
  projection_flops_per_request: 'Projection work per request',
  attention: 'Attention schedule',
  block: 'Tile edge b',
  useful_pairs_per_head: 'Useful query–key pairs per head',
  computed_pairs_per_head: 'Computed pairs per head (whole tiles)',
  tiles_per_head: 'Tiles per head',
  kv_bytes_per_token: 'KV bytes per token',
  kv_bytes_written: 'KV state written',
  score_matrix_bytes: 'Score matrix of the largest chunk',
  score_traffic_bytes: 'Score traffic to HBM',
  score_bytes_avoided: 'Score traffic avoided by fusing',
  weight_bytes: 'Weights',
  kv_bytes: 'KV state',
  temporaries_bytes: 'Temporaries (largest simultaneous set)',
  residual_bytes: 'Residual stream',
  attention_workspace_bytes: 'Attention workspace',
  score_bytes: 'Materialized scores',
  mlp_workspace_bytes: 'MLP workspace',
  logits_bytes: 'Logits',
  peak_bytes: 'Peak',
  capacity_bytes: 'Device capacity',
  fits: 'Fits in device memory',
  memory: 'Memory ledger',
  chunking: 'Chunking',
  exceeds_by_bytes: 'Exceeds capacity by',
  chunk_tokens: 'Chunk length',
  chunks: 'Chunks',
  extra_weight_bytes: 'Extra weight traffic from chunking',
  kv_reread_bytes: 'Earlier KV re-read by later chunks',
  temporaries_unchunked_bytes: 'Temporaries without chunking',
  queue_seconds: 'Queueing',
  batch_formation_seconds: 'Batch formation (part of queueing)',
  execution_seconds: 'Prompt execution',
  delivery_seconds: 'First-token delivery',
  service_seconds: 'Service time per batch',
  total_seconds: 'Time to first token',
  utilization: 'Utilization ρ',
  overloaded: 'Overloaded (ρ ≥ 1)',
};

const FACT_ORDER = Object.keys(FACT_LABELS);

function factRank(key) {
  const rank = FACT_ORDER.indexOf(key);
  return rank === -1 ? FACT_ORDER.length : rank;
}

/** Formats one fact by its key's unit suffix; null means the engine has no value. */
function formatFact(key, value) {
  if (value === null) {
    return key === 'queue_seconds' || key === 'total_seconds' ? 'unbounded (overloaded)' : 'none';
  }
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  if (key.includes('bytes') && !key.includes('per_byte')) return fmt.bytes(value);
  if (key.endsWith('_seconds')) return fmt.seconds(value);
  if (key.includes('flops_per_byte')) return fmt.intensity(value);
  if (key.includes('flops')) return `${fmt.flops(value)} (${fmt.count(value)})`;
  if (key === 'utilization') return fmt.number(value, 3);
  return fmt.count(value);
}

function factList(facts, skip = []) {
  const items = [];
  const entries = Object.entries(facts).sort(([a], [b]) => factRank(a) - factRank(b));
  for (const [key, value] of entries) {
    if (skip.includes(key)) continue;
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      items.push(
        h(
          'div',
          { class: 'fact-group' },
          h('dt', {}, FACT_LABELS[key] ?? key),
          h('dd', {}, factList(value)),
        ),
      );
    } else if (!Array.isArray(value)) {
      items.push(
        h(
          'div',
          { class: 'fact', 'data-fact': key },
          h('dt', {}, FACT_LABELS[key] ?? key.replaceAll('_', ' ')),
          h('dd', {}, formatFact(key, value)),
        ),
      );
    }
  }
  return h('dl', { class: 'facts' }, items);
}

function projectionTable(projections) {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'data' },
      h('caption', {}, 'Projections (F = 2·T·d_in·d_out per request)'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['Projection', 'd_in × d_out', 'FLOPs per request', 'Intensity (FLOP/byte)', 'Rows to ridge', 'Bound'].map(
            (c) => h('th', { scope: 'col' }, c),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        projections.map((p) =>
          h(
            'tr',
            { 'data-projection': p.name },
            h('th', { scope: 'row' }, p.name),
            h('td', {}, `${fmt.count(p.d_in)} × ${fmt.count(p.d_out)}`),
            h('td', {}, fmt.flops(p.flops_per_request)),
            h('td', {}, fmt.number(p.intensity, 4)),
            h('td', {}, p.rows_to_reach_ridge === null ? 'never' : fmt.count(p.rows_to_reach_ridge)),
            h('td', {}, h('span', { class: `bound-badge bound-${p.bound}` }, fmt.bound(p.bound))),
          ),
        ),
      ),
    ),
  );
}

function boundBadge(step, trace) {
  if (step.bound) {
    return h('span', { class: `bound-badge bound-${step.bound}`, 'data-bound': step.bound }, fmt.bound(step.bound));
  }
  // Step 4 runs no kernel of its own: its verdict is the memory fit.
  const fits = trace.totals.memory.fits;
  return h(
    'span',
    { class: `bound-badge ${fits ? 'fit-yes' : 'fit-no'}`, 'data-bound': 'none' },
    fits ? 'no kernels · fits' : 'no kernels · does not fit',
  );
}

export class StepTrace {
  /** @param {(step: number|null) => void} onSelect */
  constructor(onSelect) {
    this.selected = null;
    this.cards = [];
    this.list = h('ol', { class: 'trace-steps' });
    this.element = h(
      'section',
      { class: 'explorer-block steps-block', 'aria-labelledby': 'steps-heading' },
      h('h3', { id: 'steps-heading' }, 'The five steps, computed'),
      h(
        'p',
        { class: 'hint' },
        'Each step of the mechanism with the figures the engine computed for it. ',
        '“Highlight in charts” marks a step’s operators in the pictures below.',
      ),
      this.list,
    );
    this.onSelect = onSelect;
  }

  #card(index) {
    const toggle = h(
      'button',
      { type: 'button', class: 'step-toggle', 'aria-pressed': 'false' },
      'Highlight in charts',
      h('span', { class: 'visually-hidden' }, ` (step ${index + 1})`),
    );
    toggle.addEventListener('click', () => {
      const step = index + 1;
      this.select(this.selected === step ? null : step);
      this.onSelect(this.selected);
    });
    const heading = h('h4', { class: 'step-title' });
    const badge = h('div', { class: 'step-bound' });
    const about = h('div', { class: 'step-about' });
    const facts = h('div', { class: 'step-facts' });
    const item = h(
      'li',
      { class: 'trace-step', 'data-step': String(index + 1) },
      h(
        'div',
        { class: 'step-main' },
        h('div', { class: 'step-head' }, h('span', { class: 'step-number' }, `Step ${index + 1}`), badge),
        heading,
        about,
        toggle,
      ),
      facts,
    );
    return { item, toggle, heading, badge, about, facts };
  }

  select(step) {
    this.selected = step;
    this.cards.forEach((card, i) => {
      const on = step === i + 1;
      card.toggle.setAttribute('aria-pressed', String(on));
      card.item.classList.toggle('is-selected', on);
    });
  }

  update(trace) {
    while (this.cards.length < trace.steps.length) {
      const card = this.#card(this.cards.length);
      this.cards.push(card);
      this.list.append(card.item);
    }
    trace.steps.forEach((step, i) => {
      const card = this.cards[i];
      card.heading.replaceChildren(step.title);
      card.badge.replaceChildren(boundBadge(step, trace));
      const facts = step.facts ?? {};
      card.about.replaceChildren();
      append(card.about, [
        h('p', { class: 'step-text' }, step.text),
        h(
          'p',
          { class: 'step-totals' },
          h('span', { class: 'label' }, 'Step totals'),
          ' ',
          `${fmt.flops(step.totals.flops)} · ${fmt.bytes(step.totals.hbm_bytes)} HBM · ${fmt.seconds(step.totals.seconds)}`,
        ),
        step.operators.length
          ? h('p', { class: 'step-ops' }, h('span', { class: 'label' }, 'Operators'), ' ', step.operators.join(', '))
          : null,
      ]);
      card.facts.replaceChildren();
      append(card.facts, [
        factList(facts, ['projections', 'reuse_example']),
        Array.isArray(facts.projections) ? projectionTable(facts.projections) : null,
      ]);
    });
    this.select(this.selected);
  }
}
