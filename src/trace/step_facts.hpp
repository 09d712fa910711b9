#pragma once
// The facts each of the lesson's five mechanism steps shows beside its kernels: the layer
// schedule (1), projections against the ridge point (2), the attention schedule and KV state
// (3), the memory ledger and chunking (4); the five steps themselves with their totals; and one
// decode step at the same shapes. Step 5's queueing is trace/queueing.hpp.

#include <optional>
#include <string>
#include <vector>

#include "scenario/scenario.hpp"
#include "trace/attention_schedule.hpp"
#include "trace/byte_widths.hpp"
#include "trace/device_shard.hpp"
#include "trace/operator_model.hpp"
#include "trace/roofs.hpp"
#include "trace/trace.hpp"

namespace prefill_trace {

// Everything one prefill trace derives its facts from: the scenario on one device, the shard,
// the roofs, the pass over the prompt, the attention schedule and the byte widths, worked out
// once.
struct TraceInputs {
  const Scenario& scenario;  // with the model's shard on one device (the whole model at N = 1)
  const DeviceShard& shard;
  Roofs roofs;
  Pass prefill;
  int64_t block;
  AttentionSums sums;
  ByteWidths widths;
};

/// FLOPs, HBM bytes, time and launch overhead summed over `ops` (each × its count).
Totals totals_of(const std::vector<Operator>& ops);

/// The bound with the most kernel time; none for no kernels.
std::optional<Bound> dominant_bound(const std::vector<Operator>& ops);

EmbeddingFacts embedding_facts(const std::vector<Operator>& ops, const Accelerator& hardware,
                               int64_t layers);
ProjectionFacts projection_facts(const TraceInputs& in, const std::vector<Operator>& ops,
                                 const OperatorModel& model);
AttentionFacts attention_facts(const TraceInputs& in);
void memory_and_chunking(const TraceInputs& in, const Trace& trace, MemoryLedger& memory,
                         ChunkingFacts& chunking);

/// The five steps with their kernels, totals and dominant bound; `mechanism` gives their text.
std::vector<Step> mechanism_steps(const std::vector<Operator>& ops,
                                  const std::vector<std::string>& mechanism);

/// One decode step at context T for the same B requests, against this prefill.
DecodeComparison decode_comparison(const TraceInputs& in, const Trace& trace);

}  // namespace prefill_trace
