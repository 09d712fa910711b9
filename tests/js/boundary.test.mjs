// Nothing thrown across the wasm boundary, whatever JS passes (bindings/boundary-post.js): every
// export called with no arguments, too many, every wrong type in every position and a 200 MiB
// string in every position answers {ok: false, error} in its own result shape — and afterwards
// the module still answers known calls with values derived here by hand.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { loadModule, lessonPath } from "./load-module.mjs";
import { figureIndex } from "../../web/src/explorer/trace-from-figures.js";

const module = await loadModule();
const lesson = readFileSync(lessonPath, "utf8");
const scenario = JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 2048 });
const trace = "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:17:03.5,100,3\n";

// One valid call per export (argument kinds: D document, N name, # number, A number array,
// T request trace).
// The parameter names are the .d.ts's, which the messages use.
const CALLS = {
  loadLesson: [["D", lesson, "lessonText"]],
  checkAnswer: [["D", lesson, "lessonText"], ["#", 0, "checkIndex"], ["#", 0, "choice"]],
  computeTrace: [["D", scenario, "scenarioJson"]],
  traceCsv: [["D", scenario, "scenarioJson"]],
  traceFigures: [["D", scenario, "scenarioJson"]],
  traceLeaves: [["D", scenario, "scenarioJson"]],
  listPresets: [],
  sweep: [["D", scenario, "scenarioJson"], ["N", "prompt_tokens", "variable"], ["A", [128, 2048], "values"]],
  generateChecks: [["D", scenario, "scenarioJson"]],
  checkGenerated: [["D", scenario, "scenarioJson"], ["N", "kv-bytes", "id"], ["#", 1, "answer"]],
  simulateServing: [["D", scenario, "scenarioJson"]],
  planServing: [["D", scenario, "scenarioJson"], ["#", 2, "devices"]],
  simulateServingTrace: [["D", scenario, "scenarioJson"], ["T", trace, "traceText"]],
};
// A refusal that comes from C++ itself (a valid-typed but wrong value), for the shape of each reply.
const CPP_REFUSALS = {
  loadLesson: () => module.loadLesson("[]"),
  checkAnswer: () => module.checkAnswer(lesson, 0, 7),
  computeTrace: () => module.computeTrace("{}"),
  traceCsv: () => module.traceCsv("{}"),
  traceFigures: () => module.traceFigures("{}"),
  traceLeaves: () => module.traceLeaves("{}"),
  listPresets: null,  // cannot fail from C++: its shape is JsonResult, as computeTrace's
  sweep: () => module.sweep(scenario, "batch", [1]),
  generateChecks: () => module.generateChecks("{}"),
  checkGenerated: () => module.checkGenerated(scenario, "no-such-check", 1),
  simulateServing: () => module.simulateServing(scenario),  // no "serving" object: refused
  planServing: () => module.planServing(scenario, 0),  // no device budget: refused
  simulateServingTrace: () => module.simulateServingTrace(scenario, trace),  // likewise
};

const hostileProxy = new Proxy([], { get() { throw new Error("trap"); } });
const WRONG = [undefined, null, true, 42, NaN, "text", {}, [], ["a"], Symbol("s"), 10n, () => 1,
  new Float64Array(0), new BigInt64Array(2), new DataView(new ArrayBuffer(8)), hostileProxy,
  { length: 3 }, Object.defineProperty(new Float64Array(2), "length", { get() { throw new Error("getter"); } })];
const RIGHT_TYPE = {
  D: (v) => typeof v === "string",
  N: (v) => typeof v === "string",
  T: (v) => typeof v === "string",
  "#": (v) => typeof v === "number",
  A: () => false,  // none of WRONG is a usable array: empty, non-numbers, BigInt, a trap or a fake
};
const huge = "x".repeat(200 * 2 ** 20);

function shapeOf(reply) {
  // The message, code, path, what and detail differ per refusal; their types must not.
  const types = (object) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, typeof v]));
  const kind = (k, v) =>
    k === "error" || k === "path" || k === "what" ? typeof v : k === "code" ? typeof v?.value : k === "detail" ? types(v) : v;
  return Object.fromEntries(Object.entries(reply).map(([k, v]) => [k, kind(k, v)]));
}

