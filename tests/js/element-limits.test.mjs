// The element's checks of untrusted input that need no browser (issue 24): the LaTeX limits
// applied before KaTeX, the stored-progress reader, the checks' number reader, the address
// check of URL attributes, the name of a host's accelerator and the scenario's shape. The
// browser behaviour built on them is in tests/browser/element-abuse.test.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LATEX_LIMITS, latexDepth, latexProblem } from "../../web/src/equation.js";
import { readProgress } from "../../web/src/progress.js";
import { hardwareName, readTypedNumber, scenarioShapeError } from "../../web/src/scenario.js";

test("LaTeX nesting is counted over braces, \\left…\\right and \\begin…\\end, not escaped braces", () => {
  // Counted by hand, one level per open group:
  assert.equal(latexDepth("x"), 0);
  assert.equal(latexDepth("F_{\\mathrm{projection}}"), 2); // _{ 1, \mathrm{ 2
  assert.equal(latexDepth("\\left(\\frac{a}{b}\\right)"), 2); // \left 1, {a} 2, {b} 2
  assert.equal(latexDepth("\\{\\{\\{x\\}\\}\\}"), 0); // escaped braces are characters
  assert.equal(latexDepth("\\begin{pmatrix}a\\end{pmatrix}"), 2); // \begin 1, {pmatrix} 2
  assert.equal(latexDepth("a\\\\b{c}"), 1); // \\ (a line break) is a control symbol
  // \frac{ nested n deep: each "}{y}" closes a group and opens its sibling at the same level.
  const nested = (n) => `${"\\frac{".repeat(n)}x${"}{y}".repeat(n)}`;
  assert.equal(latexDepth(nested(16)), 16);
  assert.equal(latexDepth(nested(200)), 200);
  assert.equal(latexDepth("}}}{"), 1); // stray closers do not go below zero
});

test("LaTeX is refused past 16 levels or 500 characters, with the reason", () => {
  assert.deepEqual(LATEX_LIMITS, { maxLength: 500, maxDepth: 16, maxEquations: 16 });
  const nested = (n) => `${"\\frac{".repeat(n)}x${"}{y}".repeat(n)}`;
  assert.equal(latexProblem(nested(16)), null);
  assert.equal(latexProblem(nested(17)), "its LaTeX nests 17 levels deep, more than the 16 an equation may");
  assert.equal(latexProblem("x".repeat(500)), null);
  assert.equal(latexProblem("x".repeat(501)), "its LaTeX is 501 characters long, more than the 500 an equation may have");
  // The bundled equation passes.
  assert.equal(latexProblem("F_{\\mathrm{projection}}\\approx2T d_{\\mathrm{in}}d_{\\mathrm{out}}"), null);
});

test("stored progress: well-formed answers kept, anything else discarded with a reason, nothing inherited", () => {
  const good = { answer: 1, correct: true, savedAt: 5 };
  assert.deepEqual(readProgress(JSON.stringify({ entries: { a: good }, slots: { s: "a" } })), {
    progress: { entries: Object.assign(Object.create(null), { a: good }), slots: Object.assign(Object.create(null), { s: "a" }) },
    problem: null,
  });
  for (const [text, problem] of [
    ["{", "the saved answers are not JSON"],
    ["null", "the saved answers are not in the format this page writes"],
    ['{"entries": {"k": null}, "slots": 5}', "the saved answers are not in the format this page writes"],
    ['{"entries": [], "slots": {}}', "the saved answers are not in the format this page writes"],
    ['{"entries": {"k": null, "j": {"answer": "1", "correct": true, "savedAt": 0}}, "slots": {"s": 3}}', "3 saved entries were not answers"],
  ]) {
    const read = readProgress(text);
    assert.equal(read.problem, problem, text);
    assert.deepEqual(Object.keys(read.progress.entries), [], text);
  }
  // A key such as "__proto__" or "toString" is an answer like any other, never the prototype's.
  const read = readProgress('{"entries": {"__proto__": {"answer": 2, "correct": false, "savedAt": 1}}, "slots": {}}');
  assert.equal(read.problem, null);
  assert.equal(Object.getPrototypeOf(read.progress.entries), null);
  assert.deepEqual(read.progress.entries.__proto__, { answer: 2, correct: false, savedAt: 1 });
  assert.equal(readProgress('{"entries": {}, "slots": {}}').progress.entries.toString, undefined);
});

