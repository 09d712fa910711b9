// A trace document refilled from the engine's figures (layout version 2, docs/trace-json.md,
// "Figures"): a control change costs one JSON-free `traceFigures` call instead of building,
// sending and parsing the whole JSON text. The strings and the preset shapes (the *shape*) do
// not change with the numbers the controls move; the figures carry a signature of that shape,
// and a document computed once with the same signature supplies them. Nothing is computed here:
// every number is copied from the engine's array, in the order its writer put them.

export const FIGURES_LAYOUT_VERSION = 2;
const SUMMARY_COUNT = 16; // version 1's summary, kept at the start of the array
const PER_OPERATOR = 12; // version 1's per-operator block
// The engine's Bound codes, in its enum's order (src/trace.hpp).
const BOUND_NAMES = ['compute', 'memory', 'overhead', 'interconnect'];

/** The per-operator figures of version 1's block, in their order (docs/trace-json.md). */
const OPERATOR_FIELDS = ['step', 'count', 'launches', 'flops', 'computed_flops', 'hbm_bytes', 'intensity',
  'compute_seconds', 'memory_seconds', 'overhead_seconds', 'seconds', 'bound'];

/**
 * One figure (`field`, a name of OPERATOR_FIELDS) of operator `index` (its place in the trace's
 * `operators[]`), read from a figures array without refilling a document; NaN when the array
 * has no such operator or another layout.
 */
export function operatorFigure(figures, index, field) {
  const at = OPERATOR_FIELDS.indexOf(field);
  if (figures[0] !== FIGURES_LAYOUT_VERSION || at < 0 || index < 0 || index >= figures[1]) return NaN;
  return figures[2 + SUMMARY_COUNT + PER_OPERATOR * index + at];
}

/** Where version 2's extension starts, or -1 when `figures` is not version 2. */
function extensionStart(figures) {
  if (figures[0] !== FIGURES_LAYOUT_VERSION) return -1;
  return 2 + SUMMARY_COUNT + PER_OPERATOR * figures[1];
}

/** The shape signature of a figures array (NaN when the layout is not version 2). */
export function figuresSignature(figures) {
  const start = extensionStart(figures);
  return start < 0 ? NaN : figures[start];
}

/**
 * Writes every number of `figures` into `t` in place (a trace document of the signature
 * `shapeSignature`, such as one computeTrace returned), so a change costs no copy of the
 * document. Returns false, having written nothing, when the signatures differ; false also when
 * the array's length does not match the shape, and then `t` is partly written and must be
 * dropped.
 */
