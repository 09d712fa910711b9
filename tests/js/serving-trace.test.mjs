// Request traces (docs/serving.md, "Real traces"): Azure's conversation trace replayed by the
// native CLI and the wasm module with the same bytes, and every malformed trace the issue names
// (item 8) refused by the CLI with one line naming the file and the line, exit 2. The traces
// are read from ../shared/traces (never copied into the repository); absent, those tests skip.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { loadModule, nativeCli, root } from "./load-module.mjs";

const module = await loadModule();
const scratch = mkdtempSync(path.join(tmpdir(), "prefill-trace-traces-"));
const conv = path.join(root, "../shared/traces/AzureLLMInferenceTrace_conv.csv");
const noTraces = !existsSync(conv) && `no ${conv}: the shared traces are not beside the checkout`;
const HEADER = "TIMESTAMP,ContextTokens,GeneratedTokens\n";

function cli(args) {
  return spawnSync(nativeCli, args, { encoding: "utf8", timeout: 60_000 });
}

// The trace file replayed by the native CLI and by the wasm module: the same bytes; the report.
function replayBoth(serving, trace, name) {
  const scenario = { model: "llama-3.1-8b", hardware: "h100-sxm", serving };
  const file = path.join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  const native = cli(["serve", "--scenario", file, "--trace", trace, "--json"]);
  assert.equal(native.status, 0, native.stderr);
  const wasm = module.simulateServingTrace(JSON.stringify(scenario), readFileSync(trace, "utf8"));
  assert.equal(wasm.ok, true, wasm.error);
  assert.equal(native.stdout, wasm.json + "\n");
  return JSON.parse(wasm.json);
}

test("Azure's conversation trace replays natively and in wasm with the same bytes", { skip: noTraces }, () => {
  const serving = { policy: "chunked", trace_limit: 300, trace_rate_scale: 2, timeline_points: 10, token_times: 2 };
  const report = replayBoth(serving, conv, "conv");
  assert.equal(report.requests, 300);
  assert.equal(report.serving.arrival, "trace:azure-csv");
  // The file's second request (line 3), read here on its own: its prompt, and its arrival
  // after the first's halved by the rate scale (timestamps are seconds within one minute here).
  const lines = readFileSync(conv, "utf8").split("\n");
  const [t1, , ] = lines[1].split(",");
  const [t2, prompt2] = lines[2].split(",");
  const seconds = (t) => Number(t.slice(17));
  assert.equal(t1.slice(0, 17), t2.slice(0, 17), "the first two requests are within one minute");
  const series = cli(["serve", "--trace", conv, "--trace-limit", "2", "--trace-rate-scale", "2", "--csv"]);
  assert.equal(series.status, 0, series.stderr);
  const row = series.stdout.split("\r\n")[2].split(",");
  assert.equal(Number(row[2]), Number(prompt2));
  assert.ok(Math.abs(Number(row[1]) - (seconds(t2) - seconds(t1)) / 2) < 1e-9, row[1]);
});

// A Mooncake-style trace with hash_ids (docs/serving.md, "Prefix cache from hash_ids"), made up
// here: 400 requests 40 ms apart, each opening with one of 5 shared prefixes of 0–3 blocks, then
// blocks of its own; a K/V small enough (a quarter of the memory) that the cache evicts and
// running requests are preempted. Native and wasm must write the same bytes.
function hashTrace() {
  let next = 1000;
  const lines = [];
  for (let i = 0; i < 400; ++i) {
    const prompt = 600 + ((i * 797) % 3400);
    const blocks = Math.ceil(prompt / 512);  // one id per 512-token block, the last partial
    const shared = Array.from({ length: Math.min(i % 4, blocks) }, (_, k) => (i % 5) * 10 + k);
    const ids = shared.concat(Array.from({ length: blocks - shared.length }, () => next++));
    lines.push(JSON.stringify({ timestamp: i * 40, input_length: prompt, output_length: 200 + (i % 300), hash_ids: ids }));
  }
  return lines.join("\n") + "\n";
}

test("a trace's hash_ids decide the prefix cache the same natively and in wasm", () => {
  const serving = { policy: "chunked", gpu_memory_utilization: 0.25, timeline_points: 10, token_times: 3 };
  const trace = path.join(scratch, "hash.jsonl");
  writeFileSync(trace, hashTrace());
  const report = replayBoth(serving, trace, "hash");
  // Every path of the cache ran: hits, evictions, preemptions (their recomputation looks again).
  assert.ok(report.prefix_cache.hit_tokens > 0, JSON.stringify(report.prefix_cache));
  assert.ok(report.prefix_cache.evicted_blocks > 0, JSON.stringify(report.prefix_cache));
  assert.ok(report.preemptions > 0, `${report.preemptions} preemptions`);
  assert.equal(report.prefix_cache.hit_rate, report.prefix_cache.hit_tokens / report.prefix_cache.prompt_tokens);
  // A hit is whole 512-token blocks.
  assert.equal(report.prefix_cache.hit_tokens % 512, 0);
  for (const t of report.token_times) assert.equal(t.cached_tokens % 512, 0);
});

