// Browser tests of the trace explorer and the checks, driven by the controls' labels. Expected
// figures are derived here, never with the page's own formatter (web/src/format.js): by hand
// from the formulas of docs/model.md where they are short (the KV cache, the FLOPs, the ridge,
// the capacity), else from the engine's number (loaded here in Node, tests/js/load-module.mjs)
// written in a unit the test names itself (`inUnit`: three significant digits, the page's stated
// presentation), so a formatter that chose another prefix, rounded otherwise or dropped the
// binary half would fail. Every test also fails on console errors, failed requests and
// requests off the test server's origin (helpers.mjs).

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { DEFAULT_SCENARIO as DEFAULT, LESSON_PATH, artifacts, countEngineCalls, focused, normalize, openPage as open, repo, useBrowser, waitForScenario, waitReady } from './helpers.mjs';

const env = useBrowser();
const openPage = (t, pathAndQuery, options) => open(env, t, pathAndQuery, options);

const engine = await loadModule();
const lesson = JSON.parse(await readFile(path.join(repo, LESSON_PATH), 'utf8'));


/**
 * `value` as the page writes it in `unit`, one of which is worth `scale` (1e-3 for ms, 2**30 for
 * GiB): three significant digits, trailing zeros dropped. The unit is the test's choice; the
 * value must read between 1 and 1000 of it, the range in which the page uses that prefix.
 */
function inUnit(value, scale, unit) {
  const scaled = value / scale;
  assert.ok(scaled >= 1 && scaled < 1000, `${value} reads as a number of ${unit}`);
  return `${Number(scaled.toPrecision(3))} ${unit}`;
}

/** A byte count in decimal and binary units, as the page pairs them: "268 MB (256 MiB)". */
function inBytes(value, [si, siScale], [iec, iecScale]) {
  return `${inUnit(value, siScale, si)} (${inUnit(value, iecScale, iec)})`;
}
const kB = ['kB', 1e3];
const MB = ['MB', 1e6];
const GB = ['GB', 1e9];
const KiB = ['KiB', 2 ** 10];
const MiB = ['MiB', 2 ** 20];
const GiB = ['GiB', 2 ** 30];

function scenario(overrides = {}) {
  return JSON.stringify({ ...DEFAULT, ...overrides });
}

/** The engine's trace for the default scenario with `overrides`. */
function engineTrace(overrides = {}) {
  const result = engine.computeTrace(scenario(overrides));
  assert.ok(result.ok, result.error);
  return { json: result.json, trace: JSON.parse(result.json) };
}

function engineError(overrides) {
  const result = engine.computeTrace(scenario(overrides));
  assert.equal(result.ok, false);
  return result.error;
}

async function figure(page, key) {
  return normalize(await page.locator(`[data-figure="${key}"] .figure-value`).innerText());
}

async function stepBound(page, step) {
  return page.locator(`li.trace-step[data-step="${step}"] .step-bound [data-bound]`).getAttribute('data-bound');
}

/** Sets a number field by its label and commits it (a change event), as a reader would. */
async function setNumber(page, label, value) {
  const field = page.getByLabel(label, { exact: true });
  await field.fill(String(value));
  await field.press('Enter');
  await field.blur();
}

const CONTROL_LABELS = [
  'Model',
  'Accelerator',
  'Precision',
  'Prompt tokens',
  'Prompt tokens (exact)',
  'Requests per batch',
  'Chunk size',
  'Attention',
  'Arrival rate',
];

