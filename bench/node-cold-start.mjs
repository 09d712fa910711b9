#!/usr/bin/env node
// Cold start of the npm package's Node entry: in each of N fresh Node processes, the time to
// require() (or import) the package, instantiate the engine (read and compile the .wasm, run its
// start-up) and make the first computeTrace call, each phase timed with performance.now() inside
// the child (and the same call again, warm, to tell the first call's one-off costs from the
// call itself), and the whole process (spawn to exit, Node's own start-up included) from outside.
// A separate child times WebAssembly.compile of the same .wasm alone, to say how much of the
// instantiation is compilation. Prints medians (and the range); figures only, no pass/fail.
// Needs script/package (build/npm).
//   node bench/node-cold-start.mjs [--runs 15] [--package build/npm] [--node-flag F]
// --node-flag passes a flag to each child, e.g. --node-flag=--no-wasm-lazy-compilation (V8 then compiles the
// whole module at instantiation instead of each function on its first call).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, package: { type: 'string', default: 'build/npm' }, 'node-flag': { type: 'string', multiple: true, default: [] } },
});
const RUNS = Math.max(1, Number(options.runs) || 15);
const pkg = path.resolve(options.package);
if (!existsSync(path.join(pkg, 'package.json'))) throw new Error(`${pkg}: no package; run script/package`);

const SCENARIO = JSON.stringify({ model: 'llama-3.1-8b', hardware: 'h100-sxm' });
// After the engine is ready (t2): the first call, the CPU time so far, a second call, the figures.
const FIRST_CALLS = `if (!engine.computeTrace(${JSON.stringify(SCENARIO)}).ok) throw new Error('trace refused');
const t3 = performance.now();
const c3 = process.cpuUsage(c0);
engine.computeTrace(${JSON.stringify(SCENARIO)});
const t4 = performance.now();
console.log(JSON.stringify({ load: t1 - t0, instantiate: t2 - t1, first: t3 - t2, total: t3 - t0, second: t4 - t3, cpu: (c3.user + c3.system) / 1000 }));`;
const CHILD = {
  require: `const c0 = process.cpuUsage();
const t0 = performance.now();
const PrefillTrace = require(${JSON.stringify(pkg)});
const t1 = performance.now();
PrefillTrace().then((engine) => {
  const t2 = performance.now();
  ${FIRST_CALLS}
});`,
  import: `const c0 = process.cpuUsage();
const t0 = performance.now();
const { default: PrefillTrace } = await import(${JSON.stringify(path.join(pkg, 'node.mjs'))});
const t1 = performance.now();
const engine = await PrefillTrace();
const t2 = performance.now();
${FIRST_CALLS}`,
  compile: `const bytes = require('node:fs').readFileSync(${JSON.stringify(path.join(pkg, 'element/wasm/prefill_trace.wasm'))});
const t0 = performance.now();
WebAssembly.compile(bytes).then(() => console.log(JSON.stringify({ compile: performance.now() - t0, bytes: bytes.length })));`,
};

function runChild(kind) {
  const started = process.hrtime.bigint();
  const args = [...options['node-flag'], ...(kind === 'import' ? ['--input-type=module', '-e', CHILD[kind]] : ['-e', CHILD[kind]])];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8' });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${kind}: ${child.stderr}`);
  return { ...JSON.parse(child.stdout.trim().split('\n').pop()), process: wall };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
// Median, then the range: on a shared machine the minimum is the least disturbed run.
const figure = (values) => `${median(values).toFixed(1)} ms (${Math.min(...values).toFixed(1)} … ${Math.max(...values).toFixed(1)})`;

console.log(`Node ${process.version} ${options['node-flag'].join(' ')}, ${RUNS} fresh processes each, package ${path.relative(process.cwd(), pkg) || pkg}`);
for (const kind of ['require', 'import']) {
  const runs = Array.from({ length: RUNS }, () => runChild(kind));
  console.log(`${kind}():`);
  for (const key of ['load', 'instantiate', 'first', 'second', 'total', 'cpu', 'process']) {
    const label = { load: `${kind} the entry`, instantiate: 'instantiate (read + compile + start)', first: 'first computeTrace', second: 'the same call again (warm: no lazy compilation)',
      total: `${kind} + instantiate + first call`, cpu: 'its CPU time, every thread (less moved by load)', process: 'whole process (Node start-up included)' }[key];
    console.log(`  ${label.padEnd(50)} ${figure(runs.map((r) => r[key]))}`);
  }
}
const compiles = Array.from({ length: RUNS }, () => runChild('compile'));
console.log(`WebAssembly.compile of the .wasm alone (${compiles[0].bytes} bytes): ${figure(compiles.map((r) => r.compile))}`);
