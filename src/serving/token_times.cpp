// Token times (src/serving/token_times.hpp): the choice of requests, and the simulation's
// recording of their passes, tokens and preemptions (src/serving/simulation.hpp).

#include "serving/token_times.hpp"

#include <algorithm>
#include <string>

#include "limits.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {

std::vector<int> token_time_requests(const std::vector<RequestSpec>& specs, int64_t count) {
  std::vector<int> chosen;
  const auto total = static_cast<int64_t>(specs.size());
  const int64_t n = std::min(count, total);
  if (n <= 0) return chosen;
  int64_t longest = 0;
  for (int64_t i = 1; i < total; ++i) {
    if (specs[static_cast<std::size_t>(i)].prompt > specs[static_cast<std::size_t>(longest)].prompt)
      longest = i;
  }
  const int64_t first = std::clamp<int64_t>(longest - n / 2, 0, total - n);
  for (int64_t i = first; i < first + n; ++i) chosen.push_back(static_cast<int>(i));
  return chosen;
}

std::optional<Error> check_token_times(const std::vector<RequestSpec>& specs,
                                       const std::vector<int>& chosen) {
  int64_t tokens = 0;
  for (const int index : chosen) tokens += specs[static_cast<std::size_t>(index)].output;
  if (tokens <= limits::max_token_times_tokens) return std::nullopt;
  return error_at(ErrorCode::too_large, "/serving/token_times",
                  "the " + std::to_string(chosen.size()) + " requests chosen have " +
                      std::to_string(tokens) + " output tokens; a report returns the times of " +
                      std::to_string(limits::max_token_times_tokens) +
                      " at most (limits::max_token_times_tokens): ask for fewer requests");
}

// The chosen requests' records, each request pointing at its own (RequestState::trace_slot).
void Simulation::start_token_times() {
  token_times_.clear();
  for (const int index : plan_.token_time_requests) {
    const auto i = static_cast<std::size_t>(index);
    states_[i].trace_slot = static_cast<int>(token_times_.size());
    RequestTokenTimes times;
    times.request = index;
    times.arrival_seconds = states_[i].arrival;
    times.prompt_tokens = specs_[i].prompt;
    times.cached_tokens = specs_[i].cached;
    times.output_tokens = specs_[i].output;
    times.token_seconds.reserve(static_cast<std::size_t>(specs_[i].output));
    token_times_.push_back(std::move(times));
  }
}

void Simulation::trace_pass(const RequestState& s, double start, double end, int64_t tokens) {
  RequestTokenTimes& times = token_times_[static_cast<std::size_t>(s.trace_slot)];
  if (times.prefill_passes.size() < limits::max_token_times_events) {
    times.prefill_passes.push_back(PrefillPass{start, end, tokens});
  } else {
    times.truncated = true;
  }
}

void Simulation::trace_preemption(const RequestState& s, double time) {
  RequestTokenTimes& times = token_times_[static_cast<std::size_t>(s.trace_slot)];
  if (times.preemption_seconds.size() < limits::max_token_times_events) {
    times.preemption_seconds.push_back(time);
  } else {
    times.truncated = true;
  }
}

// The records with each request's first admission (none when it never was).
std::vector<RequestTokenTimes> Simulation::token_times() const {
  std::vector<RequestTokenTimes> out = token_times_;
  for (RequestTokenTimes& times : out) {
    const double admitted = states_[static_cast<std::size_t>(times.request)].admitted;
    if (admitted >= 0) times.admitted_seconds = admitted;
    times.cached_tokens = cached_tokens(static_cast<std::size_t>(times.request));
  }
  return out;
}

}  // namespace prefill_trace::serving
