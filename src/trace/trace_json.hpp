#pragma once
// The JSON writers: the trace's stable JSON and CSV forms (documented in docs/trace-json.md). The
// CLI and the wasm module both print exactly this, so their outputs compare byte for byte.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "json_write.hpp"
#include "scenario/scenario.hpp"
#include "trace/trace.hpp"
#include "trace/trace_schema.hpp"  // kTraceSchemaVersion, the description these writers follow

namespace prefill_trace {

/// The scenario as JSON, with presets expanded: what the trace echoes back as its inputs.
nlohmann::json scenario_to_json(const Scenario& scenario);
nlohmann::json trace_to_json(const Trace& trace);
/// One row per operator: the figures of one run plus `count`, units in the header.
std::string trace_to_csv(const Trace& trace);
/// A CSV column: the operator leaf it shows (its path in the operator object, "hbm_bytes/kv")
/// and its header (the leaf's name and unit).
struct CsvColumn {
  std::string_view path;
  std::string_view header;
};
/// The CSV's columns, in order.
std::vector<CsvColumn> csv_columns();
nlohmann::json presets_to_json(const Presets& presets);
nlohmann::json sweep_to_json(SweepVariable variable, const std::vector<SweepPoint>& points);

}  // namespace prefill_trace
