// The K/V figure of "Under load" (web/src/charts/serving-kv.js, issue 30 item 3) drawn from the
// engine's reports of small scenarios worked out on paper, in the built charts chunk on a page of
// the site's origin (no lesson: the chart alone):
// - its preemption ticks sit at the times the block arithmetic puts them, placed by the chart's
//   own time scale (the svg's data-x-domain and data-x-range);
// - a run with no line (no request admitted in the minute, or no K/V column reported) is said in
//   words in the plot and in the caption, not drawn as an empty line.
//
// The scenario is tests/cpp/serving_kv_test.cpp's (TheNewestRunningRequestIsPreemptedAndRecomputed),
// twice: Llama 3.1 8B on one H100 SXM, prefill first, paged K/V in blocks of 1,024 tokens at
// gpu_memory_utilization 0.3 (C blocks, a few dozen: the memory ledger's count, the one input
// taken from the engine, by a probe run), a token budget of 65,536 (one prefill iteration takes
// both prompts). Two requests A and B arrive together at 10 s, and again at 40 s, with prompts of
// a and b whole blocks (a + b = C − 1) and 10 output tokens each. Both are admitted (C − 1 blocks)
// and prefilled in one iteration, which samples their first tokens; the first decode needs one
// more block for each context of a·1,024 + 1 tokens: A (admitted first) takes the last free block
// and B, the newest running request, is preempted, once per pair — at the end of that prefill.
// The pair's prefill computes (C − 1)·1,024 tokens: at least 2 · 8.03e9 parameters · (C − 1) ·
// 1,024 FLOP at the H100's 989.4 TFLOP/s dense bf16 peak (0.37 s for C = 23), and well under 1 s
// (the attention of two 11,264-token prompts adds ~0.07 s at peak; a prefill this size runs at
// over half the peak). So the k-th tick (k = 1, 2) covers a time in [t_k + floor, t_k + 1 s],
// t_k = 10 s and 40 s, each tick counts 1, and both lie inside the figure's minute. The page's
// pair of runs is the same arrivals twice (paged, then reserve), as the page's is.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { useBrowser } from './helpers.mjs';

const env = useBrowser();
const engine = await loadModule();
const skip = typeof engine.simulateServing !== 'function' && 'this engine build has no simulateServing';

const BLOCK = 1024;
const PARAMETERS = 8.03e9;
const PEAK_FLOPS = 989.4e12;

/** The engine's report of `serving` on Llama 3.1 8B / H100 SXM, the chart's fields as summary.js keeps them. */
function serve(serving) {
  const outcome = engine.simulateServing(
    JSON.stringify({
      model: 'llama-3.1-8b',
      hardware: 'h100-sxm',
      serving: { policy: 'prefill-first', block_size: BLOCK, gpu_memory_utilization: 0.3, token_budget: 65536, ...serving },
    }),
  );
  assert.ok(outcome.ok, outcome.error);
  const report = JSON.parse(outcome.json);
  return { ...report, block_size: report.serving.block_size };
}