// The bad traces of issue 29, item 8: each refused with one line naming the file and the line.
const BAD = [
  ["missing-column.csv", HEADER + "2023-11-16 18:17:03.5000000,100\n",
    "line 2: expected 3 comma-separated fields: TIMESTAMP,ContextTokens,GeneratedTokens"],
  ["short-header.csv", "TIMESTAMP,ContextTokens\n2023-11-16 18:17:03.5000000,100\n",
    /^line 1: not a request trace: expected the header TIMESTAMP,ContextTokens,GeneratedTokens/],
  ["unsorted.csv", HEADER + "2023-11-16 18:17:04.0,100,2\n2023-11-16 18:17:03.0,100,2\n",
    "line 3: arrives before the line above it (the trace must be in time order)"],
  ["negative.csv", HEADER + "2023-11-16 18:17:04.0,-5,2\n",
    'line 2: ContextTokens must be a whole number from 1 to 16777215, found "-5"'],
  ["negative.jsonl", '{"timestamp": 0, "input_length": 10, "output_length": -1}\n',
    "line 1: output_length must be a whole number from 1 to 1048576"],
  ["binary.csv", HEADER + "2023-11-16 18:17:04.0,10\u00002\n", "line 2: not text (a control byte 0)"],
  ["fractional-hash.jsonl", '{"timestamp": 0, "input_length": 600, "output_length": 2}\n' +
    '{"timestamp": 5, "input_length": 600, "output_length": 2, "hash_ids": [3, 4.5]}\n',
    'line 2: hash_ids must hold whole numbers from 0 to 2^53, found "4.5"'],
  ["too-many-hashes.jsonl", '{"timestamp": 0, "input_length": 600, "output_length": 2, "hash_ids": [1, 2, 3]}\n',
    "line 1: hash_ids names 3 blocks; a prompt of 600 tokens has 2 of 512 tokens (one id each)"],
];

for (const [name, text, expected] of BAD) {
  test(`a bad trace (${name}) is refused naming the file and the line, exit 2`, () => {
    const file = path.join(scratch, name);
    writeFileSync(file, text);
    const run = cli(["serve", "--trace", file]);
    assert.equal(run.status, 2, run.stdout);
    assert.equal(run.stdout, "");
    const prefix = `prefill-trace: ${file}: `;
    assert.ok(run.stderr.startsWith(prefix), run.stderr);
    assert.equal(run.stderr.split("\n").length, 2, run.stderr);
    const message = run.stderr.slice(prefix.length, -1);
    if (typeof expected === "string") assert.equal(message, expected);
    else assert.match(message, expected);
  });
}

test("equal timestamps are accepted (requests of one tick, in file order)", () => {
  const file = path.join(scratch, "same-tick.csv");
  writeFileSync(file, HEADER + "2023-11-16 18:17:04.0,100,2\n2023-11-16 18:17:04.0,200,2\n");
  const run = cli(["serve", "--trace", file, "--json"]);
  assert.equal(run.status, 0, run.stderr);
  assert.equal(JSON.parse(run.stdout).completed_requests, 2);
});

test("a 2 GB trace is refused by its size before it is read", () => {
  // Sparse: 2 GiB of size, no blocks written; read, it would take seconds and 2 GiB of memory.
  const file = path.join(scratch, "huge.csv");
  writeFileSync(file, "");
  truncateSync(file, 2 ** 31);
  const started = process.hrtime.bigint();
  const run = cli(["serve", "--trace", file]);
  assert.equal(run.status, 2);
  assert.equal(run.stderr, `prefill-trace: ${file}: a request trace of 2147483648 bytes exceeds the limit of 67108864 bytes (refused unread)\n`);
  assert.ok(process.hrtime.bigint() - started < 5_000_000_000n, "refused without reading");
});

test("flags a trace sets, its options without one, and bad K/V flags are refused by name", () => {
  const file = path.join(scratch, "ok.csv");
  writeFileSync(file, HEADER + "2023-11-16 18:17:04.0,100,2\n");
  const cases = [
    [["--trace", file, "--rate", "5"], "--rate (/serving/rate): is set by the trace"],
    [["--trace", file, "--prompt-length", "5"], "--prompt-length (/serving/prompt): is set by the trace"],
    [["--rate", "1", "--requests", "1", "--prompt", "8", "--output", "2", "--trace-limit", "3"],
      /^--trace-limit \(\/serving\/trace_limit\): needs a request trace/],
    [["--trace", file, "--trace-rate-scale", "0"], /^--trace-rate-scale \(\/serving\/trace_rate_scale\): must be/],
    [["--trace", file, "--block-size", "0"], /^--block-size \(\/serving\/block_size\): must be/],
    [["--trace", file, "--block-size", "1.5"], /^--block-size \(\/serving\/block_size\): must be/],
    [["--trace", file, "--gpu-memory-utilization", "1.5"], /^--gpu-memory-utilization \(\/serving\/gpu_memory_utilization\): must be/],
    [["--trace", file, "--gpu-memory-utilization", "0"], /^--gpu-memory-utilization \(\/serving\/gpu_memory_utilization\): must be/],
    [["--trace", file, "--gpu-memory-utilization", "abc"], /^--gpu-memory-utilization: "abc" /],
    [["--trace", path.join(scratch, "absent.csv")], /absent\.csv: cannot open the file/],
  ];
  for (const [args, expected] of cases) {
    const run = cli(["serve", ...args]);
    assert.equal(run.status, 2, `${args.join(" ")}: ${run.stdout}`);
    const message = run.stderr.replace(/^prefill-trace: /, "").trimEnd();
    if (typeof expected === "string") assert.equal(message, expected, args.join(" "));
    else assert.match(message, expected, args.join(" "));
  }
});
