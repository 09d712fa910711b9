// The command line under abuse: output it cannot write, flags in the wrong form, files that are
// not files, and messages that must name what the user actually typed, numbered as they typed it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync, execFileSync } from "node:child_process";
import { mkdtempSync, openSync, closeSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { lessonPath, nativeCli } from "./load-module.mjs";

const scratch = mkdtempSync(path.join(tmpdir(), "prefill-trace-cli-"));

function cli(args, options = {}) {
  const run = spawnSync(nativeCli, args, { timeout: 10_000, ...options });
  return { status: run.status, signal: run.signal, stdout: run.stdout?.toString() ?? "", stderr: run.stderr?.toString() ?? "" };
}

test("output that cannot be written exits 2 with a message", () => {
  const full = openSync("/dev/full", "w");
  try {
    for (const args of [["trace", "--json"], ["trace"], ["presets", "--json"], ["lesson"]]) {
      const run = cli(args, { stdio: ["ignore", full, "pipe"] });
      assert.equal(run.status, 2, args.join(" "));
      assert.equal(run.stderr, "prefill-trace: cannot write the output: No space left on device\n", args.join(" "));
    }
  } finally {
    closeSync(full);
  }
  // A closed stdout (`>&-`): the shell closes descriptor 1 before running the CLI.
  const closed = spawnSync("/bin/sh", ["-c", `"$0" trace --json >&-`, nativeCli], { timeout: 10_000 });
  assert.equal(closed.status, 2);
  assert.equal(closed.stderr.toString(), "prefill-trace: cannot write the output: Bad file descriptor\n");
  // And a writable stdout still exits 0.
  assert.equal(cli(["trace", "--json"]).status, 0);
});

test("switches refuse a value", () => {
  for (const [command, flag] of [["trace", "--json"], ["trace", "--csv"], ["trace", "--table"], ["lesson", "--verify"], ["presets", "--json"]]) {
    const run = cli([command, `${flag}=false`]);
    assert.equal(run.status, 2);
    assert.equal(run.stdout, "");
    assert.equal(run.stderr, `prefill-trace: ${flag}: is a switch and takes no value (drop "=false")\n`);
  }
  // A value flag still takes "=value".
  assert.equal(cli(["trace", "--prompt=16", "--json"]).status, 0);
});

test("files that are not regular files are refused by kind, without reading or hanging", () => {
  const fifo = path.join(scratch, "fifo.json");
  execFileSync("mkfifo", [fifo]);
  const cases = [
    [["trace", "--scenario", scratch], `${scratch}: is a directory, not a regular file`],
    [["trace", "--scenario", fifo], `${fifo}: is a FIFO (named pipe), not a regular file`],
    [["lesson", "/dev/null"], "/dev/null: is a character device, not a regular file"],
    [["lesson", "/dev/zero"], "/dev/zero: is a character device, not a regular file"],
    [["lesson", path.join(scratch, "missing.json")], `${path.join(scratch, "missing.json")}: cannot open the file (No such file or directory)`],
  ];
  for (const [args, message] of cases) {
    const run = cli(args);
    assert.equal(run.signal, null, `${args.join(" ")} was killed (it hung)`);
    assert.equal(run.status, 2, args.join(" "));
    assert.equal(run.stderr, `prefill-trace: ${message}\n`);
  }
});

test("quiz numbers --answer and --check from 1, and blames the right flag", () => {
  const cases = [
    [["--answer", "4"], "--answer: must be an option number from 1 to 3, not 4"],
    [["--answer", "0"], "--answer: must be an option number from 1 to 3, not 0"],
    [["--answer", "1.5"], "--answer: must be an option number from 1 to 3, not 1.5"],
    [["--answer", "0x1"], '--answer: "0x1" is not a decimal number'],
    // The bundled lesson has one check (no `checks`), so --check takes 1 only.
    [["--answer", "1", "--check", "1e308"], "--check: must be a check number from 1 to 1 (1 is the lesson's check, 2 and up its further checks), not 1e308"],
    [["--answer", "1", "--check", "0"], "--check: must be a check number from 1 to 1 (1 is the lesson's check, 2 and up its further checks), not 0"],
  ];
  for (const [args, message] of cases) {
    const run = cli(["quiz", ...args]);
    assert.equal(run.status, 2, args.join(" "));
    assert.equal(run.stderr, `prefill-trace: ${message}\n`);
  }
  // The published lesson's answer is index 0 (0-based), so option 1 is right and 2 is wrong.
  const lesson = JSON.parse(readFileSync(lessonPath, "utf8"));
  assert.equal(lesson.check.answer, 0);
  assert.equal(cli(["quiz", "--answer", "1"]).status, 0);
  assert.equal(cli(["quiz", "--answer", "1", "--check", "1"]).status, 0);
  assert.equal(cli(["quiz", "--answer", "2", "--check", "1"]).status, 1);
  // A lesson with one further check whose answer is index 2: it is --check 2, option 3.
  lesson.checks = [{ question: "Which?", options: ["a", "b", "c"], answer: 2, explanation: "c it is." }];
  const file = path.join(scratch, "two-checks.json");
  writeFileSync(file, JSON.stringify(lesson));
  const right = cli(["quiz", "--check", "2", "--answer", "3", file]);
  assert.equal(right.status, 0, right.stderr);
  assert.equal(right.stdout, "Correct. The answer is 3: c\nc it is.\n");
  assert.equal(cli(["quiz", "--check", "2", "--answer", "1", file]).status, 1);
  assert.equal(cli(["quiz", "--check", "3", "--answer", "1", file]).stderr,
    "prefill-trace: --check: must be a check number from 1 to 2 (1 is the lesson's check, 2 and up its further checks), not 3\n");
});

test("a wrong value is blamed on the flag or the scenario file that set it", () => {
  const file = path.join(scratch, "scenario.json");
  writeFileSync(file, JSON.stringify({ prompt_tokens: 0, batch: 2, promt: 1 }));
  // The file's own errors carry its name and the JSON path; "promt" is met first (document order).
  assert.equal(cli(["trace", "--scenario", file]).stderr, `prefill-trace: ${file}: /promt: unknown field\n`);
  writeFileSync(file, JSON.stringify({ prompt_tokens: 0, batch: 2 }));
  assert.equal(cli(["trace", "--scenario", file]).stderr,
    `prefill-trace: ${file}: /prompt_tokens: must be an integer from 1 to 16777216\n`);
  // A flag overrides the file, and then the flag is what is wrong.
  assert.equal(cli(["trace", "--scenario", file, "--prompt", "5", "--batch", "0"]).stderr,
    "prefill-trace: --batch (/batch): must be an integer from 1 to 65536\n");
  assert.equal(cli(["trace", "--scenario", file, "--prompt", "5", "--json"]).status, 0);
  // serve's --prompt is the serving prompt (as --prompt-length), not /prompt_tokens: the file's
  // bad /prompt_tokens stays the file's error although --prompt is on the line (it was blamed
  // on --prompt, whose value 10 is valid).
  writeFileSync(file, JSON.stringify({ prompt_tokens: -5 }));
  const serve = cli(["serve", "--scenario", file, "--prompt", "10", "--rate", "1", "--requests", "5", "--output-length", "10"]);
  assert.equal(serve.status, 2);
  assert.equal(serve.stderr, `prefill-trace: ${file}: /prompt_tokens: must be an integer from 1 to 16777216\n`);
});

test("sweep errors name --values and --variable, counting values from 1", () => {
  const sweep = (variable, values) => cli(["sweep", "--variable", variable, "--values", values]).stderr;
  assert.equal(sweep("prompt_tokens", "1,2,x"), 'prefill-trace: --values: value 3: "x" is not a decimal number\n');
  assert.equal(sweep("prompt_tokens", "1,2,0"), "prefill-trace: --values: value 3: prompt_tokens must be an integer from 1 to 16777216\n");
  assert.equal(sweep("tokens", "1"), 'prefill-trace: --variable: must be "prompt_tokens" or "arrival_rate"\n');
  assert.equal(sweep("prompt_tokens", Array(4097).fill("1").join(",")), "prefill-trace: --values: more than 4096 values\n");
});

test("the table prints any finite figure whole, however large", () => {
  // The slowest scenario the limits admit (tests/cpp/limits_test.cpp derives its attention time
  // by hand: ≥ 1.585e26 s). Its TTFT in the table must be the JSON's figure to 3 digits.
  const file = path.join(scratch, "slowest.json");
  writeFileSync(file, JSON.stringify({
    model: { layers: 4096, d_model: 2 ** 20, query_heads: 8192, d_ff: 2 ** 20, vocab: 2 ** 24 },
    hardware: { peak_flops: { bf16: 1e6 }, memory_bandwidth: 1e6, memory_capacity: 1e6, sram_per_unit_bytes: 1024, launch_overhead_seconds: 1 },
    prompt_tokens: 2 ** 24, batch: 2 ** 16, compute_efficiency: 0.001, memory_efficiency: 0.001,
  }));
  const table = cli(["trace", "--scenario", file]);
  assert.equal(table.status, 0, table.stderr);
  assert.doesNotMatch(table.stdout, /\binf\b|\bnan\b|unbounded/i);
  const total = JSON.parse(cli(["trace", "--scenario", file, "--json"]).stdout).totals.ttft.total_seconds;
  assert.ok(total > 1.585e26, String(total));
  const printed = /^TTFT: .* = (\S+) s$/m.exec(table.stdout)[1];
  assert.equal(printed, total.toExponential(2).replace(/e\+(\d+)$/, (_, e) => `e+${e.padStart(2, "0")}`));
});

// Issue 24, E6: characters from the input that a terminal acts on (ESC starting a colour or
// a title change, BEL, a line break that forges a second message line) come out escaped, and a
// long value is quoted as its first 80 bytes and its size.
test("errors escape control characters from the input and quote long values bounded", () => {
  const escape = "\x1b[31mred\x07\nprefill-trace: forged";
  const shown = String.raw`\u001b[31mred\u0007\nprefill-trace: forged`;
  assert.equal(cli(["trace", "--prompt", escape]).stderr, `prefill-trace: --prompt: "${shown}" is not a decimal number\n`);
  assert.equal(cli([escape]).stderr, `prefill-trace: unknown command "${shown}"; see --help\n`);
  assert.equal(cli(["trace", "--model", escape]).stderr, `prefill-trace: --model (/model): unknown model preset "${shown}"\n`);
  const missing = path.join(scratch, "new\nline\x1b.json");
  assert.equal(cli(["lesson", missing]).stderr,
    `prefill-trace: ${scratch}/new\\nline\\u001b.json: cannot open the file (No such file or directory)\n`);
  // 100 000 bytes typed: the message quotes 80 of them and says how many there were.
  const run = cli(["trace", "--prompt", "9".repeat(50000) + "x".repeat(50000)]);
  assert.equal(run.status, 2);
  assert.equal(run.stderr, `prefill-trace: --prompt: "${"9".repeat(80)}…" (100000 bytes) is not a decimal number\n`);
});

// Issue 24, E7: a scenario file's key holding "/" (written "~1" in a JSON path) or ":" was not
// recognised as the file's, so its error lost the file name.
test("a scenario file's error keeps the file name whatever its keys hold", () => {
  const file = path.join(scratch, "keys.json");
  for (const [key, shownPath] of [["a/b", "/a~1b"], ["a:b", "/a:b"], ["~/x:y", "/~0~1x:y"], ["\x1b[2J", "/\\u001b[2J"]]) {
    writeFileSync(file, JSON.stringify({ [key]: 1 }));
    assert.equal(cli(["trace", "--scenario", file]).stderr, `prefill-trace: ${file}: ${shownPath}: unknown field\n`, key);
  }
});

// Issue 24, E1 and E2 from the command line: rates under their floors are refused by name
// instead of printing "inf s" or "unbounded" with `overloaded` false.
test("rates below their floors are refused, not printed as inf", () => {
  assert.equal(cli(["trace", "--arrival-rate", "1e-320", "--batch", "2"]).stderr,
    "prefill-trace: --arrival-rate (/arrival_rate): must be 0 or from 1e-30 to 1000000000\n");
  const file = path.join(scratch, "slow-link.json");
  writeFileSync(file, JSON.stringify({ model: "llama-3.1-8b", hardware: { preset: "h100-sxm", interconnect_bandwidth: 1e-300 }, tensor_parallel: 2 }));
  const run = cli(["trace", "--scenario", file]);
  assert.equal(run.status, 2);
  assert.equal(run.stderr, `prefill-trace: ${file}: /hardware/interconnect_bandwidth: must be 0 or from 1000000 to 1e+15\n`);
});

// Issue 24, E3: the file's bytes after a NUL are part of the file.
test("a NUL byte in a lesson or scenario file does not end the document", () => {
  const lesson = readFileSync(lessonPath);
  const file = path.join(scratch, "lesson-nul.json");
  writeFileSync(file, Buffer.concat([lesson, Buffer.from("\0garbage")]));
  assert.equal(cli(["lesson", file]).stderr,
    `prefill-trace: ${file}: byte ${lesson.length + 1}: invalid JSON (unexpected data after the document)\n`);
  const scenario = path.join(scratch, "scenario-nul.json");
  writeFileSync(scenario, '{"prompt_tokens": 16}\0{"x":1}');
  // '{"prompt_tokens": 16}' is 21 bytes: the NUL is byte 22.
  assert.equal(cli(["trace", "--scenario", scenario]).stderr,
    `prefill-trace: ${scenario}: byte 22: invalid JSON (unexpected data after the document)\n`);
});

test("the estimate's table gives the TTFT's held-out range; the bound's gives none", () => {
  // Llama-3.1-70B on H100 at TP 8: the whole prefill's interval is end_to_end_parallel for a stack
  // the profile has a gap for (tensorrt-llm) and end_to_end_parallel_unseen_stack for one it has
  // not (vllm), here read from the preset file. The TTFT's low and high scale the device's
  // service time by those factors and keep queue and delivery (src/trace/trace.cpp,
  // whole_prefill_interval): total − service·(1 − low) and total + service·(high − 1), printed at
  // three significant digits.
  const hardware = JSON.parse(readFileSync(path.join(lessonPath, "../hardware.json"), "utf8"));
  const h100 = hardware.accelerators.find((a) => a.id === "h100-sxm");
  const shape = ["--model", "llama-3.1-70b", "--hardware", "h100-sxm", "--tensor-parallel", "8", "--timing", "estimate"];
  const ms = (s) => `${(s * 1e3).toPrecision(3)} ms`;
  for (const [stack, family] of [["tensorrt-llm", "end_to_end_parallel"], ["vllm", "end_to_end_parallel_unseen_stack"]]) {
    const { low, high } = h100.estimate.interval[family];
    const trace = JSON.parse(cli(["trace", ...shape, "--stack", stack, "--json"]).stdout);
    const total = trace.totals.ttft.total_seconds;
    const service = trace.steps[4].facts.service_seconds;
    const table = cli(["trace", ...shape, "--stack", stack]);
    assert.equal(table.status, 0);
    const range = `${ms(total - service * (1 - low))} to ${ms(total + service * (high - 1))}`;
    assert.match(table.stdout, new RegExp(`\\n      typically ${range} \\(the estimate's p10-p90`), stack);
  }
  assert.doesNotMatch(cli(["trace"]).stdout, /typically/, "bound");
});

// Per-command help (issue 32): `COMMAND --help`, `COMMAND -h` and `help COMMAND` print that
// command's usage and flags to stdout and exit 0; --version and -V the version.
const COMMANDS = ["lesson", "quiz", "trace", "sweep", "serve", "plan", "presets"];

/** Every `--flag` a help text names (its words, not the program's tables). */
const flagsNamed = (text) => new Set(text.match(/--[a-z][a-z-]*/g));

test("COMMAND --help, COMMAND -h and help COMMAND print that command's help to stdout and exit 0", () => {
  const whole = cli(["--help"]);
  assert.equal(whole.status, 0);
  for (const args of [["-h"], ["help"], ["help", "--help"]]) assert.deepEqual(cli(args), whole, args.join(" "));
  for (const command of COMMANDS) {
    const help = cli(["help", command]);
    assert.equal(help.status, 0, command);
    assert.equal(help.stderr, "", command);
    // The usage line of this command and of no other.
    assert.match(help.stdout, new RegExp(`^  prefill-trace ${command} `, "m"), command);
    for (const other of COMMANDS.filter((c) => c !== command)) {
      assert.doesNotMatch(help.stdout, new RegExp(`^  prefill-trace ${other} `, "m"), `${command} help shows ${other}`);
    }
    // Anywhere after the command, whatever else was typed (even a bad value: help wins).
    for (const args of [[command, "--help"], [command, "-h"], [command, "--prompt", "0x1", "-h"]]) {
      assert.deepEqual(cli(args), help, args.join(" "));
    }
    // The help names where the docs live, with the repository's address (CMakeLists.txt's
    // HOMEPAGE_URL), since the npm package ships only its README.
    assert.match(help.stdout, /^Docs: .*\n  https:\/\/github\.com\/SemiAIFoundry\/prefill-trace /m);
  }
  // serve's help names its own flags and the scenario flags it takes; trace's none of serve's.
  const serve = flagsNamed(cli(["serve", "--help"]).stdout);
  const trace = flagsNamed(cli(["trace", "--help"]).stdout);
  for (const flag of ["--policy", "--rate", "--requests", "--sweep-rates", "--model", "--hardware", "--csv"]) assert.ok(serve.has(flag), flag);
  for (const flag of ["--attention-kernel", "--chunk", "--json"]) assert.ok(trace.has(flag), flag);
  assert.ok(!trace.has("--policy"));
  // plan's help names its budget and the serving flags it shares with serve.
  const plan = flagsNamed(cli(["plan", "--help"]).stdout);
  for (const flag of ["--devices", "--rate", "--requests", "--ttft-slo", "--tpot-slo", "--model", "--json"]) assert.ok(plan.has(flag), flag);
  // The help and the parser agree: every flag serve's help names is one serve accepts (an
  // unknown one would be "unknown option here"), and trace's likewise.
  for (const [command, flags] of [["serve", serve], ["trace", trace]]) {
    for (const flag of flags) {
      if (["--help", "--version"].includes(flag)) continue;
      assert.doesNotMatch(cli([command, flag, "1"]).stderr, /unknown option here/, `${command} ${flag}`);
    }
  }
});

test("--version and -V print the version; help for no command is refused", () => {
  const version = cli(["--version"]);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^prefill-trace \d+\.\d+\.\d+\n$/);
  assert.deepEqual(cli(["-V"]), version);
  assert.deepEqual(cli(["help", "bogus"]), { status: 2, signal: null, stdout: "", stderr: 'prefill-trace: help: unknown command "bogus"; see --help\n' });
  assert.deepEqual(cli(["bogus", "--help"]), { status: 2, signal: null, stdout: "", stderr: 'prefill-trace: unknown command "bogus"; see --help\n' });
});

