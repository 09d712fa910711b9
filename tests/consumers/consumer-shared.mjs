// What the consumer tests share: the hand-derived check every consumer runs, the README's strict
// CSP (read from the README, so the tested policy is the documented one), a dev server's start,
// and one headless Chromium visit.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

import { repo, startServer } from "../browser/helpers.mjs";

// A tiny model whose figures follow by hand from docs/model.md:
//   L = 2 layers, d = 16, h_q = 4, h_kv = 2, d_h = 4, d_ff = 32 (gated MLP), V = 100, untied;
//   T = 8 prompt tokens, B = 1, bf16 (c = 2 bytes per KV element).
//   parameters per layer = d·h_q·d_h (256) + 2·d·h_kv·d_h (256) + h_q·d_h·d (256)
//                          + 3·d·d_ff (1536) + 2·d (32) = 2336
//   parameters = L·2336 + 2·V·d (3200) + d (16) = 7888
//   KV bytes = 2·L·B·T·h_kv·d_h·c = 2·2·1·8·2·4·2 = 512
//   projection FLOPs per request, all layers = L·2T·(d·(h_q + 2h_kv)·d_h + h_q·d_h·d
//                          + d·2d_ff + d_ff·d) = 2·16·(512 + 256 + 1024 + 512) = 73728
export const TINY = {
  model: { layers: 2, d_model: 16, query_heads: 4, kv_heads: 2, head_dim: 4, d_ff: 32, mlp: "gated", vocab: 100 },
  hardware: "h100-sxm",
  prompt_tokens: 8,
};
export const EXPECTED = "7888 512 73728";

// The same check in every consumer: prints "parameters kvBytes projectionFlops version".
export const CHECK_JS = `
const result = engine.computeTrace(${JSON.stringify(JSON.stringify(TINY))});
if (!result.ok) throw new Error(result.error);
const trace = JSON.parse(result.json);
const line = [trace.parameters, trace.totals.kv_cache.bytes,
  trace.steps[1].facts.projection_flops_per_request, engine.version()].join(" ");
`;

// The element (view="full": style sheets, the lesson data, equations typeset in KaTeX's fonts,
// the explorer) and the page's own engine call (CHECK_JS) in one bundle.
export const ELEMENT_APP_JS = `import PrefillTrace from "prefill-trace";
import "prefill-trace/element";
const element = document.createElement("prefill-trace-lesson");
element.setAttribute("view", "full");
element.setAttribute("storage", "none");
document.body.append(element);
PrefillTrace().then((engine) => {${CHECK_JS} document.body.dataset.result = line; });
`;

/** The strict host CSP the README states (the code block after "A strict host's CSP:"), one line. */
export function readmeCsp(...policies) {
  const readme = readFileSync(path.join(repo, "README.md"), "utf8");
  const block = readme.match(/A strict host's CSP:\s*```\n([\s\S]*?)```/)?.[1];
  assert.ok(block, "README.md states a strict CSP");
  const csp = block.trim().replace(/\s+/g, " ");
  if (policies.length === 0) return csp;
  // A bundler's or framework's own Trusted Types policies (webpack, vue) join the element's in
  // the one `trusted-types` directive, as the README's host table says.
  const directive = /trusted-types ([^;]*)/;
  assert.match(csp, directive, "the README's CSP has a trusted-types directive");
  return csp.replace(directive, (_, names) => `trusted-types ${names} ${policies.join(" ")}`);
}

/** Writes `files` ({relative path: text}) under `dir`, making folders as needed. */
export function writeFiles(dir, files) {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
}

/** A free TCP port on 127.0.0.1 (for servers that cannot be asked for port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer().once("error", reject).listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts a dev or production server (`command args` in `cwd`) and resolves once its output
 * matches `ready` (escape sequences stripped), with `stop()`; rejects after `timeoutMs`.
 */
export function startProcess(command, args, { cwd, env, ready, timeoutMs = 120_000 }) {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let out = "";
  const stop = () => new Promise((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once("exit", () => done());
    // The server's own children (Next's workers) too: its process group, which it leads.
    try { process.kill(-child.pid, "SIGTERM"); } catch { child.kill("SIGTERM"); }
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`${command} ${args.join(" ")} did not start: ${out}`)); }, timeoutMs);
    const watch = (chunk) => {
      out += chunk;
      if (ready.test(out.replace(/\x1b\[[0-9;]*m/g, ""))) { clearTimeout(timer); resolve({ stop, output: () => out }); }
    };
    child.stdout.setEncoding("utf8").on("data", watch);
    child.stderr.setEncoding("utf8").on("data", watch);
    child.once("exit", (code) => { clearTimeout(timer); reject(new Error(`${command} exited with ${code}: ${out}`)); });
  });
}

