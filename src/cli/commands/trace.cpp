// `prefill-trace trace`: one scenario's trace as a table, JSON or CSV.

#include "../cli.hpp"
#include "../report.hpp"
#include "../scenario_input.hpp"
#include "commands.hpp"

namespace prefill_trace::cli {

int run_trace(int argc, char** argv) {
  auto options = scenario_options();
  options.insert(options.end(), {"--json", "--csv", "--table"});
  const Args args = parse_args(argc, argv, 2, options);
  if (!args.positional.empty()) fail("trace: unexpected argument " + typed(args.positional[0]));
  const Format format = output_format(args, "trace");
  const ScenarioInput input = scenario_input(args);
  return print_reply(format, dump_json(input.value), api::compute_trace_csv, api::compute_trace,
                     print_trace_table,
                     [&](const Error& error) { return with_source(input, error); });
}

}  // namespace prefill_trace::cli
