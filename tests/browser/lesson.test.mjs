// Browser tests of the built lesson page (build/web, made by script/build-site), in Debian's
// Chromium driven by playwright-core: the published lesson as rendered inside the
// <prefill-trace-lesson> element. Every test fails on a console error, a page error, a CSP
// violation, a failed or 4xx/5xx request, or any request off the test server's origin.
// The trace explorer is tested in explorer.test.mjs.
//
//   node --test tests/browser/        (npm run test:browser)
// Screenshots go to build/test-artifacts/.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import {
  LESSON_PATH,
  artifacts,
  fixtures,
  focused,
  normalize,
  openPage as open,
  repo,
  useBrowser,
} from './helpers.mjs';

const env = useBrowser();
const openPage = (t, pathAndQuery, options) => open(env, t, pathAndQuery, options);

// The page's sections in the published lesson's order (seed `sections`; "Learning objective"
// is the labelled line under the header), with the trace explorer after the mechanism.
const SECTION_HEADINGS = [
  'Learning objective',
  'The mechanism',
  'Explore the resource trace',
  'Science and assumptions',
  'Engineering example',
  'Distinctions and tradeoffs',
  'Specifications and interfaces',
  'Check your understanding',
  'Evidence and scope',
  'Sources',
  'Continue exploring',
];

// Fields that identify or classify the lesson and are not displayed as text.
const HIDDEN_KEYS = new Set([
  'id',
  'level',
  'kind',
  'labId',
  'deepLabId',
  'investigationId',
  'workstream',
  'visualFamily',
  'url',
  'direction', // shown as "Input"/"Output"; checked separately
  'related', // ids; their names are checked instead
  'prerequisites',
]);

const lessonText = await readFile(path.join(repo, LESSON_PATH), 'utf8');
const lesson = JSON.parse(lessonText);
const equationPack = JSON.parse(
  await readFile(path.join(repo, 'lesson-data/prefill-resource-trace.equations.json'), 'utf8'),
);
const relatedLessons = JSON.parse(
  await readFile(path.join(repo, 'lesson-data/related-lessons.json'), 'utf8'),
).lessons;

/** The lesson's text as shown (innerText of the shadow root's article; explorer included). */
async function renderedText(page) {
  return normalize(await page.locator('prefill-trace-lesson article.lesson').innerText());
}

/** The published check's form (generated checks have their own "Check answer" buttons). */
function publishedQuiz(page) {
  return page.locator('form.quiz', { has: page.locator('#check-0-question') });
}

/** h3 headings of the published lesson, leaving out the explorer and the generated checks. */
function lessonH3s(page) {
  return page.evaluate(() =>
    [...document.querySelector('prefill-trace-lesson').shadowRoot.querySelectorAll('article.lesson h3')]
      .filter((el) => !el.closest('#explorer, .generated-checks'))
      .map((el) => el.textContent.replace(/\s+/g, ' ').trim()),
  );
}

/** Every string leaf of the lesson record that the page must display, with its JSON path. */
function displayedStrings(value, pointer = '') {
  if (typeof value === 'string') return [[pointer, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => displayedStrings(v, `${pointer}/${i}`));
  if (value && typeof value === 'object') {
    return Object.entries(value)
      .filter(([key]) => !HIDDEN_KEYS.has(key))
      .flatMap(([key, v]) => displayedStrings(v, `${pointer}/${key}`));
  }
  return [];
}

async function chooseAndCheck(page, optionIndex) {
  await page.locator('#check-0-question').waitFor();
  await page.locator('input[name="check-0-choice"]').nth(optionIndex).check();
  await publishedQuiz(page).getByRole('button', { name: 'Check answer' }).click();
  return normalize(await page.locator('#check-0-feedback').innerText());
}

test('the server sends the CSP header, correct MIME types, and refuses traversal', async () => {
  const { origin } = env;
  const page = await fetch(`${origin}/`);
  const html = await page.text();
  const meta = html.match(/http-equiv="Content-Security-Policy" content="([^"]+)"/)[1];
  assert.equal(page.headers.get('content-security-policy'), meta);
  assert.match(meta, /script-src 'self' 'wasm-unsafe-eval';/);
  assert.match(meta, /style-src 'self';/);

  const types = {
    '/app.js': 'text/javascript; charset=utf-8',
    '/wasm/prefill_trace.mjs': 'text/javascript; charset=utf-8',
    '/wasm/prefill_trace.wasm': 'application/wasm',
    '/favicon.svg': 'image/svg+xml',
    '/page.css': 'text/css; charset=utf-8',
    '/style.css': 'text/css; charset=utf-8',
    '/katex/katex-fonts.css': 'text/css; charset=utf-8',
    '/embed-example.html': 'text/html; charset=utf-8',
    '/katex/fonts/KaTeX_Main-Regular.woff2': 'font/woff2',
    [`/${LESSON_PATH}`]: 'application/json; charset=utf-8',
  };
  for (const [urlPath, type] of Object.entries(types)) {
    const response = await fetch(origin + urlPath);
    assert.equal(response.status, 200, urlPath);
    assert.equal(response.headers.get('content-type'), type, urlPath);
  }

  // The lesson file is served byte for byte.
  assert.equal(await (await fetch(`${origin}/${LESSON_PATH}`)).text(), lessonText);

  for (const attempt of ['/../package.json', '/%2e%2e/package.json', '/lesson-data/..%2f..%2fpackage.json']) {
    const response = await fetch(origin + attempt);
    assert.equal(response.status, 404, attempt);
  }
});

