#pragma once
// The serving simulation's event loop and the state it keeps (src/serving/serving.hpp; semantics in
// docs/serving.md). The loop (simulation.cpp) picks the instance whose next iteration starts
// first and lets the policy's scheduler (schedulers/) fill that iteration through the calls in
// the "Scheduling" section below; K/V admission is in kv_admission.cpp, the run's report in
// report.cpp.

#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "serving/cost.hpp"
#include "serving/kv/kv.hpp"
#include "serving/kv/prefix_cache.hpp"
#include "serving/serving.hpp"
#include "serving/timeline.hpp"
#include "serving/work.hpp"
#include "serving/workload.hpp"
#include "trace/host_overhead.hpp"

namespace prefill_trace::serving {

constexpr double kNever = std::numeric_limits<double>::infinity();

struct RequestState {
  double arrival = 0;
  double admitted = -1;
  double ready = 0;  // disaggregated: when its K/V reached the decode instance
  double first_token = -1;
  double last_token = 0;
  double tbt_max = 0;
  double finished_at = -1;
  int64_t prefilled = 0;  // prompt tokens whose K/V exists (cached ones included)
  int64_t target = 0;     // tokens to prefill before its next token: the prompt, or after a
                          // preemption prompt + generated (recomputation)
  int64_t generated = 0;
  int64_t kv_tokens = 0;     // K/V tokens held on its current instance (0: none)
  int64_t kv_blocks = 0;     // blocks held (reserve: its reservation's, ⌈tokens / block size⌉;
                             // paged: those of shared hash ids included)
  int64_t cached = 0;        // prompt tokens found cached at its latest admission
  int64_t first_cached = 0;  // … at its first admission: the report's cached_tokens
  int64_t hash_refs = 0;     // hash ids it references on its instance (kv/prefix_cache.hpp)
  int64_t hash_marked = 0;   // of those, how many it has seen computed
  int trace_slot = -1;       // its record among the token times (token_times.cpp); −1: none
};

enum class Role { colocated, prefill, decode };

struct Instance {
  Role role = Role::colocated;
  IterationCost* cost = nullptr;
  int64_t devices = 1;
  double clock = 0;
  double busy_seconds = 0;
  double kv_capacity_tokens = 0;  // reserve
  double kv_used_tokens = 0;
  int64_t kv_capacity_blocks = 0;  // paged: the limit; reserve: the same bytes' whole blocks
  int64_t kv_used_blocks = 0;
  int64_t watermark_blocks = 0;
  std::vector<int> running;   // admitted, unfinished, in admission order
  std::vector<int> pending;   // decode: handed over, not admitted, by (ready, id)
  std::deque<int> preempted;  // paged: preempted here, first in line for readmission
  int64_t assigned = 0;       // decode: handed over and not finished
  PrefixCache prefix_cache;   // paged with a trace's hash ids: the prompts' cached blocks
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
  KvMode kv = KvMode::reserve;
  int64_t block_size = 16;
  std::vector<int> token_time_requests;  // whose token times a detailed run records
  // The stack's host time (src/trace/host_overhead.hpp): added to every iteration's device time,
  // and its front-end delay to every request's arrival at the scheduler. Zero by default.
  HostOverheadProfile host{};
  bool prefix_cache =
      false;  // the requests' hash ids decide prefix-cache hits (kv/prefix_cache.hpp)
};

// Tokens of one iteration: prompt tokens prefilled and decode rows; and the requests that
// emit a token at its end (decodes, and prompts whose last chunk runs).
struct Tally {
  int64_t prefill_tokens = 0;
  int64_t decode_tokens = 0;
  int64_t sampled = 0;
};

class Simulation {
 public:
  /// Counts its iterations in `work` and stops when the call passes a limit there.
  Simulation(const Plan& plan, const std::vector<RequestSpec>& specs, double rate,
             std::vector<Instance> instances, CallWork& work);
  /// Folds the timeline as the run goes over a span known from an earlier run of the same
  /// requests, instead of keeping its iterations.
  void fold_timeline(double end_seconds);
  /// Starts the run: `keep_detail` keeps outcomes, token times and the timeline (not a goodput
  /// probe or sweep run). Then advance() until done, then report().
  void begin(bool keep_detail);
  /// Runs iterations while the call's work (CallWork's units) is below `work_until`; true once
  /// the run is over (every request finished, the queue overflowed, or the call was refused).
  /// Slicing changes nothing: the state between two iterations is the whole state.
  bool advance(double work_until);
  bool done() const { return done_; }
  /// Requests finished so far (the progress of a run in slices).
  int64_t finished() const { return finished_; }
  /// The run's report; once done.
  ServingRun report() const;
  /// The run had more than kLoggedIterations iterations and no fold: its timeline is empty.
  bool timeline_dropped() const { return log_dropped_; }

