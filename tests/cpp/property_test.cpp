// Invariants over many random valid scenarios (fixed seed, so a failure is reproducible).
// These complement the hand-derived cases in trace_test.cpp: they cannot say a number is right,
// only that the numbers keep the relations the model promises for every input.

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "scenario/scenario.hpp"
#include "trace/trace.hpp"
#include "trace/trace_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

class RandomScenarios : public ::testing::Test {
 protected:
  std::mt19937_64 rng{20261202};

  template <typename T>
  T pick(const std::vector<T>& options) {
    return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
  }
  int64_t log_uniform(int64_t lo, int64_t hi) {
    std::uniform_real_distribution<double> u(std::log(static_cast<double>(lo)),
                                             std::log(static_cast<double>(hi)));
    return std::clamp<int64_t>(static_cast<int64_t>(std::exp(u(rng))), lo, hi);
  }

  Scenario random_scenario() {
    for (;;) {
      json value = {
          {"model", pick<std::string>({"llama-2-7b", "llama-3.1-8b", "llama-3.1-70b",
                                       "llama-3.1-405b", "mistral-7b", "mixtral-8x7b", "opt-13b"})},
          {"hardware", pick<std::string>({"a100-sxm-80gb", "h100-sxm", "h200", "b200", "mi300x",
                                          "l40s", "rtx-4090"})},
          {"precision", pick<std::string>({"bf16", "fp16", "fp8", "int8", "int4"})},
          {"prompt_tokens", log_uniform(1, 200000)},
          {"batch", log_uniform(1, 64)},
          {"attention", pick<std::string>({"fused", "materialized"})},
          {"gemm_m_tile", pick<int64_t>({16, 64, 128, 256})},
          {"arrival_rate", pick<double>({0, 0.1, 1, 10, 1000})},
          // Both timings, and tensor parallelism up to 8 devices (a degree the heads do not
          // split into, or an estimate on a device without a profile, is refused: drawn again).
          {"timing", pick<std::string>({"bound", "estimate"})},
          {"tensor_parallel", pick<int64_t>({1, 1, 2, 4, 8})}};
      if (std::bernoulli_distribution(0.3)(rng)) value["chunk_tokens"] = log_uniform(16, 16384);
      auto parsed = scenario_from_json(value);
      if (parsed) return parsed.value();  // e.g. fp8 on A100 is refused: draw again
    }
  }
};

double attention_hbm(const Trace& trace) {
  double bytes = 0;
  for (const Operator& op : trace.operators) {
    if (op.step == 3 && op.name != "kv_cache_write") bytes += op.count * op.hbm.total();
  }
  return bytes;
}

void expect_all_finite(const json& value) {
  if (value.is_number()) {
    ASSERT_TRUE(std::isfinite(value.get<double>()));
  } else if (value.is_structured()) {
    for (const auto& item : value) expect_all_finite(item);
  }
}

// Causal pairs: useful = T(T+1)/2, and the blocked schedule computes at least that and at most
// every key of every key block for every query: T · ⌈T/b⌉ · b. Under a sliding window of W keys
// (Mistral), positions past W see W keys each: W(W+1)/2 + (T − W)·W.
void expect_attention_pairs(const Scenario& s, const Trace& trace) {
  const double T = static_cast<double>(s.workload.prompt_tokens);
  const double W = static_cast<double>(s.model.sliding_window);
  EXPECT_EQ(trace.attention.useful_pairs,
            W > 0 && T > W ? W * (W + 1) / 2 + (T - W) * W : T * (T + 1) / 2);
  EXPECT_GE(trace.attention.computed_pairs, trace.attention.useful_pairs);
  const double b = static_cast<double>(trace.attention.block);
  EXPECT_LE(trace.attention.computed_pairs, T * std::ceil(T / b) * b);
}

// The KV state by the lesson's formula, from the shape alone: 2 (K, V) · L · B · T · h_kv · d_h ·
// bytes per element, with T capped at the sliding window when the model has one. A state larger
// than the device alone means it cannot fit, by at least the difference; a fit means the state
// is within capacity.
// Under tensor parallelism N every figure is one device's: h_kv/N heads, or one whole head when
// N > h_kv (docs/model.md, "Tensor parallelism").
void expect_kv_state(const Scenario& s, const Trace& trace) {
  const double T = static_cast<double>(s.workload.prompt_tokens);
  const double W = static_cast<double>(s.model.sliding_window);
  const double kept = W > 0 ? std::min(T, W) : T;
  const int64_t devices = s.workload.tensor_parallel;
  const int64_t kv_heads = devices > s.model.kv_heads ? 1 : s.model.kv_heads / devices;
  const double kv = 2.0 * static_cast<double>(s.model.layers * s.workload.batch) * kept *
                    static_cast<double>(kv_heads * s.model.head_dim) *
                    bytes_per_element(s.precision.kv);
  EXPECT_DOUBLE_EQ(trace.memory.kv_bytes, kv);
  if (kv > trace.memory.capacity_bytes) {
    EXPECT_FALSE(trace.memory.fits);
    EXPECT_GE(trace.memory.exceeds_by_bytes, kv - trace.memory.capacity_bytes);
  }
  if (trace.memory.fits) {
    EXPECT_LE(kv, trace.memory.capacity_bytes);
    EXPECT_EQ(trace.memory.exceeds_by_bytes, 0);
  }
}

