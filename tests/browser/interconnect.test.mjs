// Tensor parallelism's all-reduces have a style of their own in the charts: interconnect-bound
// roofline points (a green diamond, not the browser's default black fill) and their own fill
// in the time bars, each with a legend entry. Which operators are all-reduces and how they are
// bound comes from the engine (tests/js/load-module.mjs), not from the page.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { DEFAULT_SCENARIO, openPage, useBrowser } from './helpers.mjs';

const env = useBrowser();
const engine = await loadModule();

test('all-reduces are drawn with the interconnect style in the roofline and time charts', async (t) => {
  const scenario = { ...DEFAULT_SCENARIO, model: 'llama-3.1-70b', hardware: 'h100-sxm', tensor_parallel: 8 };
  const reply = engine.computeTrace(JSON.stringify(scenario));
  assert.ok(reply.ok, reply.error);
  const reduces = JSON.parse(reply.json).operators.filter((op) => op.family === 'interconnect');
  assert.deepEqual(reduces.map((op) => [op.name, op.bound]),
    [['attention_all_reduce', 'interconnect'], ['mlp_all_reduce', 'interconnect']]);

  const { page, problems } = await openPage(env, t, '/?model=llama-3.1-70b&hardware=h100-sxm&tp=8');
  const roofline = page.locator('#chart-roofline');
  await roofline.scrollIntoViewIfNeeded();
  const fills = [];
  for (const op of reduces) {
    const point = roofline.locator('path.point', { has: page.locator('title', { hasText: new RegExp(`^${op.name} `) }) });
    await point.waitFor();
    assert.match(await point.getAttribute('class'), /\bbound-interconnect\b/);
    fills.push(await point.evaluate((el) => getComputedStyle(el).fill));
  }
  // The legend's diamond swatch is styled by the same class as the points.
  const swatch = roofline.locator('.legend path.bound-interconnect');
  assert.equal(await swatch.count(), 1);
  const swatchFill = await swatch.evaluate((el) => getComputedStyle(el).fill);
  for (const fill of fills) {
    assert.notEqual(fill, 'rgb(0, 0, 0)', 'an interconnect point has a fill of its own');
    assert.equal(fill, swatchFill);
  }

  const time = page.locator('#chart-time');
  await time.scrollIntoViewIfNeeded();
  const links = time.locator('svg.chart-svg rect.segment.link');
  await links.first().waitFor();
  assert.equal(await links.count(), reduces.length);
  const linkFill = await links.first().evaluate((el) => getComputedStyle(el).fill);
  const projectionFill = await time.locator('svg.chart-svg rect.segment.step-2').first()
    .evaluate((el) => getComputedStyle(el).fill);
  assert.notEqual(linkFill, projectionFill, 'all-reduces differ from the step-2 kernels');
  assert.equal(await time.locator('.legend rect.segment.link').count(), 1);
  assert.deepEqual(problems, []);
});
