// One version: CMake's project(VERSION) is written once (CMakeLists.txt), and every artefact that
// states a version must state that one: the installed header, the CLI's --version, the trace
// JSON's engine_version (native and wasm), the module's version(), the npm package and its CLI.
// Needs the native and wasm builds and script/package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { loadModule, nativeCli, root } from "../js/load-module.mjs";

const cmakeVersion = readFileSync(path.join(root, "CMakeLists.txt"), "utf8").match(
  /project\(prefill_trace VERSION (\d+\.\d+\.\d+)/,
)?.[1];
const SCENARIO = JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm" });

test("CMakeLists.txt states the version in project()", () => {
  assert.match(cmakeVersion ?? "", /^\d+\.\d+\.\d+$/);
});

test("the generated header, the CLI and the native trace state the CMake version", () => {
  const header = readFileSync(path.join(path.dirname(nativeCli), "include/prefill_trace/version.hpp"), "utf8");
  assert.match(header, new RegExp(`#define PREFILL_TRACE_VERSION "${cmakeVersion.replaceAll(".", "\\.")}"`));
  assert.equal(execFileSync(nativeCli, ["--version"], { encoding: "utf8" }).trim(), `prefill-trace ${cmakeVersion}`);
  const trace = JSON.parse(execFileSync(nativeCli, ["trace", "--json"], { encoding: "utf8" }));
  assert.equal(trace.engine_version, cmakeVersion);
});

test("the wasm module and its trace state the CMake version", async () => {
  const module = await loadModule();
  assert.equal(module.version(), cmakeVersion);
  assert.equal(JSON.parse(module.computeTrace(SCENARIO).json).engine_version, cmakeVersion);
});

test("the npm package states the CMake version, and the repository's package.json states none", () => {
  const pkg = JSON.parse(readFileSync(path.join(root, "build/npm/package.json"), "utf8"));
  assert.equal(pkg.version, cmakeVersion);
  // Its CLI (npx prefill-trace) is a link of its own (build/wasm/cli): the same version too.
  assert.equal(execFileSync(process.execPath, [path.join(root, "build/npm/cli/prefill-trace.cjs"), "--version"],
    { encoding: "utf8" }), `prefill-trace ${cmakeVersion}\n`);
  const repoPkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
  assert.equal(repoPkg.version, undefined, "package.json must not write a second version");
});
