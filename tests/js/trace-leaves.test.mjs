// traceLeaves through the wasm module (docs/trace-json.md, "Units and labels"): it lists exactly
// the leaves of the trace computeTrace returns for the same scenario — walked here in JS from the
// JSON, independently of the engine's walker — with each number's unit, and the step facts the
// page shows in the order it has always listed them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";

const module = await loadModule();
const SCENARIOS = [
  { model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048 },
  { model: "mixtral-8x7b", hardware: "a100-sxm-80gb", attention: "materialized", chunk_tokens: 512, prompt_tokens: 3000, arrival_rate: 1000 },
];

/** Every leaf of `value` as `path → kind`, arrays' items as "*", groups as "object". */
function walk(value, path = [], out = new Map()) {
  const at = path.join("/");
  if (Array.isArray(value)) {
    for (const item of value) walk(item, [...path, "*"], out);
  } else if (value !== null && typeof value === "object") {
    if (path.length && path.at(-1) !== "*") out.set(at, "object");
    for (const [key, member] of Object.entries(value)) walk(member, [...path, key], out);
  } else if (!out.has(at) || out.get(at) === "number_or_null") {
    // A leaf seen as null in one array item and a number in another is a number-or-null; the
    // engine knows from its schema, JS from the values, so a null anywhere decides.
    const kind = value === null ? "null" : typeof value === "boolean" ? "boolean" : typeof value === "string" ? "string" : "number";
    if (!out.has(at)) out.set(at, kind);
  }
  return out;
}

/** Whether a JSON value's kind fits the engine's: a null is a number_or_null's or a bound's. */
function fits(engineKind, jsonKind) {
  if (jsonKind === "null") return engineKind === "number_or_null" || engineKind === "bound";
  if (jsonKind === "string") return engineKind === "text" || engineKind === "bound";
  if (jsonKind === "number") return engineKind === "number" || engineKind === "number_or_null";
  return engineKind === jsonKind;
}

for (const scenario of SCENARIOS) {
  test(`traceLeaves names exactly the trace's leaves, each number with a unit (${scenario.model})`, () => {
    const text = JSON.stringify(scenario);
    const trace = JSON.parse(module.computeTrace(text).json);
    const reply = module.traceLeaves(text);
    assert.equal(reply.ok, true, reply.error);
    const described = JSON.parse(reply.json);
    const walked = walk(trace);
    const byPath = new Map(described.leaves.map((leaf) => [leaf.path, leaf]));
    assert.deepEqual([...byPath.keys()].sort(), [...walked.keys()].sort());
    for (const [path, kind] of walked) {
      const leaf = byPath.get(path);
      assert.ok(fits(leaf.kind, kind), `${path}: engine says ${leaf.kind}, the JSON holds a ${kind}`);
      if (leaf.kind === "number" || leaf.kind === "number_or_null") {
        assert.notEqual(leaf.unit, "none", `${path} has no unit`);
        assert.ok(described.units.includes(leaf.unit), `${path}: unit ${leaf.unit} is not in units`);
      }
    }
  });
}

test("the step facts' labels and order are the ones the page has always shown", () => {
  const described = JSON.parse(module.traceLeaves(JSON.stringify(SCENARIOS[0])).json);
  const fact = (key) => described.leaves.find((leaf) => leaf.path === `steps/*/facts/${key}`);
  // Step 4 lists the memory ledger before chunking, and step 5 the mean wait before its median
  // (the order of the page's old hand table, web/src/explorer/steps.js before issue 31).
  assert.ok(fact("memory").rank < fact("chunking").rank);
  assert.ok(fact("queue_seconds").rank < fact("queue_p50_seconds").rank);
  assert.ok(fact("tensor_parallel").rank < fact("ridge_flops_per_byte").rank);
  assert.equal(fact("kv_bytes_kept").label, "KV cache kept for decode");
  assert.equal(fact("kv_bytes_kept").unit, "bytes");
  assert.equal(fact("utilization").unit, "fraction");
  assert.equal(fact("saturation_arrival_rate").unit, "per_second");
  assert.equal(fact("memory/peak_bytes").label, "Peak");
});

test("a bad scenario is refused as computeTrace refuses it", () => {
  const bad = JSON.stringify({ model: "llama-3.1-8b" });
  const reply = module.traceLeaves(bad);
  assert.equal(reply.ok, false);
  assert.equal(reply.path, module.computeTrace(bad).path);
  assert.equal(reply.json, "");
});
