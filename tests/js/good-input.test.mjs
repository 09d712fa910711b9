// Every lesson in tests/data/good-lessons/ — each differs from the published lesson in a way the
// Atlas lesson contract allows (cases.json says which, and which Atlas gate allows it) — loads
// through the native CLI (exit 0, the lesson printed) and the wasm module (ok: true, the whole
// document handed back unchanged). A further check with four options can be answered.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadModule, nativeCli, root } from "./load-module.mjs";

const corpus = path.join(root, "tests/data/good-lessons");
const cases = JSON.parse(readFileSync(path.join(corpus, "cases.json"), "utf8"));
const module = await loadModule();

for (const name of Object.keys(cases)) {
  test(`good lesson ${name} loads (${cases[name]})`, () => {
    const file = path.join(corpus, name);
    const text = readFileSync(file, "utf8");
    const native = spawnSync(nativeCli, ["lesson", file], { timeout: 10_000 });
    assert.equal(native.status, 0, `${name}: ${native.stderr}`);
    assert.equal(native.stderr.length, 0);
    assert.ok(native.stdout.toString().startsWith(`${JSON.parse(text).name}\n`), name);
    const wasm = module.loadLesson(text);
    assert.equal(wasm.error, "", name);
    assert.equal(wasm.ok, true, name);
    assert.deepEqual(JSON.parse(wasm.lessonJson), JSON.parse(text), name);
  });
}

test("a further check with four options takes the fourth as its answer", () => {
  // checks-four-options.json: checks[0] has options [..., "Projection FLOPs"] and answer 3;
  // the module's check index 1 is checks[0] (0 is the main check).
  const text = readFileSync(path.join(corpus, "checks-four-options.json"), "utf8");
  const right = module.checkAnswer(text, 1, 3);
  assert.deepEqual([right.ok, right.correct, right.correctIndex], [true, true, 3]);
  assert.equal(module.checkAnswer(text, 1, 0).correct, false);
  assert.equal(module.checkAnswer(text, 1, 4).ok, false);
});

test("an interface direction other than in/out is printed as written", () => {
  const out = spawnSync(nativeCli, ["lesson", path.join(corpus, "interface-directions.json")]).stdout.toString();
  assert.match(out, /^bidirectional: Prompt tensors and weights — /m);
  assert.match(out, /^: Decode-ready state — /m);
});
