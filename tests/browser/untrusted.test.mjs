// Browser tests of what the page does with files and values it cannot trust (issue 5): the
// published lesson's SHA-256 prefix, lesson and equation text that tries to inject markup or
// links, the whole malformed-lesson corpus (tests/data/bad-lessons), and hostile numbers typed
// into the explorer's fields or given in its URL. Expected messages come from the engine itself,
// loaded here in Node, and from the corpus's expected.json.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { test } from 'node:test';
import { loadModule } from '../js/load-module.mjs';
import { parseValue } from '../../web/src/scenario.js';
import { DEFAULT_SCENARIO as DEFAULT, LESSON_PATH, normalize, openPage as open, repo, useBrowser, waitReady } from './helpers.mjs';

const env = useBrowser();
const openPage = (t, pathAndQuery, options) => open(env, t, pathAndQuery, options);

const engine = await loadModule();
const lessonBytes = await readFile(path.join(repo, LESSON_PATH));
const lesson = JSON.parse(lessonBytes.toString('utf8'));
const EQUATIONS_PATH = 'lesson-data/prefill-resource-trace.equations.json';
const equations = JSON.parse(await readFile(path.join(repo, EQUATIONS_PATH), 'utf8'));
const corpusDir = path.join(repo, 'tests/data/bad-lessons');
const corpus = JSON.parse(await readFile(path.join(corpusDir, 'expected.json'), 'utf8'));

// Ids of the sections rendered from the lesson file (the explorer and the engine's generated
// checks do not come from it).
const LESSON_SECTIONS = '#objective, #mechanism, #science, #example, #distinctions, #specifications, #evidence, #sources, #continue';

/** How much of the lesson file the page rendered. */
function lessonParts(page) {
  return page.evaluate((sections) => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    return {
      sections: root.querySelectorAll(sections).length,
      header: root.querySelectorAll('header.lesson-header').length,
      publishedCheck: root.querySelectorAll('#check-0-question').length,
    };
  }, LESSON_SECTIONS);
}

/** The page's message in place of the lesson: its title and detail. */
async function pageError(page) {
  const block = page.locator('.page-error');
  return {
    title: normalize(await block.locator('.page-error-title').innerText()),
    detail: normalize(await block.locator('p').innerText()),
  };
}

/**
 * Every piece of rendered text (document and shadow root, SVG text included) and every
 * attribute that is drawn or read out: SVG geometry and text, aria-*, title.
 */
function renderedTextAndAttributes(page) {
  return page.evaluate(() => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    const attributes = [];
    for (const scope of [document, root]) {
      for (const el of scope.querySelectorAll('*')) {
        const inSvg = el instanceof SVGElement;
        for (const attr of el.attributes) {
          if (inSvg || attr.name.startsWith('aria-') || attr.name === 'title') {
            attributes.push(`${el.tagName.toLowerCase()}[${attr.name}="${attr.value}"]`);
          }
        }
      }
    }
    const svgText = [...root.querySelectorAll('svg text, svg title')].map((t) => t.textContent);
    return {
      text: `${document.body.innerText}\n${root.querySelector('.ptl').innerText}\n${svgText.join('\n')}`,
      attributes,
    };
  });
}

test('integrity: the published lesson is verified against the SHA-256 prefix in its name', async (t) => {
  const digest = createHash('sha256').update(lessonBytes).digest('hex');
  assert.ok(LESSON_PATH.endsWith(`-${digest.slice(0, 16)}.json`), 'the published name carries the prefix of its bytes');
  const { page, problems } = await openPage(t);
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('data-lesson-integrity'), 'verified');
  assert.equal(await page.locator('.integrity-note').count(), 0);
  assert.equal((await lessonParts(page)).sections, 9);
  assert.deepEqual(problems, []);
});

