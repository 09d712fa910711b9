// Browser tests of what a control change redraws (issue 13 item 7: the update path). Mutation
// records (MutationObserver) show which nodes a change touched; expected figures come from the
// engine loaded in Node and formatted with the page's own functions (web/src/format.js).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import * as fmt from '../../web/src/format.js';
import { DEFAULT_SCENARIO as DEFAULT, normalize, openPage as open, useBrowser, waitForScenario } from './helpers.mjs';

const env = useBrowser();
const openPage = (t, pathAndQuery, options) => open(env, t, pathAndQuery, options);
const engine = await loadModule();

const CHARTS = ['roofline', 'intensity', 'time', 'bytes', 'memory', 'ttft', 'sweep', 'decode', 'reuse'];
const VIEWPORT = { width: 1280, height: 900 };

/** The engine's trace for the default scenario with `overrides`. */
function engineTrace(overrides = {}) {
  const result = engine.computeTrace(JSON.stringify({ ...DEFAULT, ...overrides }));
  assert.ok(result.ok, result.error);
  return JSON.parse(result.json);
}

/**
 * Starts recording the mutations under each chart's <figure> (window.__mutations[name], every
 * record: child lists, attributes and text, the whole subtree).
 */
function watchCharts(page) {
  return page.evaluate((names) => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    window.__observers = {};
    window.__mutations = {};
    for (const name of names) {
      window.__mutations[name] = [];
      const observer = new MutationObserver((records) => window.__mutations[name].push(...records));
      observer.observe(root.getElementById(`chart-${name}`), {
        subtree: true,
        childList: true,
        attributes: true,
        characterData: true,
      });
      window.__observers[name] = observer;
    }
  }, CHARTS);
}

/** The number of mutation records per chart since watchCharts (pending ones included). */
function mutationCounts(page) {
  return page.evaluate(() =>
    Object.fromEntries(
      Object.entries(window.__observers).map(([name, observer]) => {
        window.__mutations[name].push(...observer.takeRecords());
        return [name, window.__mutations[name].length];
      }),
    ),
  );
}

/** Two rendered frames: anything an IntersectionObserver or an idle callback starts has run. */
function settle(page) {
  return page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 50)))),
  );
}

