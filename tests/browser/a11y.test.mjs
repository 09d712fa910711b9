// Accessibility measured with axe-core on the served page, once everything has drawn (the
// element's data-state="ready" waits for the charts, the generated checks and the typeset
// equation): no violation of WCAG 2.2 A/AA (2.2 adds the 24 px target size) or of axe's best
// practices, in the light and the dark scheme, on a desktop and a phone width. axe looks into
// the element's open shadow root. At the phone width in the dark scheme, the "Under load" part
// is also opened and run (its form, reading and three charts exist only then); in every run five
// guided investigations are read, the three of the serving simulation among them, with their
// inline figures.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { openPage as open, useBrowser } from './helpers.mjs';

const env = useBrowser();
const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

for (const colorScheme of ['light', 'dark']) {
  for (const width of [1280, 375]) {
    test(`axe: no WCAG 2.2 A/AA or best-practice violation, ${colorScheme} scheme, ${width} px`, async (t) => {
      const { page, problems } = await open(env, t, '/', {
        viewport: { width, height: 800 },
        context: { colorScheme },
      });
      // The page's own problems, before axe runs: axe adds inline <style> elements of its
      // own, which the page's CSP (kept as served) refuses and reports.
      assert.deepEqual(problems, []);
      const underLoad = page.locator('prefill-trace-lesson details.under-load');
      if (colorScheme === 'dark' && width === 375 && (await underLoad.count())) {
        await underLoad.locator('summary').click();
        await underLoad.getByRole('button', { name: 'Run the simulation' }).click();
        await page.waitForFunction(
          () => document.querySelector('prefill-trace-lesson').shadowRoot.querySelector('details.under-load')?.dataset.simulated,
          null,
          { timeout: 120_000 },
        );
      }
      // Guided investigations read twice, with their inline figures (a pair with a rule, the
      // queueing curve, the serving ones' pairs on a shared axis), their words and "Open in the
      // explorer" (issue 30 items 1, 4, 8).
      for (const id of ['reuse-grows', 'queueing', 'decode-stall', 'chunk-footprint', 'distserve']) {
        const item = page.locator(`prefill-trace-lesson [data-investigation="${id}"]`);
        await item.locator('summary').click();
        await item.locator('input[type="radio"]').first().check();
        await item.locator('button[type="submit"]').click();
        await item.locator('.investigation-evidence:not([data-reading]) .inline-figure svg').first().waitFor();
        await item.locator('button.button--quiet').click();
        await item.locator('.investigation-evidence[data-reading="next"] .inline-figure svg').first().waitFor();
        // "How these figures were found" (the DistServe investigation's method) opened too.
        if (id === 'distserve') assert.ok((await item.locator('button.investigation-how:visible').count()) > 0, 'its method can be opened');
        for (const how of await item.locator('button.investigation-how:visible').all()) {
          await how.click();
          assert.equal(await how.getAttribute('aria-expanded'), 'true');
        }
      }
      await page.evaluate(axeSource);
      const violations = await page.evaluate(
        (tags) =>
          window.axe.run(document, { runOnly: { type: 'tag', values: tags } }).then((r) =>
            r.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`),
          ),
        TAGS,
      );
      assert.deepEqual(violations, []);
    });
  }
}