  // --- Scheduling: what a scheduler (schedulers/) builds an iteration from ---------------------
  const Plan& plan() const { return plan_; }
  int64_t remaining_prompt(int index) const {
    const RequestState& s = states_[static_cast<std::size_t>(index)];
    return s.target - s.prefilled;
  }
  bool has_prefill_chunks() const { return !prefill_chunks_.empty(); }
  /// Takes the waiting requests at the head of the arrival order, FCFS, while they arrived by
  /// the instance's clock, fit its K/V and `room(index)` allows; head-of-line blocking like
  /// vLLM's. `admitted(index)` runs after each admission, before the next is considered.
  /// Requests preempted on this instance come first (the front of vLLM's waiting queue).
  template <typename Room, typename Admitted>
  void admit_waiting(Instance& in, Room room, Admitted admitted) {
    for (;;) {
      const int index = waiting_head(in);
      if (index < 0 || static_cast<int64_t>(in.running.size()) >= plan_.max_batch ||
          !fits(in, index) || !room(index))
        return;
      admit(in, index);
      if (!in.preempted.empty()) {
        in.preempted.pop_front();
      } else {
        ++head_;
      }
      admitted(index);
    }
  }
  /// A decode instance: admits the requests handed over to it whose K/V has arrived, in order.
  void admit_pending(Instance& in);
  /// A prompt chunk of `tokens` of request `index` in this iteration.
  void add_prefill(Instance& in, Tally& tally, int index, int64_t tokens);
  /// One decode row for every running request that has its first token.
  void add_decodes(Instance& in, Tally& tally);

 private:
  struct PrefillChunk {
    int index;
    int64_t tokens;
  };

  // K/V admission and preemption (kv_admission.cpp).
  int waiting_head(const Instance& in) const {
    if (!in.preempted.empty()) return in.preempted.front();
    if (head_ < static_cast<int64_t>(specs_.size()) &&
        arrivals_[static_cast<std::size_t>(head_)] <= in.clock)
      return static_cast<int>(head_);
    return -1;
  }
  bool fits(const Instance& in, int index) const;
  void admit(Instance& in, int index);
  void release(Instance& in, int index);
  void grow_decodes(Instance& in);
  void preempt(Instance& in, int index);
  int64_t kv_blocks_used() const;

  // The loop (simulation.cpp).
  int64_t queued_at(double time) const;
  std::size_t arrived_by(double time) const;
  double next_action(const Instance& in) const;
  void step(Instance& in);
  void advance_requests(Instance& in, double start, double end);
  bool finished_output(int index) const;
  bool leaves_after_token(const Instance& in, int index) const;
  void leave(Instance& in, int index, double end);
  void log_iteration(const Instance& in, const Tally& tally, double start, double end);
  void finish(Instance& in, int index, double time);
  void hand_over(Instance& from, int index, double time);
  void stop(const std::string& reason, double time);

  // Token times (token_times.cpp): the records of plan_.token_time_requests.
  void start_token_times();
  void trace_token(const RequestState& s, double time) {
    token_times_[static_cast<std::size_t>(s.trace_slot)].token_seconds.push_back(time);
  }
  void trace_pass(const RequestState& s, double start, double end, int64_t tokens);
  void trace_preemption(const RequestState& s, double time);
  std::vector<RequestTokenTimes> token_times() const;

  // One iteration of the instance that acts first; false when the run is over.
  bool next_iteration();

  // The report (report.cpp).
  RequestOutcome outcome(std::size_t index) const;
  // The prompt tokens request `index` found cached: the fraction's, or the prefix cache's hit
  // at its first admission (0 if it never was admitted).
  int64_t cached_tokens(std::size_t index) const {
    return plan_.prefix_cache ? states_[index].first_cached : specs_[index].cached;
  }
  PrefixCacheFigures prefix_cache_figures() const;
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
  CallWork& work_;
  std::unique_ptr<KvGrant> kv_;
  std::vector<RequestTokenTimes> token_times_;
  int64_t preemptions_ = 0;
  int64_t logged_preemptions_ = 0;  // preemptions_ when the last iteration was logged
  int64_t recomputed_tokens_ = 0;
  double running_seconds_ = 0;  // Σ running requests × iteration time, every instance
  double host_seconds_ = 0;     // Σ host time of the iterations, every instance
  // The first kLoggedIterations iterations, folded at the end (a deque, not a vector: a vector
  // copied the log into fresh memory at every doubling, the run's largest source of page
  // faults), or the fold itself when the run's span is known.
  std::deque<IterationLog> log_;
  bool log_dropped_ = false;
  std::optional<TimelineFold> fold_;
  bool keep_detail_ = true;  // outcomes and timeline wanted (not a goodput probe or sweep run)
  int64_t head_ = 0;  // first request (in arrival order) not yet admitted to a first instance
  int64_t finished_ = 0;
  int64_t iterations_ = 0;
  double longest_iteration_ = 0;  // seconds
  bool overloaded_ = false;
  bool done_ = false;
  std::string reason_;
  double last_time_ = 0;
};

}  // namespace prefill_trace::serving
