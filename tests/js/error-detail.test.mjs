// A refusal's detail (include/prefill_trace/result.hpp ErrorDetail), as the field readers fill
// it and both JS paths hand it on (Embind's computeTrace, figures-post.js's traceFigures), and
// the page's sentence built from it (web/src/plain-words/errors.js: code, path, detail and the
// field tables' labels; never the message). Bounds are the documented limits
// (src/limits.hpp, docs/robustness.md), written here by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";
import { Engine } from "../../web/src/engine.js";
import { plainError } from "../../web/src/plain-words/errors.js";

const module = await loadModule();
const engine = new Engine(module);
const fields = engine.scenarioFields();
const scenario = (extra) => JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", ...extra });
const NONE = { minimum: null, maximum: null, minimumExcluded: false, zeroAllowed: false };

// [scenario members, code, path, detail, the page's sentence before the engine's message]
const CASES = [
  // max_batch = 2^16 = 65,536 requests.
  [{ batch: 0 }, "out_of_range", "/batch", { expected: "integer", found: "", value: "0", minimum: 1, maximum: 65536, minimumExcluded: false, zeroAllowed: false },
    "Requests per batch must be a whole number from 1 to 65,536."],
  // max_prompt_tokens = 2^24 = 16,777,216 tokens.
  [{ prompt_tokens: 16777217 }, "out_of_range", "/prompt_tokens", { expected: "integer", found: "", value: "16777217", minimum: 1, maximum: 16777216, minimumExcluded: false, zeroAllowed: false },
    "Prompt tokens must be a whole number from 1 to 16,777,216."],
  [{ batch: "two" }, "wrong_type", "/batch", { expected: "integer", found: "string", value: '"two"', ...NONE },
    "Requests per batch must be a whole number."],
  [{ batch: 2.5 }, "wrong_type", "/batch", { expected: "integer", found: "number", value: "2.5", ...NONE },
    "Requests per batch must be a whole number, without a fraction."],
  [{ prompt_tokens: null }, "wrong_type", "/prompt_tokens", { expected: "integer", found: "null", value: "null", ...NONE },
    "Prompt tokens is empty: it must be a whole number."],
  // arrival_rate: 0 (no queue), or from min_arrival_rate = 1e-30 to max_arrival_rate = 1e9 requests/s.
  [{ arrival_rate: -1 }, "out_of_range", "/arrival_rate", { expected: "number", found: "", value: "-1", minimum: 1e-30, maximum: 1e9, minimumExcluded: false, zeroAllowed: true },
    "Arrival rate must be 0 or between 1e-30 and 1,000,000,000."],
  [{ arrival_rate: "fast" }, "wrong_type", "/arrival_rate", { expected: "number", found: "string", value: '"fast"', ...NONE },
    "Arrival rate must be a number."],
  [{ timing: "exact" }, "unknown_name", "/timing", { expected: "one_of", found: "", value: '"exact"', ...NONE },
    "Timing: this value is not accepted."],
];

for (const [members, code, path, detail, sentence] of CASES) {
  const where = JSON.stringify(members);
  test(`${where}: refused as ${code} at ${path}, with its detail, on both paths; the page's sentence`, () => {
    const text = scenario(members);
    const traced = engine.computeTrace(text);
    const figures = engine.traceFigures(text);
    for (const reply of [traced, figures]) {
      assert.equal(reply.ok, false, where);
      assert.equal(reply.code, code, where);
      assert.equal(reply.path, path, where);
      assert.deepEqual(reply.detail, detail, where);
      // The message is "path: what"; the page quotes it after its own sentence.
      assert.equal(reply.error, `${path}: ${reply.what}`, where);
      assert.equal(plainError(reply, fields), `${sentence} (${reply.error})`, where);
    }
  });
}

test("a refusal no control holds keeps the engine's message alone", () => {
  // gemm_m_tile has no control on the page (its row's label is "").
  const reply = engine.computeTrace(scenario({ gemm_m_tile: 0 }));
  assert.equal(reply.path, "/gemm_m_tile");
  assert.equal(plainError(reply, fields), reply.error);
  // An error about no one value: no path, an empty detail.
  const unparsed = engine.computeTrace("{");
  assert.equal(unparsed.code, "invalid_json");
  assert.deepEqual(unparsed.detail, { expected: "", found: "", value: "", ...NONE });
  assert.equal(plainError(unparsed, fields), unparsed.error);
});

test("the sentence follows the detail, not the message's wording", () => {
  // A message worded otherwise (as it may be at any time) changes nothing but the quote.
  const reply = engine.computeTrace(scenario({ batch: 0 }));
  const reworded = { ...reply, error: "/batch: too small" };
  assert.equal(plainError(reworded, fields), "Requests per batch must be a whole number from 1 to 65,536. (/batch: too small)");
});
