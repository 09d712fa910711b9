// prefill-trace: the command-line face of the engine. Exit codes: 0 ok, 1 wrong quiz answer,
// 2 bad input or bad usage (one line on stderr). A client of the public facade
// (include/prefill_trace/) like any other: it builds scenario JSON, calls the facade and prints
// the documents it returns (report.hpp), and links none of the engine's private headers.

#include <fcntl.h>
#include <limits.h>  // PATH_MAX
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "help.hpp"
#include "prefill_trace/engine.hpp"
#include "prefill_trace/number_text.hpp"
#include "report.hpp"
#include "sha256.hpp"

namespace {

using namespace prefill_trace;
using nlohmann::json;

constexpr int kOk = 0;
constexpr int kWrong = 1;
constexpr int kBadInput = 2;

struct Failure {
  std::string message;
};

[[noreturn]] void fail(const std::string& message) {
  throw Failure{message};
}

// What the user typed, as an error shows it: bounded and with control characters escaped as
// the engine's own messages are (api::excerpt), so a message is one printable line whatever
// argv held.
std::string typed(const std::string& text) {
  return api::quoted_excerpt(text);
}
// A file name is shown whole up to PATH_MAX (any name the system could open), escaped.
std::string file_name(const std::string& path) {
  return api::excerpt(path, PATH_MAX);
}

// Serializes a document the CLI built for the engine (invalid UTF-8 replaced, never thrown:
// every string in it came through the engine's strict reader or from argv).
std::string dump_json(const json& value, int indent = -1) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // --name -> value ("" for switches)
};

// The scenario flags and the scenario JSON keys they set: one list for parsing, building the
// scenario, and naming the flag in an error. Every member of the scenario object the engine
// lists (api::scenario_fields()) is a flag, so a new scenario input needs no change here but a
// line in the help (help.cpp): "--" and its key with '-' for '_' (--arrival-rate), or the name
// below. Numbers are parsed here (so a bad one names the flag); the rest go to the engine as text.
struct ScenarioFlag {
  std::string flag;
  std::string key;
  bool numeric;
};

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

// The serve command's own flags and the keys of the scenario's "serving" object they set: each
// field's flag in the engine's serving table (api::serving_fields()), then the older spellings
// it keeps (its aliases). How a value is read follows the field's kind: numbers are parsed here
// (so a bad one names the flag), a length is a number when it reads as one and a distribution's
// text otherwise, a list is numbers separated by commas, a flag is a switch.
enum class ServingValue { number, text, list, toggle, number_or_text };
struct ServingFlag {
  std::string flag;
  std::string key;
  ServingValue kind;
};

