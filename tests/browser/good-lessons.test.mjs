// Every lesson of tests/data/good-lessons — each differs from the published lesson only in a way
// the Atlas lesson contract allows (its cases.json says which) — renders on the page as a whole
// lesson: no error block, every section, no console or page error. A further check with four
// options is answered through the page; an interface direction other than in/out is shown as
// written in a neutral badge, and an empty one has none; a scope that is not text is not shown;
// an empty tradeoff leaves no empty row. Blank texts the contract allows never leave a link,
// radio button, heading or badge without a name: a blank source title shows its address, a blank
// option its place.

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

test('every lesson the contract allows renders whole, without an error or a nameless part', async (t) => {
  const { page, problems, show } = await openCorpusPage(t);
  const failures = [];
  for (const name of Object.keys(cases)) {
    await show(name);
    const shown = await page.evaluate((sections) => {
      const root = document.querySelector('prefill-trace-lesson').shadowRoot;
      // Blank texts the contract allows must not leave a link, radio button, heading, badge or
      // list item without a name.
      const blank = (node) => !node || !node.textContent.trim();
      const described = (node) => `${node.tagName.toLowerCase()}.${node.className} in #${node.closest('section, header')?.id}`;
      return {
        error: root.querySelector('.page-error')?.textContent ?? null,
        sections: root.querySelectorAll(sections).length,
        header: root.querySelectorAll('header.lesson-header').length,
        mainCheck: root.querySelectorAll('#check-0-question').length,
        nameless: [
          ...[...root.querySelectorAll('a, button, h1, h2, h3, h4, .badge, li')].filter(blank),
          ...[...root.querySelectorAll('input[type="radio"]')].filter((input) => blank(input.closest('label'))),
        ].map(described),
      };
    }, LESSON_SECTIONS);
    const whole = shown.error === null && shown.sections === 9 && shown.header === 1 && shown.mainCheck === 1;
    if (!whole || shown.nameless.length > 0) {
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

  // interfaces[0].direction is "bidirectional", interfaces[1].direction is "" (make-corpus.mjs).
  await show('interface-directions.json');
  const badges = await root.locator('.interfaces li').evaluateAll((items) =>
    items.map((li) => [...li.querySelectorAll('.badge')].map((b) => `${b.className}: ${b.textContent}`)));
  assert.deepEqual(badges, [['badge badge--other: bidirectional'], []]);
  // Neutral: the muted text colour, not the "in" (accent) colour.
  const colours = await root.locator('#specifications').evaluate((section) => {
    const style = (node) => getComputedStyle(node).color;
    return {
      other: style(section.querySelector('.badge--other')),
      muted: style(section.querySelector('.interface-signal')),
    };
  });
  assert.equal(colours.other, colours.muted);
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

test('a blank source title shows its address; a blank option its place; a numeric year its digits', async (t) => {
  const { page, problems, show } = await openCorpusPage(t);
  const root = page.locator('prefill-trace-lesson');

  // empty-content-strings.json: sources[0] keeps its url and has title ""; check.options[1] is "".
  await show('empty-content-strings.json');
  const firstSource = root.locator('#sources ul.sources a').first();
  assert.equal(await firstSource.getAttribute('href'), 'https://arxiv.org/abs/2205.14135');
  assert.equal(normalize(await firstSource.innerText()), 'https://arxiv.org/abs/2205.14135');
  // The link's accessible name is its text, so the reader can find it by its address.
  assert.equal(await root.getByRole('link', { name: 'https://arxiv.org/abs/2205.14135', exact: true }).count(), 1);
  const mainCheck = root.locator('form.quiz').first();
  const second = mainCheck.getByRole('radio', { name: 'Option 2 (blank)', exact: true });
  assert.equal(await second.count(), 1);
  assert.equal(await second.getAttribute('value'), '1');
  await root.locator('#sources').screenshot({ path: path.join(artifacts, 'good-lesson-blank-source-title.png') });
  await mainCheck.screenshot({ path: path.join(artifacts, 'good-lesson-blank-option.png') });

  // history.json: year 1947 (a number) and "c. 2022"; the second entry's title and source title
  // are "" and its URL is http:// (shown, not linked: the page links only https addresses).
  await show('history.json');
  const entries = root.locator('#history li.history-entry');
  assert.equal(await entries.count(), 2);
  assert.deepEqual((await root.locator('#history .history-year').allInnerTexts()).map(normalize), ['1947', 'c. 2022']);
  assert.equal(await entries.nth(1).locator('h3').count(), 0);
  assert.equal(await entries.nth(1).locator('a').count(), 0);
  assert.equal(normalize(await entries.nth(1).locator('.history-source').innerText()), 'http://example.org/not-https');
  assert.equal(normalize(await entries.nth(0).locator('.history-source a').innerText()), 'Nobel Prize in Physics 1956');
  await root.locator('#history').screenshot({ path: path.join(artifacts, 'good-lesson-history.png') });
  assert.deepEqual(problems, []);
});
