// ES-module build only (--pre-js, inside the factory): a factory call without its own
// `instantiateWasm` or `wasmBinary` compiles the .wasm once per address for the whole document
// (prefillTraceCompiled, shared-compile-extern-pre.js) and instantiates it per call. So a page
// that imports the engine (`import PrefillTrace from "prefill-trace"`) and shows the lesson
// element, which imports the same module, downloads the .wasm once. A failed download or
// compile rejects the factory's promise (Emscripten's own hook would wait for ever) and is
// forgotten, so a later call tries again.
if (!Module["instantiateWasm"] && !Module["wasmBinary"] && typeof fetch == "function" &&
    typeof WebAssembly == "object") {
  Module["instantiateWasm"] = function (imports, receiveInstance) {
    var url = wasmBinaryFile;
    var compiled = prefillTraceCompiled.get(url);
    if (!compiled) {
      compiled = fetch(url, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) {
          throw new Error("could not load " + url + ": HTTP " + response.status);
        }
        // Streamed when served as application/wasm; from the bytes under any other type.
        var bytes = response.clone();
        return WebAssembly.compileStreaming(response).catch(function () {
          return bytes.arrayBuffer().then(function (buffer) { return WebAssembly.compile(buffer); });
        });
      });
      compiled.catch(function () { prefillTraceCompiled.delete(url); });
      prefillTraceCompiled.set(url, compiled);
    }
    compiled
      .then(function (wasmModule) {
        return WebAssembly.instantiate(wasmModule, imports).then(function (instance) {
          receiveInstance(instance, wasmModule);
        });
      })
      .catch(function (error) { readyPromiseReject(error); });
    return {};  // the exports arrive later, through receiveInstance
  };
}
