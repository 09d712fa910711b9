// "Download trace": the engine's trace JSON byte for byte, or its CSV of the operators (the
// engine writes it: the same schema as `prefill-trace trace --csv`, docs/trace-json.md).

/**
 * A file name that says which scenario the trace is of.
 * @param {import('prefill-trace').TraceDocument} trace
 * @param {string} extension
 */
export function traceFileName(trace, extension) {
  const s = trace.scenario;
  const model = String(s.model.id ?? 'custom').replace(/[^A-Za-z0-9._-]+/g, '-');
  return `prefill-trace_${model}_${s.hardware.id}_${s.precision.name}_T${s.prompt_tokens}_B${s.batch}.${extension}`;
}

/**
 * Offers `text` as a download named `fileName`.
 * @param {string} text
 * @param {string} fileName
 * @param {string} type  its MIME type
 */
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
