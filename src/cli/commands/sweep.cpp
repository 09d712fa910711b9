// `prefill-trace sweep`: one scenario variable over a list of values, as JSON.

#include <iostream>
#include <string>
#include <vector>

#include "../cli.hpp"
#include "../scenario_input.hpp"
#include "commands.hpp"

namespace prefill_trace::cli {
namespace {

// The engine names the sweep's arguments "/variable", "/values" and "/values/I", counting values
// from 0 (JS arrays do); --values is a list a user counts from 1, so its errors say "value 1"
// for the first.
std::string sweep_error(const ScenarioInput& input, const api::JsonReply& reply) {
  const Error error = reply_error(reply);
  if (error.path == "/variable") return "--variable: " + error.what;
  if (error.path == "/values") return "--values: " + error.what;
  const std::string value_prefix = "/values/";
  if (error.path.rfind(value_prefix, 0) == 0) {
    const std::size_t index = std::stoul(error.path.substr(value_prefix.size()));
    return "--values: value " + std::to_string(index + 1) + ": " + error.what;
  }
  return with_source(input, error);
}

}  // namespace

int run_sweep(int argc, char** argv) {
  auto options = scenario_options();
  options.insert(options.end(), {"--variable", "--values"});
  const Args args = parse_args(argc, argv, 2, options);
  const auto variable = option(args, "--variable");
  const auto values_text = option(args, "--values");
  if (!variable || !values_text) fail("sweep: --variable and --values are required");
  const std::vector<double> values = parse_number_list("--values", *values_text);
  const ScenarioInput input = scenario_input(args);
  const auto reply = api::sweep(dump_json(input.value), *variable, values);
  if (!reply.ok) fail(sweep_error(input, reply));
  std::cout << reply.json << '\n';
  return kOk;
}

}  // namespace prefill_trace::cli
