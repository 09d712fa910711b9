#!/usr/bin/env node
// Where a cold load's time goes: records a Chromium trace of fresh-context loads of the built
// page (Debian's /usr/bin/chromium through playwright-core) and prints, per load, the time to
// `first-trace-drawn`, when each file arrived, the main thread's longest tasks before the mark
// (with the lazy wasm compilation inside each), and the total time V8 spent compiling WebAssembly
// functions lazily on the main thread (JS calls themselves are not recorded as complete events in
// these categories, so the rest of a task is the page's script and the engine's calls).
// A diagnostic, not part of script/bench: tracing slows the load itself (roughly 1.5-2x here), so
// read the shares, not the absolute times. Needs build/web (script/build-site).
//   node bench/cold-load-trace.mjs [--runs 3] [--save DIR]   (DIR: keep each trace's JSON)
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { assertSiteBuilt, launchChromium, startServer } from '../tests/browser/helpers.mjs';
import { rendererMainThread } from './trace-events.mjs';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, save: { type: 'string' } },
});
const RUNS = Math.max(1, Number(options.runs) || 3);
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline', // the main thread's tasks (RunTask)
  'blink.user_timing',
  'v8',
  'v8.wasm',
  'disabled-by-default-v8.wasm.detailed',
];

const ms = (microseconds) => (microseconds / 1000).toFixed(1);

/** Summarises one trace: the renderer that set the mark, its main thread, and the load's events. */
function summarise(events) {
  const mark = events.find((e) => e.name === 'first-trace-drawn');
  if (!mark) throw new Error('the trace has no first-trace-drawn mark');
  const renderer = mark.pid;
  const { start, mainThread, onMain } = rendererMainThread(events, renderer);
  if (start === undefined || mainThread === undefined) throw new Error('no navigation in the trace');
  const beforeMark = (e) => e.ts >= start && e.ts <= mark.ts;

  const lazy = onMain.filter((e) => e.name === 'wasm.CompileLazy' && beforeMark(e));
  const tasks = onMain
    .filter((e) => e.name === 'RunTask' && beforeMark(e))
    .sort((a, b) => b.dur - a.dur)
    .slice(0, 5)
    .map((task) => {
      const inside = onMain.filter(
        (e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur,
      );
      // wasm.CompileLazy events do not nest, so their sum is the task's compile time.
      const compiling = inside.filter((e) => e.name === 'wasm.CompileLazy');
      const other = inside
        .filter((e) => !e.name.startsWith('wasm.'))
        .sort((a, b) => b.dur - a.dur)[0];
      return {
        at: task.ts - start,
        dur: task.dur,
        compile: compiling.reduce((sum, e) => sum + e.dur, 0),
        other: other ? `${other.name} ${ms(other.dur)} ms` : '',
      };
    });
  const sent = new Map(
    events
      .filter((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url)
      .map((e) => [e.args.data.requestId, e]),
  );
  const files = events
    .filter((e) => e.name === 'ResourceFinish' && sent.has(e.args?.data?.requestId))
    .map((e) => ({
      path: new URL(sent.get(e.args.data.requestId).args.data.url).pathname,
      requested: sent.get(e.args.data.requestId).ts - start,
      finished: e.ts - start,
    }))
    .filter((f) => f.finished <= mark.ts - start)
    .sort((a, b) => a.finished - b.finished);
  return {
    drawn: mark.ts - start,
    lazy: { count: lazy.length, total: lazy.reduce((sum, e) => sum + e.dur, 0) },
    tasks,
    files,
  };
}

await assertSiteBuilt();
const server = await startServer();
const browser = await launchChromium();
try {
  if (options.save) await mkdir(options.save, { recursive: true });
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(`${server.origin}/`);
    await page.waitForFunction(() => performance.getEntriesByName('first-trace-drawn').length > 0, null, {
      timeout: 30_000,
    });
    const buffer = await browser.stopTracing();
    await context.close();
    if (options.save) await writeFile(path.join(options.save, `cold-load-${run}.json`), buffer);

    const summary = summarise(JSON.parse(buffer.toString('utf8')).traceEvents);
    console.log(`load ${run + 1}: first-trace-drawn at ${ms(summary.drawn)} ms (traced)`);
    console.log(
      `  wasm lazy compilation on the main thread: ${ms(summary.lazy.total)} ms in ${summary.lazy.count} functions`,
    );
    console.log('  longest main-thread tasks before the mark:');
    for (const task of summary.tasks) {
      console.log(
        `    at ${ms(task.at).padStart(7)} ms  ${ms(task.dur).padStart(6)} ms  ` +
          `(wasm compilation ${ms(task.compile)} ms; largest other event: ${task.other || 'none'})`,
      );
    }
    console.log('  files (requested → arrived, ms after navigation start):');
    for (const file of summary.files) {
      console.log(`    ${ms(file.requested).padStart(7)} → ${ms(file.finished).padStart(7)}  ${file.path}`);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