test('every control has a visible label; the default scenario shows the engine’s numbers; downloads', async (t) => {
  const { page, problems } = await openPage(t);
  for (const label of CONTROL_LABELS) {
    const control = page.getByLabel(label, { exact: true });
    assert.equal(await control.count(), 1, label);
    assert.ok(await control.isVisible(), `${label} is visible`);
  }
  assert.equal(await page.getByLabel('Prompt tokens', { exact: true }).getAttribute('type'), 'range');
  assert.equal(await page.getByLabel('Model', { exact: true }).inputValue(), 'llama-3.1-8b');
  assert.equal(await page.getByLabel('Accelerator', { exact: true }).inputValue(), 'h100-sxm');
  assert.equal(await page.getByLabel('Prompt tokens (exact)').inputValue(), '2048');

  const { trace } = engineTrace();
  const { ttft, memory } = trace.totals;
  // TTFT of a few tens of ms: in ms (the engine's 0.0336 s reads "33.6 ms").
  const ttftText = inUnit(ttft.total_seconds, 1e-3, 'ms');
  assert.equal(await figure(page, 'ttft'), ttftText);
  // K and V (2) · 32 layers · 2048 tokens · 8 KV heads · 128 dims · 2 bytes (bf16) =
  // 268,435,456 bytes = 268 MB = 256 MiB exactly.
  assert.equal(trace.totals.kv_cache.bytes, 2 * 32 * 2048 * 8 * 128 * 2);
  assert.equal(await figure(page, 'kv-bytes'), '268 MB (256 MiB)');
  // The H100's 80e9 bytes are 80 GB, and 80e9 / 2^30 = 74.5 GiB; the peak (≈ 16.1 GB of bf16
  // weights, 8.03e9 parameters · 2 bytes, plus the KV cache and activations) in GB and GiB.
  const memoryText = `${inBytes(memory.peak_bytes, GB, GiB)} of 80 GB (74.5 GiB) — fits`;
  assert.equal(await figure(page, 'memory'), memoryText);
  // Prefill FLOPs at T = 2048 (docs/model.md): the GEMMs 2·T·32·(4096·6144 + 4096·4096 +
  // 4096·28672 + 14336·4096) = 2·2048·6,979,321,856 = 28.59e12, attention 32 layers · 32 heads ·
  // (2048·2049/2 causal pairs) · (4·128 + 5) = 1.111e12, the lm_head at the last position
  // 2·4096·128256 = 1.05e9, norms and SiLU ≈ 7e9: 29.71e12 FLOP, "29.7 TFLOP".
  assert.equal(await figure(page, 'flops'), '29.7 TFLOP');
  assert.equal(await figure(page, 'hbm-bytes'), inBytes(trace.totals.hbm_bytes, GB, GiB));
  // Step 2's GEMMs at T = 2048 rows, bf16 (intensity = T·d_in·d_out / (d_in·d_out + T·d_in +
  // T·d_out) FLOP/byte): QKV 4096→6144 1117, O 4096→4096 1024, gate/up 4096→28672 1304, down
  // 14336→4096 1246, all above the H100's ridge 989e12 / 3.35e12 = 295: compute-bound.
  assert.equal(await figure(page, 'step2-bound'), 'compute-bound');
  assert.equal(
    normalize(await page.locator('.summary').innerText()),
    `Llama-3.1-8B on one NVIDIA H100 SXM in bf16, 1 × 2,048 tokens: time to first token ${ttftText} (lower bound); ` +
      'the step-2 projections are compute-bound; the prompt leaves 268 MB (256 MiB) of KV cache; ' +
      `peak memory ${memoryText}.`,
  );
  assert.equal(await page.locator('.summary').getAttribute('aria-live'), 'polite');

  // The five steps: the lesson's text, the engine's bound, and its facts.
  for (const step of trace.steps) {
    const card = page.locator(`li.trace-step[data-step="${step.step}"]`);
    assert.equal(normalize(await card.locator('.step-text').innerText()), step.text);
    assert.equal(await stepBound(page, step.step), step.bound ?? 'none');
  }
  assert.deepEqual(trace.steps.map((s) => s.text), lesson.mechanism);
  assert.equal(
    normalize(await page.locator('li.trace-step[data-step="3"] [data-fact="kv_bytes_written"] dd').innerText()),
    '268 MB (256 MiB)', // the whole KV cache above, written by step 3
  );
  // The H100's ridge, 989e12 FLOP/s / 3.35e12 B/s = 295.22 FLOP/byte: four significant digits
  // from 100 FLOP/byte up.
  const ridgeText = '295.2 FLOP/byte';
  assert.equal(normalize(await page.locator('li.trace-step[data-step="2"] [data-fact="ridge_flops_per_byte"] dd').innerText()), ridgeText);

  // Stated omissions, next to the numbers: folded under their count (issue 20 item 5), one click away.
  assert.equal(normalize(await page.locator('.omissions-fold summary').innerText()), `What these numbers leave out (${trace.assumptions.length})`);
  assert.equal(await page.locator('.omissions-list').isVisible(), false);
  await page.locator('.omissions-fold summary').click();
  assert.deepEqual((await page.locator('.omissions-list li').allInnerTexts()).map(normalize), trace.assumptions);
  assert.ok(await page.locator('.omissions-list').isVisible());

  // Charts: SVG with axes and a text alternative; one roofline point per arithmetic operator.
  const charts = ['roofline', 'intensity', 'time', 'bytes', 'memory', 'ttft', 'sweep', 'decode', 'reuse'];
  for (const name of charts) {
    const chart = page.locator(`#chart-${name}`);
    const svg = chart.locator('svg.chart-svg');
    assert.equal(await svg.getAttribute('role'), 'img', name);
    assert.ok((await svg.getAttribute('aria-label')).length > 20, `${name} has a label`);
    assert.ok((await chart.locator('.axis').count()) >= 1, `${name} has an axis`);
    assert.ok((await chart.locator('.chart-data table caption').count()) === 1, `${name} has a data table`);
  }
  const arithmetic = trace.operators.filter((op) => op.flops > 0 && op.intensity > 0);
  assert.equal(await page.locator('#chart-roofline svg.chart-svg path.point').count(), arithmetic.length);
  assert.ok(normalize(await page.locator('#chart-roofline .chart-caption').innerText()).includes(ridgeText));
  const sweepCaption = normalize(await page.locator('#chart-sweep .chart-caption').innerText());
  const points = Number(sweepCaption.match(/(\d+) points/)[1]);
  assert.ok(points >= 200, `sweep has hundreds of points (${points})`);
  // The engineering example with the engine's reuse numbers.
  const reuse = normalize(await page.locator('#chart-reuse .chart-caption').innerText());
  // The O projection (4096×4096, bf16: 33,554,432 bytes of weights) over R rows: intensity
  // 2·R·d² / (2·(d² + 2·R·d)) = R·d / (d + 2R): one row 4096/4098 = 0.9995, "1 FLOP/byte";
  // 128 rows 524288/4352 = 120.47, "120.5 FLOP/byte"; the weights per row 33.6 MB (32 MiB) and
  // 33,554,432 / 128 = 262,144 bytes, 262 kB (256 KiB).
  assert.deepEqual(trace.steps[1].facts.reuse_example.map((row) => row.rows), [1, 128]);
  for (const text of ['1 FLOP/byte', '120.5 FLOP/byte', '33.6 MB (32 MiB)', '262 kB (256 KiB)']) {
    assert.match(reuse, new RegExp(`(^|[^\\d.,])${text.replace(/[().]/g, '\\$&')}`), text);
  }
  // Decoding one token after the prompt: 2·(6,979,321,856 GEMM weights + 525,336,576 of the
  // lm_head) = 15.01e9, attention over 2049 positions 32·32·2049·517 = 1.08e9, the rest ≈ 4e6:
  // 16.1e9 FLOP.
  const decode = normalize(await page.locator('#chart-decode .chart-caption').innerText());
  assert.ok(decode.includes('16.1 GFLOP'), decode);

  // Download trace: the engine's JSON byte for byte, and a CSV whose header names units.
  const { json } = engineTrace();

  const [jsonDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download trace as JSON' }).click(),
  ]);
  assert.match(jsonDownload.suggestedFilename(), /^prefill-trace_llama-3\.1-8b_h100-sxm_bf16_T2048_B1\.json$/);
  assert.equal(await readFile(await jsonDownload.path(), 'utf8'), json);

  const [csvDownload] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download trace as CSV' }).click(),
  ]);
  const lines = (await readFile(await csvDownload.path(), 'utf8')).trimEnd().split('\r\n');
  const header = lines[0].split(',');
  assert.equal(lines.length, trace.operators.length + 1);
  for (const unit of ['flops (FLOP per instance)', 'hbm_total (bytes per instance)', 'seconds (s per instance)', 'intensity (FLOP/byte)']) {
    assert.ok(header.includes(unit), unit);
  }
  const qkv = trace.operators.find((op) => op.name === 'qkv_projection');
  const row = lines.find((line) => line.startsWith('qkv_projection,')).split(',');
  // The engine writes the CSV (tests/js/csv.test.mjs checks its schema): the page offers it.
  assert.equal(Number(row[header.indexOf('flops (FLOP per instance)')]), qkv.flops);
  assert.equal(Number(row[header.indexOf('hbm_total (bytes per instance)')]), qkv.hbm_bytes.total);
  assert.equal(Number(row[header.indexOf('seconds (s per instance)')]), qkv.seconds);
  assert.deepEqual(problems, []);
});

