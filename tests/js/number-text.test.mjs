// The page reads numbers typed into fields and URL parameters by the same rule as the CLI's
// flags (include/prefill_trace/number_text.hpp): both are held to the one table of cases in
// tests/data/number-text.json (the C++ side in tests/cpp/limits_test.cpp, and the CLI's wiring
// below).
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { nativeCli, root } from "./load-module.mjs";
import { parseValue, readDecimal } from "../../web/src/scenario.js";

const { cases } = JSON.parse(readFileSync(path.join(root, "tests/data/number-text.json"), "utf8"));

test("the table is large enough to mean something", () => {
  assert.ok(cases.length >= 40, String(cases.length));
  assert.ok(cases.some((c) => c.value === null) && cases.some((c) => c.value !== null));
});

for (const { text, value } of cases) {
  test(`page reads ${JSON.stringify(text)} as ${value}`, () => {
    // === rather than Object.is: JSON has no -0, so "-0" is listed as 0.
    const read = readDecimal(text);
    assert.ok(read === value, `read ${read}`);
    // parseValue hands a refused text to the engine as text (so it names the wrong type).
    const handed = parseValue(text, true);
    if (value !== null) assert.ok(handed === value, `handed ${handed}`);
    else assert.notEqual(typeof handed, "number");
  });

  test(`CLI reads ${JSON.stringify(text)} as ${value}`, () => {
    // --delivery-latency takes any number from 0 to 3600 s and echoes it in the trace's scenario.
    const run = spawnSync(nativeCli, ["trace", "--delivery-latency", text, "--json"], { timeout: 10_000 });
    const stderr = run.stderr.toString();
    if (value === null) {
      assert.equal(run.status, 2);
      assert.match(stderr, /^prefill-trace: --delivery-latency: ".*" is (not a decimal number|beyond the range of a double)\n$/s);
    } else if (value < 0 || value > 3600) {
      assert.equal(stderr, "prefill-trace: --delivery-latency (/delivery_seconds): must be from 0 to 3600\n");
    } else {
      assert.equal(run.status, 0, stderr);
      assert.ok(JSON.parse(run.stdout).scenario.delivery_seconds === value);
    }
  });
}
