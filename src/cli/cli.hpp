#pragma once
// What every command of the CLI shares: the failure it throws for bad input or usage (main.cpp
// prints it as one line and exits 2), argv read into options, numbers read from flags, and files
// read by name. A client of the public facade only (include/prefill_trace/).

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "prefill_trace/engine.hpp"

namespace prefill_trace::cli {

constexpr int kOk = 0;
constexpr int kWrong = 1;
constexpr int kBadInput = 2;

/// Bad input or bad usage: main.cpp prints the message on stderr and exits with kBadInput.
struct Failure {
  std::string message;
};

[[noreturn]] void fail(const std::string& message);

/// What the user typed, as an error shows it: bounded and with control characters escaped as
/// the engine's own messages are (api::excerpt), so a message is one printable line whatever
/// argv held.
std::string typed(const std::string& text);
/// A file name is shown whole up to PATH_MAX (any name the system could open), escaped.
std::string file_name(const std::string& path);

/// Serializes a document the CLI built for the engine (invalid UTF-8 replaced, never thrown:
/// every string in it came through the engine's strict reader or from argv).
std::string dump_json(const nlohmann::json& value, int indent = -1);

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // --name -> value ("" for switches)
};

/// argv from `first` on; an option not in `allowed` is refused, naming it.
Args parse_args(int argc, char** argv, int first, const std::vector<std::string>& allowed);
std::optional<std::string> option(const Args& args, const std::string& name);

/// Flags read numbers by the one rule the page also uses (prefill_trace/number_text.hpp).
double parse_number(const std::string& flag, const std::string& text);
/// Splits "a,b,c" and reads each as a number, naming the flag and the 1-based position.
std::vector<double> parse_number_list(const std::string& flag, const std::string& text);
/// Integral values travel as JSON integers so integer fields accept them exactly.
nlohmann::json json_number(double number);

/// Reads a lesson or scenario file (regular files only, bounded by the loader's size limit).
/// What a file read holds: a lesson or scenario document, or a request trace (far larger: its own
/// limit, and its own words when refused by size).
enum class FileKind { document, request_trace };
std::string read_file(const std::string& path, FileKind kind = FileKind::document);

}  // namespace prefill_trace::cli
