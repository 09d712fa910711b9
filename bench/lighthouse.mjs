#!/usr/bin/env node
// Lighthouse (npm `lighthouse`, Debian's Chromium) on the built page served by script/serve.mjs
// (compressed, cached as a static host should): mobile (Lighthouse's default: a mid-range phone,
// simulated slow 4G, 4x CPU slowdown) and desktop, RUNS cold loads each, medians of the
// performance score, LCP, TBT, CLS and the accessibility score, against issue 13's targets.
// Reports; never fails on a figure. Needs build/web (script/build-site).
//   node bench/lighthouse.mjs [--runs 3] [--only mobile|desktop] [--root DIR (default build/web)] [--tasks]
//   --tasks: also print each run's long tasks as Lighthouse simulates them (its `long-tasks`
//            audit: start, simulated duration, the script it charges them to)
//   CHROME_PATH overrides /usr/bin/chromium

import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { CHROMIUM_ARGS, assertSiteBuilt, startServer } from '../tests/browser/helpers.mjs';

const { values: options } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, only: { type: 'string' }, root: { type: 'string' }, tasks: { type: 'boolean', default: false } },
});
const RUNS = Math.max(1, Number(options.runs) || 3);

/** Issue 13's targets (mobile); "≥" for scores, "≤" for times and shift. */
const TARGETS = { performance: 0.95, lcp: 1500, tbt: 150, cls: 0.02, accessibility: 1 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function run(url, formFactor) {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
  });
  try {
    const flags = { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] };
    const { lhr } = await lighthouse(url, flags, formFactor === 'desktop' ? desktopConfig : undefined);
    if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
    const audit = (id) => lhr.audits[id].numericValue;
    return {
      performance: lhr.categories.performance.score,
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
      accessibility: lhr.categories.accessibility.score,
      // Lighthouse 13 reports the LCP element in its LCP breakdown insight (a "node" item).
      // The simulated long tasks (4x CPU): what makes the TBT.
      tasks: (lhr.audits['long-tasks']?.details?.items ?? []).map((t) => `${Math.round(t.startTime)}+${Math.round(t.duration)} ${URL.canParse(t.url) ? path.basename(new URL(t.url).pathname) : t.url ?? ''}`),
      lcpElement: lhr.audits['lcp-breakdown-insight']?.details?.items?.find((item) => item.type === 'node')?.selector ?? '',
    };
  } finally {
    await chrome.kill();
  }
}

assertSiteBuilt();
const server = await startServer(options.root ? { root: path.resolve(options.root) } : {});
try {
  console.log(`${'lighthouse (median of ' + RUNS + ')'.padEnd(10)}`.padEnd(34) + 'performance      LCP      TBT     CLS  accessibility');
  for (const formFactor of ['mobile', 'desktop'].filter((f) => !options.only || f === options.only)) {
    const results = [];
    for (let i = 0; i < RUNS; i += 1) results.push(await run(server.url, formFactor));
    const m = (key) => median(results.map((r) => r[key]));
    console.log(
      `lighthouse ${formFactor.padEnd(22)}` +
        `${m('performance').toFixed(2).padStart(11)} ${(m('lcp') / 1000).toFixed(2).padStart(6)} s ${Math.round(m('tbt')).toString().padStart(5)} ms ${m('cls').toFixed(3).padStart(7)} ${m('accessibility').toFixed(2).padStart(14)}`,
    );
    console.log(
      `lighthouse ${formFactor} runs: ` +
        results.map((r) => `${r.performance.toFixed(2)}/${(r.lcp / 1000).toFixed(2)}s/${Math.round(r.tbt)}ms/${r.cls.toFixed(3)}`).join('  '),
    );
    console.log(`lighthouse ${formFactor} LCP element: ${results[0].lcpElement}`);
    if (options.tasks) results.forEach((r, i) => console.log(`lighthouse ${formFactor} run ${i + 1} long tasks (start+ms): ${r.tasks.join('  ')}`));
  }
  console.log(
    `lighthouse targets (mobile)           ≥ ${TARGETS.performance}  ≤ ${TARGETS.lcp / 1000} s  ≤ ${TARGETS.tbt} ms  ≤ ${TARGETS.cls}  ${TARGETS.accessibility.toFixed(2)}`,
  );
} finally {
  await server.stop();
}
