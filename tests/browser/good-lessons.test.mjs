// Every lesson of tests/data/good-lessons — each differs from the published lesson only in a way
// the Atlas lesson contract allows (its cases.json says which) — renders on the page as a whole
// lesson: no error block, every section, no console or page error. A further check with four
// options is answered through the page; an interface direction other than in/out is shown as
// written; a scope that is not text is not shown; an empty tradeoff leaves no empty row.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { artifacts, normalize, repo, useBrowser, waitReady } from './helpers.mjs';

const env = useBrowser();
const corpusDir = path.join(repo, 'tests/data/good-lessons');
const cases = JSON.parse(await readFile(path.join(corpusDir, 'cases.json'), 'utf8'));
// The sections rendered from the lesson file (as in untrusted.test.mjs).
const LESSON_SECTIONS = '#objective, #mechanism, #science, #example, #distinctions, #specifications, #evidence, #sources, #continue';

async function openCorpusPage(t) {
  const context = await env.browser.newContext({ viewport: { width: 1024, height: 800 } });
  t.after(() => context.close());
  await context.route(`${env.origin}/fixtures/good/*`, async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop());
    route.fulfill({ status: 200, contentType: 'application/json', body: await readFile(path.join(corpusDir, name)) });
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  const show = async (name) => {
    await page.goto(`${env.origin}/?lesson=/fixtures/good/${encodeURIComponent(name)}`);
    await waitReady(page);
  };
  return { page, problems, show };
}

test('every lesson the contract allows renders whole, without an error', async (t) => {
  const { page, problems, show } = await openCorpusPage(t);
  const failures = [];
  for (const name of Object.keys(cases)) {
    await show(name);
    const shown = await page.evaluate((sections) => {
      const root = document.querySelector('prefill-trace-lesson').shadowRoot;
      return {
        error: root.querySelector('.page-error')?.textContent ?? null,
        sections: root.querySelectorAll(sections).length,
        header: root.querySelectorAll('header.lesson-header').length,
        mainCheck: root.querySelectorAll('#check-0-question').length,
      };
    }, LESSON_SECTIONS);
    if (shown.error !== null || shown.sections !== 9 || shown.header !== 1 || shown.mainCheck !== 1) {
      failures.push({ name, shown });
    }
  }
  assert.deepEqual(failures, []);
  assert.deepEqual(problems, []);
});

test('relaxed fields read sensibly: four options, another direction, no empty tradeoff row', async (t) => {
  const { page, problems, show } = await openCorpusPage(t);
  const root = page.locator('prefill-trace-lesson');

  await show('checks-four-options.json');
  const further = root.locator('form.quiz').nth(1);
  assert.equal(await further.locator('input[type="radio"]').count(), 4);
  // checks[0].answer is 3: the fourth option, "Projection FLOPs".
  await further.locator('label.option').nth(3).click();
  await further.getByRole('button', { name: 'Check answer' }).click();
  assert.equal(normalize(await further.locator('.verdict').innerText()), 'Correct');

  await show('interface-directions.json');
  const badges = await root.locator('.interfaces .badge').allTextContents();
  assert.deepEqual(badges, ['bidirectional', '']);
  await root.locator('#specifications').screenshot({ path: path.join(artifacts, 'good-lesson-interface-directions.png') });

  // No gate checks `scope`; the page shows it only when it is text.
  await show('scope-not-a-string.json');
  const evidence = normalize(await root.locator('#evidence').innerText());
  assert.doesNotMatch(evidence, /object Object|no gate checks scope/);
  assert.match(evidence, /No current calculator directly models/); // labScope is still shown

  await show('empty-tradeoff.json');
  const terms = await root.locator('#distinctions dt').allInnerTexts();
  assert.deepEqual(terms.map(normalize), ['Misconception', 'Why it matters for AI']);
  assert.deepEqual(problems, []);
});
