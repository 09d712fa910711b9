// prefill-trace: the command-line face of the engine. Exit codes: 0 ok, 1 wrong quiz answer,
// 2 bad input or bad usage (one line on stderr). A client of the public facade
// (include/prefill_trace/) like any other: it builds scenario JSON, calls the facade and prints
// the documents it returns (report.hpp), and links none of the engine's private headers.
// This file dispatches; each command lives in commands/, what they share in cli.hpp, flags.hpp,
// scenario_input.hpp and serving_input.hpp.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "cli.hpp"
#include "commands/commands.hpp"
#include "help.hpp"
#include "prefill_trace/engine.hpp"

namespace {

using namespace prefill_trace;
using namespace prefill_trace::cli;

// The commands by name, in the order the help lists them.
struct Command {
  const char* name;
  int (*run)(int argc, char** argv);
};
constexpr Command kCommands[] = {
    {"lesson", run_lesson}, {"quiz", run_quiz},   {"trace", run_trace},
    {"sweep", run_sweep},   {"serve", run_serve}, {"presets", run_presets},
};

// The help asked for, if any: `--help`/`-h`/`help` alone (everything), `help COMMAND`, or
// `COMMAND ... --help`/`-h` anywhere after the command (that command's), whatever else is given.
std::optional<std::string> help_request(int argc, char** argv) {
  const auto is_help = [](const std::string& word) { return word == "--help" || word == "-h"; };
  const std::string first = argv[1];
  if (is_help(first) || first == "help") {
    if (argc == 2 || is_help(argv[2])) return help_text();
    auto text = help_text(argv[2]);
    if (!text) fail("help: unknown command " + typed(argv[2]) + "; see --help");
    if (argc > 3) fail("help: expected one COMMAND, got " + std::to_string(argc - 2) + " words");
    return text;
  }
  for (int i = 2; i < argc; ++i) {
    if (is_help(argv[i])) return help_text(first);  // nullopt: not a command, refused below
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
    for (const Command& entry : kCommands) {
      if (command == entry.name) return entry.run(argc, argv);
    }
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