export function refillTrace(t, shapeSignature, figures) {
  const start = extensionStart(figures);
  if (start < 0 || figures[start] !== shapeSignature) return false;
  let at = start + 1;
  const number = () => figures[at++];
  const maybe = () => {
    const value = figures[at++];
    return Number.isNaN(value) ? null : value;
  };
  const flag = () => figures[at++] === 1;
  const bound = () => BOUND_NAMES[figures[at++]];
  const maybeBound = () => {
    const value = figures[at++];
    return Number.isNaN(value) ? null : BOUND_NAMES[value];
  };

  const s = t.scenario;
  for (const key of ['prompt_tokens', 'batch', 'chunk_tokens', 'gemm_m_tile', 'attention_block',
    'arrival_rate', 'delivery_seconds', 'tensor_parallel']) s[key] = number();
  s.compute_efficiency = maybe();
  s.memory_efficiency = maybe();
  t.parameters = number();
  t.roofline.peak_flops = number();
  t.roofline.bandwidth = number();
  t.roofline.ridge_flops_per_byte = number();
  for (const op of t.operators) {
    op.step = number();
    op.count = number();
    op.per_layer = flag();
    op.launches = number();
    op.flops = number();
    op.computed_flops = number();
    for (const key of ['weights', 'activations', 'kv', 'scores', 'total']) op.hbm_bytes[key] = number();
    for (const key of ['intensity', 'compute_seconds', 'memory_seconds', 'link_bytes',
      'interconnect_seconds', 'overhead_seconds', 'seconds', 'seconds_low', 'seconds_high', 'occupancy',
      'useful_fraction']) op[key] = number();
    op.bound = bound();
  }
  for (const step of t.steps) {
    step.step = number();
    for (const key of ['flops', 'hbm_bytes', 'seconds', 'seconds_low', 'seconds_high', 'overhead_seconds']) {
      step.totals[key] = number();
    }
    step.bound = maybeBound();
  }
  const facts = (n) => t.steps.find((step) => step.step === n).facts;
  const embedding = facts(1);
  for (const key of ['embedding_bytes', 'kernel_launches', 'kernels_per_layer', 'layers',
    'launch_overhead_total_seconds']) embedding[key] = number();
  const projection = facts(2);
  projection.tensor_parallel = number();
  projection.kv_heads_per_device = number();
  projection.kv_heads_replicated = flag();
  for (const row of projection.projections) {
    for (const key of ['d_in', 'd_out', 'flops_per_request', 'intensity']) row[key] = number();
    row.bound = bound();
    row.rows_to_reach_ridge = maybe();
  }
  for (const key of ['projection_flops_per_request', 'weight_reuse_rows', 'ridge_flops_per_byte']) {
    projection[key] = number();
  }
  for (const row of projection.reuse_example) {
    row.rows = number();
    row.intensity = number();
    row.weight_bytes_per_row = number();
    row.bound = bound();
  }
  const attention = facts(3);
  for (const key of ['block', 'useful_pairs_per_head', 'computed_pairs_per_head', 'tiles_per_head',
    'score_matrix_bytes', 'score_traffic_bytes', 'score_bytes_avoided', 'kv_bytes_written',
    'kv_bytes_per_token', 'sliding_window', 'kv_tokens_kept', 'kv_bytes_kept']) attention[key] = number();
  const { memory, chunking } = facts(4);
  for (const key of ['weight_bytes', 'kv_bytes', 'residual_bytes', 'attention_workspace_bytes',
    'mlp_workspace_bytes', 'score_bytes', 'logits_bytes', 'temporaries_bytes', 'peak_bytes',
    'capacity_bytes']) memory[key] = number();
  memory.fits = flag();
  memory.exceeds_by_bytes = number();
  for (const key of ['chunks', 'chunk_tokens', 'temporaries_unchunked_bytes', 'extra_weight_bytes',
    'kv_reread_bytes']) chunking[key] = number();
  const ttft = facts(5);
  ttft.queue_seconds = maybe();
  for (const key of ['batch_formation_seconds', 'execution_seconds', 'delivery_seconds']) ttft[key] = number();
  ttft.total_seconds = maybe();
  for (const key of ['service_seconds', 'saturation_arrival_rate', 'utilization']) ttft[key] = number();
  ttft.overloaded = flag();
  for (const key of ['flops', 'hbm_bytes', 'seconds', 'seconds_low', 'seconds_high', 'overhead_seconds']) {
    t.totals[key] = number();
  }
  t.totals.ttft.total_seconds_low = maybe();
  t.totals.ttft.total_seconds_high = maybe();
  // The totals' summaries repeat step facts (trace_to_json builds them from the same fields).
  t.totals.kv_cache.bytes = attention.kv_bytes_kept;
  for (const key of ['peak_bytes', 'capacity_bytes', 'fits', 'exceeds_by_bytes']) t.totals.memory[key] = memory[key];
  for (const key of ['queue_seconds', 'execution_seconds', 'delivery_seconds', 'total_seconds', 'overloaded']) {
    t.totals.ttft[key] = ttft[key];
  }
  const d = t.decode_comparison;
  for (const key of ['context_tokens', 'flops', 'hbm_bytes', 'intensity', 'seconds']) d[key] = number();
  d.bound = bound();
  for (const key of ['projection_intensity', 'prefill_projection_intensity', 'prefill_intensity']) d[key] = number();
  d.prefill_bound = bound();
  return at === figures.length;
}