test('a change redraws the charts on screen in its own task; one off screen follows and shows the latest scenario', async (t) => {
  const { page, problems } = await openPage(t, '/', { viewport: VIEWPORT });
  await waitForScenario(page, { hardware: DEFAULT.hardware });
  // The roofline in the middle of the window (as bench/page-bench.mjs has it): the last step
  // card ends on screen above it, the others are above the window; of the charts below it, one
  // that starts below the window's bottom edge is off screen.
  const offScreen = await page.evaluate(async (names) => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    root.getElementById('chart-roofline').scrollIntoView({ block: 'center' });
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    return names.filter((name) => root.getElementById(`chart-${name}`).getBoundingClientRect().top > innerHeight);
  }, CHARTS);
  assert.ok(offScreen.includes('memory') || offScreen.includes('decode'), `charts off screen: ${offScreen}`);
  await settle(page);
  await watchCharts(page);

  // The accelerator changes every chart's figures (its roofs, its capacity) and every step's
  // times. Mutation records are queued synchronously, so taking them right after dispatchEvent
  // returns shows what the change's own task wrote. The step cards are all above the window.
  const inTask = await page.evaluate((names) => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    const cards = [...root.querySelectorAll('li.trace-step')];
    const above = cards.filter((card) => card.getBoundingClientRect().bottom < 0);
    const onScreen = cards.filter((card) => card.getBoundingClientRect().bottom > 0);
    const onScreenObserver = new MutationObserver(() => {});
    for (const card of onScreen) onScreenObserver.observe(card, { subtree: true, childList: true, characterData: true, attributes: true });
    const stepObserver = new MutationObserver(() => {});
    for (const card of above) stepObserver.observe(card, { subtree: true, childList: true, characterData: true, attributes: true });
    const select = root.getElementById('ctl-hardware');
    select.value = 'h200';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return {
      ...Object.fromEntries(names.map((name) => [name, window.__observers[name].takeRecords().length])),
      cardsAbove: above.length,
      cardsAboveTouched: stepObserver.takeRecords().length,
      cardsOnScreen: onScreen.length,
      cardsOnScreenTouched: onScreenObserver.takeRecords().length,
    };
  }, CHARTS);
  assert.ok(inTask.roofline > 0, 'the roofline, on screen, is redrawn in the change’s task');
  for (const name of offScreen) assert.equal(inTask[name], 0, `${name}, off screen, is not drawn in the change’s task`);
  assert.ok(inTask.cardsAbove >= 1 && inTask.cardsOnScreen >= 1, `step cards: ${inTask.cardsAbove} above the window, ${inTask.cardsOnScreen} on screen`);
  assert.ok(inTask.cardsOnScreenTouched > 0, 'the step card on screen is redrawn in the change’s task');
  assert.equal(inTask.cardsAboveTouched, 0, 'step cards off screen are not drawn in the change’s task');

  // Every part follows soon after; the memory chart (off screen or not) states the H200's
  // capacity and this scenario's peak, from the engine.
  await waitForScenario(page, { hardware: 'h200' });
  const memory = engineTrace({ hardware: 'h200' }).steps[3].facts.memory;
  await page.locator('#chart-memory').scrollIntoViewIfNeeded();
  await settle(page);
  const caption = normalize(await page.locator('#chart-memory .chart-caption').innerText());
  assert.ok(caption.startsWith(`Peak memory ${fmt.bytes(memory.peak_bytes)} = `), caption);
  assert.ok(caption.includes(`against ${fmt.bytes(memory.capacity_bytes)} of device memory`), caption);
  assert.deepEqual(problems, []);
});

test('a chart scrolled into view after several changes shows the last of them', async (t) => {
  const { page, problems } = await openPage(t, '/', { viewport: VIEWPORT });
  await waitForScenario(page, { prompt_tokens: DEFAULT.prompt_tokens });
  // At the controls, far above the decode chart: three edits, then the chart is scrolled to at
  // once (no frame between the last edit and the scroll).
  await page.evaluate(() => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    const prompt = root.getElementById('ctl-prompt');
    for (const value of ['512', '16384', '3000']) {
      prompt.value = value;
      prompt.dispatchEvent(new Event('input', { bubbles: true }));
    }
    root.getElementById('chart-decode').scrollIntoView({ block: 'center' });
  });
  await settle(page);
  const trace = engineTrace({ prompt_tokens: 3000 });
  const caption = normalize(await page.locator('#chart-decode .chart-caption').innerText());
  // decode.js's caption opens with the prompt length and the prefill's totals.
  const expected =
    `Prefill of ${fmt.count(3000)} tokens: ${fmt.flops(trace.totals.flops)}, ` +
    `${fmt.bytes(trace.totals.hbm_bytes)} of HBM traffic, ${fmt.seconds(trace.totals.seconds)}`;
  assert.ok(caption.startsWith(expected), `${caption}\nexpected to start with\n${expected}`);
  assert.deepEqual(problems, []);
});

