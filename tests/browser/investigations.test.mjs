// Issue 20 items 1–2: the guided investigations and pin and compare, walked as a reader would,
// in two page loads.
//
// Every number a sentence shows is checked against a figure this file derives by hand from the
// model's formulas (docs/model.md) and published figures — never from the page's formatter or
// the engine:
//   Llama 3.1 8B (config.json of meta-llama/Llama-3.1-8B): d = 4096, 32 layers, 32 query heads,
//     8 key/value heads, head width 128, d_ff = 14336 (gated), vocabulary 128,256,
//     8,030,261,248 parameters.
//   NVIDIA H100 SXM datasheet: 989 TFLOP/s dense bf16, 1,979 TFLOP/s dense fp8, 3.35 TB/s HBM3.
//   bf16: 2 bytes per weight, activation, K/V element and score.
// The sentence's figures are <data value="…"> elements: the test reads the exact value and
// checks that the shown text is in the sentence.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPage, useBrowser, waitForScenario } from './helpers.mjs';

const env = useBrowser();

const D = 4096;
const LAYERS = 32;
const HQ = 32;
const HKV = 8;
const DH = 128;
const D_FF = 14336;
const VOCAB = 128256;
const PARAMETERS = 8030261248;
const PEAK_BF16 = 989e12;
const PEAK_FP8 = 1979e12;
const BANDWIDTH = 3.35e12;
const BYTES = 2;
const RIDGE = PEAK_BF16 / BANDWIDTH; // 295.22 FLOP/byte
const QKV_OUT = (HQ + 2 * HKV) * DH; // 6144

/**
 * A GEMM of N rows, d_in → d_out, with ideal reuse (docs/model.md step 2): F = 2·N·d_in·d_out over
 * weights d_in·d_out·w read once plus inputs N·d_in·a and outputs N·d_out·a.
 */
const gemmIntensity = (rows, dIn, dOut) => (2 * rows * dIn * dOut) / (dIn * dOut * BYTES + rows * (dIn + dOut) * BYTES);
/** The rows at which that intensity reaches the ridge R: N = R·d_in·d_out·w / (2·d_in·d_out − R·(d_in + d_out)·a). */
const rowsToRidge = (dIn, dOut) => Math.ceil((RIDGE * dIn * dOut * BYTES) / (2 * dIn * dOut - RIDGE * (dIn + dOut) * BYTES));

/**
 * Weight bytes each chunk's pass reads again: every layer's four projections and two norm
 * vectors (the final norm and the LM head run once, for the last position).
 */
const PASS_WEIGHT_BYTES = LAYERS * ((D * QKV_OUT + D * D + D * 2 * D_FF + D_FF * D) * BYTES + 2 * D * BYTES);

const close = (actual, expected, tolerance, what) =>
  assert.ok(Math.abs(actual - expected) <= Math.abs(expected) * tolerance, `${what}: ${actual} is not within ${tolerance * 100}% of ${expected}`);

/**
 * Each investigation: the option the hand derivation says the engine will bear out, the
 * scenario B it shows, and the checks of its sentence's figures.
 */
