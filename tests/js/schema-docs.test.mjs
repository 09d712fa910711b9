// Every field of the trace document (src/trace/trace_schema.hpp, walked here from real documents) is
// declared in bindings/prefill-trace.d.ts at its path and named in docs/trace-json.md: adding an
// output number without its types and docs fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { declaredPaths, documentPaths } from "./field-tables.mjs";
import { loadModule, root } from "./load-module.mjs";

const module = await loadModule();
// Between them every branch of the document: an estimate profile, an overloaded queue, experts,
// materialized attention, tensor parallelism.
const scenarios = [
  { model: "llama-3.1-8b", hardware: "h100-sxm", timing: "estimate", arrival_rate: 1000 },
  { model: "mixtral-8x7b", hardware: "h200", attention: "materialized", tensor_parallel: 2, arrival_rate: 1 },
];
// Objects whose keys are data (number formats, stacks, kernels, interval families).
const DATA_KEYED = new Set(["/scenario/hardware/peak_flops", "/scenario/hardware/estimate/stack_gap_seconds",
  "/scenario/hardware/estimate/attention_kernel_efficiency", "/scenario/hardware/estimate/interval"]);

const documents = scenarios.map((scenario) => {
  const reply = module.computeTrace(JSON.stringify(scenario));
  assert.equal(reply.ok, true, reply.error);
  return JSON.parse(reply.json);
});
const fields = new Set();
for (const document of documents) documentPaths(document, "", fields, DATA_KEYED);

test("bindings/prefill-trace.d.ts declares every field of the trace document at its path", () => {
  const declared = declaredPaths(readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8"), "TraceDocument");
  assert.ok(fields.size > 200, `${fields.size} fields`);
  const missing = [...fields].filter((field) => !declared.has(field));
  assert.deepEqual(missing, [], "fields the d.ts does not declare");
});

test("docs/trace-json.md names every field of the trace document", () => {
  const docs = readFileSync(path.join(root, "docs/trace-json.md"), "utf8");
  const section = (heading) => {
    const start = docs.indexOf(`\n## ${heading}`);
    assert.ok(start >= 0, heading);
    const end = docs.indexOf("\n## ", start + 1);
    return docs.slice(start, end < 0 ? undefined : end);
  };
  // The scenario's fields are described with the input; the rest in the output table.
  const input = section("Scenario (input)");
  const output = section("Trace (output)");
  const missing = [...fields].filter((field) => {
    const key = field.slice(field.lastIndexOf("/") + 1);
    const text = field.startsWith("/scenario/") ? input : output;
    return !new RegExp(`(^|[^\\w])${key}([^\\w]|$)`).test(text);
  });
  assert.deepEqual(missing, [], "fields docs/trace-json.md does not name");
});
