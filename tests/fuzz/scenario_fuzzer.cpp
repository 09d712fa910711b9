// Feeds arbitrary bytes to the scenario parser; every accepted scenario is traced and its JSON
// checked for the promises the trace makes: finite numbers, no negative byte counts.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace.hpp"
#include "trace/trace_json.hpp"

namespace {

void check(const nlohmann::json& value, bool bytes_field) {
  if (value.is_number()) {
    const double number = value.get<double>();
    if (!std::isfinite(number) || (bytes_field && number < 0)) __builtin_trap();
  } else if (value.is_object()) {
    for (const auto& item : value.items())
      check(item.value(), item.key().find("bytes") != std::string::npos);
  } else if (value.is_array()) {
    for (const auto& item : value) check(item, bytes_field);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto scenario = prefill_trace::parse_scenario(text);
  if (!scenario) {
    if (scenario.error().empty()) __builtin_trap();
    return 0;
  }
  // Chunk loops are bounded by limits::max_chunks; keep each run short for the fuzzer.
  const prefill_trace::Trace trace = prefill_trace::compute_trace(scenario.value(), {});
  check(prefill_trace::trace_to_json(trace), false);
  // A time is missing (JSON null) only when the queue is overloaded.
  if (!trace.ttft.total_seconds && !trace.ttft.overloaded) __builtin_trap();
  // The figures fast path carries the same promise: a JSON null is written as NaN, so only an
  // infinity is a failure.
  const auto figures = prefill_trace::api::trace_figures(text);
  for (const double figure : figures.figures) {
    if (std::isinf(figure)) __builtin_trap();
  }
  return 0;
}
