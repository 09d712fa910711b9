// Next.js consumer tests (issue 32): the packed tarball in an app-router project of Next.js 15
// and of Next.js 16, with no configuration: a Server Component calling the engine (the package's
// Node entry, bundled by Next for the server), and a client component rendering the element
// and its `scenario`, built with each of Next's bundlers (webpack, Turbopack) and
// served by `next start`, and under `next dev` with no hydration warning. The reader's edit
// survives a React re-render with an equal scenario; a different one replaces it.
// Next's own dependencies come from a cached project (framework-projects.mjs): the first run
// installs them from the registry (~70 s each here), later runs install only the tarball.
// Needs script/package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { launchChromium, repo } from "../browser/helpers.mjs";
import { CHECK_JS, EXPECTED, appliedStyles, freePort, hostScenarioRule, kvFigure, readmeCsp, settled, startProcess, visit } from "./consumer-shared.mjs";
import { PROJECTS, cleanProject, frameworkProject, packTarball, plainEnv } from "./framework-projects.mjs";

const version = JSON.parse(readFileSync(path.join(repo, "build/npm/package.json"), "utf8")).version;
let work;
let tarball;
let browser;

before(() => {
  work = mkdtempSync(path.join(tmpdir(), "prefill-trace-next-"));
  tarball = packTarball(work);
});

