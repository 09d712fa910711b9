#!/usr/bin/env node
// The lesson page as a throttled phone runs it (issue 30, items 6 and 7): headless Chromium at
// 412 × 823 px with the CPU slowed 4× (CDP Emulation.setCPUThrottlingRate, Lighthouse's mobile
// slowdown) and the network at Lighthouse's "slow 4G" as DevTools applies it (its
// constants.throttling.mobileSlow4G: 150 ms RTT × 3.75 = 562.5 ms request latency,
// 1.6 Mbps × 0.9 = 1,474.56 kbps down, 750 kbps × 0.9 = 675 kbps up; CDP
// Network.emulateNetworkConditions). Prints figures, never a pass or a fail:
//   (a) investigations: a cold load (navigation → the element ready), then, for each guided
//       investigation in turn, the time from pressing "Show me" (after picking the first
//       prediction) to its reading's first figure, and from "Change one condition" to the
//       second reading's; and the longest main-thread task (PerformanceObserver "longtask") in
//       each interval;
//   (b) "Under load" with the Worker refused (the README's host that enforces Trusted Types and
//       names no policy: `require-trusted-types-for 'script'; trusted-types 'none'`, added as a
//       header to the page's own CSP), so the simulation runs on the page: the run's wall time,
//       every main-thread task over 50 ms while it runs, and the status the reader sees.
// Needs build/web (script/build-site). Minutes on a loaded machine: the 4× slowdown multiplies
// the machine's own load.
//   node bench/phone-bench.mjs [--cpu 4] [--only investigations|under-load] [--rate R]
//                              [--refuse trusted-types|worker-src] [--investigation ID]
//                              [--investigations-refuse worker-src] [--think MS] [--root DIR]
// --refuse worker-src refuses the Worker by `worker-src 'none'` instead of Trusted Types.
// --investigation ID times that investigation alone (data-investigation, e.g. distserve);
// --investigations-refuse worker-src times them under `worker-src 'none'` (the page's slices);
// --think MS waits MS after opening each investigation before predicting, as a reader reads the
// question (the DistServe investigation loads its Worker's engine meanwhile).
// --root DIR serves DIR instead of build/web (another build, to compare in the same minutes).
import path from 'node:path';
import { parseArgs } from 'node:util';

import { assertSiteBuilt, launchChromium, startServer } from '../tests/browser/helpers.mjs';

