// A host's `instantiateWasm` hook that fails must fail the factory's promise. Emscripten 3.1.6
// catches an exception thrown by the hook, prints "Module.instantiateWasm callback failed" and
// carries on without a module, so the promise never settles (later Emscripten versions reject
// it themselves). Prepended to the glue with --pre-js, inside the factory, where Module holds
// the host's options and readyPromiseReject is the factory promise's reject: the hook is
// wrapped so that a throw, a returned promise that rejects, or a hook that is not a function
// rejects the promise with the host's own error.
(function guardInstantiateWasm() {
  if (!Module["instantiateWasm"]) return;  // as the glue reads it: absent, undefined or null
  var hostInstantiate = Module["instantiateWasm"];
  Module["instantiateWasm"] = function (imports, receiveInstance) {
    try {
      if (typeof hostInstantiate !== "function") {
        throw new TypeError("instantiateWasm must be a function, not " + typeof hostInstantiate);
      }
      var result = hostInstantiate(imports, receiveInstance);
      if (result && typeof result.then === "function") result.then(null, readyPromiseReject);
      return result;
    } catch (error) {
      readyPromiseReject(error);
      return {};  // "instantiating asynchronously": the glue waits, and the promise is settled
    }
  };
})();
