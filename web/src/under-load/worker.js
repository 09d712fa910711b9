// The serving simulation off the page's main thread (a classic Worker, bundled by
// script/build-site as chunks/serving-worker.js). It loads its own copy of the engine (the UMD
// loader, importScripts), runs each job — a scenario JSON with a `serving` object, the engine's
// `simulateServing` (docs/serving.md) — and posts back, per job, only what the page draws: the
// report is parsed here, so the page never parses a large JSON text or waits on a simulation.
//
// Messages in: {type: 'run', id, base, jobs: [{key, json}]}. Out: {type: 'capability', ok} once
// the engine is loaded, then {type: 'result', id, key, ok, error, report} per job, then
// {type: 'done', id}.

/* eslint-env worker */

let engine = null;

async function load(base) {
  if (engine) return engine;
  const dir = new URL('wasm/', base);
  self.importScripts(new URL('prefill_trace.js', dir).href);
  engine = await self.PrefillTrace({ locateFile: (path) => new URL(path, dir).href });
  return engine;
}

/** What the page draws of a report (docs/serving.md, "Output"): the rest stays here. */
function summary(report) {
  const keep = ({ mean, p50, p90, p99 }) => ({ mean, p50, p90, p99 });
  return {
    policy: report.policy,
    devices: report.devices,
    requests: report.requests,
    completed_requests: report.completed_requests,
    overloaded: report.overloaded,
    overload: report.overload,
    simulated_seconds: report.simulated_seconds,
    ttft_seconds: keep(report.ttft_seconds),
    tpot_seconds: keep(report.tpot_seconds),
    queue_seconds: keep(report.queue_seconds),
    slo_attainment: report.slo_attainment,
    throughput_requests_per_second: report.throughput_requests_per_second,
    goodput_requests_per_second: report.goodput_requests_per_second ?? null,
    goodput_per_device: report.goodput_per_device ?? null,
    goodput_target: report.goodput?.target ?? null,
    timeline: report.timeline,
    sweep: (report.sweep ?? []).map((p) => ({
      rate: p.rate_requests_per_second,
      slo_attainment: p.slo_attainment,
      overloaded: p.overloaded,
    })),
  };
}

self.onmessage = async (event) => {
  const message = event.data;
  if (message?.type !== 'run') return;
  let module;
  try {
    module = await load(message.base);
  } catch (error) {
    self.postMessage({ type: 'capability', ok: false, error: `the engine could not load in the worker: ${error?.message ?? error}` });
    return;
  }
  if (typeof module.simulateServing !== 'function') {
    self.postMessage({ type: 'capability', ok: false, error: 'this build of the engine has no serving simulation' });
    return;
  }
  self.postMessage({ type: 'capability', ok: true });
  for (const job of message.jobs) {
    let reply;
    try {
      const result = module.simulateServing(job.json);
      reply = result.ok
        ? { ok: true, error: '', report: summary(JSON.parse(result.json)) }
        : { ok: false, error: String(result.error), report: null };
    } catch (error) {
      reply = { ok: false, error: `the engine failed while simulating: ${error?.message ?? error}`, report: null };
    }
    self.postMessage({ type: 'result', id: message.id, key: job.key, ...reply });
  }
  self.postMessage({ type: 'done', id: message.id });
};