// TTFT is at least its execution part, when it is a number at all; each operator takes at least
// its slower roof, and the estimate's p10–p90 range brackets each time.
void expect_times_ordered(const Scenario& s, const Trace& trace) {
  if (trace.ttft.total_seconds) {
    EXPECT_GE(*trace.ttft.total_seconds, trace.ttft.execution_seconds);
  } else {
    EXPECT_TRUE(trace.ttft.overloaded);
  }
  for (const Operator& op : trace.operators) {
    EXPECT_GE(op.seconds, std::max(op.compute_seconds, op.memory_seconds)) << op.name;
    EXPECT_GT(op.useful_fraction, 0) << op.name;
    EXPECT_LE(op.useful_fraction, 1) << op.name;
    // The estimate's p10–p90 range brackets it (the profile's interval has low ≤ 1 ≤ high);
    // under bound it is the point itself.
    EXPECT_LE(op.seconds_low, op.seconds) << op.name;
    EXPECT_GE(op.seconds_high, op.seconds) << op.name;
    // Only a split layer sends bytes over the interconnect.
    if (s.workload.tensor_parallel == 1) {
      EXPECT_EQ(op.link_bytes, 0) << op.name;
    }
  }
  EXPECT_LE(trace.totals.seconds_low, trace.totals.seconds);
  EXPECT_GE(trace.totals.seconds_high, trace.totals.seconds);
}

// More prompt tokens never means fewer FLOPs or a smaller KV state. False, checking nothing,
// when twice the prompt would split into more chunks than a scenario may.
bool expect_longer_prompt_costs_more(const Scenario& s, const Trace& trace) {
  Scenario longer = s;
  longer.workload.prompt_tokens =
      std::min<int64_t>(s.workload.prompt_tokens * 2, limits::max_prompt_tokens);
  if (longer.workload.chunk_tokens > 0 &&
      (longer.workload.prompt_tokens + longer.workload.chunk_tokens - 1) /
              longer.workload.chunk_tokens >
          limits::max_chunks) {
    return false;
  }
  const Trace more = compute_trace(longer, {});
  EXPECT_GT(more.totals.flops, trace.totals.flops);
  EXPECT_GT(more.attention.kv_bytes_written, trace.attention.kv_bytes_written);
  return true;
}

// Fusion never moves more attention bytes through HBM than materializing the scores.
// (True while the tile edge b ≥ d_h/4, as FlashAttention's B_r is on every preset device.)
void expect_fusion_saves_bytes(const Scenario& s) {
  Scenario fused = s, materialized = s;
  fused.workload.attention = AttentionKind::fused;
  materialized.workload.attention = AttentionKind::materialized;
  EXPECT_LE(attention_hbm(compute_trace(fused, {})),
            attention_hbm(compute_trace(materialized, {})));
}

TEST_F(RandomScenarios, InvariantsHold) {
  int split = 0;
  int estimated = 0;
  for (int i = 0; i < 400; ++i) {
    const Scenario s = random_scenario();
    split += s.workload.tensor_parallel > 1 ? 1 : 0;
    estimated += s.workload.timing == Timing::estimate ? 1 : 0;
    SCOPED_TRACE(scenario_to_json(s).dump());
    const Trace trace = compute_trace(s, {});
    expect_all_finite(trace_to_json(trace));
    expect_attention_pairs(s, trace);
    expect_kv_state(s, trace);
    expect_times_ordered(s, trace);
    // A draw whose doubled prompt would be refused ends here, its fusion check included.
    if (!expect_longer_prompt_costs_more(s, trace)) continue;
    expect_fusion_saves_bytes(s);
  }
  // The draws cover both timings and split layers (not only the defaults).
  EXPECT_GT(split, 60);
  EXPECT_GT(estimated, 60);
}

TEST_F(RandomScenarios, ChunkingKeepsTheWorkAndRereadsWeights) {
  for (int i = 0; i < 200; ++i) {
    Scenario s = random_scenario();
    s.workload.chunk_tokens = 0;
    // Fused attention only: with materialized attention, chunking also shrinks the computed
    // score rectangle (C·(P+C) per chunk instead of T²), which can lower the traffic.
    s.workload.attention = AttentionKind::fused;
    Scenario chunked = s;
    chunked.workload.chunk_tokens = log_uniform(1, std::max<int64_t>(1, s.workload.prompt_tokens));
    if ((s.workload.prompt_tokens + chunked.workload.chunk_tokens - 1) /
            chunked.workload.chunk_tokens >
        limits::max_chunks)
      continue;
    SCOPED_TRACE(scenario_to_json(chunked).dump());
    const Trace whole = compute_trace(s, {});
    const Trace parts = compute_trace(chunked, {});
    EXPECT_EQ(parts.attention.useful_pairs, whole.attention.useful_pairs);
    EXPECT_DOUBLE_EQ(parts.projection.flops_per_request, whole.projection.flops_per_request);
    EXPECT_EQ(parts.attention.kv_bytes_written, whole.attention.kv_bytes_written);
    EXPECT_LE(parts.memory.temporaries_bytes, whole.memory.temporaries_bytes);
    // Every chunk re-reads the weights (K/V streaming may shift either way with block alignment).
    const auto weight_bytes = [](const Trace& trace) {
      double bytes = 0;
      for (const Operator& op : trace.operators) bytes += op.count * op.hbm.weights;
      return bytes;
    };
    EXPECT_GE(weight_bytes(parts), weight_bytes(whole) * (1 - 1e-12));
  }
}

}  // namespace
}  // namespace prefill_trace
