// npm consumer tests: the packed tarball (npm pack ./build/npm) installed once into an empty
// project in a temporary directory, used the ways a stranger would: require(), import from a
// "type": "module" package, esbuild, webpack 5 (default configuration), Vite build and vite dev
// browser builds of the engine and the element run in one headless Chromium, the element from a
// CDN on a second origin, its import under Node (server rendering), publint and
// @arethetypeswrong/cli, `npx prefill-trace` against the native CLI, the three examples/, and
// TypeScript --strict with moduleResolution nodenext and bundler. Each checks numbers derived by hand. Needs script/package (and so the
// wasm build and build-site).
import assert from "node:assert/strict";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { createServer as createHttpServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";

import { launchChromium, repo, startServer } from "../browser/helpers.mjs";
import { CHECK_JS, ELEMENT_APP_JS, EXPECTED, freePort, readmeCsp } from "./consumer-shared.mjs";

const npmPackage = path.join(repo, "build/npm");
const bin = (name) => path.join(repo, "node_modules/.bin", name);

let work; // the temporary directory
let project; // the consumer project, "type": "module", with the tarball installed
let version;
let browser; // a promise of the one headless Chromium, once a test needs it

// Child processes print plain text whatever the caller's environment asks for: CI runners set
// CI (picocolors, Vite's colours, then wrapped "Local:" in escape sequences and the readiness
// match never fired) and some set FORCE_COLOR (Node then colours console.log's booleans).
const { FORCE_COLOR: _ignoredForceColor, ...callerEnv } = process.env;
const plainEnv = { ...callerEnv, NO_COLOR: "1" };

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: project, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], env: plainEnv, ...options });
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

