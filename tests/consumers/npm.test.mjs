// npm consumer tests: the packed tarball (npm pack ./build/npm) installed into an empty project in
// a temporary directory, used the ways a stranger would: require(), import from a
// "type": "module" package, an esbuild browser bundle (no extra flags) run in headless Chromium,
// and TypeScript --strict with moduleResolution nodenext and bundler. Each calls the engine and
// checks numbers derived by hand. Needs script/package (and so the wasm build and build-site).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";

import { launchChromium, repo, startServer } from "../browser/helpers.mjs";

const npmPackage = path.join(repo, "build/npm");
const bin = (name) => path.join(repo, "node_modules/.bin", name);

// A tiny model whose figures follow by hand from docs/model.md:
//   L = 2 layers, d = 16, h_q = 4, h_kv = 2, d_h = 4, d_ff = 32 (gated MLP), V = 100, untied;
//   T = 8 prompt tokens, B = 1, bf16 (c = 2 bytes per KV element).
//   parameters per layer = d·h_q·d_h (256) + 2·d·h_kv·d_h (256) + h_q·d_h·d (256)
//                          + 3·d·d_ff (1536) + 2·d (32) = 2336
//   parameters = L·2336 + 2·V·d (3200) + d (16) = 7888
//   KV bytes = 2·L·B·T·h_kv·d_h·c = 2·2·1·8·2·4·2 = 512
//   projection FLOPs per request, all layers = L·2T·(d·(h_q + 2h_kv)·d_h + h_q·d_h·d
//                          + d·2d_ff + d_ff·d) = 2·16·(512 + 256 + 1024 + 512) = 73728
const TINY = {
  model: { layers: 2, d_model: 16, query_heads: 4, kv_heads: 2, head_dim: 4, d_ff: 32, mlp: "gated", vocab: 100 },
  hardware: "h100-sxm",
  prompt_tokens: 8,
};
const EXPECTED = "7888 512 73728";

// The same check in every consumer: prints "parameters kvBytes projectionFlops version".
const CHECK_JS = `
const result = engine.computeTrace(${JSON.stringify(JSON.stringify(TINY))});
if (!result.ok) throw new Error(result.error);
const trace = JSON.parse(result.json);
const line = [trace.parameters, trace.totals.kv_cache.bytes,
  trace.steps[1].facts.projection_flops_per_request, engine.version()].join(" ");
`;

let work; // the temporary directory
let project; // the consumer project, "type": "module", with the tarball installed
let version;

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], ...options });
}

function write(file, text) {
  mkdirSync(path.dirname(path.join(project, file)), { recursive: true });
  writeFileSync(path.join(project, file), text);
}

