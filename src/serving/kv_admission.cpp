// K/V admission and preemption: the loop's side of the K/V mode (src/serving/kv/): whether the
// next request fits, and under paged K/V who is preempted when a running request needs a block
// and none is free, and where it waits.

#include "serving/simulation.hpp"

namespace prefill_trace::serving {

bool Simulation::fits(const Instance& in, int index) const {
  const auto i = static_cast<std::size_t>(index);
  return kv_->fits(in, specs_[i], states_[i]);
}

void Simulation::admit(Instance& in, int index) {
  RequestState& state = states_[static_cast<std::size_t>(index)];
  const RequestSpec& spec = specs_[static_cast<std::size_t>(index)];
  state.cached = spec.cached;  // a hit of the prefix cache replaces it (kv/paged.cpp)
  kv_->admit(in, spec, state);
  if (state.admitted < 0) {
    state.admitted = in.clock;
    state.first_cached = state.cached;
  }
  in.running.push_back(index);
}

void Simulation::release(Instance& in, int index) {
  const auto i = static_cast<std::size_t>(index);
  kv_->release(in, specs_[i], states_[i]);
}

// vLLM v0 `Scheduler._schedule_running`: running requests in admission order (oldest first)
// each take the block their next token needs; while none is free, the most recently admitted
// running request is preempted — the request itself when it is the newest. (Admission order is
// arrival order here: a preempted request waits at the front of the queue, so no later arrival
// is admitted before it.)
void Simulation::grow_decodes(Instance& in) {
  for (std::size_t i = 0; i < in.running.size(); ++i) {
    const int index = in.running[i];
    if (remaining_prompt(index) > 0) continue;  // prefilling: its blocks came at admission
    RequestState& s = states_[static_cast<std::size_t>(index)];
    // The row writes the K/V of the last token sampled: prompt + generated tokens in all.
    const int64_t tokens = specs_[static_cast<std::size_t>(index)].prompt + s.generated;
    bool self = false;
    while (!self && !kv_->grow(in, s, tokens)) {
      const int victim = in.running.back();
      preempt(in, victim);
      self = victim == index;
    }
  }
}

// Preemption by recomputation (vLLM v0 `Scheduler._preempt`, PreemptionMode.RECOMPUTE, the
// default for single-sequence requests): its blocks are freed and it returns to the front of
// the waiting queue; readmitted, it prefills prompt + generated tokens again (the cached prefix
// aside) and samples its next token at the end of that prefill.
void Simulation::preempt(Instance& in, int index) {
  RequestState& s = states_[static_cast<std::size_t>(index)];
  const RequestSpec& spec = specs_[static_cast<std::size_t>(index)];
  recomputed_tokens_ += (s.prefilled - s.cached) + (s.generated > 0 ? s.generated - 1 : 0);
  ++preemptions_;
  if (s.trace_slot >= 0) trace_preemption(s, in.clock);
  release(in, index);
  s.prefilled = spec.cached;
  s.target = spec.prompt + s.generated;
  in.running.pop_back();
  in.preempted.push_front(index);
}

int64_t Simulation::kv_blocks_used() const {
  int64_t used = 0;
  for (const Instance& instance : instances_) used += instance.kv_used_blocks;
  return used;
}

}  // namespace prefill_trace::serving