after(async () => {
  await (await browser)?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

test("the tarball holds the entries, the licences, each file once, and nothing of the repository", () => {
  const installed = path.join(project, "node_modules/prefill-trace");
  for (const file of ["node.mjs", "node.cjs", "element/wasm/prefill_trace.mjs", "element/wasm/prefill_trace.js",
    "element/wasm/prefill_trace.wasm", "prefill_trace.d.mts", "prefill_trace.d.cts",
    "LICENSE", "LICENSE-ATLAS.md", "NOTICE", "element/app.js", "element/prefill-trace-lesson.d.ts",
    "element/lesson-data/prefill-resource-trace-a76d037833bd69f7.json", "element/lesson-data/NOTICE",
    "cli/prefill-trace.cjs", "cli/prefill-trace.wasm"]) {
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
  const server = root ? await startServer({ root }) : null;
  // One browser for every test of this file (launched by the first that needs it).
  browser ??= launchChromium();
  const context = await (await browser).newContext();
  try {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await visit(page, errors, server?.url);
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
    await server?.stop();
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

// The element and the engine in one page, as a host bundles them with its own build: the
// element (view="full": the lesson with its typeset equations, so the style sheets, the lesson
// data and KaTeX's fonts must all be found, and the explorer) shows the default scenario (llama-3.1-8b, 2048 tokens, bf16), whose
// KV cache is 2·L·T·h_kv·d_h·c = 2·32·2048·8·128·2 = 268 435 456 bytes: "268 MB (256 MiB)"; the
// page's own engine call writes the tiny model's figures (EXPECTED). The two share one module
// (the element imports the package's ES-module engine), so the .wasm is downloaded once
// (ELEMENT_APP_JS, consumer-shared.mjs).

/** Failed responses become page errors; returns the list the page's .wasm requests go to. */
function watchRequests(page, errors) {
  const wasm = [];
  page.on("request", (request) => /\.wasm$/.test(new URL(request.url()).pathname) && wasm.push(request.url()));
  page.on("response", (response) => response.status() >= 400 && errors.push(`${response.status()} ${response.url()}`));
  return wasm;
}

/** The explorer's KV-cache figure, as the reader sees it (whitespace folded). */
async function kvFigure(lesson) {
  return (await lesson.locator('[data-figure="kv-bytes"] .figure-value').innerText()).replace(/\s+/g, " ").trim();
}

/** Opens `url` and checks what ELEMENT_APP_JS promises. */
async function assertElementApp(page, errors, url) {
  const wasm = watchRequests(page, errors);
  // A CSP violation (the README's policy, where the page states it) is an error too.
  page.on("console", (message) => message.type() === "error" && /Content Security Policy/i.test(message.text()) && errors.push(message.text()));
  await page.goto(url);
  await page.waitForFunction(() => document.body?.dataset.result && document.querySelector("prefill-trace-lesson")?.dataset.state !== "loading",
    null, { timeout: 30_000 });
  assert.equal(await page.evaluate(() => document.body.dataset.result), `${EXPECTED} ${version}`);
  const lesson = page.locator("prefill-trace-lesson");
  assert.equal(await lesson.getAttribute("data-state"), "ready");
  assert.equal(await kvFigure(lesson), "268 MB (256 MiB)");
  assert.equal(wasm.length, 1, `one .wasm download: ${wasm.join(" ")}`);
  // The equations typeset, in KaTeX's own fonts (declared by the element, emitted by the bundler).
  assert.ok(await lesson.locator(".equation-math .katex").count() > 0, "typeset equations");
  assert.ok(await page.evaluate(() => [...document.fonts].some((face) => face.family === "KaTeX_Main" && face.status === "loaded")),
    "KaTeX_Main loaded");
  // No global: the element imports the ES module (no UMD <script>).
  assert.equal(await page.evaluate(() => typeof window.PrefillTrace), "undefined");
}

test("webpack 5 with its default configuration bundles the element and the engine; one .wasm download", async () => {
  write("webpack-app/src/index.js", ELEMENT_APP_JS);
  // No webpack.config.js: webpack-cli's defaults (entry ./src/index.js, output ./dist/main.js,
  // mode production with its "mode not set" warning).
  const output = run(process.execPath, [path.join(repo, "node_modules/webpack-cli/bin/cli.js"), "--no-color"],
    { cwd: path.join(project, "webpack-app") });
  assert.doesNotMatch(output, /Critical dependency|Module not found|ERROR/, output);
  write("webpack-app/dist/index.html", `<!doctype html><title>webpack consumer</title><link rel="icon" href="data:,"><body><script src="main.js"></script>`);
  await inChromium(path.join(project, "webpack-app/dist"), (page, errors, url) => assertElementApp(page, errors, url));
});

test("webpack 5 under the README's strict CSP: its chunk loader's Trusted Types policy is the one line", async () => {
  // webpack loads split chunks (the element's import()s) by <script src>, which
  // `require-trusted-types-for 'script'` blocks without a policy: webpack's own
  // (output.trustedTypes, named "webpack"), admitted by the CSP beside the element's own prefill-trace (README).
  write("webpack-csp/src/index.js", ELEMENT_APP_JS);
  write("webpack-csp/webpack.config.js", "export default { output: { trustedTypes: true } };\n");
  const output = run(process.execPath, [path.join(repo, "node_modules/webpack-cli/bin/cli.js"), "--no-color"],
    { cwd: path.join(project, "webpack-csp") });
  assert.doesNotMatch(output, /Critical dependency|Module not found|ERROR/, output);
  // script/serve.mjs sends the page's <meta> policy as a header too.
  const csp = readmeCsp("webpack");
  write("webpack-csp/dist/index.html", `<!doctype html><title>webpack consumer</title><meta http-equiv="Content-Security-Policy" content="${csp}">
<link rel="icon" href="data:,"><body><script src="main.js"></script>`);
  await inChromium(path.join(project, "webpack-csp/dist"), (page, errors, url) => assertElementApp(page, errors, url));
});

test("a Vite build with no configuration bundles the element and the engine, emits the .wasm and runs in headless Chromium under the README's CSP", async () => {
  // Vite inlines files under 4 KiB as data: URLs (a KaTeX font here), which the policy refuses to load.
  write("vite-app/index.html", `<!doctype html><title>vite consumer</title><meta http-equiv="Content-Security-Policy" content="${readmeCsp()}">
<link rel="icon" href="data:,"><script type="module" src="./main.js"></script>`);
  write("vite-app/main.js", ELEMENT_APP_JS);
  // Vite (a dev dependency of the repository) run from the consumer project, no config file.
  run(process.execPath, [path.join(repo, "node_modules/vite/bin/vite.js"), "build", "vite-app", "--outDir", "dist",
    "--logLevel", "error", "--base", "./"]);
  const emitted = readdirSync(path.join(project, "vite-app/dist/assets"));
  assert.ok(emitted.some((f) => /\.wasm$/.test(f)), `Vite emitted the .wasm (${emitted.join(", ")})`);
  await inChromium(path.join(project, "vite-app/dist"), (page, errors, url) => assertElementApp(page, errors, url));
});

test("vite dev (no configuration) serves the element and the engine", async () => {
  // The same app as the Vite build's (written by that test, or here when run alone).
  write("vite-app/index.html", `<!doctype html><title>vite consumer</title><script type="module" src="./main.js"></script>`);
  write("vite-app/main.js", ELEMENT_APP_JS);
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(repo, "node_modules/vite/bin/vite.js"), "vite-app", "--port", String(port),
    "--strictPort", "--host", "127.0.0.1", "--clearScreen", "false"],
    // Plain text (plainEnv), and the readiness match also strips escape sequences in case a
    // later Vite colours regardless.
    { cwd: project, stdio: ["ignore", "pipe", "pipe"], env: plainEnv });
  try {
    let out = "";
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`vite dev did not start: ${out}`)), 30_000);
      server.stdout.setEncoding("utf8");
      server.stdout.on("data", (chunk) => {
        out += chunk;
        if (/Local:/.test(out.replace(/\x1b\[[0-9;]*m/g, ""))) { clearTimeout(timer); resolve(); }
      });
      server.once("exit", (code) => { clearTimeout(timer); reject(new Error(`vite dev exited with ${code}: ${out}`)); });
    });
    await inChromium(null, (page, errors) => assertElementApp(page, errors, `http://127.0.0.1:${port}/`));
  } finally {
    server.kill("SIGTERM");
  }
});

