#include "trace/assumptions.hpp"

#include <array>
#include <iterator>
#include <string>

#include "trace/operator_costs.hpp"
#include "trace/roofs.hpp"

namespace prefill_trace {
namespace {

constexpr bool whole(double value) {
  return value == static_cast<double>(static_cast<long long>(value));
}
static_assert(whole(costs::norm_flops_per_element) && whole(costs::softmax_flops_per_score) &&
                  whole(costs::gated_act_flops_per_element) &&
                  whole(costs::plain_act_flops_per_element) &&
                  whole(costs::sampling_flops_per_logit) && whole(costs::mma_rows) &&
                  whole(costs::logit_bytes),
              "the assumptions print the cost constants as whole numbers");

// A cost constant as the text shows it: "5", "16".
std::string figure(double value) {
  return std::to_string(static_cast<long long>(value));
}

// The assumptions every trace states, built once (the views handed out point into them).
const std::array<std::string, 10>& always_stated() {
  static const std::array<std::string, 10> text = {
      "Dense projection work counts multiply and add separately: F = 2·rows·d_in·d_out.",
      "No overlap between kernels.",
      "QKV and gate/up projections are fused GEMMs; residual adds are fused into the norms.",
      "Normalization is charged " + figure(costs::norm_flops_per_element) +
          " FLOPs per element, softmax " + figure(costs::softmax_flops_per_score) +
          " per score, SiLU·gate " + figure(costs::gated_act_flops_per_element) + ", ReLU " +
          figure(costs::plain_act_flops_per_element) + ", sampling " +
          figure(costs::sampling_flops_per_logit) +
          " per logit; rotary embeddings and biases are not counted.",
      "Tile quantization: a GEMM computes ⌈rows/m⌉·m rows (fewer rows than m: rounded up to " +
          figure(costs::mma_rows) + "); attention computes whole key blocks.",
      "LM head runs on the last prompt position of each request only; logits are fp" +
          figure(costs::logit_bytes * 8) + ".",
      "Peak device memory = weights + KV state + the largest simultaneous temporaries; allocator "
      "fragmentation and runtime reservations are not counted.",
      "Queueing is M/D/1 (Poisson arrivals, deterministic service) per batch of B requests, plus "
      "(B−1)/(2λ) batch-formation wait.",
      "Capacity and bandwidth are the datasheet's decimal figures.",
      "Quantised weights (int4, int8, fp8) apply to the layers' linear weights; the embedding "
      "table and LM head stay 16-bit, as AWQ, GPTQ and FP8 checkpoints keep them.",
  };
  return text;
}

std::string_view timing_assumption(Timing timing) {
  if (timing == Timing::bound) {
    return "Timing 'bound': per kernel t = max(FLOPs/P, HBM bytes/β, link bytes/link bandwidth) "
           "at the datasheet peaks (η = 1 unless set) over compulsory traffic only — weights, "
           "inputs and outputs once per chunk, K/V of earlier chunks once per later chunk. A "
           "lower bound on time: host launch overhead is reported beside the total, not inside "
           "it.";
  }
  return "Timing 'estimate': the accelerator's calibrated profile (efficiencies for GEMMs, "
         "attention and HBM traffic fitted on published measurements, docs/validation.md); "
         "attention re-reads K/V per query block unless a GQA group's K/V fits its share of L2; "
         "each launch adds the fitted per-kernel gap (graphs off) or the graph gap (graphs on).";
}

std::string_view attention_assumption(AttentionKind attention) {
  if (attention == AttentionKind::fused) {
    return "Fused attention keeps scores on chip and shares K/V across a GQA group; tile edge b "
           "= FlashAttention's B_r unless set.";
  }
  return "Materialized attention computes the full rectangle of scores, then masks; the score "
         "matrix is written, read and rewritten by softmax, and read by score·V.";
}

std::string_view parallelism_assumption(int64_t tensor_parallel) {
  if (tensor_parallel > 1) {
    return "Tensor parallelism (Megatron): each device holds 1/N of the query heads, MLP columns "
           "and LM-head rows; key/value heads split, or are replicated when N exceeds them; the "
           "embedding table and norms are replicated. Every figure is per device. The attention "
           "output and MLP down projection are each followed by an all-reduce of the layer "
           "output, not overlapped with compute; the logit gather is not counted. Bound: "
           "(N−1)/N of it each way at the one-way link bandwidth. Estimate: NCCL's fastest ring "
           "(LL, LL128, Simple) or NVLS choice by NCCL's own latency and bandwidth model, plus a "
           "fitted per-call cost.";
  }
  return "One device: no tensor parallelism.";
}

// What the estimate's ranges (seconds_low … seconds_high) are, and for which setups they hold.
std::string_view range_assumption(const Scenario& s) {
  if (whole_prefill_range_is_unseen_stack(s.hardware.estimate, s.workload)) {
    return "Estimate ranges: each kernel's is the 10th–90th percentile of measured / estimated "
           "time over its family's measurements held out by grouped cross-validation; this "
           "software stack has no host gap fitted on measurements of its own (it is charged the "
           "profile's pooled gap), so the whole prefill's range is the wider one measured with "
           "whole sources held out (docs/validation.md, \"The interval per stack\").";
  }
  return "Estimate ranges: the 10th–90th percentile of measured / estimated time over "
         "measurements held out by grouped cross-validation, per kernel family and for the whole "
         "prefill (docs/validation.md); they describe setups like the fitted ones, and "
         "measurements from sources the fit has not seen fall outside them more often.";
}

}  // namespace

std::vector<std::string_view> assumptions(const Scenario& s) {
  const auto& always = always_stated();
  std::vector<std::string_view> list;
  // + timing, range, attention, parallelism, block, window, MoE
  list.reserve(std::size(always) + 7);
  list.assign(std::begin(always), std::end(always));
  list.push_back(timing_assumption(s.workload.timing));
  if (s.workload.timing == Timing::estimate) list.push_back(range_assumption(s));
  list.push_back(attention_assumption(s.workload.attention));
  list.push_back(parallelism_assumption(s.workload.tensor_parallel));
  if (s.model.parallel_attention && s.workload.tensor_parallel > 1) {
    list.push_back(
        "Parallel attention and MLP: both read the same normalised input and add to one "
        "residual, so one all-reduce per layer sums both partial outputs (block_all_reduce), as "
        "TensorRT-LLM's Falcon layer does.");
  }
  if (s.model.sliding_window > 0) {
    list.push_back(
        "Sliding-window attention: each query sees itself and the W − 1 keys before it; only the "
        "last W positions' K/V are kept for decode (a rolling buffer), though all are written.");
  }
  if (s.model.experts > 1) {
    list.push_back(
        "Mixture of experts: uniform routing; expected distinct experts per chunk E·(1 − (1 − "
        "k/E)^R).");
  }
  return list;
}

}  // namespace prefill_trace
