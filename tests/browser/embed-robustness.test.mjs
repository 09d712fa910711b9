// The element under a hostile or careless network and host (issue 15, items 2-4): a lesson file
// that drips, stalls, never ends or redirects to another origin, and a host that mounts and
// removes elements hundreds of times. Each part must fail alone, every download must end, and
// a removed element must leave nothing behind.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { LESSON_PATH, assertSiteBuilt, launchChromium, normalize, site } from './helpers.mjs';
import { hostPageRoutes, startHostServer } from './host-server.mjs';

const lessonBytes = await readFile(path.join(site, LESSON_PATH));
/** The published file name: it says which lesson it holds before a byte arrives. */
const LESSON_NAME = path.basename(LESSON_PATH);

/** Per-route facts the handlers record: bytes written, whether the client closed first. */
const served = {};

function record(name, res) {
  const entry = { written: 0, closedByClient: false, finished: false, closedAt: 0 };
  served[name] = entry;
  res.on('finish', () => {
    entry.finished = true;
  });
  res.on('close', () => {
    if (!entry.finished) entry.closedByClient = true;
    entry.closedAt = Date.now();
  });
  return entry;
}

const routes = {
  ...hostPageRoutes(),
  // Two bytes every 100 ms: the 4.7 KB lesson would take about four minutes.
  [`/drip/${LESSON_NAME}`]: (req, res) => {
    const entry = record('drip', res);
    res.writeHead(200, { 'content-type': 'application/json' });
    let at = 0;
    const timer = setInterval(() => {
      if (at >= lessonBytes.length || res.destroyed) {
        clearInterval(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(lessonBytes.subarray(at, at + 2));
      entry.written += 2;
      at += 2;
    }, 100);
    res.on('close', () => clearInterval(timer));
  },
  // Headers, then nothing, ever.
  '/stall.json': (req, res) => {
    record('stall', res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.flushHeaders();
  },
  // Not even headers.
  '/silent.json': (req, res) => {
    record('silent', res);
  },
  // A body without Content-Length that would go on for 64 MiB, written as fast as the client reads.
  '/endless.json': (req, res) => {
    const entry = record('endless', res);
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 << 10, 0x20);
    const pump = () => {
      while (!res.destroyed && entry.written < 64 << 20) {
        entry.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  },
  // A Content-Length of 10 MiB announced, one small chunk sent, then a stall.
  '/declared-huge.json': (req, res) => {
    const entry = record('declared', res);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 << 20) });
    res.write('{"id": ');
    entry.written = 7;
  },
};

let host;
let other;
let browser;

before(async () => {
  assertSiteBuilt();
  // Another origin (another port) that would serve the lesson to anyone (CORS *).
  other = await startHostServer({
    routes: {
      '/lesson.json': (req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' });
        res.end(lessonBytes);
      },
    },
  });
  host = await startHostServer({
    routes: {
      ...routes,
      '/redirect-away.json': (req, res) => res.writeHead(302, { location: `${other.origin}/lesson.json` }).end(),
      '/redirect-home.json': (req, res) => res.writeHead(302, { location: `/${LESSON_PATH}` }).end(),
    },
  });
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await host?.stop();
  await other?.stop();
});

/** Opens the test host with `params`; collects page errors, console errors and the element's events. */
async function openHost(t, params) {
  const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  await page.addInitScript(() => {
    window.__events = [];
    for (const name of ['prefill-trace-ready', 'prefill-trace-error']) {
      document.addEventListener(name, (e) => window.__events.push({ name, detail: e.detail }));
    }
  });
  const started = Date.now();
  await page.goto(`${host.origin}/test-host.html?${new URLSearchParams(params)}`);
  return { page, problems, started };
}

function hostState(page) {
  return page.evaluate(() => document.querySelector('prefill-trace-lesson')?.getAttribute('data-state'));
}

async function waitSettled(page) {
  await page.waitForFunction(
    () => ['ready', 'error'].includes(document.querySelector('prefill-trace-lesson')?.getAttribute('data-state')),
    null,
    { timeout: 30_000 },
  );
}

function shadowText(page, selector) {
  return page.evaluate(
    (sel) => [...document.querySelector('prefill-trace-lesson').shadowRoot.querySelectorAll(sel)].map((n) => n.textContent),
    selector,
  );
}

test('a dripping lesson file: the explorer draws meanwhile, and the download stops at the stated timeout', async (t) => {
  const timeoutMs = 6000;
  const { page, problems, started } = await openHost(t, { 'lesson-src': `/drip/${LESSON_NAME}`, 'timeout-ms': timeoutMs });
  // The explorer is ready while the lesson is still arriving (and the element still loading).
  await page.waitForFunction(
    () => {
      const el = document.querySelector('prefill-trace-lesson');
      return el.shadowRoot?.querySelector('#explorer[data-state="ready"]') && el.getAttribute('data-state') === 'loading';
    },
    null,
    { timeout: timeoutMs },
  );
  assert.deepEqual((await shadowText(page, '.loading')).map(normalize), ['Loading the lesson…']);
  assert.ok(served.drip.written < lessonBytes.length, 'the lesson was still arriving');
  await waitSettled(page);
  assert.equal(await hostState(page), 'error');
  const elapsed = Date.now() - started;
  assert.ok(elapsed >= timeoutMs, `settled after ${elapsed} ms, not before the ${timeoutMs} ms timeout`);
  const [alert] = await shadowText(page, '.page-error');
  assert.ok(normalize(alert).includes(`/drip/${LESSON_NAME}: no complete answer within 6 s; the download was stopped.`), alert);
  // The browser closed the connection: the server did not finish the file.
  for (let i = 0; i < 50 && !served.drip.closedByClient; i += 1) await new Promise((r) => setTimeout(r, 100));
  assert.equal(served.drip.closedByClient, true, 'the client closed the dripping connection');
  // The explorer still works after the lesson failed.
  assert.equal((await shadowText(page, '#explorer[data-state="ready"]')).length, 1);
  const events = await page.evaluate(() => window.__events);
  assert.deepEqual(
    events.map((e) => [e.name, e.detail.part]),
    [['prefill-trace-error', 'lesson']],
  );
  assert.deepEqual(problems, []);
});

for (const [route, name] of [
  ['/stall.json', 'stall'],
  ['/silent.json', 'silent'],
]) {
  test(`a stalled lesson file (${name}: ${name === 'stall' ? 'headers, then nothing' : 'no answer at all'}) ends in an error at the timeout`, async (t) => {
    const timeoutMs = 2000;
    const { page, problems, started } = await openHost(t, { 'lesson-src': route, 'timeout-ms': timeoutMs });
    await waitSettled(page);
    const elapsed = Date.now() - started;
    assert.equal(await hostState(page), 'error');
    assert.ok(elapsed >= timeoutMs, `settled after ${elapsed} ms`);
    const [alert] = await shadowText(page, '.page-error');
    assert.match(normalize(alert), new RegExp(`${route.replace('.', '\\.')}: no complete answer within 2 s`));
    assert.equal((await shadowText(page, '#explorer[data-state="ready"]')).length, 1, 'the explorer works');
    for (let i = 0; i < 50 && !served[name].closedByClient; i += 1) await new Promise((r) => setTimeout(r, 100));
    assert.equal(served[name].closedByClient, true, 'the connection was closed by the element');
    assert.deepEqual(problems, []);
  });
}

test('a body without Content-Length is read only up to the size limit, then cancelled', async (t) => {
  // 256 KiB = 262 144 bytes: the limit set for this page.
  const { page, problems } = await openHost(t, { 'lesson-src': '/endless.json', 'max-bytes': 256 << 10, 'timeout-ms': 20_000 });
  await waitSettled(page);
  assert.equal(await hostState(page), 'error');
  const [alert] = await shadowText(page, '.page-error');
  assert.match(normalize(alert), /\/endless\.json: the file is larger than the 256 KiB a lesson may have\./);
  for (let i = 0; i < 50 && !served.endless.closedByClient; i += 1) await new Promise((r) => setTimeout(r, 100));
  assert.equal(served.endless.closedByClient, true, 'the reader cancelled the body');
  // What the server managed to write is the limit plus what socket buffers held, far from 64 MiB.
  assert.ok(served.endless.written < 16 << 20, `${served.endless.written} bytes written before the cancel`);
  assert.deepEqual(problems, []);
});

test('a Content-Length above the limit is refused before the body is read', async (t) => {
  const timeoutMs = 20_000;
  const { page, problems, started } = await openHost(t, { 'lesson-src': '/declared-huge.json', 'timeout-ms': timeoutMs });
  await waitSettled(page);
  assert.equal(await hostState(page), 'error');
  // The body never completes (it stalls after 7 bytes): only the header can have decided.
  assert.ok(Date.now() - started < timeoutMs, 'refused at once, not at the timeout');
  const [alert] = await shadowText(page, '.page-error');
  assert.match(normalize(alert), /\/declared-huge\.json: the file is larger than the 1 MiB a lesson may have\./);
  assert.deepEqual(problems, []);
});

test('a same-origin address that redirects to another origin is refused by its final URL', async (t) => {
  const { page, problems } = await openHost(t, { 'lesson-src': '/redirect-away.json' });
  await waitSettled(page);
  assert.equal(await hostState(page), 'error');
  const [alert] = await shadowText(page, '.page-error');
  assert.equal(
    normalize(alert),
    `This lesson cannot be shownThe lesson address must be on this site; /redirect-away.json was redirected to ${other.origin}/lesson.json.`,
  );
  assert.equal((await shadowText(page, 'section.lesson-section#mechanism')).length, 0, 'nothing of the other origin’s lesson is shown');
  assert.deepEqual(problems, []);
});

test('a redirect within the site is followed and the lesson renders', async (t) => {
  const { page, problems } = await openHost(t, { 'lesson-src': '/redirect-home.json' });
  await waitSettled(page);
  assert.equal(await hostState(page), 'ready');
  assert.equal((await shadowText(page, 'section.lesson-section#mechanism')).length, 1);
  assert.deepEqual(problems, []);
});

/** Window listeners by type, through the DevTools protocol (what getEventListeners() shows). */
async function windowListeners(cdp) {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  const byType = {};
  for (const l of listeners) byType[l.type] = (byType[l.type] ?? 0) + 1;
  return byType;
}

async function metrics(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

test('200 elements mounted and removed (with and without sync-url) leave nodes, listeners and heap where they were', async (t) => {
  const { page, problems } = await openHost(t, { 'no-element': '' });
  await page.waitForFunction(() => customElements.get('prefill-trace-lesson'));
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  // One element of each kind, mounted and removed, so everything loaded once per document
  // (engine, charts, KaTeX, fonts, number formats) is in the baseline.
  const cycle = (count, lessonPath) =>
    page.evaluate(
      async ({ count, lessonPath }) => {
        for (let i = 0; i < count; i += 1) {
          const el = document.createElement('prefill-trace-lesson');
          el.setAttribute('lesson-src', lessonPath);
          if (i % 2 === 0) el.setAttribute('sync-url', '');
          document.body.append(el);
          if (i % 4 < 2) {
            // Every other pair settles fully (explorer, charts, checks, typeset equation)…
            await new Promise((resolve) => {
              const check = () => (el.getAttribute('data-state') === 'loading' ? setTimeout(check, 10) : resolve());
              check();
            });
          } else {
            // …the others are removed mid-load.
            await new Promise((resolve) => setTimeout(resolve, 30));
          }
          el.remove();
        }
      },
      { count, lessonPath },
    );
  // Removed-mid-load elements may still be settling for a moment (their last promise
  // callbacks run, then nothing refers to them): measure after a pause, twice collected.
  await cycle(4, `/${LESSON_PATH}`);
  await page.waitForTimeout(1500);
  const base = await metrics(cdp);
  const baseListeners = await windowListeners(cdp);
  await cycle(200, `/${LESSON_PATH}`);
  // What a removed element holds must be released, not merely soon: poll (collecting each
  // time) for up to 10 s. A leak never comes back; one element's worth is ~3 000 nodes.
  let end;
  for (let i = 0; i < 20; i += 1) {
    await page.waitForTimeout(500);
    end = await metrics(cdp);
    if (end.Nodes - base.Nodes < 1000 && end.JSHeapUsedSize - base.JSHeapUsedSize < 2 * 1024 * 1024) break;
  }
  const endListeners = await windowListeners(cdp);
  assert.equal(await page.evaluate(() => document.querySelectorAll('prefill-trace-lesson').length), 0);
  assert.deepEqual(endListeners, baseListeners, 'window listeners (popstate…) are back to their number');
  // One full element is ~3 000 DOM nodes and ~100 kB; 200 kept would be ~600 000 nodes and
  // tens of MB. Allow a little noise, far below one element's worth per ten mounts.
  assert.ok(end.Nodes - base.Nodes < 1000, `DOM nodes ${base.Nodes} -> ${end.Nodes}`);
  assert.ok(end.JSEventListeners - base.JSEventListeners < 100, `listeners ${base.JSEventListeners} -> ${end.JSEventListeners}`);
  assert.ok(
    end.JSHeapUsedSize - base.JSHeapUsedSize < 2 * 1024 * 1024,
    `heap ${(base.JSHeapUsedSize / 2 ** 20).toFixed(1)} -> ${(end.JSHeapUsedSize / 2 ** 20).toFixed(1)} MiB`,
  );
  t.diagnostic(
    `200 mounts: nodes ${base.Nodes} -> ${end.Nodes}, listeners ${base.JSEventListeners} -> ${end.JSEventListeners}, heap ${(base.JSHeapUsedSize / 2 ** 20).toFixed(2)} -> ${(end.JSHeapUsedSize / 2 ** 20).toFixed(2)} MiB`,
  );
  assert.deepEqual(problems, []);
});