test('prompt tokens 16 → 8192 moves step 2 from memory-bound to compute-bound', async (t) => {
  const { page, problems } = await openPage(t);
  const qkvPoint = page.locator('#chart-roofline path.point', { has: page.locator('title', { hasText: /^qkv_projection/ }) });

  await setNumber(page, 'Prompt tokens (exact)', 16);
  await waitForScenario(page, { prompt_tokens: 16 });
  const small = engineTrace({ prompt_tokens: 16 }).trace;
  assert.equal(small.steps[1].bound, 'memory');
  assert.equal(await stepBound(page, 2), 'memory');
  assert.equal(await figure(page, 'step2-bound'), 'memory-bound');
  assert.match(await qkvPoint.getAttribute('class'), /bound-memory/);
  assert.equal(await figure(page, 'kv-bytes'), '2.1 MB (2 MiB)'); // 2·32·16·8·128·2 = 2,097,152 bytes
  assert.equal(await page.getByLabel('Prompt tokens', { exact: true }).inputValue(), '400'); // 100·log2(16)

  await setNumber(page, 'Prompt tokens (exact)', 8192);
  await waitForScenario(page, { prompt_tokens: 8192 });
  const large = engineTrace({ prompt_tokens: 8192 }).trace;
  assert.equal(large.steps[1].bound, 'compute');
  assert.equal(await stepBound(page, 2), 'compute');
  assert.match(await qkvPoint.getAttribute('class'), /bound-compute/);
  assert.equal(await figure(page, 'kv-bytes'), '1.07 GB (1 GiB)'); // 2·32·8192·8·128·2 = 2^30 bytes
  assert.equal(await figure(page, 'ttft'), inUnit(large.totals.ttft.total_seconds, 1e-3, 'ms'));

  // The log slider drives the same value: End is 131,072 tokens, Home is 1.
  const slider = page.getByLabel('Prompt tokens', { exact: true });
  await slider.focus();
  await page.keyboard.press('End');
  await waitForScenario(page, { prompt_tokens: 131072 });
  assert.equal(await page.getByLabel('Prompt tokens (exact)').inputValue(), '131072');
  await page.keyboard.press('Home');
  await waitForScenario(page, { prompt_tokens: 1 });
  assert.equal(await figure(page, 'kv-bytes'), '131 kB (128 KiB)'); // 2·32·1·8·128·2 = 131,072 bytes

  // Each control change is measured for the benchmark.
  const measures = await page.evaluate(() => performance.getEntriesByName('control-to-update').length);
  assert.ok(measures >= 4, `control-to-update measures: ${measures}`);
  assert.deepEqual(problems, []);
});

