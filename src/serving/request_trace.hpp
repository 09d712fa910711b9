#pragma once
// Real request traces replayed by the serving simulation (issue 29 item 4): arrival times and
// token counts of recorded requests, read from text the caller hands over (the core reads no
// files: the CLI and the page do). Two published formats:
//   - Azure's LLM inference trace CSV (Patel et al., "Splitwise", ISCA 2024; the
//     Azure/AzurePublicDataset repository): a header `TIMESTAMP,ContextTokens,GeneratedTokens`,
//     then one request a line, `2023-11-16 18:17:03.9799600,4808,10` (UTC wall clock, up to 9
//     fractional digits).
//   - Mooncake-style JSON Lines (Qin et al., "Mooncake", FAST 2025; kvcache-ai/Mooncake's
//     traces): one object a line, `{"timestamp": 27482, "input_length": 6955, "output_length":
//     52, "hash_ids": [46, 47, …]}`, the timestamp in milliseconds, each hash id naming one
//     512-token block of the prompt (its prefix-cache identity).
// Arrivals are taken relative to the first request, divided by `rate_scale` (2 = twice the rate).
// Every bad line is refused with its line number (1-based, the header is line 1 of a CSV); a
// Mooncake line's hash_ids must be distinct whole numbers from 0 to 2^53, at most one per
// 512-token block of its prompt, and limits::max_trace_hash_ids in the whole trace.

#include <cstdint>
#include <string_view>
#include <vector>

#include "limits.hpp"
#include "prefill_trace/result.hpp"

namespace prefill_trace {

enum class RequestTraceFormat { azure_csv, mooncake_jsonl };

/// Prompt tokens one Mooncake hash id names: the trace's block. kvcache-ai/Mooncake's
/// FAST25-release/README.md shows 6,955 input tokens with 14 ids and 6,472 with 13 — ⌈T/512⌉ —
/// and NVIDIA Dynamo's reader of the format (benchmarks/data_generator/README.md) takes
/// `block_size` 512 for it. The last id of a prompt names its partial last block.
constexpr int64_t kHashBlockTokens = 512;

struct RequestTraceOptions {
  double rate_scale = 1;  // arrival times are divided by it: > 1 compresses, < 1 stretches
  int64_t limit = 0;      // the first N requests only; 0 = all
  // Hash ids in the whole trace: src/limits.hpp's; a test sets a smaller bound to reach it.
  int64_t max_hash_ids = limits::max_trace_hash_ids;
};

struct TracedRequest {
  double arrival_seconds = 0;  // after the first request's arrival, scaled
  int64_t prompt_tokens = 0;
  int64_t output_tokens = 0;
  std::vector<int64_t> hash_ids;  // Mooncake: the prompt's block identities, in order; else empty
};

struct RequestTrace {
  RequestTraceFormat format = RequestTraceFormat::azure_csv;
  std::vector<TracedRequest> requests;
};

/// Reads a whole trace; the format is told by its first line (the CSV header, or a `{`). Refuses
/// text over limits::max_request_trace_bytes, bytes that are not text, a missing or different
/// header, a line with a missing, extra or malformed field, counts outside the per-request
/// limits, arrivals out of order (equal is allowed: requests recorded in the same tick), a run
/// longer than limits::max_arrival_seconds after scaling, and more than
/// limits::max_serving_requests requests (after `limit`).
Result<RequestTrace> read_request_trace(std::string_view text,
                                        const RequestTraceOptions& options = {});

const char* request_trace_format_name(RequestTraceFormat format);

}  // namespace prefill_trace
