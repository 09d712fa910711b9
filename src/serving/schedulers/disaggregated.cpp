// DistServe's disaggregation: prefill instances run prompts prefill-first and hand each
// request's K/V over the interconnect to a decode instance (the one with the fewest requests
// assigned), which only decodes. The hand-over itself is the loop's (Simulation::hand_over).

#include "serving/schedulers/scheduler.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {
namespace {

class Disaggregated final : public Scheduler {
 public:
  void schedule(Simulation& simulation, Instance& in, Tally& tally) const override {
    if (in.role != Role::decode) {
      schedule_prefill_first(simulation, in, tally);
      return;
    }
    // A decode instance: admits the requests handed over to it, then decodes every running one.
    simulation.admit_pending(in);
    simulation.add_decodes(in, tally);
    // A request preempted here (paged K/V) and readmitted recomputes its context as one
    // prefill on this instance, as a colocated vLLM instance would.
    for (const int index : in.running) {
      const int64_t remaining = simulation.remaining_prompt(index);
      if (remaining > 0) simulation.add_prefill(in, tally, index, remaining);
    }
  }
};

}  // namespace

const Scheduler& disaggregated_scheduler() {
  static const Disaggregated scheduler;
  return scheduler;
}

}  // namespace prefill_trace::serving
