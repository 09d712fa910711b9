// Every member of the serving report (src/serving/serving_schema.hpp, walked here from real reports) is
// declared in bindings/prefill-trace.d.ts's ServingReport at its path, every declared path is
// written by some report, and docs/serving.md's "Output" names each key; the CSV's columns are
// the ones the docs list. Adding an output without its types and docs fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { declaredPaths, documentPaths, section } from "./field-tables.mjs";
import { loadModule, nativeCli, root } from "./load-module.mjs";

const module = await loadModule();
const base = { model: "llama-3.1-8b", hardware: "h100-sxm" };
// Between them every optional part: a goodput search, a sweep, an overloaded run (its
// `overload` object), disaggregated instances, token times.
const servings = [
  { rate: 2, requests: 50, prompt: 512, output: 16, ttft_slo: 0.5, tpot_slo: 0.05, goodput: true },
  { rate: 50, requests: 200, prompt: 2048, output: 256, max_queue: 5, max_batch: 4, token_budget: 4096, ttft_slo: 0.5, sweep_rates: [1, 2], token_times: 3 },
  { policy: "disaggregated", rate: 4, requests: 30, prompt: 1024, output: 32, timeline_points: 5 },
];
const reports = servings.map((serving) => {
  const reply = module.simulateServing(JSON.stringify({ ...base, serving }));
  assert.equal(reply.ok, true, reply.error);
  return JSON.parse(reply.json);
});
// A stack with a host profile under estimate: the report's `host_seconds`.
{
  const scenario = { ...base, timing: "estimate", stack: "vllm-0.2", serving: { rate: 2, requests: 10, prompt: 256, output: 8 } };
  const reply = module.simulateServing(JSON.stringify(scenario));
  assert.equal(reply.ok, true, reply.error);
  reports.push(JSON.parse(reply.json));
}
const written = new Set();
for (const report of reports) documentPaths(report, "", written);

test("bindings/prefill-trace.d.ts's ServingReport declares every member of the report, and no other", () => {
  const declared = declaredPaths(readFileSync(path.join(root, "bindings/prefill-trace.d.ts"), "utf8"), "ServingReport");
  assert.ok(written.size > 100, `${written.size} paths`);
  assert.deepEqual([...written].filter((p) => !declared.has(p)), [], "members the d.ts does not declare");
  // The parser also lists an array of object literals' members without the array's level
  // ("/goodput/probes/target" beside "/goodput/probes/*/target"): those are no member.
  const unstarred = new Set([...written].map((p) => p.replaceAll("/*", "")));
  const stale = [...declared].filter((p) => !written.has(p) && !(unstarred.has(p) && !p.includes("*")));
  assert.deepEqual(stale, [], "declared members no report wrote");
});

test("docs/serving.md's Output names every key of the report (the echoed input's, its Input)", () => {
  const docs = readFileSync(path.join(root, "docs/serving.md"), "utf8");
  const [input, output] = [section(docs, "Input"), section(docs, "Output")];
  const missing = [...written].filter((p) => {
    const key = p.slice(p.lastIndexOf("/") + 1);
    return key !== "*" && !new RegExp(`(^|[^\\w])${key}([^\\w]|$)`).test(p.startsWith("/serving/") ? input : output);
  });
  assert.deepEqual(missing, [], "keys docs/serving.md's Output does not name");
});

const cli = existsSync(nativeCli) ? nativeCli : null;

test("the CSV's columns are the ones docs/serving.md lists", { skip: !cli && "no native CLI built" }, () => {
  // The CLI reads a scenario from a regular file only.
  const file = path.join(mkdtempSync(path.join(tmpdir(), "serving-report-")), "scenario.json");
  // servings[1] without its sweep: the CLI refuses --csv with sweep_rates (one rate's rows).
  const { sweep_rates: _sweep, ...oneRate } = servings[1];
  writeFileSync(file, JSON.stringify({ ...base, serving: oneRate }));
  const csv = execFileSync(cli, ["serve", "--scenario", file, "--csv"], { encoding: "utf8" });
  const header = csv.slice(0, csv.indexOf("\r\n")).split(",");
  const output = section(readFileSync(path.join(root, "docs/serving.md"), "utf8"), "Output");
  const listed = output.match(/`--csv` prints one row per request: `([^`]+)`/);
  assert.ok(listed, "the docs list the CSV's columns");
  assert.deepEqual(header, listed[1].split(/,\s*/));
  // An overloaded run leaves requests unfinished: their times are empty cells.
  assert.ok(csv.split("\r\n").some((row) => row.includes(",false,,,,,false")), "an unfinished row");
});