/**
 * Opens a page in `browser` (a promise of a Chromium) at `url`, or at `root` served by
 * script/serve.mjs (which sends the CSP of root/index.html's <meta>), and hands it to
 * `visit(page, problems, url)`. Page errors, console errors, failed responses and CSP
 * violations are collected; `problems` must be empty at the end.
 */
export async function visit(browser, { root, url, path: at = "" }, check) {
  const server = root ? await startServer({ root }) : null;
  const context = await (await browser).newContext();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => message.type() === "error" && problems.push(`console: ${message.text()}`));
    page.on("response", (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    await page.addInitScript(() => document.addEventListener("securitypolicyviolation", (event) =>
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)));
    const address = new URL(at, url ?? server.url).href;
    await check(page, problems, address);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
    await server?.stop();
  }
}

/** The explorer's KV-cache figure, as the reader sees it (whitespace folded). */
export async function kvFigure(lesson) {
  return (await lesson.locator('[data-figure="kv-bytes"] .figure-value').innerText()).replace(/\s+/g, " ").trim();
}

/** Waits until the page's element has settled, and returns its data-state. */
export async function settled(page, timeout = 60_000) {
  await page.waitForFunction(() => {
    const state = document.querySelector("prefill-trace-lesson")?.getAttribute("data-state");
    return state === "ready" || state === "error";
  }, null, { timeout });
  return page.locator("prefill-trace-lesson").getAttribute("data-state");
}

/** The prompt tokens of the scenario the page's element shows. */
export const shownTokens = (page) => page.evaluate(() => JSON.parse(document.querySelector("prefill-trace-lesson").scenario).prompt_tokens);

/**
 * The host-owned scenario rule in a framework host whose page has buttons #rerender (renders
 * again with an equal scenario, a new object or text), #host-change (sets 1024 prompt tokens)
 * and an output #renders counting renders, and which starts at 4096 tokens: the reader's edit
 * (8192, typed as a reader would: fill, Enter, blur) survives the re-render; the host's change
 * replaces it.
 */
export async function hostScenarioRule(page) {
  assert.equal(await shownTokens(page), 4096);
  const field = page.locator("prefill-trace-lesson").getByLabel("Prompt tokens (exact)", { exact: true });
  await field.fill("8192");
  await field.press("Enter");
  await field.blur();
  await page.waitForFunction(() => JSON.parse(document.querySelector("prefill-trace-lesson").scenario).prompt_tokens === 8192);
  await page.click("#rerender");
  await page.waitForFunction(() => document.querySelector("#renders").textContent === "1");
  assert.equal(await shownTokens(page), 8192, "the reader's edit survives a re-render with an equal scenario");
  await page.click("#host-change");
  await page.waitForFunction(() => JSON.parse(document.querySelector("prefill-trace-lesson").scenario).prompt_tokens === 1024);
}

/**
 * Whether the element's style sheets apply, read from two of their rules: style.css gives the
 * lesson's root `.ptl` `container-type: inline-size`, KaTeX's sheet gives `.katex`
 * `position: relative` (null when no equation is typeset).
 */
export function appliedStyles(lesson) {
  return lesson.evaluate((element) => {
    const root = element.shadowRoot;
    const katex = root.querySelector(".katex");
    return { lesson: getComputedStyle(root.querySelector(".ptl")).containerType, katex: katex && getComputedStyle(katex).position };
  });
}