test("importing the element under Node (server rendering) defines nothing and throws nothing", () => {
  // A server that renders the host's page imports its modules, the element's among them; Node has
  // no HTMLElement and no customElements.
  write("ssr.js", `const element = await import("prefill-trace/element");
console.log(JSON.stringify({ exports: Object.keys(element), customElements: typeof customElements }));`);
  assert.deepEqual(JSON.parse(run(process.execPath, ["ssr.js"])), { exports: [], customElements: "undefined" });
});

// `npx prefill-trace` is the native CLI's own source (src/cli) linked for Node, so its output must
// be the native CLI's byte for byte: stdout, stderr and exit code, for the README's command-line
// examples and for bad input. build/native/prefill-trace is the reference (script/test builds it
// first). Each run of the installed bin starts Node and compiles the CLI's .wasm (~0.3 s here).
const nativeCli = path.join(repo, "build/native/prefill-trace");
const CLI_CASES = [
  // [arguments, the exit code the README documents: 0 ok, 1 wrong quiz answer, 2 bad input]
  [["--version"], 0],
  [["--help"], 0],
  [["lesson", "--verify"], 0], // --verify: SHA-256 through node:crypto in the wasm build
  [["quiz", "--answer", "2"], 1], // the bundled lesson's check has "answer": 0 (0-based), printed as 1
  [["trace", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--prompt", "2048", "--batch", "1"], 0],
  [["trace", "--model", "llama-3.1-70b", "--hardware", "h100-sxm", "--tensor-parallel", "4", "--timing", "estimate",
    "--graphs", "on", "--arrival-rate", "2", "--stack", "vllm", "--json"], 0],
  [["trace", "--scenario", "cli-scenario.json", "--attention", "materialized", "--csv"], 0], // a file, through Node's fs
  [["sweep", "--variable", "prompt_tokens", "--values", "128,512,2048"], 0],
  [["serve", "--model", "llama-3.1-8b", "--hardware", "h100-sxm", "--rate", "20", "--requests", "1000",
    "--prompt-dist", "lognormal:1024:0.5", "--output", "128"], 0],
  [["presets", "--json"], 0],
  // Bad input: exit 2 and one line naming the flag, the file or the JSON path.
  [["trace", "--prompt", "0x800"], 2],
  [["trace", "--scenario", "cli-bad-scenario.json"], 2],
  [["trace", "--scenario", "cli-missing.json"], 2], // the C library's strerror text: musl's = glibc's here
  [["lesson", "."], 2], // a directory, refused by its kind from stat()
  // Per-command help and the short version flag (issue 32).
  [["serve", "--help"], 0],
  [["trace", "-h"], 0],
  [["help", "serve"], 0],
  [["-V"], 0],
  [["serve", "--rate", "5", "--requests", "10", "--prompt", "512", "--output", "16", "--sweep-rates", "1,2", "--csv"], 2],
  // The sweep given in a file, not a flag: refused too, naming the file's /serving/sweep_rates.
  [["serve", "--scenario", "cli-serve-sweep.json", "--csv"], 2],
];

test("npx prefill-trace: the native CLI's stdout, stderr and exit code, byte for byte", () => {
  assert.ok(existsSync(nativeCli), "build/native/prefill-trace is missing: cmake --workflow --preset native");
  write("cli-scenario.json", JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm", prompt_tokens: 4096,
    chunk_tokens: 512 }));
  write("cli-bad-scenario.json", JSON.stringify({ model: "llama-3.1-8b", batch: -1 }));
  write("cli-serve-sweep.json", JSON.stringify({ model: "llama-3.1-8b", hardware: "h100-sxm",
    serving: { rate: 5, requests: 10, prompt: 512, output: 16, sweep_rates: [1, 2] } }));
  // Through npm itself once, offline (npx = npm exec): the package's "bin" is wired up.
  assert.equal(run("npm", ["exec", "--offline", "--", "prefill-trace", "--version"]), `prefill-trace ${version}\n`);
  // The rest through the installed bin, the file npx runs, to keep npm's own start-up out.
  const installed = path.join(project, "node_modules/.bin/prefill-trace");
  const outcome = (command, args) => {
    const result = spawnSync(command, args, { cwd: project, stdio: ["ignore", "pipe", "pipe"], env: plainEnv });
    return { status: result.status, signal: result.signal, stdout: result.stdout.toString("latin1"),
      stderr: result.stderr.toString("latin1") };
  };
  const results = CLI_CASES.map(([args, status]) => {
    const native = outcome(nativeCli, args);
    const npx = outcome(installed, args);
    assert.equal(native.status, status, `native ${args.join(" ")}: ${native.stderr}`);
    assert.deepEqual(npx, native, `prefill-trace ${args.join(" ")}`);
    if (status === 2) {
      assert.equal(npx.stdout, "");
      assert.match(npx.stderr, /^prefill-trace: [^\n]+\n$/);
    } else {
      assert.ok(npx.stdout.length > 0);
    }
    return npx;
  });
  // A figure derived by hand, so the comparison is not of two empty or broken outputs:
  // llama-3.1-8b, 2048 tokens, bf16: KV = 2·L·T·h_kv·d_h·c = 2·32·2048·8·128·2 B = 268 MB (256 MiB).
  assert.match(results[4].stdout, /^KV state left behind: 268 MB \(256 MiB\)/m);
  assert.match(results[11].stderr, /cli-bad-scenario\.json: \/batch: /);
  // `serve --help` and `help serve` are one text, naming serve's own flags.
  assert.equal(results[14].stdout, results[16].stdout);
  assert.match(results[14].stdout, /^  --policy /m);
});

