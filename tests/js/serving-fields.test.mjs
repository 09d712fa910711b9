// The serving object's input fields are described once, in the engine (src/serving/serving_fields.hpp,
// exported as servingFields()). Here the places that state them for people and programs are
// checked against that table: docs/serving.md's input table (each row rendered from it),
// bindings/prefill-trace.d.ts's ServingInput, the CLI's serve flags (its --help and what it
// accepts) and the page's Under-load controls. A field added to the engine without its docs
// row, its typing or its flag fails here, naming it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { bound, code, markdownTables, members, section } from "./field-tables.mjs";
import { loadModule, nativeCli, root } from "./load-module.mjs";
import { SERVING_CONTROLS } from "../../web/src/under-load/under-load.js";

const module = await loadModule();
const table = JSON.parse(module.servingFields());
const fields = table.serving;

const TYPES = {
  integer: "integer",
  number: "number",
  flag: "`true` or `false`",
  text: "string",
  list: "array",
  length: "integer or string",
};

/** A field's CLI flags as the docs list them: its own, then the spellings kept beside it. */
function flagsOf(field) {
  const aliases = table.aliases.filter((a) => a.key === field.name).map((a) => `\`${a.flag}\``);
  if (!field.flag) return "scenario file only";
  return [`\`${field.flag}\``, ...aliases].join(", ");
}

/** A field's row in docs/serving.md: | key | CLI flag | type | default | range | meaning |. */
export function servingDocsRow(field) {
  const type = field.kind === "choice" ? field.choices.map((c) => code(c.value)).join(" or ") : TYPES[field.kind];
  const unit = field.unit ? ` ${field.unit}` : "";
  const range =
    field.min === null ? "" : field.min_exclusive ? `> ${bound(field.min)}, ≤ ${bound(field.max)}${unit}` : `${bound(field.min)} … ${bound(field.max)}${unit}`;
  const fallback = field.default === null ? (field.required ? "required" : "—") : code(field.default);
  return `| \`${field.name}\` | ${flagsOf(field)} | ${type} | ${fallback} | ${range} | ${field.docs} |`;
}

test("the engine's serving table names every key, each with a line of docs and sane bounds", () => {
  const names = fields.map((f) => f.name);
  for (const name of ["policy", "rate", "requests", "prompt", "output", "rows", "sweep_rates", "max_queue"]) {
    assert.ok(names.includes(name), name);
  }
  assert.equal(new Set(names).size, names.length, "each key once");
  for (const field of fields) {
    assert.ok(field.docs.length > 0, `${field.name} has a line of docs`);
    assert.ok(field.kind in TYPES || field.kind === "choice", `${field.name}: kind ${field.kind}`);
    if (field.min !== null) assert.ok(field.min <= field.max, field.name);
  }
  for (const alias of table.aliases) assert.ok(names.includes(alias.key), `${alias.flag} sets a key of the table`);
});

test("docs/serving.md's input table is rendered from the engine's, in its order", () => {
  const input = section(readFileSync(path.join(root, "docs/serving.md"), "utf8"), "Input");
  const stated = markdownTables(input)[0];
  const expected = fields.map(servingDocsRow);
  const missing = expected.filter((row) => !stated.includes(row));
  assert.deepEqual(missing, [], "rows the docs' input table lacks or states differently (paste these)");
  assert.deepEqual(stated, expected, "the docs' input table in the engine's order, nothing else");
});

// The TypeScript type each kind reads as (a list's items are checked to be an array only).
function typeOf(field) {
  if (field.kind === "choice") return field.choices.map((c) => JSON.stringify(c.value)).join(" | ");
  return { integer: "number", number: "number", flag: "boolean", text: "string", length: "number | string" }[field.kind] ?? null;
}

test("bindings/prefill-trace.d.ts's ServingInput types every key as the table reads it", () => {
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  const declared = members(dts, "ServingInput");
  assert.deepEqual([...declared.keys()].sort(), fields.map((f) => f.name).sort(), "ServingInput's members");
  for (const field of fields) {
    const { optional, type } = declared.get(field.name);
    // rate, requests, prompt and output are required only without rows: optional in the type.
    assert.equal(optional, true, `ServingInput.${field.name} optional`);
    const expected = typeOf(field);
    if (expected !== null) assert.equal(type, expected, `ServingInput.${field.name}`);
    else assert.ok(type.endsWith("[]"), `ServingInput.${field.name}: ${type}`);
  }
});

const cli = existsSync(nativeCli) ? nativeCli : null;

test("the CLI's serve takes each flag of the table and lists it in --help", { skip: !cli && "no native CLI built" }, () => {
  const help = execFileSync(cli, ["--help"], { encoding: "utf8" });
  for (const flag of [...fields.map((f) => f.flag).filter(Boolean), ...table.aliases.map((a) => a.flag)]) {
    assert.ok(help.includes(flag), `--help names ${flag}`);
    // A flag serve does not know is refused as "unknown option"; a known one gets past parsing.
    const run = spawnSync(cli, ["serve", flag, "1"], { encoding: "utf8" });
    assert.doesNotMatch(run.stderr, /unknown option/, flag);
  }
});

test("the page's Under-load controls are labelled by the table", () => {
  const byName = new Map(fields.map((f) => [f.name, f]));
  assert.ok(SERVING_CONTROLS.length >= 4);
  for (const name of SERVING_CONTROLS) {
    const field = byName.get(name);
    assert.ok(field, `the page's ${name} is a serving key`);
    assert.ok(field.label && field.hint, `the engine labels ${name} and says a line under it`);
  }
});
