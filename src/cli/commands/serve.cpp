// `prefill-trace serve`: one serving run (or a rate sweep) as a table, JSON or per-request CSV.

#include <nlohmann/json.hpp>

#include "../cli.hpp"
#include "../report.hpp"
#include "../serving_input.hpp"
#include "commands.hpp"

namespace prefill_trace::cli {

int run_serve(int argc, char** argv) {
  auto options = serving_options();
  options.insert(options.end(), {"--json", "--csv", "--table", "--trace"});
  const Args args = parse_args(argc, argv, 2, options);
  if (!args.positional.empty()) fail("serve: unexpected argument " + typed(args.positional[0]));
  const Format format = output_format(args, "serve");
  const ScenarioInput input = serving_input(args);
  const nlohmann::json& serving = input.value.at("serving");
  // A CSV is one row per request of one rate: a sweep's other rates would be dropped unseen.
  if (format == Format::csv_text && serving.contains("sweep_rates") &&
      serving.at("sweep_rates").is_array() && !serving.at("sweep_rates").empty()) {
    const std::string source = option(args, "--sweep-rates")
                                   ? std::string("--sweep-rates")
                                   : file_name(*input.file) + ": /serving/sweep_rates";
    fail(source + ": --csv prints the requests of one rate; give --json or --table for a sweep," +
         " or run serve --csv --rate R once per rate");
  }
  // A request trace (--trace FILE) is read whole and handed beside the scenario: it may be far
  // larger than a scenario document (limits::max_request_trace_bytes).
  const auto trace_file = option(args, "--trace");
  const std::string trace =
      trace_file ? read_file(*trace_file, FileKind::request_trace) : std::string();
  return print_reply(
      format, dump_json(input.value),
      [&](std::string_view text) {
        return trace_file ? api::simulate_serving_csv(text, trace)
                          : api::simulate_serving_csv(text);
      },
      [&](std::string_view text) {
        return trace_file ? api::simulate_serving(text, trace) : api::simulate_serving(text);
      },
      print_serving_table, [&](const Error& error) { return serve_error(args, input, error); });
}

}  // namespace prefill_trace::cli
