// The placement search's input and report (serving_plan_json.hpp).

#include "serving/serving_plan_json.hpp"

#include <optional>
#include <string_view>

#include "json_path.hpp"
#include "json_write.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// The serving members that place the instances: the search chooses them.
constexpr const char* kPlacedBySearch[] = {
    "policy",
    "prefill_devices",
    "decode_devices",
    "prefill_tensor_parallel",
    "decode_tensor_parallel",
    "sweep_rates",
};

std::optional<Error> refuse_placement(const json& document) {
  if (!document.is_object()) return std::nullopt;  // the serving reader words it
  if (document.contains("tensor_parallel"))
    return error_at(ErrorCode::incompatible, "/tensor_parallel",
                    "is chosen by the placement search (per phase); leave it out");
  const auto serving = document.find("serving");
  if (serving == document.end() || !serving->is_object()) return std::nullopt;
  for (const char* key : kPlacedBySearch) {
    if (!serving->contains(key)) continue;
    const bool sweep = std::string_view(key) == "sweep_rates";
    return error_at(ErrorCode::incompatible, child_path("/serving", key),
                    sweep ? "the placement search runs goodput searches, not a rate sweep; "
                            "leave it out"
                          : "is chosen by the placement search; leave it out");
  }
  return std::nullopt;
}

json candidate_json(const PlanCandidate& c) {
  return json_object({
      {"policy", policy_name(c.policy)},
      {"prefill_instances", c.prefill_instances},
      {"decode_instances", c.decode_instances},
      {"prefill_tensor_parallel", c.prefill_tensor_parallel},
      {"decode_tensor_parallel", c.decode_tensor_parallel},
      {"devices", c.devices},
      {"goodput_requests_per_second", c.goodput_requests_per_second},
      {"goodput_per_device", c.goodput_per_device},
      {"bounded", c.bounded},
  });
}

}  // namespace

Result<ServingRequest> parse_plan_request(std::string_view json_text) {
  auto document = parse_strict_json(json_text);
  if (!document) return document.failure();
  if (auto error = refuse_placement(document.value())) return *error;
  return serving_request_from_json(document.value());
}

json plan_report_to_json(const PlanReport& report) {
  json candidates = json::array();
  for (const PlanCandidate& c : report.candidates) candidates.push_back(candidate_json(c));
  json skipped = json::array();
  for (const PlanSkip& s : report.skipped) {
    skipped.push_back(json_object({
        {"policy", policy_name(s.policy)},
        {"prefill_tensor_parallel", s.prefill_tensor_parallel},
        {"decode_tensor_parallel", s.decode_tensor_parallel},
        {"reason", s.reason},
    }));
  }
  // The best has goodput: a plan whose every candidate misses the target has none.
  const bool any = !report.candidates.empty() && report.candidates.front().goodput_per_device > 0;
  return json_object({
      {"model", report.model},
      {"hardware", report.hardware},
      {"precision", report.precision},
      {"timing", report.timing},
      {"devices", report.devices},
      {"tensor_parallel_options", report.tensor_parallel_options},
      {"searches", report.searches},
      {"candidates", std::move(candidates)},
      {"best", any ? candidate_json(report.candidates.front()) : json()},
      {"skipped", std::move(skipped)},
  });
}

}  // namespace prefill_trace