test("serve --csv with a rate sweep is refused by name (one rate's requests per CSV), from a flag or a file", () => {
  const serving = ["--rate", "5", "--requests", "10", "--prompt", "512", "--output", "16"];
  const flag = cli(["serve", ...serving, "--sweep-rates", "1,2", "--csv"]);
  assert.equal(flag.status, 2);
  assert.equal(flag.stdout, "");
  assert.match(flag.stderr, /^prefill-trace: --sweep-rates: --csv prints the requests of one rate; give --json or --table/);
  const file = path.join(scratch, "sweep.json");
  writeFileSync(file, JSON.stringify({ model: "llama-3.1-8b", serving: { rate: 5, requests: 10, prompt: 512, output: 16, sweep_rates: [1, 2] } }));
  assert.match(cli(["serve", "--scenario", file, "--csv"]).stderr, /sweep\.json: \/serving\/sweep_rates: --csv prints the requests of one rate/);
  // Without --csv the sweep runs: its JSON has one point per rate given (two here).
  const json = JSON.parse(cli(["serve", ...serving, "--sweep-rates", "1,2", "--json"]).stdout);
  assert.equal(json.sweep?.length ?? json.rate_sweep?.length, 2, Object.keys(json).join(" "));
});

// The placement search's bad input (issue 29 item 6): exit 2 with one line naming the flag.
test("plan: a bad budget or a placement flag exits 2 naming the flag", () => {
  const workload = ["--rate", "8", "--requests", "40", "--prompt-length", "512", "--output-length", "16"];
  const slo = ["--ttft-slo", "0.2"];
  const budget = "prefill-trace: --devices: must be an integer from 1 to 16\n";  // max_plan_devices
  for (const [args, stderr] of [
    [["--devices", "0"], budget],
    [["--devices", "17"], budget],
    [["--devices", "2.5"], budget],
    [["--devices", "x"], 'prefill-trace: --devices: "x" is not a decimal number\n'],
    [[], "prefill-trace: plan: --devices N is required (the device budget to place instances on)\n"],
    [["--devices", "2", "--policy", "chunked"], "prefill-trace: --policy (/serving/policy): is chosen by the placement search; leave it out\n"],
    [["--devices", "2", "--tensor-parallel", "2"], "prefill-trace: --tensor-parallel (/tensor_parallel): is chosen by the placement search (per phase); leave it out\n"],
    [["--devices", "2", "--csv"], "prefill-trace: --csv: unknown option here (see --help)\n"],
  ]) {
    assert.deepEqual(cli(["plan", ...workload, ...slo, ...args]), { status: 2, signal: null, stdout: "", stderr }, args.join(" "));
  }
  const noSlo = cli(["plan", ...workload, "--devices", "2"]);
  assert.equal(noSlo.status, 2);
  assert.equal(noSlo.stderr, "prefill-trace: /serving/ttft_slo: the placement search ranks goodput, which needs an SLO: ttft_slo and/or tpot_slo\n");
});