// Issue 30 item 5: the current prompt on the intensity chart and the current arrival rate on
// the sweep are handles (role="slider"): a drag or a key sets the control, and every figure
// follows through the same path a control's edit takes.
test('the chart points drag and take keys: the prompt on the intensity chart, the rate on the sweep', async (t) => {
  const { page, problems } = await openPage(t, '/?prompt=2048', { viewport: { width: 1280, height: 900 }, context: { hasTouch: true } });
  const handle = page.getByRole('slider', { name: 'Prompt tokens on the chart' });
  await page.locator('#chart-intensity').scrollIntoViewIfNeeded();
  assert.equal(await handle.getAttribute('aria-valuenow'), '2048');
  assert.deepEqual([await handle.getAttribute('aria-valuemin'), await handle.getAttribute('aria-valuemax')], ['1', '131072']);

  // A key moves 1% of the axis: the axis spans 1…131,072 tokens (2^17) on a log scale, so one
  // ArrowRight multiplies by 2^0.17 = 1.12505: 2,048 → 2,304.1, a whole number of tokens 2,304.
  await handle.focus();
  await page.keyboard.press('ArrowRight');
  await waitForScenario(page, { prompt_tokens: 2304 });
  assert.equal(await page.getByLabel('Prompt tokens (exact)').inputValue(), '2304');
  assert.equal(await figure(page, 'ttft'), inUnit(engineTrace({ prompt_tokens: 2304 }).trace.totals.ttft.total_seconds, 1e-3, 'ms'));
  assert.equal(await handle.getAttribute('aria-valuenow'), '2304');

  // A pointer drag past the axis's left end stops at its first value, 1 token: 2·32·1·8·128·2 =
  // 131,072 bytes of KV cache; back past its right end, 131,072 tokens.
  const knob = handle.locator('.drag-knob');
  const plot = await page.locator('#chart-intensity svg.chart-svg').boundingBox();
  let box = await knob.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(plot.x + plot.width * 0.5, box.y, { steps: 4 });
  await page.mouse.move(plot.x - 40, box.y, { steps: 4 });
  await page.mouse.up();
  await waitForScenario(page, { prompt_tokens: 1 });
  assert.equal(await page.getByLabel('Prompt tokens (exact)').inputValue(), '1');
  assert.equal(await figure(page, 'kv-bytes'), '131 kB (128 KiB)');
  await page.waitForFunction(() => new URL(location.href).searchParams.get('prompt') === '1'); // committed on release
  box = await knob.boundingBox();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(plot.x + plot.width + 40, box.y, { steps: 4 });
  await page.mouse.up();
  await waitForScenario(page, { prompt_tokens: 131072 });
  assert.equal(await page.getByLabel('Prompt tokens', { exact: true }).inputValue(), '1700'); // the slider: 100·log2(131,072)
  // A finger drags it too (touch events become pointer events; were the page to pan instead, the
  // browser would cancel the pointer at once and the handle would not reach the axis's end).
  const cdp = await page.context().newCDPSession(page);
  box = await knob.boundingBox();
  const touch = (type, x) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x, y: box.y + box.height / 2 }] });
  await touch('touchStart', box.x + box.width / 2);
  for (const f of [0.8, 0.4, 0]) await touch('touchMove', plot.x + plot.width * f - (f === 0 ? 40 : 0));
  await touch('touchEnd');
  await waitForScenario(page, { prompt_tokens: 1 });

  // The sweep against the arrival rate, at rate 0 (no queue): the handle starts at the axis's
  // left end, 10⁻³·λsat, and its axis ends at 2·λsat, λsat the engine's saturation rate. One
  // ArrowRight: 10⁻³·λsat × 2000^0.01, to four significant digits.
  await page.getByLabel('Prompt tokens (exact)').fill('2048');
  await page.getByLabel('Prompt tokens (exact)').press('Enter');
  await waitForScenario(page, { prompt_tokens: 2048 });
  await page.locator('#chart-sweep').scrollIntoViewIfNeeded();
  await page.locator('#chart-sweep input[value="arrival_rate"]').check();
  const rateHandle = page.getByRole('slider', { name: 'Arrival rate on the sweep' });
  await rateHandle.waitFor();
  assert.equal(await rateHandle.getAttribute('aria-valuenow'), '0');
  const saturation = engineTrace({}).trace.steps[4].facts.saturation_arrival_rate;
  const rate = Number((saturation * 1e-3 * 2000 ** 0.01).toPrecision(4));
  await rateHandle.focus();
  await page.keyboard.press('ArrowRight');
  await waitForScenario(page, { arrival_rate: rate });
  assert.equal(Number(await page.getByLabel('Arrival rate', { exact: true }).inputValue()), rate);
  assert.equal(await figure(page, 'ttft'), inUnit(engineTrace({ arrival_rate: rate }).trace.totals.ttft.total_seconds, 1e-3, 'ms'));
  assert.deepEqual(problems, []);
});