test("publint and @arethetypeswrong/cli find nothing wrong with the package", () => {
  const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
  // publint: errors and warnings fail; its one suggestion (the "browser" object, kept for
  // bundlers that read no "exports") is printed, not failed (--level warning).
  const publint = run(process.execPath, [path.join(repo, "node_modules/publint/src/cli.js"), "run", "--level", "warning", "--strict",
    path.join(project, "node_modules/prefill-trace")]);
  assert.doesNotMatch(publint, /Errors:|Warnings:/, publint);
  // attw: the Node 16+ and bundler resolutions (the package needs Node >= 18, so node10's
  // resolution without "exports" is not one of them); the .wasm export has no types by nature,
  // and the element is an ES module only (a browser custom element: require() is not a way in).
  try {
    run(process.execPath, [path.join(repo, "node_modules/@arethetypeswrong/cli/dist/index.js"), path.join(work, tarball),
      "--profile", "node16", "--exclude-entrypoints", "./prefill_trace.wasm", "--ignore-rules", "cjs-resolves-to-esm",
      "--format", "table-flipped"]);
  } catch (error) {
    assert.fail(`attw found problems:\n${error.stdout}${error.stderr}`);
  }
});

/**
 * A CDN: serves `root` on 127.0.0.2 (another origin than the page's 127.0.0.1) with
 * `Access-Control-Allow-Origin: *`, as unpkg and jsDelivr do.
 */
