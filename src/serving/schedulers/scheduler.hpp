#pragma once
// The scheduler interface and the policy table: one file per policy in this folder, one row per
// policy in registry.cpp (docs/serving.md, "Schedulers"). A new policy is a new enum value in
// src/serving/serving.hpp, a class here implementing `Scheduler`, and its row; the registry's
// static_assert refuses a table whose rows do not follow the enum.

#include <cstdint>

#include "serving/serving.hpp"

namespace prefill_trace::serving {

class Simulation;
struct Instance;
struct Tally;

/// Chooses one iteration's work on an instance: which waiting requests it admits, which prompt
/// chunks and decode rows it runs (added through the Simulation's scheduling calls).
class Scheduler {
 public:
  virtual ~Scheduler() = default;
  virtual void schedule(Simulation& simulation, Instance& instance, Tally& tally) const = 0;
};

/// What the rest of the simulation needs to know of a policy.
struct PolicyTraits {
  SchedulerPolicy policy;
  const char* name;              // as the input and the report spell it
  int64_t default_token_budget;  // tokens per iteration when the input leaves it 0
  // Decodes and prompt chunks share the token budget, so it must exceed max_batch (every
  // iteration keeps room for a chunk beside its decodes).
  bool decodes_share_budget;
  // Separate prefill and decode instances, K/V moved between them over the interconnect.
  bool disaggregated;
  const Scheduler& (*scheduler)();  // one of the functions below
};

const PolicyTraits& policy_traits(SchedulerPolicy policy);

// The policies' schedulers (one file each).
const Scheduler& prefill_first_scheduler();
const Scheduler& chunked_scheduler();
const Scheduler& disaggregated_scheduler();

/// Prefill-first's iteration, shared with a disaggregated prefill instance: admit waiting
/// prompts FCFS up to the token budget (the first always) and run them whole, before any decode.
void schedule_prefill_first(Simulation& simulation, Instance& instance, Tally& tally);

}  // namespace prefill_trace::serving
