#pragma once
// One device's share of a tensor-parallel model (Megatron-style): what every kernel, byte and
// ledger entry of a trace is computed for. N = 1 is the whole model on one device.

#include <cstdint>

#include "scenario/scenario.hpp"
#include "trace/byte_widths.hpp"

namespace prefill_trace {

/// Parameter count of the model (all experts), from its shape.
double parameter_count(const ModelShape& model);

/// Parameters one device holds under tensor parallelism over `devices` (Megatron-style): its
/// share of the query heads, key/value heads (replicated when fewer than devices), MLP columns
/// and LM-head rows; norms, the router and the embedding table are replicated.
double parameters_per_device(const ModelShape& model, int64_t devices);

/// The shard of the model one device computes: h_q/N query heads, max(h_kv/N, 1) key/value
/// heads, d_ff/N MLP columns, ⌈V/N⌉ LM-head rows. N = 1 returns the model unchanged.
ModelShape device_shard(const ModelShape& model, int64_t devices);

/// The whole model, the shard one device computes, and what that device stores.
struct DeviceShard {
  ModelShape whole;
  ModelShape shard;  // device_shard(whole, devices)
  int64_t devices = 1;

  DeviceShard(const ModelShape& model, int64_t device_count)
      : whole(model), shard(device_shard(model, device_count)), devices(device_count) {}

  /// Bytes of weights one device holds: its parameters at the weights' width, with the
  /// embedding table (replicated) and its LM-head rows at the tables' width.
  double weight_bytes(const ByteWidths& widths) const;
};

}  // namespace prefill_trace
