// `prefill-trace plan`: the placement search over a device budget (docs/serving.md, "Placement
// search") as a table or JSON; it takes the serving flags, the placement's own left to it.

#include <iostream>
#include <nlohmann/json.hpp>

#include "../cli.hpp"
#include "../report.hpp"
#include "../serving_input.hpp"
#include "commands.hpp"

namespace prefill_trace::cli {

int run_plan(int argc, char** argv) {
  auto options = serving_options();
  options.insert(options.end(), {"--devices", "--json", "--table"});
  const Args args = parse_args(argc, argv, 2, options);
  if (!args.positional.empty()) fail("plan: unexpected argument " + typed(args.positional[0]));
  const Format format = output_format(args, "plan");
  const auto devices = option(args, "--devices");
  if (!devices) fail("plan: --devices N is required (the device budget to place instances on)");
  const double budget = parse_number("--devices", *devices);
  const ScenarioInput input = serving_input(args);
  const auto reply = api::plan_serving(dump_json(input.value), budget);
  if (!reply.ok) {
    const Error error = reply_error(reply);
    fail(error.path == "/devices" ? "--devices: " + error.what : serve_error(args, input, error));
  }
  if (format == Format::json_text) {
    std::cout << reply.json << '\n';
  } else {
    print_plan_table(nlohmann::json::parse(reply.json, nullptr, false));
  }
  return kOk;
}

}  // namespace prefill_trace::cli
