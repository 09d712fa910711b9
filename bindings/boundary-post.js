// The boundary: whatever JS passes, every export answers with its result object and nothing
// throws. Embind alone does not keep that promise: a wrong argument count or type throws a
// BindingError, and a string is copied into wasm memory before C++ sees it, so a string larger
// than the memory cap fails outside any C++ error handling and leaves the module broken ("memory
// access out of bounds" on every later call). A JS exception that unwinds through wasm frames
// also skips their clean-up. So once the runtime has registered the exports, each is wrapped:
// the wrapper checks the count, type and size of every argument here in JS, copies sweep values
// into a fresh Float64Array, and only then enters wasm. Appended to the glue with --post-js
// (after figures-post.js), so it sees the glue's own names (__ATPOSTRUN__, lengthBytesUTF8).
(function guardTheBoundary() {
  var DOCUMENT = 1;  // a lesson or scenario text: at most limits::max_document_bytes of UTF-8
  var NAME = 2;      // a sweep variable or check id: at most limits::max_identifier_bytes
  var NUMBER = 3;
  var NUMBERS = 4;   // sweep values: an array or typed array of 1..limits::max_sweep_points
  var TRACE = 5;     // a request trace's text: at most limits::max_request_trace_bytes of UTF-8
  // The limits, read once from src/limits.hpp through the module when the exports are wrapped.
  var maxDocumentBytes = 0;
  var maxIdentifierBytes = 0;
  var maxSweepPoints = 0;
  var maxTraceBytes = 0;
  var lessonText = ["lessonText", DOCUMENT];
  var scenarioJson = ["scenarioJson", DOCUMENT];

  // Each export's parameters, and the payload of its reply when ok is false: the defaults of the
  // C++ reply structs (src/engine.hpp). tests/js/boundary.test.mjs compares a refusal from here
  // with one from C++ for every export, so the two cannot drift apart.
  var EXPORTS = {
    loadLesson: [[lessonText], function () { return { lessonJson: "" }; }],
    checkAnswer: [[lessonText, ["checkIndex", NUMBER], ["choice", NUMBER]],
                  function () { return { correct: false, correctIndex: -1, explanation: "" }; }],
    computeTrace: [[scenarioJson], function () { return { json: "" }; }],
    traceCsv: [[scenarioJson], function () { return { csv: "" }; }],
    traceLeaves: [[scenarioJson], function () { return { json: "" }; }],
    traceFigures: [[scenarioJson], function () { return { figures: new Float64Array(0) }; }],
    listPresets: [[], function () { return { json: "" }; }],
    sweep: [[scenarioJson, ["variable", NAME], ["values", NUMBERS]],
            function () { return { json: "" }; }],
    generateChecks: [[scenarioJson], function () { return { json: "" }; }],
    checkGenerated: [[scenarioJson, ["id", NAME], ["answer", NUMBER]],
                     function () { return { correct: false, expected: 0, explanation: "" }; }],
    simulateServing: [[scenarioJson], function () { return { json: "" }; }],
    planServing: [[scenarioJson, ["devices", NUMBER]], function () { return { json: "" }; }],
    simulateServingTrace: [[scenarioJson, ["traceText", TRACE]], function () { return { json: "" }; }],
  };
  // The methods of ServingSimulation (the serving simulation in slices), guarded alike: its
  // object is the wrapper's `this`. A deleted object's method throws in Embind: refused as
  // "internal" by the guard, never thrown.
  function noProgress() { return { done: false, runs: 0, requestsFinished: 0, requests: 0 }; }
  var SERVING_SIMULATION = {
    start: [[scenarioJson], function () { return { json: "" }; }],
    startTrace: [[scenarioJson, ["traceText", TRACE]], function () { return { json: "" }; }],
    advance: [[["budget", NUMBER]], noProgress],
    result: [[], function () { return { json: "" }; }],
  };

  // The methods of ServingPlan (the placement search in slices), guarded the same way.
  var SERVING_PLAN = {
    start: [[scenarioJson, ["devices", NUMBER]], function () { return { json: "" }; }],
    advance: [[["budget", NUMBER]],
              function () { return { done: false, searches: 0, placements: 0, placementsTotal: 0 }; }],
    result: [[], function () { return { json: "" }; }],
  };

  function describe(value) {
    if (value === null) return "null";
    if (Array.isArray(value)) return "array";
    return typeof value;
  }

  function isNumberArray(value) {
    if (Array.isArray(value)) return true;
    // Typed arrays of numbers; a BigInt array's elements are not numbers, a DataView has none.
    return ArrayBuffer.isView(value) && !(value instanceof DataView) &&
           !(typeof BigInt64Array !== "undefined" &&
             (value instanceof BigInt64Array || value instanceof BigUint64Array));
  }

  // Checks one argument; returns the value to hand to wasm, or throws a Refusal: its code names
  // an ErrorCode; a sweep value's path is "/values/I", as the engine names it.
  function Refusal(code, message, path) { this.code = code; this.message = message; this.path = path || ""; }
  function take(name, kind, value) {
    if (kind === TRACE) {
      if (typeof value !== "string") throw new Refusal("wrong_type", name + " must be a string, not " + describe(value));
      // As a document's: more UTF-16 units than the limit's bytes is over it, refused uncopied.
      if (value.length > maxTraceBytes || lengthBytesUTF8(value) > maxTraceBytes) {
        throw new Refusal("too_large", name + ": a request trace of more than " + maxTraceBytes +
                          " bytes exceeds the limit of " + maxTraceBytes, "/trace");
      }
      return value;
    }
    if (kind === DOCUMENT || kind === NAME) {
      if (typeof value !== "string") throw new Refusal("wrong_type", name + " must be a string, not " + describe(value));
      // UTF-8 never takes fewer bytes than UTF-16 units: a string longer than the limit in units
      // is over it in bytes, refused before anything is copied or even measured.
      if (kind === DOCUMENT) {
        if (value.length > maxDocumentBytes) {
          throw new Refusal("too_large", name + ": byte 0: document of more than " + maxDocumentBytes +
                            " bytes exceeds the limit of " + maxDocumentBytes);
        }
        // Within the limit in units: the engine's parser checks the exact byte count.
      } else if (value.length > maxIdentifierBytes || lengthBytesUTF8(value) > maxIdentifierBytes) {
        throw new Refusal("too_large", name + ": string of more than " + maxIdentifierBytes +
                          " bytes exceeds the limit of " + maxIdentifierBytes);
      }
      return value;
    }
    if (kind === NUMBER) {
      if (typeof value !== "number") throw new Refusal("wrong_type", name + " must be a number, not " + describe(value));
      return value;
    }
    var count = isNumberArray(value) ? value.length : -1;
    if (!(count >= 1 && count <= maxSweepPoints)) {
      throw new Refusal(count < 0 ? "wrong_type" : count > maxSweepPoints ? "too_large" : "out_of_range",
                        "sweep: " + name + " must be an array of between 1 and " + maxSweepPoints +
                        " numbers", "/" + name);
    }
    var copy = new Float64Array(count);
    for (var i = 0; i < count; ++i) {
      var item = value[i];
      if (typeof item !== "number") {
        throw new Refusal("wrong_type", name + "[" + i + "] must be a number, not " + describe(item),
                          "/" + name + "/" + i);
      }
      copy[i] = item;
    }
    return copy;
  }

  function guard(exportName, raw, params, emptyPayload) {
    // Refused here, before the engine: `what` is the message (it does not begin with the path)
    // and the detail is empty, as for every error raised outside the field readers.
    function refused(code, message, path) {
      var reply = { ok: false, error: message, code: Module["ErrorCode"][code], path: path || "",
                    what: message,
                    detail: { expected: "", found: "", value: "", minimum: NaN, maximum: NaN,
                              minimumExcluded: false, zeroAllowed: false } };
      var payload = emptyPayload();
      for (var key in payload) reply[key] = payload[key];
      return reply;
    }
    var names = params.map(function (p) { return p[0]; }).join(", ");
    function guarded() {
      try {
        if (arguments.length !== params.length) {
          return refused("usage", exportName + ": expects " + params.length + " argument" +
                         (params.length === 1 ? "" : "s") + (names ? " (" + names + ")" : "") +
                         ", got " + arguments.length);
        }
        var args = new Array(params.length);
        for (var i = 0; i < params.length; ++i) args[i] = take(params[i][0], params[i][1], arguments[i]);
        return raw.apply(this, args);
      } catch (e) {
        if (e instanceof Refusal) return refused(e.code, e.message, e.path);
        // Reading a hostile argument threw (a getter, a Proxy), or the module itself failed.
        return refused("internal", exportName + ": " + (e && e.message ? e.message : String(e)));
      }
    }
    guarded.argCount = params.length;  // Embind's marker, so the API enumerates as before
    return guarded;
  }

  __ATPOSTRUN__.push(function wrapExports() {
    maxDocumentBytes = _prefill_trace_max_text_bytes() >>> 0;
    maxIdentifierBytes = _prefill_trace_max_identifier_bytes() >>> 0;
    maxSweepPoints = _prefill_trace_max_sweep_points() >>> 0;
    maxTraceBytes = _prefill_trace_max_request_trace_bytes() >>> 0;
    for (var name in EXPORTS) {
      Module[name] = guard(name, Module[name], EXPORTS[name][0], EXPORTS[name][1]);
    }
    var classes = { ServingSimulation: SERVING_SIMULATION, ServingPlan: SERVING_PLAN };
    for (var className in classes) {
      var methods = Module[className].prototype;
      for (var method in classes[className]) {
        methods[method] = guard(className + "." + method, methods[method],
                                classes[className][method][0], classes[className][method][1]);
      }
    }
    // version() cannot fail and returns a plain string: extra arguments are ignored.
    var version = Module["version"];
    Module["version"] = function () { return version(); };
    Module["version"].argCount = 0;
    // bundledLessonText() neither: the lesson compiled into the module, as the C++ API's.
    var bundledLessonText = Module["bundledLessonText"];
    Module["bundledLessonText"] = function () { return bundledLessonText(); };
    Module["bundledLessonText"].argCount = 0;
    // figuresLayout() neither: what a reader of traceFigures needs besides a parsed trace.
    var figuresLayout = Module["figuresLayout"];
    Module["figuresLayout"] = function () { return figuresLayout(); };
    Module["figuresLayout"].argCount = 0;
    // scenarioFields() neither: the scenario's input fields, what the page's controls are built from.
    var scenarioFields = Module["scenarioFields"];
    Module["scenarioFields"] = function () { return scenarioFields(); };
    Module["scenarioFields"].argCount = 0;
    // servingFields() neither: the serving object's input fields (docs/serving.md, "Input").
    var servingFields = Module["servingFields"];
    Module["servingFields"] = function () { return servingFields(); };
    Module["servingFields"].argCount = 0;
  });
})();
