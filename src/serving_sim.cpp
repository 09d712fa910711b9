// The serving simulation's event loop (src/serving.hpp; semantics in docs/serving.md).

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <memory>

#include "serving.hpp"
#include "serving_cost.hpp"
#include "serving_random.hpp"
#include "serving_sort.hpp"
#include "trace.hpp"

namespace prefill_trace {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

// A request's lengths and its arrival at rate 1 (seconds × 1/rate at the run's rate).
struct RequestSpec {
  double unit_arrival = 0;
  int64_t prompt = 0;
  int64_t cached = 0;
  int64_t output = 0;
};

struct RequestState {
  double arrival = 0;
  double admitted = -1;
  double ready = 0;  // disaggregated: when its K/V reached the decode instance
  double first_token = -1;
  double last_token = 0;
  double tbt_max = 0;
  double finished_at = -1;
  int64_t prefilled = 0;  // prompt tokens whose K/V exists (cached ones included)
  int64_t generated = 0;
  int64_t kv_tokens = 0;  // reserved on its current instance
};

enum class Role { colocated, prefill, decode };

struct Instance {
  Role role = Role::colocated;
  IterationCost* cost = nullptr;
  int64_t devices = 1;
  double clock = 0;
  double busy_seconds = 0;
  double kv_capacity_tokens = 0;
  double kv_used_tokens = 0;
  std::vector<int> running;  // admitted, unfinished, in admission order
  std::vector<int> pending;  // decode: handed over, not admitted, by (ready, id)
  int64_t assigned = 0;      // decode: handed over and not finished
};

struct IterationLog {
  double start, end;
  double prefill_tokens, decode_tokens;
  double queued, running;
  double devices;
};

// The configuration with every default filled in and every instance's figures worked out.
struct Plan {
  SchedulerPolicy policy;
  int64_t token_budget;
  int64_t max_batch;
  int64_t max_queue;
  int64_t window;  // sliding window of the model (0 = none): K/V kept per request
  double transfer_seconds_per_token = 0;
  std::optional<double> ttft_slo, tpot_slo;
  int64_t timeline_points;
};

class Simulation {
 public:
  Simulation(const Plan& plan, const std::vector<RequestSpec>& specs, double rate,
             std::vector<Instance> instances)
      : plan_(plan), specs_(specs), instances_(std::move(instances)) {
    states_.resize(specs.size());
    arrivals_.resize(specs.size());
    for (std::size_t i = 0; i < specs.size(); ++i) {
      arrivals_[i] = rate > 0 ? specs[i].unit_arrival / rate : specs[i].unit_arrival;
      states_[i].arrival = arrivals_[i];
      states_[i].prefilled = specs[i].cached;
    }
  }

  ServingRun run(bool keep_detail) {
    keep_detail_ = keep_detail;
    const auto total = static_cast<int64_t>(specs_.size());
    while (finished_ < total) {
      Instance* next = nullptr;
      double next_time = kNever;
      for (Instance& instance : instances_) {
        const double t = next_action(instance);
        if (t < next_time) {
          next_time = t;
          next = &instance;
        }
      }
      if (next == nullptr) break;  // unreachable: an unfinished request always has a next step
      next->clock = std::max(next->clock, next_time);
      if (queued_at(next->clock) > plan_.max_queue) {
        stop("more than " + std::to_string(plan_.max_queue) + " requests waited for admission",
             next->clock);
        break;
      }
      step(*next);
    }
    return report();
  }

 private:
  // K/V tokens a request holds on an instance: its whole context (prompt + output) reserved at
  // admission, so a running request never runs out; a prefill instance holds only the prompt.
  int64_t kv_need(const Instance& in, int index) const {
    const RequestSpec& spec = specs_[static_cast<std::size_t>(index)];
    const int64_t context = spec.prompt + (in.role == Role::prefill ? 0 : spec.output);
    return plan_.window > 0 ? std::min(context, plan_.window) : context;
  }

  // Requests that have arrived by `time` and wait for admission anywhere.
  int64_t queued_at(double time) const {
    const auto arrived = static_cast<int64_t>(arrived_by(time));
    int64_t pending = 0;
    for (const Instance& instance : instances_)
      pending += static_cast<int64_t>(instance.pending.size());
    return std::max<int64_t>(0, arrived - head_) + pending;
  }

  // Requests that arrived by `time` (arrivals_ is in arrival order): what upper_bound gives,
  // found by moving a cursor from the last answer. Successive times are close (a step's start,
  // then its end), so the cursor moves by a request or two where a binary search took ~14
  // unpredictable branches, twice per iteration.
  std::size_t arrived_by(double time) const {
    std::size_t& arrived = arrival_cursor_;
    while (arrived > 0 && arrivals_[arrived - 1] > time) --arrived;
    while (arrived < arrivals_.size() && arrivals_[arrived] <= time) ++arrived;
    return arrived;
  }

  double next_action(const Instance& in) const {
    if (!in.running.empty()) return in.clock;
    if (in.role == Role::decode) {
      return in.pending.empty()
                 ? kNever
                 : std::max(in.clock, states_[static_cast<std::size_t>(in.pending.front())].ready);
    }
    if (head_ >= static_cast<int64_t>(specs_.size())) return kNever;
    return std::max(in.clock, arrivals_[static_cast<std::size_t>(head_)]);
  }

