// The house's size rules (issue 31, "Done when"): no source file over 600 lines in src/, include/,
// bindings/ and web/src (the module's declaration file is data, said below), and no function of
// the page over 60 lines — measured on TypeScript's own parse of each file, so a long arrow
// function inside an object literal counts as much as a declaration.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { root } from "./load-module.mjs";

const MAX_FILE_LINES = 600;
const MAX_FUNCTION_LINES = 60;
// bindings/prefill-trace.d.ts declares every reply and document the module returns, one
// interface per JSON object with its docs: a table of types, not code.
const DATA_FILES = new Set(["bindings/prefill-trace.d.ts"]);

const tracked = execFileSync("git", ["ls-files", "src", "include", "bindings", "web/src"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((file) => /\.(cpp|hpp|h|js|mjs|ts)$/.test(file));
const lines = (file) => readFileSync(path.join(root, file), "utf8").split("\n").length - 1;

test("no source file over 600 lines", () => {
  assert.ok(tracked.length > 100, `${tracked.length} files found`);
  const long = tracked.filter((file) => !DATA_FILES.has(file) && lines(file) > MAX_FILE_LINES);
  assert.deepEqual(long.map((file) => `${file}: ${lines(file)}`), []);
});

test("no function of the page over 60 lines", () => {
  const long = [];
  for (const file of tracked.filter((name) => name.startsWith("web/src/") && name.endsWith(".js"))) {
    const text = readFileSync(path.join(root, file), "utf8");
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && "body" in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (end - start + 1 > MAX_FUNCTION_LINES) long.push(`${file}:${start + 1} (${end - start + 1} lines)`);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  assert.deepEqual(long, []);
});
