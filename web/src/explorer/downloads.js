// "Download trace": the engine's trace JSON byte for byte, or a CSV of its operators with a
// header that names each column's unit. Values are written as the engine gave them (full
// precision), per kernel instance; `count` says how many instances the trace runs.

const CSV_COLUMNS = [
  ['name', 'name', (op) => op.name],
  ['step', 'step', (op) => op.step],
  ['count (instances)', 'count', (op) => op.count],
  ['per_layer (true/false)', 'per_layer', (op) => op.per_layer],
  ['launches (per instance)', 'launches', (op) => op.launches],
  ['flops (FLOP per instance)', 'flops', (op) => op.flops],
  ['computed_flops (FLOP per instance)', 'computed_flops', (op) => op.computed_flops],
  ['hbm_weights (bytes per instance)', 'hbm_bytes.weights', (op) => op.hbm_bytes.weights],
  ['hbm_activations (bytes per instance)', 'hbm_bytes.activations', (op) => op.hbm_bytes.activations],
  ['hbm_kv (bytes per instance)', 'hbm_bytes.kv', (op) => op.hbm_bytes.kv],
  ['hbm_scores (bytes per instance)', 'hbm_bytes.scores', (op) => op.hbm_bytes.scores],
  ['hbm_total (bytes per instance)', 'hbm_bytes.total', (op) => op.hbm_bytes.total],
  ['intensity (FLOP/byte)', 'intensity', (op) => op.intensity],
  ['compute_seconds (s per instance)', 'compute_seconds', (op) => op.compute_seconds],
  ['memory_seconds (s per instance)', 'memory_seconds', (op) => op.memory_seconds],
  ['overhead_seconds (s per instance)', 'overhead_seconds', (op) => op.overhead_seconds],
  ['seconds (s per instance)', 'seconds', (op) => op.seconds],
  ['bound', 'bound', (op) => op.bound],
  ['useful_fraction (ratio)', 'useful_fraction', (op) => op.useful_fraction],
];

/** The trace JSON field each CSV column comes from, in column order (for tests and docs). */
export const CSV_FIELDS = CSV_COLUMNS.map(([, field]) => field);

function csvCell(value) {
  const text = value === null || value === undefined ? '' : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV text of the trace's operators: a header row naming units, then one row per operator. */
export function traceCsv(trace) {
  const lines = [CSV_COLUMNS.map(([header]) => csvCell(header)).join(',')];
  for (const op of trace.operators) {
    lines.push(CSV_COLUMNS.map(([, , read]) => csvCell(read(op))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A file name that says which scenario the trace is of. */
export function traceFileName(trace, extension) {
  const s = trace.scenario;
  const model = String(s.model.id ?? 'custom').replace(/[^A-Za-z0-9._-]+/g, '-');
  return `prefill-trace_${model}_${s.hardware.id}_${s.precision.name}_T${s.prompt_tokens}_B${s.batch}.${extension}`;
}

/** Offers `text` as a download named `fileName`. */
export function download(text, fileName, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  // A detached link is enough to start a download; nothing is added to the host page.
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