after(async () => {
  await (await browser)?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const LAYOUT = `export const metadata = { title: "next consumer" };
export default function RootLayout({ children }) {
  return <html lang="en"><head><link rel="icon" href="data:," /></head><body>{children}</body></html>;
}
`;

// The Server Component: the engine through the package's Node entry, on the server, per request.
const PAGE = `import PrefillTrace from "prefill-trace";
import Lesson from "./lesson.js";
export const dynamic = "force-dynamic";
export default async function Page() {
  const engine = await PrefillTrace();${CHECK_JS}
  return <main><p id="server">{line}</p><Lesson /></main>;
}
`;

// The client component: the element with its scenario as JSON text (made anew on every
// render), a button that re-renders with an equal one and one that changes it. JSON text, not
// an object: React 19 sets no property while it hydrates a server-rendered custom element
// (react-dom diffHydratedProperties only compares), so an object would wait for the next render;
// text is rendered as the attribute, which the element reads as it upgrades (README).
// suppressHydrationWarning: the element writes its data-state (and, once ready, its engine
// version) as soon as it upgrades, which can be before React hydrates (README).
const LESSON = `"use client";
import { useState } from "react";
import "prefill-trace/element";
export default function Lesson() {
  const [renders, setRenders] = useState(0);
  const [tokens, setTokens] = useState(4096);
  return (
    <section>
      <button id="rerender" onClick={() => setRenders(renders + 1)}>re-render</button>
      <button id="host-change" onClick={() => setTokens(1024)}>host change</button>
      <output id="renders">{renders}</output>
      <prefill-trace-lesson view="full" storage="none" suppressHydrationWarning
        scenario={JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: tokens })} />
    </section>
  );
}
`;

// The README's strict CSP under Next, by the README's own recipe (the proxy.js it shows, read
// from it: Next 16's name; Next 15 runs the same code as middleware.js, \`export function
// middleware\`). Next renders inline scripts of its own (the Server Components payload), which it
// marks with the nonce it finds in the request's Content-Security-Policy header; the proxy draws
// a nonce per request and sets the header on the request and the response. Production only.
const NEXT_POLICIES = ["nextjs", "nextjs#bundler"];
/** The README's one-line edit where Trusted Types cannot be enforced (Turbopack). */
const WITHOUT_TRUSTED_TYPES = (csp) => csp.replace("require-trusted-types-for 'script'; ", "");
function proxySource(functionName, trustedTypes) {
  const readme = readFileSync(path.join(repo, "README.md"), "utf8");
  const source = readme.match(/```js\n\/\/ proxy\.js, beside app\/\n([\s\S]*?)```/)?.[1];
  assert.ok(source, "README.md shows the Next.js proxy");
  const named = source.replace("export function proxy(", `export function ${functionName}(`);
  return trustedTypes ? named : WITHOUT_TRUSTED_TYPES(named);
}
/** The README's strict CSP with Next's policies and `nonce` in script-src: what the proxy must send. */
function nextCsp(nonce, trustedTypes) {
  const csp = readmeCsp(...NEXT_POLICIES).replace("script-src 'self'", `script-src 'self' 'nonce-${nonce}'`);
  return trustedTypes ? csp : WITHOUT_TRUSTED_TYPES(csp);
}

/** The proxy (Next 16) or middleware (Next 15) that sets the CSP, for the next build. */
function writeProxy(dir, name, trustedTypes) {
  for (const file of ["proxy.js", "middleware.js"]) rmSync(path.join(dir, file), { force: true });
  if (name === "next15") writeFileSync(path.join(dir, "middleware.js"), proxySource("middleware", trustedTypes));
  else writeFileSync(path.join(dir, "proxy.js"), proxySource("proxy", trustedTypes));
}

function writeApp(dir) {
  cleanProject(dir);
  mkdirSync(path.join(dir, "app"), { recursive: true });
  writeFileSync(path.join(dir, "app/layout.js"), LAYOUT);
  writeFileSync(path.join(dir, "app/page.js"), PAGE);
  writeFileSync(path.join(dir, "app/lesson.js"), LESSON);
}

/** What every Next page must show: the server's figures, the element ready with the host's scenario, edits kept. */
async function checkPage(page, problems, url) {
  // `next dev` compiles the route on its first request (a minute or more on a loaded machine).
  await page.goto(url, { timeout: 300_000 });
  assert.equal(await page.locator("#server").innerText(), `${EXPECTED} ${version}`);
  assert.equal(await settled(page), "ready");
  const lesson = page.locator("prefill-trace-lesson");
  assert.match(await lesson.locator("h1, h2").first().innerText(), /Prefill and prompt processing/);
  // The host's scenario, 4096 tokens: KV = 2·L·T·h_kv·d_h·c = 2·32·4096·8·128·2 = 536 870 912 B.
  assert.equal(await kvFigure(lesson), "537 MB (512 MiB)");
  assert.ok(await lesson.locator(".equation-math .katex").count() > 0, "typeset equations");
  assert.deepEqual(await appliedStyles(lesson), { lesson: "inline-size", katex: "relative" });
  // The reader's edit survives a re-render that sets an equal (new) scenario; a different host value replaces it.
  await hostScenarioRule(page);
  void problems;
}

function seconds(started) {
  return ((Date.now() - started) / 1000).toFixed(1);
}

// Each Next.js line with both bundlers for `next build` (its default first) and its default one
// for `next dev`. PREFILL_TRACE_NEXT=next16 (or next15) runs one line.
const LINES = [
  // Turbopack's runtime (Next 16.5 and 15.5) loads chunks by setting `script.src` with no
  // Trusted Types policy ("This document requires 'TrustedScriptURL' assignment"), so under
  // Turbopack the CSP drops `require-trusted-types-for 'script'` (README); Next's webpack runtime
  // has its policy (nextjs#bundler).
  ["next16", [["turbopack", [], { trustedTypes: false }], ["webpack", ["--webpack"]]], "turbopack"],
  // Next 15.5's Turbopack build (beta there) emits no file for a `.css` named by
  // `new URL(…, import.meta.url)`: the element's style sheets stay file:///ROOT/… addresses the
  // browser refuses, and the element takes them from its script chunk instead (styles.js).
  ["next15", [["webpack", []], ["turbopack", ["--turbopack"], { trustedTypes: false }]], "webpack"],
].filter(([name]) => !process.env.PREFILL_TRACE_NEXT || process.env.PREFILL_TRACE_NEXT.split(",").includes(name));
// Each `next build` is minutes on a shared machine (webpack 5-6 min at a load of ~20 on 2 cores,
// Turbopack 2-3 min): script/test runs each line's default bundler and Next 16's `next dev`;
// PREFILL_TRACE_CONSUMERS=full runs the whole matrix.
const FULL = process.env.PREFILL_TRACE_CONSUMERS === "full";

for (const [name, allBuilds, devBundler] of LINES) {
  const builds = FULL ? allBuilds : allBuilds.slice(0, 1);
  const withDev = FULL || name === "next16";
  describe(`Next.js ${PROJECTS[name].next}`, () => {
    let dir;
    const next = (...args) => [path.join(dir, "node_modules/next/dist/bin/next"), ...args];
    before(() => {
      const project = frameworkProject(name, PROJECTS[name], tarball);
      dir = project.dir;
      if (project.installSeconds) console.log(`# ${name}: registry install ${project.installSeconds.toFixed(0)} s`);
      writeApp(dir);
    });

    for (const [bundler, flags, { trustedTypes = true } = {}] of builds) {
      test(`next build (${bundler}) + next start: the Server Component's engine and the client element, no configuration, under the README's CSP (nonce proxy${trustedTypes ? "" : ", no Trusted Types"})`, async () => {
        writeProxy(dir, name, trustedTypes);
        const started = Date.now();
        execFileSync(process.execPath, next("build", ...flags), { cwd: dir, env: plainEnv, stdio: ["ignore", "pipe", "pipe"] });
        console.log(`# ${name} build (${bundler}): ${seconds(started)} s`);
        const port = await freePort();
        const server = await startProcess(process.execPath, next("start", "-p", String(port), "-H", "127.0.0.1"),
          { cwd: dir, env: plainEnv, ready: /Ready in|started server/i });
        try {
          browser ??= launchChromium();
          await visit(browser, { url: `http://127.0.0.1:${port}/` }, async (page, problems, url) => {
            // The page came with the README's CSP, a nonce in script-src (CSP violations are problems).
            const sent = (await page.request.get(url)).headers()["content-security-policy"] ?? "";
            const nonce = sent.match(/'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
            assert.equal(sent, nextCsp(nonce, trustedTypes));
            await checkPage(page, problems, url);
          });
        } finally {
          await server.stop();
        }
      });
    }

    test(`next dev (${devBundler}): the page works and React reports no hydration mismatch`, { skip: !withDev && "PREFILL_TRACE_CONSUMERS=full" }, async () => {
      const port = await freePort();
      rmSync(path.join(dir, ".next"), { recursive: true, force: true });
      const server = await startProcess(process.execPath, next("dev", "-p", String(port), "-H", "127.0.0.1"),
        { cwd: dir, env: plainEnv, ready: /Ready in/i });
      try {
        browser ??= launchChromium();
        await visit(browser, { url: `http://127.0.0.1:${port}/` }, async (page, problems, url) => {
          const warnings = [];
          page.on("console", (message) => /hydrat/i.test(message.text()) && warnings.push(message.text()));
          await checkPage(page, problems, url);
          assert.deepEqual(warnings, []);
        });
      } finally {
        await server.stop();
      }
    });
  });
}
