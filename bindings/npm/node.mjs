// The npm package's entry under Node's `import`: the UMD module (element/wasm/prefill_trace.js,
// built for web and node; the package's one copy, beside the element's loader) with the .wasm
// bytes read from the package itself, so callers pass no options.
// Emscripten 3.1.6 cannot load its .wasm by itself under Node 18+ (it tries fetch() on a file
// path), and its EXPORT_ES6 output does not run under Node (TOOLCHAIN notes 2 and 3).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const factory = require("./element/wasm/prefill_trace.js");
const { renewingEngine } = require("./renewing.cjs");
let wasmBinary = null; // read on the first call, not at import

/** @type {import("./prefill_trace.d.mts").default} */
export default function PrefillTrace(options = {}) {
  wasmBinary ??= readFileSync(new URL("./element/wasm/prefill_trace.wasm", import.meta.url));
  // An instance that aborts (its memory cap) is replaced by a new one (renewing.cjs).
  return renewingEngine(factory, { wasmBinary, ...options });
}
