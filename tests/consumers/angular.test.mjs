// Angular consumer test (issue 32): the packed tarball in an empty Angular project (standalone
// component, zoneless, the CLI's own application builder), built by `ng build` and run in
// headless Chromium under the README's strict CSP. The recipe (README): the component that uses
// the tag declares `schemas: [CUSTOM_ELEMENTS_SCHEMA]`, `main.ts` imports the element, the
// scenario is bound as a property, and, as under esbuild (which Angular's builder is), the
// element's folder is copied to the output (angular.json `assets`) and named by `asset-base`. Angular's own dependencies come from a cached project
// (framework-projects.mjs): the first run installs them from the registry (~150 s here), later
// runs install only the tarball. Needs script/package.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";

import { launchChromium, repo } from "../browser/helpers.mjs";
import { CHECK_JS, EXPECTED, appliedStyles, hostScenarioRule, kvFigure, readmeCsp, settled, visit, writeFiles } from "./consumer-shared.mjs";
import { PROJECTS, cleanProject, frameworkProject, packTarball, plainEnv } from "./framework-projects.mjs";

const version = JSON.parse(readFileSync(path.join(repo, "build/npm/package.json"), "utf8")).version;
let work;
let dir;
let browser;

before(() => {
  work = mkdtempSync(path.join(tmpdir(), "prefill-trace-angular-"));
  const project = frameworkProject("angular", PROJECTS.angular, packTarball(work));
  dir = project.dir;
  if (project.installSeconds) console.log(`# angular: registry install ${project.installSeconds.toFixed(0)} s`);
  // Angular's build cache (.angular/) is kept between runs: it is keyed by content.
  cleanProject(dir, ["node_modules", "package.json", "package-lock.json", ".installed", ".angular"]);
});

after(async () => {
  await (await browser)?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// The workspace `ng new` would write, cut to what a build reads.
const ANGULAR_JSON = {
  version: 1,
  projects: {
    app: {
      projectType: "application",
      root: "",
      sourceRoot: "src",
      architect: {
        build: {
          builder: "@angular/build:application",
          options: {
            browser: "src/main.ts", index: "src/index.html", outputPath: "dist", tsConfig: "tsconfig.json",
            // The recipe's second half: Angular's builder (esbuild) does not follow
            // `new URL(…, import.meta.url)`, so the element's files are copied as they are
            // (the element finds them through asset-base), and the engine's .wasm beside the
            // bundle for the page's own PrefillTrace().
            assets: [
              { glob: "**/*", input: "node_modules/prefill-trace/element", output: "prefill-trace" },
              { glob: "prefill_trace.wasm", input: "node_modules/prefill-trace/element/wasm", output: "." },
            ],
          },
        },
      },
    },
  },
};

const TSCONFIG = {
  compilerOptions: { strict: true, target: "es2022", module: "preserve", moduleResolution: "bundler", lib: ["es2022", "dom"],
    skipLibCheck: true, isolatedModules: true },
  angularCompilerOptions: { strictTemplates: true, strictInjectionParameters: true },
  files: ["src/main.ts"],
};

// The engine on the page as in every consumer (CHECK_JS), then the app.
const MAIN_TS = `import { bootstrapApplication } from "@angular/platform-browser";
import PrefillTrace from "prefill-trace";
import "prefill-trace/element";
import { App } from "./app";

bootstrapApplication(App).catch((error) => console.error(error));
PrefillTrace().then((engine) => {${CHECK_JS} document.body.dataset["result"] = line; });
`;

// The recipe: CUSTOM_ELEMENTS_SCHEMA and a property binding. The scenario is a new object on
// every render (a computed signal that reads the render count), so a re-render hands the element
// an equal object of a new identity: the host-owned rule keeps the reader's edit.
const APP_TS = `import { CUSTOM_ELEMENTS_SCHEMA, Component, computed, signal } from "@angular/core";

@Component({
  selector: "app-root",
  schemas: [CUSTOM_ELEMENTS_SCHEMA],
  template: \`
    <button id="rerender" (click)="renders.set(renders() + 1)">re-render</button>
    <button id="host-change" (click)="tokens.set(1024)">host change</button>
    <output id="renders">{{ renders() }}</output>
    <output id="ready">{{ ready() }}</output>
    <prefill-trace-lesson view="explorer" storage="none" asset-base="/prefill-trace/" [scenario]="scenario()"
      (prefill-trace-ready)="ready.set($any($event).detail.lessonId)"></prefill-trace-lesson>
  \`,
})
export class App {
  readonly renders = signal(0);
  readonly tokens = signal(4096);
  readonly ready = signal("");
  readonly scenario = computed(() => {
    this.renders();
    return { model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: this.tokens() };
  });
}
`;

const indexHtml = (csp) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>angular consumer</title>
<meta http-equiv="Content-Security-Policy" content="${csp}">
<base href="/"><link rel="icon" href="data:,"></head><body><app-root></app-root></body></html>
`;

test(`Angular ${PROJECTS.angular["@angular/core"]}: the recipe (CUSTOM_ELEMENTS_SCHEMA), ng build, the README's CSP, an object scenario that keeps the reader's edit`, async () => {
  writeFiles(dir, {
    "angular.json": JSON.stringify(ANGULAR_JSON, null, 2),
    "tsconfig.json": JSON.stringify(TSCONFIG, null, 2),
    "src/index.html": indexHtml(readmeCsp()),
    "src/main.ts": MAIN_TS,
    "src/app.ts": APP_TS,
  });
  const started = Date.now();
  try {
    execFileSync(process.execPath, [path.join(dir, "node_modules/@angular/cli/bin/ng.js"), "build"],
      { cwd: dir, env: plainEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  } catch (error) {
    assert.fail(`ng build failed:\n${error.stdout}${error.stderr}`);
  }
  console.log(`# ng build: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  browser = launchChromium();
  await visit(browser, { root: path.join(dir, "dist/browser") }, async (page, problems, url) => {
    await page.goto(url);
    await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 60_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.result), `${EXPECTED} ${version}`);
    assert.equal(await settled(page), "ready");
    assert.equal(await page.locator("#ready").innerText(), "prefill-resource-trace");
    // The host's 4096 tokens: KV = 2·L·T·h_kv·d_h·c = 2·32·4096·8·128·2 = 536 870 912 B.
    assert.equal(await kvFigure(page.locator("prefill-trace-lesson")), "537 MB (512 MiB)");
    assert.equal((await appliedStyles(page.locator("prefill-trace-lesson"))).lesson, "inline-size");
    await hostScenarioRule(page);
    void problems;
  });
});
