#pragma once
// The per-element costs the trace charges where no GEMM shape decides them. The operator model
// uses them in its formulas and the assumptions shown to learners are written from them, so
// the two cannot disagree.

namespace prefill_trace::costs {

// FLOPs charged per element by the non-GEMM kernels.
constexpr double norm_flops_per_element = 5;       // residual add, square, sum, rsqrt scale, gain
constexpr double softmax_flops_per_score = 5;      // max, subtract, exponentiate, sum, divide
constexpr double gated_act_flops_per_element = 5;  // SiLU (4) and the gate multiply (1)
constexpr double plain_act_flops_per_element = 1;  // ReLU (OPT)
constexpr double sampling_flops_per_logit = 5;     // softmax over the vocabulary
constexpr double logit_bytes = 4;                  // logits are produced in fp32
constexpr double mma_rows = 16;                    // smallest tensor-core MMA tile height

}  // namespace prefill_trace::costs
