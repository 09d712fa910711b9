// What the "Under load" part draws of a serving report (docs/serving.md, "Output"): the rest of
// the report is dropped where it was parsed (in the Worker, or on the page when no Worker can
// run). Shared by worker.js and under-load.js.

/** What "Under load" keeps of one run's report (servingSummary). @typedef {ReturnType<typeof servingSummary>} ServingFigures */

/**
 * A `{mean, p50, p90, p99}` summary, or null: the engine writes null when no finished request
 * has the figure (TPOT of one-token outputs, or nothing finished before an overload).
 * @param {import('prefill-trace').ServingSummary | null | undefined} summary
 */
function quantiles(summary) {
  if (summary == null) return null;
  const { mean, p50, p90, p99 } = summary;
  return { mean, p50, p90, p99 };
}

/**
 * The figures "Under load" draws of `report`.
 * @param {import('prefill-trace').ServingReport} report
 */
export function servingSummary(report) {
  return {
    policy: report.policy,
    devices: report.devices,
    requests: report.requests,
    completed_requests: report.completed_requests,
    overloaded: report.overloaded,
    overload: report.overload,
    simulated_seconds: report.simulated_seconds,
    ttft_seconds: quantiles(report.ttft_seconds),
    tpot_seconds: quantiles(report.tpot_seconds),
    tbt_max_seconds: quantiles(report.tbt_max_seconds),
    queue_seconds: quantiles(report.queue_seconds),
    slo_attainment: report.slo_attainment,
    throughput_requests_per_second: report.throughput_requests_per_second,
    goodput_requests_per_second: report.goodput_requests_per_second ?? null,
    goodput_per_device: report.goodput_per_device ?? null,
    goodput_target: report.goodput?.target ?? null,
    timeline: report.timeline,
    // The K/V picture's (charts/serving-kv.js): blocks in use, paged or reserve, in blocks of
    // block_size, and the requests running at once.
    kv_capacity_blocks: report.kv_capacity_blocks,
    block_size: report.serving.block_size,
    preemptions: report.preemptions,
    running_requests_mean: report.running_requests_mean,
    // The token picture's (charts/serving-tokens.js): a few requests' every token time.
    token_times: report.token_times ?? null,
    sweep: (report.sweep ?? []).map((p) => ({
      rate: p.rate_requests_per_second,
      slo_attainment: p.slo_attainment,
      overloaded: p.overloaded,
    })),
  };
}