// Issue 13 item 2: a change that keeps the trace's shape is refilled from one traceFigures call
// (explorer/trace-from-figures.js); the JSON text is built only for a new shape or a download.
test(
  'a control change calls the engine once, JSON-free: no computeTrace, one traceFigures',
  async (t) => {
    const { page, problems } = await openPage(t, '/', { setup: (p) => p.addInitScript(countEngineCalls) });
    await waitForScenario(page, { prompt_tokens: DEFAULT.prompt_tokens });
    await page.evaluate(() => {
      for (const times of Object.values(window.__engineCalls)) times.length = 0;
    });
    await setNumber(page, 'Prompt tokens (exact)', 3000);
    await waitForScenario(page, { prompt_tokens: 3000 });
    const calls = await page.evaluate(() =>
      Object.fromEntries(Object.entries(window.__engineCalls).map(([name, times]) => [name, times.length])),
    );
    assert.deepEqual(calls, { computeTrace: 0, traceFigures: 1 });
    // The refilled trace has no JSON text: the download asks the engine for it, and gets this
    // scenario's document byte for byte.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download trace as JSON' }).click(),
    ]);
    assert.equal(await readFile(await download.path(), 'utf8'), engineTrace({ prompt_tokens: 3000 }).json);
    assert.deepEqual(problems, []);
  },
);

test('an oversized model does not fit, a high arrival rate is overloaded, a step highlights its operators', async (t) => {
  const { page, problems } = await openPage(t);

  await page.getByLabel('Model', { exact: true }).selectOption('llama-3.1-405b');
  await waitForScenario(page, { model: 'llama-3.1-405b' });
  const big = engineTrace({ model: 'llama-3.1-405b' }).trace;
  assert.equal(big.totals.memory.fits, false);
  const { memory } = big.totals;
  // 405e9 parameters in bf16 are ≈ 810 GB of weights alone: hundreds of GB over the H100's 80 GB.
  assert.equal(await figure(page, 'memory'), `${inBytes(memory.peak_bytes, GB, GiB)} of 80 GB (74.5 GiB) — does not fit`);
  assert.equal(memory.exceeds_by_bytes, memory.peak_bytes - 80e9);
  assert.equal(
    normalize(await page.locator('#chart-memory .fit-verdict').textContent()),
    `Does not fit: over by ${inUnit(memory.exceeds_by_bytes, 1e9, 'GB')}`,
  );
  assert.equal(normalize(await page.locator('li.trace-step[data-step="4"] .bound-badge').innerText()), 'no kernels · does not fit');
  assert.ok(normalize(await page.locator('.summary').innerText()).includes('does not fit'));

  await page.getByLabel('Model', { exact: true }).selectOption('llama-3.1-8b');
  await setNumber(page, 'Arrival rate', 1000);
  await waitForScenario(page, { model: 'llama-3.1-8b', arrival_rate: 1000 });
  const busy = engineTrace({ arrival_rate: 1000 }).trace;
  assert.equal(busy.totals.ttft.overloaded, true);
  assert.equal(await figure(page, 'ttft'), 'unbounded — overloaded');
  assert.match(normalize(await page.locator('#chart-ttft .chart-caption').innerText()), /^Overloaded/);
  assert.equal(await page.locator('#chart-ttft .unbounded-area').count(), 1);
  // The sweep against arrival rate shades where the queue is overloaded.
  await page.getByLabel('arrival rate (λ)').check();
  await page.locator('#chart-sweep .chart-caption', { hasText: 'arrival rate' }).waitFor();
  assert.equal(await page.locator('#chart-sweep .unbounded-area').count(), 1);
  assert.match(normalize(await page.locator('#chart-sweep .chart-caption').innerText()), /overloaded from/);

  // Selecting step 2 highlights its operators in the roofline and the time bars.
  await page.getByRole('button', { name: 'Highlight in charts (step 2)' }).click();
  const step2 = new Set(busy.steps[1].operators);
  const arithmetic = busy.operators.filter((op) => op.flops > 0 && op.intensity > 0);
  // Each chart redraws its highlight in its own frame: wait for both before counting.
  await page.locator('#chart-roofline path.point.is-hi').first().waitFor();
  await page.locator('#chart-time rect.segment.is-hi').first().waitFor();
  assert.equal(await page.locator('#chart-roofline path.point.is-hi').count(), arithmetic.filter((op) => step2.has(op.name)).length);
  assert.equal(await page.locator('#chart-roofline path.point.is-dim').count(), arithmetic.filter((op) => !step2.has(op.name)).length);
  assert.equal(await page.locator('#chart-time rect.segment.is-hi').count(), step2.size);
  assert.equal(await page.getByRole('button', { name: 'Highlight in charts (step 2)' }).getAttribute('aria-pressed'), 'true');
  assert.ok(await page.getByLabel('step 2', { exact: true }).isChecked());
  await page.getByLabel('no step', { exact: true }).check();
  await page.locator('#chart-roofline path.point.is-hi').first().waitFor({ state: 'detached' });
  assert.equal(await page.locator('#chart-roofline path.is-dim').count(), 0);
  assert.deepEqual(problems, []);
});

