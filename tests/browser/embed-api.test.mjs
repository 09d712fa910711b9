// The element's host API (issue 11, items 1-6): views that fetch only what they show,
// attributes and properties that update it in place, its events, theme and custom properties,
// ::part names, storage="none" with the progress property, and other lessons.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { DEFAULT_SCENARIO, LESSON_PATH, artifacts, assertSiteBuilt, launchChromium, normalize, site } from './helpers.mjs';
import { hostPageRoutes, startHostServer } from './host-server.mjs';

const lessonText = await readFile(path.join(site, LESSON_PATH), 'utf8');
const lesson = JSON.parse(lessonText);

/** Another Atlas lesson (not the prefill one), with a history entry, as the Atlas publishes them. */
const otherLesson = {
  ...lesson,
  id: 'out-of-order-cpu-pipeline',
  name: 'Out-of-order CPU pipeline',
  history: [
    {
      year: 1967,
      title: 'Tomasulo’s algorithm',
      significance: 'Dynamic scheduling lets independent instructions run ahead of a stalled one.',
      source: { title: 'IBM Journal of R&D', url: 'https://example.com/tomasulo' },
    },
  ],
};

let host;
let browser;

before(async () => {
  assertSiteBuilt();
  host = await startHostServer({
    // The built site a second time, under another folder, for asset-base.
    mounts: { '/elsewhere/': site },
    routes: {
      ...hostPageRoutes(),
      // The Atlas's formal equations for the other lesson, as a host would serve them.
      '/other-equations.json': (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ [otherLesson.id]: [{ kind: 'formal', latex: 'T_{issue} = \\max(T_{ready}, T_{free})', variables: [], text: 'issue time is the later of ready and free' }] }));
      },
      '/other-lesson.json': (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(otherLesson));
      },
    },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await host?.stop();
});

const EVENT_NAMES = [
  'prefill-trace-ready',
  'prefill-trace-error',
  'prefill-trace-scenario-change',
  'prefill-trace-answer',
  'prefill-trace-progress-reset',
];

/** Opens the test host with `params`; records events (heard on document), requests and page errors. */
async function openHost(t, params, { viewport = { width: 1024, height: 800 }, colorScheme = 'light', state = 'ready', initScript = null } = {}) {
  const context = await browser.newContext({ viewport, colorScheme });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  const requests = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().includes('favicon')) problems.push(`console error: ${m.text()}`);
  });
  page.on('request', (r) => requests.push(new URL(r.url()).pathname));
  await page.addInitScript((names) => {
    window.__events = [];
    for (const name of names) document.addEventListener(name, (e) => window.__events.push({ name, detail: e.detail }));
  }, EVENT_NAMES);
  if (initScript) await page.addInitScript(initScript);
  await page.goto(`${host.origin}/test-host.html?${new URLSearchParams(params)}`);
  await settled(page, state);
  return { page, problems, requests };
}

/** Waits for the element to settle after `action` (a new rendering sets data-state to loading first). */
async function settled(page, state = 'ready') {
  await page.waitForFunction(
    () => ['ready', 'error'].includes(document.querySelector('prefill-trace-lesson')?.getAttribute('data-state')),
    null,
    { timeout: 30_000 },
  );
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('data-state'), state);
}

const events = (page, name) => page.evaluate((n) => window.__events.filter((e) => e.name === n).map((e) => e.detail), name);
const count = (page, selector) => page.locator(selector).count();

test('view="lesson": the published lesson only; the charts module is never fetched', async (t) => {
  const { page, problems, requests } = await openHost(t, { view: 'lesson', 'lesson-src': `/${LESSON_PATH}` });
  assert.equal(await count(page, '#explorer'), 0);
  assert.equal(await count(page, 'form.quiz--generated'), 0);
  assert.equal(await count(page, 'section.lesson-section#mechanism'), 1);
  assert.equal(await count(page, '#check-0-question'), 1);
  // (build-site's app.js asks for the content-hashed name, a host's own bundle for the plain one)
  assert.ok(!requests.some((p) => /^\/chunks\/charts(-[0-9a-f]{16})?\.js$/.test(p)), requests.join(' '));
  // Progress counts this lesson's questions only: its one published check.
  assert.match(normalize(await page.locator('.progress').innerText()), /Answered correctly: 0 of 1 checks/);
  assert.deepEqual(await events(page, 'prefill-trace-ready'), [{ lessonId: 'prefill-resource-trace', view: 'lesson' }]);
  assert.deepEqual(problems, []);
});

