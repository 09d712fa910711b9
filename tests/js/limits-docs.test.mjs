// docs/robustness.md's limits table cites src/limits.hpp by name, and every limit is stated in
// the docs. A limit renamed, added or removed in the header without the docs following fails
// here (the table was checked by hand until this test).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { root } from "./load-module.mjs";

const header = readFileSync(path.join(root, "src/limits.hpp"), "utf8");
const limits = new Set([...header.matchAll(/constexpr\s+[\w:]+\s+(\w+)\s*=/g)].map((m) => m[1]));

// The names a docs text cites: `max_x`, and the table's shorthand `min_/max_x` for both.
function citedLimits(text) {
  const names = new Set();
  for (const [, code] of text.matchAll(/`([^`]+)`/g)) {
    const pair = /^min_\/max_(\w+)$/.exec(code);
    if (pair) {
      names.add(`min_${pair[1]}`);
      names.add(`max_${pair[1]}`);
    } else if (/^(min|max|default)_\w+$/.test(code)) {
      names.add(code);
    }
  }
  return names;
}

const robustness = readFileSync(path.join(root, "docs/robustness.md"), "utf8");
const table = robustness.slice(robustness.indexOf("## Limits"), robustness.indexOf("\n## ", robustness.indexOf("## Limits") + 1));

test("the header has the limits this test reads", () => {
  // A parse that found nothing would make the checks below vacuous.
  for (const name of ["max_document_bytes", "max_prompt_tokens", "min_arrival_rate", "max_serving_requests"]) {
    assert.ok(limits.has(name), name);
  }
});

test("every name the limits table cites is a limit in src/limits.hpp", () => {
  const cited = citedLimits(table);
  assert.ok(cited.size > 20, `the table cites ${cited.size} names`);
  const unknown = [...cited].filter((name) => !limits.has(name));
  assert.deepEqual(unknown, [], "cited in docs/robustness.md's limits table, absent from src/limits.hpp");
});

test("every limit in src/limits.hpp is stated in the docs", () => {
  // The serving simulation's limits are documented with it (docs/serving.md).
  const serving = readFileSync(path.join(root, "docs/serving.md"), "utf8");
  const stated = new Set([...citedLimits(robustness), ...citedLimits(serving)]);
  const unstated = [...limits].filter((name) => !stated.has(name));
  assert.deepEqual(unstated, [], "in src/limits.hpp, cited by neither docs/robustness.md nor docs/serving.md");
});
