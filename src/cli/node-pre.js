// The CLI's Node build (npx prefill-trace): reads its .wasm beside this file synchronously.
// Emscripten 3.1.6 would otherwise try fetch() on a file path under Node 18+ and fail
// (../shared TOOLCHAIN note 2; emscripten #16913).
Module["wasmBinary"] = require("fs").readFileSync(__filename.replace(/\.c?js$/, ".wasm"));
