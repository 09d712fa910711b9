#pragma once
// Bytes per element of each stored tensor kind, worked out once per trace from the precision.

#include <algorithm>

#include "scenario/scenario.hpp"

namespace prefill_trace {

struct ByteWidths {
  double weights;      // w
  double activations;  // a: the tensors between kernels (16 bits under fp8, see byte_widths)
  double kv;           // c
  double scores;       // s: scores are kept in at least 16 bits
  double tables;       // embedding table and LM head: never below 16 bits
};

// Weight-quantised checkpoints (AWQ and GPTQ int4, TensorRT-LLM/ModelOpt and vLLM fp8/int8)
// quantise the layers' linear weights but keep the embedding table and the LM head in 16 bits.
inline ByteWidths byte_widths(const Precision& precision) {
  const double w = bytes_per_element(precision.weights);
  // FP8 GEMMs take a 16-bit input, quantise it to fp8 for the tensor cores and return a 16-bit
  // output (TensorRT-LLM's FP8Linear / FP8RowLinear: input and output in the model's dtype), so
  // the residual stream and every tensor between kernels stay 16-bit; fp8 is the arithmetic's.
  // int8 (SmoothQuant W8A8) writes its GEMM inputs as int8 (quantize_per_token): 1 byte.
  const double a =
      precision.activations == DType::fp8 ? 2.0 : bytes_per_element(precision.activations);
  return ByteWidths{w, a, bytes_per_element(precision.kv), std::max(a, 2.0), std::max(w, 2.0)};
}

}  // namespace prefill_trace