test('view="explorer": the explorer and its checks only; no lesson file, equations or KaTeX fetched', async (t) => {
  const { page, problems, requests } = await openHost(t, { view: 'explorer', 'lesson-src': `/${LESSON_PATH}` });
  assert.equal(await count(page, '#explorer[data-state="ready"]'), 1);
  assert.ok((await count(page, 'form.quiz--generated')) >= 3);
  assert.equal(await count(page, 'section.lesson-section#mechanism'), 0);
  assert.equal(await count(page, '#check-0-question'), 0);
  const fetched = requests.filter((p) => p.startsWith('/lesson-data/') || p.startsWith('/katex/') || p === '/chunks/katex.js');
  assert.deepEqual(fetched, []);
  assert.deepEqual(await events(page, 'prefill-trace-ready'), [{ lessonId: 'prefill-resource-trace', view: 'explorer' }]);
  assert.deepEqual(problems, []);
});

test('view, lesson-src, theme and scenario changed after mount take effect in place', async (t) => {
  const { page, problems } = await openHost(t, { view: 'lesson', 'lesson-src': `/${LESSON_PATH}` });
  const el = page.locator('prefill-trace-lesson');

  // view: lesson -> explorer (a property, as React 19 sets it).
  await el.evaluate((node) => {
    node.view = 'explorer';
  });
  await settled(page);
  assert.equal(await count(page, '#explorer[data-state="ready"]'), 1);
  assert.equal(await count(page, 'section.lesson-section#mechanism'), 0);

  // scenario: the host's JSON text (the CLI --scenario format) reaches the explorer.
  await el.evaluate((node) => node.setAttribute('scenario', JSON.stringify({ prompt_tokens: 4096, batch: 2 })));
  await page.waitForFunction(() => {
    const text = document.querySelector('prefill-trace-lesson').shadowRoot.getElementById('explorer')?.dataset.scenario;
    return text && JSON.parse(text).prompt_tokens === 4096;
  });
  const shown = JSON.parse(await page.locator('#explorer').getAttribute('data-scenario'));
  assert.deepEqual(shown, { ...DEFAULT_SCENARIO, prompt_tokens: 4096, batch: 2 });
  assert.equal(await page.locator('#ctl-prompt').inputValue(), '4096');
  assert.deepEqual(JSON.parse(await el.evaluate((node) => node.scenario)), shown);

  // A scenario the explorer has no control for, and text that is not JSON: named errors, nothing changes.
  await el.evaluate((node) => {
    node.scenario = { delivery_seconds: 1 };
    node.setAttribute('scenario', '{"prompt_tokens": ');
  });
  const errors = await events(page, 'prefill-trace-error');
  assert.equal(errors.length, 2);
  assert.equal(errors[0].part, 'scenario');
  assert.match(errors[0].message, /^scenario \/delivery_seconds: the explorer has no control for this field/);
  assert.equal(errors[1].part, 'scenario');
  assert.match(errors[1].message, /^scenario: invalid JSON/);
  assert.equal(JSON.parse(await page.locator('#explorer').getAttribute('data-scenario')).prompt_tokens, 4096);

  // The reader's change: a scenario-change event with the scenario and the permalink query, and
  // the attribute follows.
  await page.locator('#ctl-batch').fill('3');
  await page.locator('#ctl-batch').dispatchEvent('change');
  await page.waitForFunction(() => window.__events.some((e) => e.name === 'prefill-trace-scenario-change'));
  const [change] = await events(page, 'prefill-trace-scenario-change');
  assert.deepEqual(change.scenario, { ...DEFAULT_SCENARIO, prompt_tokens: 4096, batch: 3 });
  const query = new URLSearchParams(change.query);
  assert.equal(query.get('prompt'), '4096');
  assert.equal(query.get('batch'), '3');
  assert.deepEqual(JSON.parse(await el.getAttribute('scenario')), change.scenario);

  // view: explorer -> full keeps the scenario.
  await el.evaluate((node) => node.setAttribute('view', 'full'));
  await settled(page);
  assert.equal(await count(page, 'section.lesson-section#mechanism'), 1);
  assert.equal(JSON.parse(await page.locator('#explorer').getAttribute('data-scenario')).batch, 3);

  // theme: light -> dark restyles at once (no new rendering).
  const background = () => page.locator('.ptl').evaluate((n) => getComputedStyle(n).backgroundColor);
  assert.equal(await background(), 'rgb(252, 252, 250)'); // #fcfcfa
  await el.evaluate((node) => {
    node.theme = 'dark';
  });
  assert.equal(await background(), 'rgb(13, 21, 28)'); // #0d151c, the Atlas background
  assert.equal(await el.getAttribute('data-state'), 'ready');

  // lesson-src: another lesson renders as a lesson, with its history, and no explorer.
  await el.evaluate((node) => {
    node.lessonSrc = '/other-lesson.json';
  });
  await settled(page);
  assert.equal(normalize(await page.locator('h1').innerText()), 'Out-of-order CPU pipeline');
  assert.equal(await count(page, '#explorer'), 0);
  assert.equal(await count(page, 'form.quiz--generated'), 0);
  assert.match(normalize(await page.locator('#history').innerText()), /1967 Tomasulo’s algorithm Dynamic scheduling/);
  assert.match(normalize(await page.locator('.progress').innerText()), /Answered correctly: 0 of 1 checks/);
  const ready = await events(page, 'prefill-trace-ready');
  assert.deepEqual(ready.at(-1), { lessonId: 'out-of-order-cpu-pipeline', view: 'full' });
  assert.deepEqual(problems, []);
});

