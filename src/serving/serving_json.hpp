#pragma once
// The serving simulation's text face: reading a scenario with a `serving` object, writing the
// report as JSON (docs/serving.md, "Output") and the per-request rows as CSV.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "prefill_trace/result.hpp"
#include "serving/serving.hpp"

namespace prefill_trace {

struct ServingRequest {
  Scenario scenario;
  ServingConfig config;
};

/// A scenario document (docs/trace-json.md) with a `serving` object (docs/serving.md). Errors
/// name the JSON path: "/serving/rate: must be ...".
Result<ServingRequest> parse_serving_request(std::string_view json_text);
Result<ServingRequest> serving_request_from_json(const nlohmann::json& document);
/// The same with a request trace (src/serving/request_trace.hpp; docs/serving.md, "Real
/// traces"): its requests are the run's rows, and the members it sets (rows, rate, requests,
/// prompt, output, arrival) are refused beside it; an error in the trace has the path /trace
/// and names its line.
Result<ServingRequest> parse_serving_request(std::string_view json_text,
                                             std::string_view trace_text);

nlohmann::json serving_report_to_json(const ServingReport& report);
/// One row per request (RFC 4180, CRLF): arrival, lengths, and its TTFT, TPOT, max TBT, e2e.
std::string serving_report_to_csv(const ServingReport& report);

}  // namespace prefill_trace
