#pragma once
// The scenario flags and the serving flags, each generated from the engine's own field tables
// (api::scenario_fields(), api::serving_fields()): one list for parsing, building the scenario
// and naming the flag in an error.

#include <string>
#include <vector>

namespace prefill_trace::cli {

// Every member of the scenario object the engine lists is a flag, so a new scenario input needs
// no change here but a line in the help (help.cpp): "--" and its key with '-' for '_'
// (--arrival-rate), or the name in kFlagsNamedOtherwise. Numbers are parsed here (so a bad one
// names the flag); the rest go to the engine as text.
struct ScenarioFlag {
  std::string flag;
  std::string key;
  bool numeric;
};
const std::vector<ScenarioFlag>& scenario_flags();

// The serve command's own flags and the keys of the scenario's "serving" object they set: each
// field's flag in the engine's serving table, then the older spellings it keeps (its aliases).
// How a value is read follows the field's kind: numbers are parsed here (so a bad one names the
// flag), a length is a number when it reads as one and a distribution's text otherwise, a list
// is numbers separated by commas, a flag is a switch.
enum class ServingValue { number, text, list, toggle, number_or_text };
struct ServingFlag {
  std::string flag;
  std::string key;
  ServingValue kind;
};
const std::vector<ServingFlag>& serving_flags();

/// Whether option `name` takes a value; every other --option is a switch.
bool takes_value(const std::string& name);

}  // namespace prefill_trace::cli
