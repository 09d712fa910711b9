// The npm package's entry under Node's `require`: the UMD module with the .wasm bytes read from
// the package itself, so callers pass no options (see node.mjs for why).
"use strict";
const { readFileSync } = require("node:fs");
const path = require("node:path");

const factory = require("./element/wasm/prefill_trace.js");
const { renewingEngine } = require("./renewing.cjs");
let wasmBinary = null; // read on the first call, not at require

/** @type {import("./prefill_trace.d.ts")} */
module.exports = function PrefillTrace(options = {}) {
  wasmBinary ??= readFileSync(path.join(__dirname, "element/wasm/prefill_trace.wasm"));
  // An instance that aborts (its memory cap) is replaced by a new one (renewing.cjs).
  return renewingEngine(factory, { wasmBinary, ...options });
};