test('a change that leaves a chart’s data as it was does not touch the chart', async (t) => {
  // The arrival rate feeds only the queue (M/D/1 before the prompt runs): the operators, the
  // memory ledger, the reuse example and the decode comparison are the same at 0 and 2
  // requests/s. Checked on the engine first, so the test's premise is the engine's.
  const idle = engineTrace({ arrival_rate: 0 });
  const busy = engineTrace({ arrival_rate: 2 });
  assert.deepEqual(busy.operators, idle.operators);
  assert.deepEqual(busy.steps[3].facts.memory, idle.steps[3].facts.memory);
  assert.deepEqual(busy.steps[1].facts.reuse_example, idle.steps[1].facts.reuse_example);
  assert.deepEqual(busy.decode_comparison, idle.decode_comparison);
  assert.notDeepEqual(busy.totals.ttft, idle.totals.ttft);

  const { page, problems } = await openPage(t, '/', { viewport: VIEWPORT });
  await waitForScenario(page, { arrival_rate: 0 });
  await page.locator('#chart-roofline').scrollIntoViewIfNeeded();
  await settle(page);
  await watchCharts(page);
  const rate = page.getByLabel('Arrival rate', { exact: true });
  await rate.fill('2');
  await rate.press('Enter');
  await waitForScenario(page, { arrival_rate: 2 });
  await settle(page);
  const counts = await mutationCounts(page);
  for (const name of ['roofline', 'intensity', 'time', 'bytes', 'memory', 'decode', 'reuse']) {
    assert.equal(counts[name], 0, `${name}: ${counts[name]} mutation records`);
  }
  // The observers do see a chart whose data changed: the TTFT bar gains a queue.
  assert.ok(counts.ttft > 0, 'the TTFT chart is redrawn');
  assert.deepEqual(problems, []);
});

test('a redraw moves the axis ticks already there instead of making new ones', async (t) => {
  const { page, problems } = await openPage(t, '/', { viewport: VIEWPORT });
  await waitForScenario(page, { prompt_tokens: DEFAULT.prompt_tokens });
  await page.locator('#chart-time').scrollIntoViewIfNeeded();
  await settle(page);
  const ticks = () => page.locator('#chart-time [data-part="x-axis"] .tick text').allInnerTexts();
  const before = await ticks();
  await page.evaluate(() => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    window.__axisChanges = [];
    new MutationObserver((records) => window.__axisChanges.push(...records)).observe(
      root.querySelector('#chart-time [data-part="x-axis"]'),
      { childList: true },
    );
  });
  const exact = page.getByLabel('Prompt tokens (exact)');
  await exact.fill('4096');
  await exact.press('Enter');
  await waitForScenario(page, { prompt_tokens: 4096 });
  await settle(page);
  // Twice the prompt takes about twice the time: the time axis gets new labels.
  const after = await ticks();
  assert.notDeepEqual(after, before, 'the time axis is relabelled');
  // Each tick is a <g> child of the axis: as many added or removed as the count changed by.
  const moved = await page.evaluate(() =>
    window.__axisChanges.reduce((n, r) => n + r.addedNodes.length + r.removedNodes.length, 0),
  );
  assert.equal(moved, Math.abs(after.length - before.length), `ticks ${before} → ${after}`);
  assert.deepEqual(problems, []);
});

test('a chart’s data table keeps its rows when operators are added', async (t) => {
  // Fused to materialized attention adds operators (the score matrix written and read back):
  // the engine's operator lists differ in length.
  const fused = engineTrace();
  const materialized = engineTrace({ attention: 'materialized' });
  assert.ok(materialized.operators.length > fused.operators.length);

  const { page, problems } = await openPage(t, '/', { viewport: VIEWPORT });
  await waitForScenario(page, { attention: 'fused' });
  await page.evaluate(() => {
    const body = document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('#chart-roofline .chart-data tbody');
    window.__rows = [...body.rows];
  });
  await page.getByLabel('Attention', { exact: true }).selectOption('materialized');
  await waitForScenario(page, { attention: 'materialized' });
  const table = await page.evaluate(() => {
    const body = document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('#chart-roofline .chart-data tbody');
    return {
      kept: window.__rows.filter((row) => row.parentNode === body).length,
      names: [...body.rows].map((row) => row.cells[0].textContent),
    };
  });
  // One row per operator, in the engine's order; the fused trace's rows are all still there.
  assert.deepEqual(table.names, materialized.operators.map((op) => op.name));
  assert.equal(table.kept, fused.operators.length);
  assert.deepEqual(problems, []);
});
