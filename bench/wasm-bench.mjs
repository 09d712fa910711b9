// Node benchmark of the wasm module: the same scenarios as bench/engine_bench.cpp, plus the
// pure-JS reference for comparison. Prints one line per figure (medians); never fails on time.
import { loadModule } from "../tests/js/load-module.mjs";
import { referenceTrace } from "../tests/js/reference-trace.mjs";

const module = await loadModule();
const s405 = JSON.stringify({ model: "llama-3.1-405b", hardware: "h100-sxm", prompt_tokens: 2048 });
const s7 = JSON.stringify({ model: "llama-2-7b", hardware: "h100-sxm", prompt_tokens: 2048 });

function median(fn, runs = 2000, warmup = 300) {
  for (let i = 0; i < warmup; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((x, y) => x - y);
  return times[Math.floor(times.length / 2)] * 1000;  // µs
}

const results = {};
const report = (name, value, unit) => {
  results[name] = value;
  console.log(`${name.padEnd(48)} ${value.toFixed(unit === "µs" ? 1 : 3).padStart(10)} ${unit}`);
};

// V8 first runs wasm on its baseline compiler (Liftoff) and recompiles hot functions with
// TurboFan in the background; measure the steady state a page reaches after a few changes.
for (const end = performance.now() + 1000; performance.now() < end;) {
  module.traceFigures(s405);
  module.computeTrace(s7);
  module.sweep(s7, "prompt_tokens", [128, 256, 512]);
}

report("wasm traceFigures 405B (median)", median(() => module.traceFigures(s405)), "µs");
report("wasm computeTrace 405B, JSON text (median)", median(() => module.computeTrace(s405), 500), "µs");
report("wasm computeTrace 405B, JSON + JSON.parse (median)", median(() => JSON.parse(module.computeTrace(s405).json), 500), "µs");
const sweepValues = Float64Array.from({ length: 1000 }, (_, i) => (i + 1) * 128);
report("wasm sweep, 1000 prompt lengths (median)", median(() => module.sweep(s7, "prompt_tokens", sweepValues), 30, 5) / 1000, "ms");
const rates = Float64Array.from({ length: 1000 }, (_, i) => i * 0.01);
report("wasm sweep, 1000 arrival rates (median)", median(() => module.sweep(s7, "arrival_rate", rates), 30, 5) / 1000, "ms");

// The pure-JS comparison point: Llama-2-7B, 2048 tokens, H100, bf16.
const presets = JSON.parse(module.listPresets().json);
const llama = presets.models.find((m) => m.id === "llama-2-7b");
const h100 = presets.accelerators.find((h) => h.id === "h100-sxm");
const js = referenceTrace(llama, h100, 2048);
const engine = JSON.parse(module.computeTrace(s7).json).totals;
let agree = true;
for (const key of ["flops", "hbm_bytes", "seconds"]) {
  const relative = Math.abs(js[key] - engine[key]) / engine[key];
  if (relative > 1e-12) {
    console.error(`cross-check FAILED: ${key} js ${js[key]} engine ${engine[key]}`);
    agree = false;
    process.exitCode = 1;
  }
}
if (agree) console.log(`${"cross-check JS reference vs engine (7B totals)".padEnd(48)} ${"agree".padStart(10)} (rel. diff ≤ 1e-12)`);
report("pure JS reference trace 7B (median)", median(() => referenceTrace(llama, h100, 2048)), "µs");
report("wasm traceFigures 7B (median)", median(() => module.traceFigures(s7)), "µs");
console.log(`${"ratio wasm traceFigures / pure JS (7B)".padEnd(48)} ${(results["wasm traceFigures 7B (median)"] / results["pure JS reference trace 7B (median)"]).toFixed(2).padStart(10)} ×`);
if (process.env.BENCH_JSON) {
  const { writeFileSync } = await import("node:fs");
  writeFileSync(process.env.BENCH_JSON, JSON.stringify(results));
}
