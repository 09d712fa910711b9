// The serving simulation in slices through the wasm module (docs/serving.md, "In slices"): what
// the page runs when no Worker can. Each case compares it with simulateServing on the same
// input, so a slice that changed one byte fails; no engine figure is asserted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";

const module = await loadModule();
const codes = module.ErrorCode;

const scenario = (serving) => JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", serving });
// The page's three job kinds (web/src/under-load/under-load.js #jobs), smaller: the base run
// with its timeline and token times, a sweep rate, and the goodput search.
const slo = { prompt: 2048, output: 32, ttft_slo: 0.5, tpot_slo: 0.02, seed: 1, timeline_points: 0 };
const jobs = ["prefill-first", "chunked", "disaggregated"].flatMap((policy) => [
  { policy, ...slo, rate: 20, requests: 120, timeline_points: 240, token_times: 4 },
  { policy, ...slo, rate: 60, requests: 120 },
  { policy, ...slo, rate: 10, requests: 120, goodput: true },
]);

/** Runs `text` in slices of `budget` until done; the result, the slice count, and the object freed. */
function sliced(text, budget, trace) {
  const simulation = new module.ServingSimulation();
  try {
    const started = trace === undefined ? simulation.start(text) : simulation.startTrace(text, trace);
    assert.equal(started.ok, true, started.error);
    let slices = 0;
    for (;;) {
      const step = simulation.advance(budget);
      assert.equal(step.ok, true, step.error);
      slices += 1;
      if (step.done) break;
    }
    return { result: simulation.result(), slices };
  } finally {
    simulation.delete();
  }
}

test("each of the page's job kinds, in slices, gives simulateServing's bytes", () => {
  for (const serving of jobs) {
    const text = scenario(serving);
    const once = module.simulateServing(text);
    assert.equal(once.ok, true, once.error);
    const { result, slices } = sliced(text, 2_000);
    assert.equal(result.ok, true, result.error);
    assert.equal(result.json, once.json, `${serving.policy} ${serving.rate}`);
    assert.ok(slices > 1, "it was sliced");
  }
});

test("paged K/V with preemptions and a request trace, in slices, give the one-shot bytes", () => {
  const paged = scenario({ ...slo, policy: "prefill-first", kv: "paged", gpu_memory_utilization: 0.3, output: 256, rate: 40, requests: 120 });
  const once = module.simulateServing(paged);
  assert.ok(JSON.parse(once.json).preemptions > 0, "the case preempts");
  assert.equal(sliced(paged, 3_000).result.json, once.json);
  // 30 requests 0.1 s apart in Azure's CSV.
  const rows = Array.from({ length: 30 }, (_, i) => `2023-11-16 18:17:${10 + Math.floor(i / 10)}.${i % 10}000000,${600 + 10 * i},${4 + i}`);
  const trace = ["TIMESTAMP,ContextTokens,GeneratedTokens", ...rows, ""].join("\n");
  const text = scenario({ policy: "chunked", ttft_slo: 0.5 });
  const traced = module.simulateServingTrace(text, trace);
  assert.equal(traced.ok, true, traced.error);
  assert.equal(sliced(text, 1_000, trace).result.json, traced.json);
});

test("bad input is refused at start with simulateServing's error, and cannot be advanced", () => {
  for (const text of ["[1]", "{", scenario({ policy: "round-robin", rate: 1, requests: 5 }), scenario({ policy: "chunked", requests: 5 })]) {
    const once = module.simulateServing(text);
    const simulation = new module.ServingSimulation();
    try {
      const started = simulation.start(text);
      assert.equal(once.ok, false);
      assert.deepEqual({ ...started }, { ...once }, text);
      const step = simulation.advance(1000);
      assert.equal(step.ok, false);
      assert.equal(step.code, codes.usage);
      assert.ok(step.error.includes(once.error), step.error);
    } finally {
      simulation.delete();
    }
  }
});

test("misuse is refused, never thrown: advance once done, a bad budget, a deleted object", () => {
  const simulation = new module.ServingSimulation();
  assert.equal(simulation.advance(1000).code, codes.usage, "before start");
  assert.equal(simulation.start(scenario(jobs[1])).ok, true);
  assert.equal(simulation.advance(0).code, codes.out_of_range);
  assert.equal(simulation.advance(NaN).path, "/budget");
  assert.equal(simulation.advance("1000").code, codes.wrong_type, "checked at the boundary");
  assert.equal(simulation.advance().code, codes.usage, "no budget");
  assert.equal(simulation.result().code, codes.usage, "not done");
  assert.equal(simulation.advance(Infinity).done, true);
  assert.equal(simulation.result().json, module.simulateServing(scenario(jobs[1])).json);
  const after = simulation.advance(1000);
  assert.equal(after.ok, false);
  assert.equal(after.code, codes.usage);
  simulation.delete();
  const deleted = simulation.advance(1000);
  assert.equal(deleted.ok, false);
  assert.equal(deleted.code, codes.internal);
});