test('renders every section of the published lesson in order, with every displayed string', async (t) => {
  const { page, problems } = await openPage(t);

  assert.equal(await page.title(), `${lesson.name} · AI Machinery Atlas`);
  assert.equal(normalize(await page.locator('main h1').textContent()), lesson.name);
  const h2 = (await page.locator('main h2').allTextContents()).map(normalize);
  assert.deepEqual(h2, SECTION_HEADINGS);
  assert.deepEqual(await lessonH3s(page), [
    lesson.science[0].title,
    'Interfaces',
    lesson.check.question,
    'Foundations',
    'Related lessons',
  ]);

  // The trace explorer sits right after "The mechanism", inside the element's shadow root.
  const explorer = await page.evaluate(() => {
    const el = document.querySelector('prefill-trace-lesson').shadowRoot.getElementById('explorer');
    return el && { previous: el.previousElementSibling?.id, state: el.dataset.state };
  });
  assert.deepEqual(explorer, { previous: 'mechanism', state: 'ready' });

  // The five mechanism steps, numbered.
  assert.deepEqual(
    (await page.locator('#mechanism ol > li').allTextContents()).map(normalize),
    lesson.mechanism,
  );

  // KaTeX typeset the equation (no error node) and the symbols table lists every variable.
  assert.equal(await page.locator('#science .katex-display').count(), 1);
  assert.equal(await page.locator('#science .katex-error').count(), 0);
  const formal = equationPack[lesson.id][0];
  assert.equal(await page.locator('#science .katex-mathml annotation').textContent(), formal.latex);
  const rows = await page.locator('table.symbols tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent.trim())),
  );
  assert.deepEqual(rows, formal.variables.map((v) => [v.symbol, v.meaning, v.unit]));

  // The explanation is part of the answer feedback, so answer first.
  await chooseAndCheck(page, lesson.check.answer);
  const text = await renderedText(page);

  const missing = displayedStrings(lesson).filter(([, s]) => !text.includes(normalize(s)));
  assert.deepEqual(missing, [], 'lesson strings missing from the page');

  for (const port of lesson.interfaces) {
    const label = { in: 'Input', out: 'Output' }[port.direction];
    const item = normalize(
      await page.locator('.interfaces li', { hasText: port.name }).innerText(),
    );
    assert.ok(item.toLowerCase().includes(label.toLowerCase()), `${port.name}: ${label}`);
  }

  // Foundations and related lessons appear by name, as links to their published addresses;
  // as in the published lesson, a foundation is not repeated under related lessons.
  const lists = await page.evaluate(() =>
    [...document.querySelector('prefill-trace-lesson').shadowRoot.querySelectorAll('#continue h3')].map((h3) => [
      h3.textContent,
      [...h3.nextElementSibling.querySelectorAll('a')].map((a) => [a.textContent, a.getAttribute('href')]),
    ]),
  );
  const linked = (ids) => ids.map((id) => [relatedLessons[id].name, relatedLessons[id].url]);
  assert.deepEqual(lists, [
    ['Foundations', linked(lesson.prerequisites)],
    ['Related lessons', linked(lesson.related.filter((id) => !lesson.prerequisites.includes(id)))],
  ]);

  const sourceLinks = await page
    .locator('#sources ul.sources a')
    .evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')]));
  assert.deepEqual(sourceLinks, lesson.sources.map((s) => [s.title, s.url]));

  // The equation pack's reading, symbols, meanings and units.
  for (const formal of equationPack[lesson.id]) {
    assert.ok(text.includes(normalize(formal.text)), formal.text);
    for (const v of formal.variables) {
      for (const s of [v.symbol, v.meaning, v.unit]) assert.ok(text.includes(s), s);
    }
  }
  assert.deepEqual(problems, []);
});

