#!/usr/bin/env node
// The lesson page in headless Chromium (Debian's /usr/bin/chromium through playwright-core):
//   (a) cold load, 5 fresh browser contexts: navigation start → `first-trace-drawn` (median),
//       and → the end of the first frame rendered after that mark (style, layout and paint of
//       the page included: the first moment the trace can be seen);
//   (b) 60 control changes (the exact prompt-token field alternating between values, and the
//       Attention select), once with the page at the controls and once scrolled to the charts:
//       the page's own `control-to-update` measures, p50 and p95, and the time from the same
//       mark to the end of the first frame rendered after it (style, layout and paint included);
//       and the engine module's computeTrace / traceFigures calls per change, and their time;
//   (c) what a cold load downloads: the bytes of every response body, and the same files
//       gzipped (-9) from build/web, as a static host with compression would send them.
// Reports figures only; it never fails on a time. Needs build/web (script/build-site).
//   node bench/page-bench.mjs [--runs 5] [--changes 60] [--root DIR] [--only changes]
// --root serves another built site (e.g. a copy of build/web made before a change, to measure
// the two builds alternately in the same minutes); --only changes skips (a) and (c).

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { assertSiteBuilt, countEngineCalls, launchChromium, site, startServer } from '../tests/browser/helpers.mjs';

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    changes: { type: 'string', default: '60' },
    root: { type: 'string' },
    only: { type: 'string' },
  },
});
const ROOT = options.root ? path.resolve(options.root) : site;
const ONLY_CHANGES = options.only === 'changes';
if (options.only !== undefined && !ONLY_CHANGES) throw new Error(`--only: expected "changes", got "${options.only}"`);
const RUNS = Math.max(1, Number(options.runs) || 5);
const CHANGES = Math.max(2, Number(options.changes) || 60);
const VIEWPORT = { width: 1280, height: 900 };

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  // Nearest rank: the smallest value with at least q of the sample at or below it.
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function line(label, value, unit) {
  const text = typeof value === 'number' && Number.isFinite(value) ? value.toFixed(1) : String(value);
  console.log(`${label.padEnd(72)} ${text.padStart(10)} ${unit}`);
}

/** Waits for the lesson element to settle and the explorer to draw its first trace. */
async function waitFirstTrace(page) {
  await page.waitForFunction(
    () =>
      performance.getEntriesByName('first-trace-drawn').length > 0 &&
      document.querySelector('prefill-trace-lesson')?.getAttribute('data-state') === 'ready',
    null,
    { timeout: 30_000 },
  );
  return page.evaluate(() => performance.getEntriesByName('first-trace-drawn')[0].startTime);
}

/**
 * Records when each frame's rendering (style, layout, paint) has run, from the start of the
 * page: a task queued from a frame's requestAnimationFrame callback runs after the rest of that
 * frame. The first such time after a mark is when what the mark stands for was on screen.
 */