ServingValue serving_value(const std::string& kind) {
  if (kind == "integer" || kind == "number") return ServingValue::number;
  if (kind == "list") return ServingValue::list;
  if (kind == "flag") return ServingValue::toggle;
  if (kind == "length") return ServingValue::number_or_text;
  return ServingValue::text;  // choice, text
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

// Options that take a value; every other --option is a switch.
bool takes_value(const std::string& name) {
  for (const char* option :
       {"--answer", "--check", "--scenario", "--variable", "--values", "--trace"}) {
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

// What kind of file `mode` describes, for refusing anything but a regular file by name.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// `limit`: the most bytes the file may hold (a document's, or a request trace's).
void refuse_unless_regular(const std::string& path, const struct stat& info, std::size_t limit) {
  if (!S_ISREG(info.st_mode))
    fail(file_name(path) + ": is " + std::string(file_kind(info.st_mode)) + ", not a regular file");
  if (info.st_size <= static_cast<off_t>(limit)) return;
  if (limit != api::max_document_bytes()) {
    fail(file_name(path) + ": a request trace of " + std::to_string(info.st_size) +
         " bytes exceeds the limit of " + std::to_string(limit) + " bytes (refused unread)");
  }
  fail(file_name(path) + ": byte 0: document of " + std::to_string(info.st_size) +
       " bytes exceeds the limit of " + std::to_string(limit));
}

// Reads a lesson or scenario file (or, with a larger `limit`, a request trace). Only a regular
// file is read, and one over the size limit is refused by its size before any of it is read: a
// directory, a device or a FIFO is refused by its kind from stat(), so a FIFO without a writer is
// never opened (opening it would block). The file is then opened non-blocking and checked again
// through its descriptor, in case the path was swapped between the two looks.
std::string read_file(const std::string& path, std::size_t limit = api::max_document_bytes()) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    fail(file_name(path) + ": cannot open the file (" + std::strerror(errno) + ")");
  refuse_unless_regular(path, info, limit);
  // Closed on every path out, the failures (which throw) included.
  struct Descriptor {
    int fd;
    ~Descriptor() {
      if (fd >= 0) ::close(fd);
    }
  } const file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
  if (file.fd < 0) fail(file_name(path) + ": cannot open the file (" + std::strerror(errno) + ")");
  if (::fstat(file.fd, &info) != 0)
    fail(file_name(path) + ": cannot read the file (" + std::strerror(errno) + ")");
  refuse_unless_regular(path, info, limit);
  // One byte over the limit is read, so a file that grew since fstat is still refused; the
  // buffer starts at the file's size (a trace's limit is 64 MiB) and grows if the file did.
  std::string text(std::min(limit, static_cast<std::size_t>(info.st_size)) + 1, '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const ssize_t got = ::read(file.fd, text.data() + filled, text.size() - filled);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(file_name(path) + ": cannot read the file (" + std::strerror(errno) + ")");
    }
    filled += static_cast<std::size_t>(got);
    if (filled == text.size() && text.size() <= limit)
      text.resize(std::min(limit + 1, text.size() * 2));
  }
  text.resize(filled);
  return text;
}

// The lesson text and its name: PATH if given, else the bundled file.
std::pair<std::string, std::string> lesson_source(const Args& args) {
  if (args.positional.size() > 1)
    fail("expected at most one PATH, got " + std::to_string(args.positional.size()));
  std::pair<std::string, std::string> source =
      args.positional.empty() ? std::pair{std::string(api::bundled_lesson_text()),
                                          std::string(api::bundled_lesson_name())}
                              : std::pair{read_file(args.positional[0]), args.positional[0]};
  if (option(args, "--verify")) {
    const auto digest = cli::sha256_hex(source.first);
    if (!digest) fail("SHA-256 failed");
    const auto verified = api::verify_published_name(source.second, *digest);
    if (!verified.ok) fail(file_name(source.second) + ": " + verified.error);
  }
  return source;
}

// The lesson as the engine validated and re-serialized it (api::load_lesson).
json load_lesson_or_fail(const std::pair<std::string, std::string>& source) {
  const auto reply = api::load_lesson(source.first);
  if (!reply.ok) fail(file_name(source.second) + ": " + reply.error);
  return json::parse(reply.lesson_json, nullptr, false);
}

int run_lesson(const Args& args) {
  cli::print_lesson(load_lesson_or_fail(lesson_source(args)));
  return kOk;
}

// Flags read numbers by the one rule the page also uses (prefill_trace/number_text.hpp).
double parse_number(const std::string& flag, const std::string& text) {
  const auto value = parse_decimal(text);
  if (!value) fail(flag + ": " + typed(text) + " " + value.error());
  return *value;
}

// A 1-based number from a flag (as the CLI prints lists), checked against `count` items; the
// result is the engine's 0-based index.
std::size_t parse_ordinal(const std::string& flag, const std::string& text, std::size_t count,
                          const std::string& what, const std::string& note = "") {
  const double number = parse_number(flag, text);
  if (number != std::floor(number) || number < 1 || number > static_cast<double>(count)) {
    fail(flag + ": must be " + what + " from 1 to " + std::to_string(count) + note + ", not " +
         api::excerpt(text));
  }
  return static_cast<std::size_t>(number) - 1;
}

int run_quiz(const Args& args) {
  const auto answer = option(args, "--answer");
  if (!answer)
    fail("quiz: --answer N is required (N = 1, 2 or 3, as printed by `prefill-trace lesson`)");
  const auto source = lesson_source(args);
  const json lesson = load_lesson_or_fail(source);
  const std::size_t further = lesson.contains("checks") ? lesson.at("checks").size() : 0;
  // Both numbers are 1-based, as `prefill-trace lesson` prints them; the engine counts from 0.
  const std::size_t check =
      option(args, "--check")
          ? parse_ordinal("--check", *option(args, "--check"), 1 + further, "a check number",
                          " (1 is the lesson's check, 2 and up its further checks)")
          : 0;
  const json& options =
      (check == 0 ? lesson.at("check") : lesson.at("checks").at(check - 1)).at("options");
  const std::size_t choice = parse_ordinal("--answer", *answer, options.size(), "an option number");
  const auto outcome =
      api::check_answer(source.first, static_cast<double>(check), static_cast<double>(choice));
  if (!outcome.ok) fail(outcome.error);  // unreachable: both numbers were checked above
  std::cout << (outcome.correct ? "Correct." : "Not quite.") << " The answer is "
            << outcome.correct_index + 1 << ": "
            << options.at(static_cast<std::size_t>(outcome.correct_index)).get<std::string>()
            << "\n"
            << outcome.explanation << '\n';
  return outcome.correct ? kOk : kWrong;
}

// Splits "a,b,c" and reads each as a number, naming the flag and the 1-based position.
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
  // Integral values travel as JSON integers so integer fields accept them exactly.
  if (number == std::floor(number) && std::fabs(number) < 9e15) return static_cast<int64_t>(number);
  return number;
}