function expectRefusal(name, args, label) {
  let reply;
  assert.doesNotThrow(() => { reply = module[name](...args); }, `${name} ${label}`);
  assert.equal(reply.ok, false, `${name} ${label}`);
  assert.equal(typeof reply.error, "string");
  assert.ok(reply.error.length > 0 && !reply.error.includes("\n"), `${name} ${label}: ${reply.error}`);
  const reference = CPP_REFUSALS[name] ? CPP_REFUSALS[name]() : module.computeTrace("{}");
  assert.equal(reference.ok, false);
  assert.deepEqual(shapeOf(reply), shapeOf(reference), `${name} ${label}: reply shape`);
  return reply;
}

test("the table covers every export the module has", () => {
  const exported = Object.keys(module).filter((k) => typeof module[k] === "function" && "argCount" in module[k]);
  // version(), bundledLessonText(), figuresLayout(), scenarioFields() and servingFields() take nothing and return
  // a plain string (api-surface.test.mjs).
  const plain = ["version", "bundledLessonText", "figuresLayout", "scenarioFields", "servingFields"];
  // ServingSimulation and ServingPlan are classes: their methods have their own test below.
  const classes = ["ServingSimulation", "ServingPlan"];
  assert.deepEqual(exported.filter((k) => !plain.includes(k) && !classes.includes(k)).sort(), Object.keys(CALLS).sort());
});

// The classes' methods (ServingSimulation, ServingPlan), guarded like the exports: each with no
// arguments, one too many, a wrong type in every position and a 200 MiB string refused in its own
// reply's shape (the shape of the same method's refusal from C++), never thrown.
const CLASS_METHODS = {
  ServingSimulation: { start: [["D", scenario]], startTrace: [["D", scenario], ["T", trace]], advance: [["#", 1000]], result: [] },
  ServingPlan: { start: [["D", scenario], ["#", 2]], advance: [["#", 1000]], result: [] },
};
for (const [className, METHODS] of Object.entries(CLASS_METHODS)) {
  test(`${className}'s methods: wrong counts, wrong types and a 200 MiB string are refused without a throw`, () => {
    const object = new module[className]();
    try {
      // C++'s own refusals (no serving object; advance and result before a start).
      const fromCpp = { start: object.start(...METHODS.start.map(([, value]) => value)), advance: object.advance(1), result: object.result() };
      fromCpp.startTrace = fromCpp.start;
      for (const [name, params] of Object.entries(METHODS)) {
        const reference = shapeOf(fromCpp[name]);
        assert.equal(fromCpp[name].ok, false, name);
        const valid = params.map(([, value]) => value);
        const calls = [[], [...valid, 1]];
        params.forEach(([kind], i) => {
          for (const wrong of [...WRONG, huge]) {
            if (RIGHT_TYPE[kind](wrong) && wrong !== huge) continue;
            const args = [...valid];
            args[i] = wrong;
            calls.push(args);
          }
        });
        for (const args of calls) {
          if (args.length === params.length && params.length === 0) continue;
          let reply;
          assert.doesNotThrow(() => { reply = object[name](...args); }, name);
          assert.equal(reply.ok, false, name);
          assert.deepEqual(shapeOf(reply), reference, `${name}: reply shape`);
        }
      }
    } finally {
      object.delete();
    }
  });
}

for (const [name, params] of Object.entries(CALLS)) {
  test(`${name}: wrong counts, wrong types and a 200 MiB string are refused without a throw`, () => {
    const valid = params.map(([, value]) => value);
    const names = params.length ? ` (${params.map(([, , n]) => n).join(", ")})` : "";
    const expects = `${name}: expects ${params.length} argument${params.length === 1 ? "" : "s"}${names}`;
    if (params.length > 0) assert.equal(expectRefusal(name, [], "with no arguments").error, `${expects}, got 0`);
    assert.equal(expectRefusal(name, [...valid, 1], "with one argument too many").error,
      `${expects}, got ${params.length + 1}`);
    params.forEach(([kind], i) => {
      WRONG.forEach((wrong, w) => {
        if (RIGHT_TYPE[kind](wrong)) return;
        const args = [...valid];
        args[i] = wrong;
        expectRefusal(name, args, `argument ${i} = WRONG[${w}]`);
      });
      const args = [...valid];
      args[i] = huge;
      const reply = expectRefusal(name, args, `argument ${i} = 200 MiB string`);
      if (kind === "D") assert.match(reply.error, /: byte 0: document of more than 1048576 bytes exceeds the limit of 1048576$/);
      if (kind === "N") assert.match(reply.error, /: string of more than 256 bytes exceeds the limit of 256$/);
      if (kind === "T") assert.equal(reply.error, "traceText: a request trace of more than 67108864 bytes exceeds the limit of 67108864");
      if (kind === "#") assert.match(reply.error, / must be a number, not string$/);
      if (kind === "A") assert.match(reply.error, /^sweep: values must be an array of between 1 and 4096 numbers$/);
    });
  });
}

