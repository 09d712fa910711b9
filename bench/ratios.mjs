#!/usr/bin/env node
// Prints wasm/native ratios for the calls both sides measure the same way (same scenario, same
// entry point, median wall time), from the result files script/bench writes:
//   node bench/ratios.mjs NATIVE.json WASM.json [NATIVE_AGAIN.json ...]
// script/bench runs the native benchmarks before and after the wasm ones; the native figure is
// the mean of the runs' medians, so a machine that speeds up or slows down during the run (these
// are shared machines) moves both sides of the ratio alike instead of only one.
import { readFileSync } from "node:fs";

const [firstNativeFile, wasmFile, ...moreNativeFiles] = process.argv.slice(2);
const nativeFiles = [firstNativeFile, ...moreNativeFiles];
const natives = nativeFiles.map((file) => ({ file, results: JSON.parse(readFileSync(file, "utf8")) }));
const wasm = JSON.parse(readFileSync(wasmFile, "utf8"));

// Google Benchmark's median aggregate of one benchmark in one file, in the wasm side's unit.
function nativeMedian({ file, results }, name, unit) {
  const row = results.benchmarks.find((b) => b.run_name === name && b.aggregate_name === "median");
  if (!row) throw new Error(`no median for ${name} in ${file}`);
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
  const medians = natives.map((native) => nativeMedian(native, nativeName, unit));
  const n = medians.reduce((sum, m) => sum + m, 0) / medians.length;
  const digits = unit === "ms" ? 2 : 1;
  const nativeText = medians.length > 1 ? `mean of ${medians.map((m) => m.toFixed(digits)).join(" and ")}` : n.toFixed(digits);
  const figures = `${w.toFixed(digits)} / ${nativeText} ${unit}`;
  console.log(`${`ratio wasm/native, ${label}`.padEnd(92)} ${(w / n).toFixed(2).padStart(6)} ×  (${figures})`);
}
