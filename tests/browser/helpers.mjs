// Shared set-up of the browser tests: the static server for build/web (script/serve.mjs on a
// free port of 127.0.0.1), Debian's Chromium through playwright-core, and a page opener that
// records every problem the page reports — console errors, page errors, CSP violations, failed
// or 4xx/5xx requests, and any request off the test server's origin.
// `startServer()`, `launchChromium()` / `chromiumLaunchOptions()` and `assertSiteBuilt()` work
// outside node:test too (bench/page-bench.mjs uses them); `useBrowser()` wires them into a
// test file's before/after hooks.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = fileURLToPath(new URL('../../', import.meta.url));
export const site = path.join(repo, 'build/web');
export const artifacts = path.join(repo, 'build/test-artifacts');
export const fixtures = path.join(repo, 'tests/browser/fixtures');
export const LESSON_PATH = 'lesson-data/prefill-resource-trace-a76d037833bd69f7.json';

/** The page's default scenario as issue 4 states it (an 8B model, a current datacenter GPU, a
 *  2048-token prompt), written out here rather than imported from the page under test. `stack`
 *  and `attention_kernel` are the engine's documented defaults (docs/trace-json.md, scenario):
 *  the page's controls hold them under either timing, so the scenario it reports carries them. */
export const DEFAULT_SCENARIO = Object.freeze({
  model: 'llama-3.1-8b',
  hardware: 'h100-sxm',
  precision: 'bf16',
  prompt_tokens: 2048,
  batch: 1,
  chunk_tokens: 0,
  attention: 'fused',
  arrival_rate: 0,
  timing: 'bound',
  stack: 'tensorrt-llm',
  attention_kernel: 'auto',
  tensor_parallel: 1,
});

/** Debian's Chromium (never a downloaded one: `npx playwright install` fails offline). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Without the background-networking flags Chromium keeps trying closed network addresses. */
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]);

/** The options for `chromium.launch` (extra ones, e.g. `headless`, override). */
export function chromiumLaunchOptions(extra = {}) {
  return { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS], ...extra };
}

/** Launches Debian's Chromium through playwright-core. */
export function launchChromium(extra = {}) {
  return chromium.launch(chromiumLaunchOptions(extra));
}

/**
 * Starts script/serve.mjs for `root` (default build/web) on a free port of 127.0.0.1.
 * Resolves to `{child, url, origin, stop()}` once the server is listening; usable outside
 * node:test (bench/page-bench.mjs). `stop()` ends the server and waits for it to exit.
 */
export function startServer({ root = site } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(repo, 'script/serve.mjs'), '--root', root, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    let exited = false;
    // The server never outlives this process, even when it ends on an uncaught error.
    const killOnExit = () => {
      if (!exited) child.kill('SIGTERM');
    };
    process.once('exit', killOnExit);
    const exit = new Promise((done) => {
      child.once('exit', () => {
        exited = true;
        process.off('exit', killOnExit);
        done();
      });
    });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`server did not start: ${out}`));
    }, 10_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = out.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (match) {
        clearTimeout(timer);
        resolve({
          child,
          url: match[0],
          origin: new URL(match[0]).origin,
          stop: async () => {
            if (!exited) child.kill('SIGTERM');
            await exit;
          },
        });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${out}`));
    });
  });
}

/** Fails early with a clear message when build/web has not been assembled. */
export function assertSiteBuilt() {
  assert.ok(
    existsSync(path.join(site, 'index.html')) && existsSync(path.join(site, 'wasm/prefill_trace.wasm')),
    'build/web is missing or incomplete: run script/build-site first',
  );
}

/**
 * Wraps the engine module's per-change calls before the page starts (an init script, run
 * before the page's own), through the element's supported hook: as soon as
 * <prefill-trace-lesson> is defined (before any element has loaded the engine, which happens
 * after an import()), `PrefillTraceLesson.engineFactory` is set to a factory that makes the
 * module as the element would (the package's ES module under the element's asset base) and
 * wraps its `computeTrace` and `traceFigures`, counting the calls and timing them (JSON text
 * built in wasm, without the page's JSON.parse) in `window.__engineCalls`. Pass it to
 * page.addInitScript (or a context's), with the names of other exports to count as its argument
 * if need be ("ServingSimulation.advance" for a class's method). Issue 13 item 2 wants zero
 * `computeTrace` per change.
 */
export function countEngineCalls(names = ['computeTrace', 'traceFigures']) {
  const calls = Object.fromEntries(names.map((name) => [name, []]));
  window.__engineCalls = calls;
  customElements.whenDefined('prefill-trace-lesson').then((Lesson) => {
    Lesson.engineFactory = async (options) => {
      const { default: make } = await import(new URL('wasm/prefill_trace.mjs', Lesson.assetBase).href);
      const module = await make(options);
      for (const name of Object.keys(calls)) {
        // "Class.method" names a method of an Embind class (ServingSimulation.advance).
        const [owner, method] = name.includes('.') ? [module[name.split('.')[0]]?.prototype, name.split('.')[1]] : [module, name];
        const call = owner?.[method];
        if (typeof call !== 'function') continue;
        owner[method] = function (...args) {
          const start = performance.now();
          const result = call.apply(this, args);
          calls[name].push(performance.now() - start);
          return result;
        };
      }
      return module;
    };
  });
}

/** Starts the server and the browser for this test file; `env.origin`, `env.browser` after `before`. */
export function useBrowser() {
  const env = { origin: null, browser: null, server: null };
  before(async () => {
    assertSiteBuilt();
    env.server = await startServer();
    env.origin = env.server.origin;
    env.browser = await launchChromium();
    await mkdir(artifacts, { recursive: true });
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

/**
 * Records what must not happen on a page under test — console errors, CSP violations, page
 * errors, failed requests, HTTP errors and requests to another origin — into the array it
 * returns. `ignoreHttpError(url)` exempts a response (e.g. a host's missing favicon.ico).
 */
export async function watchForProblems(page, origin, { ignoreHttpError = () => false } = {}) {
  const problems = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || 'inline'}`);
    });
  });
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    if (r.status() >= 400 && !ignoreHttpError(r.url())) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  });
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin) {
      problems.push(`off-origin request: ${r.url()}`);
    }
  });
  return problems;
}

