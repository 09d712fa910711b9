// The trace document's one description (src/trace/trace_schema.hpp) against what is generated from
// it: members in printed order, bound keys, the CSV's columns, and the figures read against the
// JSON text leaf by leaf (the JSON is parsed back, so its order is the text's, not the
// description's).

#include "trace/trace_schema.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "json_write.hpp"
#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace_figures.hpp"
#include "trace/trace_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// Scenarios that between them take every branch of the description: an estimate profile or
// none, materialized attention, experts, an overloaded queue, tensor parallelism.
const char* const kScenarios[] = {
    R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "prompt_tokens": 2048})",
    R"({"model": "llama-3.1-70b", "hardware": "h100-sxm", "timing": "estimate",
        "tensor_parallel": 4, "prompt_tokens": 4096})",
    R"({"model": "mixtral-8x7b", "hardware": "a100-sxm-80gb", "attention": "materialized",
        "chunk_tokens": 512, "prompt_tokens": 3000, "arrival_rate": 1000})",
};

Trace trace_of(const char* scenario_json) {
  const auto scenario = parse_scenario(scenario_json);
  EXPECT_TRUE(scenario.ok()) << scenario_json << ": " << (scenario.ok() ? "" : scenario.error());
  return compute_trace(scenario.value(), {"a", "b", "c", "d", "e"});
}

// Records every leaf's path and kind, and fails on a member out of printed order.
class Walker {
 public:
  struct Leaf {
    std::string path;
    std::string key;
    char kind;  // n number, ? maybe, f flag, t text, b bound
  };
  std::vector<Leaf> leaves;
  std::vector<std::string> out_of_order;

  template <typename T>
  void number(std::string_view key, T) {
    leaf(key, 'n');
  }
  void maybe(std::string_view key, const std::optional<double>&) { leaf(key, '?'); }
  void flag(std::string_view key, bool) { leaf(key, 'f'); }
  void text(std::string_view key, std::string_view) { leaf(key, 't'); }
  void bound(std::string_view key, const std::optional<Bound>&) { leaf(key, 'b'); }
  template <typename Members>
  void object(std::string_view key, Members members) {
    member(key);
    open(key, false);
    members();
    close();
  }
  template <typename Members>
  void maybe_object(std::string_view key, bool present, Members members) {
    if (present) {
      object(key, members);
    } else {
      leaf(key, '?');
    }
  }
  template <typename Item>
  void array(std::string_view key, std::size_t size, Item item) {
    member(key);
    open(key, true);
    for (std::size_t i = 0; i < size; ++i) item(i);
    close();
  }

 private:
  struct Open {
    std::string path;
    bool array;
    std::string last_key;
  };
  void leaf(std::string_view key, char kind) {
    member(key);
    leaves.push_back({path_of(key), std::string(key), kind});
  }
  void member(std::string_view key) {
    if (stack_.empty() || stack_.back().array) return;
    Open& parent = stack_.back();
    if (!parent.last_key.empty() && !(parent.last_key < key))
      out_of_order.push_back(parent.path + "/" + std::string(key));
    parent.last_key = std::string(key);
  }
  std::string path_of(std::string_view key) const {
    const std::string parent = stack_.empty() ? "" : stack_.back().path;
    return stack_.empty() || !stack_.back().array ? parent + "/" + std::string(key) : parent + "/*";
  }
  void open(std::string_view key, bool array) {
    stack_.push_back({stack_.empty() ? "" : path_of(key), array, ""});
  }
  void close() { stack_.pop_back(); }
  std::vector<Open> stack_{{"", false, ""}};
};

Walker walk(const Trace& trace) {
  Walker walker;
  visit_trace(trace, walker);
  return walker;
}

bool is_bound_key(std::string_view key) {
  return std::find(std::begin(kBoundKeys), std::end(kBoundKeys), key) != std::end(kBoundKeys);
}

TEST(TraceSchema, MembersAreDescribedInPrintedOrder) {
  for (const char* scenario : kScenarios) {
    const Walker walker = walk(trace_of(scenario));
    EXPECT_TRUE(walker.out_of_order.empty())
        << "first member out of alphabetical order: " << walker.out_of_order.front();
    EXPECT_GT(walker.leaves.size(), 300u);
  }
}

