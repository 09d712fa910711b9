// The page's summary sentence (web/src/explorer/glance.js) says which timing its times follow
// and on how many devices, for traces the engine computes (the expected words are the
// scenario's, typed here, not read back from the sentence).
import { test } from "node:test";
import assert from "node:assert/strict";
import { loadModule } from "./load-module.mjs";
import { summaryText } from "../../web/src/explorer/glance.js";

const module = await loadModule();

function trace(scenario) {
  const reply = module.computeTrace(JSON.stringify(scenario));
  assert.equal(reply.ok, true, reply.error);
  return JSON.parse(reply.json);
}

test("one device under the bound: the summary says one device and lower bound", () => {
  const text = summaryText(trace({ model: "llama-3.1-8b", hardware: "h100-sxm" }));
  assert.match(text, / on one NVIDIA H100 SXM in /);
  assert.match(text, /time to first token [^;]* \(lower bound\);/);
  assert.doesNotMatch(text, /tensor parallel/);
});

test("eight devices under the estimate: the summary says 8 × the part, per device, estimate", () => {
  const text = summaryText(
    trace({ model: "llama-3.1-70b", hardware: "h100-sxm", tensor_parallel: 8, timing: "estimate" }));
  assert.match(text, / on 8 × NVIDIA H100 SXM \(tensor parallel, figures per device\) in /);
  assert.match(text, /\(calibrated estimate\);/);
});
