#include "checks.hpp"

#include <cmath>
#include <cstdio>

#include "json_path.hpp"  // quoted_excerpt: an unknown id is shown bounded and escaped
#include "trace/trace.hpp"

namespace prefill_trace {
namespace {

std::string number(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.4g", value);
  return buffer;
}

std::string integer(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.0f", value);
  return buffer;
}

const char* bound_option(Bound bound) {
  switch (bound) {
    case Bound::compute:
      return "Compute (arithmetic throughput)";
    case Bound::memory:
      return "Memory bandwidth";
    case Bound::overhead:
      return "Kernel launch overhead";
    case Bound::interconnect:
      return "Interconnect bandwidth";
  }
  return "";
}

// 1. The lesson's equation on this scenario's first projection.
GeneratedCheck projection_flops_check(const Scenario& scenario, const Trace& trace) {
  const ModelShape& m = scenario.model;
  const Workload& work = scenario.workload;
  const ProjectionFact& qkv = trace.projection.projections.front();
  GeneratedCheck flops;
  flops.id = "projection-flops";
  flops.question =
      "Using F = 2·T·d_in·d_out, how many FLOPs does one layer's fused Q/K/V projection of " +
      m.name + " (d_in = " + integer(static_cast<double>(qkv.d_in)) +
      ", d_out = " + integer(static_cast<double>(qkv.d_out)) +
      ") take for one request of T = " + integer(static_cast<double>(work.prompt_tokens)) +
      " tokens?";
  flops.unit = "FLOP";
  flops.relative_tolerance = 0.01;
  flops.expected = qkv.flops_per_request;
  flops.explanation = "F = 2 × " + integer(static_cast<double>(work.prompt_tokens)) + " × " +
                      integer(static_cast<double>(qkv.d_in)) + " × " +
                      integer(static_cast<double>(qkv.d_out)) + " = " +
                      number(qkv.flops_per_request) +
                      " FLOP (multiply and add counted separately). Answers within 1% count.";
  return flops;
}

// 2. The same projection with a single prompt token: which bound?
GeneratedCheck single_token_bound_check(const Scenario& scenario) {
  Scenario single = scenario;
  single.workload.prompt_tokens = 1;
  single.workload.batch = 1;
  single.workload.chunk_tokens = 0;
  const Trace one = compute_trace(single, {});
  const ProjectionFact& one_qkv = one.projection.projections.front();
  const Operator& one_op = *find_operator(one, "qkv_projection");
  GeneratedCheck bound;
  bound.id = "step2-bound-at-t1";
  bound.kind = CheckKind::choice;
  bound.question = "On " + scenario.hardware.name +
                   ", what limits the Q/K/V projection of step 2 when the prompt is a single token "
                   "(T = 1, B = 1)?";
  bound.options = {bound_option(Bound::compute), bound_option(Bound::memory),
                   bound_option(Bound::overhead)};
  bound.expected = static_cast<double>(one_qkv.bound);
  bound.explanation = "With one row, each weight byte loaded serves one token: intensity " +
                      number(one_qkv.intensity) + " FLOP/byte against a ridge point of " +
                      number(one.projection.ridge_flops_per_byte) +
                      " FLOP/byte. Roofline time: compute " + number(one_op.compute_seconds * 1e6) +
                      " µs, memory " + number(one_op.memory_seconds * 1e6) +
                      " µs, launch overhead " + number(one_op.overhead_seconds * 1e6) +
                      " µs; the largest wins: " + bound_name(one_qkv.bound) + ".";
  return bound;
}

// 3. KV state left behind.
GeneratedCheck kv_bytes_check(const Scenario& scenario, const Trace& trace) {
  const ModelShape& m = scenario.model;
  const Workload& work = scenario.workload;
  GeneratedCheck kv;
  kv.id = "kv-bytes";
  kv.question = "How many bytes of KV cache does this prefill leave behind for decode (" + m.name +
                ", B = " + integer(static_cast<double>(work.batch)) +
                ", T = " + integer(static_cast<double>(work.prompt_tokens)) + ", KV in " +
                dtype_name(scenario.precision.kv) + ")?";
  kv.unit = "bytes";
  kv.relative_tolerance = 0.01;
  kv.expected = trace.attention.kv_bytes_kept;
  kv.explanation = "2 (K and V) × L " + integer(static_cast<double>(m.layers)) + " × B " +
                   integer(static_cast<double>(work.batch)) +
                   (m.sliding_window > 0 ? " × min(T, window) " : " × T ") +
                   integer(static_cast<double>(trace.attention.kv_tokens_kept)) + " × h_kv " +
                   integer(static_cast<double>(m.kv_heads)) + " × d_h " +
                   integer(static_cast<double>(m.head_dim)) + " × " +
                   number(bytes_per_element(scenario.precision.kv)) +
                   " bytes = " + number(kv.expected) +
                   " bytes. Grouped-query attention shrinks it through h_kv.";
  return kv;
}

// 4. Which part of TTFT dominates?
GeneratedCheck ttft_largest_check(const Scenario& scenario, const Trace& trace) {
  GeneratedCheck ttft;
  ttft.id = "ttft-largest";
  ttft.kind = CheckKind::choice;
  ttft.question = "In this scenario (arrival rate " + number(scenario.workload.arrival_rate) +
                  " requests/s), which part of the time to first token is largest?";
  ttft.options = {"Queueing", "Prompt execution", "First-token delivery"};
  if (trace.ttft.overloaded) {
    ttft.expected = 0;
    ttft.explanation = "The queue is overloaded: utilization " + number(trace.ttft.utilization) +
                       " ≥ 1, so the wait grows without bound and dominates everything else.";
  } else {
    const double parts[3] = {*trace.ttft.queue_seconds, trace.ttft.execution_seconds,
                             trace.ttft.delivery_seconds};
    int largest = 0;
    for (int i = 1; i < 3; ++i) {
      if (parts[i] > parts[largest]) largest = i;
    }
    ttft.expected = largest;
    ttft.explanation = "Queueing " + number(parts[0] * 1e3) + " ms, execution " +
                       number(parts[1] * 1e3) + " ms, delivery " + number(parts[2] * 1e3) +
                       " ms. Queueing is the M/D/1 wait λ·D²/(2(1−λ·D)) for the batch.";
  }
  return ttft;
}

}  // namespace

std::vector<GeneratedCheck> generate_checks(const Scenario& scenario) {
  const Trace trace = compute_trace(scenario, {});
  return {projection_flops_check(scenario, trace), single_token_bound_check(scenario),
          kv_bytes_check(scenario, trace), ttft_largest_check(scenario, trace)};
}

Result<GeneratedOutcome> check_generated(const Scenario& scenario, std::string_view id,
                                         double answer) {
  if (!std::isfinite(answer))
    return error_at(ErrorCode::out_of_range, "", "answer must be a finite number");
  for (const GeneratedCheck& check : generate_checks(scenario)) {
    if (check.id != id) continue;
    GeneratedOutcome outcome{false, check.expected, check.explanation};
    if (check.kind == CheckKind::choice) {
      if (answer != std::floor(answer) || answer < 0 ||
          answer >= static_cast<double>(check.options.size())) {
        return error_at(ErrorCode::out_of_range, "",
                        "answer must be an integer option index from 0 to " +
                            std::to_string(check.options.size() - 1));
      }
      outcome.correct = answer == check.expected;
    } else {
      outcome.correct = std::fabs(answer - check.expected) <=
                        check.relative_tolerance * std::fabs(check.expected);
    }
    return outcome;
  }
  return error_at(ErrorCode::unknown_name, "", "unknown check " + quoted_excerpt(id));
}

}  // namespace prefill_trace
