// The element's typings (bindings/prefill-trace-lesson.d.ts) and the element itself must name
// the same attributes and events: the lists come from web/src/element/host-api.js, which the
// element uses, so neither side can drift silently.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { ATTRIBUTES, EVENTS } from "../../web/src/element/host-api.js";
import { repo } from "../browser/helpers.mjs";

const dts = readFileSync(path.join(repo, "bindings/prefill-trace-lesson.d.ts"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");

function interfaceKeys(name) {
  const body = dts.match(new RegExp(`export interface ${name}(?: extends [\\w ,]+)? \\{([\\s\\S]*?)\\n\\}`))?.[1];
  assert.ok(body, `${name} is declared`);
  return [...body.matchAll(/^\s{2}"?([\w-]+)"?\??:/gm)].map((m) => m[1]).sort();
}

test("the declared attributes are exactly the element's observed attributes", () => {
  assert.deepEqual(interfaceKeys("PrefillTraceLessonAttributes"), [...ATTRIBUTES].sort());
});

test("the declared events are exactly the events the element dispatches", () => {
  assert.deepEqual(interfaceKeys("PrefillTraceLessonEventMap"), [...EVENTS].sort());
});

test("every attribute has its property declared (lesson-src -> lessonSrc)", () => {
  const properties = interfaceKeys("PrefillTraceLesson");
  const declared = new Set([...properties, ...[...dts.matchAll(/^\s{2}(?:get|set) (\w+)\(/gm)].map((m) => m[1])]);
  for (const attribute of ATTRIBUTES) {
    const property = attribute.replace(/-(\w)/g, (_, c) => c.toUpperCase());
    assert.ok(declared.has(property), `${property} is declared`);
  }
  assert.ok(declared.has("progress"));
});