test('integrity: modified bytes under the published name show the integrity error and nothing of the lesson', async (t) => {
  // Still a valid lesson (the engine would accept it): only the hash can tell.
  const tampered = Buffer.from(
    lessonBytes.toString('utf8').replace(lesson.description, `${lesson.description} TAMPERED-SENTENCE.`),
  );
  assert.equal(engine.loadLesson(tampered.toString('utf8')).ok, true);
  const actual = createHash('sha256').update(tampered).digest('hex').slice(0, 16);
  const { page, problems } = await openPage(t, '/', {
    state: 'error',
    setup: (p) =>
      p.route(`${env.origin}/${LESSON_PATH}`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: tampered }),
      ),
  });
  assert.deepEqual(await pageError(page), {
    title: 'This lesson file failed its integrity check',
    detail: `integrity: SHA-256 of the file begins ${actual}, but its published name says a76d037833bd69f7`,
  });
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('data-lesson-integrity'), 'mismatch');
  assert.deepEqual(await lessonParts(page), { sections: 0, header: 0, publishedCheck: 0 });
  const { text } = await renderedTextAndAttributes(page);
  assert.ok(!text.includes('TAMPERED-SENTENCE'), 'nothing of the tampered file is shown');
  // (The explorer's step texts come from the engine, which holds the lesson's mechanism itself.)
  assert.ok(!text.includes(lesson.learningObjective), 'not even its unchanged parts');
  assert.deepEqual(problems, []);
});

test('integrity: without Web Crypto the lesson is shown with a visible note that it was not checked', async (t) => {
  const { page, problems } = await openPage(t, '/', {
    setup: (p) =>
      p.addInitScript(() => {
        Object.defineProperty(Crypto.prototype, 'subtle', { get: () => undefined, configurable: true });
      }),
  });
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('data-lesson-integrity'), 'unchecked');
  const note = page.locator('.integrity-note');
  assert.ok(await note.isVisible());
  assert.match(normalize(await note.innerText()), /^Integrity not checked .*Web Crypto is unavailable/i);
  assert.equal((await lessonParts(page)).sections, 9, 'the lesson is still shown');
  assert.deepEqual(problems, []);
});

test('lesson text with markup, event handlers and javascript: addresses renders as inert text', async (t) => {
  const SCRIPT = '<script>window.__pwned=1</script>';
  const IMG = '<img src=x onerror="window.__pwned=1">';
  const JS_URL = 'javascript:window.__pwned=1';
  const hostile = structuredClone(lesson);
  hostile.name = `${SCRIPT} ${lesson.name}`;
  hostile.description = `${IMG} ${lesson.description}`;
  hostile.mechanism[0] = `${SCRIPT}${IMG}`;
  hostile.check.question = `${IMG} ${lesson.check.question}`;
  hostile.check.options[0] = SCRIPT;
  hostile.sources[0].title = `${IMG} ${lesson.sources[0].title}`;
  hostile.interfaces[0].signal = SCRIPT;
  hostile.science[0].explanation = IMG;
  // Not source URLs (the engine only accepts https there): fields shown as text or as ids.
  hostile.specs[0].value = JS_URL;
  hostile.scale = JS_URL;
  hostile.related = [...lesson.related, JS_URL];
  const body = JSON.stringify(hostile);
  assert.equal(engine.loadLesson(body).ok, true, 'the hostile lesson is a valid lesson');

  const { page, problems } = await openPage(t, '/?lesson=/fixtures/hostile-lesson.json', {
    setup: (p) =>
      p.route(`${env.origin}/fixtures/hostile-lesson.json`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body }),
      ),
  });
  // A name without a hash prefix is not checked (there is nothing to check it against).
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('data-lesson-integrity'), 'not-applicable');
  // Answer the quiz so its feedback (option text) is rendered too.
  await page.locator('input[name="check-0-choice"]').first().check();
  await page.locator('form.quiz', { has: page.locator('#check-0-question') }).getByRole('button', { name: 'Check answer' }).click();
  await page.locator('#check-0-feedback .verdict').waitFor();

  const found = await page.evaluate(() => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    const links = [...document.querySelectorAll('a'), ...root.querySelectorAll('a')];
    return {
      pwned: typeof window.__pwned,
      scripts: root.querySelectorAll('script').length,
      images: root.querySelectorAll('img').length,
      handlers: [...root.querySelectorAll('*')].filter((el) => [...el.attributes].some((a) => /^on/i.test(a.name))).length,
      javascriptLinks: links.filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? '') || a.protocol === 'javascript:').length,
      offSiteLinks: links.filter((a) => a.protocol !== 'https:' && a.origin !== location.origin).map((a) => a.href),
    };
  });
  assert.deepEqual(found, { pwned: 'undefined', scripts: 0, images: 0, handlers: 0, javascriptLinks: 0, offSiteLinks: [] });
  assert.equal(await page.locator('a[href^="javascript:"]').count(), 0);

  // …and every hostile string is visible as the text it is.
  const text = normalize(await page.locator('prefill-trace-lesson article.lesson').innerText());
  for (const s of [hostile.name, hostile.description, hostile.mechanism[0], hostile.check.question, SCRIPT, hostile.sources[0].title, JS_URL]) {
    assert.ok(text.includes(normalize(s)), s);
  }
  assert.equal(normalize(await page.locator('main h1').innerText()), hostile.name);
  assert.equal(await page.title(), `${hostile.name} · AI Machinery Atlas`);
  // The unknown related id is listed as text, not as a link.
  const related = await page.locator('#continue li', { hasText: JS_URL });
  assert.equal(await related.count(), 1);
  assert.equal(await related.locator('a').count(), 0);
  assert.equal(await page.evaluate(() => typeof window.__pwned), 'undefined');
  assert.deepEqual(problems, []);
});