// The scenario JSON built from --scenario and the flags (so flags and files share one parser),
// and where each top-level value came from, so an error names what the user actually wrote.
struct ScenarioInput {
  json value;
  std::optional<std::string> file;     // the --scenario path
  std::vector<std::string> file_keys;  // top-level keys the file set
};

// The scenario flags `serve` takes: the device and the model, not the single-request workload
// (its --prompt is the serving prompt).
bool serve_takes_scenario_flag(const ScenarioFlag& spec) {
  const std::string& key = spec.key;
  return key != "prompt_tokens" && key != "batch" && key != "chunk_tokens" &&
         key != "arrival_rate" && key != "delivery_seconds";
}

ScenarioInput scenario_input(const Args& args, bool serving = false) {
  ScenarioInput input{{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}}, {}, {}};
  if (const auto file = option(args, "--scenario")) {
    // Read as the engine reads any document (api::check_json), then edited here.
    const auto checked = api::check_json(read_file(*file));
    if (!checked.ok) fail(file_name(*file) + ": " + checked.error);
    const json parsed = json::parse(checked.json, nullptr, false);
    if (!parsed.is_object()) fail(file_name(*file) + ": a scenario must be a JSON object");
    input.file = *file;
    for (const auto& item : parsed.items()) {
      input.value[item.key()] = item.value();
      input.file_keys.push_back(item.key());
    }
  }
  for (const ScenarioFlag& spec : scenario_flags()) {
    const auto value = option(args, spec.flag);
    if (!value || (serving && !serve_takes_scenario_flag(spec))) continue;
    if (!spec.numeric) {
      input.value[spec.key] = *value;
      continue;
    }
    input.value[spec.key] = json_number(parse_number(spec.flag, *value));
  }
  return input;
}

// The scenario's top-level key a JSON Pointer starts in ("/model/layers" → "model"), or "".
std::string top_level_key(const std::string& path) {
  if (path.size() < 2 || path[0] != '/') return "";
  return path.substr(1, path.find('/', 1) - 1);
}

// Puts the source of the wrong value before an engine error about a JSON path: the flag that
// set it ("--prompt (/prompt_tokens): must be ..."), else the scenario file ("run.json:
// /prompt_tokens: must be ..."); a default the CLI filled in keeps the bare path.
std::string with_source(const Args& args, const ScenarioInput& input, const Error& error) {
  const std::string top = top_level_key(error.path);
  if (top.empty()) return error.message;
  for (const ScenarioFlag& spec : scenario_flags()) {
    if (top == spec.key && option(args, spec.flag)) {
      if (error.path == "/" + spec.key) return spec.flag + " (" + error.path + "): " + error.what;
      return spec.flag + ": " + error.message;
    }
  }
  // The file's keys as the engine's paths show them (escaped per RFC 6901, bounded): a key
  // holding '/' or ':' is still found.
  for (const std::string& key : input.file_keys) {
    const std::string shown = api::child_path("", key);
    if (error.path == shown || error.path.rfind(shown + "/", 0) == 0) {
      return file_name(*input.file) + ": " + error.message;
    }
  }
  return error.message;
}

std::vector<std::string> scenario_options() {
  std::vector<std::string> options = {"--scenario"};
  for (const ScenarioFlag& spec : scenario_flags()) options.emplace_back(spec.flag);
  return options;
}

// A refused reply's error: code, path, message and the problem without the path.
template <typename Reply>
Error reply_error(const Reply& reply) {
  return Error{reply.error, reply.code, reply.path, reply.what};
}