test('engine errors appear beside their control, and the rest keeps working', async (t) => {
  const { page, problems } = await openPage(t);

  await page.getByLabel('Accelerator', { exact: true }).selectOption('a100-sxm-80gb');
  await page.getByLabel('Precision', { exact: true }).selectOption('fp8');
  const fp8 = engineError({ hardware: 'a100-sxm-80gb', precision: 'fp8' });
  assert.match(fp8, /^\/precision: /);
  const precisionError = page.locator('[data-field="precision"] .field-error');
  await precisionError.waitFor();
  // The engine's message follows a sentence that names the field as labelled (plain-words/errors.js).
  assert.ok(normalize(await precisionError.innerText()).endsWith(`(${fp8})`));
  assert.equal(await page.getByLabel('Precision', { exact: true }).getAttribute('aria-invalid'), 'true');
  assert.ok(normalize(await page.getByRole('alert').innerText()).includes(fp8));
  assert.equal(await page.locator('.results').getAttribute('aria-hidden'), 'true', 'stale numbers are set aside');
  assert.ok(await page.locator('.results').evaluate((el) => el.inert));

  await page.getByLabel('Precision', { exact: true }).selectOption('bf16');
  await waitForScenario(page, { hardware: 'a100-sxm-80gb', precision: 'bf16' });
  assert.equal(await precisionError.isVisible(), false);
  assert.equal(
    await figure(page, 'ttft'),
    inUnit(engineTrace({ hardware: 'a100-sxm-80gb' }).trace.totals.ttft.total_seconds, 1e-3, 'ms'),
  );

  await setNumber(page, 'Prompt tokens (exact)', 0);
  const promptError = page.locator('[data-field="prompt"] .field-error');
  await promptError.waitFor();
  assert.equal(
    normalize(await promptError.innerText()),
    `Prompt tokens must be a whole number from 1 to 16,777,216. (${engineError({ prompt_tokens: 0 })})`,
  );
  await setNumber(page, 'Prompt tokens (exact)', 2048);
  await promptError.waitFor({ state: 'hidden' });

  // A custom shape: the engine names the field that is wrong.
  await page.getByLabel('Model', { exact: true }).selectOption('custom');
  await page.getByLabel('Key/value heads').waitFor();
  await setNumber(page, 'Key/value heads (h_kv)', 5);
  const shape = { layers: 32, d_model: 4096, query_heads: 32, kv_heads: 5, head_dim: 128, d_ff: 14336, mlp: 'gated', vocab: 128256, experts: 1, active_experts: 1 };
  const kvError = page.locator('[data-field="shape.kv_heads"] .field-error');
  await kvError.waitFor();
  assert.ok(normalize(await kvError.innerText()).startsWith('Key/value heads'));
  assert.ok(normalize(await kvError.innerText()).endsWith(`(${engineError({ hardware: 'a100-sxm-80gb', model: shape })})`));
  await setNumber(page, 'Key/value heads (h_kv)', 4);
  await waitForScenario(page, { model: { ...shape, kv_heads: 4 } });
  assert.equal(
    await figure(page, 'kv-bytes'),
    '134 MB (128 MiB)', // 2·32·2048·4·128·2 = 134,217,728 bytes
  );
  assert.deepEqual(problems, []);
});

test('the scenario lives in the URL: permalink, back and forward, copy link', async (t) => {
  const query = '?model=llama-3.1-70b&hardware=h200&precision=fp8&prompt=4096&batch=2&chunk=1024&attention=materialized&rate=0.5';
  const { page, problems } = await openPage(t, `/${query}`, {
    context: { permissions: ['clipboard-read', 'clipboard-write'] },
  });
  const expected = { model: 'llama-3.1-70b', hardware: 'h200', precision: 'fp8', prompt_tokens: 4096, batch: 2, chunk_tokens: 1024, attention: 'materialized', arrival_rate: 0.5 };
  const controls = {
    Model: 'llama-3.1-70b',
    Accelerator: 'h200',
    Precision: 'fp8',
    'Prompt tokens (exact)': '4096',
    'Requests per batch': '2',
    'Chunk size': '1024',
    Attention: 'materialized',
    'Arrival rate': '0.5',
  };
  const checkControls = async (values) => {
    for (const [label, value] of Object.entries(values)) {
      assert.equal(await page.getByLabel(label, { exact: true }).inputValue(), value, label);
    }
  };
  await checkControls(controls);
  await waitForScenario(page, expected);
  // The 70B (80 layers, 8 KV heads of 128) in fp8 (1 byte) with 2 prompts of 4096 tokens:
  // 2·80·4096·8·128·1·2 = 1,342,177,280 bytes, 1.34 GB (1.25 GiB); 4 prompts twice that.
  const kvOfTwo = '1.34 GB (1.25 GiB)';
  assert.equal(await figure(page, 'kv-bytes'), kvOfTwo);

  await setNumber(page, 'Requests per batch', 4);
  await page.waitForURL(/batch=4/);
  assert.equal(await figure(page, 'kv-bytes'), '2.68 GB (2.5 GiB)');

  await page.goBack();
  await page.waitForURL(/batch=2/);
  await waitForScenario(page, { batch: 2 });
  await checkControls(controls);
  assert.equal(await figure(page, 'kv-bytes'), kvOfTwo);

  await page.goForward();
  await page.waitForURL(/batch=4/);
  await waitForScenario(page, { batch: 4 });
  assert.equal(await page.getByLabel('Requests per batch', { exact: true }).inputValue(), '4');

  await page.getByRole('button', { name: 'Copy link' }).click();
  await page.locator('.action-status', { hasText: 'copied' }).waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), page.url());
  assert.deepEqual(problems, []);
});

