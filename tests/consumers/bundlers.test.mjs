// Parcel 2, Vite 7 (dev and build) and Vue 3 consumer tests (issue 32): the packed tarball in
// empty projects whose own dependencies come from cached projects (framework-projects.mjs), each
// page served with the README's strict CSP (its <meta>, which script/serve.mjs also sends as a
// header) and run in headless Chromium: any CSP violation, console error or failed request fails.
// Parcel and the Vite build need no configuration; Vite 7's dev server needs one line
// (optimizeDeps.exclude, README); Vue needs its compiler told the tag is a custom element, and
// its templates type-check (vue-tsc) through prefill-trace/element/vue. Needs script/package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";

import { launchChromium, repo } from "../browser/helpers.mjs";
import { ELEMENT_APP_JS, EXPECTED, freePort, hostScenarioRule, kvFigure, readmeCsp, settled, startProcess, visit, writeFiles as write } from "./consumer-shared.mjs";
import { PROJECTS, cleanProject, frameworkProject, packTarball, plainEnv } from "./framework-projects.mjs";

const version = JSON.parse(readFileSync(path.join(repo, "build/npm/package.json"), "utf8")).version;
let work;
let tarball;
let browser;

before(() => {
  work = mkdtempSync(path.join(tmpdir(), "prefill-trace-bundlers-"));
  tarball = packTarball(work);
});