/** Draws kvChart() of the pair on a blank page of the site's origin; returns the page. */
async function drawPair(t, paged, reserve) {
  const context = await env.browser.newContext({ viewport: { width: 900, height: 700 } });
  t.after(() => context.close());
  const page = await context.newPage();
  await page.route(`${env.origin}/kv-figure.html`, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>K/V</title><main></main>' }));
  await page.goto(`${env.origin}/kv-figure.html`);
  await page.evaluate(
    async ({ paged, reserve }) => {
      const charts = await import('/chunks/charts.js');
      const chart = charts.kvChart();
      document.querySelector('main').append(chart.element);
      chart.update({ runs: [{ policy: 'prefill-first', report: paged, reserve }], rate: 1, ttftSlo: 1, tpotSlo: 0.05, target: 0.9 });
    },
    { paged, reserve },
  );
  return page;
}

test('the K/V figure: preemption ticks at the times block arithmetic puts them, placed by its time scale', { skip }, async (t) => {
  const capacity = serve({ rows: [[0, BLOCK, 2]], timeline_points: 0 }).kv_capacity_blocks;
  assert.ok(capacity >= 3 && capacity < 100, `capacity ${capacity} blocks (watermark 0 below 100)`);
  const a = Math.floor((capacity - 1) / 2);
  const b = capacity - 1 - a;
  const arrivals = [10, 40];
  const rows = arrivals.flatMap((at) => [
    [at, a * BLOCK, 10],
    [at, b * BLOCK, 10],
  ]);
  const paged = serve({ rows, timeline_points: 240 });
  const reserve = serve({ rows, timeline_points: 240, kv: 'reserve' });
  assert.equal(paged.preemptions, 2, 'one preemption per pair');
  const page = await drawPair(t, paged, reserve);

  const svg = page.locator('#chart-serving-kv svg.chart-svg');
  const [d0, d1] = (await svg.getAttribute('data-x-domain')).split(',').map(Number);
  const [r0, r1] = (await svg.getAttribute('data-x-range')).split(',').map(Number);
  assert.deepEqual([d0, d1], [0, 60], 'the figure spans the first minute');
  const xOf = (seconds) => r0 + ((seconds - d0) / (d1 - d0)) * (r1 - r0);
  const ticks = await svg.locator('rect.kv-preemption').evaluateAll((rects) =>
    rects.map((r) => ({ x: Number(r.getAttribute('x')), width: Number(r.getAttribute('width')), count: Number(r.dataset.count), end: Number(r.dataset.time) })),
  );
  assert.equal(ticks.length, 2, 'a tick per pair');
  const step = paged.timeline.step_seconds;
  const floor = (2 * PARAMETERS * (capacity - 1) * BLOCK) / PEAK_FLOPS;
  ticks.sort((p, q) => p.x - q.x).forEach((tick, k) => {
    assert.equal(tick.count, 1, `tick ${k + 1} counts one preemption`);
    // The tick covers its timeline step, [end − step, end), placed by the chart's scale.
    const start = tick.end - step;
    assert.ok(Math.abs(tick.x - xOf(start)) < 1e-6, `tick ${k + 1} at x ${tick.x} against the scale's ${xOf(start)}`);
    assert.ok(Math.abs(tick.width - Math.max(2, xOf(tick.end) - xOf(start))) < 1e-6, `tick ${k + 1} is its step wide`);
    // The step holds the preemption, which the arithmetic above puts in [t_k + floor, t_k + 1 s].
    assert.ok(tick.end > arrivals[k] + floor && start < arrivals[k] + 1, `tick ${k + 1}: step ${start}–${tick.end} s against ${arrivals[k] + floor}–${arrivals[k] + 1} s`);
  });
  assert.match((await page.locator('#chart-serving-kv figcaption').innerText()).replace(/\s+/g, ' '), /preempts 2 times in the minute/);
});

test('the K/V figure says in words when a run has no line, rather than drawing an empty one', { skip }, async (t) => {
  // One request arriving at 61 s: neither run admits anything in the figure's minute, so both
  // columns are 0 up to 60 s (timeline steps of 61.x / 240 s: their ends before 60 s hold 0).
  const late = [[61, BLOCK, 10]];
  let page = await drawPair(t, serve({ rows: late, timeline_points: 240 }), serve({ rows: late, timeline_points: 240, kv: 'reserve' }));
  let figure = page.locator('#chart-serving-kv');
  for (const mode of ['paged', 'reserve']) {
    assert.equal(await figure.locator(`path.kv-${mode}`).getAttribute('d'), null, `no ${mode} line`);
    assert.equal(await figure.locator(`text.kv-empty-${mode}`).textContent(), `${mode}: no request admitted in the minute, no block held`);
  }
  assert.match(await figure.locator('figcaption').innerText(), /reserve has no line: no request admitted in the minute, no block held\./);

  // The reserve twin without a timeline (timeline_points 0: no K/V column) beside a paged run
  // that holds blocks (one request at 10 s, 1,000 output tokens: a few seconds of decodes on ⌈2,024 / 1,024⌉ = 2 blocks): paged drawn, reserve said.
  const rows = [[10, BLOCK, 1000]];
  const paged = serve({ rows, timeline_points: 240 });
  page = await drawPair(t, paged, serve({ rows, timeline_points: 0, kv: 'reserve' }));
  figure = page.locator('#chart-serving-kv');
  // Its axis: the line's peak is 2 blocks; with the capacity C far above (2 < C / 4) the axis
  // ends at ⌈1.2 × 2⌉ = 3 whole blocks (its top tick is a count), else at C.
  const capacity = paged.kv_capacity_blocks;
  assert.equal(await figure.locator('svg.chart-svg').getAttribute('data-y-domain'), 2 < 0.25 * capacity ? '0,3' : `0,${capacity}`);
  assert.ok((await figure.locator('path.kv-paged').getAttribute('d'))?.length > 0, 'the paged line is drawn');
  assert.equal(await figure.locator('path.kv-reserve').getAttribute('d'), null);
  assert.equal(await figure.locator('text.kv-empty-reserve').textContent(), 'reserve: no K/V series reported');
  assert.equal(await figure.locator('text[data-part="empty-paged"]').getAttribute('display'), 'none');
  assert.equal(await figure.locator('text[data-part="name-reserve"]').getAttribute('display'), 'none', 'no name for a line not drawn');
  assert.match(await figure.locator('figcaption').innerText(), /reserve has no line: no K\/V series reported\./);
});
