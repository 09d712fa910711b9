#!/usr/bin/env node
// Prints wasm/native ratios for the calls both sides measure the same way (same scenario, same
// entry point, median wall time), from the two result files script/bench writes:
//   node bench/ratios.mjs NATIVE_GOOGLE_BENCHMARK.json WASM_BENCH.json
import { readFileSync } from "node:fs";

const [nativeFile, wasmFile] = process.argv.slice(2);
const native = JSON.parse(readFileSync(nativeFile, "utf8"));
const wasm = JSON.parse(readFileSync(wasmFile, "utf8"));

// Google Benchmark's median aggregate of one benchmark, in the unit the wasm side reports.
function nativeMedian(name, unit) {
  const row = native.benchmarks.find((b) => b.run_name === name && b.aggregate_name === "median");
  if (!row) throw new Error(`no median for ${name} in ${nativeFile}`);
  const seconds = row.real_time * { ns: 1e-9, us: 1e-6, ms: 1e-3, s: 1 }[row.time_unit];
  return seconds * { "µs": 1e6, ms: 1e3 }[unit];
}

const pairs = [
  ["405B trace figures (traceFigures / api::trace_figures)", "wasm traceFigures 405B (median)", "BM_Trace405B_Figures", "µs"],
  ["405B trace JSON text (computeTrace / api::compute_trace)", "wasm computeTrace 405B, JSON text (median)", "BM_Trace405B_JsonFacade", "µs"],
  ["1 000-point prompt-length sweep (sweep / api::sweep)", "wasm sweep, 1000 prompt lengths (median)", "BM_Sweep1000PromptLengths", "ms"],
];
for (const [label, wasmName, nativeName, unit] of pairs) {
  const w = wasm[wasmName];
  const n = nativeMedian(nativeName, unit);
  const figures = `${w.toFixed(unit === "ms" ? 2 : 1)} / ${n.toFixed(unit === "ms" ? 2 : 1)} ${unit}`;
  console.log(`${`ratio wasm/native, ${label}`.padEnd(92)} ${(w / n).toFixed(2).padStart(6)} ×  (${figures})`);
}
