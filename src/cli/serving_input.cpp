// The serving scenario from the flags (serving_input.hpp).

#include "serving_input.hpp"

#include <map>
#include <nlohmann/json.hpp>

#include "flags.hpp"
#include "prefill_trace/number_text.hpp"

namespace prefill_trace::cli {
namespace {

using nlohmann::json;

// Two flags that set one key (a field's flag and its alias): refused, naming both. The two old
// spellings of the prompt and of the output keep their own words.
void refuse_flags_of_one_key(const Args& args) {
  if (option(args, "--prompt") && option(args, "--prompt-dist"))
    fail("--prompt-dist: give --prompt T or --prompt-dist D, not both");
  if (option(args, "--output") && option(args, "--output-dist"))
    fail("--output-dist: give --output O or --output-dist D, not both");
  std::map<std::string, std::string> given;  // key -> the first flag given for it
  for (const ServingFlag& spec : serving_flags()) {
    if (!option(args, spec.flag)) continue;
    const auto [first, fresh] = given.emplace(spec.key, spec.flag);
    if (!fresh)
      fail(spec.flag + ": sets " + spec.key + " as " + first->second + " does; give one of them");
  }
}

// The value of serving flag `spec` as the "serving" object holds it.
json serving_value_of(const ServingFlag& spec, const std::string& value) {
  switch (spec.kind) {
    case ServingValue::number:
      return json_number(parse_number(spec.flag, value));
    case ServingValue::number_or_text:
      if (const auto number = parse_decimal(value)) return json_number(*number);
      return value;
    case ServingValue::text:
      return value;
    case ServingValue::list: {
      json list = json::array();
      for (const double rate : parse_number_list(spec.flag, value)) list.push_back(rate);
      return list;
    }
    case ServingValue::toggle:
      break;
  }
  return true;
}

}  // namespace

std::vector<std::string> serving_options() {
  std::vector<std::string> options = {"--scenario"};
  for (const ScenarioFlag& spec : scenario_flags()) {
    if (serve_takes_scenario_flag(spec)) options.emplace_back(spec.flag);
  }
  for (const ServingFlag& spec : serving_flags()) options.emplace_back(spec.flag);
  return options;
}

ScenarioInput serving_input(const Args& args) {
  refuse_flags_of_one_key(args);
  ScenarioInput input = scenario_input(args, true);
  json serving = json::object();
  if (input.value.contains("serving")) {
    if (!input.value["serving"].is_object()) fail(*input.file + ": /serving: must be an object");
    serving = input.value["serving"];
  }
  for (const ServingFlag& spec : serving_flags()) {
    if (const auto value = option(args, spec.flag))
      serving[spec.key] = serving_value_of(spec, *value);
  }
  input.value["serving"] = serving;
  return input;
}

std::string serve_error(const Args& args, const ScenarioInput& input, const Error& error) {
  // A line of the request trace: the file and the line.
  if (error.path == "/trace") return file_name(*option(args, "--trace")) + ": " + error.what;
  const std::string prefix = "/serving/";
  if (error.path.rfind(prefix, 0) == 0) {
    const std::string key =
        error.path.substr(prefix.size(), error.path.find('/', prefix.size()) - prefix.size());
    for (const ServingFlag& spec : serving_flags()) {
      if (key == spec.key && option(args, spec.flag))
        return spec.flag + " (" + error.path + "): " + error.what;
    }
    if (input.file) return *input.file + ": " + error.message;
  }
  if (error.path == "/serving" && input.file) return *input.file + ": " + error.message;
  return with_source(input, error);
}

}  // namespace prefill_trace::cli
