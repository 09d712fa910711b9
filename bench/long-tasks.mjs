#!/usr/bin/env node
// The main thread's long tasks after the first paint, as a phone sees them: cold loads of the
// built page at 412 × 823 px (Lighthouse's mobile screen) with the CPU slowed 4× through CDP
// (Emulation.setCPUThrottlingRate, the slowdown Lighthouse's mobile run assumes), traced until
// the element says `data-state="ready"` and the page has been idle for a moment. Prints, per
// load, every main-thread task longer than 50 ms after first-contentful-paint (the tasks that
// make Lighthouse's total blocking time), each with what ran in it: the largest events by self
// time (script evaluation by file, callbacks by function, style, layout, paint, lazy wasm
// compilation, garbage collection). A diagnostic, not part of script/bench: tracing itself
// slows the load, and the machine's load moves the figures; compare builds in the same minutes.
// Needs build/web (script/build-site).
//   node bench/long-tasks.mjs [--runs 2] [--width 412] [--cpu 4] [--scroll] [--save DIR]
//   --scroll: scroll to the explorer after the first paint, as a reader would
//   --profile: also sample the JavaScript (V8's CPU profiler) and name, per long task, the page's
//              own functions that ran longest (build app.js without --minify for names) and
//   --root DIR: serve DIR instead of build/web
//   --over MS: list tasks over MS instead of 50 (with --cpu 1, 12.5 lists the tasks Lighthouse's
//              simulated 4x slowdown would make long, and the blocking time is then summed as
//              Lighthouse sums it: 4 × duration − 50 ms for each)
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { assertSiteBuilt, launchChromium, startServer } from '../tests/browser/helpers.mjs';
import { rendererMainThread } from './trace-events.mjs';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '2' },
    width: { type: 'string', default: '412' },
    cpu: { type: 'string', default: '4' },
    scroll: { type: 'boolean', default: false },
    save: { type: 'string' },
    profile: { type: 'boolean', default: false },
    root: { type: 'string' },
    over: { type: 'string', default: '50' },
  },
});
const RUNS = Math.max(1, Number(options.runs) || 2);
const WIDTH = Number(options.width) || 412;
const CPU_SLOWDOWN = Number(options.cpu) || 4;
/** A task over this long blocks input (the long-task and TBT threshold). */
const LONG_TASK_MS = Number(options.over) || 50;
/** How much longer a task would be where it counts: 50 / LONG_TASK_MS (1 unless --over is given). */
const SIMULATED = 50 / LONG_TASK_MS;
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8',
  'v8.execute',
  'v8.wasm',
  'disabled-by-default-v8.wasm.detailed',
];

if (options.profile) CATEGORIES.push('disabled-by-default-v8.cpu_profiler');

const ms = (microseconds) => (microseconds / 1000).toFixed(0);

/** A readable name for a trace event: the script or function it ran, else the event's name. */
function label(event) {
  const data = event.args?.data ?? event.args?.beginData ?? {};
  const file = data.url ? path.basename(new URL(data.url, 'http://x/').pathname) : '';
  switch (event.name) {
    case 'EvaluateScript':
    case 'v8.compile':
    case 'v8.compileModule':
    case 'v8.evaluateModule':
      return `${event.name} ${file}`;
    case 'FunctionCall':
      return `js ${data.functionName || '(anonymous)'} ${file}:${data.lineNumber ?? ''}`;
    case 'TimerFire':
    case 'FireIdleCallback':
    case 'FireAnimationFrame':
    case 'EventDispatch':
      return `${event.name}${data.type ? ` ${data.type}` : ''}`;
    default:
      return event.name;
  }
}

/** Self time of each event inside `task` (its duration minus its children's), by label. */
function selfTimes(task, events) {
  const inside = events
    .filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const byLabel = new Map();
  const stack = [];
  const add = (name, t) => byLabel.set(name, (byLabel.get(name) ?? 0) + t);
  // Each event's self time; the enclosing JS call or script names the JS that ran in it.
  const self = new Map(inside.map((e) => [e, e.dur]));
  let taskSelf = task.dur;
  const owner = new Map();
  for (const e of inside) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) self.set(parent, self.get(parent) - e.dur);
    else taskSelf -= e.dur;
    const js = /^(js |EvaluateScript|v8\.evaluateModule|TimerFire|FireIdleCallback|FireAnimationFrame|EventDispatch)/;
    owner.set(e, js.test(label(e)) ? label(e) : parent ? owner.get(parent) : null);
    stack.push(e);
  }
  for (const e of inside) {
    const name = label(e);
    // Generic V8 wrappers are charged to the script or callback they ran.
    const generic = /^(v8\.run|v8\.callFunction|v8\.execute|RunMicrotasks|V8\.Execute)/.test(name);
    add(generic && owner.get(e) ? `${owner.get(e)} (script)` : name, self.get(e));
  }
  add('(task, unattributed)', taskSelf);
  return [...byLabel].filter(([, t]) => t >= 2000).sort((a, b) => b[1] - a[1]);
}

/** V8's samples in the trace: [{ts, stack: [callFrame, …] innermost first}]. */
function samples(events, pid) {
  const nodes = new Map();
  const out = [];
  for (const profile of events.filter((e) => e.name === 'Profile' && e.pid === pid)) {
    let ts = profile.args.data.startTime;
    for (const chunk of events.filter((e) => e.name === 'ProfileChunk' && e.id === profile.id && e.pid === pid)) {
      const data = chunk.args.data;
      for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
      const ids = data.cpuProfile?.samples ?? [];
      ids.forEach((id, i) => {
        ts += data.timeDeltas[i];
        out.push({ ts, id });
      });
    }
  }
  return out.map(({ ts, id }) => {
    const stack = [];
    for (let node = nodes.get(id); node; node = nodes.get(node.parent)) stack.push(node.callFrame);
    return { ts, stack };
  });
}

