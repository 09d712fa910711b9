// The npm package's entry under Node's `import`: the UMD module (element/wasm/prefill_trace.js,
// built for web and node; the package's one copy, beside the element's loader) with the .wasm
// bytes read from the package itself, so callers pass no options.
// Emscripten 3.1.6 cannot load its .wasm by itself under Node 18+ (it tries fetch() on a file
// path), and its EXPORT_ES6 output does not run under Node (TOOLCHAIN notes 2 and 3).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const factory = require("./element/wasm/prefill_trace.js");
const { renewingEngine } = require("./renewing.cjs");
let wasmBinary = null; // read on the first call, not at import

/**
 * The .wasm's file. Written as `new URL(<literal>, import.meta.url)` so a bundler building a
 * server may emit it; but Next.js (webpack's `url: "relative"`, Turbopack) rewrites that to a
 * URL-like object whose href is the path the browser is served the file under
 * ("/_next/static/media/…"), not a file: URL (fs refused it: "Received an instance of URL").
 * Then the file is the one beside this module as installed: `import.meta.url`, which those
 * bundlers set to the module's own file: URL (a path join, not a `new URL` they would rewrite).
 */
function wasmFile() {
  const emitted = String(new URL("./element/wasm/prefill_trace.wasm", import.meta.url));
  if (emitted.startsWith("file:")) return fileURLToPath(emitted);
  return path.join(path.dirname(fileURLToPath(String(import.meta.url))), "element", "wasm", "prefill_trace.wasm");
}

/** @type {import("./prefill_trace.d.mts").default} */
export default function PrefillTrace(options = {}) {
  wasmBinary ??= readFileSync(wasmFile());
  // An instance that aborts (its memory cap) is replaced by a new one (renewing.cjs).
  return renewingEngine(factory, { wasmBinary, ...options });
}
