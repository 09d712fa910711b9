// The scenario's input fields are described once, in the engine (src/scenario/scenario_fields.hpp,
// exported as scenarioFields()): the scenario's own, a model shape's, an accelerator's and its
// estimate profile's. Here the places that state them for people and programs are checked
// against those tables: docs/trace-json.md's field tables (each row rendered from the table),
// bindings/prefill-trace.d.ts's ScenarioInput, ModelShapeInput, AcceleratorInput and
// EstimateProfileInput, and the page's own defaults and field lists (web/src/scenario.js). A
// field added to the engine without its docs row or its typing fails here, naming it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { bound, code, markdownTables, members, section } from "./field-tables.mjs";
import { loadModule, root } from "./load-module.mjs";
import { DEFAULTS, FIELDS, SHAPE_FIELDS } from "../../web/src/scenario.js";

const module = await loadModule();
const table = JSON.parse(module.scenarioFields());


/** A field's docs row: | name | type | default | range | meaning |. */
export function docsRow(field) {
  const choices = field.choices.map((c) => code(c.value)).join(" or ");
  const keys = field.choices.map((c) => code(c.value)).join(", ");
  const types = {
    integer: "integer",
    number: "number",
    zero_or_number: "number",
    choice: choices,
    flag: "`true` or `false`",
    text: "string",
    preset: choices ? `${choices}, or an object` : "preset id or object",
    named_numbers: `object: ${keys} → number`,
    object: keys ? `object: ${keys} → object` : "object",
    list: "array",
  };
  const type = types[field.kind] + (field.nullable ? " or `null`" : "");
  const unit = field.unit ? ` ${field.unit}` : "";
  const range =
    field.min === null ? "" : `${field.kind === "zero_or_number" ? "0, or " : ""}${bound(field.min)} … ${bound(field.max)}${unit}`;
  const fallback = field.default === null ? (field.required ? "required" : "—") : code(field.default);
  return `| \`${field.name}\` | ${type} | ${fallback} | ${range} | ${field.docs} |`;
}

// The engine's tables in the order docs/trace-json.md states them.
const tables = [
  ["scenario", table.scenario],
  ["model", table.model],
  ["hardware", table.hardware],
  ["estimate", table.estimate],
];

test("the engine's table has the scenario's, the model shape's and the accelerator's fields", () => {
  const names = table.scenario.map((f) => f.name);
  assert.ok(names.includes("prompt_tokens") && names.includes("tensor_parallel"), names.join());
  assert.ok(table.model.some((f) => f.name === "d_model"));
  assert.ok(table.hardware.some((f) => f.name === "memory_bandwidth"));
  assert.ok(table.estimate.some((f) => f.name === "gemm_efficiency"));
  for (const [, rows] of tables) {
    for (const field of rows) {
      assert.ok(field.docs.length > 0, `${field.name} has a line of docs`);
      if (field.min !== null) assert.ok(field.min <= field.max, field.name);
    }
  }
});

test("docs/trace-json.md has one table per engine table, its rows rendered from it, in order", () => {
  const input = section(readFileSync(path.join(root, "docs/trace-json.md"), "utf8"), "Scenario (input)");
  const stated = markdownTables(input);
  assert.equal(stated.length, tables.length, "field tables in the docs' Scenario (input)");
  tables.forEach(([name, rows], i) => {
    const expected = rows.map(docsRow);
    const missing = expected.filter((row) => !stated[i].includes(row));
    assert.deepEqual(missing, [], `rows the docs' ${name} table lacks or states differently (paste these)`);
    const stale = stated[i].filter((row) => !expected.includes(row));
    assert.deepEqual(stale, [], `rows of the docs' ${name} table the engine's table does not have`);
    assert.deepEqual(stated[i], expected, `the docs' ${name} table in the engine's order`);
  });
});

// The TypeScript type a field's kind reads as; a preset's and a keyed object's are only checked
// to start with it (their values' types are written out), an object with a table of its own is
// that table's interface.
function typeOf(field) {
  const union = field.choices.map((c) => JSON.stringify(c.value)).join(" | ");
  const base = {
    integer: "number",
    number: "number",
    zero_or_number: "number",
    choice: union,
    flag: "boolean",
    text: "string",
    named_numbers: `Partial<Record<${union}, number>>`,
    list: "string[]",
  }[field.kind];
  return base === undefined ? null : base + (field.nullable ? " | null" : "");
}
const typePrefix = (field) =>
  field.kind === "object" ? `Partial<Record<${field.choices.map((c) => JSON.stringify(c.value)).join(" | ")}, ` : typeOf({ ...field, kind: "choice" });
const nestedInterfaces = { estimate: "EstimateProfileInput" };

test("bindings/prefill-trace.d.ts types every field as the table reads it", () => {
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  for (const [interfaceName, rows, requiredWhen] of [
    ["ScenarioInput", table.scenario, (f) => f.required],
    // A shape's, an accelerator's and a profile's numbers are required only without a preset
    // (a profile's: one to override): optional in the type.
    ["ModelShapeInput", table.model, () => false],
    ["AcceleratorInput", table.hardware, () => false],
    ["EstimateProfileInput", table.estimate, () => false],
  ]) {
    const declared = members(dts, interfaceName);
    assert.deepEqual([...declared.keys()].sort(), rows.map((f) => f.name).sort(), `${interfaceName}'s members`);
    for (const field of rows) {
      const { optional, type } = declared.get(field.name);
      assert.equal(optional, !requiredWhen(field), `${interfaceName}.${field.name} optional`);
      const expected = typeOf(field);
      if (expected !== null) assert.equal(type, expected, `${interfaceName}.${field.name}`);
      else if (field.choices.length) assert.ok(type.startsWith(typePrefix(field)), `${interfaceName}.${field.name}: ${type}`);
      else if (field.kind === "object") assert.equal(type, nestedInterfaces[field.name], `${interfaceName}.${field.name}`);
    }
  }
});

test("the page's defaults and field lists are the engine's", () => {
  const byName = new Map(table.scenario.map((f) => [f.name, f]));
  for (const { key, json, numeric } of FIELDS) {
    const field = byName.get(json);
    assert.ok(field, `the page's ${key} is the engine's ${json}`);
    assert.equal(Boolean(numeric), ["integer", "number", "zero_or_number"].includes(field.kind), json);
    // The starting model and accelerator are the page's choice; the engine requires both.
    if (field.required) assert.ok(field.choices.length === 0 && typeof DEFAULTS[key] === "string", key);
    else assert.equal(DEFAULTS[key], field.default, `the page's default ${key}`);
  }
  const shape = new Map(table.model.map((f) => [f.name, f]));
  for (const { key, numeric } of SHAPE_FIELDS) {
    const field = shape.get(key);
    assert.ok(field?.label, `the engine labels the shape's ${key}`);
    assert.equal(numeric, field.kind === "integer", key);
  }
  // Every control the page shows has a label in the table.
  for (const { json } of FIELDS) assert.ok(byName.get(json).label, `the engine labels ${json}`);
});