test('custom properties from the host take effect; ::part names reach the parts', async (t) => {
  const { page, problems } = await openHost(t, { 'lesson-src': `/${LESSON_PATH}` });
  const style = (selector, property) => page.locator(selector).first().evaluate((n, p) => getComputedStyle(n)[p], property);
  // Without a token: the focus ring is the accent (the links' colour), not the error red of an
  // invalid field (the light theme's #a12a1c), and headings are bold.
  await page.locator('[data-action="reset"]').focus();
  const ring = await style('[data-action="reset"]', 'outlineColor');
  assert.equal(ring, await style('.ptl a', 'color'));
  assert.notEqual(ring, await style('.field-error', 'color'));
  assert.equal(await style('#mechanism h2', 'fontWeight'), '700');
  await page.addStyleTag({
    content: `
      prefill-trace-lesson { --ptl-bg: rgb(1, 2, 3); --ptl-fg: rgb(250, 240, 230); --ptl-muted: rgb(200, 201, 202);
        --ptl-accent: rgb(10, 200, 100); --ptl-font: Georgia, serif; --ptl-mono-font: "DejaVu Sans Mono", monospace;
        --ptl-radius: 11px; --ptl-focus: rgb(7, 7, 7); --ptl-heading-weight: 400; --ptl-body-size: 14px;
        --ptl-body-fg: rgb(180, 181, 182); }
      prefill-trace-lesson::part(lesson) { outline: 1px solid rgb(9, 9, 1); }
      prefill-trace-lesson::part(explorer) { outline: 1px solid rgb(9, 9, 2); }
      prefill-trace-lesson::part(controls) { outline: 1px solid rgb(9, 9, 3); }
      prefill-trace-lesson::part(charts) { outline: 1px solid rgb(9, 9, 4); }
      prefill-trace-lesson::part(checks) { outline: 1px solid rgb(9, 9, 5); }`,
  });
  assert.equal(await style('.ptl', 'backgroundColor'), 'rgb(1, 2, 3)');
  assert.equal(await style('.ptl', 'color'), 'rgb(250, 240, 230)');
  assert.equal(await style('.eyebrow', 'color'), 'rgb(200, 201, 202)');
  assert.equal(await style('.ptl a', 'color'), 'rgb(10, 200, 100)');
  assert.equal(await style('.ptl', 'fontFamily'), 'Georgia, serif');
  assert.equal(await style('code', 'fontFamily'), '"DejaVu Sans Mono", monospace');
  assert.equal(await style('.controls', 'borderTopLeftRadius'), '13px'); // --radius + 2px
  assert.equal(await style('.button', 'borderTopLeftRadius'), '11px');
  assert.equal(await style('[data-action="reset"]', 'outlineColor'), 'rgb(7, 7, 7)');
  assert.equal(await style('#mechanism h2', 'fontWeight'), '400');
  // Running text takes the body size and colour; headings keep the text colour, hints their own.
  assert.equal(await style('article.lesson', 'fontSize'), '14px');
  assert.equal(await style('#mechanism > p', 'color'), 'rgb(180, 181, 182)');
  assert.equal(await style('#mechanism h2', 'color'), 'rgb(250, 240, 230)');
  assert.equal(await style('.hint', 'color'), 'rgb(200, 201, 202)');
  // header="none": the host shows the title; the element's title, trail and Atlas link go.
  const shown = (selector) => page.locator(selector).first().isVisible();
  assert.deepEqual([await shown('h1'), await shown('.eyebrow'), await shown('.self-link')], [true, true, true]);
  await page.locator('prefill-trace-lesson').evaluate((el) => {
    el.header = 'none';
  });
  assert.equal(await page.locator('prefill-trace-lesson').getAttribute('header'), 'none');
  assert.deepEqual([await shown('h1'), await shown('.eyebrow'), await shown('.self-link'), await shown('.lead')], [false, false, false, true]);
  assert.equal(await style('article.lesson', 'outlineColor'), 'rgb(9, 9, 1)');
  assert.equal(await style('#explorer', 'outlineColor'), 'rgb(9, 9, 2)');
  assert.equal(await style('.explorer-controls', 'outlineColor'), 'rgb(9, 9, 3)');
  assert.equal(await style('.charts-block', 'outlineColor'), 'rgb(9, 9, 4)');
  assert.equal(await style('#check', 'outlineColor'), 'rgb(9, 9, 5)');
  assert.deepEqual(problems, []);
});

