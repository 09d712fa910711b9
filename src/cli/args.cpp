// argv read into options, and numbers read from flags (cli.hpp).

#include <limits.h>  // PATH_MAX

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "flags.hpp"
#include "prefill_trace/engine.hpp"
#include "prefill_trace/number_text.hpp"

namespace prefill_trace::cli {

using nlohmann::json;

void fail(const std::string& message) {
  throw Failure{message};
}

std::string typed(const std::string& text) {
  return api::quoted_excerpt(text);
}

std::string file_name(const std::string& path) {
  return api::excerpt(path, PATH_MAX);
}

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

Args parse_args(int argc, char** argv, int first, const std::vector<std::string>& allowed) {
  Args args;
  for (int i = first; i < argc; ++i) {
    std::string word = argv[i];
    if (word.rfind("--", 0) != 0) {
      args.positional.push_back(word);
      continue;
    }
    std::string value;
    const auto eq = word.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = word.substr(eq + 1);
      word.erase(eq);
    }
    bool known = false;
    for (const auto& name : allowed) known = known || name == word;
    if (!known) fail(api::excerpt(word) + ": unknown option here (see --help)");
    if (!takes_value(word)) {
      // "--json=false" must not print JSON: a switch is given or not, never given a value.
      if (inline_value)
        fail(word + ": is a switch and takes no value (drop " + typed("=" + value) + ")");
    } else if (!inline_value) {
      if (i + 1 >= argc) fail(word + ": needs a value");
      value = argv[++i];
    }
    if (args.options.count(word) != 0) fail(word + ": given twice");
    args.options[word] = value;
  }
  return args;
}

std::optional<std::string> option(const Args& args, const std::string& name) {
  const auto it = args.options.find(name);
  if (it == args.options.end()) return std::nullopt;
  return it->second;
}

double parse_number(const std::string& flag, const std::string& text) {
  const auto value = parse_decimal(text);
  if (!value) fail(flag + ": " + typed(text) + " " + value.error());
  return *value;
}

std::vector<double> parse_number_list(const std::string& flag, const std::string& text) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto piece =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (values.size() >= api::max_sweep_points()) {
      fail(flag + ": more than " + std::to_string(api::max_sweep_points()) + " values");
    }
    values.push_back(parse_number(flag + ": value " + std::to_string(values.size() + 1), piece));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return values;
}

json json_number(double number) {
  if (number == std::floor(number) && std::fabs(number) < 9e15) return static_cast<int64_t>(number);
  return number;
}

}  // namespace prefill_trace::cli
