// vLLM's scheduler before chunked prefill (v0.2–0.3, "prefill-first"): an iteration runs either
// new prompts or decodes, never both; prompts win.

#include "serving/schedulers/scheduler.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {

// Admits waiting prompts FCFS up to the token budget (the first always, however long) and runs
// them whole, before any decode; decodes only when no prompt was admitted.
void schedule_prefill_first(Simulation& simulation, Instance& in, Tally& tally) {
  int64_t batched = 0;
  const int64_t budget = simulation.plan().token_budget;
  simulation.admit_waiting(
      in,
      [&](int index) {
        return batched == 0 || batched + simulation.remaining_prompt(index) <= budget;
      },
      [&](int index) {
        batched += simulation.remaining_prompt(index);
        simulation.add_prefill(in, tally, index, simulation.remaining_prompt(index));
      });
  if (!simulation.has_prefill_chunks()) simulation.add_decodes(in, tally);
}

namespace {

class PrefillFirst final : public Scheduler {
 public:
  void schedule(Simulation& simulation, Instance& in, Tally& tally) const override {
    schedule_prefill_first(simulation, in, tally);
  }
};

}  // namespace

const Scheduler& prefill_first_scheduler() {
  static const PrefillFirst scheduler;
  return scheduler;
}

}  // namespace prefill_trace::serving
