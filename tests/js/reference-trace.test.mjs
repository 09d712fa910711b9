// The per-operator oracle (tests/js/reference-trace.mjs, docs/model.md's formulas written again in
// plain JS, independently of the C++) against the engine over a grid of dense scenarios. Every
// operator's FLOPs, computed (padded) FLOPs, HBM bytes, launch count and bound-timing seconds must
// agree, so a changed constant — the norm's 5 FLOPs per element, SiLU-and-multiply's 5, the
// sampler's 5 per vocabulary entry, a byte count — fails here and not only in a benchmark.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";
import { referenceTrace } from "./reference-trace.mjs";

const engine = await loadModule();
const presets = JSON.parse(engine.listPresets().json);
const model = (id) => presets.models.find((m) => m.id === id);
const accelerator = (id) => presets.accelerators.find((h) => h.id === id);

// Dense, gated, full-attention models (the oracle's scope); accelerators with different SRAM per
// unit (the attention block size), peak FLOPs and bandwidth; prompt lengths around the GEMM tile
// (m = 128) and the attention block, including 1 and lengths that leave a partial tile.
const grid = [];
for (const m of ["llama-2-7b", "llama-3.1-8b", "llama-3.1-70b"])
  for (const h of ["h100-sxm", "a100-sxm-80gb", "mi300x", "l40s"])
    for (const T of [1, 17, 128, 1000, 4096])
      for (const B of [1, 3]) grid.push({ m, h, T, B, precision: "bf16" });
grid.push({ m: "llama-3.1-8b", h: "h100-sxm", T: 777, B: 2, precision: "fp16" });

const close = (actual, expected, what) => {
  const scale = Math.max(Math.abs(expected), 1e-300);
  assert.ok(Math.abs(actual - expected) / scale <= 1e-12, `${what}: engine ${actual}, oracle ${expected}`);
};

test("every operator of the engine's bound trace matches the independent JS oracle", () => {
  for (const { m, h, T, B, precision } of grid) {
    const scenario = { model: m, hardware: h, prompt_tokens: T, batch: B, precision, timing: "bound" };
    const reply = engine.computeTrace(JSON.stringify(scenario));
    assert.ok(reply.ok, `${JSON.stringify(scenario)}: ${reply.error}`);
    const trace = JSON.parse(reply.json);
    const oracle = referenceTrace(model(m), accelerator(h), T, B, precision);
    const where = `${m} on ${h}, T=${T}, B=${B}, ${precision}`;
    assert.deepEqual(trace.operators.map((op) => op.name), oracle.operators.map((op) => op.name), where);
    trace.operators.forEach((op, i) => {
      const want = oracle.operators[i];
      const at = `${where}, ${op.name}`;
      assert.equal(op.count, want.count, `${at}: count`);
      close(op.flops, want.flops, `${at}: flops`);
      close(op.computed_flops, want.computed, `${at}: computed_flops`);
      close(op.hbm_bytes.total, want.bytes, `${at}: hbm_bytes`);
      close(op.seconds, want.seconds, `${at}: seconds`);
    });
    close(trace.totals.flops, oracle.flops, `${where}: total flops`);
    close(trace.totals.hbm_bytes.total ?? trace.totals.hbm_bytes, oracle.hbm_bytes, `${where}: total bytes`);
  }
});
