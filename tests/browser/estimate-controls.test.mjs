// Issue 21 (page part): the estimate's controls. The software stack and the attention kernel are
// menus whose values are the engine's (its presets' estimate profiles), they round-trip through
// the URL (a permalink, then back/forward), and under the estimate the timing's hint states TTFT
// with its typical range, as the engine computes it for that scenario. One page load.
//
// Expected values come from the engine in Node (tests/js/load-module.mjs), not from the page:
// the menus' values are the stacks and kernels its listPresets() prices (plus the documented
// "kernels" and "auto", docs/trace-json.md), and the figures are computeTrace's
// totals.ttft.{total_seconds, total_seconds_low, total_seconds_high}, read back from the hint's
// text at the page's 3 significant digits (so within 0.5 %).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { openPage, useBrowser, waitForScenario } from './helpers.mjs';

const env = useBrowser();
const engine = await loadModule();
const presets = JSON.parse(engine.listPresets().json);

/** TTFT and its range from the engine, for the page's default scenario with these estimate choices. */
function estimate(stack, kernel) {
  const reply = engine.computeTrace(
    JSON.stringify({ model: 'llama-3.1-8b', hardware: 'h100-sxm', precision: 'bf16', prompt_tokens: 2048, batch: 1, arrival_rate: 0, timing: 'estimate', stack, attention_kernel: kernel }),
  );
  assert.ok(reply.ok, reply.error);
  const { total_seconds: mid, total_seconds_low: low, total_seconds_high: high } = JSON.parse(reply.json).totals.ttft;
  return { mid, low, high };
}

const UNIT = { s: 1, ms: 1e-3, µs: 1e-6 };
/** "TTFT ≈ 50.1 ms, typically 35 ms–54.3 ms" → seconds. */
function hintFigures(text) {
  const m = /TTFT ≈ ([\d.]+) (s|ms|µs), typically ([\d.]+) (s|ms|µs)–([\d.]+) (s|ms|µs)/.exec(text);
  assert.ok(m, `the timing hint states TTFT with its range: ${text}`);
  return { mid: m[1] * UNIT[m[2]], low: m[3] * UNIT[m[4]], high: m[5] * UNIT[m[6]] };
}

function assertClose(shown, expected, what) {
  for (const key of ['mid', 'low', 'high']) {
    assert.ok(Math.abs(shown[key] - expected[key]) <= 0.005 * expected[key], `${what} ${key}: shown ${shown[key]}, engine ${expected[key]}`);
  }
}

test('estimate controls: stack and attention kernel from the engine, in the URL, with the TTFT range beside them', async (t) => {
  const { page, problems } = await openPage(env, t, '/?timing=estimate&stack=vllm&kernel=flash-attention-3', { viewport: { width: 1280, height: 900 } });
  const root = page.locator('prefill-trace-lesson');
  const kernel = root.locator('#ctl-kernel');
  const stack = root.locator('#ctl-stack');
  const hint = root.locator('#ctl-timing-hint');

  const kernels = new Set(presets.accelerators.flatMap((a) => Object.keys(a.estimate?.attention_kernel_efficiency ?? {})));
  // Stacks: every one the engine's field table names (a profile states gaps only for the fitted
  // ones; vLLM and SGLang run on the pooled gap and still belong in the menu).
  const stacks = new Set(JSON.parse(engine.scenarioFields()).scenario.find((r) => r.name === 'stack').choices.map((c) => c.value));
  const values = (select) => select.locator('option').evaluateAll((nodes) => nodes.map((n) => n.value));
  assert.deepEqual(new Set(await values(kernel)), new Set(['auto', ...kernels]));
  assert.deepEqual(new Set(await values(stack)), new Set(['kernels', ...stacks]));
  assert.ok(kernels.size >= 2 && stacks.size >= 2, 'the engine prices several kernels and stacks');

  // The permalink's choices are the controls' and the trace's.
  assert.equal(await kernel.inputValue(), 'flash-attention-3');
  assert.equal(await stack.inputValue(), 'vllm');
  await waitForScenario(page, { stack: 'vllm', attention_kernel: 'flash-attention-3' });
  const fa3 = estimate('vllm', 'flash-attention-3');
  assertClose(hintFigures(await hint.innerText()), fa3, 'FlashAttention-3');

  // An edit commits to the URL; the hint follows the engine's figure for the new kernel.
  await kernel.selectOption('flash-attention-2');
  await waitForScenario(page, { attention_kernel: 'flash-attention-2' });
  await page.waitForFunction(() => new URL(location.href).searchParams.get('kernel') === 'flash-attention-2');
  const fa2 = estimate('vllm', 'flash-attention-2');
  assert.notEqual(fa2.mid, fa3.mid, 'the kernel changes the estimate for this accelerator');
  assertClose(hintFigures(await hint.innerText()), fa2, 'FlashAttention-2');

  // Back restores the permalink's kernel and its figure.
  await page.goBack();
  await waitForScenario(page, { attention_kernel: 'flash-attention-3' });
  assert.equal(await kernel.inputValue(), 'flash-attention-3');
  assertClose(hintFigures(await hint.innerText()), fa3, 'FlashAttention-3 after Back');
  assert.deepEqual(problems, []);
});
