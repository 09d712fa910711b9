// The serving simulation's event loop (src/serving/simulation.hpp; semantics in docs/serving.md).

#include "serving/simulation.hpp"

#include <algorithm>

#include "serving/schedulers/scheduler.hpp"

namespace prefill_trace::serving {

Simulation::Simulation(const Plan& plan, const std::vector<RequestSpec>& specs, double rate,
                       std::vector<Instance> instances, CallWork& work)
    : plan_(plan),
      specs_(specs),
      instances_(std::move(instances)),
      work_(work),
      kv_(kv_mode_traits(plan.kv).make(plan.block_size, plan.window, plan.prefix_cache)) {
  states_.resize(specs.size());
  arrivals_.resize(specs.size());
  for (std::size_t i = 0; i < specs.size(); ++i) {
    // The client's arrival (TTFT counts from it); the scheduler sees the request after the
    // stack's front-end delay (the same for every request: the order is kept).
    states_[i].arrival = rate > 0 ? specs[i].unit_arrival / rate : specs[i].unit_arrival;
    arrivals_[i] = states_[i].arrival + plan.host.frontend_seconds;
    states_[i].prefilled = specs[i].cached;
    states_[i].target = specs[i].prompt;
  }
}

void Simulation::begin(bool keep_detail) {
  keep_detail_ = keep_detail;
  if (keep_detail_) start_token_times();
}

bool Simulation::advance(double work_until) {
  // A call past a limit (work_) stops every run of it at once: the call is refused.
  while (!done_ && work_.work() < work_until) {
    if (finished_ >= static_cast<int64_t>(specs_.size()) || work_.refused() || !next_iteration())
      done_ = true;
  }
  return done_;
}

bool Simulation::next_iteration() {
  Instance* next = nullptr;
  double next_time = kNever;
  for (Instance& instance : instances_) {
    const double t = next_action(instance);
    if (t < next_time) {
      next_time = t;
      next = &instance;
    }
  }
  if (next == nullptr) return false;  // unreachable: an unfinished request always has a next step
  next->clock = std::max(next->clock, next_time);
  if (queued_at(next->clock) > plan_.max_queue) {
    stop("more than " + std::to_string(plan_.max_queue) + " requests waited for admission",
         next->clock);
    return false;
  }
  step(*next);
  return true;
}

// Requests that have arrived by `time` and wait for admission anywhere.
int64_t Simulation::queued_at(double time) const {
  const auto arrived = static_cast<int64_t>(arrived_by(time));
  int64_t pending = 0;
  for (const Instance& instance : instances_)
    pending += static_cast<int64_t>(instance.pending.size() + instance.preempted.size());
  return std::max<int64_t>(0, arrived - head_) + pending;
}

// Requests that arrived by `time` (arrivals_ is in arrival order): what upper_bound gives,
// found by moving a cursor from the last answer. Successive times are close (a step's start,
// then its end), so the cursor moves by a request or two where a binary search took ~14
// unpredictable branches, twice per iteration.
std::size_t Simulation::arrived_by(double time) const {
  std::size_t& arrived = arrival_cursor_;
  while (arrived > 0 && arrivals_[arrived - 1] > time) --arrived;
  while (arrived < arrivals_.size() && arrivals_[arrived] <= time) ++arrived;
  return arrived;
}

double Simulation::next_action(const Instance& in) const {
  if (!in.running.empty() || !in.preempted.empty()) return in.clock;
  if (in.role == Role::decode) {
    return in.pending.empty()
               ? kNever
               : std::max(in.clock, states_[static_cast<std::size_t>(in.pending.front())].ready);
  }
  if (head_ >= static_cast<int64_t>(specs_.size())) return kNever;
  return std::max(in.clock, arrivals_[static_cast<std::size_t>(head_)]);
}

void Simulation::add_prefill(Instance& in, Tally& tally, int index, int64_t tokens) {
  in.cost->add_prefill(tokens, states_[static_cast<std::size_t>(index)].prefilled);
  if (tokens == remaining_prompt(index)) ++tally.sampled;
  prefill_chunks_.push_back(PrefillChunk{index, tokens});
  tally.prefill_tokens += tokens;
}

void Simulation::add_decodes(Instance& in, Tally& tally) {
  if (kv_->grows()) grow_decodes(in);
  decode_contexts_.clear();
  for (const int index : in.running) {
    const RequestState& s = states_[static_cast<std::size_t>(index)];
    if (s.prefilled < s.target) continue;  // still prefilling (or recomputing)
    decode_contexts_.push_back(specs_[static_cast<std::size_t>(index)].prompt + s.generated - 1);
    decode_rows_.push_back(index);
  }
  in.cost->add_decodes(decode_contexts_);
  const auto decodes = static_cast<int64_t>(decode_contexts_.size());
  tally.decode_tokens += decodes;
  tally.sampled += decodes;
}

// A decode instance takes the requests handed over to it in (ready, id) order while their K/V
// has arrived and they fit its batch and K/V.
void Simulation::admit_pending(Instance& in) {
  // Requests preempted here first (paged K/V), then those handed over.
  while (!in.preempted.empty() && static_cast<int64_t>(in.running.size()) < plan_.max_batch &&
         fits(in, in.preempted.front())) {
    admit(in, in.preempted.front());
    in.preempted.pop_front();
  }
  if (!in.preempted.empty()) return;
  while (!in.pending.empty() &&
         states_[static_cast<std::size_t>(in.pending.front())].ready <= in.clock &&
         static_cast<int64_t>(in.running.size()) < plan_.max_batch &&
         fits(in, in.pending.front())) {
    admit(in, in.pending.front());
    in.pending.erase(in.pending.begin());
  }
}

// One iteration of instance `in`: what it runs (decode_rows_, prefill_chunks_), its duration,
// and what follows.
void Simulation::step(Instance& in) {
  decode_rows_.clear();
  prefill_chunks_.clear();
  in.cost->begin();
  Tally tally;
  policy_traits(plan_.policy).scheduler().schedule(*this, in, tally);
  in.cost->add_sampled(tally.sampled);
  const double start = in.clock;
  const double device = in.cost->seconds();
  // The host's part (scheduling, input preparation, sampling, output processing) runs while
  // the device waits: a synchronous engine's iteration is the sum, and the instance is busy
  // (occupied) for all of it, as the timeline draws it; host_seconds tells the host's part.
  const double host =
      host_iteration_seconds(plan_.host, static_cast<int64_t>(in.running.size()),
                             tally.prefill_tokens + tally.decode_tokens, in.devices);
  const double duration = device + host;
  const double end = start + duration;
  in.clock = end;
  in.busy_seconds += duration;
  host_seconds_ += host;
  running_seconds_ += static_cast<double>(in.running.size()) * duration;
  ++iterations_;
  longest_iteration_ = std::max(longest_iteration_, duration);
  work_.add_iteration(tally.decode_tokens + static_cast<int64_t>(prefill_chunks_.size()),
                      iterations_);
  advance_requests(in, start, end);
  log_iteration(in, tally, start, end);
}

// The iteration's work done at `end` (it started at `start`): prompts prefilled, tokens
// emitted, requests finished or (from a prefill instance) handed over, and those leave
// `running`; the chosen requests' token times recorded (token_times.cpp). Decode rows first,
// then prefill chunks: the order they were scheduled in (a chunked iteration adds its decodes
// before its chunks), which fixes the order of finishes and hand-overs.
void Simulation::advance_requests(Instance& in, double start, double end) {
  bool removed = false;
  for (const int index : decode_rows_) {
    RequestState& s = states_[static_cast<std::size_t>(index)];
    s.tbt_max = std::max(s.tbt_max, end - s.last_token);
    s.last_token = end;
    ++s.generated;
    if (s.trace_slot >= 0) trace_token(s, end);
    if (leaves_after_token(in, index)) {
      leave(in, index, end);
      removed = true;
    }
  }
  for (const PrefillChunk& chunk : prefill_chunks_) {
    const auto i = static_cast<std::size_t>(chunk.index);
    RequestState& s = states_[i];
    s.prefilled += chunk.tokens;
    kv_->computed(in, specs_[i], s);
    if (s.trace_slot >= 0) trace_pass(s, start, end, chunk.tokens);
    if (s.prefilled < s.target) continue;
    if (s.generated == 0) {
      s.first_token = end;
    } else {  // a recomputation (paged K/V) ends with the request's next token
      s.tbt_max = std::max(s.tbt_max, end - s.last_token);
    }
    s.last_token = end;
    ++s.generated;
    if (s.trace_slot >= 0) trace_token(s, end);
    if (leaves_after_token(in, chunk.index)) {
      leave(in, chunk.index, end);
      removed = true;
    }
  }
  if (removed) {
    in.running.erase(std::remove_if(in.running.begin(), in.running.end(),
                                    [&](int index) {
                                      const RequestState& s =
                                          states_[static_cast<std::size_t>(index)];
                                      return s.finished_at >= 0 || s.kv_tokens == 0;
                                    }),
                     in.running.end());
  }
}

bool Simulation::finished_output(int index) const {
  return states_[static_cast<std::size_t>(index)].generated >=
         specs_[static_cast<std::size_t>(index)].output;
}

// A request leaves an instance's running list after a token when its output is complete, or
// from a prefill instance after its first.
bool Simulation::leaves_after_token(const Instance& in, int index) const {
  return in.role == Role::prefill || finished_output(index);
}

void Simulation::leave(Instance& in, int index, double end) {
  if (finished_output(index)) {
    finish(in, index, end);
  } else {
    hand_over(in, index, end);
  }
}

void Simulation::log_iteration(const Instance& in, const Tally& tally, double start, double end) {
  last_time_ = std::max(last_time_, end);
  // Preemptions happen while the iteration is scheduled, at its start (kv_admission.cpp).
  const int64_t preempted = preemptions_ - logged_preemptions_;
  logged_preemptions_ = preemptions_;
  // The log is the timeline's, which only a detailed run draws.
  if (!keep_detail_ || plan_.timeline_points == 0 || log_dropped_) return;
  int64_t running = 0;
  for (const Instance& instance : instances_)
    running += static_cast<int64_t>(instance.running.size());
  const IterationLog entry{start,
                           end,
                           static_cast<double>(tally.prefill_tokens),
                           static_cast<double>(tally.decode_tokens),
                           static_cast<double>(queued_at(end)),
                           static_cast<double>(running),
                           static_cast<double>(in.devices),
                           static_cast<double>(kv_blocks_used()),
                           static_cast<double>(preempted)};
  if (fold_) {
    fold_->add(entry);
  } else if (log_.size() < kLoggedIterations) {
    log_.push_back(entry);
  } else {
    // Too long to keep: the run is drawn again with its span known (runs.cpp).
    log_dropped_ = true;
    std::deque<IterationLog>().swap(log_);
  }
}

void Simulation::fold_timeline(double end_seconds) {
  double devices = 0;
  for (const Instance& instance : instances_) devices += static_cast<double>(instance.devices);
  fold_.emplace(plan_.timeline_points, end_seconds, devices);
}

void Simulation::finish(Instance& in, int index, double time) {
  release(in, index);
  states_[static_cast<std::size_t>(index)].finished_at = time;
  if (in.role == Role::decode) --in.assigned;
  ++finished_;
}

// DistServe: the prompt's K/V moves to the decode instance with the fewest requests assigned
// (ties: the lowest index) over the interconnect; the prefill instance's copy is released.
void Simulation::hand_over(Instance& from, int index, double time) {
  release(from, index);
  RequestState& s = states_[static_cast<std::size_t>(index)];
  s.ready = time + plan_.transfer_seconds_per_token *
                       static_cast<double>(specs_[static_cast<std::size_t>(index)].prompt);
  Instance* target = nullptr;
  for (Instance& instance : instances_) {
    if (instance.role != Role::decode) continue;
    if (target == nullptr || instance.assigned < target->assigned) target = &instance;
  }
  ++target->assigned;
  const auto later =
      std::upper_bound(target->pending.begin(), target->pending.end(), index, [&](int a, int b) {
        const double ra = states_[static_cast<std::size_t>(a)].ready;
        const double rb = states_[static_cast<std::size_t>(b)].ready;
        return ra < rb || (ra == rb && a < b);
      });
  target->pending.insert(later, index);
}

void Simulation::stop(const std::string& reason, double time) {
  overloaded_ = true;
  reason_ = reason;
  last_time_ = std::max(last_time_, time);
}

}  // namespace prefill_trace::serving
