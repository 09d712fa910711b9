// The trace CSV: one schema written by the engine, the same from traceCsv (the page's download)
// and from `prefill-trace trace --csv`, with every cell reading back the trace JSON's value.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { loadModule, nativeCli } from "./load-module.mjs";

const module = await loadModule();
const scenario = { model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048, batch: 1 };

// The columns as docs/trace-json.md ("CSV") states them, written out here, and the
// operators[] field each one reads.
const COLUMNS = [
  ["name", (op) => op.name],
  ["step", (op) => op.step],
  ["count (instances)", (op) => op.count],
  ["per_layer (true/false)", (op) => op.per_layer],
  ["launches (per instance)", (op) => op.launches],
  ["flops (FLOP per instance)", (op) => op.flops],
  ["computed_flops (FLOP per instance)", (op) => op.computed_flops],
  ["hbm_weights (bytes per instance)", (op) => op.hbm_bytes.weights],
  ["hbm_activations (bytes per instance)", (op) => op.hbm_bytes.activations],
  ["hbm_kv (bytes per instance)", (op) => op.hbm_bytes.kv],
  ["hbm_scores (bytes per instance)", (op) => op.hbm_bytes.scores],
  ["hbm_total (bytes per instance)", (op) => op.hbm_bytes.total],
  ["intensity (FLOP/byte)", (op) => op.intensity],
  ["compute_seconds (s per instance)", (op) => op.compute_seconds],
  ["memory_seconds (s per instance)", (op) => op.memory_seconds],
  ["overhead_seconds (s per instance)", (op) => op.overhead_seconds],
  ["seconds (s per instance)", (op) => op.seconds],
  ["seconds_low (s per instance)", (op) => op.seconds_low],
  ["seconds_high (s per instance)", (op) => op.seconds_high],
  ["occupancy (ratio)", (op) => op.occupancy],
  ["bound", (op) => op.bound],
  ["useful_fraction (ratio)", (op) => op.useful_fraction],
];

test("traceCsv: the documented header, one CRLF row per operator, cells equal to the JSON", () => {
  const result = module.traceCsv(JSON.stringify(scenario));
  assert.equal(result.ok, true, result.error);
  assert.ok(result.csv.endsWith("\r\n"));
  const lines = result.csv.slice(0, -2).split("\r\n");
  assert.ok(!lines.some((line) => line.includes("\n")), "no bare LF");
  assert.deepEqual(lines[0].split(","), COLUMNS.map(([header]) => header));
  const trace = JSON.parse(module.computeTrace(JSON.stringify(scenario)).json);
  assert.equal(lines.length - 1, trace.operators.length);
  trace.operators.forEach((op, i) => {
    const cells = lines[i + 1].split(",");
    COLUMNS.forEach(([header, read], column) => {
      const expected = read(op);
      const actual = typeof expected === "number" ? Number(cells[column]) : cells[column];
      assert.equal(actual, typeof expected === "boolean" ? String(expected) : expected, `${op.name}: ${header}`);
    });
  });
});

test("traceCsv refuses what computeTrace refuses, with the same message", () => {
  const bad = JSON.stringify({ ...scenario, prompt_tokens: 0 });
  const csv = module.traceCsv(bad);
  assert.equal(csv.ok, false);
  assert.equal(csv.error, module.computeTrace(bad).error);
  assert.equal(module.traceCsv(42).ok, false);
});

test("the CLI's --csv is byte for byte traceCsv", () => {
  const native = spawnSync(nativeCli, [
    "trace", "--model", scenario.model, "--hardware", scenario.hardware,
    "--prompt", String(scenario.prompt_tokens), "--batch", "1", "--csv",
  ]);
  assert.equal(native.status, 0, native.stderr.toString());
  assert.equal(native.stdout.toString(), module.traceCsv(JSON.stringify(scenario)).csv);
});
