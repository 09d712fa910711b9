// Screenshots of every guided investigation (web/src/investigations/), revealed, at a phone
// width (390 px) and a desktop width (1440 px), in the light and the dark scheme: 10 × 4 PNGs in
// build/test-artifacts/investigations/, for a person to look at (issue 20). Not a test: it
// asserts nothing; it fails only when the page does not load.
//
// With --under-load instead: "Under load"'s K/V figure (paged against reserve, preemptions in
// time; web/src/charts/serving-kv.js) after a run that preempts — an 8,192-token prompt and 1,024
// output tokens at 4 requests/s on the default Llama 3.1 8B and H100 (paged K/V preempts 13 times
// in `prefill-trace serve --policy prefill-first --rate 4 --requests 240 --prompt 8192 --output
// 1024`) — at 295, 390 and 1440 px, light and dark, in build/test-artifacts/under-load/.
//
//   script/build-site && node bench/investigation-screenshots.mjs [--only <id>[,<id>…] | --under-load]

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { artifacts, assertSiteBuilt, launchChromium, startServer } from '../tests/browser/helpers.mjs';

const underLoad = process.argv.includes('--under-load');
const out = path.join(artifacts, underLoad ? 'under-load' : 'investigations');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;

/** Every investigation (or those --only names), revealed and changed once, one PNG each. */
async function shootInvestigations(page, width, colorScheme) {
  const root = page.locator('prefill-trace-lesson');
  const ids = await root.locator('details.investigation').evaluateAll((nodes) => nodes.map((n) => n.dataset.investigation));
  for (const id of ids) {
    if (only && !only.includes(id)) continue;
    const item = root.locator(`[data-investigation="${id}"]`);
    await item.locator('summary').click();
    await item.locator('input[type="radio"]').first().check();
    await item.locator('button[type="submit"]').click();
    await item.locator('.investigation-reading data').first().waitFor();
    await item.locator('button.button--quiet').click();
    await item.locator('.investigation-reading[data-reading="next"] data').first().waitFor();
    await item.scrollIntoViewIfNeeded();
    const file = path.join(out, `${id}-${width}-${colorScheme}.png`);
    await item.screenshot({ path: file });
    console.log(file);
    await item.locator('summary').click();
  }
}

/** "Under load" run at a load that preempts; its K/V figure, one PNG. */
async function shootUnderLoad(page, width, colorScheme) {
  const root = page.locator('prefill-trace-lesson');
  const part = root.locator('details.under-load');
  await part.locator('summary').click();
  await root.getByLabel('Arrival rate (requests/s)').fill('4');
  await root.getByLabel('Output tokens per request').fill('1024');
  await part.getByRole('button', { name: 'Run the simulation' }).click();
  await page.waitForFunction(
    () => document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('details.under-load')?.dataset.simulated === '3',
    null,
    { timeout: 600_000 },
  );
  const chart = root.locator('#chart-serving-kv');
  await chart.scrollIntoViewIfNeeded();
  const file = path.join(out, `kv-${width}-${colorScheme}.png`);
  await chart.screenshot({ path: file });
  console.log(file, await chart.locator('svg.chart-svg rect.kv-preemption').count(), 'preemption ticks');
}

assertSiteBuilt();
await mkdir(out, { recursive: true });
const server = await startServer();
const browser = await launchChromium();
try {
  for (const colorScheme of ['light', 'dark']) {
    for (const width of underLoad ? [295, 390, 1440] : [390, 1440]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(underLoad ? `${server.origin}/?prompt=8192` : server.url);
      await page.waitForFunction(() => document.querySelector('prefill-trace-lesson')?.dataset.state === 'ready', null, { timeout: 60_000 });
      await (underLoad ? shootUnderLoad : shootInvestigations)(page, width, colorScheme);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