const { values: options } = parseArgs({
  options: { cpu: { type: 'string', default: '4' }, only: { type: 'string' }, rate: { type: 'string' }, refuse: { type: 'string', default: 'trusted-types' }, investigation: { type: 'string' }, 'investigations-refuse': { type: 'string' }, think: { type: 'string', default: '0' }, root: { type: 'string' } },
});
const CPU_SLOWDOWN = Number(options.cpu) || 4;
const SLOW_4G = { offline: false, latency: 562.5, downloadThroughput: (1474.56 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };
const VIEWPORT = { width: 412, height: 823 };
const LONG_TASK_MS = 50;

/** Collects main-thread long tasks (durations, ms) in window.__longTasks from the page's start. */
function watchLongTasks() {
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

async function throttledPage(browser, { csp } = {}) {
  const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', SLOW_4G);
  await page.addInitScript(watchLongTasks);
  if (csp) {
    // A second policy beside the page's own (both are enforced): the page's document only.
    await page.route((url) => url.pathname === '/' || url.pathname.endsWith('/index.html'), async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': `${response.headers()['content-security-policy']}, ${csp}` } });
    });
  }
  return { context, page };
}

const longest = (tasks) => (tasks.length ? Math.max(...tasks.map((t) => t.duration)) : 0);
const tasksSince = (page, since) => page.evaluate((t0) => window.__longTasks.filter((t) => t.start >= t0), since);
const now = (page) => page.evaluate(() => performance.now());
const ms = (value) => `${value.toFixed(0).padStart(6)} ms`;

async function loadReady(page, url) {
  const started = Date.now();
  await page.goto(url, { timeout: 180_000 });
  await page.waitForFunction(() => document.querySelector('prefill-trace-lesson')?.dataset.state === 'ready', null, { timeout: 180_000 });
  return Date.now() - started;
}

/** Time (ms) from `act()` to `done` resolving, and the long tasks in between. */
async function timed(page, act, done) {
  const t0 = await now(page);
  const started = Date.now();
  await act();
  await done();
  const elapsed = Date.now() - started;
  return { elapsed, tasks: await tasksSince(page, t0) };
}

async function investigations(browser, url) {
  const csp = options['investigations-refuse'] === 'worker-src' ? "worker-src 'none'" : undefined;
  const { context, page } = await throttledPage(browser, { csp });
  try {
    console.log(`(a) investigations, CPU ${CPU_SLOWDOWN}× slower, slow 4G, ${VIEWPORT.width} × ${VIEWPORT.height} px${csp ? `, ${csp}` : ''}`);
    console.log(`  cold load → element ready ${ms(await loadReady(page, url))}`);
    const root = page.locator('prefill-trace-lesson');
    const all = await root.locator('details.investigation').evaluateAll((nodes) => nodes.map((n) => n.dataset.investigation));
    const ids = options.investigation ? all.filter((id) => id === options.investigation) : all;
    console.log(`  ${'investigation'.padEnd(28)} ${'Show me'.padStart(9)} ${'longest task'.padStart(13)} ${'Change one'.padStart(10)} ${'longest task'.padStart(13)}`);
    for (const id of ids) {
      const item = root.locator(`[data-investigation="${id}"]`);
      await item.locator('summary').click();
      await page.waitForTimeout(Number(options.think) || 0);
      await item.locator('input[type="radio"]').first().check();
      const show = await timed(page, () => item.locator('button[type="submit"]').click(),
        () => item.locator('.investigation-reading data').first().waitFor({ timeout: 180_000 }));
      const change = await timed(page, () => item.locator('button.button--quiet').click(),
        () => item.locator('.investigation-reading[data-reading="next"] data').first().waitFor({ timeout: 180_000 }));
      console.log(`  ${id.padEnd(28)} ${ms(show.elapsed)} ${ms(longest(show.tasks)).padStart(13)} ${ms(change.elapsed).padStart(10)} ${ms(longest(change.tasks)).padStart(13)}`);
      await item.locator('summary').click();
    }
  } finally {
    await context.close();
  }
}

async function underLoadOnPage(browser, url) {
  const csp = options.refuse === 'worker-src' ? "worker-src 'none'" : "require-trusted-types-for 'script'; trusted-types 'none'";
  const { context, page } = await throttledPage(browser, { csp });
  try {
    console.log(`(b) Under load with the Worker refused (${csp}), CPU ${CPU_SLOWDOWN}× slower`);
    await loadReady(page, url);
    const root = page.locator('prefill-trace-lesson');
    const part = root.locator('details.under-load');
    await part.locator('summary').click();
    if (options.rate) await root.getByLabel('Arrival rate (requests/s)').fill(options.rate);
    const rate = await root.getByLabel('Arrival rate (requests/s)').inputValue();
    const statuses = new Set();
    const run = await timed(page, () => part.getByRole('button', { name: 'Run the simulation' }).click(), async () => {
      // The status as the reader reads it, sampled while the run goes on.
      for (;;) {
        const done = await page.evaluate(() => !document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('details.under-load button[type=submit]').disabled);
        statuses.add((await part.locator('.under-load-status').innerText()).replace(/run \d+ of/, 'run k of').replace(/, [\d,]+ of [\d,]+ requests done/, ', i of n requests done'));
        if (done) return;
        await page.waitForTimeout(500);
      }
    });
    const durations = run.tasks.map((t) => t.duration).sort((a, b) => a - b);
    console.log(`  rate ${rate} req/s: ran in "${await part.getAttribute('data-ran-in')}", ${ms(run.elapsed)} in all`);
    console.log(`  main-thread tasks over ${LONG_TASK_MS} ms: ${durations.length}; longest ${ms(longest(run.tasks))}; median ${ms(durations[durations.length >> 1] ?? 0)}`);
    console.log(`  each (ms, in order): ${run.tasks.map((t) => t.duration.toFixed(0)).join(', ') || 'none'}`);
    // The page marks where the simulation ended and the drawing began (a page without the mark:
    // every task counts as the simulation's).
    const drawn = await page.evaluate(() => performance.getEntriesByName('prefill-trace:under-load:simulated').at(-1)?.startTime ?? Infinity);
    const simulating = run.tasks.filter((t) => t.start < drawn);
    const drawing = run.tasks.filter((t) => t.start >= drawn);
    console.log(`  of which while simulating: ${simulating.length} (${simulating.map((t) => t.duration.toFixed(0)).join(', ') || 'none'}); drawing the results: ${drawing.length} (${drawing.map((t) => t.duration.toFixed(0)).join(', ') || 'none'})`);
    // Each drawing task by the step it ran (under-load.js #show marks each step's start); a task
    // with no mark in it is the browser's own (style, layout, paint of what a step drew).
    const marks = await page.evaluate((t0) => performance.getEntriesByType('mark').filter((m) => m.startTime >= t0 && m.name.startsWith('prefill-trace:under-load:')).map((m) => ({ name: m.name.slice(25), at: m.startTime })), drawn);
    const stepOf = (t) => marks.filter((m) => m.at >= t.start && m.at <= t.start + t.duration).map((m) => m.name).join('+') || 'no step (rendering)';
    if (drawing.length) console.log(`  drawing tasks by step: ${drawing.map((t) => `${stepOf(t)} ${t.duration.toFixed(0)}`).join(', ')}`);
    console.log(`  hint: ${await part.locator('.under-load-where').innerText({ timeout: 1000 }).catch(() => '(none)')}`);
    for (const status of statuses) console.log(`  status: ${status}`);
  } finally {
    await context.close();
  }
}

assertSiteBuilt();
const server = await startServer(options.root ? { root: path.resolve(options.root) } : {});
const browser = await launchChromium();
try {
  if (options.only !== 'under-load') await investigations(browser, server.url);
  if (options.only !== 'investigations') await underLoadOnPage(browser, server.url);
} finally {
  await browser.close();
  await server.stop();
}