test("the refusals name the argument and its type", () => {
  // What callers branch on: the code and the path (a sweep value is /values/I, as the engine says).
  const { ErrorCode } = module;
  assert.equal(module.sweep(scenario, 42, [1]).code, ErrorCode.wrong_type);
  assert.equal(module.computeTrace().code, ErrorCode.usage);
  assert.equal(module.sweep(scenario, "prompt_tokens", [1, "2"]).path, "/values/1");
  assert.equal(module.sweep(scenario, "prompt_tokens", [1, "2"]).code, ErrorCode.wrong_type);
  assert.equal(module.sweep(scenario, "prompt_tokens", []).code, ErrorCode.out_of_range);
  assert.equal(module.sweep(scenario, "prompt_tokens", [1, 0]).path, "/values/1");
  assert.equal(module.checkGenerated(scenario, "é".repeat(200), 1).code, ErrorCode.too_large);
  assert.equal(module.traceFigures("{").code, ErrorCode.invalid_json);
  assert.equal(module.traceFigures('{"model": "llama-3.1-8b", "hardware": "h100-sxm", "batch": 0}').path, "/batch");
  assert.equal(module.computeTrace('{"model": "llama-3.1-8b", "hardware": "h100-sxm"}').code, ErrorCode.none);
  assert.equal(module.sweep(scenario, 42, [1]).error, "variable must be a string, not number");
  assert.equal(module.checkGenerated(scenario, null, 1).error, "id must be a string, not null");
  assert.equal(module.computeTrace().error, "computeTrace: expects 1 argument (scenarioJson), got 0");
  assert.equal(module.checkAnswer(lesson, "0", 1).error, "checkIndex must be a number, not string");
  assert.equal(module.sweep(scenario, "prompt_tokens", [1, "2"]).error, "values[1] must be a number, not string");
  assert.equal(module.listPresets(1).error, "listPresets: expects 0 arguments, got 1");
  // A multi-byte id over the limit in bytes though not in UTF-16 units: 200 × "é" = 400 bytes.
  assert.equal(module.checkGenerated(scenario, "é".repeat(200), 1).error, "id: string of more than 256 bytes exceeds the limit of 256");
  assert.equal(module.version(1, 2), module.version());
});

test("after all of that the module still answers, with figures derived by hand", () => {
  assert.ok(module.HEAP8.buffer.byteLength <= 128 * 2 ** 20, `heap ${module.HEAP8.buffer.byteLength}`);
  // KV state of Llama-3.1-8B at T = 2048 in bf16: 2 (K and V) × 32 layers × 2048 tokens × 8 KV
  // heads × 128 dims × 2 bytes = 268,435,456 bytes.
  const trace = module.computeTrace(scenario);
  assert.equal(trace.ok, true, trace.error);
  assert.equal(JSON.parse(trace.json).totals.kv_cache.bytes, 268435456);
  // The same figure in traceFigures, at the place of totals.kv_cache.bytes in the document
  // (layout 3: the document's numbers in printed order, docs/trace-json.md).
  const at = figureIndex(JSON.parse(trace.json), ["totals", "kv_cache", "bytes"], JSON.parse(module.figuresLayout()));
  assert.equal(module.traceFigures(scenario).figures[at], 268435456);
  // The published lesson's check: option 0 is the answer (its `check.answer`), 1 is not.
  assert.equal(JSON.parse(lesson).check.answer, 0);
  assert.equal(module.checkAnswer(lesson, 0, 0).correct, true);
  assert.equal(module.checkAnswer(lesson, 0, 1).correct, false);
  // Queue-free sweep: both points have queue 0, and 4× the prompt costs more execution time.
  const points = JSON.parse(module.sweep(scenario, "prompt_tokens", [512, 2048]).json).points;
  assert.deepEqual(points.map((p) => p.queue_seconds), [0, 0]);
  assert.ok(points[1].execution_seconds > points[0].execution_seconds);
});
