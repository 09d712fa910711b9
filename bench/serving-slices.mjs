#!/usr/bin/env node
// The serving simulation in slices under Node (docs/serving.md, "In slices"; docs/performance.md):
// the page's 37 "Under load" jobs at its defaults driven as web/src/under-load/under-load.js drives
// them without a Worker (a budget of work units adapted toward 8 ms per slice), twice: the time of
// each start, advance and result + JSON.parse. Prints figures, never a pass or a fail.
// Needs build/wasm.   node bench/serving-slices.mjs
import { loadModule } from "../tests/js/load-module.mjs";
const m = await loadModule();
// The page's defaults: the prefill's saturation rate (H100, Llama 3.1 8B, 2,048 tokens) and 0.3 of it.
const sat = 29.8, rate = 8.94;
const base = { model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048, arrival_rate: 0, batch: 1 };
const minute = (r, least = 20) => Math.min(2000, Math.max(least, Math.ceil(r * 60)));
const job = (policy, serving) => JSON.stringify({ ...base, serving: { policy, seed: 1, prompt: 2048, output: 256, ttft_slo: 1, tpot_slo: 0.05, timeline_points: 0, ...serving } });
const jobs = ["prefill-first", "chunked", "disaggregated"].flatMap((p) => [
  job(p, { rate, requests: minute(rate), timeline_points: 240, token_times: 4 }),
  ...[0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1].map((f) => job(p, { rate: Number((sat * f).toPrecision(3)), requests: minute(sat * f) })),
  job(p, { rate: Number((sat * 0.5).toPrecision(3)), requests: minute(sat, 200), goodput: true }),
]);
for (const pass of [1, 2]) {
  let budget = 50000; const times = { start: [], advance: [], result: [] }; const t0 = performance.now();
  for (const json of jobs) {
    const s = new m.ServingSimulation();
    let t = performance.now(); s.start(json); times.start.push(performance.now() - t);
    for (;;) { t = performance.now(); const r = s.advance(budget); const d = performance.now() - t; times.advance.push(d); if (r.done) break; budget = Math.min(2e6, Math.max(2000, Math.round(budget * (d > 0 ? Math.min(2, Math.max(0.5, 8 / d)) : 2)))); }
    t = performance.now(); JSON.parse(s.result().json); times.result.push(performance.now() - t); s.delete();
  }
  const all = performance.now() - t0;
  const f = (l) => { l.sort((a, b) => a - b); return `n ${l.length}, median ${l[l.length >> 1].toFixed(2)}, p99 ${l[Math.floor(l.length * 0.99)].toFixed(1)}, max ${l.at(-1).toFixed(1)} ms, over 50: ${l.filter((x) => x > 50).length}`; };
  console.log(`pass ${pass}: ${all.toFixed(0)} ms in all; start ${f(times.start)}; advance ${f(times.advance)}; result+parse ${f(times.result)}`);
}
