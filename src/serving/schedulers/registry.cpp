// The policy table: one row per SchedulerPolicy, in the enum's order (docs/serving.md,
// "Schedulers").

#include <cstddef>
#include <iterator>

#include "enum_table.hpp"
#include "serving/schedulers/scheduler.hpp"

namespace prefill_trace::serving {
namespace {

constexpr int64_t kChunkedBudget = 512;   // Sarathi-Serve's and vLLM's chunked default
constexpr int64_t kPrefillBudget = 8192;  // tokens one prefill-only batch may carry

constexpr PolicyTraits kPolicies[] = {
    {SchedulerPolicy::prefill_first, "prefill-first", kPrefillBudget, false, false,
     prefill_first_scheduler},
    {SchedulerPolicy::chunked, "chunked", kChunkedBudget, true, false, chunked_scheduler},
    {SchedulerPolicy::disaggregated, "disaggregated", kPrefillBudget, false, true,
     disaggregated_scheduler},
};

static_assert(std::size(kPolicies) == kSchedulerPolicyCount, "one row per SchedulerPolicy");
static_assert(rows_follow_enum(kPolicies, &PolicyTraits::policy), "rows in the enum's order");

}  // namespace

const PolicyTraits& policy_traits(SchedulerPolicy policy) {
  return kPolicies[static_cast<std::size_t>(policy)];
}

}  // namespace prefill_trace::serving

namespace prefill_trace {

const char* policy_name(SchedulerPolicy policy) {
  return serving::policy_traits(policy).name;
}

}  // namespace prefill_trace
