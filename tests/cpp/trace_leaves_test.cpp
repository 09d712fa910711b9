// The trace's leaves described (src/trace/trace_leaves.*, issue 31 item 4): every number of every
// trace has a unit, every fact the page shows has a label, and the units agree with what the
// keys' documented suffixes promise (docs/trace-json.md: "_bytes" are bytes, "_seconds"
// seconds, "flops_per_byte" an intensity).
#include "trace/trace_leaves.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"

namespace prefill_trace {
namespace {

// Every branch of the description: an estimate profile or none, materialized attention, experts
// (MoE), an overloaded queue, tensor parallelism, a sliding window, chunking.
const char* const kScenarios[] = {
    R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "prompt_tokens": 2048})",
    R"({"model": "llama-3.1-70b", "hardware": "h100-sxm", "timing": "estimate",
        "tensor_parallel": 4, "prompt_tokens": 4096})",
    R"({"model": "mixtral-8x7b", "hardware": "a100-sxm-80gb", "attention": "materialized",
        "chunk_tokens": 512, "prompt_tokens": 3000, "arrival_rate": 1000})",
    R"({"model": "mistral-7b", "hardware": "mi300x", "timing": "estimate", "prompt_tokens": 9000})",
    R"({"model": "opt-13b", "hardware": "rtx-4090", "precision": "int8", "batch": 4})",
};

Trace trace_of(const char* scenario_json) {
  const auto scenario = parse_scenario(scenario_json);
  EXPECT_TRUE(scenario.ok()) << scenario_json << ": " << (scenario.ok() ? "" : scenario.error());
  return compute_trace(scenario.value(), {"a", "b", "c", "d", "e"});
}

bool ends_with(std::string_view text, std::string_view end) {
  return text.size() >= end.size() && text.substr(text.size() - end.size()) == end;
}

TEST(TraceLeaves, EveryNumberHasAUnitAndEveryShownFactALabel) {
  for (const char* scenario : kScenarios) {
    SCOPED_TRACE(scenario);
    const std::vector<DescribedLeaf> leaves = trace_leaves(trace_of(scenario));
    ASSERT_GT(leaves.size(), 150u);  // 229 paths for the first scenario (counted from its JSON)
    for (const DescribedLeaf& leaf : leaves) {
      const bool numeric = leaf.kind == LeafKind::number || leaf.kind == LeafKind::maybe;
      if (numeric) {
        ASSERT_NE(leaf.description, nullptr) << leaf.path << " has no unit";
        EXPECT_NE(leaf.description->unit, LeafUnit::none) << leaf.path;
        EXPECT_FALSE(leaf.description->label.empty()) << leaf.path;
      } else if (leaf.description && leaf.kind != LeafKind::object) {
        // A group may carry the unit its members share (operators' hbm_bytes: bytes); a flag,
        // a text or a bound has none.
        EXPECT_EQ(leaf.description->unit, LeafUnit::none) << leaf.path << " is not a number";
      }
      // The page lists every step fact under its label (web/src/explorer/steps.js).
      if (leaf.path.rfind("steps/*/facts/", 0) == 0 && leaf.kind != LeafKind::text &&
          leaf.kind != LeafKind::bound) {
        ASSERT_NE(leaf.description, nullptr) << leaf.path;
        EXPECT_FALSE(leaf.description->label.empty()) << leaf.path;
      }
    }
  }
}

// A key's documented suffix and its unit agree: "…_bytes" are bytes (the one exception,
// "weight_bytes_per_row", is bytes too), "…_seconds" seconds, "…flops_per_byte" an intensity,
// "…_tokens" tokens. A row given the wrong unit fails here, not on the page.
TEST(TraceLeaves, UnitsFollowTheKeysDocumentedSuffixes) {
  for (const DescribedLeaf& leaf : trace_leaves(trace_of(kScenarios[2]))) {
    if (leaf.kind != LeafKind::number && leaf.kind != LeafKind::maybe) continue;
    SCOPED_TRACE(leaf.path);
    const LeafUnit unit = leaf.description->unit;
    if (ends_with(leaf.path, "flops_per_byte") || ends_with(leaf.path, "intensity")) {
      EXPECT_EQ(unit, LeafUnit::flop_per_byte);
    } else if (ends_with(leaf.path, "_bytes") || ends_with(leaf.path, "_bytes_per_row") ||
               leaf.path.find("hbm_bytes") != std::string::npos) {
      EXPECT_EQ(unit, LeafUnit::bytes);
    } else if (ends_with(leaf.path, "seconds") || ends_with(leaf.path, "seconds_high") ||
               ends_with(leaf.path, "seconds_low")) {
      EXPECT_EQ(unit, LeafUnit::seconds);
    } else if (ends_with(leaf.path, "_tokens")) {
      EXPECT_EQ(unit, LeafUnit::tokens);
    } else if (ends_with(leaf.path, "efficiency")) {
      EXPECT_EQ(unit, LeafUnit::fraction);
    }
  }
}

// The lookup picks the most specific row: "activations" is bytes under an operator's
// hbm_bytes, a dtype's name under the precision; "layers" is a count both as the model's and
// as step 1's fact, with different labels; a data-named member (a peak per number format) is
// its parent's.
TEST(TraceLeaves, TheMostSpecificRowWins) {
  const LeafDescription* traffic = describe_leaf({"operators", "hbm_bytes", "activations"});
  ASSERT_NE(traffic, nullptr);
  EXPECT_EQ(traffic->unit, LeafUnit::bytes);
  EXPECT_EQ(describe_leaf({"scenario", "precision", "activations"}), nullptr);
  const LeafDescription* model_layers = describe_leaf({"scenario", "model", "layers"});
  const LeafDescription* fact_layers = describe_leaf({"steps", "facts", "layers"});
  ASSERT_NE(model_layers, nullptr);
  ASSERT_NE(fact_layers, nullptr);
  EXPECT_NE(model_layers, fact_layers);
  EXPECT_EQ(describe_leaf({"steps", "facts", "kv_bytes_kept"})->label, "KV cache kept for decode");

  bool peak_seen = false;
  for (const DescribedLeaf& leaf : trace_leaves(trace_of(kScenarios[0]))) {
    if (leaf.path != "scenario/hardware/peak_flops/bf16") continue;
    peak_seen = true;
    ASSERT_NE(leaf.description, nullptr);
    EXPECT_EQ(leaf.description->unit, LeafUnit::flop_per_second);
  }
  EXPECT_TRUE(peak_seen);
}

// Through the facade: the JSON lists each path once, with its unit by name; a bad scenario is
// refused like computeTrace's.
TEST(TraceLeaves, TheFacadeWritesThemAsJson) {
  const auto reply = api::trace_leaves(kScenarios[0]);
  ASSERT_TRUE(reply.ok) << reply.error;
  const auto doc = nlohmann::json::parse(reply.json);
  EXPECT_EQ(doc["units"].size(), static_cast<std::size_t>(LeafUnit::none) + 1);
  bool found = false;
  for (const auto& leaf : doc["leaves"]) {
    if (leaf["path"] != "steps/*/facts/memory/peak_bytes") continue;
    found = true;
    EXPECT_EQ(leaf["unit"], "bytes");
    EXPECT_EQ(leaf["kind"], "number");
    EXPECT_EQ(leaf["label"], "Peak");
  }
  EXPECT_TRUE(found);
  const auto refused = api::trace_leaves(R"({"model": "llama-3.1-8b"})");
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.path, api::compute_trace(R"({"model": "llama-3.1-8b"})").path);
}

}  // namespace
}  // namespace prefill_trace
