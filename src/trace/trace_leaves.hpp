#pragma once
// The trace document's leaves described for readers: each leaf's kind, unit and label (issue 31
// item 4). The schema (trace_schema.hpp) says what the document holds; this table says what
// each number means to a person — "bytes", "seconds", "FLOP per byte" — so the page formats and
// labels a fact by what the engine says it is, never by guessing from its key's suffix.
//
// A description names a leaf by the trailing keys of its path (array items are skipped): the
// most specific description wins, so "hbm_bytes/activations" (bytes) and
// "precision/activations" (a dtype's name) can share a key. Every number in every trace has a
// unit: tests/cpp/trace_leaves_test.cpp walks traces of many shapes and fails on a leaf without
// one.

#include <string>
#include <string_view>
#include <vector>

#include "trace/trace.hpp"

namespace prefill_trace {

/// What a leaf's number counts. The page formats each unit one way (web/src/format.js).
enum class LeafUnit {
  bytes,             // B, decimal prefixes
  seconds,           // s
  flop,              // floating-point operations (OP for int8)
  flop_per_byte,     // arithmetic intensity
  flop_per_second,   // a peak rate
  bytes_per_second,  // a bandwidth
  per_second,        // an arrival rate: requests per second
  count,             // a whole number of things (layers, launches, heads, rows)
  tokens,            // a number of tokens
  fraction,          // a share in [0, 1] (an efficiency, ρ, occupancy)
  factor,            // a multiplier (an interval's low or high factor)
  version,           // a version number
  none,              // not a number: a flag, a text or a bound
};

/// One leaf kind as the schema's visitor calls it; `object` is a group of members (listed so a
/// group has its label too).
enum class LeafKind { number, maybe, flag, text, bound, object };

struct LeafDescription {
  std::string_view path;   // trailing keys, "/"-separated ("memory/kv_bytes", "layers")
  LeafUnit unit;           // none for flags, texts and bounds; a group's: its members' unit
  std::string_view label;  // a short label for a person; "" where none is shown
};

/// The description of the leaf at `keys` (the path's keys, array items left out), or nullptr.
const LeafDescription* describe_leaf(const std::vector<std::string_view>& keys);

/// The unit's name in JSON ("bytes", "flop_per_byte", …).
const char* leaf_unit_name(LeafUnit unit);

/// One leaf of a trace: its path ("steps/*/facts/memory/kv_bytes"), kind and description
/// (nullptr when the table has none).
struct DescribedLeaf {
  std::string path;
  LeafKind kind;
  const LeafDescription* description;
};

/// Every leaf of `trace`, in document order, each array's items collapsed to one "*" path.
std::vector<DescribedLeaf> trace_leaves(const Trace& trace);

/// `{"leaves": [{kind, label, path, rank, unit}], "units": [...]}` for `trace`
/// (api::trace_leaves). `rank` is the description's row in the table, the order a reader shows
/// facts in (the step facts' rows are in the page's reading order); -1 for none.
std::string trace_leaves_json(const Trace& trace);

}  // namespace prefill_trace
