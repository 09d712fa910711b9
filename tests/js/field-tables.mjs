// What the field-table and schema tests (scenario-fields, serving-fields, schema-docs,
// serving-report) share: how a docs table writes a value and a bound, how a doc's section and its
// tables are found, how a d.ts interface's members and paths are read, and a document's paths.
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

// The members of interface `rootName` of the d.ts, as paths from it ("/timeline/queued"):
// nested object literals add a level, `Type[]` an array level, and a member typed by another
// interface of the file (or a union of them) takes its members; an interface that extends
// another of the file has the other's members too.
export function declaredPaths(dts, rootName) {
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
          // A tuple ([A, B, …]) holds its items at "*", as an array (T[]) does.
          const items = type.includes("[]") || type.startsWith("[");
          for (const other of type.replace(/[;[\],]|\| null/g, " ").split(/[\s|]+/)) {
            if (interfaces.has(other)) expand(other, items ? `${here}/*` : here, depth + 1);
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
  expand(rootName, "", 0);
  return paths;
}


// "/operators/*/hbm_bytes/kv" for every member of a parsed document (arrays' items as "*"),
// except below the paths in `skip` (objects whose keys are data).
export function documentPaths(node, at, out, skip = new Set()) {
  if (skip.has(at)) return out;
  if (Array.isArray(node)) {
    for (const item of node) documentPaths(item, `${at}/*`, out, skip);
  } else if (node !== null && typeof node === "object") {
    for (const [key, value] of Object.entries(node)) {
      out.add(`${at}/${key}`);
      documentPaths(value, `${at}/${key}`, out, skip);
    }
  }
  return out;
}