  bool fits(const Instance& in, int index) const {
    return in.kv_used_tokens + static_cast<double>(kv_need(in, index)) <= in.kv_capacity_tokens;
  }

  void admit(Instance& in, int index) {
    RequestState& state = states_[static_cast<std::size_t>(index)];
    if (state.admitted < 0) state.admitted = in.clock;
    state.kv_tokens = kv_need(in, index);
    in.kv_used_tokens += static_cast<double>(state.kv_tokens);
    in.running.push_back(index);
  }

  // Takes the waiting requests at the head of the arrival order, FCFS, while they arrived by the
  // instance's clock, fit its K/V and `room(index)` allows; head-of-line blocking like vLLM's.
  // `admitted(index)` runs after each admission, before the next is considered.
  template <typename Room, typename Admitted>
  void admit_waiting(Instance& in, Room room, Admitted admitted) {
    while (head_ < static_cast<int64_t>(specs_.size()) &&
           arrivals_[static_cast<std::size_t>(head_)] <= in.clock &&
           static_cast<int64_t>(in.running.size()) < plan_.max_batch &&
           fits(in, static_cast<int>(head_)) && room(static_cast<int>(head_))) {
      const int index = static_cast<int>(head_);
      admit(in, index);
      ++head_;
      admitted(index);
    }
  }

  struct PrefillChunk {
    int index;
    int64_t tokens;
  };

  // Tokens of one iteration: prompt tokens prefilled and decode rows; and the requests that
  // emit a token at its end (decodes, and prompts whose last chunk runs).
  struct Tally {
    int64_t prefill_tokens = 0;
    int64_t decode_tokens = 0;
    int64_t sampled = 0;
  };

  int64_t remaining_prompt(int index) const {
    const RequestState& s = states_[static_cast<std::size_t>(index)];
    return specs_[static_cast<std::size_t>(index)].prompt - s.prefilled;
  }

  void add_prefill(Instance& in, Tally& tally, int index, int64_t tokens) {
    in.cost->add_prefill(tokens, states_[static_cast<std::size_t>(index)].prefilled);
    if (tokens == remaining_prompt(index)) ++tally.sampled;
    prefill_chunks_.push_back(PrefillChunk{index, tokens});
    tally.prefill_tokens += tokens;
  }

  void add_decodes(Instance& in, Tally& tally) {
    decode_contexts_.clear();
    for (const int index : in.running) {
      const int64_t generated = states_[static_cast<std::size_t>(index)].generated;
      if (generated == 0) continue;  // still prefilling
      decode_contexts_.push_back(specs_[static_cast<std::size_t>(index)].prompt + generated - 1);
      decode_rows_.push_back(index);
    }
    in.cost->add_decodes(decode_contexts_);
    const auto decodes = static_cast<int64_t>(decode_contexts_.size());
    tally.decode_tokens += decodes;
    tally.sampled += decodes;
  }

  // A decode instance: admits the requests handed over to it, then decodes every running one.
  void schedule_decode(Instance& in, Tally& tally) {
    while (!in.pending.empty() &&
           states_[static_cast<std::size_t>(in.pending.front())].ready <= in.clock &&
           static_cast<int64_t>(in.running.size()) < plan_.max_batch &&
           fits(in, in.pending.front())) {
      admit(in, in.pending.front());
      in.pending.erase(in.pending.begin());
    }
    add_decodes(in, tally);
  }

  // Sarathi-Serve: every running decode, then prefill chunks up to the token budget —
  // unfinished prompts first, in admission order, then newly admitted ones.
  void schedule_chunked(Instance& in, Tally& tally) {
    add_decodes(in, tally);
    int64_t room = plan_.token_budget - tally.decode_tokens;
    const auto add_chunk = [&](int index) {
      const int64_t chunk = std::min(remaining_prompt(index), room);
      add_prefill(in, tally, index, chunk);
      room -= chunk;
    };
    // Prompts still prefilling are the most recently admitted ones — a prompt gets a chunk
    // only after every earlier prompt has finished — so they are the tail of `running`: find
    // it from the end instead of walking every running decode.
    std::size_t tail = in.running.size();
    while (tail > 0 && remaining_prompt(in.running[tail - 1]) > 0) --tail;
    for (std::size_t i = tail; i < in.running.size() && room > 0; ++i) add_chunk(in.running[i]);
    admit_waiting(
        in, [&](int) { return room > 0; }, add_chunk);
  }

  // vLLM's scheduler before chunking (prefill-first), and a DistServe prefill instance: admit
  // waiting prompts FCFS up to the token budget (the first always, however long) and run them
  // whole, before any decode.
  void schedule_prefill_first(Instance& in, Tally& tally) {
    int64_t batched = 0;
    admit_waiting(
        in,
        [&](int index) {
          return batched == 0 || batched + remaining_prompt(index) <= plan_.token_budget;
        },
        [&](int index) {
          batched += remaining_prompt(index);
          add_prefill(in, tally, index, remaining_prompt(index));
        });
    if (prefill_chunks_.empty()) add_decodes(in, tally);
  }

