// Host overhead per engine version (src/trace/host_overhead.hpp): the profiles' form and the
// fitted vllm-0.2 line against the Vidur medians it was fitted on. Every expected number is
// derived in the comment beside it.

#include "trace/host_overhead.hpp"

#include <gtest/gtest.h>

namespace prefill_trace {
namespace {

TEST(HostOverhead, KernelsIsTheZeroOverheadReference) {
  const HostOverheadProfile* kernels = host_overhead_profile("kernels");
  ASSERT_NE(kernels, nullptr);
  EXPECT_EQ(host_iteration_seconds(*kernels, 256, 8192), 0.0);
  EXPECT_EQ(kernels->frontend_seconds, 0.0);
  EXPECT_EQ(host_overhead_profile("vllm-9"), nullptr);
}

TEST(HostOverhead, FormIsFixedPlusPerRequestPlusPerToken) {
  // 2 ms + 0.5 ms × 4 requests + 1 µs × 1000 tokens = 2 + 2 + 1 = 5 ms.
  const HostOverheadProfile profile{"test", 2e-3, 0.5e-3, 1e-6, 0, -1, -1, ""};
  EXPECT_NEAR(host_iteration_seconds(profile, 4, 1000), 5e-3, 1e-15);
  // Not stated for TP > 1 (−1): the TP 1 figures. Stated: 7 ms + 1 ms × 4 + 1 µs × 1000 = 12 ms.
  EXPECT_NEAR(host_iteration_seconds(profile, 4, 1000, 4), 5e-3, 1e-15);
  const HostOverheadProfile parallel{"test", 2e-3, 0.5e-3, 1e-6, 0, 7e-3, 1e-3, ""};
  EXPECT_NEAR(host_iteration_seconds(parallel, 4, 1000, 4), 12e-3, 1e-15);
  EXPECT_NEAR(host_iteration_seconds(parallel, 4, 1000, 1), 5e-3, 1e-15);
}

TEST(HostOverhead, StacksWithoutAProfileTakeTheZeroReference) {
  for (const char* stack : {"tensorrt-llm", "sglang", "llama.cpp", "transformers", "kernels"}) {
    EXPECT_EQ(host_overhead_of_stack(stack).name, "kernels") << stack;
    EXPECT_FALSE(charges_host_time(host_overhead_of_stack(stack))) << stack;
  }
  EXPECT_TRUE(charges_host_time(host_overhead_of_stack("vllm")));
  EXPECT_TRUE(charges_host_time(host_overhead_of_stack("vllm-0.2")));
}

TEST(HostOverhead, VllmIsOneSchedulerBubbleOverTenSteps) {
  // Issue #6854: ~4 ms of GPU bubble per scheduler call; v0.6.0's benchmark ran 10 steps per
  // call: 0.4 ms per iteration, whatever the batch or the tensor parallelism.
  const HostOverheadProfile& vllm = host_overhead_of_stack("vllm");
  EXPECT_NEAR(host_iteration_seconds(vllm, 1, 1), 0.4e-3, 1e-15);
  EXPECT_NEAR(host_iteration_seconds(vllm, 256, 8192, 8), 0.4e-3, 1e-15);
}

TEST(HostOverhead, Vllm02FollowsVidursMedians) {
  // Vidur's A100 medians (schedule + sampler_e2e + prepare_inputs_e2e + process_model_outputs +
  // ray_comm_time, Llama-2-7B, TP 1): 2.1269 ms at 8 requests and 8.0484 ms at 64. The line
  // 1.330 + 0.1052·n gives 1.330 + 0.8416 = 2.1716 ms at 8 and 1.330 + 6.7328 = 8.0628 ms at
  // 64: within 0.05 ms of both (the least-squares residuals are at most 0.23 ms, at 32).
  const HostOverheadProfile* vllm = host_overhead_profile("vllm-0.2");
  ASSERT_NE(vllm, nullptr);
  EXPECT_NEAR(host_iteration_seconds(*vllm, 8, 8), 2.1716e-3, 1e-9);
  EXPECT_NEAR(host_iteration_seconds(*vllm, 64, 64), 8.0628e-3, 1e-9);
  EXPECT_NEAR(host_iteration_seconds(*vllm, 8, 8), 2.1269e-3, 0.05e-3);
  EXPECT_NEAR(host_iteration_seconds(*vllm, 64, 64), 8.0484e-3, 0.05e-3);
  // TP 2 and 4 (rows 8–23, the same five medians): 5.46 ms (TP 2) and 5.64 ms (TP 4) at 8,
  // 15.14 and 17.49 ms at 64. The pooled line 3.611 + 0.2007·n: 3.611 + 1.6056 = 5.2166 ms at 8,
  // 3.611 + 12.8448 = 16.4558 ms at 64, between the two degrees' medians at 64 and within
  // 0.43 ms of both at 8.
  EXPECT_NEAR(host_iteration_seconds(*vllm, 8, 8, 2), 5.2166e-3, 1e-9);
  EXPECT_NEAR(host_iteration_seconds(*vllm, 64, 64, 4), 16.4558e-3, 1e-9);
  EXPECT_GT(host_iteration_seconds(*vllm, 64, 64, 2), 15.14e-3);
  EXPECT_LT(host_iteration_seconds(*vllm, 64, 64, 4), 17.49e-3);
}

}  // namespace
}  // namespace prefill_trace
