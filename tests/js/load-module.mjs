// Loads the built wasm module the way a Node embedder would: Emscripten 3.1.6 cannot fetch a
// file path under Node 18+ (TOOLCHAIN note 2), so the .wasm bytes are passed in.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import path from "node:path";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const wasmDir = process.env.PREFILL_TRACE_WASM_DIR ?? path.join(root, "build/wasm");
export const nativeCli = process.env.PREFILL_TRACE_CLI ?? path.join(root, "build/native/prefill-trace");
export const lessonPath = path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json");

export async function loadModule() {
  const require = createRequire(import.meta.url);
  const factory = require(path.join(wasmDir, "prefill_trace.js"));
  return factory({ wasmBinary: readFileSync(path.join(wasmDir, "prefill_trace.wasm")) });
}
