// Sarathi-Serve's stall-free batching (and vLLM's chunked prefill): every running decode, then
// prompt chunks up to the token budget — unfinished prompts first, in admission order, then
// newly admitted ones.

#include <algorithm>

#include "serving/schedulers/scheduler.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {
namespace {

class Chunked final : public Scheduler {
 public:
  void schedule(Simulation& simulation, Instance& in, Tally& tally) const override {
    simulation.add_decodes(in, tally);
    int64_t room = simulation.plan().token_budget - tally.decode_tokens;
    const auto add_chunk = [&](int index) {
      const int64_t chunk = std::min(simulation.remaining_prompt(index), room);
      simulation.add_prefill(in, tally, index, chunk);
      room -= chunk;
    };
    // Prompts still prefilling are the most recently admitted ones — a prompt gets a chunk
    // only after every earlier prompt has finished — so they are the tail of `running`: find
    // it from the end instead of walking every running decode.
    std::size_t tail = in.running.size();
    while (tail > 0 && simulation.remaining_prompt(in.running[tail - 1]) > 0) --tail;
    for (std::size_t i = tail; i < in.running.size() && room > 0; ++i) add_chunk(in.running[i]);
    simulation.admit_waiting(
        in, [&](int) { return room > 0; }, add_chunk);
  }
};

}  // namespace

const Scheduler& chunked_scheduler() {
  static const Chunked scheduler;
  return scheduler;
}

}  // namespace prefill_trace::serving