// The output --json, --csv or --table (the default) asks for; two at once are refused.
enum class Format { table, json_text, csv_text };
Format output_format(const Args& args, const std::string& command) {
  const int formats = (option(args, "--json") ? 1 : 0) + (option(args, "--csv") ? 1 : 0) +
                      (option(args, "--table") ? 1 : 0);
  if (formats > 1) fail(command + ": choose one of --json, --csv, --table");
  if (option(args, "--json")) return Format::json_text;
  return option(args, "--csv") ? Format::csv_text : Format::table;
}

// Calls the facade's CSV or JSON entry point on `scenario` as `format` asks and prints the
// reply: CSV and JSON as they are, the table by `print_table` from the parsed JSON. A refusal
// fails with the words `explain` gives its error (naming the flag or file it came from).
template <typename Csv, typename Document, typename Explain>
int print_reply(Format format, const std::string& scenario, Csv csv, Document document,
                void (*print_table)(const json&), Explain explain) {
  if (format == Format::csv_text) {
    const auto reply = csv(scenario);
    if (!reply.ok) fail(explain(reply_error(reply)));
    std::cout << reply.csv;
    return kOk;
  }
  const auto reply = document(scenario);
  if (!reply.ok) fail(explain(reply_error(reply)));
  if (format == Format::json_text) {
    std::cout << reply.json << '\n';
  } else {
    print_table(json::parse(reply.json, nullptr, false));
  }
  return kOk;
}

int run_trace(const Args& args) {
  if (!args.positional.empty()) fail("trace: unexpected argument " + typed(args.positional[0]));
  const Format format = output_format(args, "trace");
  const ScenarioInput input = scenario_input(args);
  return print_reply(format, dump_json(input.value), api::compute_trace_csv, api::compute_trace,
                     cli::print_trace_table,
                     [&](const Error& error) { return with_source(args, input, error); });
}

// The engine names the sweep's arguments "/variable", "/values" and "/values/I", counting values
// from 0 (JS arrays do); --values is a list a user counts from 1, so its errors say "value 1"
// for the first.
std::string sweep_error(const Args& args, const ScenarioInput& input, const api::JsonReply& reply) {
  const Error error = reply_error(reply);
  if (error.path == "/variable") return "--variable: " + error.what;
  if (error.path == "/values") return "--values: " + error.what;
  const std::string value_prefix = "/values/";
  if (error.path.rfind(value_prefix, 0) == 0) {
    const std::size_t index = std::stoul(error.path.substr(value_prefix.size()));
    return "--values: value " + std::to_string(index + 1) + ": " + error.what;
  }
  return with_source(args, input, error);
}

int run_sweep(const Args& args) {
  const auto variable = option(args, "--variable");
  const auto values_text = option(args, "--values");
  if (!variable || !values_text) fail("sweep: --variable and --values are required");
  const std::vector<double> values = parse_number_list("--values", *values_text);
  const ScenarioInput input = scenario_input(args);
  const auto reply = api::sweep(dump_json(input.value), *variable, values);
  if (!reply.ok) fail(sweep_error(args, input, reply));
  std::cout << reply.json << '\n';
  return kOk;
}

// Names the flag (or the file) an engine error's JSON path came from.
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
  return with_source(args, input, error);
}

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

