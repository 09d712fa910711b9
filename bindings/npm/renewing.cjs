// An engine that outlives an abort, for the Node entries (node.cjs, node.mjs). The module aborts
// when its WebAssembly heap reaches the 128 MB cap (docs/robustness.md): an aborted instance is
// dead for good, and before issue 33 every later call on it answered "Aborted()" — one bad call
// among 50 concurrent ones made 349 later ones fail. PrefillTrace() therefore resolves to a
// stand-in for the module: it reads every property from the live instance, and when a call
// aborts the instance (the glue's `onAbort` hook, one of its documented options) it discards
// that instance, makes a new one from the same compiled module at once, and answers the call
// that aborted with a refusal saying so in words. Later calls are answered by the new instance.
//
// The new instance is made synchronously, so the very next call works: the glue (Emscripten
// 3.1.6, MODULARIZE) fills the options object it is given with the exports and, when the
// `instantiateWasm` hook hands it an instance at once, runs to the end before returning. A host
// that passes its own `instantiateWasm` gets its hook called again instead, and calls made
// before that new instance is ready are refused as "being replaced".
"use strict";

/** Why the call was refused, in words: the reply's `error`, after the export's name. */
const ABORTED =
  "the engine aborted (most likely its WebAssembly memory reached the 128 MB cap, docs/robustness.md) " +
  "and this instance was discarded; a new instance answers later calls";
const REPLACING = "the engine aborted on an earlier call and its new instance is not ready yet; try again";

/**
 * Resolves to the stand-in. `factory` is the glue's module factory; `options` its options
 * (the .wasm bytes in `wasmBinary`).
 */
function renewingEngine(factory, options) {
  const hostAbort = options.onAbort;
  const hostInstantiate = options.instantiateWasm;
  let compiled = null; // the WebAssembly.Module, compiled once: every instance is made from it
  let live = null; // the module object answering calls
  let pending = null; // a new instance's promise while it is being made (host hook only)
  let aborted = false;

  function optionsOnce() {
    const own = { ...options };
    own.onAbort = (what) => {
      aborted = true;
      if (typeof hostAbort === "function") hostAbort(what);
    };
    if (!hostInstantiate) {
      own.instantiateWasm = (imports, receiveInstance) => {
        if (compiled) {
          const instance = new WebAssembly.Instance(compiled, imports);
          receiveInstance(instance);
          return instance.exports;
        }
        return WebAssembly.compile(options.wasmBinary).then((module) => {
          compiled = module;
          return WebAssembly.instantiate(module, imports).then((instance) => receiveInstance(instance));
        });
      };
    }
    return own;
  }

  // A new instance: ready at once when the module is compiled (the object the glue filled),
  // else when its promise resolves.
  function renew() {
    aborted = false;
    live = null;
    const own = optionsOnce();
    const ready = factory(own);
    if (typeof own.listPresets === "function") {
      live = own;
      return;
    }
    pending = ready.then(
      (module) => {
        live = module;
        pending = null;
      },
      () => {
        pending = null; // the next call tries again
      },
    );
  }

  // An export called through the stand-in: the live instance's answer, unless the call aborted it.
  function call(name, args) {
    if (aborted || !live) {
      if (!pending) renew();
      if (!live) return refusal(name, REPLACING);
    }
    const reply = live[name](...args);
    if (!aborted) return reply;
    renew();
    return refusal(name, ABORTED, reply);
  }

  // The reply of a refused call: the aborted call's own reply (its payload fields are the
  // export's), or the shape the module's boundary gives a refusal.
  function refusal(name, words, answer = null) {
    const reply = answer !== null && typeof answer === "object" ? answer : { ok: false, path: "" };
    reply.ok = false;
    reply.error = `${name}: ${words}`;
    reply.code = live?.ErrorCode?.internal ?? reply.code;
    reply.path = "";
    return reply;
  }

  const standIn = new Proxy(
    {},
    {
      get(_, key) {
        const value = live?.[key];
        // The exports (bindings/boundary-post.js and Embind mark each with argCount); not the
        // enums (ErrorCode), which are constructors holding their values.
        if (typeof value === "function" && typeof value.argCount === "number") {
          return Object.assign((...args) => call(key, args), { argCount: value.argCount });
        }
        return value;
      },
      has: (_, key) => key in (live ?? {}),
      ownKeys: () => Reflect.ownKeys(live ?? {}),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(live ?? {}, key);
        if (!descriptor) return undefined;
        return { value: standIn[key], writable: true, enumerable: descriptor.enumerable, configurable: true };
      },
    },
  );

  const first = optionsOnce();
  return factory(first).then((module) => {
    live = module;
    return standIn;
  });
}

module.exports = { renewingEngine };