test('a permalink value the engine rejects is reported and replaced by the default; scheme and motion settings', async (t) => {
  const { page, problems } = await openPage(t, '/?prompt=0&model=nope&rate=abc&batch=3');
  await waitForScenario(page, { ...DEFAULT, batch: 3 });
  const note = (field) => page.locator(`[data-field="${field}"] .field-error--note`).innerText().then(normalize);
  assert.ok((await note('prompt')).includes(engineError({ prompt_tokens: 0 })));
  assert.ok((await note('model')).includes(engineError({ model: 'nope' })));
  assert.ok((await note('rate')).includes(engineError({ arrival_rate: 'abc' })));
  assert.equal(await page.getByLabel('Prompt tokens (exact)').inputValue(), '2048');
  assert.equal(await page.getByLabel('Model', { exact: true }).inputValue(), 'llama-3.1-8b');
  assert.equal(await page.getByLabel('Requests per batch', { exact: true }).inputValue(), '3');
  assert.equal(await figure(page, 'kv-bytes'), '805 MB (768 MiB)'); // 3 · 268,435,456 = 805,306,368 bytes

  // The colour scheme and reduced motion follow the reader's settings.
  const inShadow = (selector, property) =>
    page.evaluate(
      ([sel, prop]) =>
        getComputedStyle(document.querySelector('prefill-trace-lesson').shadowRoot.querySelector(sel)).getPropertyValue(prop),
      [selector, property],
    );
  assert.equal(await inShadow('.ptl', 'background-color'), 'rgb(252, 252, 250)');
  assert.equal(await inShadow('#chart-roofline path.point', 'transition-duration'), '0.15s');
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  assert.equal(await inShadow('.ptl', 'background-color'), 'rgb(13, 21, 28)'); // #0d151c, the Atlas's dark background
  assert.equal(await inShadow('#chart-roofline path.point', 'transition-duration'), '0s');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('#explorer').scrollIntoViewIfNeeded();
  await page.locator('#explorer').screenshot({ path: path.join(artifacts, 'explorer-1440-dark.png') });
  // Every bound badge lies inside its cell at 1440 px (step 2's were clipped: a 118 px badge in
  // a 105 px card column).
  const clipped = await page.locator('prefill-trace-lesson').evaluate((host) =>
    [...host.shadowRoot.querySelectorAll('td .bound-badge, .step-bound .bound-badge')]
      .filter((badge) => {
        const [inner, outer] = [badge.getBoundingClientRect(), badge.parentElement.getBoundingClientRect()];
        return inner.width > 0 && (inner.right > outer.right + 0.5 || inner.left < outer.left - 0.5);
      })
      .map((badge) => badge.textContent),
  );
  assert.deepEqual(clipped, []);
  assert.deepEqual(problems, []);
});

test('generated checks: the engine checks answers; progress is kept, and dropped when a question changes', async (t) => {
  const { page, context, problems } = await openPage(t);
  const json = scenario();
  const generated = JSON.parse(engine.generateChecks(json).json).checks;
  assert.ok(generated.length >= 3);
  const forms = page.locator('form.quiz--generated');
  assert.equal(await forms.count(), generated.length);
  assert.deepEqual((await forms.locator('legend h4').allInnerTexts()).map(normalize), generated.map((c) => c.question));

  const kvForm = page.locator('form[data-check-id="kv-bytes"]');
  const kvCheck = generated.find((c) => c.id === 'kv-bytes');
  const kvExpected = engine.checkGenerated(json, 'kv-bytes', 1);
  assert.equal(kvCheck.relative_tolerance, 0.01); // the KV check's tolerance (src/checks.cpp)
  assert.ok(normalize(await kvForm.locator('.hint').innerText()).includes('Answers within ±1% count.'));
  await kvForm.getByLabel('Your answer (bytes)').fill('1');
  await kvForm.getByRole('button', { name: 'Check answer' }).click();
  const kvFeedback = kvForm.locator('.feedback');
  assert.match(normalize(await kvFeedback.innerText()), /^Not quite/);
  assert.ok(normalize(await kvFeedback.innerText()).includes(kvExpected.explanation));
  await kvForm.getByLabel('Your answer (bytes)').fill(String(kvExpected.expected));
  await kvForm.getByRole('button', { name: 'Check answer' }).click();
  await kvFeedback.getByText(/^Correct$/).waitFor();

  const boundForm = page.locator('form[data-check-id="step2-bound-at-t1"]');
  const boundExpected = engine.checkGenerated(json, 'step2-bound-at-t1', 0).expected;
  await boundForm.locator('input[type="radio"]').nth(boundExpected).check();
  await boundForm.getByRole('button', { name: 'Check answer' }).click();
  await boundForm.locator('.feedback').getByText(/^Correct$/).waitFor();

  // The published check, answered correctly too.
  await page.locator('input[name="check-0-choice"]').nth(lesson.check.answer).check();
  await page.locator('form.quiz', { has: page.locator('#check-0-question') }).getByRole('button', { name: 'Check answer' }).click();
  const total = generated.length + 1;
  await page.locator('.progress', { hasText: `Answered correctly: 3 of ${total}` }).waitFor();

  // Reload: the answers come back from localStorage, checked again by the engine.
  await page.reload();
  await waitReady(page);
  await page.locator('.progress', { hasText: `Answered correctly: 3 of ${total}` }).waitFor();
  await kvForm.locator('.feedback').getByText(/^Correct$/).waitFor();
  assert.equal(await kvForm.getByLabel('Your answer (bytes)').inputValue(), String(kvExpected.expected));
  await page.locator('#check-0-feedback').getByText(/^Correct$/).waitFor();

  // A different prompt asks a different KV question: its answer is not the saved one. The
  // T = 1 bound question reads the same (same options, same expected answer), so it stays.
  await setNumber(page, 'Prompt tokens (exact)', 4096);
  await waitForScenario(page, { prompt_tokens: 4096 });
  await page.locator('.progress', { hasText: `Answered correctly: 2 of ${total}` }).waitFor();
  await boundForm.locator('.feedback').getByText(/^Correct$/).waitFor();
  assert.equal(normalize(await kvForm.locator('.feedback').innerText()), '');
  await setNumber(page, 'Prompt tokens (exact)', 2048);
  await kvForm.locator('.feedback').getByText(/^Correct$/).waitFor();

  // A published question whose options or answer changed discards the saved answer.
  const changed = structuredClone(lesson);
  const { options, answer } = changed.check;
  changed.check.options = [options[1], options[0], options[2]];
  changed.check.answer = answer === 0 ? 1 : answer === 1 ? 0 : answer;
  const page2 = await context.newPage();
  await page2.route(`${env.origin}/fixtures/changed-check.json`, (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(changed) }),
  );
  await page2.goto(`${env.origin}/?lesson=fixtures/changed-check.json`);
  await waitReady(page2);
  await page2.locator('.progress', { hasText: `Answered correctly: 2 of ${total}` }).waitFor();
  assert.equal(normalize(await page2.locator('#check-0-feedback').innerText()), '');
  await page2.close();
  assert.deepEqual(problems, []);
});

