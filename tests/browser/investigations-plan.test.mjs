// Issue 30, the DistServe investigation's placement search off the main thread: the engine's
// planServing took 1.3–2.0 s of a throttled phone's CPU as one task. It now runs in the serving
// Worker; under a host whose CSP refuses Workers (`worker-src 'none'`) the page's own engine runs
// it in slices (ServingPlan, docs/serving.md "Placement search") between frames. Either way the
// sentence is the same, figure for figure: the figures are checked against the CLI's plan
// (tests/browser/fixtures/serving-investigations/distserve-plan-<tight|loose>.json, as
// investigations.test.mjs checks them) and the two sentences against each other.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countEngineCalls, openPage, useBrowser } from './helpers.mjs';

const env = useBrowser();
const CALLS = ['planServing', 'ServingPlan.start', 'ServingPlan.advance', 'ServingPlan.result', 'ServingPlan.delete'];
/** A task over this long blocks input (the long-task threshold). */
const LONG_TASK_MS = 50;
/**
 * The most work plan-runner.js gives one slice (its MAX_BUDGET), in the engine's units: ~2 ms
 * at full speed in wasm (~8 ns a unit, docs/performance.md), ~8 ms on a 4× slower phone.
 */
const MAX_SLICE_WORK = 400_000;

/** Records each ServingPlan.advance's budget in window.__planBudgets (an init script, beside countEngineCalls's wrapper). */
function recordBudgets() {
  window.__planBudgets = [];
  customElements.whenDefined('prefill-trace-lesson').then((Lesson) => {
    const make = Lesson.engineFactory;
    Lesson.engineFactory = async (options) => {
      const module = await make(options);
      const advance = module.ServingPlan.prototype.advance;
      module.ServingPlan.prototype.advance = function (budget) {
        window.__planBudgets.push(budget);
        return advance.call(this, budget);
      };
      return module;
    };
  });
}

/** Opens the page, its engine's plan calls counted; `refuseWorkers` adds `worker-src 'none'` to the page's CSP. */
async function open(t, refuseWorkers) {
  return openPage(env, t, '/', {
    viewport: { width: 1440, height: 900 },
    setup: async (p) => {
      if (refuseWorkers) {
        // A second policy beside the page's own (both are enforced), on the document only.
        await p.route((url) => url.pathname === '/' || url.pathname.endsWith('/index.html'), async (route) => {
          const response = await route.fetch();
          const csp = [response.headers()['content-security-policy'], "worker-src 'none'"].filter(Boolean).join(', ');
          await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': csp } });
        });
      }
      await p.addInitScript(countEngineCalls, CALLS);
      await p.addInitScript(recordBudgets);
    },
  });
}

/**
 * Predicts, shows, and returns the first reading: its text, its figures by name, and the
 * engine's plan calls; `status`, when given, is what the verdict must say while it searches.
 */
async function readDistServe(page, status = null) {
  const item = page.locator('prefill-trace-lesson').locator('[data-investigation="distserve"]');
  await item.locator('summary').click();
  await item.locator('input[value="1"]').check();
  await item.locator('button[type="submit"]').click();
  if (status) await item.locator('.investigation-verdict', { hasText: status }).waitFor({ timeout: 60_000 });
  const reading = item.locator('.investigation-reading[data-reading="first"]');
  await reading.locator('data').first().waitFor({ timeout: 120_000 });
  const figures = await reading.locator('data').evaluateAll((nodes) => Object.fromEntries(nodes.map((n) => [n.dataset.name, n.getAttribute('value')])));
  const calls = await page.evaluate(() => window.__engineCalls);
  const budgets = await page.evaluate(() => window.__planBudgets);
  return { text: (await reading.innerText()).replace(/\s+/g, ' '), figures, calls, budgets };
}

test('DistServe: the placement search runs in the Worker, and without one in slices on the page, with the same sentence', async (t) => {
  const inWorker = await open(t, false);
  const worker = await readDistServe(inWorker.page);
  // Nothing of the plan ran on the page: no one-shot call, no slices.
  for (const name of CALLS) assert.equal(worker.calls[name].length, 0, `${name} on the page`);
  // The CLI's figures (distserve-plan-tight.json, distserve-plan-loose.json: goodput_per_device
  // of chunked prefill on one instance of one device, and of `best`).
  assert.equal(Number(worker.figures['tight-chunked']), 2.4509375);
  assert.equal(Number(worker.figures['loose-chunked']), 4.688750000000001);
  assert.equal(Number(worker.figures['tight-best']), 4.901875);
  assert.deepEqual(inWorker.problems, []);

  const onPage = await open(t, true);
  await onPage.page.evaluate(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
  });
  // The reader is told, while it searches, that it runs on the page (not in the background).
  const page = await readDistServe(onPage.page, /^Searching every placement on this page itself, in short steps/);
  assert.equal(page.text, worker.text, 'the same sentence');
  assert.deepEqual(page.figures, worker.figures, 'the same figures, to the last digit');
  // Two plans (a tight and a loose objective), each started, advanced in slices and freed; never
  // the one-shot call.
  assert.equal(page.calls.planServing.length, 0);
  assert.equal(page.calls['ServingPlan.start'].length, 2);
  assert.equal(page.calls['ServingPlan.result'].length, 2);
  assert.equal(page.calls['ServingPlan.delete'].length, 2);
  const slices = page.calls['ServingPlan.advance'];
  assert.ok(slices.length >= 10, `${slices.length} slices`);
  // No slice is given more than a bounded amount of work (the count is the engine's, so this
  // holds on any machine); the times they took depend on the machine and its load, and are
  // reported, not asserted (bench/phone-bench.mjs times them on a throttled phone).
  assert.equal(page.budgets.length, slices.length);
  assert.ok(Math.max(...page.budgets) <= MAX_SLICE_WORK, `the largest slice's budget: ${Math.max(...page.budgets)}`);
  const longTasks = await onPage.page.evaluate(() => window.__longTasks);
  const over = slices.filter((d) => d > LONG_TASK_MS);
  t.diagnostic(
    `plan slices: ${slices.length}, longest ${Math.max(...slices).toFixed(1)} ms, ${over.length} over ${LONG_TASK_MS} ms (${over.map((d) => d.toFixed(0)).join(', ') || 'none'}); ` +
      `main-thread long tasks while reading: ${longTasks.map((d) => d.toFixed(0)).join(', ') || 'none'}`,
  );
  // The one problem: the CSP's refusal of the Worker, as the browser reports it.
  const others = onPage.problems.filter((p) => !/worker-src|Worker/.test(p));
  assert.deepEqual(others, []);
});
