#pragma once
// The trace as figures (docs/trace-json.md, "Figures", layout 3): [3, signature, every number of
// the trace document in its printed order]. Generated from the document's description
// (trace_schema.hpp), so a field added there is in the JSON and the figures at once.

#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace prefill_trace {

/// The figures layout this core writes; the public facade restates it as
/// api::kFiguresLayoutVersion and static_asserts the two agree (the core never includes the
/// facade).
inline constexpr int kFiguresLayout = 3;

/// [kFiguresLayout, signature, numbers...]: each number, null (NaN), boolean (1 / 0) or
/// bound (its code, bound_names' index) of the trace document, in the order the JSON text prints
/// them. The signature (an integer below 2^53) hashes everything else: every key, every text, every
/// array's length, which optional objects are present.
std::vector<double> trace_figures_of(const Trace& trace);

/// What a reader needs besides a parsed document to refill it from figures, as JSON:
/// {"bound_keys": [...], "bound_names": [...], "version": 3}.
std::string figures_layout_json();

}  // namespace prefill_trace
