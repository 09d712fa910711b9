// The element inside an Atlas-like host (issue 11, item 8): tests/hosts/atlas-like, a React 19
// app built with Vite that bundles the element (its assets under /prefill-trace/ through the
// static asset base), a strict CSP with Trusted Types, the lesson in a 375 px dark inspector,
// the explorer in a ~1 270 px lab modal, the host owning the hash route and the progress.
// The host is type-checked (tsc: the element's tag, attributes and events) and built first.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { DEFAULT_SCENARIO, LESSON_PATH, artifacts, assertSiteBuilt, launchChromium, normalize, repo, site, watchForProblems } from './helpers.mjs';
import { startHostServer } from './host-server.mjs';

const run = promisify(execFile);
const hostDir = path.join(repo, 'tests/hosts/atlas-like');
const hostBuild = path.join(repo, 'build/hosts/atlas-like');
const lesson = JSON.parse(await readFile(path.join(site, LESSON_PATH), 'utf8'));

/** Another Atlas lesson, served by the host itself. */
const otherLesson = {
  ...lesson,
  id: 'out-of-order-cpu-pipeline',
  name: 'Out-of-order CPU pipeline',
  history: [
    {
      year: '1967',
      title: 'Tomasulo’s algorithm',
      significance: 'Instructions issue in order and execute when their operands are ready.',
      source: { title: 'IBM Journal of Research and Development', url: 'https://example.com/tomasulo' },
    },
  ],
};

let host;
let browser;