const WALK = [
  {
    id: 'reuse-grows',
    right: 1,
    shows: { prompt_tokens: 4096 },
    pinned: 'prompt%3D16',
    check(f) {
      close(f['intensity-a'], gemmIntensity(16, D, QKV_OUT), 1e-9, 'Q/K/V intensity at 16 tokens'); // 15.90
      assert.equal(f['intensity-b'], 1536); // 2·4096·4096·6144 / 134,217,728 bytes, exactly
      close(f.ratio, 1536 / gemmIntensity(16, D, QKV_OUT), 1e-9, 'ratio'); // 96.6
      close(f.ridge, RIDGE, 1e-9, 'ridge');
    },
  },
  {
    id: 'memory-bound',
    right: 1,
    shows: { prompt_tokens: 32 },
    check(f) {
      close(f.intensity, gemmIntensity(32, D, QKV_OUT), 1e-9, 'Q/K/V intensity at 32 tokens'); // 31.59 < 295
      close(f.ridge, RIDGE, 1e-9, 'ridge');
      assert.equal(f['rows-to-ridge'], rowsToRidge(D, QKV_OUT)); // 336
    },
  },
  {
    id: 'fused-attention',
    right: 1,
    shows: { prompt_tokens: 8192, attention: 'materialized' },
    check(f) {
      const T = 8192;
      // One layer's score matrix: h_q·T²·s.
      assert.equal(f['score-matrix'], HQ * T * T * BYTES); // 4,294,967,296
      // Step 3 per layer. K/V write: 2·T·h_kv·d_h elements, read as activations and written as
      // cache. Fused: Q read and O written (2·h_q·T·d_h·a) and every key and value once
      // (2·T·h_kv·d_h·c). Materialized: QKᵀ and score·V each read Q (or write O) and the keys
      // (values) and write (read) the score matrix; the softmax reads and writes it.
      const kvWrite = 2 * (2 * T * HKV * DH * BYTES);
      const qo = HQ * T * DH * BYTES;
      const fused = kvWrite + 2 * qo + 2 * T * HKV * DH * BYTES;
      const scores = HQ * T * T * BYTES;
      const keys = HKV * DH * BYTES * T;
      const materialized = kvWrite + 2 * (qo + keys + scores) + 2 * scores;
      assert.equal(f['bytes-fused'], LAYERS * fused); // 7,516,192,768
      assert.equal(f['bytes-materialized'], LAYERS * materialized); // 557,272,006,656
      assert.ok(f['seconds-materialized'] > f['seconds-fused']);
    },
  },
  {
    id: 'queueing',
    right: 2,
    shows: {},
    check(f) {
      // The scenario is set at 90% of the saturation rate (rounded to four digits).
      close(f.utilization, 0.9, 1e-3, 'utilization');
      // M/D/1 (Pollaczek–Khinchine): W = ρ·D / (2·(1 − ρ)), D the service time; TTFT = W + D.
      const rho = f.utilization;
      close(f.queue, (rho * f.service) / (2 * (1 - rho)), 1e-9, 'mean queue wait'); // 4.5 D
      close(f.ttft, f.queue + f.service, 1e-9, 'TTFT');
      close(f['queue-share'], 4.5 / 5.5, 2e-3, 'queue share at ρ = 0.9'); // 81.8%
    },
  },
  {
    id: 'batching',
    right: 1,
    shows: { prompt_tokens: 256, batch: 8, arrival_rate: 4 },
    check(f) {
      close(f['intensity-a'], gemmIntensity(256, D, QKV_OUT), 1e-9, 'intensity, one request'); // 231.9
      close(f['intensity-b'], gemmIntensity(8 * 256, D, QKV_OUT), 1e-9, 'intensity, 8 requests'); // 1,117
      // Fill-then-run batch formation: (B − 1) / (2λ) = 7 / 8 s.
      assert.equal(f.formation, 0.875);
      assert.ok(f['ttft-b'] > f['ttft-a']);
    },
  },
  {
    id: 'chunking',
    right: 1,
    shows: { prompt_tokens: 16384, chunk_tokens: 2048 },
    check(f) {
      assert.equal(f.chunks, 16384 / 2048);
      // Every chunk after the first reads the weights again: 7 × one pass's weight bytes.
      assert.equal(f['extra-weight-bytes'], 7 * PASS_WEIGHT_BYTES); // 7 × 13,959,168,000
      close(f['seconds-per-pass'], f['seconds-b'] / 8, 1e-12, 'seconds per pass');
      // The longest pass: the serving simulation of the prompt alone in steps of 2,048 tokens,
      //   build/native/prefill-trace serve --scenario tests/browser/fixtures/serving-investigations/chunking-longest-2048.json --json
      // longest_iteration_seconds. By hand it is the last chunk (rows 14,336 … 16,383), at least
      // its arithmetic at 989 TFLOP/s: the projections and MLP, 2 · 2,048 · PASS_WEIGHT_BYTES / 2
      // FLOP, plus attention's two products over the keys each row sees, 4 · d_h · h_q · L ·
      // Σ keys with Σ keys = 2,048 · 14,336 + 2,048 · 2,049 / 2 = 31,458,304: 45.6 ms. It exceeds
      // the average pass and stays below the unchunked prompt's one pass.
      assert.equal(f['longest-pass'], 0.049283606520118685);
      const lastChunkFlops = 2 * 2048 * (PASS_WEIGHT_BYTES / BYTES) + 4 * DH * HQ * LAYERS * (2048 * 14336 + (2048 * 2049) / 2);
      assert.ok(f['longest-pass'] >= lastChunkFlops / PEAK_BF16, `longest pass ${f['longest-pass']} s`);
      assert.ok(f['longest-pass'] > f['seconds-per-pass'] && f['longest-pass'] < f['seconds-a']);
    },
  },
  {
    id: 'prefill-vs-decode',
    right: 0,
    shows: { prompt_tokens: 2048, batch: 1 },
    check(f) {
      close(f['prefill-per-token'], f['prefill-seconds'] / 2048, 1e-12, 'prefill per token');
      // One decode step at B = 1 is memory-bound: it reads every weight but the embedding
      // table (one row of it) and the whole K/V cache, 2·L·T·h_kv·d_h·c: ≈ 15.28 GB at 3.35 TB/s.
      const decodeBytes = (PARAMETERS - VOCAB * D) * BYTES + 2 * LAYERS * 2048 * HKV * DH * BYTES;
      close(f['decode-seconds'], decodeBytes / BANDWIDTH, 5e-3, 'decode step time');
      close(f.ratio, f['decode-seconds'] / f['prefill-per-token'], 1e-12, 'ratio');
      // Decode's projections at one row: intensity 2·1·d_in·d_out / (d_in·d_out·w + …) ≈ 1.
      assert.ok(f['decode-intensity'] < 2);
    },
  },
  // The serving simulation's three (issue 30 item 1). Their exact figures are the native CLI's on
  // the page's scenario, which native and wasm write bit for bit alike (docs/architecture.md):
  //   build/native/prefill-trace serve --scenario tests/browser/fixtures/serving-investigations/<file> --json
  // each file the page's scenario and `serving` object. The hand derivations beside them bound
  // what the CLI says from the model's formulas.
  {
    id: 'decode-stall',
    right: 1,
    shows: { prompt_tokens: 16384 },
    check(f) {
      // stall-16384-prefill-first.json, stall-16384-chunked.json: tbt_max_seconds.p50/.p99, tpot_seconds.p50.
      assert.equal(f['gap-p50-first'], 0.3338917782000863);
      assert.equal(f['gap-p99-first'], 0.3338917782000863);
      assert.equal(f['gap-p50-chunked'], 0.012675221664377179);
      assert.equal(f['gap-p99-chunked'], 0.012675221664377179);
      assert.equal(f['tpot-p50-first'], 0.007449788119494883);
      assert.equal(f['tpot-p50-chunked'], 0.0062212351598624534);
      // By hand: every chat request decodes when the prompt arrives, so under prefill first each
      // waits at least the prompt's arithmetic, 2 · 16,384 · (8,030,261,248 − 128,256 · 4,096)
      // FLOP at 989 TFLOP/s = 0.249 s; chunked, one step of at most 512 tokens, well under a
      // tenth of that (its arithmetic 2 · 512 · 7.5e9 / 989e12 = 7.8 ms, its weight reads
      // 15 GB / 3.35 TB/s = 4.5 ms).
      const prefill = (2 * 16384 * (PARAMETERS - VOCAB * D)) / PEAK_BF16;
      assert.ok(f['gap-p50-first'] >= prefill && f['gap-p50-chunked'] < prefill / 10);
      close(f['gap-ratio'], f['gap-p50-first'] / f['gap-p50-chunked'], 1e-12, 'ratio of the waits');
      // TPOT spreads the 0.33 s stall over 127 gaps: 0.33 / 127 = 2.6 ms at most on the mean.
      assert.ok(f['tpot-p50-first'] - f['tpot-p50-chunked'] < f['gap-p50-first'] / 127);
    },
  },
  {
    id: 'chunk-footprint',
    right: 1,
    shows: { prompt_tokens: 16384 },
    check(f) {
      // The unchunked longest step is the long prompt alone (prefill first runs prompts only, and
      // the chat prompts ran long before): the trace's 16,384-token prefill, `prefill-trace trace
      // --prompt 16384 --json` totals.seconds = 0.3292046752699371, at least the arithmetic
      // bound above; the worst wait adds the decode step under way when it arrived.
      assert.equal(f['longest-first'], 0.3292046752699371);
      assert.ok(f['longest-first'] >= (2 * 16384 * (PARAMETERS - VOCAB * D)) / PEAK_BF16);
      assert.equal(f['worst-first'], 0.3338917782000863); // stall-16384-prefill-first.json
      assert.ok(f['worst-first'] > f['longest-first']);
      // footprint-chunked-2048.json: longest_iteration_seconds and tbt_max_seconds.p99; a chat
      // request decodes in every step, so its worst wait is one step: the longest (to rounding).
      assert.equal(f['longest-chunked'], 0.04921834598423181);
      close(f['worst-chunked'], f['longest-chunked'], 1e-12, 'the wait is the longest step');
      assert.equal(f.budget, 2048);
      assert.equal(f.chunks, 16384 / 2048);
      // The average chunk is the trace's time over 8 chunks; the longest step exceeds it.
      assert.ok(f['longest-chunked'] > f['average-chunk']);
      // 7 chunks after the first read the weights again; chunk k re-reads the K/V of the k·2,048
      // tokens before it, 2·L·h_kv·d_h·2 bytes a token: Σ k·2,048 for k = 1..7 = 28 · 2,048 tokens.
      assert.equal(f['extra-weight-bytes'], 7 * PASS_WEIGHT_BYTES);
      assert.equal(f['kv-reread-bytes'], 28 * 2048 * 2 * LAYERS * HKV * DH * BYTES); // 7,516,192,768
    },
  },
  {
    id: 'distserve',
    right: 1,
    shows: { prompt_tokens: 8192 },
    // Each objective's winner named with its reason and its paper, the search's best placement
    // named; the figures' source named: the placement search.
    words:
      /^Goodput per device in requests\/s \(first token within 2 s\), 8,192-token prompts, 256-token answers\. Tight \(10 ms a token\): prefill first .+ and chunked .+ on 1 device each, disaggregated .+ on 2 — .*DistServe’s case\. Loose \(50 ms a token\): .*Sarathi-Serve’s case\. Best of all 2-device placements: chunked prefill, 1 instance of 2 devices, .+ \(tight\) and .+ \(loose\)\. Source: prefill-trace plan, the engine’s placement search\.$/,
    check(f) {
      // distserve-plan-<tight|loose>.json, the candidates of
      //   build/native/prefill-trace plan --scenario <file> --devices 2 --json
      // goodput_per_device of the one-device-per-instance placements (disaggregated: its goodput
      // of 6.180625 and 7.459375 requests/s over 2 devices) and of `best`, chunked prefill on
      // one instance of 2 devices (tensor parallelism 2) under both objectives.
      assert.equal(f['tight-prefill-first'], 1.22546875);
      assert.equal(f['tight-chunked'], 2.4509375);
      assert.equal(f['tight-disaggregated'], 6.180625000000001 / 2);
      assert.equal(f['tight-best'], 4.901875);
      assert.equal(f['loose-prefill-first'], 4.2625);
      assert.equal(f['loose-chunked'], 4.688750000000001);
      assert.equal(f['loose-disaggregated'], 7.459375 / 2);
      assert.equal(f['loose-best'], 4.901875);
      // k colocated instances serve k times one's goodput (plan.hpp): per device, the best is at
      // least each compared placement.
      for (const slo of ['tight', 'loose']) {
        for (const id of ['prefill-first', 'chunked', 'disaggregated']) assert.ok(f[`${slo}-best`] >= f[`${slo}-${id}`]);
      }
      assert.equal(f['tight-tpot-slo'], 0.01);
      assert.equal(f['loose-tpot-slo'], 0.05);
    },
  },
];

