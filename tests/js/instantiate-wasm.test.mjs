// A host's instantiateWasm hook that fails settles the factory's promise (issue 24, N2): with
// Emscripten 3.1.6's glue alone, a hook that threw was logged and the promise stayed pending
// forever. Each case races the factory against a 5 s timer, so the old behaviour fails the test
// instead of hanging it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { wasmDir } from "./load-module.mjs";

const factory = createRequire(import.meta.url)(path.join(wasmDir, "prefill_trace.js"));
const wasmBinary = readFileSync(path.join(wasmDir, "prefill_trace.wasm"));

const PENDING = Symbol("still pending after 5 s");
function settled(promise) {
  let timer;
  const pending = new Promise((resolve) => (timer = setTimeout(() => resolve(PENDING), 5000)));
  return Promise.race([promise.then((value) => ({ value }), (error) => ({ error })), pending])
    .finally(() => clearTimeout(timer));
}

test("a hook that throws rejects the factory's promise with the hook's error", async () => {
  const printed = [];
  const failure = new Error("the host could not instantiate");
  const outcome = await settled(factory({
    wasmBinary,
    printErr: (text) => printed.push(text),
    instantiateWasm() { throw failure; },
  }));
  assert.notEqual(outcome, PENDING);
  assert.equal(outcome.error, failure);
  assert.deepEqual(printed, []);
});

test("a hook whose returned promise rejects, or a hook that is not a function, rejects too", async () => {
  const failure = new Error("async failure");
  const fromPromise = await settled(factory({ wasmBinary, instantiateWasm: async () => { throw failure; } }));
  assert.notEqual(fromPromise, PENDING);
  assert.equal(fromPromise.error, failure);
  const notAFunction = await settled(factory({ wasmBinary, instantiateWasm: "yes" }));
  assert.notEqual(notAFunction, PENDING);
  assert.match(String(notAFunction.error), /instantiateWasm must be a function, not string/);
});

test("a hook that instantiates still gives a working module", async () => {
  const outcome = await settled(factory({
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(wasmBinary, imports).then(({ instance, module }) => receiveInstance(instance, module));
      return {};
    },
  }));
  assert.notEqual(outcome, PENDING);
  assert.ok(outcome.value, String(outcome.error));
  // The module answers (version() is the CMake project version, "major.minor.patch").
  assert.match(outcome.value.version(), /^\d+\.\d+\.\d+$/);
});
