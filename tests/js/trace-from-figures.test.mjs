// The explorer's fast path (web/src/explorer/trace-from-figures.js): a trace document refilled
// from one traceFigures call must equal the engine's own JSON for the same scenario, field for
// field, across the shapes the page can show (no value here is typed in: both sides come from
// the engine, one through JSON and one through the figures array).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";
import { figureIndex, figuresSignature, refillTrace } from "../../web/src/explorer/trace-from-figures.js";

const module = await loadModule();
const layout = JSON.parse(module.figuresLayout());

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
    // The shape's document, refilled in place with the changed scenario's figures, is that
    // scenario's document; refilled back with its own, it is the shape again (null, booleans,
    // codes included).
    const refilled = structuredClone(shape.trace);
    assert.equal(refillTrace(refilled, signature, changed.figures, layout), true);
    assert.deepEqual(refilled, changed.trace);
    assert.equal(refillTrace(refilled, signature, shape.figures, layout), true);
    assert.deepEqual(refilled, shape.trace);
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
    const kept = structuredClone(dense.trace);
    assert.equal(refillTrace(kept, figuresSignature(dense.figures), other.figures, layout), false);
    assert.deepEqual(kept, dense.trace, "a refused refill writes nothing");
  }
  assert.ok(Number.isNaN(figuresSignature(new Float64Array([2, 0]))), "a version 2 array has no signature");
});

test("the document has no integer-like key, so JSON.parse keeps the printed order the figures follow", () => {
  // An object's integer-like keys ("0", "12") are enumerated first, whatever the text's order.
  const { trace } = both({ model: "llama-3.1-8b", hardware: "h100-sxm", timing: "estimate" });
  const keys = [];
  const collect = (node) => {
    if (node === null || typeof node !== "object") return;
    if (!Array.isArray(node)) keys.push(...Object.keys(node));
    Object.values(node).forEach(collect);
  };
  collect(trace);
  assert.ok(keys.length > 300);
  assert.deepEqual(keys.filter((key) => /^(0|[1-9][0-9]*)$/.test(key)), []);
});

test("figureIndex finds a leaf's figure: the KV cache of Llama-3.1-8B by hand", () => {
  // 2 (K and V) × 32 layers × 2048 tokens × 8 KV heads × 128 dims × 2 bytes = 268,435,456.
  const { trace, figures } = both({ model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048 });
  assert.equal(figures[figureIndex(trace, ["totals", "kv_cache", "bytes"], layout)], 268435456);
  // A text has no figure.
  assert.equal(figureIndex(trace, ["engine_version"], layout), -1);
  // A bound's figure is its code in the layout's names.
  const at = figureIndex(trace, ["decode_comparison", "bound"], layout);
  assert.equal(layout.bound_names[figures[at]], trace.decode_comparison.bound);
});

test("a figures array of the wrong length is refused", () => {
  const { trace, figures } = both({ model: "llama-2-7b", hardware: "h100-sxm" });
  const signature = figuresSignature(figures);
  assert.equal(refillTrace(structuredClone(trace), signature, figures.subarray(0, figures.length - 1), layout), false);
  const longer = new Float64Array(figures.length + 1);
  longer.set(figures);
  assert.equal(refillTrace(structuredClone(trace), signature, longer, layout), false);
});
