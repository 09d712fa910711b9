// The serving simulation in headless Chromium (docs/performance.md, "Serving simulation"): the
// same module the page loads (build/wasm), the same workload as bench/serving-bench.mjs, timed
// inside the page with performance.now(). Prints figures; never fails on time.
// Run: node bench/serving-browser-bench.mjs (needs build/wasm and Debian's Chromium).
import { createServer } from "node:http";
import { readFileSync } from "node:fs";
import path from "node:path";
import { launchChromium } from "../tests/browser/helpers.mjs";
import { wasmDir } from "../tests/js/load-module.mjs";

const page = `<!doctype html><meta charset="utf-8"><title>serving bench</title>
<script src="/prefill_trace.js"></script>`;
const files = {
  "/prefill_trace.js": ["text/javascript", readFileSync(path.join(wasmDir, "prefill_trace.js"))],
  "/prefill_trace.wasm": ["application/wasm", readFileSync(path.join(wasmDir, "prefill_trace.wasm"))],
};
const server = createServer((request, response) => {
  const [type, body] = files[request.url] ?? ["text/html", page];
  response.writeHead(200, { "content-type": type });
  response.end(body);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await launchChromium();
try {
  const tab = await browser.newPage();
  await tab.goto(`${origin}/`);
  const figures = await tab.evaluate(async () => {
    const module = await PrefillTrace(); // eslint-disable-line no-undef
    const base = { model: "llama-3.1-8b", hardware: "h100-sxm" };
    const workload = { prompt: "lognormal:1024:0.5", output: "lognormal:128:0.5", ttft_slo: 0.5, tpot_slo: 0.05 };
    const run = (serving) => {
      const start = performance.now();
      const reply = module.simulateServing(JSON.stringify({ ...base, serving }));
      const seconds = (performance.now() - start) / 1000;
      if (!reply.ok) throw new Error(reply.error);
      return { seconds, report: JSON.parse(reply.json) };
    };
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const capacity = run({ policy: "chunked", rate: 1e6, requests: 3000, max_queue: 100000, ...workload })
      .report.throughput_requests_per_second;
    const run10k = { policy: "chunked", rate: 0.8 * capacity, requests: 10000, ...workload };
    const times = [];
    let simulated = 0;
    for (let i = 0; i < 3; ++i) {
      const { seconds, report } = run(run10k);
      times.push(seconds);
      simulated = report.simulated_seconds;
    }
    const rates = Array.from({ length: 20 }, (_, i) => capacity * (0.1 + 0.07 * i));
    const sweeps = {};
    for (const policy of ["prefill-first", "chunked", "disaggregated"]) {
      const serving = { policy, rate: rates[0], requests: 500, sweep_rates: rates, timeline_points: 0, ...workload };
      const sweepTimes = [];
      for (let i = 0; i < 3; ++i) sweepTimes.push(run(serving).seconds);
      sweeps[policy] = median(sweepTimes);
    }
    return { capacity, simulated, seconds10k: median(times), sweeps };
  });
  const total = Object.values(figures.sweeps).reduce((a, b) => a + b, 0);
  console.log(`Chromium ${browser.version()}`);
  console.log(`10,000 requests at 80 % load: simulated ${figures.simulated.toFixed(1)} s in ${figures.seconds10k.toFixed(3)} s (median of 3) -> ${(figures.simulated / figures.seconds10k).toExponential(2)} simulated s per s`);
  for (const [policy, seconds] of Object.entries(figures.sweeps))
    console.log(`20-rate sweep, 500 requests, ${policy.padEnd(14)} ${seconds.toFixed(3)} s`);
  console.log(`20-rate sweep x 3 schedulers                ${total.toFixed(3)} s`);
} finally {
  await browser.close();
  server.close();
}
