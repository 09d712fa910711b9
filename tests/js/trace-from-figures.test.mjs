// The explorer's fast path (web/src/explorer/trace-from-figures.js): a trace document refilled
// from one traceFigures call must equal the engine's own JSON for the same scenario, field for
// field, across the shapes the page can show (no value here is typed in: both sides come from
// the engine, one through JSON and one through the figures array).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";
import { traceFromFigures, figuresSignature } from "../../web/src/explorer/trace-from-figures.js";

const module = await loadModule();

function both(scenario) {
  const text = JSON.stringify(scenario);
  const reply = module.computeTrace(text);
  assert.equal(reply.ok, true, reply.error);
  const figures = module.traceFigures(text);
  assert.equal(figures.ok, true, figures.error);
  return { trace: JSON.parse(reply.json), figures: figures.figures };
}

// Each pair: the scenario whose JSON gives the shape, and a control change of it that keeps the
// shape (a number the controls move), so the refill replaces numbers that really differ.
const cases = {
  "dense, fused, bound timing": [{ model: "llama-2-7b", hardware: "h100-sxm" }, { prompt_tokens: 3000, batch: 4 }],
  "tensor parallel over 8 devices": [
    { model: "llama-3.1-70b", hardware: "h100-sxm", tensor_parallel: 8 }, { prompt_tokens: 700 }],
  "a parallel attention+MLP block over 4 devices, estimate": [
    { model: { preset: "llama-3.1-8b", parallel_attention: true }, hardware: "h100-sxm", tensor_parallel: 4,
      timing: "estimate" }, { prompt_tokens: 300 }],
  "sliding window, mistral-7b at 8192 tokens": [{ model: "mistral-7b", hardware: "h100-sxm" }, { prompt_tokens: 8192 }],
  "estimate timing": [{ model: "llama-3.1-8b", hardware: "h200", timing: "estimate" }, { prompt_tokens: 100 }],
  "an overloaded arrival rate": [{ model: "llama-2-7b", hardware: "h100-sxm" }, { arrival_rate: 1000 }],
  "chunked, materialized attention, MoE": [
    { model: "mixtral-8x7b", hardware: "h200", attention: "materialized", chunk_tokens: 512, prompt_tokens: 4096 },
    { prompt_tokens: 2000 }],
  "an oversized model": [{ model: "llama-3.1-405b", hardware: "h100-sxm" }, { prompt_tokens: 5000 }],
};

for (const [name, [base, change]] of Object.entries(cases)) {
  test(`a trace refilled from figures equals the JSON: ${name}`, () => {
    const shape = both(base);
    const changed = both({ ...base, ...change });
    const signature = figuresSignature(shape.figures);
    assert.equal(figuresSignature(changed.figures), signature, "a number change keeps the shape");
    assert.notDeepEqual(changed.trace, shape.trace);
    assert.deepEqual(traceFromFigures(shape.trace, signature, changed.figures), changed.trace);
    // Refilling the shape's own scenario gives the shape back (null, booleans, codes included).
    assert.deepEqual(traceFromFigures(shape.trace, signature, shape.figures), shape.trace);
  });
}

test("the signature changes with the shape, and a mismatched shape is refused", () => {
  const dense = both({ model: "llama-2-7b", hardware: "h100-sxm" });
  const others = [
    { model: "mistral-7b", hardware: "h100-sxm" },
    { model: "llama-2-7b", hardware: "h200" },
    { model: "llama-2-7b", hardware: "h100-sxm", attention: "materialized" },
    { model: "llama-2-7b", hardware: "h100-sxm", timing: "estimate" },
    { model: "llama-2-7b", hardware: "h100-sxm", precision: "fp8" },
  ];
  for (const scenario of others) {
    const other = both(scenario);
    assert.notEqual(figuresSignature(other.figures), figuresSignature(dense.figures), JSON.stringify(scenario));
    assert.equal(traceFromFigures(dense.trace, figuresSignature(dense.figures), other.figures), null);
  }
  assert.ok(Number.isNaN(figuresSignature(new Float64Array([1, 0]))), "a version 1 array has no signature");
});
