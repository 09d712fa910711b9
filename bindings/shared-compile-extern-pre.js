// ES-module build only (--extern-pre-js, at the module's top level, outside the factory): the
// compiled .wasm of each address, shared by every factory call of this module
// (shared-compile-pre.js says why).
var prefillTraceCompiled = new Map();
