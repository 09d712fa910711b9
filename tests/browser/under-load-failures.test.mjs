// Issue 33: "Under load" after a refusal, an engine abort and the element's removal.
// - L1: a run the engine refuses stops there and says why. Prompt 424,000 + 256 output tokens
//   on the default H100 and Llama 3.1 8B under paged K/V (the default, gpu_memory_utilization
//   0.9): with all 80 GB an instance holds 483,211 tokens of K/V beside its weights under prefill
//   first (temporaries of an 8,192-row iteration) and 487,531 under chunked prefill (512 rows);
//   the 10 % left out, 8e9 bytes at 131,072 bytes a token (2 · 32 layers · 8 heads · 128 · 2 B),
//   is 61,035 tokens less: 422,176 and 426,496. So the first job (prefill first) is refused and
//   the chunked ones are not.
//   At 770e613 the Worker went on, and "Simulated 1 of 36 runs…" overwrote the refusal.
// - Item 2: an engine that aborts in the Worker (its WebAssembly memory at the 128 MB cap: 400,000
//   output tokens did it at 770e613, issue 33 V1) is discarded; the next run gets a new one. At
//   770e613 every later run said "simulateServing: Aborted()" until the page was reloaded.
// - L2: without a Worker, a removed element stops simulating (its page run went on to 36 calls),
//   and frees the engine's simulation it abandoned.
// - Item 2 without a Worker: the page's own engine (web/src/engine.js) replaces an aborted instance.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { countEngineCalls, openPage, useBrowser } from './helpers.mjs';

const env = useBrowser();
const hasServing = typeof (await loadModule()).simulateServing === 'function';
const skip = !hasServing && 'this engine build has no simulateServing';

const partOf = (page) => page.locator('prefill-trace-lesson').locator('details.under-load');
const statusOf = (page) => partOf(page).locator('.under-load-status');

/** Presses Run and waits until the run is over (the button is enabled again). */
async function run(page, { output }) {
  const part = partOf(page);
  await page.locator('prefill-trace-lesson').getByLabel('Output tokens per request').fill(String(output));
  const button = part.getByRole('button', { name: 'Run the simulation' });
  await button.click();
  await page.waitForFunction(
    () => !document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('details.under-load button[type=submit]').disabled,
    null,
    { timeout: 240_000 },
  );
}

test('a refused run stops at the refusal and keeps saying why (L1)', { skip }, async (t) => {
  const { page } = await openPage(env, t, '/?prompt=424000', { viewport: { width: 1280, height: 900 } });
  await partOf(page).locator('summary').click();
  await run(page, { output: 256 });
  const refusal = /^The engine rejected the prefill-first run: .*needs K\/V for 424256 tokens, more than the 422176/;
  assert.match(await statusOf(page).innerText(), refusal);
  // The chunked jobs would take ~1 s each: had the Worker gone on, their results would be in.
  await page.waitForTimeout(3_000);
  assert.match(await statusOf(page).innerText(), refusal);
  assert.equal(await partOf(page).getAttribute('data-simulated'), null, 'nothing drawn');
});

/**
 * Runs 400,000 output tokens a request (an abort at 770e613), then 256: the first run's status
 * never shows the runtime's bare "Aborted()" (and says `words` when it aborted), the second run
 * is simulated.
 */
async function abortThenRun(t, page, words) {
  await partOf(page).locator('summary').click();
  await page.locator('prefill-trace-lesson').getByLabel('Arrival rate (requests/s)').fill('0.05');
  await run(page, { output: 400000 });
  const first = await statusOf(page).innerText();
  t.diagnostic(`first run: ${first}`);
  assert.doesNotMatch(first, /Aborted\(\)/);
  if (/aborted/.test(first)) assert.match(first, words);
  await run(page, { output: 256 });
  assert.match(await statusOf(page).innerText(), /^Simulated \S+ requests per scheduler\.$/);
  assert.equal(await partOf(page).getAttribute('data-simulated'), '3');
}

test('an engine that aborts in the Worker is replaced for the next run (item 2)', { skip }, async (t) => {
  const { page } = await openPage(env, t, '/?prompt=2048', { viewport: { width: 1280, height: 900 } });
  await abortThenRun(t, page, /128 MB cap\) and was discarded; the next run starts a new one/);
});

test('without a Worker, a removed element stops simulating (L2)', { skip }, async (t) => {
  const { page } = await openPage(env, t, '/?prompt=2048', {
    viewport: { width: 1280, height: 900 },
    setup: async (p) => {
      await p.addInitScript(() => {
        window.Worker = undefined;
      });
      // Counts the page's slices (and the simulations it starts and frees) through the
      // element's engine hook.
      await p.addInitScript(countEngineCalls, ['ServingSimulation.start', 'ServingSimulation.advance', 'ServingSimulation.delete']);
    },
  });
  const calls = () => page.evaluate(() => Object.fromEntries(Object.entries(window.__engineCalls).map(([k, v]) => [k.split('.')[1], v.length])));
  await partOf(page).locator('summary').click();
  await page.locator('prefill-trace-lesson').getByLabel('Output tokens per request').fill('64');
  await partOf(page).getByRole('button', { name: 'Run the simulation' }).click();
  await page.waitForFunction(() => window.__engineCalls['ServingSimulation.start'].length >= 2, null, { timeout: 60_000 });
  const atRemoval = await page.evaluate(() => {
    document.querySelector('prefill-trace-lesson').remove();
    return window.__engineCalls['ServingSimulation.advance'].length;
  });
  // 37 jobs in slices a macrotask apart: 3 s is room for many more slices.
  await page.waitForTimeout(3_000);
  const after = await calls();
  assert.equal(after.advance, atRemoval);
  // Every simulation started was freed, the one abandoned mid-run too (Embind frees nothing itself).
  assert.equal(after.delete, after.start);
});

test('without a Worker, an engine that aborts on the page is replaced for the next call (item 2)', { skip }, async (t) => {
  const { page } = await openPage(env, t, '/?prompt=2048', {
    viewport: { width: 1280, height: 900 },
    setup: (p) =>
      p.addInitScript(() => {
        window.Worker = undefined;
      }),
  });
  await abortThenRun(t, page, /128 MB cap\) and was discarded; a new instance answers later calls/);
});
