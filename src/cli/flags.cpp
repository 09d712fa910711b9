// The CLI's flags from the engine's field tables (flags.hpp).

#include "flags.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <utility>

#include "prefill_trace/engine.hpp"

namespace prefill_trace::cli {
namespace {

using nlohmann::json;

// The flags named otherwise than their keys: the names the help and the README have always used.
constexpr std::pair<const char*, const char*> kFlagsNamedOtherwise[] = {
    {"prompt_tokens", "--prompt"},
    {"chunk_tokens", "--chunk"},
    {"delivery_seconds", "--delivery-latency"},
    {"gemm_m_tile", "--m-tile"},
};

std::string flag_for_key(const std::string& key) {
  for (const auto& [table_key, flag] : kFlagsNamedOtherwise) {
    if (key == table_key) return flag;
  }
  std::string flag = "--" + key;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return flag;
}

ServingValue serving_value(const std::string& kind) {
  if (kind == "integer" || kind == "number") return ServingValue::number;
  if (kind == "list") return ServingValue::list;
  if (kind == "flag") return ServingValue::toggle;
  if (kind == "length") return ServingValue::number_or_text;
  return ServingValue::text;  // choice, text
}

}  // namespace

const std::vector<ScenarioFlag>& scenario_flags() {
  static const std::vector<ScenarioFlag> flags = [] {
    std::vector<ScenarioFlag> list;
    const json fields = json::parse(api::scenario_fields());
    for (const json& field : fields.at("scenario")) {
      const auto key = field.at("name").get<std::string>();
      const auto kind = field.at("kind").get<std::string>();
      list.push_back({flag_for_key(key), key,
                      kind == "integer" || kind == "number" || kind == "zero_or_number"});
    }
    return list;
  }();
  return flags;
}

const std::vector<ServingFlag>& serving_flags() {
  static const std::vector<ServingFlag> flags = [] {
    std::vector<ServingFlag> list;
    const json table = json::parse(api::serving_fields());
    // Each field's aliases right after it: flags are read, and a bad number named, in this
    // order.
    for (const json& field : table.at("serving")) {
      const auto key = field.at("name").get<std::string>();
      auto flag = field.at("flag").get<std::string>();
      if (flag.empty()) continue;  // a scenario file's only (rows, goodput_tolerance)
      list.push_back({std::move(flag), key, serving_value(field.at("kind").get<std::string>())});
      for (const json& alias : table.at("aliases")) {
        if (alias.at("key").get<std::string>() != key) continue;
        list.push_back({alias.at("flag").get<std::string>(), key,
                        serving_value(alias.at("kind").get<std::string>())});
      }
    }
    return list;
  }();
  return flags;
}

bool takes_value(const std::string& name) {
  for (const char* option :
       {"--answer", "--check", "--scenario", "--variable", "--values", "--devices", "--trace"}) {
    if (name == option) return true;
  }
  for (const ServingFlag& spec : serving_flags()) {
    if (name == spec.flag) return spec.kind != ServingValue::toggle;
  }
  for (const ScenarioFlag& spec : scenario_flags()) {
    if (name == spec.flag) return true;
  }
  return false;
}

}  // namespace prefill_trace::cli