before(() => {
  assert.ok(existsSync(path.join(npmPackage, "package.json")), "build/npm is missing: run script/package first");
  version = JSON.parse(readFileSync(path.join(npmPackage, "package.json"), "utf8")).version;
  work = mkdtempSync(path.join(tmpdir(), "prefill-trace-npm-consumer-"));
  project = path.join(work, "project");
  mkdirSync(project);
  const tarball = execFileSync("npm", ["pack", npmPackage, "--pack-destination", work, "--silent"], {
    cwd: work,
    encoding: "utf8",
  }).trim().split("\n").pop();
  write("package.json", JSON.stringify({ name: "consumer", private: true, type: "module" }));
  // The package has no dependencies: installing the local tarball needs no network.
  run("npm", ["install", "--offline", "--no-audit", "--no-fund", "--loglevel=error", path.join(work, tarball)]);
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test("the tarball holds the entries, the licences, each file once, and nothing of the repository", () => {
  const installed = path.join(project, "node_modules/prefill-trace");
  for (const file of ["node.mjs", "node.cjs", "element/wasm/prefill_trace.mjs", "element/wasm/prefill_trace.js",
    "element/wasm/prefill_trace.wasm", "prefill_trace.d.mts", "prefill_trace.d.ts",
    "LICENSE", "LICENSE-ATLAS.md", "NOTICE", "element/app.js", "element/prefill-trace-lesson.d.ts",
    "element/lesson-data/prefill-resource-trace-a76d037833bd69f7.json", "element/lesson-data/NOTICE"]) {
    assert.ok(existsSync(path.join(installed, file)), `${file} is in the package`);
  }
  for (const file of ["index.html", "element/index.html", "src", "CMakeLists.txt"]) {
    assert.ok(!existsSync(path.join(installed, file)), `${file} is not in the package`);
  }
  // No file ships twice (the .wasm once for every entry and the element; the chunks under their
  // content-hashed names only), except the licence texts the element's data folder repeats on
  // purpose (lesson-data/README.md says why).
  const byContent = new Map();
  for (const file of readdirSync(installed, { recursive: true })) {
    const full = path.join(installed, file);
    if (!statSync(full).isFile()) continue;
    const digest = createHash("sha256").update(readFileSync(full)).digest("hex");
    byContent.set(digest, [...(byContent.get(digest) ?? []), file]);
  }
  const twice = [...byContent.values()].filter((files) => files.length > 1).map((files) => files.sort().join(" = "));
  assert.deepEqual(twice.sort(), [
    "LICENSE-ATLAS.md = element/lesson-data/LICENSE-ATLAS.md",
    "NOTICE = element/lesson-data/NOTICE",
  ].sort());
  const compressed = readdirSync(installed, { recursive: true }).filter((f) => /\.(br|gz)$/.test(f));
  assert.deepEqual(compressed, [], "no precompressed copies");
  const pkg = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8"));
  assert.equal(pkg.private, undefined);
  assert.match(pkg.license, /^MIT AND LicenseRef-/);
});

test("require() from CommonJS: no options, the .wasm comes from the package", () => {
  write("use.cjs", `const PrefillTrace = require("prefill-trace");
PrefillTrace().then((engine) => {${CHECK_JS} console.log(line); });`);
  assert.equal(run(process.execPath, ["use.cjs"]).trim(), `${EXPECTED} ${version}`);
});

test("import from an ES-module package", () => {
  write("use.js", `import PrefillTrace from "prefill-trace";
const engine = await PrefillTrace();${CHECK_JS} console.log(line);`);
  assert.equal(run(process.execPath, ["use.js"]).trim(), `${EXPECTED} ${version}`);
});

test("a bad scenario is an error naming its JSON path, not an exception", () => {
  write("bad.js", `import PrefillTrace from "prefill-trace";
const engine = await PrefillTrace();
const result = engine.computeTrace(JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: -1 }));
console.log(result.ok, result.error);`);
  assert.match(run(process.execPath, ["bad.js"]), /^false .*prompt_tokens/);
});

/**
 * Serves `root`, opens a page in headless Chromium and hands it to `visit(page, errors, url)`;
 * `errors` collects page errors (a visit may add its own, e.g. failed responses) and must be
 * empty at the end.
 */
async function inChromium(root, visit) {
  const server = await startServer({ root });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await visit(page, errors, server.url);
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
    await server.stop();
  }
}

/** A consumer's built page writes the hand-derived figures and the version to body's data-result. */
const assertBuildRuns = (root) =>
  inChromium(root, async (page, errors, url) => {
    await page.goto(url);
    await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 15_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.result), `${EXPECTED} ${version}`);
  });