int run_serve(const Args& args) {
  if (!args.positional.empty()) fail("serve: unexpected argument " + typed(args.positional[0]));
  const Format format = output_format(args, "serve");
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
  // A CSV is one row per request of one rate: a sweep's other rates would be dropped unseen.
  if (format == Format::csv_text && serving.contains("sweep_rates") &&
      serving["sweep_rates"].is_array() && !serving["sweep_rates"].empty()) {
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
      trace_file ? read_file(*trace_file, api::max_request_trace_bytes()) : std::string();
  return print_reply(
      format, dump_json(input.value),
      [&](std::string_view text) {
        return trace_file ? api::simulate_serving_csv(text, trace)
                          : api::simulate_serving_csv(text);
      },
      [&](std::string_view text) {
        return trace_file ? api::simulate_serving(text, trace) : api::simulate_serving(text);
      },
      cli::print_serving_table,
      [&](const Error& error) { return serve_error(args, input, error); });
}

int run_presets(const Args& args) {
  const auto reply = api::list_presets();
  if (!reply.ok) fail(reply.error);
  const json presets = json::parse(reply.json, nullptr, false);
  if (option(args, "--json")) {
    std::cout << dump_json(presets, 2) << '\n';
  } else {
    cli::print_presets_table(presets);
  }
  return kOk;
}

// The help asked for, if any: `--help`/`-h`/`help` alone (everything), `help COMMAND`, or
// `COMMAND ... --help`/`-h` anywhere after the command (that command's), whatever else is given.
std::optional<std::string> help_request(int argc, char** argv) {
  const auto is_help = [](const std::string& word) { return word == "--help" || word == "-h"; };
  const std::string first = argv[1];
  if (is_help(first) || first == "help") {
    if (argc == 2 || is_help(argv[2])) return cli::help_text();
    auto text = cli::help_text(argv[2]);
    if (!text) fail("help: unknown command " + typed(argv[2]) + "; see --help");
    if (argc > 3) fail("help: expected one COMMAND, got " + std::to_string(argc - 2) + " words");
    return text;
  }
  for (int i = 2; i < argc; ++i) {
    if (is_help(argv[i])) return cli::help_text(first);  // nullopt: not a command, refused below
  }
  return std::nullopt;
}

int run(int argc, char** argv) {
  try {
    if (argc < 2) fail("missing command (lesson, quiz, trace, sweep, serve, presets); see --help");
    const std::string command = argv[1];
    if (command == "--version" || command == "-V") {
      std::cout << "prefill-trace " << PREFILL_TRACE_VERSION << '\n';
      return kOk;
    }
    if (const auto help = help_request(argc, argv)) {
      std::cout << *help;
      return kOk;
    }
    if (command == "lesson") return run_lesson(parse_args(argc, argv, 2, {"--verify"}));
    if (command == "quiz")
      return run_quiz(parse_args(argc, argv, 2, {"--answer", "--check", "--verify"}));
    if (command == "trace") {
      auto options = scenario_options();
      options.insert(options.end(), {"--json", "--csv", "--table"});
      return run_trace(parse_args(argc, argv, 2, options));
    }
    if (command == "sweep") {
      auto options = scenario_options();
      options.insert(options.end(), {"--variable", "--values"});
      return run_sweep(parse_args(argc, argv, 2, options));
    }
    if (command == "serve") {
      std::vector<std::string> options = {"--scenario", "--json", "--csv", "--table", "--trace"};
      for (const ScenarioFlag& spec : scenario_flags()) {
        if (serve_takes_scenario_flag(spec)) options.emplace_back(spec.flag);
      }
      for (const ServingFlag& spec : serving_flags()) options.emplace_back(spec.flag);
      return run_serve(parse_args(argc, argv, 2, options));
    }
    if (command == "presets") return run_presets(parse_args(argc, argv, 2, {"--json"}));
    fail("unknown command " + typed(command) + "; see --help");
  } catch (const Failure& failure) {
    // Every piece quoted from input is escaped where it is quoted; escaping the whole line once
    // more (a no-op on escaped text) keeps it one printable line whatever a message missed.
    std::cerr << "prefill-trace: " << api::excerpt(failure.message, failure.message.size()) << '\n';
    return kBadInput;
  } catch (const std::exception& error) {
    std::cerr << "prefill-trace: internal error: " << error.what() << '\n';
    return kBadInput;
  }
}

// Output that could not be written (a full disk, a closed stdout, /dev/full) is a failure like
// bad input: the data the user asked for is not there. std::cout shares stdout's buffer (the
// streams are synchronised), so flushing stdout pushes everything out and its error flag covers
// both. Closing a duplicate of the descriptor reports a deferred error (NFS reports some only
// at close) without closing stdout under the C++ runtime's own exit-time flush.
int finish_output(int status) {
  // errno is read only on failure, where it holds the failed write's cause.
  std::cout.flush();
  bool written = static_cast<bool>(std::cout);
  if (std::fflush(stdout) != 0 || std::ferror(stdout) != 0) written = false;
  int cause = errno;
  if (written) {
    const int copy = ::dup(STDOUT_FILENO);
    if (copy >= 0 && ::close(copy) != 0) {
      written = false;
      cause = errno;
    }
  }
  if (written) return status;
  std::cerr << "prefill-trace: cannot write the output"
            << (cause != 0 ? std::string(": ") + std::strerror(cause) : std::string()) << '\n';
  return kBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  return finish_output(run(argc, argv));
}
