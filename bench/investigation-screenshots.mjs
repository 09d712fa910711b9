// Screenshots of every guided investigation (web/src/investigations/), revealed, at a phone
// width (390 px) and a desktop width (1440 px), in the light and the dark scheme: 10 × 4 PNGs in
// build/test-artifacts/investigations/, for a person to look at (issue 20). Not a test: it
// asserts nothing; it fails only when the page does not load.
//
//   script/build-site && node bench/investigation-screenshots.mjs [--only <id>[,<id>…]]

import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { artifacts, assertSiteBuilt, launchChromium, startServer } from '../tests/browser/helpers.mjs';

const out = path.join(artifacts, 'investigations');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1].split(',') : null;

assertSiteBuilt();
await mkdir(out, { recursive: true });
const server = await startServer();
const browser = await launchChromium();
try {
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [390, 1440]) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      await page.goto(server.url);
      await page.waitForFunction(() => document.querySelector('prefill-trace-lesson')?.dataset.state === 'ready', null, { timeout: 60_000 });
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
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