  // One iteration of instance `in`: what it runs (decode_rows_, prefill_chunks_), its duration,
  // and what follows.
  void step(Instance& in) {
    decode_rows_.clear();
    prefill_chunks_.clear();
    in.cost->begin();
    Tally tally;
    if (in.role == Role::decode) {
      schedule_decode(in, tally);
    } else if (plan_.policy == SchedulerPolicy::chunked) {
      schedule_chunked(in, tally);
    } else {
      schedule_prefill_first(in, tally);
    }
    in.cost->add_sampled(tally.sampled);
    const double start = in.clock;
    const double duration = in.cost->seconds();
    const double end = start + duration;
    in.clock = end;
    in.busy_seconds += duration;
    ++iterations_;
    advance_requests(in, end);
    log_iteration(in, tally, start, end);
  }

  // The iteration's work done at `end`: prompts prefilled, tokens emitted, requests finished
  // or (from a prefill instance) handed over, and those leave `running`. Decode rows first,
  // then prefill chunks: the order they were scheduled in (a chunked iteration adds its decodes
  // before its chunks), which fixes the order of finishes and hand-overs.
  void advance_requests(Instance& in, double end) {
    bool removed = false;
    for (const int index : decode_rows_) {
      RequestState& s = states_[static_cast<std::size_t>(index)];
      s.tbt_max = std::max(s.tbt_max, end - s.last_token);
      s.last_token = end;
      ++s.generated;
      if (leaves_after_token(in, index)) {
        leave(in, index, end);
        removed = true;
      }
    }
    for (const PrefillChunk& chunk : prefill_chunks_) {
      const auto i = static_cast<std::size_t>(chunk.index);
      RequestState& s = states_[i];
      s.prefilled += chunk.tokens;
      if (s.prefilled < specs_[i].prompt) continue;
      s.first_token = end;
      s.last_token = end;
      s.generated = 1;
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

  bool finished_output(int index) const {
    return states_[static_cast<std::size_t>(index)].generated >=
           specs_[static_cast<std::size_t>(index)].output;
  }

  // A request leaves an instance's running list after a token when its output is complete, or
  // from a prefill instance after its first.
  bool leaves_after_token(const Instance& in, int index) const {
    return in.role == Role::prefill || finished_output(index);
  }

  void leave(Instance& in, int index, double end) {
    if (finished_output(index)) {
      finish(in, index, end);
    } else {
      hand_over(in, index, end);
    }
  }

  void log_iteration(const Instance& in, const Tally& tally, double start, double end) {
    last_time_ = std::max(last_time_, end);
    if (!keep_detail_) return;  // the log is the timeline's, which only a detailed run draws
    int64_t running = 0;
    for (const Instance& instance : instances_)
      running += static_cast<int64_t>(instance.running.size());
    log_.push_back(IterationLog{start, end, static_cast<double>(tally.prefill_tokens),
                                static_cast<double>(tally.decode_tokens),
                                static_cast<double>(queued_at(end)), static_cast<double>(running),
                                static_cast<double>(in.devices)});
  }

  void release(Instance& in, int index) {
    RequestState& s = states_[static_cast<std::size_t>(index)];
    in.kv_used_tokens -= static_cast<double>(s.kv_tokens);
    s.kv_tokens = 0;
  }

  void finish(Instance& in, int index, double time) {
    release(in, index);
    states_[static_cast<std::size_t>(index)].finished_at = time;
    if (in.role == Role::decode) --in.assigned;
    ++finished_;
  }

  // DistServe: the prompt's K/V moves to the decode instance with the fewest requests assigned
  // (ties: the lowest index) over the interconnect; the prefill instance's copy is released.
  void hand_over(Instance& from, int index, double time) {
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

  void stop(const std::string& reason, double time) {
    overloaded_ = true;
    reason_ = reason;
    last_time_ = std::max(last_time_, time);
  }

  ServingRun report() const;
  RequestOutcome outcome(std::size_t index) const;
  void add_busy_fractions(ServingRun& run) const;
  Timeline timeline() const;

  const Plan& plan_;
  const std::vector<RequestSpec>& specs_;
  std::vector<Instance> instances_;
  std::vector<RequestState> states_;
  std::vector<double> arrivals_;
  mutable std::size_t arrival_cursor_ = 0;  // arrived_by's last answer: a cache, not state
  // The iteration being scheduled: request indices of its decode rows (kept apart from the
  // chunks so that a row is one int written, not a record), then its prefill chunks.
  std::vector<int> decode_rows_;
  std::vector<int64_t> decode_contexts_;  // keys before each decode row (the cost model's input)
  std::vector<PrefillChunk> prefill_chunks_;
  // A deque, not a vector: a vector copied the whole log (~2 MB at 10,000 requests) into fresh
  // memory at every doubling, the largest source of the run's page faults (perf).
  std::deque<IterationLog> log_;
  bool keep_detail_ = true;  // outcomes and timeline wanted (not a goodput probe or sweep run)
  int64_t head_ = 0;  // first request (in arrival order) not yet admitted to a first instance
  int64_t finished_ = 0;
  int64_t iterations_ = 0;
  bool overloaded_ = false;
  std::string reason_;
  double last_time_ = 0;
};

// Nearest-rank percentiles: the ⌈p·n⌉-th smallest value.
Summary summarize(std::vector<double> values) {
  Summary summary;
  summary.count = static_cast<int64_t>(values.size());
  if (values.empty()) return summary;
  sort_ascending(values);
  double sum = 0;
  for (const double v : values) sum += v;
  summary.mean = sum / static_cast<double>(values.size());
  const auto rank = [&](double p) {
    const auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(values.size())));
    return values[std::max<std::size_t>(k, 1) - 1];
  };
  summary.p50 = rank(0.5);
  summary.p90 = rank(0.9);
  summary.p99 = rank(0.99);
  return summary;
}

Timeline Simulation::timeline() const {
  Timeline line;
  const auto points = static_cast<std::size_t>(plan_.timeline_points);
  if (points == 0 || last_time_ <= 0) return line;
  line.step_seconds = last_time_ / static_cast<double>(points);
  line.time_seconds.resize(points);
  line.queued.assign(points, 0);
  line.running.assign(points, 0);
  line.prefill_tokens.assign(points, 0);
  line.decode_tokens.assign(points, 0);
  line.busy_fraction.assign(points, 0);
  for (std::size_t k = 0; k < points; ++k)
    line.time_seconds[k] = line.step_seconds * static_cast<double>(k + 1);
  const auto bucket_of = [&](double t) {
    const auto k = static_cast<std::size_t>(t / line.step_seconds);
    return std::min(k, points - 1);
  };
  double devices = 0;
  for (const Instance& instance : instances_) devices += static_cast<double>(instance.devices);
  // Snapshots: the state after the last iteration to end within the step (logs end in any order
  // across instances, so the latest end wins).
  std::vector<double> snapshot_end(points, -1);
  for (const IterationLog& entry : log_) {
    const std::size_t k = bucket_of(entry.end);
    line.prefill_tokens[k] += entry.prefill_tokens;
    line.decode_tokens[k] += entry.decode_tokens;
    if (entry.end >= snapshot_end[k]) {
      snapshot_end[k] = entry.end;
      line.queued[k] = entry.queued;
      line.running[k] = entry.running;
    }
    // Busy device-time, split over the steps the iteration spans.
    for (std::size_t b = bucket_of(entry.start); b <= k; ++b) {
      const double lo = std::max(entry.start, line.step_seconds * static_cast<double>(b));
      const double hi = std::min(entry.end, line.step_seconds * static_cast<double>(b + 1));
      if (hi > lo) line.busy_fraction[b] += (hi - lo) * entry.devices;
    }
  }
  for (std::size_t k = 0; k < points; ++k) {
    line.busy_fraction[k] = std::min(1.0, line.busy_fraction[k] / (devices * line.step_seconds));
    // A step without an iteration ending in it keeps the state of the step before.
    if (snapshot_end[k] < 0 && k > 0) {
      line.queued[k] = line.queued[k - 1];
      line.running[k] = line.running[k - 1];
    }
  }
  return line;
}

// Request `index` as the report shows it: its lengths, and for a finished one its latencies.
RequestOutcome Simulation::outcome(std::size_t index) const {
  const RequestSpec& spec = specs_[index];
  const RequestState& s = states_[index];
  RequestOutcome out;
  out.arrival_seconds = s.arrival;
  out.prompt_tokens = spec.prompt;
  out.cached_tokens = spec.cached;
  out.output_tokens = spec.output;
  out.finished = s.finished_at >= 0;
  if (!out.finished) return out;
  out.ttft_seconds = s.first_token - s.arrival;
  out.tpot_seconds =
      spec.output > 1 ? (s.last_token - s.first_token) / static_cast<double>(spec.output - 1) : 0;
  out.tbt_max_seconds = s.tbt_max;
  out.e2e_seconds = s.finished_at - s.arrival;
  out.meets_slo = (!plan_.ttft_slo || out.ttft_seconds <= *plan_.ttft_slo) &&
                  (!plan_.tpot_slo || out.tpot_seconds <= *plan_.tpot_slo);
  return out;
}

// Device-seconds busy over device-seconds run: all devices, and each role's.
void Simulation::add_busy_fractions(ServingRun& run) const {
  double busy = 0, devices = 0, prefill_busy = 0, prefill_devices = 0, decode_busy = 0,
         decode_devices = 0;
  for (const Instance& instance : instances_) {
    const double d = static_cast<double>(instance.devices);
    busy += instance.busy_seconds * d;
    devices += d;
    (instance.role == Role::decode ? decode_busy : prefill_busy) += instance.busy_seconds * d;
    (instance.role == Role::decode ? decode_devices : prefill_devices) += d;
  }
  run.busy_fraction = busy / (devices * last_time_);
  run.prefill_busy_fraction =
      prefill_devices > 0 ? prefill_busy / (prefill_devices * last_time_) : 0;
  run.decode_busy_fraction =
      decode_devices > 0 ? decode_busy / (decode_devices * last_time_) : run.prefill_busy_fraction;
}

ServingRun Simulation::report() const {
  ServingRun run;
  run.requests = static_cast<int64_t>(specs_.size());
  run.completed = finished_;
  run.overloaded = overloaded_;
  run.overload_reason = reason_;
  run.simulated_seconds = last_time_;
  run.queued_at_stop = overloaded_ ? queued_at(last_time_) : 0;
  run.iterations = iterations_;
  std::vector<double> ttft, tpot, tbt, e2e, queue;
  for (auto* column : {&ttft, &tpot, &tbt, &e2e, &queue})
    column->reserve(static_cast<std::size_t>(finished_));
  if (keep_detail_) run.outcomes.reserve(specs_.size());
  int64_t met = 0;
  double output_tokens = 0;
  for (std::size_t i = 0; i < specs_.size(); ++i) {
    const RequestOutcome out = outcome(i);
    if (out.finished) {
      ttft.push_back(out.ttft_seconds);
      if (out.output_tokens > 1) {
        tpot.push_back(out.tpot_seconds);
        tbt.push_back(out.tbt_max_seconds);
      }
      e2e.push_back(out.e2e_seconds);
      queue.push_back(states_[i].admitted - states_[i].arrival);
      output_tokens += static_cast<double>(out.output_tokens);
      if (out.meets_slo) ++met;
    }
    if (keep_detail_) run.outcomes.push_back(out);
  }
  run.ttft = summarize(std::move(ttft));
  run.tpot = summarize(std::move(tpot));
  run.tbt_max = summarize(std::move(tbt));
  run.e2e = summarize(std::move(e2e));
  run.queue = summarize(std::move(queue));
  // Unfinished requests (an overloaded run) count as misses.
  if (plan_.ttft_slo || plan_.tpot_slo)
    run.slo_attainment = static_cast<double>(met) / static_cast<double>(specs_.size());
  if (last_time_ > 0) {
    run.throughput_requests_per_second = static_cast<double>(finished_) / last_time_;
    run.throughput_tokens_per_second = output_tokens / last_time_;
    add_busy_fractions(run);
  }
  if (keep_detail_) run.timeline = timeline();
  return run;
}

}  // namespace

namespace {

constexpr int64_t kDefaultMaxBatch = 256;        // vLLM's max_num_seqs
constexpr int64_t kDefaultChunkedBudget = 512;   // Sarathi-Serve's and vLLM's chunked default
constexpr int64_t kDefaultPrefillBudget = 8192;  // tokens one prefill-only batch may carry
constexpr int kMaxSearchRuns = 64;               // goodput: doubling, halving and bisection

Error serving_error(ErrorCode code, const std::string& path, const std::string& what) {
  return error_at(code, path, what);
}

// μ of a lognormal length distribution: ln X ~ N(μ, σ²) with E[X] = e^{μ + σ²/2} = mean.
// Worked out once per distribution, not per draw (ln is a 12-term series).
double lognormal_mu(const LengthDistribution& dist) {
  if (dist.kind != LengthDistribution::Kind::lognormal) return 0;
  const double sigma = dist.b;
  return serving_random::log(dist.a) - sigma * sigma / 2;
}

// One draw of a length distribution, rounded to a whole number of tokens, at least 1 and at most
// `most` (the per-request limit the reader checks explicit lengths against: a lognormal of σ = 4
// has no upper end, and clamped only at max_context_tokens it drew outputs of 1,146,770 > 2^20);
// `mu` is lognormal_mu(dist).
int64_t draw_length(const LengthDistribution& dist, double mu, serving_random::Generator& random,
                    int64_t most) {
  switch (dist.kind) {
    case LengthDistribution::Kind::fixed:
      return static_cast<int64_t>(dist.a);
    case LengthDistribution::Kind::uniform:
      return random.uniform_integer(static_cast<int64_t>(dist.a), static_cast<int64_t>(dist.b));
    case LengthDistribution::Kind::lognormal: {
      const double sigma = dist.b;
      const double x = serving_random::exp(mu + sigma * random.normal());
      const double rounded = std::floor(x + 0.5);
      return static_cast<int64_t>(std::clamp(rounded, 1.0, static_cast<double>(most)));
    }
  }
  return 1;
}

// The requests: explicit rows, or arrivals at rate 1 (scaled by the run's rate) and lengths,
// each from its own generator stream so changing one distribution leaves the others' draws.
std::vector<RequestSpec> workload(const ServingConfig& config) {
  std::vector<RequestSpec> specs;
  const auto cached_of = [&](int64_t prompt) {
    const auto cached =
        static_cast<int64_t>(std::floor(config.prefix_hit * static_cast<double>(prompt)));
    return std::min(cached, prompt - 1);  // the last prompt token is always computed: it samples
  };
  if (!config.rows.empty()) {
    for (const RequestRow& row : config.rows) {
      specs.push_back(RequestSpec{row.arrival_seconds, row.prompt_tokens,
                                  cached_of(row.prompt_tokens), row.output_tokens});
    }
    return specs;
  }
  serving_random::Generator arrivals(config.seed);
  serving_random::Generator prompts(config.seed ^ 0x50524f4d50540000ULL);  // "PROMPT"
  serving_random::Generator outputs(config.seed ^ 0x4f55545055540000ULL);  // "OUTPUT"
  const double prompt_mu = lognormal_mu(config.prompt);
  const double output_mu = lognormal_mu(config.output);
  double time = 0;
  specs.reserve(static_cast<std::size_t>(config.requests));
  for (int64_t i = 0; i < config.requests; ++i) {
    // Poisson: exponential gaps of mean 1. Gamma: shape 1/CV², scale CV² (mean 1).
    time += config.arrival == ArrivalKind::poisson ? arrivals.exponential()
                                                   : arrivals.gamma_mean_one(config.arrival_cv);
    const int64_t prompt =
        draw_length(config.prompt, prompt_mu, prompts, limits::max_prompt_tokens);
    specs.push_back(
        RequestSpec{time, prompt, cached_of(prompt),
                    draw_length(config.output, output_mu, outputs, limits::max_output_tokens)});
  }
  return specs;
}

struct Fleet {
  std::unique_ptr<IterationCost> prefill_cost;  // colocated: the one cost model
  std::unique_ptr<IterationCost> decode_cost;
  double prefill_kv_tokens = 0;
  double decode_kv_tokens = 0;
};

Scenario with_tensor_parallel(const Scenario& scenario, int64_t devices) {
  Scenario copy = scenario;
  copy.workload.tensor_parallel = devices;
  copy.workload.batch = 1;
  copy.workload.chunk_tokens = 0;
  copy.workload.arrival_rate = 0;
  return copy;
}

// K/V tokens one instance holds: its memory less the weights and the temporaries of its largest
// iteration (the memory ledger of a trace of `budget` rows), over the K/V bytes of one token.
double kv_capacity_tokens(const Scenario& instance, int64_t budget) {
  Scenario probe = instance;
  probe.workload.prompt_tokens = std::max<int64_t>(1, budget);
  const Trace trace = compute_trace(probe, {}, TraceOptions{false});
  const double free_bytes =
      trace.memory.capacity_bytes - trace.memory.weight_bytes - trace.memory.temporaries_bytes;
  return free_bytes <= 0 ? 0 : std::floor(free_bytes / trace.attention.kv_bytes_per_token);
}

std::vector<Instance> instances(const ServingConfig& config, const Fleet& fleet) {
  std::vector<Instance> list;
  if (config.policy != SchedulerPolicy::disaggregated) {
    Instance one;
    one.cost = fleet.prefill_cost.get();
    one.devices = config.prefill_tensor_parallel;
    one.kv_capacity_tokens = fleet.prefill_kv_tokens;
    list.push_back(std::move(one));
    return list;
  }
  for (int64_t i = 0; i < config.prefill_devices; ++i) {
    Instance in;
    in.role = Role::prefill;
    in.cost = fleet.prefill_cost.get();
    in.devices = config.prefill_tensor_parallel;
    in.kv_capacity_tokens = fleet.prefill_kv_tokens;
    list.push_back(std::move(in));
  }
  for (int64_t i = 0; i < config.decode_devices; ++i) {
    Instance in;
    in.role = Role::decode;
    in.cost = fleet.decode_cost.get();
    in.devices = config.decode_tensor_parallel;
    in.kv_capacity_tokens = fleet.decode_kv_tokens;
    list.push_back(std::move(in));
  }
  return list;
}

// Fills the defaults and checks what needs the scenario or several fields at once.
std::optional<Error> resolve(const Scenario& scenario, ServingConfig& config) {
  const bool disaggregated = config.policy == SchedulerPolicy::disaggregated;
  if (!disaggregated) {
    if (config.prefill_devices != 0)
      return serving_error(ErrorCode::incompatible, "/serving/prefill_devices",
                           "only the disaggregated policy has prefill and decode instances");
    if (config.decode_devices != 0)
      return serving_error(ErrorCode::incompatible, "/serving/decode_devices",
                           "only the disaggregated policy has prefill and decode instances");
    if (config.decode_tensor_parallel != 0)
      return serving_error(ErrorCode::incompatible, "/serving/decode_tensor_parallel",
                           "only the disaggregated policy has decode instances");
  }
  if (config.prefill_devices == 0) config.prefill_devices = 1;
  if (config.decode_devices == 0) config.decode_devices = disaggregated ? 1 : 0;
  if (config.prefill_tensor_parallel == 0)
    config.prefill_tensor_parallel = scenario.workload.tensor_parallel;
  if (config.decode_tensor_parallel == 0)
    config.decode_tensor_parallel = disaggregated ? scenario.workload.tensor_parallel : 0;
  if (config.max_batch == 0) config.max_batch = kDefaultMaxBatch;
  if (config.token_budget == 0)
    config.token_budget =
        config.policy == SchedulerPolicy::chunked ? kDefaultChunkedBudget : kDefaultPrefillBudget;
  if (config.max_queue == 0) config.max_queue = limits::default_serving_max_queue;
  if (config.policy == SchedulerPolicy::chunked && config.token_budget <= config.max_batch) {
    return serving_error(ErrorCode::incompatible, "/serving/token_budget",
                         "must exceed max_batch (" + std::to_string(config.max_batch) +
                             ") under the chunked policy, so every iteration has room for a "
                             "prefill chunk beside its decodes");
  }
  if (disaggregated && scenario.hardware.interconnect_bandwidth <= 0) {
    return serving_error(ErrorCode::incompatible, "/serving/policy",
                         "disaggregated moves K/V over the interconnect, and " +
                             scenario.hardware.id + " states no interconnect_bandwidth");
  }
  if (config.rows.empty()) {
    if (!(config.rate > 0))
      return serving_error(ErrorCode::missing_field, "/serving/rate",
                           "is required (requests/s > 0)");
    if (config.requests < 1)
      return serving_error(ErrorCode::missing_field, "/serving/requests",
                           "is required (at least 1)");
  } else {
    if (config.goodput)
      return serving_error(ErrorCode::incompatible, "/serving/goodput",
                           "needs generated arrivals (rate), not explicit rows");
    if (!config.sweep_rates.empty())
      return serving_error(ErrorCode::incompatible, "/serving/sweep_rates",
                           "needs generated arrivals (rate), not explicit rows");
    config.requests = static_cast<int64_t>(config.rows.size());
  }
  if (config.goodput && !config.ttft_slo_seconds && !config.tpot_slo_seconds)
    return serving_error(ErrorCode::incompatible, "/serving/goodput",
                         "needs an SLO: ttft_slo and/or tpot_slo");
  return std::nullopt;
}

// Every request must fit an instance alone, and the run's total work stays within the limits.
std::optional<Error> check_workload(const ServingConfig& config,
                                    const std::vector<RequestSpec>& specs, const Fleet& fleet,
                                    int64_t window) {
  double prompt_total = 0;
  double output_total = 0;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const RequestSpec& spec = specs[i];
    prompt_total += static_cast<double>(spec.prompt);
    output_total += static_cast<double>(spec.output);
    const std::string where =
        config.rows.empty() ? "/serving/prompt" : "/serving/rows/" + std::to_string(i);
    if (spec.prompt + spec.output > limits::max_context_tokens) {
      return serving_error(ErrorCode::out_of_range, where,
                           "request " + std::to_string(i) + " has a context of " +
                               std::to_string(spec.prompt + spec.output) +
                               " tokens, over the limit of " +
                               std::to_string(limits::max_context_tokens));
    }
    const auto kept = [&](int64_t tokens) {
      return static_cast<double>(window > 0 ? std::min(tokens, window) : tokens);
    };
    const bool disaggregated = config.policy == SchedulerPolicy::disaggregated;
    const double prefill_need = kept(spec.prompt + (disaggregated ? 0 : spec.output));
    const double decode_need = kept(spec.prompt + spec.output);
    if (prefill_need > fleet.prefill_kv_tokens ||
        (disaggregated && decode_need > fleet.decode_kv_tokens)) {
      const double capacity =
          prefill_need > fleet.prefill_kv_tokens ? fleet.prefill_kv_tokens : fleet.decode_kv_tokens;
      return serving_error(ErrorCode::incompatible, where,
                           "request " + std::to_string(i) + " needs K/V for " +
                               std::to_string(static_cast<int64_t>(decode_need)) +
                               " tokens, more than the " +
                               std::to_string(static_cast<int64_t>(capacity)) +
                               " an instance holds beside its weights");
    }
  }
  if (output_total > limits::max_serving_output_tokens)
    return serving_error(ErrorCode::too_large, "/serving/output",
                         "the requests' output tokens sum to more than 1e8");
  if (prompt_total > limits::max_serving_prompt_tokens)
    return serving_error(ErrorCode::too_large, "/serving/prompt",
                         "the requests' prompt tokens sum to more than 1e9");
  return std::nullopt;
}

ServingRun run_at(double rate, const ServingConfig& config, const Plan& plan,
                  const std::vector<RequestSpec>& specs, const Fleet& fleet, bool keep_detail) {
  Simulation simulation(plan, specs, rate, instances(config, fleet));
  ServingRun run = simulation.run(keep_detail);
  run.rate = rate;
  return run;
}

// The largest rate whose attainment reaches the target: doubling (or halving) from the
// configured rate until the target is bracketed, then bisection until the bracket's width is
// within the tolerance of its upper end. Every run draws the same requests (common random
// numbers: arrival times scale as 1/rate), so attainment falls with rate without sampling noise
// between runs; where it is not monotonic the search returns a rate at a crossing.
GoodputSearch search_goodput(const ServingConfig& config, const Plan& plan,
                             const std::vector<RequestSpec>& specs, const Fleet& fleet,
                             int64_t devices) {
  GoodputSearch search;
  search.target = config.attainment_target;
  search.tolerance = config.goodput_tolerance;
  double median_ttft = 0;  // of the last run
  const auto meets = [&](double rate) {
    const ServingRun run = run_at(rate, config, plan, specs, fleet, false);
    const double attainment = run.slo_attainment.value_or(0);
    search.probes.push_back(GoodputSearch::Probe{rate, attainment, run.overloaded});
    median_ttft = run.ttft.p50;
    return attainment >= config.attainment_target;
  };
  // Arrivals at rate 1 divided by the rate: the last one's time is the run's arrival span.
  const double unit_span = specs.empty() ? 0 : specs.back().unit_arrival;
  double low = 0;
  double high = 0;
  int runs = 0;
  double rate = config.rate;
  if (meets(rate)) {
    low = rate;
    while (runs++ < kMaxSearchRuns / 2 && rate * 2 <= limits::max_arrival_rate) {
      // Every request arrived within the median TTFT and the target still holds: the run is
      // one burst, and a higher rate cannot load the device more. Too few requests to find a
      // rate that misses: the goodput is unbounded for this run, not the last rate tried.
      if (unit_span / rate < median_ttft) {
        search.bounded = false;
        break;
      }
      rate *= 2;
      if (!meets(rate)) {
        high = rate;
        break;
      }
      low = rate;
    }
  } else {
    high = rate;
    // Halving stops where the arrivals would span more than limits::max_arrival_seconds.
    const double floor = static_cast<double>(specs.size()) / limits::max_arrival_seconds;
    while (runs++ < kMaxSearchRuns / 2 && rate / 2 >= floor) {
      rate /= 2;
      if (meets(rate)) {
        low = rate;
        break;
      }
      high = rate;
    }
  }
  if (low > 0 && high > 0) {
    while (runs++ < kMaxSearchRuns && high - low > config.goodput_tolerance * high) {
      const double mid = 0.5 * (low + high);
      (meets(mid) ? low : high) = mid;
    }
  }
  search.goodput_requests_per_second = low;
  search.goodput_per_device = low / static_cast<double>(devices);
  std::sort(
      search.probes.begin(), search.probes.end(),
      [](const GoodputSearch::Probe& a, const GoodputSearch::Probe& b) { return a.rate < b.rate; });
  return search;
}

}  // namespace

