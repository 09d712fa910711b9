// Issue 20 item 4: "Under load" runs the engine's serving simulation in a Worker, never on the
// page's main thread, and draws what the engine reported. One page load.
//
// The figure checked by hand: at a rate so low that requests never overlap (0.05 requests/s,
// one every 20 s on average, each done in well under a second), a prefill-first server decodes
// one request at a time, so every output token costs one decode step at batch 1. Such a step is
// memory-bound (intensity ≈ 1 FLOP/byte against a ridge of 295, docs/model.md) and reads every
// weight but the embedding table, plus the request's K/V: for Llama 3.1 8B in bf16 on an H100
// SXM (3.35 TB/s) that is (8,030,261,248 − 128,256 × 4,096) × 2 bytes = 15.01 GB, plus
// 2 · 32 layers · 8 heads · 128 · 2 bytes = 131,072 bytes of K/V per token of context (2,048 to
// 2,048 + 256 tokens: 0.27 to 0.30 GB) — 4.56 to 4.57 ms a token. The median request's TPOT
// must lie within 1% of that. (Its 99th percentile need not: the rare request whose decode
// another prompt's prefill interrupts pays for that prefill — the interference chunking is for.)

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { openPage, useBrowser } from './helpers.mjs';

const env = useBrowser();
const engine = await loadModule();
const hasServing = typeof engine.simulateServing === 'function';

const BANDWIDTH = 3.35e12;
const WEIGHT_BYTES = (8030261248 - 128256 * 4096) * 2;
const KV_BYTES_PER_TOKEN = 2 * 32 * 8 * 128 * 2;
const stepSeconds = (context) => (WEIGHT_BYTES + KV_BYTES_PER_TOKEN * context) / BANDWIDTH;

test('under load: the simulation runs in a Worker and the page shows the engine’s figures', { skip: !hasServing && 'this engine build has no simulateServing' }, async (t) => {
  const { page, problems } = await openPage(env, t, '/?prompt=2048', {
    viewport: { width: 1280, height: 900 },
    // Counts the main thread's serving calls (the Worker loads its own engine and is not seen).
    setup: (p) =>
      p.addInitScript(() => {
        window.__servingCalls = 0;
        let factory;
        Object.defineProperty(window, 'PrefillTrace', {
          configurable: true,
          get: () => factory,
          set: (make) => {
            factory = (options) =>
              Promise.resolve(make(options)).then((module) => {
                const call = module.simulateServing;
                if (typeof call === 'function') {
                  module.simulateServing = (...args) => {
                    window.__servingCalls += 1;
                    return call(...args);
                  };
                }
                return module;
              });
          },
        });
      }),
  });
  const root = page.locator('prefill-trace-lesson');
  const part = root.locator('details.under-load');
  assert.equal(await part.getAttribute('part'), 'under-load');
  await part.locator('summary').click();
  await root.getByLabel('Arrival rate (requests/s)').fill('0.05');
  await part.getByRole('button', { name: 'Run the simulation' }).click();
  await page.waitForFunction(
    () => document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('details.under-load')?.dataset.simulated === '3',
    null,
    { timeout: 240_000 },
  );
  assert.equal(await page.evaluate(() => window.__servingCalls), 0, 'the page never simulates on its main thread');
  for (const id of ['chart-serving-percentiles', 'chart-serving-attainment', 'chart-serving-timeline']) {
    assert.ok((await root.locator(`#${id} svg.chart-svg rect, #${id} svg.chart-svg path`).count()) > 0, `${id} is drawn`);
  }
  // Prefill first's TPOT, as the sentence states it (<data> elements' exact values).
  const value = async (name) => Number(await part.locator(`data[data-name="${name}"]`).getAttribute('value'));
  const median = await value('tpot-p50-prefill-first');
  assert.ok(
    median >= stepSeconds(2048) * 0.99 && median <= stepSeconds(2048 + 256) * 1.01,
    `median TPOT ${median} s against one decode step at batch 1 (${stepSeconds(2048)}–${stepSeconds(2304)} s)`,
  );
  assert.ok((await value('tpot-p99-prefill-first')) >= median);
  assert.deepEqual(problems, []);
});
