#pragma once
// The scenario a command sends the engine, built from --scenario and the flags (so flags and
// files share one parser), and the engine's refusals worded after what the user wrote; the
// output format and the printing of a reply.

#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "flags.hpp"
#include "prefill_trace/engine.hpp"

namespace prefill_trace::cli {

// The scenario JSON and where each top-level value came from, so an error names what the user
// actually wrote.
struct ScenarioInput {
  nlohmann::json value;
  std::optional<std::string> file;     // the --scenario path
  std::vector<std::string> file_keys;  // top-level keys the file set
  std::vector<std::string> flag_keys;  // top-level keys a flag set (over the file's)
};

/// The scenario flags `serve` takes: the device and the model, not the single-request workload
/// (its --prompt is the serving prompt).
bool serve_takes_scenario_flag(const ScenarioFlag& spec);

/// --scenario's file edited by the scenario flags (those serve_takes_scenario_flag allows when
/// `serving`).
ScenarioInput scenario_input(const Args& args, bool serving = false);

/// Puts the source of the wrong value before an engine error about a JSON path: the flag that
/// set it ("--prompt (/prompt_tokens): must be ..."), else the scenario file ("run.json:
/// /prompt_tokens: must be ..."); a default the CLI filled in keeps the bare path.
std::string with_source(const ScenarioInput& input, const Error& error);

/// --scenario and every scenario flag.
std::vector<std::string> scenario_options();

/// A refused reply's error: code, path, message, the problem without the path and its detail.
template <typename Reply>
Error reply_error(const Reply& reply) {
  return Error{reply.error, reply.code, reply.path, reply.what, reply.detail};
}

/// The output --json, --csv or --table (the default) asks for; two at once are refused.
enum class Format { table, json_text, csv_text };
Format output_format(const Args& args, const std::string& command);

/// Calls the facade's CSV or JSON entry point on `scenario` as `format` asks and prints the
/// reply: CSV and JSON as they are, the table by `print_table` from the parsed JSON. A refusal
/// fails with the words `explain` gives its error (naming the flag or file it came from).
template <typename Csv, typename Document, typename Explain>
int print_reply(Format format, const std::string& scenario, Csv csv, Document document,
                void (*print_table)(const nlohmann::json&), Explain explain) {
  if (format == Format::csv_text) {
    const auto reply = csv(scenario);
    if (!reply.ok) fail(explain(reply_error(reply)));
    std::cout << reply.csv;
    return kOk;
  }
  const auto reply = document(scenario);
  if (!reply.ok) fail(explain(reply_error(reply)));
  if (format == Format::json_text) {
    std::cout << reply.json << '\n';
  } else {
    print_table(nlohmann::json::parse(reply.json, nullptr, false));
  }
  return kOk;
}

}  // namespace prefill_trace::cli