/**
 * Opens `pathAndQuery` in a fresh context and records every problem the page reports; waits
 * until the lesson element has settled and checks it settled as `state` (`data-state`:
 * "ready", or "error" where a part is meant to fail).
 * Options: viewport, setup(page) before navigation, context options (permissions, colorScheme…).
 */
export async function openPage(
  env,
  t,
  pathAndQuery = '/',
  { viewport = { width: 1024, height: 800 }, setup, context: contextOptions = {}, state = 'ready' } = {},
) {
  const context = await env.browser.newContext({ viewport, ...contextOptions });
  t.after(() => context.close());
  const page = await context.newPage();
  const problems = await watchForProblems(page, env.origin);
  if (setup) await setup(page);
  await page.goto(env.origin + pathAndQuery);
  await waitReady(page, state);
  return { page, context, problems };
}

/**
 * Waits until every lesson element on the page has settled (`data-state` no longer
 * "loading"), then checks each settled as `state` ("ready" or "error").
 */
export async function waitReady(page, state = 'ready') {
  await page.waitForFunction(
    () => {
      const elements = [...document.querySelectorAll('prefill-trace-lesson')];
      return elements.length > 0 && elements.every((el) => ['ready', 'error'].includes(el.getAttribute('data-state')));
    },
    null,
    { timeout: 30_000 },
  );
  const states = await page.$$eval('prefill-trace-lesson', (els) => els.map((el) => el.getAttribute('data-state')));
  assert.deepEqual(states, states.map(() => state), `every lesson element settles as data-state="${state}"`);
}

/**
 * Waits until the explorer shows a scenario containing `fields` in every part (its
 * `data-scenario`, set once nothing is stale).
 */
export async function waitForScenario(page, fields) {
  await page.waitForFunction(
    (expected) => {
      const text = document.querySelector('prefill-trace-lesson')?.shadowRoot?.getElementById('explorer')
        ?.dataset.scenario;
      if (!text) return false;
      const shown = JSON.parse(text);
      return Object.entries(expected).every(([k, v]) => JSON.stringify(shown[k]) === JSON.stringify(v));
    },
    fields,
    { timeout: 5000 },
  );
}

export function normalize(text) {
  return String(text).replace(/\s+/g, ' ').trim();
}

/** The focused element, looking through shadow roots. */
export function focused(page) {
  return page.evaluate(() => {
    let el = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return {
      tag: el?.tagName,
      id: el?.id,
      name: el?.getAttribute('name'),
      value: el?.value,
      text: el?.textContent,
    };
  });
}
