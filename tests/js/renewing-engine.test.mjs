// The npm package's Node entries survive an instance that aborts (issue 33, item 2): the call
// that aborts is answered with a refusal that says so in words, and every later call on the same
// object is answered by a new instance. At 770e613 the module aborted for good: every later
// `listPresets`, `computeTrace`, `loadLesson` answered "Aborted()".
//
// The entries are loaded as the package lays them out (node.cjs and renewing.cjs beside
// element/wasm/), from the built module in build/wasm (or PREFILL_TRACE_WASM_DIR).
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { lessonPath, root, wasmDir } from "./load-module.mjs";

const packageDir = mkdtempSync(path.join(os.tmpdir(), "renewing-"));
after(() => rmSync(packageDir, { recursive: true, force: true }));
for (const file of ["node.cjs", "node.mjs", "renewing.cjs"]) {
  copyFileSync(path.join(root, "bindings/npm", file), path.join(packageDir, file));
}
mkdirSync(path.join(packageDir, "element"));
symlinkSync(wasmDir, path.join(packageDir, "element/wasm"));

// One request of 2^20 output tokens on b200: inside the documented serving limits, it aborted
// the module at 770e613 (issue 33, V1: a 56-byte log entry per iteration past the 128 MB heap).
// Once the simulation's memory is bounded it is answered instead; either way the calls after it
// must work.
const heavy = JSON.stringify({
  model: "llama-3.1-8b",
  hardware: "b200",
  serving: { rate: 1, requests: 1, prompt: 16, output: 1048576, timeline_points: 0 },
});
const scenario = JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048 });

function ordinaryCallsWork(engine) {
  const presets = engine.listPresets();
  assert.equal(presets.ok, true, presets.error);
  const trace = engine.computeTrace(scenario);
  assert.equal(trace.ok, true, trace.error);
  // A real trace, not an empty reply: 2 FLOPs per parameter per token over Llama-3.1-8B's
  // parameters past the embedding and the LM head (8.03e9 − 2 · 128256 · 4096 = 6.98e9) for
  // 2048 tokens is 2.86e13, a floor under the total (attention and the head add to it).
  assert.ok(JSON.parse(trace.json).totals.flops > 2.86e13);
  const lesson = engine.loadLesson(readFileSync(lessonPath, "utf8"));
  assert.equal(lesson.ok, true, lesson.error);
}

for (const entry of ["node.cjs", "node.mjs"]) {
  test(`${entry}: an aborted call is refused in words and later calls work`, async () => {
    const factory = entry.endsWith(".cjs")
      ? createRequire(import.meta.url)(path.join(packageDir, entry))
      : (await import(path.join(packageDir, entry))).default;
    const aborts = [];
    const engine = await factory({ printErr: () => {}, onAbort: (what) => aborts.push(what) });
    ordinaryCallsWork(engine);
    const reply = engine.simulateServing(heavy);
    if (!reply.ok) {
      assert.match(reply.error, /^simulateServing: the engine aborted .*128 MB.*a new instance answers later calls$/);
      assert.equal(reply.code, engine.ErrorCode.internal);
      assert.equal(aborts.length, 1, "the host's own onAbort is still called");
    }
    ordinaryCallsWork(engine);
    // The export list reads as the module's (the stand-in forwards every property).
    assert.equal(typeof engine.version(), "string");
    assert.ok(Object.keys(engine).includes("simulateServing"));
  });
}
