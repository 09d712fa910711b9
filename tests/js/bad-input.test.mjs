// Every malformed lesson in tests/data/bad-lessons/ (and two built here, too big to commit)
// gets exactly one error line naming its JSON path or byte offset, the same through the native
// CLI (exit 2) and the wasm module (ok: false). Hostile scenario values get a named-field error
// or a finite result — never NaN, Infinity, a negative byte count or a crash.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadModule, nativeCli, root } from "./load-module.mjs";

const corpus = path.join(root, "tests/data/bad-lessons");
const expected = JSON.parse(readFileSync(path.join(corpus, "expected.json"), "utf8"));
const module = await loadModule();
const scratch = mkdtempSync(path.join(tmpdir(), "prefill-trace-bad-"));

function checkOne(file, expectedError) {
  const bytes = readFileSync(file);
  const native = spawnSync(nativeCli, ["lesson", file], { timeout: 10_000 });
  assert.equal(native.status, 2, `${file}: exit status`);
  assert.equal(native.stdout.length, 0, `${file}: nothing on stdout`);
  const line = native.stderr.toString();
  assert.equal(line.split("\n").length, 2, `${file}: one line on stderr`);
  const message = line.slice(`prefill-trace: ${file}: `.length, -1);
  if (expectedError === null) {
    assert.match(message, /^byte \d+: invalid JSON \(/, file);
  } else {
    assert.equal(message, expectedError, file);
  }
  // The module receives text as the page would (fetch().text() decodes UTF-8, replacing bad
  // bytes), so compare only well-formed files' messages exactly.
  const wasm = module.loadLesson(bytes.toString("utf8"));
  assert.equal(wasm.ok, false, file);
  assert.equal(wasm.lessonJson, "");
  if (bytes.length > 1048576) {
    // Refused at the JS boundary, before the text is copied into wasm memory.
    assert.equal(wasm.error, "lessonText: byte 0: document of more than 1048576 bytes exceeds the limit of 1048576");
  } else if (!file.endsWith("invalid-utf8.json") && !file.endsWith("bom.json")) {
    assert.equal(wasm.error, message, file);
  }
}

test(`the corpus holds at least 40 cases`, () => {
  assert.ok(Object.keys(expected).length >= 40, String(Object.keys(expected).length));
});

for (const [name, error] of Object.entries(expected)) {
  test(`bad lesson ${name}`, () => checkOne(path.join(corpus, name), error));
}

test("a 50 MB string is refused by size before it is parsed", () => {
  const file = path.join(scratch, "huge-string.json");
  writeFileSync(file, `{"id": "${"x".repeat(50 * 1024 * 1024)}"}`);
  checkOne(file, "byte 0: document of 52428810 bytes exceeds the limit of 1048576");
});

test("100 000 nested arrays stop at the depth limit", () => {
  const file = path.join(scratch, "deep.json");
  writeFileSync(file, `{"id": ${"[".repeat(100000)}${"]".repeat(100000)}}`);
  // The object is level 1 and arrays 1..31 fit under the limit of 32 levels; the error names
  // the 32nd array, which sits at /id followed by 31 "/0" (the 1st array is /id itself).
  checkOne(file, `/id${"/0".repeat(31)}: nesting deeper than 32 levels`);
});

test("a lesson that is valid but hostile is accepted as text (rendering must keep it inert)", () => {
  const lesson = JSON.parse(readFileSync(path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json"), "utf8"));
  lesson.name = "<script>alert(1)</script>";
  lesson.role = "<img src=x onerror=alert(1)>";
  assert.equal(module.loadLesson(JSON.stringify(lesson)).ok, true);
});

const hostileFlags = [
  ["--prompt", "0", "--prompt (/prompt_tokens): must be an integer from 1 to 16777216"],
  ["--prompt", "-5", "--prompt (/prompt_tokens): must be an integer from 1 to 16777216"],
  ["--prompt", "nan", '--prompt: "nan" is not a decimal number'],
  ["--prompt", "Infinity", '--prompt: "Infinity" is not a decimal number'],
  ["--prompt", "0x800", '--prompt: "0x800" is not a decimal number'],
  ["--prompt", "1e999", '--prompt: "1e999" is beyond the range of a double'],
  ["--prompt", "1e308", "--prompt (/prompt_tokens): must be an integer from 1 to 16777216"],
  ["--prompt", "18446744073709551616", "--prompt (/prompt_tokens): must be an integer from 1 to 16777216"],
  ["--prompt", "12abc", '--prompt: "12abc" is not a decimal number'],
  ["--batch", "0.5", "--batch (/batch): must be an integer, not number"],
  ["--arrival-rate", "-1", "--arrival-rate (/arrival_rate): must be 0 or from 1e-30 to 1000000000"],
  ["--compute-efficiency", "1.5", "--compute-efficiency (/compute_efficiency): must be from 0.001 to 1"],
  ["--memory-efficiency", "1e-310", "--memory-efficiency (/memory_efficiency): must be from 0.001 to 1"],
  ["--model", "gpt-9", '--model (/model): unknown model preset "gpt-9"'],
  ["--attention", "sparse", '--attention (/attention): must be "fused" or "materialized"'],
];
for (const [flag, value, message] of hostileFlags) {
  test(`CLI ${flag} ${value} is a named error`, () => {
    const run = spawnSync(nativeCli, ["trace", flag, value, "--json"], { timeout: 10_000 });
    assert.equal(run.status, 2);
    assert.equal(run.stderr.toString(), `prefill-trace: ${message}\n`);
  });
}

// Walks a JSON value and fails on any non-finite number or negative *_bytes figure.
function assertSane(value, where = "") {
  if (typeof value === "number") {
    assert.ok(Number.isFinite(value), `${where} = ${value}`);
    if (/bytes/.test(where)) assert.ok(value >= 0, `${where} = ${value}`);
  } else if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) assertSane(inner, `${where}/${key}`);
  }
}

test("T = 10^7 with 405B shapes gives a finite trace", () => {
  const result = module.computeTrace(JSON.stringify({ model: "llama-3.1-405b", hardware: "b200", prompt_tokens: 1e7, batch: 64 }));
  assert.equal(result.ok, true, result.error);
  const trace = JSON.parse(result.json);
  assertSane(trace);
  assert.equal(trace.totals.memory.fits, false);
});

test("extreme custom shapes are refused or finite", () => {
  const shapes = [
    { layers: 4096, d_model: 1048576, query_heads: 8192, kv_heads: 8192, d_ff: 1048576, vocab: 16777216 },
    { layers: 1, d_model: 1, query_heads: 1, d_ff: 1, vocab: 1 },
  ];
  for (const model of shapes) {
    const result = module.computeTrace(JSON.stringify({ model, hardware: "h100-sxm", prompt_tokens: 16777216, batch: 65536 }));
    assert.equal(result.ok, true, result.error);
    assertSane(JSON.parse(result.json));
  }
  const tooWide = module.computeTrace(JSON.stringify({ model: { ...shapes[0], d_model: 2 ** 21 }, hardware: "h100-sxm" }));
  assert.equal(tooWide.error, "/model/d_model: must be an integer from 1 to 1048576");
});

test("oversized or non-string text is refused at the boundary, and the module keeps working", () => {
  // 200 MB would not fit under the 128 MB memory cap; it must be refused before any copy.
  const huge = '{"id":"' + "x".repeat(200 * 2 ** 20) + '"}';
  const result = module.loadLesson(huge);
  assert.equal(result.ok, false);
  assert.equal(result.error, "lessonText: byte 0: document of more than 1048576 bytes exceeds the limit of 1048576");
  assert.equal(module.computeTrace(huge).ok, false);
  assert.equal(module.loadLesson(42).error, "lessonText must be a string, not number");
  for (const values of ["abc", {}, null, []]) {
    assert.equal(module.sweep("{}", "prompt_tokens", values).error, "sweep: values must be an array of between 1 and 4096 numbers");
  }
  assert.ok(module.HEAP8.buffer.byteLength <= 128 * 2 ** 20, `heap ${module.HEAP8.buffer.byteLength}`);
  const lesson = readFileSync(path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json"), "utf8");
  assert.equal(module.loadLesson(lesson).ok, true);
});

test("traceFigures refuses bad text at the boundary and survives a large non-ASCII scenario", () => {
  // The same boundary checks as the Embind calls, in the same words (bindings/boundary-post.js).
  const huge = '{"id":"' + "x".repeat(200 * 2 ** 20) + '"}';
  const refused = module.traceFigures(huge);
  assert.equal(refused.ok, false);
  assert.equal(refused.error, "scenarioJson: byte 0: document of more than 1048576 bytes exceeds the limit of 1048576");
  assert.equal(refused.figures.length, 0);
  assert.equal(module.traceFigures(42).error, "scenarioJson must be a string, not number");
  // A key of 5 000 "é" is 10 000 UTF-8 bytes: more than the buffer kept between calls, so this
  // takes the one-off allocation, and the path in the error must come back intact. The path
  // quotes the key bounded (issue 24, E5): its first 80 bytes, 40 whole "é" of 2 bytes each,
  // then the key's size.
  const key = "é".repeat(5000);
  const wide = module.traceFigures(JSON.stringify({ model: "llama-2-7b", hardware: "h100-sxm", [key]: 1 }));
  assert.equal(wide.error, `/${"é".repeat(40)}… (10000 bytes): unknown field`);
  // Then the kept buffer still serves: layout 3, the same figures as the trace JSON's numbers
  // (module.test.mjs checks them leaf by leaf); here, the same as a second call's.
  const dense = JSON.stringify({ model: "llama-2-7b", hardware: "h100-sxm" });
  const after = module.traceFigures(dense);
  assert.equal(after.ok, true);
  assert.equal(after.figures[0], 3);
  assert.deepEqual([...after.figures], [...module.traceFigures(dense).figures]);
});
