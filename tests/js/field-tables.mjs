// What the field-table tests (scenario-fields.test.mjs, serving-fields.test.mjs) share: how a
// docs table writes a value and a bound, how a doc's section and its tables are found, and how a
// d.ts interface's members are read.
import assert from "node:assert/strict";

/** A value in a docs table: `"text"` or `2048`. */
export const code = (value) => `\`${typeof value === "string" ? JSON.stringify(value) : String(value)}\``;
/** A bound as the docs print it: 1e15 rather than fifteen zeros. */
export const bound = (value) => (Math.abs(value) >= 1e12 ? value.toExponential().replace("e+", "e") : String(value));

/** The text of `## heading` up to the next `## `. */
export function section(docs, heading) {
  const start = docs.indexOf(`\n## ${heading}`);
  assert.ok(start >= 0, heading);
  const end = docs.indexOf("\n## ", start + 1);
  return docs.slice(start, end < 0 ? undefined : end);
}

/** The section's tables: each a list of its body rows (the lines after the header and the rule). */
export function markdownTables(text) {
  const found = [];
  let rows = null;
  for (const line of text.split("\n")) {
    if (!line.startsWith("|")) rows = null;
    else if (rows === null) found.push((rows = []));
    else if (!line.startsWith("|---") && !line.startsWith("| ---")) rows.push(line);
  }
  return found;
}

/** `name?: type;` members of `export interface Name [extends …] { … }`, one per line. */
export function members(dts, name) {
  const body = dts.match(new RegExp(`^export interface ${name}(?: extends \\w+)? \\{\\n([\\s\\S]*?)\\n\\}`, "m"));
  assert.ok(body, name);
  const out = new Map();
  for (const line of body[1].replace(/\/\*\*[\s\S]*?\*\//g, "").split("\n")) {
    const member = line.match(/^\s*(\w+)(\??): (.*);$/);
    if (member) out.set(member[1], { optional: member[2] === "?", type: member[3] });
  }
  return out;
}