function startCdn(root) {
  const types = { ".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".json": "application/json",
    ".wasm": "application/wasm", ".woff2": "font/woff2" };
  const server = createHttpServer((request, response) => {
    const file = path.join(root, decodeURIComponent(new URL(request.url, "http://cdn").pathname));
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404, { "access-control-allow-origin": "*" }).end();
      return;
    }
    response.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream",
      "access-control-allow-origin": "*" }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.2", () =>
    resolve({ url: `http://127.0.0.2:${server.address().port}/`, stop: () => new Promise((done) => server.close(done)) })));
}

test("from a CDN (another origin, CORS): the element shows its bundled lesson and the explorer; no Trusted Types policy", async () => {
  const cdn = await startCdn(path.join(project, "node_modules/prefill-trace"));
  try {
    // The host's CSP admits the CDN and no Trusted Types policy at all ('none').
    const csp = [`default-src 'self'`, `script-src 'self' ${cdn.url} 'wasm-unsafe-eval'`, `style-src 'self' ${cdn.url}`,
      `font-src ${cdn.url}`, `img-src data:`, `connect-src 'self' ${cdn.url}`, `require-trusted-types-for 'script'`, `trusted-types 'none'`].join("; ");
    write("cdn-host/index.html", `<!doctype html><title>cdn host</title><link rel="icon" href="data:,">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<script type="module" src="${cdn.url}element/app.js"></script>
<prefill-trace-lesson storage="none"></prefill-trace-lesson>`);
    await inChromium(path.join(project, "cdn-host"), async (page, errors, url) => {
      watchRequests(page, errors);
      page.on("console", (message) => message.type() === "error" && errors.push(message.text()));
      await page.goto(url);
      const lesson = page.locator("prefill-trace-lesson");
      await page.waitForFunction(() => document.querySelector("prefill-trace-lesson")?.dataset.state !== "loading", null, { timeout: 30_000 });
      assert.equal(await lesson.getAttribute("data-state"), "ready");
      assert.match(await lesson.locator("h1, h2").first().innerText(), /Prefill and prompt processing/);
      // The default scenario's KV cache, derived by hand above ELEMENT_APP_JS.
      assert.equal(await kvFigure(lesson), "268 MB (256 MiB)");
    });
  } finally {
    await cdn.stop();
  }
});

