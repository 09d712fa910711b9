// The hand-written declarations and the real module must name the same functions.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { loadModule, root } from "./load-module.mjs";
import { members } from "./field-tables.mjs";

function declaredMembers() {
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  const body = dts.match(/export interface PrefillTraceModule \{([\s\S]*?)\n\}/)[1];
  // Members are lines like "  name(args): Type;" outside comments.
  const names = [...body.replace(/\/\*[\s\S]*?\*\//g, "").matchAll(/^\s{2}(\w+)\(/gm)].map((m) => m[1]);
  return names.sort();
}

test("every declared function exists in the module, and nothing undeclared is exported", async () => {
  const module = await loadModule();
  // Embind marks the functions it registers with an `argCount` property.
  // Embind classes (their prototype has delete()) are declared as constructors, not methods.
  const isClass = (key) => typeof module[key].prototype?.delete === "function";
  const exported = Object.keys(module)
    .filter((key) => typeof module[key] === "function" && "argCount" in module[key] && !isClass(key))
    .sort();
  assert.deepEqual(exported, declaredMembers());
  const classes = Object.keys(module).filter((key) => typeof module[key] === "function" && isClass(key)).sort();
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  const body = dts.match(/export interface PrefillTraceModule \{([\s\S]*?)\n\}/)[1];
  const declaredClasses = [...body.matchAll(/^\s{2}(\w+): new \(\) => (\w+);/gm)].map((m) => m[1]).sort();
  assert.deepEqual(classes, declaredClasses);
  assert.deepEqual(declaredClasses, ["ServingPlan", "ServingSimulation"]);
  // Each declared method of a class exists on it, and nothing else is added beside Embind's own.
  for (const name of declaredClasses) {
    const classBody = dts.match(new RegExp(`export interface ${name} \\{([\\s\\S]*?)\\n\\}`))[1];
    const methods = [...classBody.matchAll(/^\s{2}(\w+)\(/gm)].map((m) => m[1]).filter((m) => m !== "delete").sort();
    const own = Object.getOwnPropertyNames(module[name].prototype).filter((m) => m !== "constructor").sort();
    assert.deepEqual(own, methods, name);
  }
  // Both against the API the README documents, written out here: an export lost from both the
  // module and the .d.ts must still fail.
  assert.deepEqual(declaredMembers(), ["bundledLessonText", "checkAnswer", "checkGenerated", "computeTrace",
    "figuresLayout", "generateChecks", "listPresets", "loadLesson", "planServing", "scenarioFields", "servingFields", "simulateServing", "simulateServingTrace", "sweep", "traceCsv",
    "traceFigures", "traceLeaves", "version"]);
});

test("bundledLessonText() is the published lesson file, byte for byte, whatever it is passed", async () => {
  const module = await loadModule();
  const file = readFileSync(path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json"));
  // The file's name carries the first 16 hex digits of its SHA-256 (lesson-data/README.md).
  assert.equal(createHash("sha256").update(file).digest("hex").slice(0, 16), "a76d037833bd69f7");
  assert.equal(module.bundledLessonText(), file.toString("utf8"));
  // Like version(), it cannot fail: arguments are ignored, nothing throws.
  assert.equal(module.bundledLessonText(1, null, {}), file.toString("utf8"));
  assert.equal(module.loadLesson(module.bundledLessonText()).ok, true);
});

test("declared argument counts match the module", async () => {
  const module = await loadModule();
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  for (const name of declaredMembers()) {
    const signature = dts.match(new RegExp(`\\n  ${name}\\(([^)]*)\\)`))[1].trim();
    const declared = signature === "" ? 0 : signature.split(",").length;
    assert.equal(module[name].argCount, declared, name);
  }
});

test("result objects carry exactly the declared fields", async () => {
  const module = await loadModule();
  const lesson = readFileSync(path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json"), "utf8");
  const refusal = ["code", "detail", "error", "ok", "path", "what"];
  const sorted = (keys) => [...keys].sort();
  assert.deepEqual(Object.keys(module.loadLesson(lesson)).sort(), sorted([...refusal, "lessonJson"]));
  assert.deepEqual(Object.keys(module.checkAnswer(lesson, 0, 0)).sort(),
    sorted([...refusal, "correct", "correctIndex", "explanation"]));
  assert.deepEqual(Object.keys(module.listPresets()).sort(), sorted([...refusal, "json"]));
  // traceFigures is built without Embind (figures-post.js): the same fields, refused or not.
  assert.deepEqual(Object.keys(module.traceFigures("{}")).sort(), sorted([...refusal, "figures"]));
  assert.deepEqual(Object.keys(module.traceFigures("[")).sort(), sorted([...refusal, "figures"]));
  // Every detail, from either path, has the d.ts's ErrorDetail members.
  const dts = readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8");
  const declared = [...members(dts, "ErrorDetail").keys()].sort();
  for (const reply of [module.listPresets(), module.computeTrace("["), module.traceFigures("["), module.traceFigures("{}")]) {
    assert.deepEqual(Object.keys(reply.detail).sort(), declared);
  }
});
