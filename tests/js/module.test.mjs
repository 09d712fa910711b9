// The wasm module under Node gives the same answers as the native build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadModule, nativeCli, lessonPath } from "./load-module.mjs";

const lessonText = readFileSync(lessonPath, "utf8");

// Equality of two long texts, reporting only where they first differ.
function assertSameText(actual, expected, label) {
  if (actual === expected) return;
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  assert.fail(`${label}: first difference at character ${i}: ` +
    `wasm …${actual.slice(Math.max(0, i - 60), i + 60)}… native …${expected.slice(Math.max(0, i - 60), i + 60)}…`);
}
const module = await loadModule();

test("the published lesson loads and round-trips unchanged", () => {
  const result = module.loadLesson(lessonText);
  assert.equal(result.ok, true, result.error);
  assert.deepEqual(JSON.parse(result.lessonJson), JSON.parse(lessonText));
});

test("quiz: same verdicts as the native CLI", () => {
  for (const choice of [0, 1, 2]) {
    const wasm = module.checkAnswer(lessonText, 0, choice);
    assert.equal(wasm.ok, true);
    // The CLI numbers options from 1 and exits 0 for correct, 1 for wrong.
    const native = spawnSync(nativeCli, ["quiz", "--answer", String(choice + 1), lessonPath]);
    assert.equal(native.status, wasm.correct ? 0 : 1);
    assert.match(native.stdout.toString(), new RegExp(wasm.explanation.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  }
  for (const bad of [-1, 3, 0.5, NaN, Infinity]) {
    const result = module.checkAnswer(lessonText, 0, bad);
    assert.equal(result.ok, false, String(bad));
    assert.equal(result.error, "answer must be an integer option index from 0 to 2");
  }
});

test("a lesson failing the contract gets the same error in wasm and native", () => {
  const lesson = JSON.parse(lessonText);
  lesson.check.answer = 3;
  const dir = mkdtempSync(path.join(tmpdir(), "prefill-trace-"));
  const file = path.join(dir, "bad.json");
  writeFileSync(file, JSON.stringify(lesson));
  const wasm = module.loadLesson(JSON.stringify(lesson));
  assert.equal(wasm.ok, false);
  assert.equal(wasm.error, "/check/answer: must be an integer index into /check/options (3 items)");
  const native = spawnSync(nativeCli, ["lesson", file]);
  assert.equal(native.status, 2);
  assert.equal(native.stderr.toString(), `prefill-trace: ${file}: ${wasm.error}\n`);
});

test("trace JSON is byte-for-byte the native CLI's", () => {
  const scenarios = [
    { model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048 },
    { model: "llama-3.1-405b", hardware: "mi300x", precision: "fp8", prompt_tokens: 131072, chunk_tokens: 8192, batch: 2,
      arrival_rate: 0.01, delivery_seconds: 0.005 },
    { model: "mixtral-8x7b", hardware: "a100-sxm-80gb", attention: "materialized", prompt_tokens: 777, gemm_m_tile: 64 },
    { model: "opt-13b", hardware: "rtx-4090", precision: "int4", prompt_tokens: 1, arrival_rate: 1e6 },
  ];
  const dir = mkdtempSync(path.join(tmpdir(), "prefill-trace-"));
  for (const scenario of scenarios) {
    const file = path.join(dir, "scenario.json");
    writeFileSync(file, JSON.stringify(scenario));
    const native = execFileSync(nativeCli, ["trace", "--scenario", file, "--json"]).toString();
    const wasm = module.computeTrace(JSON.stringify(scenario));
    assert.equal(wasm.ok, true, wasm.error);
    assertSameText(wasm.json + "\n", native, JSON.stringify(scenario));
  }
});

test("sweeps take a typed array in one call and refuse oversized requests", () => {
  const scenario = JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm" });
  const values = Float64Array.from({ length: 1000 }, (_, i) => i + 1);
  const result = module.sweep(scenario, "prompt_tokens", values);
  assert.equal(result.ok, true, result.error);
  const points = JSON.parse(result.json).points;
  assert.equal(points.length, 1000);
  // Execution time grows with the prompt; nothing queues at λ = 0.
  assert.ok(points[999].execution_seconds > points[0].execution_seconds);
  assert.ok(points.every((p) => p.queue_seconds === 0 && Number.isFinite(p.total_seconds)));
  const tooMany = module.sweep(scenario, "arrival_rate", new Float64Array(5000));
  assert.equal(tooMany.ok, false);
  assert.equal(tooMany.error, "sweep: values must be an array of between 1 and 4096 numbers");
  const rates = module.sweep(scenario, "arrival_rate", [0, 1e9]);
  assert.equal(JSON.parse(rates.json).points[1].overloaded, true);
  assert.equal(JSON.parse(rates.json).points[1].total_seconds, null);
});

test("presets list every model and accelerator with a source", () => {
  const presets = JSON.parse(module.listPresets().json);
  assert.deepEqual(presets.models.map((m) => m.id),
    ["llama-2-7b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "mistral-7b", "mixtral-8x7b", "opt-13b"]);
  for (const entry of [...presets.models, ...presets.accelerators]) assert.match(entry.source_url, /^https:\/\//);
});

test("traceFigures carries the same numbers as the trace JSON", () => {
  const scenario = JSON.stringify({ model: "mixtral-8x7b", hardware: "h200", prompt_tokens: 3000, arrival_rate: 2 });
  const trace = JSON.parse(module.computeTrace(scenario).json);
  const { ok, figures } = module.traceFigures(scenario);
  assert.equal(ok, true);
  assert.ok(figures instanceof Float64Array);
  // Layout 3 (docs/trace-json.md, "Figures"): [3, signature, every number of the document in
  // the order its JSON text prints it], null as NaN, booleans 1/0, a bound as its index in
  // figuresLayout()'s names. The expected list is read off the JSON text here, leaf by leaf.
  const layout = JSON.parse(module.figuresLayout());
  assert.deepEqual(layout.bound_names, ["compute", "memory", "overhead", "interconnect"]);
  const expected = [];
  const leaves = (value, key) => {
    if (Array.isArray(value)) value.forEach((item) => leaves(item, ""));
    else if (value !== null && typeof value === "object") Object.entries(value).forEach(([k, v]) => leaves(v, k));
    else if (value === null) expected.push(NaN);
    else if (typeof value === "boolean") expected.push(value ? 1 : 0);
    else if (typeof value === "number") expected.push(value);
    else if (layout.bound_keys.includes(key)) expected.push(layout.bound_names.indexOf(value));
  };
  leaves(trace, "");
  assert.equal(figures[0], 3);
  assert.ok(Number.isInteger(figures[1]) && figures[1] < 2 ** 53, "the signature is an exact integer");
  assert.deepEqual([...figures.subarray(2)], expected);
  // The operators' figures sit in the middle of the document: each operator's intensity is there.
  assert.ok(trace.operators.every((op) => expected.includes(op.intensity)));
  const bad = module.traceFigures("{}");
  assert.equal(bad.ok, false);
  assert.equal(bad.figures.length, 0);
  assert.equal(bad.error, "/model: is required (a preset id or a shape object)");
});