test("the checks' number reader refuses digit-group separators by name", () => {
  assert.deepEqual(readTypedNumber(" 1.5e9 "), { value: 1.5e9, problem: null });
  for (const [text, name] of [
    ["1,5", "a comma"],
    ["103,079,215,104", "a comma"],
    ["1_000", "an underscore"],
    ["1'000", "an apostrophe"],
    ["2 684 354 56", "a space"],
    ["1\u00a0000", "a space"],
  ]) {
    const read = readTypedNumber(text);
    assert.equal(read.value, null, text);
    assert.match(read.problem, new RegExp(`has a digit-group separator \\(${name}\\), which is not read`), text);
  }
  assert.equal(readTypedNumber("").problem, "Enter a number first, for example 1.5e9.");
  assert.match(readTypedNumber("0x800").problem, /^"0x800" is not a decimal number/);
});

test("a host's accelerator object is named as the engine names it", () => {
  const accelerators = [{ id: "h100-sxm", name: "NVIDIA H100 SXM" }];
  assert.equal(hardwareName("h100-sxm", accelerators), "NVIDIA H100 SXM");
  assert.equal(hardwareName({ name: "Lab board X", peak_flops: { bf16: 1e15 } }, accelerators), "Lab board X");
  // src/scenario/scenario.cpp read_accelerator: a preset changed by the scenario is "<name> (modified)",
  // one without preset or name "Custom accelerator".
  assert.equal(hardwareName({ preset: "h100-sxm", memory_bandwidth: 2e12 }, accelerators), "NVIDIA H100 SXM (modified)");
  assert.equal(hardwareName({ peak_flops: { bf16: 1e15 } }, accelerators), "Custom accelerator");
});

test("a host's scenario must be an object of the explorer's fields before any explorer exists", () => {
  assert.equal(scenarioShapeError(null), "/: must be a JSON object (the CLI --scenario format)");
  assert.equal(scenarioShapeError([1]), "/: must be a JSON object (the CLI --scenario format)");
  assert.match(scenarioShapeError({ prompt: 5 }), /^\/prompt: the explorer has no control for this field/);
  // Values are the engine's to judge, once the explorer exists.
  assert.equal(scenarioShapeError({ prompt_tokens: -1 }), null);
});

test("URL attributes: only http(s) addresses the URL parser accepts, named by attribute", async () => {
  const { fetchableUrl, folderUrl } = await import("../../web/src/config.js");
  // The page's address, which relative attributes resolve against (config.js reads document.baseURI).
  globalThis.document = { baseURI: "https://atlas.example/lesson/" };
  try {
    assert.equal(fetchableUrl("x.json", "lesson-src").href, "https://atlas.example/lesson/x.json");
    assert.equal(folderUrl("/site").href, "https://atlas.example/site/");
    assert.throws(() => fetchableUrl("http://[", "equations-src"), { name: "TypeError", message: 'equations-src: "http://[" is not a URL' });
    for (const scheme of ["javascript:", "data:", "blob:", "about:", "mailto:", "file:", "ftp:"]) {
      assert.throws(() => folderUrl(`${scheme}x`), {
        message: `asset-base: "${scheme}x" is a ${scheme} address; only http: and https: addresses are loaded`,
      });
    }
    // An address is quoted up to 120 characters, then counted.
    assert.throws(() => fetchableUrl(`javascript:${"a".repeat(500)}`, "asset-base"), {
      message: `asset-base: "javascript:${"a".repeat(109)}"… (511 characters) is a javascript: address; only http: and https: addresses are loaded`,
    });
  } finally {
    delete globalThis.document;
  }
});