after(async () => {
  await (await browser)?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A host page under the README's CSP (or `csp`), loading `script` as a module. */
const page = (script, body = "", csp = readmeCsp()) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>consumer</title>
<meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="icon" href="data:,"></head><body>${body}<script type="module" src="${script}"></script></body></html>`;


/** ELEMENT_APP_JS's promises: the figures, the element ready with the default scenario, the fonts. */
async function checkElementApp(page, problems, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 60_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.result), `${EXPECTED} ${version}`);
  assert.equal(await settled(page), "ready");
  const lesson = page.locator("prefill-trace-lesson");
  assert.match(await lesson.locator("h1, h2").first().innerText(), /Prefill and prompt processing/);
  // The default scenario (llama-3.1-8b, 2048 tokens, bf16): KV = 2·32·2048·8·128·2 = 268 435 456 B.
  assert.equal(await kvFigure(lesson), "268 MB (256 MiB)");
  assert.ok(await lesson.locator(".equation-math .katex").count() > 0, "typeset equations");
  // Every KaTeX font the math used loaded (a data: font refused by font-src would be "error").
  await page.evaluate(() => document.fonts.ready);
  const fonts = await page.evaluate(() => [...document.fonts].filter((f) => f.family.includes("KaTeX")).map((f) => `${f.family} ${f.status}`));
  assert.ok(fonts.includes("KaTeX_Main loaded"), fonts.join(", "));
  assert.deepEqual(fonts.filter((f) => f.endsWith(" error")), []);
  void problems;
}

function timed(label, run) {
  const started = Date.now();
  const result = run();
  console.log(`# ${label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

describe(`Parcel ${PROJECTS.parcel.parcel}`, () => {
  let dir;
  before(() => {
    dir = frameworkProject("parcel", PROJECTS.parcel, tarball).dir;
    cleanProject(dir);
  });

  test("parcel build with no configuration: the element and the engine under the README's CSP", async () => {
    write(dir, { "src/index.html": page("./main.js"), "src/main.js": ELEMENT_APP_JS });
    timed("parcel build", () => execFileSync(process.execPath, [path.join(dir, "node_modules/parcel/lib/bin.js"), "build", "src/index.html",
      "--dist-dir", "dist", "--no-autoinstall", "--log-level", "warn"], { cwd: dir, env: plainEnv, stdio: ["ignore", "pipe", "pipe"] }));
    browser ??= launchChromium();
    await visit(browser, { root: path.join(dir, "dist") }, checkElementApp);
  });
});

describe(`Vite ${PROJECTS.vue.vite} and Vue ${PROJECTS.vue.vue}`, () => {
  let dir;
  const vite = (...args) => [path.join(dir, "node_modules/vite/bin/vite.js"), ...args];
  before(() => {
    dir = frameworkProject("vue", PROJECTS.vue, tarball).dir;
    cleanProject(dir);
  });

  test("vite build with no configuration: the element and the engine under the README's CSP", async () => {
    write(dir, { "plain/index.html": page("./main.js"), "plain/main.js": ELEMENT_APP_JS });
    timed("vite 7 build", () => execFileSync(process.execPath, vite("build", "plain", "--outDir", "dist", "--logLevel", "error"),
      { cwd: dir, env: plainEnv, stdio: ["ignore", "pipe", "pipe"] }));
    // Vite inlines files under 4 KiB as data: URLs: here a KaTeX font (KaTeX_Size3, 3624 bytes).
    const bundle = readdirSync(path.join(dir, "plain/dist/assets")).filter((f) => f.endsWith(".js"))
      .map((f) => readFileSync(path.join(dir, "plain/dist/assets", f), "utf8")).join("\n");
    assert.match(bundle, /data:font\/woff2;base64,/, "a font inlined as a data: URL (what the element must not load by URL)");
    browser ??= launchChromium();
    await visit(browser, { root: path.join(dir, "plain/dist") }, checkElementApp);
  });

  test("vite dev with the README's one line (optimizeDeps.exclude): the element and the engine", async () => {
    write(dir, {
      "plain/index.html": page("./main.js"),
      "plain/main.js": ELEMENT_APP_JS,
      "plain/vite.config.js": `export default { optimizeDeps: { exclude: ["prefill-trace"] } };\n`,
    });
    const port = await freePort();
    const server = await startProcess(process.execPath, vite("plain", "--port", String(port), "--strictPort", "--host", "127.0.0.1",
      "--clearScreen", "false"), { cwd: dir, env: plainEnv, ready: /Local:/ });
    try {
      browser ??= launchChromium();
      // The dev server sends no CSP (its client injects inline styles); the page's <meta> holds it.
      await visit(browser, { url: `http://127.0.0.1:${port}/` }, checkElementApp);
    } finally {
      await server.stop();
    }
  });

  test("Vue 3: the custom-element recipe, typed template props (vue-tsc), an inline object scenario that keeps the reader's edit", async () => {
    write(dir, {
      // The README's CSP but for Vue's own Trusted Types policy, named "vue" (Vue creates it
      // whatever the element does; with trusted-types 'none' Chromium reports each attempt).
      "vue/index.html": page("./main.js", `<div id="app"></div>`, readmeCsp("vue")),
      "vue/main.js": `import { createApp } from "vue";\nimport "prefill-trace/element";\nimport App from "./App.vue";\ncreateApp(App).mount("#app");\n`,
      // The recipe (README): Vue's compiler is told the tag is a custom element.
      "vue/vite.config.js": `import vue from "@vitejs/plugin-vue";
export default { plugins: [vue({ template: { compilerOptions: { isCustomElement: (tag) => tag === "prefill-trace-lesson" } } })] };\n`,
      "vue/App.vue": `<script setup lang="ts">
import type {} from "prefill-trace/element/vue";
import { ref } from "vue";
const renders = ref(0);
const tokens = ref(4096);
const ready = ref("");
</script>
<template>
  <button id="rerender" @click="renders++">re-render</button>
  <button id="host-change" @click="tokens = 1024">host change</button>
  <output id="renders">{{ renders }}</output>
  <output id="ready">{{ ready }}</output>
  <prefill-trace-lesson view="explorer" storage="none"
    :scenario="{ model: 'llama-3.1-8b', hardware: 'h100-sxm', prompt_tokens: tokens }"
    @prefill-trace-ready="(event) => (ready = event.detail.lessonId)" />
</template>
`,
      // What vue-tsc must refuse: a view the element does not have, a listener's wrong detail.
      "vue/Bad.vue": `<script setup lang="ts">
import type {} from "prefill-trace/element/vue";
</script>
<template>
  <!-- @vue-expect-error view is "full", "lesson" or "explorer" -->
  <prefill-trace-lesson view="wide" />
  <!-- @vue-expect-error the ready event's detail has no "scenario" -->
  <prefill-trace-lesson @prefill-trace-ready="(event) => event.detail.scenario.model" />
</template>
`,
      "vue/env.d.ts": `declare module "*.vue" { import type { DefineComponent } from "vue"; const c: DefineComponent; export default c; }\n`,
      "vue/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "esnext", moduleResolution: "bundler", target: "es2022",
        lib: ["es2022", "dom"], jsx: "preserve", noEmit: true, types: [] }, include: ["*.vue", "*.ts"] }),
    });
    try {
      timed("vue-tsc", () => execFileSync(process.execPath, [path.join(dir, "node_modules/vue-tsc/bin/vue-tsc.js"), "-p", "vue/tsconfig.json"],
        { cwd: dir, env: plainEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }));
    } catch (error) {
      assert.fail(`vue-tsc failed:\n${error.stdout}${error.stderr}`);
    }
    timed("vite 7 build (Vue)", () => execFileSync(process.execPath, vite("build", "vue", "--outDir", "dist", "--logLevel", "error"),
      { cwd: dir, env: plainEnv, stdio: ["ignore", "pipe", "pipe"] }));
    browser ??= launchChromium();
    await visit(browser, { root: path.join(dir, "vue/dist") }, async (page, problems, url) => {
      const warnings = [];
      page.on("console", (message) => message.type() === "warning" && warnings.push(message.text()));
      await page.goto(url);
      assert.equal(await settled(page), "ready");
      assert.equal(await page.locator("#ready").innerText(), "prefill-resource-trace");
      await hostScenarioRule(page);
      assert.deepEqual(warnings.filter((w) => /resolve component|Vue warn/i.test(w)), []);
      void problems;
    });
  });
});
