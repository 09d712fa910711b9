// The newcomer's map matches the tree (issue 31, "A tree that tells the design"): every path
// docs/architecture.md and README's Layout name exists, and every source file under src/ is in a
// room the map names. A moved or renamed file that leaves the map stale fails here, not in a
// reader's head.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file) => readFileSync(path.join(root, file), "utf8");

/** Paths spelled out from the repository root: `src/…`, `web/src/…`, `include/…`, `bindings/…`. */
function namedPaths(text) {
  const found = new Set();
  for (const match of text.matchAll(/(?<![\w./-])((?:src|web\/src|include|bindings|tests|bench|script)\/[\w./-]*[\w/])/g)) {
    // `src/scenario.*` style globs name a stem; `src/x/` a folder.
    found.add(match[1].replace(/\.\*$/, ""));
  }
  return [...found];
}

/** A stem (no extension) exists when some file in its folder starts with it. */
function exists(name) {
  if (existsSync(path.join(root, name))) return true;
  const dir = path.join(root, path.dirname(name));
  return existsSync(dir) && readdirSync(dir).some((file) => file.startsWith(`${path.basename(name)}.`));
}

test("every path docs/architecture.md and README's Layout name exists", () => {
  const layout = read("README.md").split("## Layout")[1].split("\n## ")[0];
  for (const [doc, text] of [["docs/architecture.md", read("docs/architecture.md")], ["README.md Layout", layout]]) {
    const paths = namedPaths(text);
    assert.ok(paths.length > 4, `${doc} names paths (${paths.length} found)`);
    const missing = paths.filter((name) => !exists(name));
    assert.deepEqual(missing, [], `${doc} names paths that are not in the tree`);
  }
});

test("no source file lies flat in src/ outside the rooms the map names", () => {
  // The files the map places directly in src/ (its rooms table): the lesson contract, the facade's
  // implementation, the limits, and the shared JSON and field-reading helpers.
  const map = read("docs/architecture.md");
  const flat = readdirSync(path.join(root, "src"), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  const unnamed = flat.filter((file) => !map.includes(file.replace(/\.(cpp|hpp)$/, "")));
  assert.deepEqual(unnamed, [], "files in src/ that docs/architecture.md does not name");
});