TEST(TraceSchema, OnlyBoundsUseTheBoundKeys) {
  // The page tells a bound from a text by its key alone (figures_layout's bound_keys).
  for (const char* scenario : kScenarios) {
    for (const Walker::Leaf& leaf : walk(trace_of(scenario)).leaves) {
      EXPECT_EQ(leaf.kind == 'b', is_bound_key(leaf.key)) << leaf.path;
    }
  }
}

TEST(TraceSchema, EveryCsvColumnIsAnOperatorLeaf) {
  const Trace trace = trace_of(kScenarios[0]);
  std::set<std::string> operator_leaves;
  for (const Walker::Leaf& leaf : walk(trace).leaves) {
    const std::string prefix = "/operators/*/";
    if (leaf.path.rfind(prefix, 0) == 0) operator_leaves.insert(leaf.path.substr(prefix.size()));
  }
  for (const CsvColumn& column : csv_columns())
    EXPECT_EQ(operator_leaves.count(std::string(column.path)), 1u) << column.path;
  // The header names the leaf: its last part ("hbm_bytes/kv" → "hbm_kv …", "seconds" → "seconds").
  for (const CsvColumn& column : csv_columns()) {
    const std::string path(column.path);
    const std::string leaf = path.substr(path.rfind('/') + 1);
    EXPECT_NE(std::string(column.header).find(leaf), std::string::npos) << column.header;
  }
}

// Every number, null, boolean and bound of the parsed JSON text, in the text's order: what the
// figures must hold after [version, signature].
void expected_figures(const json& value, const std::string& key, std::vector<double>& out) {
  if (value.is_object()) {
    for (const auto& item : value.items()) expected_figures(item.value(), item.key(), out);
  } else if (value.is_array()) {
    for (const json& item : value) expected_figures(item, "", out);
  } else if (value.is_null()) {
    out.push_back(std::nan(""));
  } else if (value.is_boolean()) {
    out.push_back(value.get<bool>() ? 1 : 0);
  } else if (value.is_number()) {
    out.push_back(value.get<double>());
  } else if (is_bound_key(key)) {
    const std::string name = value.get<std::string>();
    double code = -1;
    for (std::size_t i = 0; i < kBoundCount; ++i)
      if (name == bound_name(static_cast<Bound>(i))) code = static_cast<double>(i);
    out.push_back(code);
  }
}

TEST(TraceSchema, FiguresAreTheJsonTextsLeavesInOrder) {
  for (const char* scenario : kScenarios) {
    const auto text = api::compute_trace(scenario);
    const auto figures = api::trace_figures(scenario);
    ASSERT_TRUE(text.ok && figures.ok) << text.error;
    std::vector<double> expected;
    expected_figures(json::parse(text.json), "", expected);
    ASSERT_EQ(figures.figures.size(), 2 + expected.size()) << scenario;
    EXPECT_EQ(figures.figures[0], 3);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const double figure = figures.figures[2 + i];
      if (std::isnan(expected[i])) {
        EXPECT_TRUE(std::isnan(figure)) << "figure " << 2 + i;
      } else {
        // The JSON prints the shortest digits that read back exactly: equal as doubles.
        EXPECT_EQ(figure, expected[i]) << "figure " << 2 + i;
      }
    }
  }
}

TEST(TraceSchema, TheSignatureFollowsTheShapeNotTheNumbers) {
  const auto signature = [](const char* scenario) {
    const auto reply = api::trace_figures(scenario);
    EXPECT_TRUE(reply.ok) << reply.error;
    return reply.figures.at(1);
  };
  const double base = signature(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm"})");
  EXPECT_EQ(base, std::floor(base));
  EXPECT_LT(base, 9007199254740992.0);  // 2^53: exact in a double
  // Numbers only: the same shape.
  EXPECT_EQ(base, signature(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm",
                               "prompt_tokens": 100, "arrival_rate": 3})"));
  // A text (the model's name, the attention kind), a list's length, an optional object.
  EXPECT_NE(base, signature(R"({"model": "llama-3.1-70b", "hardware": "h100-sxm"})"));
  EXPECT_NE(base, signature(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm",
                               "attention": "materialized"})"));
  EXPECT_NE(base, signature(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm",
                               "timing": "estimate"})"));
}

