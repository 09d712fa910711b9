// traceFigures(scenarioJson) -> {ok, error, code, path, what, detail, figures: Float64Array}, the per-change call (the
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

  var NO_DETAIL = { expected: "", found: "", value: "", minimum: NaN, maximum: NaN,
                    minimumExcluded: false, zeroAllowed: false };

  function refused(error, code, path, what, detail) {
    return { ok: false, error: error, code: code, path: path, what: what, detail: detail,
             figures: new Float64Array(0) };
  }

  // The refusal's text member `member` (bindings.cpp: 0 what, 1 expected, 2 found, 3 value).
  function errorText(member) {
    return UTF8ToString(_prefill_trace_figures_error_text(member),
                        _prefill_trace_figures_error_text_bytes(member));
  }

  function errorDetail() {
    return { expected: errorText(1), found: errorText(2), value: errorText(3),
             minimum: _prefill_trace_figures_error_number(0),
             maximum: _prefill_trace_figures_error_number(1),
             minimumExcluded: _prefill_trace_figures_error_number(2) !== 0,
             zeroAllowed: _prefill_trace_figures_error_number(3) !== 0 };
  }

  function traceFigures(scenarioJson) {
    var capacity = scenarioJson.length * 3;  // the most UTF-8 bytes a UTF-16 unit can need
    if (capacity <= keptBytes && !keptText) keptText = _malloc(keptBytes);
    var text = capacity <= keptBytes ? keptText : _malloc(capacity);
    if (!text) {
      return refused("scenarioJson: out of memory", Module["ErrorCode"]["too_large"], "",
                     "scenarioJson: out of memory", Object.assign({}, NO_DETAIL));
    }
    var bytes = encoder.encodeInto(scenarioJson, HEAPU8.subarray(text, text + capacity)).written;
    var count = _prefill_trace_figures(text, bytes);
    if (text !== keptText) _free(text);
    if (count < 0) {
      return refused(UTF8ToString(_prefill_trace_figures_error(),
                                  _prefill_trace_figures_error_bytes()),
                     Module["ErrorCode"]["values"][_prefill_trace_figures_error_code()],
                     UTF8ToString(_prefill_trace_figures_error_path(),
                                  _prefill_trace_figures_error_path_bytes()),
                     errorText(0), errorDetail());
    }
    var start = _prefill_trace_figures_data() >>> 3;
    return { ok: true, error: "", code: Module["ErrorCode"]["none"], path: "", what: "",
             detail: Object.assign({}, NO_DETAIL), figures: HEAPF64.slice(start, start + count) };
  }

  // The marker Embind puts on the functions it registers, so the API enumerates uniformly.
  traceFigures.argCount = 1;
  Module["traceFigures"] = traceFigures;
})();
