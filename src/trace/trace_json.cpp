#include "trace/trace_json.hpp"

#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "json_builder.hpp"
#include "json_path.hpp"
#include "prefill_trace/version.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

json model_to_json(const ModelShape& model) {
  return object_of(model, [](const ModelShape& m, JsonBuilder& b) { visit_model(m, b); });
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

}  // namespace

json scenario_to_json(const Scenario& scenario) {
  return object_of(scenario, [](const Scenario& s, JsonBuilder& b) { visit_scenario(s, b); });
}

json trace_to_json(const Trace& trace) {
  return object_of(trace, [](const Trace& t, JsonBuilder& b) { visit_trace(t, b); });
}

namespace {

/// A CSV cell as RFC 4180 wants it: quoted when it holds a comma, a quote or a line break.
std::string csv_cell(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + '"';
}

// One operator's leaves as CSV cells, by their path in the operator object ("hbm_bytes/kv"),
// from the same description as the JSON (visit_operator): numbers with the JSON's digits (the
// shortest that read back exactly), flags as true/false, a bound by its name.
class CsvCells {
 public:
  template <typename T>
  void number(std::string_view key, T value) {
    add(key, json(value).dump());
  }
  void maybe(std::string_view key, const std::optional<double>& value) {
    add(key, value ? json(*value).dump() : std::string());
  }
  void flag(std::string_view key, bool value) { add(key, value ? "true" : "false"); }
  void text(std::string_view key, std::string_view value) { add(key, csv_cell(value)); }
  void bound(std::string_view key, const std::optional<Bound>& value) {
    add(key, value ? bound_name(*value) : "");
  }
  template <typename Members>
  void object(std::string_view key, Members members) {
    const std::size_t outer = prefix_.size();
    prefix_ += std::string(key) + "/";
    members();
    prefix_.resize(outer);
  }
  // An operator has no optional objects or arrays (a CSV row is flat).
  const std::string* cell(std::string_view path) const {
    for (const auto& [leaf, text] : cells_)
      if (leaf == path) return &text;
    return nullptr;
  }

 private:
  void add(std::string_view key, std::string text) {
    cells_.emplace_back(prefix_ + std::string(key), std::move(text));
  }
  std::string prefix_;
  std::vector<std::pair<std::string, std::string>> cells_;
};

// One row per operator (per kernel instance; `count` says how many the trace runs): which
// leaves of the operator object, in which order, and the header naming each with its unit.
const CsvColumn kCsvColumns[] = {
    {"name", "name"},
    {"step", "step"},
    {"count", "count (instances)"},
    {"per_layer", "per_layer (true/false)"},
    {"launches", "launches (per instance)"},
    {"flops", "flops (FLOP per instance)"},
    {"computed_flops", "computed_flops (FLOP per instance)"},
    {"hbm_bytes/weights", "hbm_weights (bytes per instance)"},
    {"hbm_bytes/activations", "hbm_activations (bytes per instance)"},
    {"hbm_bytes/kv", "hbm_kv (bytes per instance)"},
    {"hbm_bytes/scores", "hbm_scores (bytes per instance)"},
    {"hbm_bytes/total", "hbm_total (bytes per instance)"},
    {"intensity", "intensity (FLOP/byte)"},
    {"compute_seconds", "compute_seconds (s per instance)"},
    {"memory_seconds", "memory_seconds (s per instance)"},
    {"overhead_seconds", "overhead_seconds (s per instance)"},
    {"seconds", "seconds (s per instance)"},
    {"seconds_low", "seconds_low (s per instance)"},
    {"seconds_high", "seconds_high (s per instance)"},
    {"occupancy", "occupancy (ratio)"},
    {"bound", "bound"},
    {"useful_fraction", "useful_fraction (ratio)"},
};

}  // namespace

std::vector<CsvColumn> csv_columns() {
  return {std::begin(kCsvColumns), std::end(kCsvColumns)};
}

std::string trace_to_csv(const Trace& trace) {
  // RFC 4180: CRLF line ends, a header row.
  std::string out;
  const char* separator = "";
  for (const CsvColumn& column : kCsvColumns) {
    out += separator;
    out += csv_cell(column.header);
    separator = ",";
  }
  out += "\r\n";
  for (const Operator& op : trace.operators) {
    CsvCells cells;
    visit_operator(op, cells);
    separator = "";
    for (const CsvColumn& column : kCsvColumns) {
      out += separator;
      // Every column names a leaf of the description (tests/cpp/trace_schema_test.cpp).
      if (const std::string* cell = cells.cell(column.path)) out += *cell;
      separator = ",";
    }
    out += "\r\n";
  }
  return out;
}

json presets_to_json(const Presets& presets) {
  json models = json::array();
  for (const ModelShape& model : presets.models) {
    json entry = model_to_json(model);
    entry["parameters"] = parameter_count(model);
    models.push_back(std::move(entry));
  }
  json accelerators = json::array();
  for (const Accelerator& accelerator : presets.accelerators) {
    accelerators.push_back(object_of(
        accelerator, [](const Accelerator& a, JsonBuilder& b) { visit_accelerator(a, b); }));
  }
  // The named precisions are the scenario's "precision" menu (precision_preset reads them).
  json precisions = json::array();
  const ScenarioField& precision = scenario_field("precision");
  for (std::size_t i = 0; i < precision.choice_count; ++i) {
    precisions.push_back(std::string(precision.choices[i].value));
  }
  return json_object(
      {{"models", models}, {"accelerators", accelerators}, {"precisions", precisions}});
}

json sweep_to_json(SweepVariable variable, const std::vector<SweepPoint>& points) {
  json rows = json::array();
  for (const SweepPoint& point : points) {
    rows.push_back(json_object({{"value", point.value},
                                {"queue_seconds", optional_number(point.queue_seconds)},
                                {"execution_seconds", point.execution_seconds},
                                {"delivery_seconds", point.delivery_seconds},
                                {"total_seconds", optional_number(point.total_seconds)},
                                {"overloaded", point.overloaded}}));
  }
  return json_object(
      {{"variable", variable == SweepVariable::prompt_tokens ? "prompt_tokens" : "arrival_rate"},
       {"points", rows}});
}

}  // namespace prefill_trace