test("an esbuild browser bundle with no extra flags runs in headless Chromium", async () => {
  write("web/main.js", `import PrefillTrace from "prefill-trace";
const engine = await PrefillTrace();${CHECK_JS} document.body.dataset.result = line;`);
  run(bin("esbuild"), ["web/main.js", "--bundle", "--format=esm", "--outdir=dist", "--log-level=warning"]);
  const bundle = readFileSync(path.join(project, "dist/main.js"), "utf8");
  assert.doesNotMatch(bundle, /require\(["']|node:fs|__dirname/, "no Node code in the browser bundle");
  // esbuild leaves `new URL("prefill_trace.wasm", import.meta.url)` alone: the .wasm goes next
  // to the bundle, as the package README says.
  // The file the package's `prefill-trace/prefill_trace.wasm` export names.
  cpSync(createRequire(path.join(project, "package.json")).resolve("prefill-trace/prefill_trace.wasm"),
    path.join(project, "dist/prefill_trace.wasm"));
  write("dist/index.html", `<!doctype html><title>consumer</title><script type="module" src="main.js"></script>`);
  await assertBuildRuns(path.join(project, "dist"));
});

test("a Vite build with no configuration emits the .wasm and runs in headless Chromium", async () => {
  write("vite-app/index.html", `<!doctype html><title>vite consumer</title><script type="module" src="./main.js"></script>`);
  write("vite-app/main.js", `import PrefillTrace from "prefill-trace";
const engine = await PrefillTrace();${CHECK_JS} document.body.dataset.result = line;`);
  // Vite (a dev dependency of the repository) run from the consumer project, no config file.
  run(process.execPath, [path.join(repo, "node_modules/vite/bin/vite.js"), "build", "vite-app", "--outDir", "dist",
    "--logLevel", "error", "--base", "./"]);
  const emitted = readdirSync(path.join(project, "vite-app/dist/assets"));
  assert.ok(emitted.some((f) => /\.wasm$/.test(f)), `Vite emitted the .wasm (${emitted.join(", ")})`);
  await assertBuildRuns(path.join(project, "vite-app/dist"));
});

test("the element from the installed package renders the bundled lesson, its assets found next to app.js", async () => {
  write("element.html", `<!doctype html><title>element</title>
<script type="module" src="node_modules/prefill-trace/element/app.js"></script>
<prefill-trace-lesson view="lesson"></prefill-trace-lesson>`);
  await inChromium(project, async (page, errors, url) => {
    page.on("response", (response) => response.status() >= 400 && errors.push(`${response.status()} ${response.url()}`));
    await page.goto(new URL("element.html", url).href);
    const lesson = page.locator("prefill-trace-lesson");
    await page.waitForFunction(() => document.querySelector("prefill-trace-lesson")?.dataset.state !== "loading",
      null, { timeout: 20_000 });
    assert.equal(await lesson.getAttribute("data-state"), "ready");
    // The published lesson's name (lesson-data/prefill-resource-trace-a76d037833bd69f7.json).
    assert.match(await lesson.locator("h1, h2").first().innerText(), /Prefill and prompt processing/);
    // Every observed attribute has its property (the typings declare both; element-types.test.mjs).
    const reflected = await page.evaluate(() => {
      const element = document.createElement("prefill-trace-lesson");
      const names = customElements.get("prefill-trace-lesson").observedAttributes;
      return names.filter((name) => {
        const property = name.replace(/-(\w)/g, (_, c) => c.toUpperCase());
        return !(property in element);
      });
    });
    assert.deepEqual(reflected, [], "observed attributes without a property");
  });
});

test("the element bundled into a host's own esbuild bundle finds its assets through asset-base", async () => {
  write("host/main.js", `import "prefill-trace/element";
const element = document.createElement("prefill-trace-lesson");
element.setAttribute("asset-base", "/node_modules/prefill-trace/element/");
element.setAttribute("view", "lesson");
element.addEventListener("prefill-trace-ready", (event) => { document.body.dataset.ready = event.detail.lessonId; });
element.addEventListener("prefill-trace-error", (event) => { document.body.dataset.error = event.detail.message; });
document.body.append(element);`);
  run(bin("esbuild"), ["host/main.js", "--bundle", "--format=esm", "--outfile=host-dist/main.js", "--log-level=warning"]);
  write("host.html", `<!doctype html><title>host</title><body><script type="module" src="host-dist/main.js"></script>`);
  await inChromium(project, async (page, errors, url) => {
    page.on("response", (response) => response.status() >= 400 && errors.push(`${response.status()} ${response.url()}`));
    await page.goto(new URL("host.html", url).href);
    await page.waitForFunction(() => document.body.dataset.ready || document.body.dataset.error, null, { timeout: 20_000 });
    assert.equal(await page.evaluate(() => document.body.dataset.error), undefined);
    assert.equal(await page.evaluate(() => document.body.dataset.ready), "prefill-resource-trace");
  });
});

// Type-level checks the declarations must pass under --strict; each @ts-expect-error must be an
// error, so declarations typed as `any` would fail too.
const TYPED_USE = `
const engine = await PrefillTrace();
const result = engine.computeTrace("{}");
const ok: boolean = result.ok;
const json: string = result.json;
const figures: Float64Array = engine.traceFigures("{}").figures;
// @ts-expect-error computeTrace takes JSON text, not an object
engine.computeTrace({ model: "llama-3.1-8b" });
// @ts-expect-error sweep's variable is "prompt_tokens" or "arrival_rate"
engine.sweep("{}", "batch", [1]);
void [ok, json, figures];
`;
const TYPED_ELEMENT = `
const element = document.createElement("prefill-trace-lesson");
element.view = "explorer";
element.theme = "dark";
element.scenario = { model: "llama-3.1-8b", hardware: "h100-sxm" };
const scenario: string = element.scenario;
element.addEventListener("prefill-trace-ready", (event) => event.detail.lessonId.toUpperCase());
element.addEventListener("prefill-trace-scenario-change", (event) => event.detail.query.length);
element.addEventListener("prefill-trace-answer", (event) => event.detail.correct === true);
element.addEventListener("prefill-trace-error", (event) => event.detail.message.trim());
// @ts-expect-error view is "full", "lesson" or "explorer"
element.view = "wide";
void scenario;
`;

function tsc(config) {
  write("tsconfig.json", JSON.stringify(config, null, 2));
  try {
    run(process.execPath, [path.join(repo, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"]);
  } catch (error) {
    assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
  }
}

test("TypeScript --strict, moduleResolution nodenext: import, require and the element; the output runs", () => {
  write("ts-node/use.mts", `import PrefillTrace from "prefill-trace";
import type { PrefillTraceModule } from "prefill-trace";
${TYPED_USE}
const typed: PrefillTraceModule = engine;
${CHECK_JS.replace("const result", "const traced").replaceAll("result.", "traced.").replace("engine.version", "typed.version")} console.log(line);`);
  write("ts-node/use.cts", `import PrefillTrace = require("prefill-trace");
PrefillTrace().then((engine: PrefillTrace.PrefillTraceModule) => {${CHECK_JS} console.log(line); });`);
  write("ts-node/element.mts", `import type {} from "prefill-trace/element";
import type { PrefillTraceLesson } from "prefill-trace/element";
${TYPED_ELEMENT}
const typed: PrefillTraceLesson = element;
void typed;`);
  tsc({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022",
      lib: ["es2022", "dom"], types: [], outDir: "out", rootDir: "ts-node" },
    include: ["ts-node"],
  });
  // A Node project has no DOM library (and @types/node may lack WebAssembly): the engine's
  // declarations must not need either. `console` is declared here in place of @types/node.
  write("ts-node-only/globals.d.ts", "declare const console: { log(...values: unknown[]): void };");
  cpSync(path.join(project, "ts-node/use.mts"), path.join(project, "ts-node-only/use.mts"));
  cpSync(path.join(project, "ts-node/use.cts"), path.join(project, "ts-node-only/use.cts"));
  write("ts-node-only/instantiate.mts", `import PrefillTrace from "prefill-trace";
await PrefillTrace({ instantiateWasm: (imports, receiveInstance) => { void [imports, receiveInstance]; return {}; } });`);
  tsc({
    compilerOptions: { strict: true, module: "nodenext", moduleResolution: "nodenext", target: "es2022",
      lib: ["es2022"], types: [], noEmit: true },
    include: ["ts-node-only"],
  });
  assert.equal(run(process.execPath, ["out/use.mjs"]).trim(), `${EXPECTED} ${version}`);
  assert.equal(run(process.execPath, ["out/use.cjs"]).trim(), `${EXPECTED} ${version}`);
});

test("TypeScript --strict, moduleResolution bundler: the browser entry, the element and React 19 JSX", () => {
  // @types/react from the repository (a devDependency), as the consumer's own dependency.
  mkdirSync(path.join(project, "node_modules/@types"), { recursive: true });
  if (!existsSync(path.join(project, "node_modules/@types/react"))) {
    symlinkSync(path.join(repo, "node_modules/@types/react"), path.join(project, "node_modules/@types/react"), "dir");
  }
  write("ts-web/use.ts", `import PrefillTrace from "prefill-trace";
${TYPED_USE}
export {};`);
  write("ts-web/element.ts", `import "prefill-trace/element";
import type { PrefillTraceLessonConstructor } from "prefill-trace/element";
${TYPED_ELEMENT}
const Lesson = customElements.get("prefill-trace-lesson") as PrefillTraceLessonConstructor | undefined;
if (Lesson) Lesson.assetBase = new URL("https://example.org/prefill-trace/");`);
  write("ts-web/host.tsx", `import type {} from "prefill-trace/element/react";
export function Inspector({ lesson }: { lesson: string }) {
  return (
    <prefill-trace-lesson lesson-src={lesson} view="lesson" theme="dark" storage="none"
      onprefill-trace-answer={(event) => console.log(event.detail.questionKey, event.detail.correct)} />
  );
}
// @ts-expect-error theme is "auto", "light" or "dark"
export const wrong = <prefill-trace-lesson theme="sepia" />;`);
  tsc({
    compilerOptions: { strict: true, module: "esnext", moduleResolution: "bundler", target: "es2022",
      lib: ["es2022", "dom"], jsx: "react-jsx", types: [], noEmit: true },
    include: ["ts-web"],
  });
});