test("examples/plain-html: the element from the installed package renders the bundled lesson, its assets found next to app.js", async () => {
  // The example as it is: it links ./node_modules/prefill-trace/element/app.js.
  cpSync(path.join(repo, "examples/plain-html/index.html"), path.join(project, "element.html"));
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

test("examples/node: the engine under Node prints the trace's KV cache and a sweep", () => {
  cpSync(path.join(repo, "examples/node/trace.mjs"), path.join(project, "trace.mjs"));
  const out = run(process.execPath, ["trace.mjs"]);
  // llama-3.1-8b, 2048 tokens, bf16: 2·L·T·h_kv·d_h·c = 2·32·2048·8·128·2 = 268 435 456 bytes.
  assert.match(out, /^KV cache: 268435456 bytes$/m);
  assert.match(out, new RegExp(`^engine ${version.replaceAll(".", "\\.")}:`, "m"));
  // Three sweep points, in the order asked.
  assert.deepEqual([...out.matchAll(/^\s+(\d+) tokens: TTFT \d+\.\d\d ms$/gm)].map((m) => Number(m[1])), [512, 2048, 8192]);
});

test("examples/react-vite: React 19 + Vite with no configuration; scenario as an object, one .wasm download", async () => {
  const app = path.join(project, "react-app");
  cpSync(path.join(repo, "examples/react-vite"), app, { recursive: true });
  // react and react-dom from the repository (dev dependencies), as the example's own dependencies.
  for (const name of ["react", "react-dom"]) {
    if (!existsSync(path.join(project, "node_modules", name))) {
      symlinkSync(path.join(repo, "node_modules", name), path.join(project, "node_modules", name), "dir");
    }
  }
  run(process.execPath, [path.join(repo, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "error", "--base", "./"], { cwd: app });
  await inChromium(path.join(app, "dist"), async (page, errors, url) => {
    const wasm = watchRequests(page, errors);
    await page.goto(url);
    const lesson = page.locator("prefill-trace-lesson");
    await page.waitForFunction(() => document.querySelector("prefill-trace-lesson")?.dataset.state === "ready" &&
      /bytes/.test(document.querySelector("#kv")?.textContent ?? ""), null, { timeout: 30_000 });
    // The example's scenario, 4096 tokens (not the default 2048), in the page's engine call and,
    // set by React 19 as the element's property, in the explorer:
    // 2·L·T·h_kv·d_h·c = 2·32·4096·8·128·2 = 536 870 912 bytes.
    assert.equal(await page.locator("#kv").innerText(), "KV cache: 536870912 bytes");
    assert.equal(await kvFigure(lesson), "537 MB (512 MiB)");
    assert.equal(wasm.length, 1, `one .wasm download: ${wasm.join(" ")}`);
    // The reader's edit survives a React re-render (the theme button) that sets the scenario
    // again as a new, equal object (host-owned scenario, issue 32).
    const field = lesson.getByLabel("Prompt tokens (exact)", { exact: true });
    await field.fill("8192");
    await field.press("Enter");
    await field.blur();
    const shownTokens = () => page.evaluate(() => JSON.parse(document.querySelector("prefill-trace-lesson").scenario).prompt_tokens);
    await page.waitForFunction(() => JSON.parse(document.querySelector("prefill-trace-lesson").scenario).prompt_tokens === 8192);
    await page.click("#theme");
    await page.waitForFunction(() => document.querySelector("prefill-trace-lesson").getAttribute("theme") === "dark");
    assert.equal(await shownTokens(), 8192);
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
// The placement search in slices from the installed package (docs/serving.md, "In slices"): 0
// devices is below the plan's range of 1 to 16, refused at "/devices"; a plan that never started
// cannot advance (usage). delete() frees the Embind object.
const plan = new engine.ServingPlan();
const planStart = plan.start("{}", 0);
const planStep = plan.advance(1);
const placementsTotal: number = planStep.placementsTotal;
plan.delete();
if (planStart.ok || planStart.path !== "/devices" || planStep.ok || planStep.code !== engine.ErrorCode.usage) {
  throw new Error("ServingPlan from the package: " + planStart.error + " / " + planStep.error);
}
// @ts-expect-error devices is a number (never called: Embind would refuse a string at run time)
const wrongDevices = () => plan.start("{}", "2");
void [ok, json, figures, placementsTotal, wrongDevices];
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
import PrefillTrace from "prefill-trace";
import type { PrefillTraceLessonConstructor } from "prefill-trace/element";
${TYPED_ELEMENT}
const Lesson = customElements.get("prefill-trace-lesson") as PrefillTraceLessonConstructor | undefined;
if (Lesson) {
  Lesson.assetBase = new URL("https://example.org/prefill-trace/");
  Lesson.engineFactory = (options) => PrefillTrace(options);
}`);
  write("ts-web/host.tsx", `import type {} from "prefill-trace/element/react";
export function Inspector({ lesson }: { lesson: string }) {
  return (
    <prefill-trace-lesson lesson-src={lesson} view="lesson" theme="dark" storage="none"
      onprefill-trace-answer={(event) => console.log(event.detail.questionKey, event.detail.correct)} />
  );
}
// React 19 sets these as properties: an object scenario and the saved answers.
export const explorer = <prefill-trace-lesson view="explorer" scenario={{ model: "llama-3.1-8b", prompt_tokens: 4096 }}
  progress={{ "check-0": { answer: 1, correct: true } }} />;
// @ts-expect-error progress holds {answer, correct} per question
export const badProgress = <prefill-trace-lesson progress={{ "check-0": 1 }} />;
// @ts-expect-error theme is "auto", "light" or "dark"
export const wrong = <prefill-trace-lesson theme="sepia" />;`);
  tsc({
    compilerOptions: { strict: true, module: "esnext", moduleResolution: "bundler", target: "es2022",
      lib: ["es2022", "dom"], jsx: "react-jsx", types: [], noEmit: true },
    include: ["ts-web"],
  });
});