test('equation LaTeX with \\href, \\url and \\htmlClass is typeset without trust: no live link, nothing runs', async (t) => {
  const hostile = structuredClone(equations);
  const entry = hostile[lesson.id][0];
  entry.latex = `\\href{javascript:window.__pwned=1}{x} + \\url{javascript:alert(1)} + \\htmlClass{a}{b} + ${entry.latex}`;
  // The hostile pack as a host's equations-src (app.js carries the element's own pack, so it is
  // not fetched: element/bundled-data.js), set as the page parses the element, before it connects.
  const { page, problems } = await openPage(t, '/', {
    setup: async (p) => {
      await p.route(`${env.origin}/fixtures/hostile-equations.json`, (route) =>
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(hostile) }),
      );
      await p.addInitScript(() =>
        new MutationObserver((_, observer) => {
          const element = document.querySelector('prefill-trace-lesson');
          if (!element) return;
          element.setAttribute('equations-src', '/fixtures/hostile-equations.json');
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true }),
      );
    },
  });
  const found = await page.evaluate(() => {
    const root = document.querySelector('prefill-trace-lesson').shadowRoot;
    const science = root.getElementById('science');
    const all = [...science.querySelectorAll('*')];
    return {
      pwned: typeof window.__pwned,
      links: science.querySelectorAll('a').length,
      hrefs: all.filter((el) => el.hasAttribute('href') || el.hasAttribute('xlink:href')).length,
      javascript: all.filter((el) => [...el.attributes].some((a) => /javascript:/i.test(a.value))).length,
      htmlClass: science.querySelectorAll('.a').length,
      typeset: science.querySelectorAll('.katex').length + science.querySelectorAll('.equation-math--fallback').length,
    };
  });
  assert.deepEqual(found, { pwned: 'undefined', links: 0, hrefs: 0, javascript: 0, htmlClass: 0, typeset: 1 });
  // The formula is still there as text (the reading, the plain equation).
  assert.ok(normalize(await page.locator('#science .equation-text').innerText()).includes(lesson.science[0].equation));
  assert.deepEqual(problems, []);
});

/**
 * Sets a reloading attribute of the page's element and waits until the rendering it starts is
 * settled: data-state has gone to "loading" (the new rendering began) and come back.
 */
async function rerender(page, name, value) {
  await page.evaluate(
    ([attribute, text]) =>
      new Promise((resolve) => {
        const element = document.querySelector('prefill-trace-lesson');
        let began = false;
        const observer = new MutationObserver(() => {
          const state = element.getAttribute('data-state');
          if (state === 'loading') began = true;
          else if (began && (state === 'ready' || state === 'error')) {
            observer.disconnect();
            resolve(state);
          }
        });
        observer.observe(element, { attributes: true, attributeFilter: ['data-state'] });
        element.setAttribute(attribute, text);
      }),
    [name, value],
  );
}

