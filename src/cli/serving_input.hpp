#pragma once
// The serving scenario built from --scenario, the device and model flags and the serving flags
// (`serve`, and any command that takes the serving flags), and the engine's refusals worded
// after the flag or file a value came from.

#include <string>
#include <vector>

#include "cli.hpp"
#include "scenario_input.hpp"

namespace prefill_trace::cli {

/// --scenario, the scenario flags serve takes and every serving flag (not the output format).
std::vector<std::string> serving_options();

/// The scenario with its "serving" object: the file's, edited by the serving flags.
ScenarioInput serving_input(const Args& args);

/// Names the flag (or the file) an engine error's JSON path came from.
std::string serve_error(const Args& args, const ScenarioInput& input, const Error& error);

}  // namespace prefill_trace::cli