/** The element's shadow root, as a locator root. */
const lesson = (page) => page.locator('prefill-trace-lesson');

/**
 * The marks of a reading's inline figure (issue 30 item 4), as {name, value}: each draws one of
 * the sentence's figures by name (the second reading's picture may also draw the first's, named
 * first-…).
 */
async function readMarks(item, reading) {
  const box = item.locator(`.investigation-evidence${reading === 'next' ? '[data-reading="next"]' : ':not([data-reading])'}`);
  await box.locator('.inline-figure svg[role="img"]').first().waitFor();
  return box.locator('.inline-figure [data-name]').evaluateAll((nodes) =>
    nodes.map((n) => ({ name: n.dataset.name, value: n.dataset.value, x: n.dataset.xName ? [n.dataset.xName, n.dataset.xValue] : null })),
  );
}

/** The sentence's <data> values by name, as text (the exact `value` attribute). */
async function dataValues(item, reading) {
  return item.locator(`.investigation-reading[data-reading="${reading}"] data`).evaluateAll((nodes) =>
    Object.fromEntries(nodes.map((n) => [n.dataset.name, n.getAttribute('value')])),
  );
}

/** Each mark of a reading's figure draws the value its sentence (or, first-…, the first sentence) states. */
async function checkMarks(item, id, reading) {
  const marks = await readMarks(item, reading);
  assert.ok(marks.length >= 1, `${id}: the ${reading} reading has an inline figure`);
  const here = await dataValues(item, reading);
  const first = await dataValues(item, 'first');
  const valueOf = (name) => (name.startsWith('first-') ? first[name.slice(6)] : here[name]);
  for (const mark of marks) {
    assert.equal(mark.value, valueOf(mark.name), `${id} (${reading}): the mark ${mark.name} draws the sentence's value`);
    if (mark.x) assert.equal(mark.x[1], valueOf(mark.x[0]), `${id} (${reading}): the mark's x, ${mark.x[0]}, is the sentence's`);
  }
  // Its text equivalent: the figure's label names every value the marks draw, as the sentence writes them.
  const labels = (await item.locator(`.investigation-evidence${reading === 'next' ? '[data-reading="next"]' : ':not([data-reading])'} .inline-figure svg[role="img"]`).evaluateAll((n) => n.map((s) => s.getAttribute('aria-label')))).join(' ');
  const texts = await item.locator('.investigation-reading data').evaluateAll((nodes) => Object.fromEntries(nodes.map((n) => [n.closest('[data-reading]').dataset.reading + n.dataset.name, n.textContent])));
  for (const mark of marks) {
    const text = mark.name.startsWith('first-') ? texts[`first${mark.name.slice(6)}`] : texts[`${reading}${mark.name}`];
    assert.ok(labels.includes(text), `${id} (${reading}): the figure's text equivalent says ${mark.name} (${text})`);
  }
  return marks;
}

