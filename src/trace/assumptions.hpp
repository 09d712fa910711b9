#pragma once
// The stated omissions of a trace, in words, as the learner reads them. The figures in them
// (FLOPs per element, the MMA tile height, the logits' width) are written from the same
// constants the operator model uses (trace/operator_costs.hpp).

#include <string_view>
#include <vector>

#include "scenario/scenario.hpp"

namespace prefill_trace {

/// The assumptions behind a trace of `scenario`: views of text with static storage.
std::vector<std::string_view> assumptions(const Scenario& scenario);

}  // namespace prefill_trace