test('a generated check works with the keyboard alone', async (t) => {
  const { page, problems } = await openPage(t);
  const json = scenario();
  const index = JSON.parse(engine.generateChecks(json).json).checks.findIndex((c) => c.id === 'kv-bytes');
  const expected = engine.checkGenerated(json, 'kv-bytes', 0).expected;
  let reached = false;
  for (let i = 0; i < 120 && !reached; i += 1) {
    await page.keyboard.press('Tab');
    reached = (await focused(page)).id === `gen-${index}-answer`;
  }
  assert.ok(reached, 'Tab reaches the answer field');
  await page.keyboard.type(String(expected));
  await page.keyboard.press('Enter');
  await page.locator(`#gen-${index}-feedback`).getByText(/^Correct$/).waitFor({ timeout: 2000 });
  assert.deepEqual(problems, []);
});

test('the lesson embeds in another page with two tags; styles do not leak either way', async (t) => {
  // 360 px: the narrowest layout, where a leak or an overflow would show first.
  for (const width of [360]) {
    const { page, problems } = await openPage(t, '/embed-example.html', { viewport: { width, height: 900 } });
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: path.join(artifacts, `embed-${width}.png`) });
    assert.equal(normalize(await page.locator('prefill-trace-lesson h1').innerText()), lesson.name);
    assert.equal(await figure(page, 'kv-bytes'), '268 MB (256 MiB)'); // 2·32·2048·8·128·2 bytes

    const style = (selector, property, inShadow) =>
      page.evaluate(
        ([sel, prop, shadow]) => {
          const root = shadow ? document.querySelector('prefill-trace-lesson').shadowRoot : document;
          return getComputedStyle(root.querySelector(sel)).getPropertyValue(prop);
        },
        [selector, property, inShadow],
      );
    // The host keeps its own look…
    assert.equal(await style('#host-after', 'color', false), 'rgb(255, 0, 0)');
    assert.match(await style('#host-title', 'font-family', false), /Courier/);
    assert.equal(await style('#host-after', 'margin-top', false), '18px'); // 1em of 1.8rem at 10px
    // …and none of it reaches the lesson.
    assert.notEqual(await style('.lead', 'color', true), 'rgb(255, 0, 0)');
    assert.doesNotMatch(await style('h1', 'font-family', true), /Courier|Georgia/);
    assert.equal(await style('#mechanism', 'border-top-style', true), 'none');
    assert.equal(await style('.ptl', 'text-align', true), 'start');
    assert.ok(parseFloat(await style('.ptl', 'font-size', true)) >= 16, 'host root font size does not shrink the lesson');
    assert.equal(await style('form.quiz .button', 'background-color', true), 'rgb(27, 90, 166)');
    // KaTeX's fonts are declared at document level and load.
    assert.ok(await page.evaluate(() => [...document.fonts].some((f) => f.family === 'KaTeX_Main' && f.status === 'loaded')));

    // An embedded explorer does not take over the host's URL. (At 360 px the controls are
    // folded behind the scenario bar: Edit opens them.)
    await page.locator('.scenario-bar').click();
    await setNumber(page, 'Prompt tokens (exact)', 4096);
    await waitForScenario(page, { prompt_tokens: 4096 });
    assert.equal(new URL(page.url()).search, '');

    const scrollWidth = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(scrollWidth <= width, `scrollWidth ${scrollWidth} > ${width}`);
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(artifacts, 'embed-1440.png') });
    assert.deepEqual(problems, []);
  }
});
