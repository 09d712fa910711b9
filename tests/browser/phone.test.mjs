// The page on a phone (360–430 px): the scenario's key values stay in a sticky bar atop the
// results, a tap opens the full controls over them, and the step-2 projections table fits its
// column without sideways scrolling. Screenshots at 375 and 1280 px, light and dark, go to
// build/test-artifacts/ (look at them).

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { DEFAULT_SCENARIO, artifacts, normalize, openPage as open, useBrowser } from './helpers.mjs';

const env = useBrowser();
const engine = await loadModule();
const presets = JSON.parse(engine.listPresets().json);
const modelName = presets.models.find((m) => m.id === DEFAULT_SCENARIO.model).name;
const hardwareName = presets.accelerators.find((a) => a.id === DEFAULT_SCENARIO.hardware).name;

/** Waits until the explorer shows a scenario with the given prompt length. */
const waitPrompt = (page, tokens) =>
  page.waitForFunction(
    (n) => JSON.parse(document.querySelector('prefill-trace-lesson').shadowRoot.getElementById('explorer').dataset.scenario ?? '{}').prompt_tokens === n,
    tokens,
  );

/** Whether `selector` (in the element's shadow root) scrolls sideways. */
const overflows = (page, selector) =>
  page.evaluate((sel) => {
    const el = document.querySelector('prefill-trace-lesson').shadowRoot.querySelector(sel);
    return el.scrollWidth > el.clientWidth;
  }, selector);

for (const colorScheme of ['light', 'dark']) {
  test(`phone (375 px, ${colorScheme}): a sticky scenario bar opens the controls over the results`, async (t) => {
    const { page, problems } = await open(env, t, '/', { viewport: { width: 375, height: 740 }, context: { colorScheme } });
    const bar = page.locator('.scenario-bar');
    // The default scenario, named as the presets name it (2048 tokens written with a separator).
    assert.equal(normalize(await bar.innerText()), `Scenario: ${modelName} · ${hardwareName} bf16 · 2,048 tokens · batch 1 Edit`);
    assert.equal(await bar.getAttribute('aria-expanded'), 'false');
    assert.equal(await overflows(page, '.projections .table-wrap'), false, 'the projections table fits');

    // Scrolled into the results, far below the controls: the bar is at the top of the screen.
    await page.locator('#chart-memory').scrollIntoViewIfNeeded();
    const box = await bar.boundingBox();
    assert.ok(box.y >= 0 && box.y < 2, `bar at the top of the viewport (y = ${box.y})`);
    await page.screenshot({ path: path.join(artifacts, `phone-375-${colorScheme}.png`) });

    // A tap opens the controls in view; an edit there shows at once in the bar.
    await bar.click();
    assert.equal(await bar.getAttribute('aria-expanded'), 'true');
    const field = page.getByLabel('Prompt tokens (exact)', { exact: true });
    const fieldBox = await field.boundingBox();
    assert.ok(fieldBox.y > box.height && fieldBox.y + fieldBox.height < 740, `the field is on screen (y = ${fieldBox.y})`);
    await page.screenshot({ path: path.join(artifacts, `phone-375-${colorScheme}-controls.png`) });
    await field.fill('4096');
    await field.press('Enter');
    await waitPrompt(page, 4096);
    assert.match(normalize(await bar.innerText()), /bf16 · 4,096 tokens · batch 1/);
    // The glance's key figures stay in view atop the sheet, as the figures below show them.
    const keyFigures = page.locator('.sheet-figures');
    assert.ok(await keyFigures.isVisible());
    const ttft = normalize(await page.locator('[data-figure="ttft"] .figure-value').innerText());
    assert.ok(normalize(await keyFigures.innerText()).startsWith(`Time to first token ${ttft} · step 2 `), await keyFigures.innerText());
    await field.press('Escape');
    assert.equal(await bar.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(problems, []);
  });
}

test('phone: the scenario bar names the device count and a calibrated timing (they change what every figure means)', async (t) => {
  // A permalink: Llama-3.1-70B on 8 devices, the estimate timing. The glance writes "8 × <part>";
  // the bar writes the same, and "estimate" beside the workload (the default bound is unmarked).
  const { page, problems } = await open(env, t, '/?model=llama-3.1-70b&tp=8&timing=estimate', { viewport: { width: 375, height: 740 } });
  const bar = page.locator('.scenario-bar');
  const seventy = presets.models.find((m) => m.id === 'llama-3.1-70b').name;
  assert.equal(normalize(await bar.innerText()), `Scenario: ${seventy} · 8 × ${hardwareName} bf16 · 2,048 tokens · batch 1 · estimate Edit`);
  assert.deepEqual(problems, []);
});

test('phone widths 360 and 430 px: the projections table fits; wide screens have no scenario bar', async (t) => {
  for (const width of [360, 430]) {
    const { page } = await open(env, t, '/', { viewport: { width, height: 740 } });
    assert.equal(await overflows(page, '.projections .table-wrap'), false, `${width} px`);
    assert.equal(await overflows(page, '.explorer-results'), false, `${width} px results`);
  }
  for (const colorScheme of ['light', 'dark']) {
    const { page } = await open(env, t, '/', { viewport: { width: 1280, height: 900 }, context: { colorScheme } });
    assert.equal(await page.locator('.scenario-bar').isVisible(), false);
    await page.locator('#explorer').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(artifacts, `desktop-1280-${colorScheme}.png`) });
  }
});
