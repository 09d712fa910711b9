#pragma once
// The operator model: FLOPs, HBM bytes and time of each kernel of one layer (and the non-layer
// ones) for a pass over the prompt. Every kernel is timed the same way (`timed`): the largest
// of compute, memory and link time against the scenario's roofs, plus the launch gaps.
//
// Built for one device's scenario (the model's shard, trace/device_shard.hpp). The serving
// simulation and the decode comparison reuse it with other passes (rows and context).

#include <vector>

#include "scenario/scenario.hpp"
#include "trace/attention_schedule.hpp"
#include "trace/byte_widths.hpp"
#include "trace/roofs.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {

class OperatorModel {
 public:
  /// `device` is the scenario with the model's shard on one device; `pass` the query tokens,
  /// chunk and earlier context of every request.
  OperatorModel(const Scenario& device, const Roofs& roofs, const Pass& pass);

  /// Every kernel of the pass in launch order (13 to 16), each timed.
  std::vector<Operator> operators(const AttentionSums& sums) const;

  /// kv_cache_write and the attention kernel(s) of one layer, for the pass's schedule `sums`.
  std::vector<Operator> attention(const AttentionSums& sums) const;

  /// The MLP of one layer: router (MoE), up (or gate+up), activation, down.
  std::vector<Operator> mlp() const;

  /// A weight GEMM of one layer over every chunk of the pass (an expert GEMM loads only the
  /// experts a chunk touches).
  Operator gemm(const char* name, const GemmShape& shape) const;

  /// One GEMM of `rows` token rows against a d_in×d_out weight, repeated over `groups` weight
  /// matrices (experts); not yet timed.
  Operator gemm_rows(const char* name, int step, double count, const GemmShape& shape, double rows,
                     double groups, double launches) const;

  /// The all-reduce of a layer's output under tensor parallelism, one call per chunk.
  Operator all_reduce(const char* name) const;

  /// A fused residual-add + RMSNorm over `rows` token rows, `count` runs.
  Operator norm(const char* name, double count, double rows) const;

  /// `op` with its intensity, useful fraction, compute/memory/link/overhead time and bound.
  Operator timed(Operator op) const;

  /// timed(op).seconds alone, for a caller that times one summed kernel per iteration (the
  /// serving simulation) and reads nothing else.
  double seconds(const Operator& op) const;

 private:
  // The roofline's terms of a kernel; timed() and seconds() share them, so both give the same
  // bits.
  struct KernelTimes {
    double compute, memory, interconnect, overhead;
    double roofline;  // max(compute, memory, interconnect)
  };
  KernelTimes kernel_times(const Operator& op) const;

  // Calls f(rows of one chunk across the batch, how many chunks have that many rows).
  template <typename F>
  void for_each_chunk_rows(F f) const {
    if (pass_.full_chunks() > 0) {
      f(batch_ * static_cast<double>(pass_.chunk), static_cast<double>(pass_.full_chunks()));
    }
    if (pass_.remainder() > 0) f(batch_ * static_cast<double>(pass_.remainder()), 1);
  }

  double partial_sum_width() const;
  double estimated_all_reduce_seconds() const;
  bool group_kv_fits_l2(const AttentionSums& sums) const;

  const Scenario& s_;
  const ModelShape& m_;
  Roofs roofs_;
  Pass pass_;
  ByteWidths widths_;
  double block_, devices_, batch_, layers_, chunks_, tokens_, rows_;
};

}  // namespace prefill_trace
