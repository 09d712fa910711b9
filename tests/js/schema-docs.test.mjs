// Every field of the trace document (src/trace_schema.hpp, walked here from real documents) is
// declared in bindings/prefill-trace.d.ts at its path and named in docs/trace-json.md: adding an
// output number without its types and docs fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
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

// "/operators/*/hbm_bytes/kv" for every member of the document; a step's facts under
// "/steps/*/facts/…" whatever the step.
function documentPaths(node, at, out) {
  if (DATA_KEYED.has(at)) return out;
  if (Array.isArray(node)) {
    for (const item of node) documentPaths(item, `${at}/*`, out);
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      out.add(`${at}/${key}`);
      documentPaths(value, `${at}/${key}`, out);
    }
  }
  return out;
}

const documents = scenarios.map((scenario) => {
  const reply = module.computeTrace(JSON.stringify(scenario));
  assert.equal(reply.ok, true, reply.error);
  return JSON.parse(reply.json);
});
const fields = new Set();
for (const document of documents) documentPaths(document, "", fields);

// The members of each `export interface Name { … }` of the d.ts, as paths from the interface:
// nested object literals add a level, `Type[]` an array level, and a member typed by another
// interface of the file (or a union of them) takes its members; an interface that extends
// another of the file has the other's members too.
function declaredPaths(dts) {
  const interfaces = new Map();
  const bases = new Map();
  for (const match of dts.matchAll(/^export interface (\w+)(?: extends (\w+))? \{\n([\s\S]*?)\n\}/gm)) {
    interfaces.set(match[1], match[3].replace(/\/\*\*[\s\S]*?\*\//g, "").split("\n"));
    if (match[2]) bases.set(match[1], match[2]);
  }
  const paths = new Set();
  function expand(name, at, depth) {
    assert.ok(depth < 8, `interface nesting at ${at}`);
    if (interfaces.has(bases.get(name))) expand(bases.get(name), at, depth + 1);
    const stack = [at];
    for (const line of interfaces.get(name)) {
      const member = line.match(/^\s*(\w+)\??: (.*)$/);
      if (member) {
        const [, key, type] = member;
        const here = `${stack[stack.length - 1]}/${key}`;
        paths.add(here);
        if (type.startsWith("{") && !type.endsWith(";")) {
          stack.push(here);
        } else {
          for (const other of type.replace(/[;[\]]|\| null/g, " ").split(/[\s|]+/)) {
            if (interfaces.has(other)) expand(other, type.includes("[]") ? `${here}/*` : here, depth + 1);
          }
        }
      } else if (/^\s*\}(\[\])?( \| null)?;$/.test(line)) {
        const closed = stack.pop();
        if (line.includes("[]")) {
          // An array of object literals: its members were added without the array level.
          for (const p of [...paths]) if (p.startsWith(`${closed}/`)) paths.add(p.replace(`${closed}/`, `${closed}/*/`));
        }
      }
    }
  }
  expand("TraceDocument", "", 0);
  return paths;
}

test("bindings/prefill-trace.d.ts declares every field of the trace document at its path", () => {
  const declared = declaredPaths(readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8"));
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