test('the quiz answers wrongly, then correctly, with the engine’s explanation', async (t) => {
  const { page, problems } = await openPage(t);
  const { options, answer, explanation } = lesson.check;
  const wrong = (answer + 1) % options.length;

  const first = await chooseAndCheck(page, wrong);
  assert.match(first, /^Not quite/);
  assert.ok(first.includes(options[answer]), 'names the correct answer');
  assert.ok(first.includes(explanation), 'gives the explanation');
  assert.equal(
    await publishedQuiz(page).locator('.option').nth(wrong).getAttribute('data-result'),
    'incorrect',
  );

  const second = await chooseAndCheck(page, answer);
  assert.match(second, /^Correct/);
  assert.ok(second.includes(explanation));
  assert.equal(await publishedQuiz(page).locator('.option').nth(answer).getAttribute('data-result'), 'correct');
  assert.equal(await page.locator('#check-0-feedback').getAttribute('aria-live'), 'polite');
  assert.deepEqual(problems, []);
});

test('the quiz works with the keyboard alone', async (t) => {
  const { page, problems } = await openPage(t);
  const { options, answer } = lesson.check;

  // Tab from the top of the page (through the explorer's controls) until focus reaches the
  // quiz's radio group.
  let reached = false;
  for (let i = 0; i < 80 && !reached; i += 1) {
    await page.keyboard.press('Tab');
    reached = (await focused(page)).name === 'check-0-choice';
  }
  assert.ok(reached, 'Tab reaches the answer options');

  // Arrow keys move between options; Space selects; Enter submits the form.
  const wrong = answer === 0 ? 1 : 0;
  await page.keyboard.press('Home');
  for (let i = 0; i < wrong; i += 1) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Space');
  assert.equal((await focused(page)).value, String(wrong));
  await page.keyboard.press('Enter');
  const feedback = page.locator('#check-0-feedback');
  await assert.doesNotReject(feedback.getByText('Not quite').waitFor({ timeout: 2000 }));
  assert.ok(normalize(await feedback.innerText()).includes(options[answer]));

  // Move to the right answer with the arrows, Tab to the button, press it with Space.
  const steps = answer - wrong;
  for (let i = 0; i < Math.abs(steps); i += 1) await page.keyboard.press(steps > 0 ? 'ArrowDown' : 'ArrowUp');
  assert.equal((await focused(page)).value, String(answer));
  await page.keyboard.press('Tab');
  assert.equal(normalize((await focused(page)).text), 'Check answer');
  await page.keyboard.press('Space');
  await assert.doesNotReject(feedback.getByText(/^Correct$/).waitFor({ timeout: 2000 }));
  assert.deepEqual(problems, []);
});

test('fits a 360 px screen without horizontal scrolling; screenshots at 360 and 1440 px', async (t) => {
  for (const width of [360, 1440]) {
    const { page, problems } = await openPage(t, '/', { viewport: { width, height: 800 } });
    await page.evaluate(() => document.fonts.ready);
    await chooseAndCheck(page, (lesson.check.answer + 1) % 3);
    const scrollWidth = await page.evaluate(() => document.scrollingElement.scrollWidth);
    assert.ok(scrollWidth <= width, `scrollWidth ${scrollWidth} > ${width}`);
    await page.screenshot({ path: path.join(artifacts, `lesson-${width}.png`), fullPage: true });
    assert.deepEqual(problems, []);
  }
});

test('a lesson that fails validation shows the engine’s error naming the JSON path; the explorer still works', async (t) => {
  const fixture = await readFile(path.join(fixtures, 'invalid-check-answer.json'), 'utf8');
  const { page, problems } = await openPage(t, '/?lesson=fixtures/invalid-check-answer.json', {
    state: 'error',
    setup: (p) =>
      p.route(`${env.origin}/fixtures/invalid-check-answer.json`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: fixture }),
      ),
  });
  const alert = page.getByRole('alert');
  assert.match(normalize(await alert.innerText()), /\/check\/answer/);
  assert.equal(await page.locator('section.lesson-section#mechanism').count(), 0, 'no lesson section is rendered');
  assert.equal(await page.locator('#check-0-question').count(), 0, 'the published check is not shown');
  // The rest still renders: the explorer computes, and the engine's own checks are offered.
  assert.equal(await page.locator('#explorer[data-state="ready"]').count(), 1);
  assert.match(normalize(await page.locator('[data-figure="kv-bytes"] .figure-value').innerText()), /MB/);
  assert.ok((await page.locator('form.quiz--generated').count()) >= 3);
  assert.deepEqual(problems, []);
});

test('a lesson address on another origin is refused without being fetched', async (t) => {
  const { page, problems } = await openPage(t, '/?lesson=https://example.invalid/lesson.json', { state: 'error' });
  assert.match(normalize(await page.getByRole('alert').innerText()), /must be on this site/);
  assert.equal(await page.locator('#explorer[data-state="ready"]').count(), 1, 'the explorer still renders');
  assert.deepEqual(problems, []);
});

