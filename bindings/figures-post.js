// traceFigures(scenarioJson) -> {ok, error, code, path, figures: Float64Array}, the per-change call (the
// explorer refills its trace from it: web/src/explorer/trace-from-figures.js), without
// Embind (bindings.cpp says why). Appended to the Emscripten glue with --post-js, so it sees the
// glue's own helpers (_malloc, HEAPU8, HEAPF64, UTF8ToString). It computes nothing itself: the
// engine's figures are copied out of wasm memory once. Its argument arrives checked (a string
// within the size limit) by boundary-post.js, like every other export's.
(function defineTraceFigures() {
  // The scenario's UTF-8 goes into one buffer kept between calls (a scenario is ~100 bytes):
  // no allocation per call. A rare large text gets its own buffer, freed at once.
  var keptBytes = 4096;
  var keptText = 0;
  var encoder = new TextEncoder();

  function refused(error, code, path) {
    return { ok: false, error: error, code: code, path: path, figures: new Float64Array(0) };
  }

  function traceFigures(scenarioJson) {
    var capacity = scenarioJson.length * 3;  // the most UTF-8 bytes a UTF-16 unit can need
    if (capacity <= keptBytes && !keptText) keptText = _malloc(keptBytes);
    var text = capacity <= keptBytes ? keptText : _malloc(capacity);
    if (!text) return refused("scenarioJson: out of memory", Module["ErrorCode"]["too_large"], "");
    var bytes = encoder.encodeInto(scenarioJson, HEAPU8.subarray(text, text + capacity)).written;
    var count = _prefill_trace_figures(text, bytes);
    if (text !== keptText) _free(text);
    if (count < 0) {
      return refused(UTF8ToString(_prefill_trace_figures_error(),
                                  _prefill_trace_figures_error_bytes()),
                     Module["ErrorCode"]["values"][_prefill_trace_figures_error_code()],
                     UTF8ToString(_prefill_trace_figures_error_path(),
                                  _prefill_trace_figures_error_path_bytes()));
    }
    var start = _prefill_trace_figures_data() >>> 3;
    return { ok: true, error: "", code: Module["ErrorCode"]["none"], path: "",
             figures: HEAPF64.slice(start, start + count) };
  }

  // The marker Embind puts on the functions it registers, so the API enumerates uniformly.
  traceFigures.argCount = 1;
  Module["traceFigures"] = traceFigures;
})();