const char* policy_name(SchedulerPolicy policy) {
  switch (policy) {
    case SchedulerPolicy::prefill_first:
      return "prefill-first";
    case SchedulerPolicy::chunked:
      return "chunked";
    case SchedulerPolicy::disaggregated:
      return "disaggregated";
  }
  return "?";
}

double LengthDistribution::mean() const {
  switch (kind) {
    case Kind::fixed:
      return a;
    case Kind::uniform:
      return (a + b) / 2;
    case Kind::lognormal:
      return a;
  }
  return a;
}

namespace {

// The cost models and K/V room of the run's instances: one colocated kind, or a prefill and a
// decode kind (disaggregated), each at its own tensor parallelism.
Fleet build_fleet(const Scenario& scenario, const ServingConfig& config) {
  const Scenario prefill_scenario = with_tensor_parallel(scenario, config.prefill_tensor_parallel);
  Fleet fleet;
  fleet.prefill_cost = std::make_unique<IterationCost>(prefill_scenario);
  fleet.prefill_kv_tokens = kv_capacity_tokens(prefill_scenario, config.token_budget);
  if (config.policy == SchedulerPolicy::disaggregated) {
    const Scenario decode_scenario = with_tensor_parallel(scenario, config.decode_tensor_parallel);
    fleet.decode_cost = std::make_unique<IterationCost>(decode_scenario);
    // A decode iteration carries at most max_batch rows.
    fleet.decode_kv_tokens = kv_capacity_tokens(decode_scenario, config.max_batch);
  }
  return fleet;
}

// Sizes the decode cost caches for the longest request's context once, instead of growing
// them (each growth copies the cache) as the run's contexts rise.
void reserve_decode_contexts(const Fleet& fleet, const std::vector<RequestSpec>& specs) {
  int64_t longest = 0;
  for (const RequestSpec& spec : specs) longest = std::max(longest, spec.prompt + spec.output);
  fleet.prefill_cost->reserve_decode_contexts(longest);
  if (fleet.decode_cost) fleet.decode_cost->reserve_decode_contexts(longest);
}

// The report's description of the run: what ran on what, and its devices.
ServingReport report_header(const Scenario& scenario, const ServingConfig& config) {
  const bool disaggregated = config.policy == SchedulerPolicy::disaggregated;
  ServingReport report;
  report.model = scenario.model.id;
  report.hardware = scenario.hardware.id;
  report.precision = scenario.precision.name;
  report.timing = scenario.workload.timing == Timing::bound ? "bound" : "estimate";
  report.devices = config.prefill_devices * config.prefill_tensor_parallel +
                   (disaggregated ? config.decode_devices * config.decode_tensor_parallel : 0);
  report.prefill_instance_devices = config.prefill_tensor_parallel;
  report.decode_instance_devices = disaggregated ? config.decode_tensor_parallel : 0;
  return report;
}

}  // namespace

