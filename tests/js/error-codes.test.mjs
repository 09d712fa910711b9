// The error codes: one {code, name} list in the engine (include/prefill_trace/result.hpp,
// kErrorCodeNames) is what the module's ErrorCode enum registers; the d.ts's ErrorCodeName
// must name the same codes in the same order, and each code a JS call can produce is produced
// here and compared by name. Dropping a code's value from the module, or its name from the
// d.ts, fails this file.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadModule, root } from "./load-module.mjs";

const module = await loadModule();
const { ErrorCode } = module;

// The d.ts's ErrorCodeName union, in its order.
function declaredNames() {
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  const union = dts.match(/export type ErrorCodeName =([^;]*);/);
  assert.ok(union, "the d.ts declares ErrorCodeName");
  return [...union[1].matchAll(/"(\w+)"/g)].map((m) => m[1]);
}

test("the module's ErrorCode has the d.ts's names, numbered 0, 1, 2, … in the d.ts's order", () => {
  const names = declaredNames();
  assert.equal(names.length, 13, "none … internal (result.hpp)");
  const registered = Object.keys(ErrorCode).filter((k) => k !== "values");
  assert.deepEqual(registered.sort(), [...names].sort(), "the enum's names");
  names.forEach((name, number) => {
    assert.equal(ErrorCode[name].value, number, name);
    assert.equal(ErrorCode.values[number], ErrorCode[name], `values[${number}]`);
  });
});

const scenario = (extra) => JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", ...extra });

// One call per code a JS caller can meet. integrity (a lesson file's published name against its
// digest: the CLI's --verify), io (files: the CLI) and internal (a defect of the build) have no
// call that produces them here; the test above holds their names and numbers.
const CALLS = {
  none: () => module.computeTrace(scenario({})),
  invalid_json: () => module.computeTrace("{"),
  too_large: () => module.checkGenerated(scenario({}), "é".repeat(200), 1),
  wrong_type: () => module.computeTrace(scenario({ batch: "two" })),
  missing_field: () => module.computeTrace(JSON.stringify({ hardware: "h100-sxm" })),
  unknown_field: () => module.computeTrace(scenario({ batches: 2 })),
  out_of_range: () => module.computeTrace(scenario({ batch: 0 })),
  unknown_name: () => module.computeTrace(scenario({ timing: "exact" })),
  incompatible: () => module.computeTrace(scenario({ tensor_parallel: 3 })),
  usage: () => module.computeTrace(),
};

for (const [name, call] of Object.entries(CALLS)) {
  test(`a call that is refused as ${name} says so by its code`, () => {
    const reply = call();
    assert.equal(reply.ok, name === "none", reply.error);
    assert.ok(ErrorCode[name], `ErrorCode.${name} is registered`);
    assert.equal(reply.code, ErrorCode[name], `${name}: ${reply.error}`);
  });
}
