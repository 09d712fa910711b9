// The module's memory does not keep growing under use: 10,000 calls of the per-change path
// (traceFigures) and a thousand of the others, over varied scenarios and refusals, after a
// warm-up that reaches every size the calls need. The heap starts at 16 MiB and no call needs
// more, so a leak of ~1 KB a call (11 MB over the run) would grow it: seen both as a grow() call
// (spied on: Emscripten grows the heap from JS, emscripten_resize_heap → wasmMemory.grow) and as
// a larger buffer. Smaller leaks pass; the fuzzers under ASan catch those natively.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";

test("10,000 calls leave the wasm memory where the warm-up left it", async () => {
  const grow = WebAssembly.Memory.prototype.grow;
  let grows = 0;
  WebAssembly.Memory.prototype.grow = function counted(...args) {
    grows += 1;
    return grow.apply(this, args);
  };
  try {
    const module = await loadModule();
    const models = ["llama-2-7b", "llama-3.1-8b", "mixtral-8x7b", "llama-3.1-405b"];
    const scenario = (i) => JSON.stringify({
      model: models[i % models.length],
      hardware: i % 3 === 0 ? "h200" : "h100-sxm",
      prompt_tokens: 1 + ((i * 7919) % 32768),
      arrival_rate: i % 5 === 0 ? (i % 50) * 0.5 : 0,  // the queue's quantiles too
      timing: i % 2 === 0 ? "bound" : "estimate",
    });
    const round = (calls) => {
      for (let i = 0; i < calls; i++) {
        assert.equal(module.traceFigures(scenario(i)).ok, true);
        if (i % 10 === 0) {
          assert.equal(module.computeTrace(scenario(i)).ok, true);
          assert.equal(module.traceCsv(scenario(i)).ok, true);
          assert.equal(module.traceFigures(`{"model": "llama-2-7b", "prompt_tokens": ${i}}`).ok, false);
          assert.equal(module.sweep(scenario(i), "prompt_tokens", [128, 512, 2048]).ok, true);
        }
      }
    };
    round(2000);  // warm-up: every size of buffer the calls below need
    const before = module.HEAP8.buffer.byteLength;
    const growsBefore = grows;
    round(10000);
    assert.equal(grows, growsBefore, "memory.grow() after the warm-up");
    assert.equal(module.HEAP8.buffer.byteLength, before);
    // The spy does see a growth: 32 MiB more than the warm-up's heap needs one.
    const block = module._malloc(32 * 2 ** 20);
    assert.ok(block > 0 && grows > growsBefore && module.HEAP8.buffer.byteLength > before);
    module._free(block);
  } finally {
    WebAssembly.Memory.prototype.grow = grow;
  }
});