before(async () => {
  assertSiteBuilt();
  const bin = (name) => path.join(repo, 'node_modules/.bin', name);
  // Type-check first: the element's typings (bindings/prefill-trace-lesson*.d.ts) must accept
  // the host's use and refuse a wrong value (an @ts-expect-error in App.tsx).
  await run(bin('tsc'), ['-p', path.join(hostDir, 'tsconfig.json')], { cwd: repo });
  await run(bin('vite'), ['build', '--config', path.join(hostDir, 'vite.config.mjs')], { cwd: repo });
  host = await startHostServer({
    root: hostBuild,
    mounts: { '/prefill-trace/': site },
    routes: {
      '/lesson-data/out-of-order-cpu-pipeline.json': (req, res) => {
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

/** Opens the host at `hash`; records console errors, CSP violations and off-origin requests. */
async function openHost(t, hash, viewport) {
  const context = await browser.newContext({ viewport, colorScheme: 'dark' });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = await watchForProblems(page, host.origin, {
    ignoreHttpError: (url) => url.endsWith('/favicon.ico'),
  });
  await page.goto(`${host.origin}/${hash}`);
  return { page, problems };
}

async function settled(page, testid, state = 'ready') {
  const selector = `prefill-trace-lesson[data-testid="${testid}"]`;
  await page.waitForFunction(
    (sel) => ['ready', 'error'].includes(document.querySelector(sel)?.getAttribute('data-state')),
    selector,
    { timeout: 30_000 },
  );
  assert.equal(await page.locator(selector).getAttribute('data-state'), state, selector);
  return page.locator(selector);
}

const hostEvents = (page, name) =>
  page.evaluate((n) => window.__hostEvents.filter((e) => e.name === n).map((e) => e.detail), name);

/** Elements of the shadow tree (outside scrolling boxes) that reach past the element's right edge. */
function overflowing(element) {
  return element.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    const inScroller = (n) => {
      for (let p = n.parentElement; p && p !== el; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true;
      }
      return false;
    };
    return [...el.shadowRoot.querySelectorAll('*')]
      .filter((n) => !inScroller(n))
      .map((n) => [n, n.getBoundingClientRect()])
      .filter(([, b]) => b.width > 0 && b.right > right + 0.5)
      .map(([n, b]) => `${n.tagName.toLowerCase()}.${[...n.classList].join('.')} ends at ${b.right.toFixed(1)} > ${right.toFixed(1)}`);
  });
}

/** The inspector's or a modal's box and an element's, in viewport pixels. */
const box = (locator) => locator.boundingBox();
/** Whether `inner` lies inside `outer` (within half a pixel). */
const inside = (inner, outer) =>
  inner.x >= outer.x - 0.5 && inner.y >= outer.y - 0.5 && inner.x + inner.width <= outer.x + outer.width + 0.5 && inner.y + inner.height <= outer.y + outer.height + 0.5;
/** What the reader sees at (x, y): the topmost element there, looked up through the lesson's shadow root. */
const topmostAt = (page, x, y) =>
  page.evaluate(([px, py]) => {
    let node = document.elementFromPoint(px, py);
    while (node?.shadowRoot) {
      const inner = node.shadowRoot.elementFromPoint(px, py);
      if (!inner || inner === node) break;
      node = inner;
    }
    const host = node?.getRootNode().host;
    return {
      host: host?.dataset.testid ?? null,
      inModal: Boolean((host ?? node)?.closest('.modal-backdrop')),
      inDock: Boolean(node?.closest('.explorer-controls')),
      inResults: Boolean(node?.closest('.explorer-results')),
    };
  }, [x, y]);

for (const width of [320, 375]) {
  test(`a ${width} px phone: the lesson and the explorer fit; Edit at the end of the explorer opens the controls in view`, async (t) => {
    const { page, problems } = await openHost(t, '#prefill-resource-trace', { width, height: 740 });
    const element = await settled(page, 'inspector-lesson');
    assert.deepEqual(await overflowing(element), []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the page does not scroll sideways');
    await page.screenshot({ path: path.join(artifacts, `atlas-host-${width}-lesson.png`), fullPage: true });
    // The inspector's Explore tab: the explorer in the same narrow column.
    await page.getByRole('tab', { name: 'Explore' }).click();
    await settled(page, 'inspector-lesson');
    assert.equal(await page.locator('#explorer[data-state="ready"]').count(), 1);
    assert.deepEqual(await overflowing(element), []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth));
    await element.locator('#explorer').screenshot({ path: path.join(artifacts, `atlas-host-${width}-explorer.png`) });

    // The end of the explorer: its last chart's end 150 px below the top of the screen (the
    // page scrolls: on a phone the inspector is part of it). The bar is stuck at the top.
    await page.evaluate(() => {
      const explorer = document.querySelector('[data-testid="inspector-lesson"]').shadowRoot.getElementById('explorer');
      window.scrollBy(0, explorer.querySelector('.charts').getBoundingClientRect().bottom - 150);
    });
    const bar = element.locator('.scenario-bar');
    const edit = await box(bar);
    assert.ok(edit.y >= 0 && edit.y < 20, `the bar is at the top of the screen (y = ${edit.y})`);
    await bar.click();
    assert.equal(await bar.getAttribute('aria-expanded'), 'true');
    // Done stays where Edit was, on screen; the sheet under it is on screen, inside the
    // element, and leaves results visible below it.
    const done = await box(bar);
    const sheet = await box(element.locator('form.controls'));
    const screen = { x: 0, y: 0, width, height: 740 };
    assert.match(normalize(await bar.innerText()), /Done$/);
    assert.ok(inside(done, screen), `Done is on screen (${JSON.stringify(done)})`);
    assert.ok(inside(sheet, screen), `the sheet is on screen (${JSON.stringify(sheet)})`);
    assert.ok(inside(sheet, await box(element)), 'the sheet is inside the element');
    assert.ok(740 - (sheet.y + sheet.height) >= 150, `at least 150 px of the screen below the sheet (${740 - sheet.y - sheet.height})`);
    const below = await topmostAt(page, width / 2, sheet.y + sheet.height + 40);
    assert.equal(below.host, 'inspector-lesson', 'below the sheet: the lesson');
    assert.equal(below.inDock, false, 'below the sheet: not the controls');
    // Every tap target in the sheet and the bar is at least 40 px tall.
    const small = await element.locator('form.controls :is(input, select, button), .scenario-bar').evaluateAll((nodes) =>
      nodes.map((n) => [n.id || n.className || n.tagName, n.getBoundingClientRect().height]).filter(([, h]) => h > 0 && h < 40),
    );
    assert.deepEqual(small, [], 'tap targets under 40 px');
    await page.screenshot({ path: path.join(artifacts, `atlas-host-${width}-explorer-edit.png`) });
    // A tap outside the sheet (on the results below it) closes it.
    await page.mouse.click(width / 2, sheet.y + sheet.height + 40);
    assert.equal(await bar.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(problems, []);
  });
}

// The Atlas's inspector is 375 px wide, and 295 px at viewports of 801-1000 px.
for (const [width, viewport] of [
  [295, { width: 900, height: 800 }],
  [375, { width: 1440, height: 900 }],
]) {
  test(`the ${width} px inspector: Explore's controls open inside the inspector; a lab opened from Explore covers all of it`, async (t) => {
    const { page, problems } = await openHost(t, '#prefill-resource-trace', viewport);
    const element = await settled(page, 'inspector-lesson');
    const inspector = page.locator('aside.inspector');
    const panel = await box(inspector);
    assert.ok(Math.abs(panel.width - width) <= 0.5, `the inspector is ${width} px wide (${panel.width})`);
    await page.getByRole('tab', { name: 'Explore' }).click();
    await settled(page, 'inspector-lesson');
    assert.deepEqual(await overflowing(element), [], 'nothing reaches past the inspector');

    // No value reaches past its row: a FLOP count in full digits moves under its name. Also at
    // the reader's default 16 px, which a host without --ptl-body-size gives the text.
    const widerThanRow = () =>
      element.locator('.fact').evaluateAll((rows) => rows.filter((n) => n.scrollWidth > n.clientWidth + 0.5).map((n) => n.textContent));
    assert.deepEqual(await widerThanRow(), []);
    await element.evaluate((el) => el.style.setProperty('--ptl-body-size', '16px'));
    assert.deepEqual(await widerThanRow(), [], 'at 16 px');
    await element.evaluate((el) => el.style.removeProperty('--ptl-body-size'));

    // Scrolled into the results: the bar sticks to the inspector's top edge, with nothing of
    // the text scrolling under it showing above it (the inspector has 16 px of padding).
    await element.locator('#chart-memory').scrollIntoViewIfNeeded();
    const bar = element.locator('.scenario-bar');
    const top = await topmostAt(page, panel.x + width / 2, panel.y + 2);
    assert.ok(top.inDock, `the top row of the inspector shows the bar's strip, not the results (${JSON.stringify(top)})`);

    // Edit: the controls open inside the inspector's box; the stage and navigator stay uncovered.
    await bar.click();
    assert.equal(await bar.getAttribute('aria-expanded'), 'true');
    const sheet = await box(element.locator('form.controls'));
    assert.ok(inside(sheet, panel), `the controls stay inside the inspector (${JSON.stringify(sheet)} in ${JSON.stringify(panel)})`);
    const stage = await box(page.locator('section.stage'));
    assert.equal((await topmostAt(page, stage.x + stage.width / 2, stage.y + stage.height / 2)).host, null, 'the stage is not covered');
    await page.screenshot({ path: path.join(artifacts, `atlas-host-inspector-${width}-edit.png`) });
    // Escape closes them and gives the focus back to the bar.
    await page.keyboard.press('Escape');
    assert.equal(await bar.getAttribute('aria-expanded'), 'false');
    assert.equal(await element.evaluate((el) => el.shadowRoot.activeElement?.className), 'scenario-bar');
    // Open again; a tap on the stage (outside the element) closes them.
    await bar.click();
    await page.mouse.click(stage.x + 20, stage.y + stage.height - 20);
    assert.equal(await bar.getAttribute('aria-expanded'), 'false');

    // The lab, opened from Explore: nothing of the inspector (its sticky bar) paints over the
    // modal; a grid of points over the inspector all land in the modal's backdrop.
    await page.getByTestId('open-lab').click();
    const lab = await settled(page, 'lab-lesson');
    for (let y = panel.y + 4; y < panel.y + panel.height; y += 40) {
      for (const x of [panel.x + 4, panel.x + width / 2, panel.x + width - 4]) {
        const at = await topmostAt(page, x, y);
        assert.ok(at.inModal, `(${x}, ${y}) over the inspector shows ${JSON.stringify(at)}, not the modal`);
      }
    }
    // The lab's sticky controls (beside the results when the modal is wide) fit the modal once
    // it is scrolled into the results: their own scroll bar, down to Download, is in view.
    const modal = await box(page.locator('.atlas-modal'));
    await lab.locator('#chart-memory').scrollIntoViewIfNeeded();
    if ((await lab.locator('.explorer-controls').evaluate((n) => getComputedStyle(n).position)) === 'sticky') {
      assert.ok(inside(await box(lab.locator('.explorer-controls')), modal), 'the controls of the lab fit the modal');
    }
    await page.screenshot({ path: path.join(artifacts, `atlas-host-inspector-${width}-lab.png`) });
    assert.deepEqual(problems, []);
  });
}

test('the desktop inspector (375 px, dark): the lesson only, ready event, answers kept by the host', async (t) => {
  const { page, problems } = await openHost(t, '#prefill-resource-trace', { width: 1440, height: 900 });
  const element = await settled(page, 'inspector-lesson');
  const box = await element.boundingBox();
  assert.ok(Math.abs(box.width - 374) <= 1, `the inspector column is 375 px with its border (${box.width})`);
  assert.equal(await element.locator('#explorer').count(), 0, 'view="lesson": no explorer');
  assert.deepEqual(await overflowing(element), []);
  // The Atlas's dark palette, on the host's inspector surface (--ptl-bg).
  const colours = await element.locator('.ptl').evaluate((n) => [getComputedStyle(n).backgroundColor, getComputedStyle(n).color]);
  assert.deepEqual(colours, ['rgb(14, 23, 31)', 'rgb(225, 234, 240)']); // #0e171f, #e1eaf0
  // The Atlas's type (host.css): Georgia headings at normal weight, 14 px body text in the
  // inspector's muted #a8bbc9; and header="none": the host shows the title, so the element's
  // own title, trail and link to the Atlas are hidden (its lead stays).
  const css = (selector, ...names) => element.locator(selector).first().evaluate((n, ps) => ps.map((p) => getComputedStyle(n)[p]), names);
  assert.deepEqual(await css('#mechanism h2', 'fontWeight', 'fontFamily'), ['400', 'Georgia, serif']);
  assert.deepEqual(await css('#mechanism > p', 'fontSize', 'color'), ['14px', 'rgb(168, 187, 201)']);
  for (const hidden of ['.lesson-header h1', '.lesson-header .eyebrow', '.lesson-header .self-link']) {
    assert.equal(await element.locator(hidden).isVisible(), false, `${hidden} is hidden`);
  }
  assert.equal(await element.locator('.lesson-header .lead').isVisible(), true);
  assert.deepEqual(await hostEvents(page, 'prefill-trace-ready'), [{ lessonId: 'prefill-resource-trace', view: 'lesson' }]);
  await page.screenshot({ path: path.join(artifacts, 'atlas-host-1440-inspector.png') });

  // An answer: reported to the host, stored under the host's key, never by the element.
  await element.locator('input[name="check-0-choice"]').nth(lesson.check.answer).check();
  await element.locator('form.quiz', { has: page.locator('#check-0-question') }).getByRole('button', { name: 'Check answer' }).click();
  await page.getByTestId('answered').getByText('1 answered').waitFor();
  const [answer] = await hostEvents(page, 'prefill-trace-answer');
  assert.equal(answer.correct, true);
  assert.equal(answer.answer, lesson.check.answer);
  const stored = await page.evaluate(() => ({ ...localStorage }));
  assert.deepEqual(Object.keys(stored), ['atlas-like:learning']);
  assert.deepEqual(JSON.parse(stored['atlas-like:learning']), { [answer.questionKey]: { answer: lesson.check.answer, correct: true } });

  // A reload: the host hands the answer back (progress) and the check shows it again.
  await page.reload();
  await settled(page, 'inspector-lesson');
  await element.locator('#check-0-feedback').getByText(/^Correct$/).waitFor();
  assert.deepEqual(await hostEvents(page, 'prefill-trace-answer'), [], 'restoring is not a new answer');
  assert.deepEqual(problems, []);
});

test('the lab modal: the explorer at ~1 270 px; scenario, theme and view changed by the host take effect', async (t) => {
  const { page, problems } = await openHost(t, '#prefill-resource-trace', { width: 1440, height: 900 });
  await settled(page, 'inspector-lesson');
  await page.getByTestId('open-lab').click();
  assert.equal(new URL(page.url()).hash, '#prefill-resource-trace/lab', 'the host owns the hash route');
  const lab = await settled(page, 'lab-lesson');
  const box = await lab.boundingBox();
  assert.ok(box.width > 1150 && box.width <= 1270, `the lab is about 1 270 px wide (${box.width})`);
  assert.equal(await lab.locator('#explorer[data-state="ready"]').count(), 1);
  assert.equal(await lab.locator('section.lesson-section#mechanism').count(), 0, 'view="explorer": no lesson text');
  assert.deepEqual(await overflowing(lab), []);
  await page.screenshot({ path: path.join(artifacts, 'atlas-host-1440-lab.png') });

  // The reader changes the batch: the host hears the scenario and the permalink query.
  await lab.locator('#ctl-batch').fill('4');
  await lab.locator('#ctl-batch').dispatchEvent('change');
  await page.waitForFunction(() => window.__hostEvents.some((e) => e.name === 'prefill-trace-scenario-change'));
  const [change] = await hostEvents(page, 'prefill-trace-scenario-change');
  assert.deepEqual(change.scenario, { ...DEFAULT_SCENARIO, batch: 4 });
  assert.equal(new URLSearchParams(change.query).get('batch'), '4');
  assert.ok(new URL(page.url()).hash === '#prefill-resource-trace/lab', 'the element leaves the URL to the host');

  // The host sets a scenario (React re-renders with a new `scenario` prop). Its buttons sit
  // under the modal's backdrop: pressed by script, as the host's own code would.
  const press = (testid) => page.getByTestId(testid).evaluate((button) => button.click());
  await press('long-prompt');
  await page.waitForFunction(() => {
    const text = document.querySelector('[data-testid="lab-lesson"]').shadowRoot.getElementById('explorer').dataset.scenario;
    return JSON.parse(text).prompt_tokens === 8192;
  });
  assert.deepEqual(JSON.parse(await lab.locator('#explorer').getAttribute('data-scenario')), { ...DEFAULT_SCENARIO, prompt_tokens: 8192 });

  // The host switches the theme: light, then dark again, in place.
  const text = () => lab.locator('.ptl').evaluate((n) => getComputedStyle(n).color);
  await press('theme');
  assert.equal(await text(), 'rgb(27, 30, 35)'); // #1b1e23, the light theme's text
  await press('theme');
  assert.equal(await text(), 'rgb(225, 234, 240)');
  await page.getByTestId('close-lab').click();
  // React commits the close after the click event returns: wait for the modal to leave (a
  // modal that never closes still fails, after 5 s). Read at once, it flaked once in CI.
  await page.locator('[data-testid="lab-lesson"]').waitFor({ state: 'detached', timeout: 5000 });

  // The inspector's view, changed after mount: lesson -> explorer (keeps the host's scenario).
  const inspector = page.locator('[data-testid="inspector-lesson"]');
  await page.getByRole('tab', { name: 'Explore' }).click();
  await settled(page, 'inspector-lesson');
  assert.equal(JSON.parse(await inspector.locator('#explorer').getAttribute('data-scenario')).prompt_tokens, 8192);
  assert.deepEqual(
    (await hostEvents(page, 'prefill-trace-ready')).map((d) => d.view),
    ['lesson', 'explorer', 'explorer'],
    'ready: the inspector, the lab, the inspector again',
  );
  assert.deepEqual(problems, []);
});

test('another lesson (a hash route of the host): rendered as a lesson, with its history, and no explorer', async (t) => {
  const { page, problems } = await openHost(t, '#prefill-resource-trace', { width: 1440, height: 900 });
  const element = await settled(page, 'inspector-lesson');
  await page.evaluate(() => {
    location.hash = '#out-of-order-cpu-pipeline';
  });
  await page.waitForFunction(
    () => document.querySelector('[data-testid="inspector-lesson"]').shadowRoot.querySelector('h1')?.textContent === 'Out-of-order CPU pipeline',
  );
  await settled(page, 'inspector-lesson');
  assert.equal(await element.locator('#explorer').count(), 0);
  assert.equal(await element.locator('form.quiz--generated').count(), 0);
  assert.match(normalize(await element.locator('#history').innerText()), /^History 1967 Tomasulo’s algorithm/);
  assert.match(normalize(await element.locator('.progress').innerText()), /Answered correctly: 0 of 1 checks/);
  assert.equal(await page.getByTestId('open-lab').count(), 0, 'the host offers no lab for it');
  assert.deepEqual((await hostEvents(page, 'prefill-trace-ready')).at(-1), { lessonId: 'out-of-order-cpu-pipeline', view: 'lesson' });
  await page.screenshot({ path: path.join(artifacts, 'atlas-host-1440-other-lesson.png') });
  assert.deepEqual(problems, []);
});

// The host enforces Trusted Types and names the element's one policy (`trusted-types
// prefill-trace`, as README's strict CSP): "Under load" simulates in its Worker, with no CSP
// violation or console error. At 0.05 requests/s (the under-load test's light load) the run is short.
test('the lab modal under Trusted Types: the simulation runs in a Worker, no console error', async (t) => {
  const { page, problems } = await openHost(t, '#prefill-resource-trace', { width: 1440, height: 900 });
  await settled(page, 'inspector-lesson');
  await page.getByTestId('open-lab').click();
  const lab = await settled(page, 'lab-lesson');
  const part = lab.locator('details.under-load');
  await part.locator('summary').click();
  await lab.getByLabel('Arrival rate (requests/s)').fill('0.05');
  await part.getByRole('button', { name: 'Run the simulation' }).click();
  await page.waitForFunction(
    () => document.querySelector('[data-testid="lab-lesson"]').shadowRoot.querySelector('details.under-load')?.dataset.simulated === '3',
    null,
    { timeout: 240_000 },
  );
  assert.equal(await part.getAttribute('data-ran-in'), 'worker');
  assert.doesNotMatch(await part.locator('.under-load-status, [role="status"]').first().innerText(), /background thread|TrustedScriptURL/);
  assert.deepEqual(problems, []);
});