async function readFigures(item) {
  return item.locator('.investigation-reading[data-reading="first"] data').evaluateAll((nodes) =>
    Object.fromEntries(nodes.map((n) => [n.dataset.name, { value: Number(n.value), text: n.textContent }])),
  );
}

test('every guided investigation: predict, show, a sentence of the engine’s numbers, progress by event', async (t) => {
  const { page, problems } = await openPage(env, t, '/', { viewport: { width: 1440, height: 900 } });
  await page.evaluate(() => {
    window.__answers = [];
    document.querySelector('prefill-trace-lesson').addEventListener('prefill-trace-answer', (e) => window.__answers.push(e.detail));
  });
  const root = lesson(page);
  const block = root.locator('details.investigations');
  assert.equal(await block.getAttribute('part'), 'investigations');
  assert.equal(await root.locator('details.investigation').count(), WALK.length, 'one investigation per claim walked here');

  for (const [index, step] of WALK.entries()) {
    const item = root.locator(`[data-investigation="${step.id}"]`);
    await item.locator('summary').click();
    const show = item.locator('button[type="submit"]');
    // No reveal before a prediction.
    await show.click();
    assert.match(await item.locator('.investigation-verdict').innerText(), /Choose a prediction first/);
    assert.equal(await item.locator('.investigation-reading data').count(), 0, `${step.id}: nothing revealed before predicting`);

    // The options cannot be told apart by their length (issue 30 item 8): the longest is at
    // most 1.5 times the shortest.
    const lengths = await item.locator('.option-text').evaluateAll((nodes) => nodes.map((n) => n.textContent.length));
    assert.ok(Math.max(...lengths) <= 1.5 * Math.min(...lengths), `${step.id}: option lengths ${lengths}`);
    // The question's words are defined where they are used.
    assert.ok((await item.locator('.investigation-terms dfn[data-term] button').count()) >= 1, `${step.id}: its words are defined in place`);

    await item.locator(`input[value="${step.right}"]`).check();
    await show.click();
    await item.locator('.investigation-reading[data-reading="first"] data').first().waitFor();
    assert.equal(await item.locator('form').getAttribute('data-verdict'), String(step.right), `${step.id}: the engine bears out option ${step.right}`);
    assert.equal(await item.getAttribute('data-result'), 'matched');
    // The prediction is locked once revealed.
    assert.ok(await item.locator(`input[value="${step.right}"]`).isDisabled());

    const figures = await readFigures(item);
    const sentence = await item.locator('.investigation-reading[data-reading="first"]').innerText();
    for (const [name, { text }] of Object.entries(figures)) assert.ok(sentence.includes(text), `${step.id}: the sentence shows ${name} (${text})`);
    step.check(Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, v.value])));
    if (step.words) assert.match(sentence.replace(/\s+/g, ' '), step.words);

    await waitForScenario(page, step.shows);
    if (step.pinned) assert.ok(page.url().includes(`pin=${''}`) && page.url().includes(step.pinned), `${step.id}: A is pinned in the URL`);

    // Progress: reported by the element's answer event, keyed like a quiz answer.
    await page.waitForFunction((n) => window.__answers.length >= n, index + 1);
    const answer = await page.evaluate((i) => window.__answers[i], index);
    assert.deepEqual([answer.answer, answer.correct], [step.right, true]);
    assert.match(answer.questionKey, /^[0-9a-f]{64}$/);

    // "Change one condition": read again, from the changed scenarios.
    await checkMarks(item, step.id, 'first');
    await item.locator('button.button--quiet').click();
    await item.locator('.investigation-reading[data-reading="next"] data').first().waitFor();
    await checkMarks(item, step.id, 'next');
    await item.locator('summary').click();
  }
  assert.match(await block.locator('.investigations-count').innerText(), new RegExp(`${WALK.length} of ${WALK.length}`));

  // Plain words (item 5), on the queueing investigation's scenario: ρ = 0.9 puts 4.5·D of the
  // 5.5·D of TTFT in the queue (M/D/1), so step 5 says queueing dominates: 81.8% of TTFT.
  const queueing = root.locator('[data-investigation="queueing"]');
  await queueing.locator('summary').click();
  await queueing.locator('button[type="submit"]').click();
  await waitForScenario(page, { prompt_tokens: 2048, batch: 1 });
  const badge = root.locator('li.trace-step[data-step="5"] .bound-badge');
  assert.equal(await badge.getAttribute('data-dominant'), 'queueing');
  assert.match(await badge.innerText(), /^queueing dominates · 81\.8% of TTFT$/);
  // The saturation rate beside the arrival-rate field: λ where ρ = 1, i.e. B / service time.
  const service = Number(await queueing.locator('.investigation-reading[data-reading="first"] data[data-name="service"]').getAttribute('value'));
  const hint = await root.locator('[data-field="rate"] .hint').innerText();
  const saturation = Number(hint.match(/saturates at ([\d,.]+) requests\/s/)[1].replaceAll(',', ''));
  close(saturation, 1 / service, 1e-3, 'saturation rate in the hint');
  // The queueing claim as its curve (issue 30 item 8): the engine's sweep of TTFT against the
  // arrival rate on linear axes from 0 to saturation (λ where ρ = 1: 1/D for one request at a
  // time, D the service time), the reading's point on it; after "Change one condition" both
  // points, on the same (held) axes.
  const evidence = queueing.locator('.investigation-evidence:not([data-reading])');
  const curve = evidence.locator('svg.inline-curve');
  await curve.waitFor();
  const [x0, x1] = (await curve.getAttribute('data-x-domain')).split(',').map(Number);
  assert.equal(x0, 0);
  close(x1, 1 / service, 1e-9, 'the rate axis ends at saturation');
  const segments = (await curve.locator('path.sweep-total').getAttribute('d')).split('L').length;
  assert.ok(segments >= 60, `a curve of the engine's sweep, not two points (${segments} points)`);
  await queueing.locator('button.button--quiet').click();
  const nextCurve = queueing.locator('.investigation-evidence[data-reading="next"] svg.inline-curve');
  await nextCurve.waitFor();
  assert.equal(await nextCurve.getAttribute('data-y-domain'), await curve.getAttribute('data-y-domain'), 'the TTFT axis is held');
  assert.deepEqual((await readMarks(queueing, 'next')).map((m) => m.name), ['first-ttft', 'ttft'], 'both readings are marked');
  // "Open in the explorer": the full sweep, against the arrival rate on linear axes, in view, at the reading's rate.
  const rate = Number(await queueing.locator('.investigation-reading[data-reading="next"] data[data-name="rate"]').getAttribute('value'));
  await queueing.locator('.investigation-evidence[data-reading="next"] .investigation-open').click();
  await waitForScenario(page, { arrival_rate: rate });
  const sweep = root.locator('#chart-sweep');
  assert.ok(await sweep.locator('input[value="arrival_rate"]').isChecked());
  assert.ok(await sweep.locator('input[value="linear"]').isChecked());
  await page.waitForFunction(() => {
    const box = document.querySelector('prefill-trace-lesson').shadowRoot.getElementById('chart-sweep').getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  });
  assert.equal((await sweep.locator('svg.chart-svg').getAttribute('data-x-domain')).split(',')[0], '0', 'linear axes');

  // A term's meaning, one click away.
  const term = root.locator('.glossary-line dfn[data-term="ridge-point"] button');
  assert.equal(await term.getAttribute('aria-expanded'), 'false');
  await term.click();
  assert.equal(await term.getAttribute('aria-expanded'), 'true');
  assert.match(await root.locator(`#${await term.getAttribute('aria-controls')}`).innerText(), /P\/β/);
  // An error in a sentence that names the field as labelled, the engine's message after it.
  const batch = root.getByLabel('Requests per batch', { exact: true });
  await batch.fill('1.5');
  await batch.press('Enter');
  const error = root.locator('[data-field="batch"] .field-error');
  await error.waitFor();
  assert.match(await error.innerText(), /^Requests per batch must be a whole number, without a fraction\. \(\/batch: /);

  // "Forget my answers" with every investigation's form built (each was opened above): every
  // prediction is cleared and the host told. (It used to throw at the first built form, leaving
  // the predictions after it and sending no prefill-trace-progress-reset.)
  await page.evaluate(() => {
    window.__resets = 0;
    document.querySelector('prefill-trace-lesson').addEventListener('prefill-trace-progress-reset', () => (window.__resets += 1));
  });
  await root.getByRole('button', { name: 'Forget my answers' }).click();
  await page.waitForFunction(() => window.__resets === 1);
  assert.equal(await root.locator('details.investigation[data-result]').count(), 0, 'no prediction is shown after forgetting');
  assert.equal(await root.locator('details.investigation form.investigation-form').count(), 0, 'the forms are removed, to be built afresh');
  assert.match(await block.locator('.investigations-count').innerText(), new RegExp(`0 of ${WALK.length}`));
  assert.deepEqual(problems, []);
});

