#pragma once
// Which named attention kernels exist on which accelerator architecture. A scenario that names a
// kernel its accelerator cannot run is refused (/attention_kernel), and the fit
// (tests/validation/fit.py reads this table) gives an accelerator no efficiency for such a
// kernel. An accelerator that states no architecture (a custom one) is not checked.

#include <cstddef>
#include <string_view>

namespace prefill_trace {

/// The architectures an accelerator may state (hardware.json `architecture`).
inline constexpr std::string_view kArchitectures[] = {"ampere", "ada", "hopper", "blackwell",
                                                      "cdna3"};

struct KernelArchitectures {
  std::string_view kernel;         // attention_kernel_name()
  std::string_view architectures;  // space-separated
};

// FlashAttention-2: sm80 and later (Ampere, Ada, Hopper; Blackwell runs its sm80 path) and AMD
// CDNA3 through ROCm's Composable Kernel port (github.com/Dao-AILab/flash-attention README,
// "Installation and features": CUDA Ampere/Ada/Hopper, ROCm MI200/MI300).
// FlashAttention-3: Hopper only — it is built on sm_90's wgmma and TMA (same README,
// "FlashAttention-3 beta release": "Requirements: H100 / H800 GPU"; arXiv 2407.08608).
// FlashInfer: CUDA kernels for NVIDIA GPUs (github.com/flashinfer-ai/flashinfer README); no ROCm
// build. PyTorch SDPA: every backend PyTorch ships for CUDA and ROCm.
inline constexpr KernelArchitectures kAttentionKernelArchitectures[] = {
    {"flash-attention-2", "ampere ada hopper blackwell cdna3"},
    {"flash-attention-3", "hopper"},
    {"flashinfer", "ampere ada hopper blackwell"},
    {"sdpa", "ampere ada hopper blackwell cdna3"},
};

/// The architectures a kernel runs on (space-separated), or empty for `auto` (the stack's own
/// kernel, which exists wherever the stack runs).
constexpr std::string_view attention_kernel_architectures(std::string_view kernel) {
  for (const auto& entry : kAttentionKernelArchitectures) {
    if (entry.kernel == kernel) return entry.architectures;
  }
  return {};
}

/// Whether `kernel` runs on `architecture`; true when either is unstated (`auto`, a custom
/// accelerator without an architecture).
constexpr bool attention_kernel_runs_on(std::string_view kernel, std::string_view architecture) {
  const std::string_view list = attention_kernel_architectures(kernel);
  if (list.empty() || architecture.empty()) return true;
  for (std::size_t start = 0; start < list.size();) {
    std::size_t end = list.find(' ', start);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(start, end - start) == architecture) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace prefill_trace