test('a module that fails to load shows a clear message; the lesson built into the page stays', async (t) => {
  const { page, problems } = await openPage(t, '/', {
    state: 'error',
    setup: (p) =>
      p.route(`${env.origin}/wasm/prefill_trace.mjs`, (route) =>
        route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' }),
      ),
  });
  assert.match(normalize(await page.getByRole('alert').innerText()), /WebAssembly module failed to load/);
  // The lesson rendered in at build time needs no engine to be read (script/site/prerender.mjs).
  assert.equal(normalize(await page.locator('main h1').textContent()), lesson.name);
  assert.deepEqual(
    (await page.locator('main h2').allTextContents()).map(normalize),
    SECTION_HEADINGS.map((heading) => (heading === 'Explore the resource trace' ? 'The trace explorer could not start' : heading)),
  );
  assert.equal(await page.locator('#explorer').count(), 0);
  assert.match(normalize(await page.locator('#check-0-feedback').innerText()), /needs the lesson engine, which could not start/);
  // Only the provoked 404 (and Chromium's console line for it) may appear.
  assert.ok(
    problems.every((p) => p.includes('/wasm/prefill_trace.mjs') || p.includes('status of 404')),
    problems.join('\n'),
  );
});

test('with JavaScript off, the lesson built into index.html is all there; the quiz says it needs JavaScript', async (t) => {
  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1024, height: 800 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  // Chromium cancels the page's script preloads when scripts are off; any other failure counts.
  page.on('requestfailed', (r) => r.resourceType() !== 'script' && problems.push(`request failed: ${r.url()}`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(`${env.origin}/`);
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('data-state'), null, 'no script ran');

  assert.equal(normalize(await page.locator('main h1').textContent()), lesson.name);
  assert.deepEqual((await page.locator('main h2').allTextContents()).map(normalize), SECTION_HEADINGS);
  const text = await renderedText(page);
  // Every displayed string but the quiz's explanation, which shows only once an answer is
  // checked — by the engine, with JavaScript.
  const expected = displayedStrings(lesson).filter(([pointer]) => !/^\/checks?(\/\d+)?\/explanation$/.test(pointer));
  assert.ok(expected.some(([pointer]) => pointer === '/check/question'));
  const missing = expected.filter(([, s]) => !text.includes(normalize(s)));
  assert.deepEqual(missing, [], 'lesson strings missing without JavaScript');
  for (const option of lesson.check.options) {
    assert.equal(await page.getByLabel(option, { exact: true }).count(), 1, `option "${option}" is a radio button`);
  }
  assert.ok(text.includes('Checking an answer needs JavaScript.'));
  assert.equal(await page.getByRole('button', { name: 'Check answer' }).isDisabled(), true);

  // The equation typeset at build time: KaTeX's HTML, with its positions in classes, not in
  // style attributes (which the CSP would refuse).
  assert.equal(await page.locator('#science .katex-display .katex-html').count(), 1);
  assert.equal(await page.locator('#science .katex-mathml annotation').textContent(), equationPack[lesson.id][0].latex);
  assert.equal(await page.locator('#science [style]').count(), 0);
  assert.deepEqual(problems, []);
});

test('the script adopts the built-in lesson: the same nodes, no layout shift, an answerable quiz', async (t) => {
  const { page, problems } = await openPage(t, '/', {
    setup: (p) =>
      p.addInitScript(() => {
        // Parsing is done and no deferred (module) script has run yet at "interactive".
        document.addEventListener('readystatechange', () => {
          if (document.readyState !== 'interactive') return;
          const shadow = document.querySelector('prefill-trace-lesson').shadowRoot;
          window.builtIn = { article: shadow?.querySelector('article'), math: shadow?.querySelector('.katex') };
        });
        window.shifts = [];
        new PerformanceObserver((list) => window.shifts.push(...list.getEntries().map((e) => e.value))).observe({
          type: 'layout-shift',
          buffered: true,
        });
      }),
  });
  const adopted = await page.evaluate(() => {
    const shadow = document.querySelector('prefill-trace-lesson').shadowRoot;
    return {
      built: Boolean(window.builtIn.article),
      sameArticle: window.builtIn.article === shadow.querySelector('article'),
      sameMath: window.builtIn.math === shadow.querySelector('.katex'),
      notes: shadow.querySelectorAll('.needs-script').length,
      shifts: window.shifts,
    };
  });
  assert.deepEqual(adopted, { built: true, sameArticle: true, sameMath: true, notes: 0, shifts: [] });
  assert.match(await chooseAndCheck(page, lesson.check.answer), /^Correct/);
  assert.deepEqual(problems, []);
});