function recordFrames() {
  window.__framesDone = [];
  const tick = () => {
    setTimeout(() => window.__framesDone.push(performance.now()), 0);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** The end of the first frame rendered after `first-trace-drawn` (recordFrames must run). */
function firstFrameAfterTrace(page) {
  return page.evaluate(() => {
    const drawn = performance.getEntriesByName('first-trace-drawn')[0].startTime;
    return window.__framesDone.find((f) => f >= drawn) ?? null;
  });
}

async function coldLoads(browser, origin) {
  const times = [];
  const frames = [];
  const downloads = new Map();
  for (let run = 0; run < RUNS; run += 1) {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.addInitScript(recordFrames);
    if (run === 0) {
      page.on('requestfinished', async (request) => {
        try {
          const sizes = await request.sizes();
          downloads.set(request.url(), sizes.responseBodySize);
        } catch {
          // A request whose page went away: not part of the load.
        }
      });
    }
    await page.goto(`${origin}/`);
    times.push(await waitFirstTrace(page));
    frames.push(await firstFrameAfterTrace(page));
    if (run === 0) {
      // Late font requests (the equation's glyphs) finish after the first trace.
      await page.evaluate(() => document.fonts.ready);
      await page.waitForLoadState('networkidle');
    }
    await context.close();
  }
  return { times, frames: frames.filter((f) => f !== null), downloads };
}

/**
 * CHANGES control changes, with the page scrolled to `scrollTo` (a selector in the lesson's
 * shadow root): the controls stay on screen (they are sticky beside the results at this width).
 */
async function controlChanges(browser, origin, scrollTo) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addInitScript(countEngineCalls);
  const page = await context.newPage();
  await page.goto(`${origin}/`);
  await waitFirstTrace(page);
  await page.evaluate(async (selector) => {
    document.querySelector('prefill-trace-lesson').shadowRoot.querySelector(selector).scrollIntoView({ block: 'center' });
    // Let every part catch up with the scroll before measuring.
    await new Promise((resolve) => setTimeout(resolve, 500));
  }, scrollTo);
  // The first frame rendered after a measure's end is when its update was on screen.
  await page.evaluate(recordFrames);
  await page.evaluate(() => {
    performance.clearMeasures('control-to-update');
    for (const times of Object.values(window.__engineCalls)) times.length = 0;
  });
  const prompt = page.getByLabel('Prompt tokens (exact)');
  const attention = page.getByLabel('Attention', { exact: true });
  const prompts = [4096, 512, 16384, 2048, 777, 65536];
  const count = () => page.evaluate(() => performance.getEntriesByName('control-to-update').length);
  for (let i = 0; i < CHANGES; i += 1) {
    const before = await count();
    if (i % 2 === 0) {
      await prompt.fill(String(prompts[(i / 2) % prompts.length]));
    } else {
      await attention.selectOption((i - 1) % 4 === 0 ? 'materialized' : 'fused');
    }
    await page.waitForFunction(
      (n) => performance.getEntriesByName('control-to-update').length > n,
      before,
      { timeout: 10_000, polling: 'raf' },
    );
    // Let the frame that paints it pass before the next change.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0))));
  }
  const entries = await page.evaluate(() => {
    const frames = window.__framesDone;
    return performance.getEntriesByName('control-to-update').map((m) => {
      const end = m.startTime + m.duration;
      const frame = frames.find((f) => f >= end);
      return { duration: m.duration, toFrame: frame === undefined ? null : frame - m.startTime };
    });
  });
  const engineCalls = await page.evaluate(() => window.__engineCalls);
  await context.close();
  return { entries, engineCalls };
}

async function main() {
  if (options.root) {
    if (!existsSync(path.join(ROOT, 'index.html'))) throw new Error(`--root ${ROOT}: no index.html there`);
  } else {
    assertSiteBuilt();
  }
  const server = await startServer({ root: ROOT });
  let browser;
  try {
    browser = await launchChromium();
    const { times, frames, downloads } = ONLY_CHANGES
      ? { times: [], frames: [], downloads: new Map() }
      : await coldLoads(browser, server.origin);
    if (!ONLY_CHANGES) {
      line(`page cold load → first trace drawn (median of ${times.length})`, quantile(times, 0.5), 'ms');
      line(`page cold load → first trace drawn (min … max)`, `${Math.min(...times).toFixed(1)} … ${Math.max(...times).toFixed(1)}`, 'ms');
      line(`page cold load → first frame rendered after it (median of ${frames.length})`, quantile(frames, 0.5), 'ms');
    }

    for (const [where, selector] of [
      ['controls and figures in view', '#ctl-prompt'],
      ['charts in view', '#chart-roofline'],
    ]) {
      const { entries, engineCalls } = await controlChanges(browser, server.origin, selector);
      const durations = entries.map((e) => e.duration);
      const frames = entries.map((e) => e.toFrame).filter((v) => v !== null);
      line(`page control change → update, p50 (${where}, n=${durations.length})`, quantile(durations, 0.5), 'ms');
      line(`page control change → update, p95 (${where})`, quantile(durations, 0.95), 'ms');
      line(`page control change → frame rendered, p50 (${where})`, quantile(frames, 0.5), 'ms');
      line(`page control change → frame rendered, p95 (${where})`, quantile(frames, 0.95), 'ms');
      // performance.now() is coarse in a page that is not cross-origin isolated (100 µs here).
      for (const [name, times] of Object.entries(engineCalls)) {
        line(`  module ${name} calls per change`, times.length / CHANGES, '');
        if (times.length) line(`  module ${name} call, p50 (JSON.parse not included)`, quantile(times, 0.5), 'ms');
      }
    }

    if (ONLY_CHANGES) return;
    let raw = 0;
    let gzip = 0;
    let unknown = 0;
    for (const [url, size] of downloads) {
      raw += size;
      const { pathname } = new URL(url);
      const file = path.join(ROOT, decodeURIComponent(pathname === '/' ? '/index.html' : pathname));
      try {
        gzip += gzipSync(await readFile(file), { level: 9 }).length;
      } catch {
        unknown += 1;
        gzip += size;
      }
    }
    line(`page cold load downloads (${downloads.size} responses, body bytes)`, raw / 1024, 'KiB');
    line(
      `page cold load downloads, gzip -9 equivalent${unknown ? ` (${unknown} not in build/web)` : ''}`,
      gzip / 1024,
      'KiB',
    );
  } finally {
    await browser?.close();
    await server.stop();
  }
}

await main();
