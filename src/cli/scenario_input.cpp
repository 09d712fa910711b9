// The scenario built from --scenario and the flags, and engine errors named after their source
// (scenario_input.hpp).

#include "scenario_input.hpp"

#include <algorithm>

namespace prefill_trace::cli {
namespace {

using nlohmann::json;

// The scenario's top-level key a JSON Pointer starts in ("/model/layers" → "model"), or "".
std::string top_level_key(const std::string& path) {
  if (path.size() < 2 || path[0] != '/') return "";
  return path.substr(1, path.find('/', 1) - 1);
}

}  // namespace

bool serve_takes_scenario_flag(const ScenarioFlag& spec) {
  const std::string& key = spec.key;
  return key != "prompt_tokens" && key != "batch" && key != "chunk_tokens" &&
         key != "arrival_rate" && key != "delivery_seconds";
}

ScenarioInput scenario_input(const Args& args, bool serving) {
  ScenarioInput input{{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}}, {}, {}, {}};
  if (const auto file = option(args, "--scenario")) {
    // Read as the engine reads any document (api::check_json), then edited here.
    const auto checked = api::check_json(read_file(*file));
    if (!checked.ok) fail(file_name(*file) + ": " + checked.error);
    const json parsed = json::parse(checked.json, nullptr, false);
    if (!parsed.is_object()) fail(file_name(*file) + ": a scenario must be a JSON object");
    input.file = *file;
    for (const auto& item : parsed.items()) {
      input.value[item.key()] = item.value();
      input.file_keys.push_back(item.key());
    }
  }
  for (const ScenarioFlag& spec : scenario_flags()) {
    const auto value = option(args, spec.flag);
    if (!value || (serving && !serve_takes_scenario_flag(spec))) continue;
    input.flag_keys.push_back(spec.key);
    if (!spec.numeric) {
      input.value[spec.key] = *value;
      continue;
    }
    input.value[spec.key] = json_number(parse_number(spec.flag, *value));
  }
  return input;
}

std::string with_source(const ScenarioInput& input, const Error& error) {
  const std::string top = top_level_key(error.path);
  if (top.empty()) return error.message;
  // Only a flag that set the key is blamed: serve's --prompt is the serving prompt, not
  // /prompt_tokens, so a bad /prompt_tokens in the file stays the file's.
  const auto set_by_flag = [&](const std::string& key) {
    return std::find(input.flag_keys.begin(), input.flag_keys.end(), key) != input.flag_keys.end();
  };
  for (const ScenarioFlag& spec : scenario_flags()) {
    if (top == spec.key && set_by_flag(spec.key)) {
      if (error.path == "/" + spec.key) return spec.flag + " (" + error.path + "): " + error.what;
      return spec.flag + ": " + error.message;
    }
  }
  // The file's keys as the engine's paths show them (escaped per RFC 6901, bounded): a key
  // holding '/' or ':' is still found.
  for (const std::string& key : input.file_keys) {
    const std::string shown = api::child_path("", key);
    if (error.path == shown || error.path.rfind(shown + "/", 0) == 0) {
      return file_name(*input.file) + ": " + error.message;
    }
  }
  return error.message;
}

std::vector<std::string> scenario_options() {
  std::vector<std::string> options = {"--scenario"};
  for (const ScenarioFlag& spec : scenario_flags()) options.emplace_back(spec.flag);
  return options;
}

Format output_format(const Args& args, const std::string& command) {
  const int formats = (option(args, "--json") ? 1 : 0) + (option(args, "--csv") ? 1 : 0) +
                      (option(args, "--table") ? 1 : 0);
  if (formats > 1) fail(command + ": choose one of --json, --csv, --table");
  if (option(args, "--json")) return Format::json_text;
  return option(args, "--csv") ? Format::csv_text : Format::table;
}

}  // namespace prefill_trace::cli
