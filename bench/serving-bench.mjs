// Speed of the serving simulation (docs/performance.md, "Serving simulation"). Prints figures;
// never fails on time. Native: the CLI (`serve --json`, process start included); wasm: the
// module in Node (V8, the engine Chromium runs). Run: node bench/serving-bench.mjs
import { spawnSync } from "node:child_process";
import { writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadModule, nativeCli } from "../tests/js/load-module.mjs";

const module = await loadModule();
const scratch = mkdtempSync(path.join(tmpdir(), "serving-bench-"));
const base = { model: "llama-3.1-8b", hardware: "h100-sxm" };
const workload = { prompt: "lognormal:1024:0.5", output: "lognormal:128:0.5", ttft_slo: 0.5, tpot_slo: 0.05 };

function wasmRun(serving) {
  const start = performance.now();
  const reply = module.simulateServing(JSON.stringify({ ...base, serving }));
  const seconds = (performance.now() - start) / 1000;
  if (!reply.ok) throw new Error(reply.error);
  return { seconds, report: JSON.parse(reply.json) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

// Capacity: the throughput of a saturated run (every request queued at once, no queue cap).
const saturated = wasmRun({ policy: "chunked", rate: 1e6, requests: 3000, max_queue: 100000, ...workload });
const capacity = saturated.report.throughput_requests_per_second;
const rate = 0.8 * capacity;
console.log(`capacity (chunked, saturated)                  ${capacity.toFixed(2)} req/s; 80 % load = ${rate.toFixed(2)} req/s`);

const run10k = { policy: "chunked", rate, requests: 10000, ...workload };
const wasmTimes = [];
let simulated = 0;
for (let i = 0; i < 3; ++i) {
  const { seconds, report } = wasmRun(run10k);
  wasmTimes.push(seconds);
  simulated = report.simulated_seconds;
}
const file = path.join(scratch, "run10k.json");
writeFileSync(file, JSON.stringify({ ...base, serving: run10k }));
const nativeTimes = [];
for (let i = 0; i < 3; ++i) {
  const start = performance.now();
  const run = spawnSync(nativeCli, ["serve", "--scenario", file, "--json"], { maxBuffer: 1 << 26 });
  nativeTimes.push((performance.now() - start) / 1000);
  if (run.status !== 0) throw new Error(run.stderr.toString());
}
console.log(`10,000 requests at 80 % load: simulated         ${simulated.toFixed(1)} s`);
console.log(`  native CLI wall (median of 3)                 ${median(nativeTimes).toFixed(3)} s  -> ${(simulated / median(nativeTimes)).toExponential(2)} simulated s per wall s`);
console.log(`  wasm in Node wall (median of 3)               ${median(wasmTimes).toFixed(3)} s  -> ${(simulated / median(wasmTimes)).toExponential(2)} simulated s per wall s`);

// 20-rate sweep for each scheduler (one call each: 20 runs of 500 requests + the base run).
const rates = Array.from({ length: 20 }, (_, i) => capacity * (0.1 + 0.07 * i));
let sweepTotal = 0;
for (const policy of ["prefill-first", "chunked", "disaggregated"]) {
  const serving = { policy, rate: rates[0], requests: 500, sweep_rates: rates, timeline_points: 0, ...workload };
  const times = [];
  for (let i = 0; i < 3; ++i) times.push(wasmRun(serving).seconds);
  sweepTotal += median(times);
  console.log(`20-rate sweep, 500 requests, ${policy.padEnd(14)}   ${median(times).toFixed(3)} s (wasm, Node)`);
}
console.log(`20-rate sweep x 3 schedulers                    ${sweepTotal.toFixed(3)} s (wasm, Node)`);

// Cost growth: requests and output length.
for (const requests of [2500, 5000, 10000]) {
  const { seconds } = wasmRun({ ...run10k, requests });
  console.log(`requests ${String(requests).padEnd(6)} output ~128                   ${seconds.toFixed(3)} s`);
}
for (const output of [64, 128, 256]) {
  const { seconds } = wasmRun({ ...run10k, requests: 2500, rate: rate * 128 / output, output: `lognormal:${output}:0.5` });
  console.log(`requests 2500   output ~${String(output).padEnd(4)} (rate scaled)      ${seconds.toFixed(3)} s`);
}