/** The page's own functions (innermost frame from the page's scripts) that ran in `task`. */
function pageFunctions(task, sampled) {
  const within = sampled.filter((s) => s.ts >= task.ts && s.ts <= task.ts + task.dur);
  const count = new Map();
  for (const { stack } of within) {
    const own = stack.find((f) => /\/(app|chunks\/[^/]+|wasm\/[^/]+)\.js$/.test(f.url ?? ''));
    const top = stack[0];
    const name = own
      ? `${own.functionName || '(anonymous)'} ${path.basename(own.url)}:${own.lineNumber + 1}`
      : top?.functionName || '(idle or native)';
    count.set(name, (count.get(name) ?? 0) + 1);
  }
  const total = within.length || 1;
  return [...count]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 10)
    .map(([name, n]) => [name, (n / total) * task.dur]);
}

function summarise(events) {
  const fcp = events.find((e) => e.name === 'firstContentfulPaint');
  if (!fcp) throw new Error('the trace has no firstContentfulPaint');
  const renderer = fcp.pid;
  const { start, onMain } = rendererMainThread(events, renderer);
  const mark = (name) => events.find((e) => e.pid === renderer && e.name === name)?.ts;
  const sampled = options.profile ? samples(events, renderer) : [];
  const long = onMain
    .filter((e) => e.name === 'RunTask' && e.ts + e.dur > fcp.ts && e.dur > LONG_TASK_MS * 1000)
    .sort((a, b) => a.ts - b.ts);
  return {
    fcp: fcp.ts - start,
    drawn: (mark('first-trace-drawn') ?? start) - start,
    tasks: long.map((task) => ({
      at: task.ts - start,
      dur: task.dur,
      causes: selfTimes(task, onMain),
      // The page's own marks in the task: the steps of its start (nextTask) and first-trace-drawn.
      marks: events
        .filter((e) => e.pid === renderer && e.cat?.includes('blink.user_timing') && e.ts >= task.ts && e.ts <= task.ts + task.dur)
        .map((e) => e.name),
      functions: options.profile ? pageFunctions(task, sampled) : [],
    })),
    blocking: long.reduce((sum, t) => sum + Math.max(0, SIMULATED * t.dur - 50_000) - SIMULATED * Math.max(0, fcp.ts - t.ts), 0),
  };
}

assertSiteBuilt();
const server = await startServer(options.root ? { root: path.resolve(options.root) } : {});
const browser = await launchChromium();
try {
  if (options.save) await mkdir(options.save, { recursive: true });
  console.log(`${WIDTH} px, CPU ${CPU_SLOWDOWN}x slower, tasks over ${LONG_TASK_MS} ms after first-contentful-paint`);
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({
      viewport: { width: WIDTH, height: Math.round(WIDTH * 2) },
      deviceScaleFactor: WIDTH < 600 ? 1.75 : 1,
      isMobile: WIDTH < 600,
      hasTouch: WIDTH < 600,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(`${server.origin}/`);
    // Waited for through CDP, not page.waitForFunction: Playwright's injected script would be
    // evaluated in the page (a 200 ms task at 4x) and counted among the page's own.
    const inPage = (expression) => cdp.send('Runtime.evaluate', { expression, awaitPromise: true });
    if (options.scroll) {
      await inPage(`document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('#explorer')?.scrollIntoView()`);
    }
    const { result } = await inPage(`new Promise((resolve) => {
      const element = document.querySelector('prefill-trace-lesson');
      const settled = () => element.dataset.state !== 'loading';
      if (settled()) resolve(element.dataset.state);
      else new MutationObserver((_, observer) => {
        if (!settled()) return;
        observer.disconnect();
        resolve(element.dataset.state);
      }).observe(element, { attributes: true, attributeFilter: ['data-state'] });
    })`);
    if (result.value !== 'ready') console.log(`load ${run + 1}: data-state="${result.value}"`);
    await page.waitForTimeout(1500);
    const buffer = await browser.stopTracing();
    await context.close();
    if (options.save) await writeFile(path.join(options.save, `long-tasks-${run}.json`), buffer);
    const summary = summarise(JSON.parse(buffer.toString('utf8')).traceEvents);
    console.log(
      `load ${run + 1}: FCP ${ms(summary.fcp)} ms, first-trace-drawn ${ms(summary.drawn)} ms; ` +
        `${summary.tasks.length} long tasks, ${ms(summary.blocking)} ms over 50 ms after FCP${SIMULATED === 1 ? "" : ` (durations × ${SIMULATED})`}`,
    );
    for (const task of summary.tasks) {
      console.log(`  at ${ms(task.at).padStart(5)} ms  ${ms(task.dur).padStart(4)} ms  ${[...new Set(task.marks)].join(', ')}`);
      for (const [name, t] of task.causes.slice(0, 8)) console.log(`      ${ms(t).padStart(4)} ms  ${name}`);
      if (task.functions.length) console.log('    sampled (share of the task):');
      for (const [name, t] of task.functions) console.log(`      ${ms(t).padStart(4)} ms  ${name}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