TEST(TraceSchema, TheLayoutNamesTheBoundCodes) {
  const json layout = json::parse(api::figures_layout());
  EXPECT_EQ(layout["version"], 3);
  EXPECT_EQ(layout["bound_keys"], json({"bound", "prefill_bound"}));
  // Bound's enum order (src/trace/trace.hpp): compute, memory, overhead, interconnect.
  EXPECT_EQ(layout["bound_names"], json({"compute", "memory", "overhead", "interconnect"}));
}

}  // namespace
}  // namespace prefill_trace

namespace prefill_trace {
namespace {

// The scenario a trace echoes is the scenario it ran: its model and hardware, fed back as custom
// objects (no preset), give the same trace, byte for byte. This holds the echo to the reader:
// an accelerator's architecture (which attention kernels it may run) and only the stacks its
// profile states a gap for (an unstated stack is charged the pooled gap and takes the
// unseen-stack range; echoing it with a value would make it a fitted stack when read back).
TEST(TraceSchema, TheEchoedScenarioReadsBackAsTheSameTrace) {
  for (const char* scenario_json : {
           R"({"model": "llama-3.1-70b", "hardware": "h100-sxm", "timing": "estimate",
               "stack": "vllm", "tensor_parallel": 4})",
           R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "timing": "estimate",
               "stack": "tensorrt-llm", "attention_kernel": "flash-attention-3"})",
           R"({"model": "mixtral-8x7b", "hardware": "a100-sxm-80gb", "timing": "estimate",
               "stack": "sglang", "prompt_tokens": 512})",
           kScenarios[0]}) {
    SCOPED_TRACE(scenario_json);
    const json first = trace_to_json(trace_of(scenario_json));
    json again = first.at("scenario");
    const std::string echoed = again.dump();
    const json second = trace_to_json(trace_of(echoed.c_str()));
    EXPECT_EQ(second.dump(), first.dump());
  }
  // The bug this guards: the echo listed a gap for every stack, so vLLM read back as fitted and
  // its range narrowed from the unseen-stack factors to the fitted ones.
  const json echo = trace_to_json(
      trace_of(R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "timing": "estimate"})"));
  const json& gaps = echo.at("/scenario/hardware/estimate/stack_gap_seconds"_json_pointer);
  EXPECT_FALSE(gaps.contains("vllm"));
  EXPECT_FALSE(gaps.contains("sglang"));
  EXPECT_TRUE(gaps.contains("tensorrt-llm"));
  EXPECT_EQ(echo.at("/scenario/hardware/architecture"_json_pointer), "hopper");
}

// docs/trace-json.md: "Steps' totals carry seconds_low/high summed over their operators". They
// were left at 0 until the steps summed through the same helper as the trace's totals.
TEST(TraceSchema, StepRangesAreTheSumsOfTheirOperators) {
  for (const char* scenario_json : {kScenarios[0], kScenarios[1]}) {
    SCOPED_TRACE(scenario_json);
    const Trace trace = trace_of(scenario_json);
    const bool estimate = trace.scenario.workload.timing == Timing::estimate;
    for (const Step& step : trace.steps) {
      double low = 0, high = 0;
      for (const Operator& op : trace.operators) {
        if (op.step != step.number) continue;
        low += op.count * op.seconds_low;
        high += op.count * op.seconds_high;
      }
      EXPECT_DOUBLE_EQ(step.totals.seconds_low, low) << step.number;
      EXPECT_DOUBLE_EQ(step.totals.seconds_high, high) << step.number;
      if (step.totals.seconds == 0) continue;  // step 4 has no kernels
      if (estimate) {
        EXPECT_LT(step.totals.seconds_low, step.totals.seconds) << step.number;
        EXPECT_GT(step.totals.seconds_high, step.totals.seconds) << step.number;
      } else {  // a bound has no range: low = high = seconds
        EXPECT_DOUBLE_EQ(step.totals.seconds_low, step.totals.seconds) << step.number;
        EXPECT_DOUBLE_EQ(step.totals.seconds_high, step.totals.seconds) << step.number;
      }
    }
  }
}

}  // namespace
}  // namespace prefill_trace