test('every malformed lesson of the corpus shows its error in place of the lesson, and nothing of it', async (t) => {
  const names = (await readdir(corpusDir)).filter((name) => name.endsWith('.json') && name !== 'expected.json').sort();
  assert.deepEqual(names, Object.keys(corpus).sort(), 'expected.json lists every file of the corpus');
  // One browser context and one page. Every fifth file is opened as a reader would open it, by
  // navigating to `?lesson=` (the server's ETags let the browser reuse the bundle and the compiled
  // engine); the others are swapped in as a host swaps lessons, by setting the element's
  // `lesson-src` (a reloading attribute) on the page at `/` in the lesson view. Both paths reach
  // the same reader; the swap spares a page load and an explorer's drawing per file (the suite's
  // longest test took 85 s in CI when every file was navigated to).
  const context = await env.browser.newContext({ viewport: { width: 1024, height: 800 } });
  t.after(() => context.close());
  await context.route(`${env.origin}/fixtures/bad/*`, async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop());
    route.fulfill({ status: 200, contentType: 'application/json', body: await readFile(path.join(corpusDir, name)) });
  });
  const problems = [];
  const failures = [];
  const page = await context.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => {
    // The favicon is fetched after load and is cancelled when the loop navigates on at once
    // (seen under load: net::ERR_ABORTED); any other failure, or any other error, counts.
    const abortedFavicon = r.url().endsWith('/favicon.svg') && r.failure()?.errorText === 'net::ERR_ABORTED';
    if (!abortedFavicon) problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`);
  });
  let onRoot = false;
  const swapped = { navigated: 0, swapped: 0 };
  for (const [i, name] of names.entries()) {
    const url = `/fixtures/bad/${encodeURIComponent(name)}`;
    if (i % 5 === 0) {
      await page.goto(`${env.origin}/?lesson=${url}`);
      await waitReady(page, 'error');
      onRoot = false;
      swapped.navigated += 1;
    } else {
      if (!onRoot) {
        await page.goto(`${env.origin}/`);
        await waitReady(page);
        // The lesson alone: the explorer's drawing is most of a rendering's time, and the
        // navigated files show that it still works beside a refused lesson.
        await rerender(page, 'view', 'lesson');
        onRoot = true;
      }
      await rerender(page, 'lesson-src', url);
      await waitReady(page, 'error');
      swapped.swapped += 1;
    }
    const shown = await page.evaluate((sections) => {
      const root = document.querySelector('prefill-trace-lesson').shadowRoot;
      const block = root.querySelector('.page-error');
      return {
        title: block?.querySelector('.page-error-title')?.textContent ?? null,
        detail: block?.querySelector('p')?.textContent ?? null,
        sections: root.querySelectorAll(sections).length + root.querySelectorAll('header.lesson-header, #check-0-question').length,
        explorer: root.querySelector('#explorer')?.dataset.state ?? null,
      };
    }, LESSON_SECTIONS);
    const expected = corpus[name];
    const messageOk =
      expected === null ? /^byte \d+: invalid JSON \(/.test(shown.detail ?? '') : shown.detail === expected;
    // The message stands in place of the lesson and nothing of the file renders; the
    // explorer, which needs only the engine, still works (each part fails alone) where it is
    // shown (the navigated files; the swapped ones show the lesson view).
    const explorerOk = i % 5 === 0 ? shown.explorer === 'ready' : shown.explorer === null;
    if (!messageOk || shown.title !== 'This lesson file is not valid' || shown.sections !== 0 || !explorerOk) {
      failures.push({ name, expected, shown });
    }
  }
  assert.deepEqual(swapped, { navigated: Math.ceil(names.length / 5), swapped: names.length - Math.ceil(names.length / 5) });
  assert.deepEqual(failures, []);
  assert.deepEqual(problems, []);
});

// --- Hostile numbers ----------------------------------------------------------------------

const HOSTILE = ['NaN', 'Infinity', '1e308', '18446744073709551616', '-5', 'abc', '0'];
const NUMBER_FIELDS = [
  { label: 'Prompt tokens (exact)', key: 'prompt', json: 'prompt_tokens', param: 'prompt', initial: '2048' },
  { label: 'Requests per batch', key: 'batch', json: 'batch', param: 'batch', initial: '1' },
  { label: 'Arrival rate', key: 'rate', json: 'arrival_rate', param: 'rate', initial: '0' },
];

/** The engine's verdict on the default scenario with one field set from `text`, as the page reads it. */
function engineOn(field, text) {
  const result = engine.computeTrace(JSON.stringify({ ...DEFAULT, [field.json]: parseValue(text, true) }));
  return result.ok ? null : result.error;
}

async function assertNoNaN(page, where) {
  const { text, attributes } = await renderedTextAndAttributes(page);
  assert.doesNotMatch(text, /NaN|Infinity/, `${where}: rendered text`);
  const bad = attributes.filter((a) => /NaN|Infinity/.test(a));
  assert.deepEqual(bad, [], `${where}: attributes`);
}

test('hostile numbers typed into the fields get the engine’s named-field error; no NaN or Infinity is shown', async (t) => {
  const { page, problems } = await openPage(t);
  for (const field of NUMBER_FIELDS) {
    const input = page.getByLabel(field.label, { exact: true });
    const error = page.locator(`[data-field="${field.key}"] .field-error`);
    for (const text of HOSTILE) {
      const where = `${field.label} = ${text}`;
      await input.fill(text);
      await input.press('Enter');
      const expected = engineOn(field, text);
      if (expected) {
        assert.match(expected, new RegExp(`^/${field.json}: `), `${where}: the engine names the field`);
        await page.locator(`[data-field="${field.key}"] .field-error:not([hidden])`).waitFor();
        // A sentence naming the field, then the engine's own message (plain-words/errors.js).
        assert.ok(normalize(await error.innerText()).endsWith(`(${expected})`), where);
        assert.equal(await input.getAttribute('aria-invalid'), 'true', where);
        assert.ok(normalize(await page.locator('.results-error').innerText()).includes(expected), where);
      } else {
        await page.waitForFunction(
          ([json, value]) =>
            JSON.parse(document.querySelector('prefill-trace-lesson').shadowRoot.getElementById('explorer').dataset.scenario ?? '{}')[json] === value,
          [field.json, Number(text)],
        );
        assert.equal(await error.isVisible(), false, where);
      }
      await assertNoNaN(page, where);
    }
    await input.fill(field.initial);
    await input.press('Enter');
    await page.locator(`[data-field="${field.key}"] .field-error`).waitFor({ state: 'hidden' });
  }
  assert.deepEqual(problems, []);
});

test('hostile numbers in the URL are reported beside their fields and replaced by the defaults', async (t) => {
  const context = await env.browser.newContext({ viewport: { width: 1024, height: 800 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  for (const text of HOSTILE) {
    const query = NUMBER_FIELDS.map((f) => `${f.param}=${encodeURIComponent(text)}`).join('&');
    await page.goto(`${env.origin}/?${query}`);
    await waitReady(page);
    for (const field of NUMBER_FIELDS) {
      const expected = engineOn(field, text);
      const note = page.locator(`[data-field="${field.key}"] .field-error--note`);
      if (expected) {
        assert.equal(
          normalize(await note.innerText()),
          `The link's value was not used — ${expected}. Showing the default instead.`,
          `${field.param}=${text}`,
        );
        assert.equal(await page.getByLabel(field.label, { exact: true }).inputValue(), field.initial);
      } else {
        assert.equal(await note.count(), 0, `${field.param}=${text}`);
      }
    }
    assert.equal(await page.locator('#explorer').getAttribute('data-state'), 'ready', text);
    await assertNoNaN(page, `?${query}`);
  }
  assert.deepEqual(problems, []);
});
