#pragma once
// The placement search's text face (src/serving/plan.hpp): its input read, its report written
// (docs/serving.md, "Placement search").

#include <nlohmann/json.hpp>
#include <string_view>

#include "prefill_trace/result.hpp"
#include "serving/plan.hpp"
#include "serving/serving_json.hpp"

namespace prefill_trace {

/// A scenario with a `serving` object, as `simulate_serving` reads it, whose placement is left
/// to the search: `policy`, the instance counts, the tensor-parallel degrees (the scenario's
/// `tensor_parallel` too) and `sweep_rates` are refused by path.
Result<ServingRequest> parse_plan_request(std::string_view json_text);

/// {model, hardware, precision, timing, devices, tensor_parallel_options, searches,
/// candidates: [...], best, skipped: [...]}.
nlohmann::json plan_report_to_json(const PlanReport& report);

}  // namespace prefill_trace
