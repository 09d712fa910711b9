// K/V admission under reservation (docs/serving.md, "K/V"): a request reserves its whole
// context at admission — the vLLM paper's Orca (Oracle) baseline — so a running request never
// runs out and nothing is ever preempted.

#include "serving/simulation.hpp"

namespace prefill_trace::serving {

// K/V tokens a request holds on an instance: its whole context (prompt + output) reserved at
// admission, so a running request never runs out; a prefill instance holds only the prompt.
int64_t Simulation::kv_need(const Instance& in, int index) const {
  const RequestSpec& spec = specs_[static_cast<std::size_t>(index)];
  const int64_t context = spec.prompt + (in.role == Role::prefill ? 0 : spec.output);
  return plan_.window > 0 ? std::min(context, plan_.window) : context;
}

bool Simulation::fits(const Instance& in, int index) const {
  return in.kv_used_tokens + static_cast<double>(kv_need(in, index)) <= in.kv_capacity_tokens;
}

void Simulation::admit(Instance& in, int index) {
  RequestState& state = states_[static_cast<std::size_t>(index)];
  if (state.admitted < 0) state.admitted = in.clock;
  state.kv_tokens = kv_need(in, index);
  in.kv_used_tokens += static_cast<double>(state.kv_tokens);
  in.running.push_back(index);
}

void Simulation::release(Instance& in, int index) {
  RequestState& s = states_[static_cast<std::size_t>(index)];
  in.kv_used_tokens -= static_cast<double>(s.kv_tokens);
  s.kv_tokens = 0;
}

}  // namespace prefill_trace::serving
