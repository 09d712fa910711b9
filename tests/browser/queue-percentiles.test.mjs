// Issue 19 item 1 (page part): the queue's percentiles, which the engine now reports
// (totals.ttft and step 5's queue_p50/p90/p99_seconds), are shown beside the mean: in step 5's
// facts and in the glance's TTFT breakdown. The page computes none of them. One page load.
//
// Checked against Erlang's formula, not against the engine's code: one request per batch, Poisson
// arrivals at ρ = 0.9 of the saturation rate, a deterministic service time D (the trace's
// step-5 service_seconds) is M/D/1, whose waiting time W (in units of D) has
//   P(W ≤ x) = (1 − ρ) Σ_{k=0}^{⌊x⌋} (ρ(k − x))^k / k! · e^{−ρ(k − x)}
// (Erlang 1909; Crommelin 1932). The median and the 90th percentile are found by bisection on
// it (its alternating terms stay below 1e6 up to x ≈ 10, so double precision keeps ~10 digits;
// the 99th percentile, x ≈ 20, would not, and is checked only to lie above the 90th). With
// batch 1 there is no batch formation. The page prints 3 significant digits: within 0.5 %.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { openPage, useBrowser, waitForScenario } from './helpers.mjs';

const env = useBrowser();
const engine = await loadModule();

function md1Cdf(x, rho) {
  let sum = 0;
  let factorial = 1;
  for (let k = 0; k <= Math.floor(x); k++) {
    if (k > 0) factorial *= k;
    const a = rho * (k - x);
    sum += (a ** k / factorial) * Math.exp(-a);
  }
  return (1 - rho) * sum;
}

function md1Quantile(q, rho) {
  let lo = 0;
  let hi = 1;
  while (md1Cdf(hi, rho) < q) hi *= 2;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (md1Cdf(mid, rho) < q) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const UNIT = { s: 1, ms: 1e-3, µs: 1e-6 };
const seconds = (text) => {
  const m = /([\d.]+) (s|ms|µs)/.exec(text);
  assert.ok(m, `a time in ${JSON.stringify(text)}`);
  return Number(m[1]) * UNIT[m[2]];
};

test('queue percentiles: step 5 and the TTFT breakdown show the median, p90 and p99 beside the mean', async (t) => {
  const scenario = { model: 'llama-3.1-8b', hardware: 'h100-sxm', precision: 'bf16', prompt_tokens: 2048, batch: 1, arrival_rate: 0 };
  const service = JSON.parse(engine.computeTrace(JSON.stringify(scenario)).json).steps[4].facts.service_seconds;
  const rho = 0.9;
  const rate = Number((rho / service).toPrecision(6));
  const load = rate * service; // ρ as the page's rate gives it
  const { page, problems } = await openPage(env, t, `/?rate=${rate}`, { viewport: { width: 1280, height: 900 } });
  await waitForScenario(page, { arrival_rate: rate });
  const root = page.locator('prefill-trace-lesson');
  const fact = async (key) => seconds(await root.locator(`[data-fact="${key}"] dd`).first().innerText());
  const p50 = await fact('queue_p50_seconds');
  const p90 = await fact('queue_p90_seconds');
  const p99 = await fact('queue_p99_seconds');
  const mean = await fact('queue_seconds');
  const expected50 = md1Quantile(0.5, load) * service;
  const expected90 = md1Quantile(0.9, load) * service;
  assert.ok(Math.abs(p50 - expected50) <= 0.005 * expected50, `median wait ${p50} s, Erlang ${expected50} s`);
  assert.ok(Math.abs(p90 - expected90) <= 0.005 * expected90, `p90 wait ${p90} s, Erlang ${expected90} s`);
  assert.ok(p99 > p90, 'p99 above p90');
  // Pollaczek–Khinchine mean for M/D/1: ρD / (2(1 − ρ)).
  const expectedMean = (load * service) / (2 * (1 - load));
  assert.ok(Math.abs(mean - expectedMean) <= 0.005 * expectedMean, `mean wait ${mean} s, P–K ${expectedMean} s`);
  // The glance's breakdown states the same three beside the mean.
  const note = await root.locator('[data-figure="ttft"] .figure-note').innerText();
  const m = /queueing (.+?) on average \(median (.+?), p90 (.+?), p99 (.+?)\)/.exec(note);
  assert.ok(m, `the TTFT breakdown names the percentiles: ${note}`);
  assert.deepEqual(m.slice(1).map(seconds), [mean, p50, p90, p99]);
  assert.deepEqual(problems, []);
});