test('pin and compare: fixed axes while comparing, A as a ghost, the comparison a permalink', async (t) => {
  const { page, problems } = await openPage(env, t, '/?prompt=2048', {
    viewport: { width: 1280, height: 900 },
    context: { reducedMotion: 'reduce' },
  });
  const root = lesson(page);

  // "Highlight in charts" on a step card brings the first chart showing that step into view
  // (at once: the reader asked for reduced motion).
  await root.locator('li.trace-step[data-step="2"] .step-toggle').click();
  await page.waitForFunction(() => {
    const chart = document.querySelector('prefill-trace-lesson').shadowRoot.getElementById('chart-roofline');
    const box = chart?.getBoundingClientRect();
    return box && box.top >= -1 && box.top < window.innerHeight;
  });

  const compare = root.locator('section.compare');
  await compare.locator('[data-action="pin"]').click();
  assert.equal(await compare.getAttribute('data-pinned'), 'true');
  assert.match(page.url(), /[?&]pin=[^&]*prompt%3D2048/);

  const roofline = root.locator('#chart-roofline svg.chart-svg');
  const ttft = root.locator('#chart-ttft svg.chart-svg');
  await root.locator('#chart-roofline').scrollIntoViewIfNeeded();
  await roofline.locator('.point--ghost').first().waitFor();
  // The roofline's axes are the accelerator's, whatever the scenario: intensity 0.01–100,000
  // FLOP/byte; rate from the decade below the memory slope at 0.01 FLOP/byte (3.35e12 × 0.01 ×
  // 0.5 = 1.7e10 → 1e10) to the decade above 1.5 × the fp8 peak (2.97e15 → 1e16).
  const axes = async () => ({
    x: (await roofline.getAttribute('data-x-domain')).split(',').map(Number),
    y: (await roofline.getAttribute('data-y-domain')).split(',').map(Number),
    ttft: (await ttft.getAttribute('data-x-domain')).split(',').map(Number),
  });
  const before = await axes();
  assert.deepEqual(before.x, [0.01, 1e5]);
  assert.equal(PEAK_FP8 * 1.5 < 1e16 && PEAK_FP8 * 1.5 > 1e15, true);
  assert.deepEqual(before.y, [1e10, 1e16]);

  // B: half the prompt. The axes stay; A's ghost stays.
  const prompt = root.getByLabel('Prompt tokens (exact)');
  await prompt.fill('1024');
  await prompt.press('Enter');
  await waitForScenario(page, { prompt_tokens: 1024 });
  await root.locator('#chart-ttft').scrollIntoViewIfNeeded();
  const afterChange = await axes();
  assert.deepEqual(afterChange, before, 'the axes do not move while comparing');
  assert.ok((await ttft.locator('.ttft-part--ghost').count()) > 0, 'A is drawn in the TTFT chart');

  // The table: A's and B's KV cache, 2·L·T·h_kv·d_h·c: 268,435,456 bytes at 2,048 tokens, half at 1,024.
  const kv = compare.locator('tr[data-figure="kv-bytes"] td');
  assert.equal(Number(await kv.nth(0).getAttribute('data-value')), 2 * LAYERS * 2048 * HKV * DH * BYTES);
  assert.equal(Number(await kv.nth(1).getAttribute('data-value')), 2 * LAYERS * 1024 * HKV * DH * BYTES);
  assert.match(await kv.nth(2).innerText(), /^−134 MB \(−50(\.0)?%\)$/);

  // The permalink: a new page from this URL shows the same A and B.
  await page.waitForFunction(() => new URL(location.href).searchParams.get('prompt') === '1024');
  const link = new URL(page.url());
  const second = await openPage(env, t, link.pathname + link.search, { viewport: { width: 1280, height: 900 } });
  const compare2 = lesson(second.page).locator('section.compare');
  await waitForScenario(second.page, { prompt_tokens: 1024 });
  assert.equal(await compare2.getAttribute('data-pinned'), 'true');
  const kv2 = compare2.locator('tr[data-figure="kv-bytes"] td');
  assert.equal(Number(await kv2.nth(0).getAttribute('data-value')), 2 * LAYERS * 2048 * HKV * DH * BYTES);
  assert.equal(Number(await kv2.nth(1).getAttribute('data-value')), 2 * LAYERS * 1024 * HKV * DH * BYTES);

  // In the Atlas's 295 px inspector the table fits its column and breaks lines only between
  // words (issue 30 item 8: "Executio / n" before): every word of every cell lies on one line.
  const narrow = await openPage(env, t, link.pathname + link.search, { viewport: { width: 295, height: 800 } });
  const narrowTable = lesson(narrow.page).locator('section.compare');
  await waitForScenario(narrow.page, { prompt_tokens: 1024 });
  await narrowTable.locator('table.compare-table').first().waitFor();
  const split = await narrowTable.locator('th, td').evaluateAll((cells) =>
    cells.flatMap((cell) => {
      const words = [];
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const word of node.data.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) words.push(word[0]);
        }
      }
      return words;
    }),
  );
  assert.deepEqual(split, [], 'no word of the compare table is broken across lines at 295 px');
  const fits = await narrowTable.evaluate((section) => [...section.querySelectorAll('table')].every((t) => t.offsetWidth <= section.clientWidth));
  assert.ok(fits, 'the compare tables fit the column at 295 px');
  assert.deepEqual(narrow.problems, []);

  // Swap: B becomes A; clear: no pin, in the URL too.
  await compare2.locator('[data-action="swap"]').click();
  await waitForScenario(second.page, { prompt_tokens: 2048 });
  await second.page.waitForFunction(() => (new URL(location.href).searchParams.get('pin') ?? '').includes('prompt=1024'));
  await compare2.locator('[data-action="clear"]').click();
  assert.equal(await compare2.getAttribute('data-pinned'), 'false');
  assert.equal(new URL(second.page.url()).searchParams.has('pin'), false);
  assert.deepEqual(problems, []);
  assert.deepEqual(second.problems, []);
});