Result<ServingReport> simulate_serving(const Scenario& scenario, ServingConfig config) {
  if (auto error = resolve(scenario, config)) return *error;
  ServingReport report = report_header(scenario, config);
  const bool disaggregated = config.policy == SchedulerPolicy::disaggregated;
  const Fleet fleet = build_fleet(scenario, config);
  const double instance_kv = disaggregated ? fleet.decode_kv_tokens : fleet.prefill_kv_tokens;
  if (instance_kv < 1 || fleet.prefill_kv_tokens < 1) {
    return serving_error(ErrorCode::incompatible, "/serving",
                         "the model's weights and one iteration's temporaries leave "
                         "no memory for K/V on an instance of " +
                             scenario.hardware.id);
  }
  const std::vector<RequestSpec> specs = workload(config);
  const int64_t window = scenario.model.sliding_window;
  if (auto error = check_workload(config, specs, fleet, window)) return *error;
  reserve_decode_contexts(fleet, specs);

  Plan plan{config.policy,
            config.token_budget,
            config.max_batch,
            config.max_queue,
            window,
            0,
            config.ttft_slo_seconds,
            config.tpot_slo_seconds,
            config.timeline_points};
  report.kv_bytes_per_token = fleet.prefill_cost->kv_bytes_per_token();
  if (disaggregated) {
    // Every prefill device sends its shard of the K/V at once, each over its own link: the
    // transfer takes the whole K/V over the links of the smaller instance.
    report.kv_transfer_bytes_per_token =
        report.kv_bytes_per_token * static_cast<double>(config.prefill_tensor_parallel);
    const double links = static_cast<double>(
        std::min(config.prefill_tensor_parallel, config.decode_tensor_parallel));
    plan.transfer_seconds_per_token =
        report.kv_transfer_bytes_per_token / (links * scenario.hardware.interconnect_bandwidth);
  }
  report.kv_capacity_tokens = instance_kv;
  report.run = run_at(config.rows.empty() ? config.rate : 0, config, plan, specs, fleet, true);
  if (!config.rows.empty()) report.run.rate = 0;
  if (config.goodput) report.goodput = search_goodput(config, plan, specs, fleet, report.devices);
  for (const double rate : config.sweep_rates)
    report.sweep.push_back(run_at(rate, config, plan, specs, fleet, false));
  report.config = std::move(config);
  return report;
}

}  // namespace prefill_trace
