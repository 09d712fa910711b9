// `prefill-trace presets`: the bundled models and accelerators.

#include <iostream>
#include <nlohmann/json.hpp>

#include "../cli.hpp"
#include "../report.hpp"
#include "commands.hpp"
#include "prefill_trace/engine.hpp"

namespace prefill_trace::cli {

int run_presets(int argc, char** argv) {
  const Args args = parse_args(argc, argv, 2, {"--json"});
  const auto reply = api::list_presets();
  if (!reply.ok) fail(reply.error);
  const nlohmann::json presets = nlohmann::json::parse(reply.json, nullptr, false);
  if (option(args, "--json")) {
    std::cout << dump_json(presets, 2) << '\n';
  } else {
    print_presets_table(presets);
  }
  return kOk;
}

}  // namespace prefill_trace::cli