/** WCAG 2 contrast ratio of two "rgb(r, g, b)" colours (relative luminance, sRGB). */
function contrast(a, b) {
  const luminance = (rgb) => {
    const [r, g, bl] = rgb.match(/\d+/g).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('the dark theme (forced, and auto under a dark preference) passes WCAG AA for its text', async (t) => {
  for (const [params, colorScheme] of [
    [{ theme: 'dark' }, 'light'],
    [{}, 'dark'],
  ]) {
    const { page, problems } = await openHost(t, { ...params, 'lesson-src': `/${LESSON_PATH}` }, { colorScheme });
    const colours = await page.locator('.ptl').evaluate((root) => {
      const read = (sel, prop = 'color') => getComputedStyle(root.querySelector(sel))[prop];
      return {
        bg: getComputedStyle(root).backgroundColor,
        text: getComputedStyle(root).color,
        muted: read('.eyebrow'),
        link: read('a'),
        surface: read('.controls', 'backgroundColor'),
        hint: read('.controls .hint'),
        button: read('.button', 'backgroundColor'),
        buttonText: read('.button'),
        objective: read('#objective', 'backgroundColor'),
      };
    });
    assert.equal(colours.bg, 'rgb(13, 21, 28)', JSON.stringify(params));
    // AA: 4.5:1 for body text. (The palette's ratios by hand: #e1eaf0 on #0d151c ≈ 15.3,
    // #9aafbe on #0d151c ≈ 8.1 and on #152029 ≈ 7.3, #91e5d6 on #0d151c ≈ 12.6.)
    for (const [fg, bg] of [
      ['text', 'bg'],
      ['muted', 'bg'],
      ['link', 'bg'],
      ['hint', 'surface'],
      ['text', 'surface'],
      ['buttonText', 'button'],
      ['text', 'objective'],
    ]) {
      const ratio = contrast(colours[fg], colours[bg]);
      assert.ok(ratio >= 4.5, `${fg} ${colours[fg]} on ${bg} ${colours[bg]}: ${ratio.toFixed(2)}`);
    }
    assert.deepEqual(problems, []);
  }
});

test('storage="none": nothing in localStorage; answers reported by events and handed back through progress', async (t) => {
  const { page, problems } = await openHost(t, { view: 'lesson', storage: 'none', 'lesson-src': `/${LESSON_PATH}` });
  await page.locator('input[name="check-0-choice"]').nth(lesson.check.answer).check();
  await page.locator('form.quiz', { has: page.locator('#check-0-question') }).getByRole('button', { name: 'Check answer' }).click();
  await page.locator('#check-0-feedback').getByText(/^Correct$/).waitFor();
  const [answer] = await events(page, 'prefill-trace-answer');
  assert.match(answer.questionKey, /^[0-9a-f]{64}$/);
  assert.equal(answer.correct, true);
  assert.equal(answer.answer, lesson.check.answer);
  assert.equal(await page.evaluate(() => localStorage.length), 0, 'nothing written to localStorage');
  const progress = await page.locator('prefill-trace-lesson').evaluate((node) => node.progress);
  assert.deepEqual(progress, { [answer.questionKey]: { answer: lesson.check.answer, correct: true } });

  // A new element, handed the host's progress before it mounts, shows the answer again.
  await page.evaluate(
    ({ saved, src }) => {
      document.querySelector('prefill-trace-lesson').remove();
      const el = document.createElement('prefill-trace-lesson');
      el.setAttribute('view', 'lesson');
      el.setAttribute('storage', 'none');
      el.setAttribute('lesson-src', src);
      el.progress = saved;
      document.body.append(el);
    },
    { saved: progress, src: `/${LESSON_PATH}` },
  );
  await settled(page);
  await page.locator('#check-0-feedback').getByText(/^Correct$/).waitFor();
  assert.match(normalize(await page.locator('.progress').innerText()), /Answered correctly: 1 of 1 checks/);
  // Restoring is not a new answer: no second event.
  assert.equal((await events(page, 'prefill-trace-answer')).length, 1);
  assert.equal(await page.evaluate(() => localStorage.length), 0);
  assert.deepEqual(problems, []);
});

test('the progress line says where answers are kept, in each storage mode and view', async (t) => {
  const KEPT_HERE = /Your answers are kept in this browser only\./;
  const HOST_KEEPS = /This lesson does not store your answers; the site showing it may keep them\./;
  const { page, problems } = await openHost(t, { view: 'lesson', storage: 'none', 'lesson-src': `/${LESSON_PATH}` });
  const line = async () => normalize(await page.locator('.progress').innerText());
  let text = await line();
  assert.match(text, HOST_KEEPS);
  assert.doesNotMatch(text, KEPT_HERE); // false under storage="none": nothing is written
  await page.locator('.progress').screenshot({ path: path.join(artifacts, 'embed-storage-none-progress.png') });

  // The explorer view builds its own progress line (the generated checks').
  await page.locator('prefill-trace-lesson').evaluate((el) => el.setAttribute('view', 'explorer'));
  await settled(page);
  await page.locator('.progress').waitFor();
  assert.match(await line(), HOST_KEEPS);

  // storage="local" (the default) keeps them in localStorage: the note says so.
  await page.locator('prefill-trace-lesson').evaluate((el) => {
    el.setAttribute('view', 'lesson');
    el.setAttribute('storage', 'local');
  });
  await settled(page);
  text = await line();
  assert.match(text, KEPT_HERE);
  assert.doesNotMatch(text, HOST_KEEPS);
  assert.deepEqual(problems, []);
});

test('storage="local" where the browser cannot store: the progress line does not promise to keep answers', async (t) => {
  const KEPT_HERE = /Your answers are kept in this browser only\./;
  const NOT_KEPT = /Your answers are not kept: this browser does not let the page store them\./;
  const answerPublishedCheck = async (page) => {
    await page.locator('input[name="check-0-choice"]').nth(lesson.check.answer).check();
    await page.locator('form.quiz', { has: page.locator('#check-0-question') }).getByRole('button', { name: 'Check answer' }).click();
    await page.locator('#check-0-feedback').getByText(/^Correct$/).waitFor();
  };
  const line = async (page) => normalize(await page.locator('.progress').innerText());

  // Storage disabled (Chromium with site data blocked): reading window.localStorage throws a
  // SecurityError. The first read of saved answers finds out, before any answer is given.
  {
    const { page, problems } = await openHost(t, { view: 'lesson', 'lesson-src': `/${LESSON_PATH}` }, {
      initScript: () => Object.defineProperty(window, 'localStorage', {
        get() { throw new DOMException('The document is sandboxed', 'SecurityError'); },
      }),
    });
    await page.locator('.progress').getByText(NOT_KEPT).waitFor();
    await answerPublishedCheck(page); // still checked, only not remembered
    assert.match(await line(page), /Answered correctly: 1 of 1 checks/);
    assert.doesNotMatch(await line(page), KEPT_HERE);
    assert.deepEqual(problems, []);
  }
  // Storage full (or Safari's private mode of old): reading works, every write throws
  // QuotaExceededError. The line promises until the first write fails, then says so.
  {
    const { page, problems } = await openHost(t, { view: 'lesson', 'lesson-src': `/${LESSON_PATH}` }, {
      initScript: () => {
        Storage.prototype.setItem = () => { throw new DOMException('quota', 'QuotaExceededError'); };
      },
    });
    await answerPublishedCheck(page);
    await page.locator('.progress').getByText(NOT_KEPT).waitFor();
    assert.equal(await page.evaluate(() => localStorage.length), 0);
    assert.deepEqual(problems, []);
  }
});

test('asset-base: every file the element fetches comes from the folder it names; its code comes with app.js', async (t) => {
  // app.js itself is served from / here; without asset-base its assets would come from / too.
  const { page, problems, requests } = await openHost(t, { 'asset-base': '/elsewhere/', 'lesson-src': `/elsewhere/${LESSON_PATH}` });
  await page.locator('.equation-math:not(.equation-math--pending)').first().waitFor();
  const assets = requests.filter((p) => /\/(wasm|chunks|katex|lesson-data)\/|\/style\.css$/.test(p));
  for (const expected of ['/elsewhere/style.css', '/elsewhere/wasm/prefill_trace.wasm', '/elsewhere/katex/katex.min.css',
    '/elsewhere/lesson-data/prefill-resource-trace.equations.json']) {
    assert.ok(assets.includes(expected), `${expected} in ${assets.join(' ')}`);
  }
  // Modules are imported by literal addresses beside app.js (what a bundler follows; a host that
  // bundles app.js bundles them too): the engine's ES module and the two chunks, by build-site's
  // content-hashed names.
  const code = (p) => /\.m?js$/.test(p);
  assert.deepEqual(assets.filter(code).map((p) => p.replace(/-[0-9a-f]{16}\.js$/, '.js')).sort(),
    ['/chunks/charts.js', '/chunks/katex.js', '/wasm/prefill_trace.mjs']);
  assert.deepEqual(assets.filter((p) => !code(p) && !p.startsWith('/elsewhere/')), []);
  assert.deepEqual(problems, []);
});

test('another lesson with the host’s equation pack (equations-src): its own LaTeX is typeset', async (t) => {
  const { page, problems } = await openHost(t, { view: 'lesson', 'lesson-src': '/other-lesson.json', 'equations-src': '/other-equations.json' });
  await page.locator('.equation-math .katex').first().waitFor();
  assert.match(normalize(await page.locator('.equation-reading').first().innerText()), /^issue time is the later of ready and free$/);
  // KaTeX's MathML carries the source: the lesson's own LaTeX, not the prefill equation.
  const annotation = await page.locator('annotation[encoding="application/x-tex"]').first().textContent();
  assert.equal(annotation.trim(), 'T_{issue} = \\max(T_{ready}, T_{free})');
  assert.equal(await count(page, '#explorer'), 0);
  assert.deepEqual(problems, []);
});

test('view="explorer" with a published file name of another lesson: no explorer, an error, nothing fetched', async (t) => {
  const src = '/lesson-data/out-of-order-cpu-pipeline-0123456789abcdef.json';
  const { page, problems, requests } = await openHost(t, { view: 'explorer', 'lesson-src': src }, { state: 'error' });
  assert.equal(await count(page, '#explorer'), 0);
  assert.equal(
    normalize(await page.locator('.page-error').innerText()),
    'There is no explorer for this lesson The explorer belongs to the lesson prefill-resource-trace; lesson-src names out-of-order-cpu-pipeline.',
  );
  assert.deepEqual(await events(page, 'prefill-trace-error'), [
    {
      part: 'explorer',
      message: 'The explorer belongs to the lesson prefill-resource-trace; lesson-src names out-of-order-cpu-pipeline.',
    },
  ]);
  assert.ok(!requests.includes(src), 'the lesson file is not fetched in the explorer view');
  assert.deepEqual(problems, []);
});
