// prefill-trace: the command-line face of the engine. Exit codes: 0 ok, 1 wrong quiz answer,
// 2 bad input or bad usage (one line on stderr).

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
#include <optional>
#include <string>
#include <vector>

#include "format.hpp"
#include "json_path.hpp"
#include "lesson.hpp"
#include "limits.hpp"
#include "number_text.hpp"
#include "prefill_trace/engine.hpp"
#include "quiz.hpp"
#include "scenario.hpp"
#include "sha256.hpp"
#include "trace.hpp"
#include "trace_json.hpp"

namespace {

using namespace prefill_trace;
using nlohmann::json;

constexpr int kOk = 0;
constexpr int kWrong = 1;
constexpr int kBadInput = 2;

const char* const kUsage =
    R"(prefill-trace: the prefill resource trace of the Atlas lesson "Prefill and prompt processing"

usage:
  prefill-trace lesson [--verify] [PATH]              print the lesson's sections as text
  prefill-trace quiz --answer N [--check I] [--verify] [PATH]
                                                      check answer N (1-based, as printed) to
                                                      check I (1 = the lesson's check, the
                                                      default; 2, 3, ... = its further checks)
  prefill-trace trace [SCENARIO FLAGS] [--json | --csv | --table]
  prefill-trace sweep --variable prompt_tokens|arrival_rate --values V1,V2,... [SCENARIO FLAGS]
  prefill-trace serve --rate R --requests N (--prompt T | --prompt-dist D) (--output O |
                      --output-dist D) [SERVING FLAGS] [--json | --csv | --table]
                                                      simulate many requests under load
  prefill-trace presets [--json]                      list models, accelerators, precisions
  prefill-trace --help | --version

scenario flags (defaults: llama-3.1-8b on h100-sxm, bf16, 2048 tokens, batch 1, fused):
  --scenario FILE.json    a whole scenario (docs/trace-json.md); flags below override it
  --model ID              --hardware ID           --precision bf16|fp16|fp8|int8|int4
  --prompt T              --batch B               --chunk C (0 = whole prompt)
  --attention fused|materialized                  --arrival-rate R (requests/s, 0 = no queue)
  --delivery-latency S    --m-tile M              --attention-block B (0 = from SRAM)
  --compute-efficiency E  --memory-efficiency E   (0.001 <= E <= 1; overrides the timing's)
  --tensor-parallel N     devices each layer is split over (figures per device)
  --timing bound|estimate bound: a lower bound (default); estimate: the calibrated profile
  --graphs on|off         estimate only: kernels replayed from a captured graph (default off)
  --stack NAME            estimate only: whose host gaps per kernel: tensorrt-llm (default),
                          vllm, sglang, llama.cpp, transformers, kernels (device time only)
  --attention-kernel NAME estimate only: auto (default), flash-attention-2, flash-attention-3,
                          flashinfer, sdpa

serving flags (docs/serving.md; --model, --hardware, --precision, --tensor-parallel, --timing,
--graphs, --attention and the efficiencies as above; --scenario FILE with a "serving" object):
  --policy prefill-first|chunked|disaggregated (default chunked)
  --rate R (requests/s)   --requests N            --seed S (default 1)
  --prompt-dist / --output-dist fixed:T | uniform:A:B | lognormal:MEAN:SIGMA
  --arrival poisson|gamma:CV                      --prefix-hit F (0..1, cached prompt share)
  --token-budget B        --max-batch N           --max-queue N (overload cap)
  --prefill-devices P --decode-devices D          (disaggregated: instances of each role)
  --prefill-tensor-parallel N --decode-tensor-parallel N
  --ttft-slo S --tpot-slo S --attainment A        --goodput (search the goodput)
  --sweep-rates R1,R2,...  --timeline-points N

Numbers are plain decimals (2048, 0.5, 1e-3); hexadecimal, inf and nan are refused.
PATH defaults to the bundled lesson file. --verify checks the file's SHA-256 against the
16-hex-digit prefix in its published name. Exit codes: 0 ok, 1 wrong answer, 2 bad input,
bad usage or output that could not be written.
)";

struct Failure {
  std::string message;
};

[[noreturn]] void fail(const std::string& message) {
  throw Failure{message};
}

// What the user typed, as an error shows it: bounded and with control characters escaped
// (src/json_path.hpp), so a message is one printable line whatever argv held.
std::string typed(const std::string& text) {
  return quoted_excerpt(text);
}
// A file name is shown whole up to PATH_MAX (any name the system could open), escaped.
std::string file_name(const std::string& path) {
  return excerpt(path, PATH_MAX);
}

struct Args {
  std::vector<std::string> positional;
  std::map<std::string, std::string> options;  // --name -> value ("" for switches)
};

// The scenario flags and the scenario JSON keys they set: one table for parsing, building the
// scenario, and naming the flag in an error.
struct ScenarioFlag {
  const char* flag;
  const char* key;
  bool numeric;
};
constexpr ScenarioFlag kScenarioFlags[] = {
    {"--model", "model", false},
    {"--hardware", "hardware", false},
    {"--precision", "precision", false},
    {"--attention", "attention", false},
    {"--prompt", "prompt_tokens", true},
    {"--batch", "batch", true},
    {"--chunk", "chunk_tokens", true},
    {"--arrival-rate", "arrival_rate", true},
    {"--delivery-latency", "delivery_seconds", true},
    {"--m-tile", "gemm_m_tile", true},
    {"--attention-block", "attention_block", true},
    {"--compute-efficiency", "compute_efficiency", true},
    {"--memory-efficiency", "memory_efficiency", true},
    {"--tensor-parallel", "tensor_parallel", true},
    {"--timing", "timing", false},
    {"--graphs", "graphs", false},
    {"--stack", "stack", false},
    {"--attention-kernel", "attention_kernel", false},
};

// The serve command's own flags and the keys of the scenario's "serving" object they set.
enum class ServingValue { number, text, list, toggle };
struct ServingFlag {
  const char* flag;
  const char* key;
  ServingValue kind;
};
constexpr ServingFlag kServingFlags[] = {
    {"--policy", "policy", ServingValue::text},
    {"--rate", "rate", ServingValue::number},
    {"--requests", "requests", ServingValue::number},
    {"--seed", "seed", ServingValue::number},
    {"--prompt", "prompt", ServingValue::number},
    {"--prompt-dist", "prompt", ServingValue::text},
    {"--output", "output", ServingValue::number},
    {"--output-dist", "output", ServingValue::text},
    {"--arrival", "arrival", ServingValue::text},
    {"--prefix-hit", "prefix_hit", ServingValue::number},
    {"--token-budget", "token_budget", ServingValue::number},
    {"--max-batch", "max_batch", ServingValue::number},
    {"--max-queue", "max_queue", ServingValue::number},
    {"--prefill-devices", "prefill_devices", ServingValue::number},
    {"--decode-devices", "decode_devices", ServingValue::number},
    {"--prefill-tensor-parallel", "prefill_tensor_parallel", ServingValue::number},
    {"--decode-tensor-parallel", "decode_tensor_parallel", ServingValue::number},
    {"--ttft-slo", "ttft_slo", ServingValue::number},
    {"--tpot-slo", "tpot_slo", ServingValue::number},
    {"--attainment", "attainment", ServingValue::number},
    {"--goodput", "goodput", ServingValue::toggle},
    {"--sweep-rates", "sweep_rates", ServingValue::list},
    {"--timeline-points", "timeline_points", ServingValue::number},
};

// Options that take a value; every other --option is a switch.
bool takes_value(const std::string& name) {
  for (const char* option : {"--answer", "--check", "--scenario", "--variable", "--values"}) {
    if (name == option) return true;
  }
  for (const ServingFlag& spec : kServingFlags) {
    if (name == spec.flag) return spec.kind != ServingValue::toggle;
  }
  for (const ScenarioFlag& spec : kScenarioFlags) {
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
    if (!known) fail(excerpt(word) + ": unknown option here (see --help)");
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

void refuse_unless_regular(const std::string& path, const struct stat& info) {
  if (!S_ISREG(info.st_mode))
    fail(file_name(path) + ": is " + std::string(file_kind(info.st_mode)) + ", not a regular file");
  const auto limit = static_cast<off_t>(limits::max_document_bytes);
  if (info.st_size > limit) {
    fail(file_name(path) + ": byte 0: document of " + std::to_string(info.st_size) +
         " bytes exceeds the limit of " + std::to_string(limit));
  }
}

// Reads a lesson or scenario file. Only a regular file is read, and one over the loader's size
// limit is refused by its size before any of it is read: a directory, a device or a FIFO is
// refused by its kind from stat(), so a FIFO without a writer is never opened (opening it would
// block). The file is then opened non-blocking and checked again through its descriptor, in case
// the path was swapped between the two looks.
std::string read_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    fail(file_name(path) + ": cannot open the file (" + std::strerror(errno) + ")");
  refuse_unless_regular(path, info);
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
  refuse_unless_regular(path, info);
  // One byte over the limit is read, so a file that grew since fstat is still refused.
  std::string text(limits::max_document_bytes + 1, '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const ssize_t got = ::read(file.fd, text.data() + filled, text.size() - filled);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      fail(file_name(path) + ": cannot read the file (" + std::strerror(errno) + ")");
    }
    filled += static_cast<std::size_t>(got);
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
    auto verified = verify_published_name(source.second, *digest);
    if (!verified) fail(file_name(source.second) + ": " + verified.error());
  }
  return source;
}

Lesson load_lesson_or_fail(const std::pair<std::string, std::string>& source) {
  auto lesson = parse_lesson(source.first);
  if (!lesson) fail(file_name(source.second) + ": " + lesson.error());
  return lesson.value();
}

void print_heading(const std::string& title) {
  std::cout << '\n' << title << '\n' << std::string(title.size(), '-') << '\n';
}

int run_lesson(const Args& args) {
  const Lesson lesson = load_lesson_or_fail(lesson_source(args));
  std::cout << lesson.name << '\n'
            << std::string(lesson.name.size(), '=') << '\n'
            << lesson.role << '\n';
  std::cout << (lesson.branch ? *lesson.branch + " · " : "") << lesson.scale << '\n';
  print_heading("Learning objective");
  std::cout << lesson.learning_objective << '\n';
  print_heading("The mechanism");
  std::cout << lesson.description << "\n\n";
  for (std::size_t i = 0; i < lesson.mechanism.size(); ++i)
    std::cout << "  " << i + 1 << ". " << lesson.mechanism[i] << '\n';
  print_heading("Science and assumptions");
  for (const Science& science : lesson.science) {
    std::cout << science.title << ": " << science.equation << '\n'
              << science.explanation << '\n'
              << "Assumptions: " << science.assumptions << '\n';
  }
  print_heading("Engineering example");
  std::cout << lesson.engineering_example << '\n';
  print_heading("Distinctions and tradeoffs");
  std::cout << "Misconception: " << lesson.misconception << "\nTradeoff: " << lesson.tradeoff
            << "\nWhy it matters for AI: " << lesson.why_ai << '\n';
  print_heading("Specifications and interfaces");
  for (const Spec& spec : lesson.specs)
    std::cout << spec.label << ": " << spec.value << " — " << spec.context << '\n';
  for (const Interface& interface : lesson.interfaces) {
    // The Atlas allows any direction string; "in" and "out" read as the lesson page shows them.
    const std::string& way = interface.direction;
    const std::string label = way == "in" ? "Input" : way == "out" ? "Output" : way;
    std::cout << label << ": " << interface.name << " — " << interface.signal << '\n';
  }
  print_heading("Check your understanding");
  std::cout << lesson.check.question << '\n';
  for (std::size_t i = 0; i < lesson.check.options.size(); ++i)
    std::cout << "  " << i + 1 << ". " << lesson.check.options[i] << '\n';
  std::cout << "(answer with: prefill-trace quiz --answer N)\n";
  print_heading("Evidence and scope");
  std::cout << lesson.evidence_notes << '\n';
  if (lesson.lab_scope) std::cout << *lesson.lab_scope << '\n';
  print_heading("Sources");
  for (const Source& source : lesson.sources)
    std::cout << "- " << source.title << " <" << source.url << ">\n";
  print_heading("Continue exploring");
  std::cout << "Foundations:";
  for (const auto& id : lesson.prerequisites) std::cout << ' ' << id;
  std::cout << "\nRelated lessons:";
  for (const auto& id : lesson.related) std::cout << ' ' << id;
  std::cout << '\n';
  return kOk;
}

// Flags read numbers by the one rule the page also uses (src/number_text.hpp).
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
         excerpt(text));
  }
  return static_cast<std::size_t>(number) - 1;
}

int run_quiz(const Args& args) {
  const auto answer = option(args, "--answer");
  if (!answer)
    fail("quiz: --answer N is required (N = 1, 2 or 3, as printed by `prefill-trace lesson`)");
  const Lesson lesson = load_lesson_or_fail(lesson_source(args));
  // Both numbers are 1-based, as `prefill-trace lesson` prints them; the engine counts from 0.
  const std::size_t check =
      option(args, "--check")
          ? parse_ordinal("--check", *option(args, "--check"), 1 + lesson.checks.size(),
                          "a check number",
                          " (1 is the lesson's check, 2 and up its further checks)")
          : 0;
  const QuizCheck& asked = check == 0 ? lesson.check : lesson.checks[check - 1];
  const std::size_t choice =
      parse_ordinal("--answer", *answer, asked.options.size(), "an option number");
  auto outcome = check_answer(lesson, static_cast<double>(check), static_cast<double>(choice));
  if (!outcome) fail(outcome.error());  // unreachable: both numbers were checked above
  std::cout << (outcome->correct ? "Correct." : "Not quite.") << " The answer is "
            << outcome->correct_index + 1 << ": "
            << asked.options[static_cast<std::size_t>(outcome->correct_index)] << "\n"
            << outcome->explanation << '\n';
  return outcome->correct ? kOk : kWrong;
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
  const std::string key = spec.key;
  return key != "prompt_tokens" && key != "batch" && key != "chunk_tokens" &&
         key != "arrival_rate" && key != "delivery_seconds";
}

ScenarioInput scenario_input(const Args& args, bool serving = false) {
  ScenarioInput input{{{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}}, {}, {}};
  if (const auto file = option(args, "--scenario")) {
    auto parsed = parse_strict_json(read_file(*file));
    if (!parsed) fail(file_name(*file) + ": " + parsed.error());
    if (!parsed->is_object()) fail(file_name(*file) + ": a scenario must be a JSON object");
    input.file = *file;
    for (const auto& item : parsed->items()) {
      input.value[item.key()] = item.value();
      input.file_keys.push_back(item.key());
    }
  }
  for (const ScenarioFlag& spec : kScenarioFlags) {
    const auto value = option(args, spec.flag);
    if (!value || (serving && !serve_takes_scenario_flag(spec))) continue;
    if (!spec.numeric) {
      input.value[spec.key] = *value;
      continue;
    }
    const double number = parse_number(spec.flag, *value);
    // Integral values travel as JSON integers so integer fields accept them exactly.
    if (number == std::floor(number) && std::fabs(number) < 9e15) {
      input.value[spec.key] = static_cast<int64_t>(number);
    } else {
      input.value[spec.key] = number;
    }
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
  for (const ScenarioFlag& spec : kScenarioFlags) {
    if (top == spec.key && option(args, spec.flag)) {
      if (error.path == std::string("/") + spec.key)
        return std::string(spec.flag) + " (" + error.path + "): " + error.what;
      return std::string(spec.flag) + ": " + error.message;
    }
  }
  // The file's keys as the engine's paths show them (escaped per RFC 6901, bounded): a key
  // holding '/' or ':' is still found.
  for (const std::string& key : input.file_keys) {
    const std::string shown = child_path("", key);
    if (error.path == shown || error.path.rfind(shown + "/", 0) == 0) {
      return file_name(*input.file) + ": " + error.message;
    }
  }
  return error.message;
}

Scenario scenario_or_fail(const Args& args) {
  const ScenarioInput input = scenario_input(args);
  auto scenario = scenario_from_json(input.value);
  if (!scenario) fail(with_source(args, input, scenario.failure()));
  return scenario.value();
}

std::vector<std::string> bundled_mechanism() {
  auto lesson = parse_lesson(api::bundled_lesson_text());
  return lesson ? lesson->mechanism : std::vector<std::string>{};
}

void print_table(const Trace& trace) {
  using cli::bytes;
  using cli::plain;
  using cli::seconds;
  using cli::si;
  const Scenario& s = trace.scenario;
  std::cout << "Prefill trace: " << s.model.name << " on " << s.hardware.name << ", "
            << s.precision.name << " (weights " << dtype_name(s.precision.weights)
            << ", activations " << dtype_name(s.precision.activations) << ", KV "
            << dtype_name(s.precision.kv) << ")\n"
            << "T = " << s.workload.prompt_tokens << " prompt tokens × B = " << s.workload.batch
            << " requests, "
            << (s.workload.attention == AttentionKind::fused ? "fused" : "materialized")
            << " attention, " << trace.chunking.chunks << " chunk(s) of "
            << trace.chunking.chunk_tokens << " tokens\n"
            << (s.workload.tensor_parallel > 1
                    ? "Tensor parallel over " + std::to_string(s.workload.tensor_parallel) +
                          " devices: every figure below is per device\n"
                    : "")
            << "Parameters: " << si(trace.parameters, "")
            << "  ridge point: " << plain(trace.projection.ridge_flops_per_byte)
            << " FLOP/byte\n\n";
  std::printf("%-20s %4s %5s %12s %22s %10s %11s %9s\n", "operator", "step", "runs", "FLOPs/run",
              "HBM bytes/run", "FLOP/byte", "time/run", "bound");
  for (const Operator& op : trace.operators) {
    std::printf("%-20s %4d %5.0f %12s %22s %10s %11s %9s\n", std::string(op.name).c_str(), op.step,
                op.count, si(op.flops, "FLOP").c_str(), bytes(op.hbm.total()).c_str(),
                plain(op.intensity).c_str(), seconds(op.seconds).c_str(), bound_name(op.bound));
  }
  std::cout << "\nSteps\n";
  for (const Step& step : trace.steps) {
    std::cout << "  " << step.number << ". " << step.title << ": ";
    if (step.operators.empty()) {
      std::cout << "no kernels of its own; see the memory ledger below\n";
      continue;
    }
    std::cout << si(step.totals.flops, "FLOP") << ", " << bytes(step.totals.hbm_bytes) << ", "
              << seconds(step.totals.seconds)
              << (step.bound ? std::string(", ") + bound_name(*step.bound) + "-bound" : "") << '\n';
  }
  const AttentionFacts& att = trace.attention;
  std::cout << "\nAttention: block " << att.block << ", causal pairs per head "
            << si(att.useful_pairs, "") << " useful / " << si(att.computed_pairs, "")
            << " computed; score matrix " << bytes(att.score_matrix_bytes)
            << (att.materialized ? " materialized" : " kept on chip") << '\n'
            << "KV state left behind: " << bytes(att.kv_bytes_written) << " ("
            << bytes(att.kv_bytes_per_token) << " per token)\n";
  const MemoryLedger& mem = trace.memory;
  std::cout << "Memory: weights " << bytes(mem.weight_bytes) << " + KV " << bytes(mem.kv_bytes)
            << " + temporaries " << bytes(mem.temporaries_bytes) << " = " << bytes(mem.peak_bytes)
            << " of " << bytes(mem.capacity_bytes) << ": "
            << (mem.fits ? "fits" : "does not fit, exceeds by " + bytes(mem.exceeds_by_bytes))
            << '\n';
  const Ttft& ttft = trace.ttft;
  std::cout << "TTFT: queue "
            << (ttft.queue_seconds ? seconds(*ttft.queue_seconds) : std::string("unbounded"))
            << " + execution " << seconds(ttft.execution_seconds) << " + delivery "
            << seconds(ttft.delivery_seconds) << " = "
            << (ttft.total_seconds ? seconds(*ttft.total_seconds) : std::string("unbounded"))
            << (ttft.overloaded ? "  (overloaded: utilization " + plain(ttft.utilization) + " >= 1)"
                                : "")
            << '\n';
  const DecodeComparison& decode = trace.decode;
  std::cout << "Decode step at context " << decode.context_tokens << ": " << seconds(decode.seconds)
            << ", " << plain(decode.intensity) << " FLOP/byte, " << bound_name(decode.bound)
            << "-bound (prefill: " << plain(decode.prefill_intensity) << " FLOP/byte, "
            << bound_name(decode.prefill_bound) << "-bound)\n";
  std::cout << "\nStated omissions:\n";
  for (const auto& assumption : trace.assumptions) std::cout << "  - " << assumption << '\n';
}

std::vector<std::string> scenario_options() {
  std::vector<std::string> options = {"--scenario"};
  for (const ScenarioFlag& spec : kScenarioFlags) options.emplace_back(spec.flag);
  return options;
}

int run_trace(const Args& args) {
  if (!args.positional.empty()) fail("trace: unexpected argument " + typed(args.positional[0]));
  const int formats = (option(args, "--json") ? 1 : 0) + (option(args, "--csv") ? 1 : 0) +
                      (option(args, "--table") ? 1 : 0);
  if (formats > 1) fail("trace: choose one of --json, --csv, --table");
  const Trace trace = compute_trace(scenario_or_fail(args), bundled_mechanism());
  if (option(args, "--json")) {
    std::cout << dump_json(trace_to_json(trace)) << '\n';
  } else if (option(args, "--csv")) {
    std::cout << trace_to_csv(trace);
  } else {
    print_table(trace);
  }
  return kOk;
}

// A refused reply's error: code, path and message; error_at wrote the message as "path: what".
template <typename Reply>
Error reply_error(const Reply& reply) {
  const std::string what =
      reply.path.empty() ? reply.error : reply.error.substr(reply.path.size() + 2);
  return Error{reply.error, reply.code, reply.path, what};
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
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= values_text->size()) {
    const auto comma = values_text->find(',', start);
    const auto piece =
        values_text->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (values.size() >= limits::max_sweep_points) {
      fail("--values: more than " + std::to_string(limits::max_sweep_points) + " values");
    }
    values.push_back(parse_number("--values: value " + std::to_string(values.size() + 1), piece));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  const ScenarioInput input = scenario_input(args);
  const auto reply = api::sweep(dump_json(input.value), *variable, values);
  if (!reply.ok) fail(sweep_error(args, input, reply));
  std::cout << reply.json << '\n';
  return kOk;
}

std::string summary_line(const json& summary) {
  if (!summary.is_object()) return "none (no request has it)";
  return "mean " + cli::seconds(summary["mean"].get<double>()) + ", p50 " +
         cli::seconds(summary["p50"].get<double>()) + ", p90 " +
         cli::seconds(summary["p90"].get<double>()) + ", p99 " +
         cli::seconds(summary["p99"].get<double>());
}

void print_serving_table(const json& r) {
  const json& c = r["serving"];
  std::cout << "Serving: " << r["model"].get<std::string>() << " on "
            << r["hardware"].get<std::string>() << ", " << r["precision"].get<std::string>()
            << ", timing " << r["timing"].get<std::string>() << ", policy "
            << r["policy"].get<std::string>() << ", " << r["devices"].get<int64_t>()
            << " device(s)\n"
            << "Workload: " << r["requests"].get<int64_t>() << " requests, prompt "
            << c["prompt"].get<std::string>() << ", output " << c["output"].get<std::string>()
            << ", arrivals " << c["arrival"].get<std::string>();
  if (c["rate"].is_number()) std::cout << " at " << cli::plain(c["rate"].get<double>()) << " req/s";
  std::cout << "\nCompleted " << r["completed_requests"].get<int64_t>() << " in "
            << cli::seconds(r["simulated_seconds"].get<double>()) << " simulated ("
            << r["iterations"].get<int64_t>() << " iterations)";
  if (r["overloaded"].get<bool>())
    std::cout << "  OVERLOADED: " << r["overload"]["reason"].get<std::string>();
  std::cout << "\n  TTFT     " << summary_line(r["ttft_seconds"]) << "\n  TPOT     "
            << summary_line(r["tpot_seconds"]) << "\n  max TBT  "
            << summary_line(r["tbt_max_seconds"]) << "\n  e2e      "
            << summary_line(r["e2e_seconds"]) << "\n  queue    " << summary_line(r["queue_seconds"])
            << '\n';
  std::cout << "Throughput " << cli::plain(r["throughput_requests_per_second"].get<double>())
            << " req/s, " << cli::plain(r["throughput_tokens_per_second"].get<double>())
            << " output tok/s; busy " << cli::plain(r["busy_fraction"].get<double>()) << '\n';
  if (r["slo_attainment"].is_number())
    std::cout << "SLO attainment " << cli::plain(r["slo_attainment"].get<double>()) << '\n';
  if (r.contains("goodput_requests_per_second") && r["goodput_requests_per_second"].is_null()) {
    std::cout
        << "Goodput unbounded: every rate tried meets attainment >= "
        << cli::plain(r["goodput"]["target"].get<double>())
        << ", even with all requests arriving at once (too few requests to load the device)\n";
  } else if (r.contains("goodput_requests_per_second")) {
    std::cout << "Goodput " << cli::plain(r["goodput_requests_per_second"].get<double>())
              << " req/s (" << cli::plain(r["goodput_per_device"].get<double>())
              << " per device) at attainment >= "
              << cli::plain(r["goodput"]["target"].get<double>()) << '\n';
  }
  if (r.contains("sweep")) {
    for (const json& point : r["sweep"]) {
      std::cout << "  rate " << cli::plain(point["rate_requests_per_second"].get<double>())
                << ": attainment "
                << (point["slo_attainment"].is_number()
                        ? cli::plain(point["slo_attainment"].get<double>())
                        : std::string("-"))
                << ", TTFT " << summary_line(point["ttft_seconds"]) << '\n';
    }
  }
}

// Splits "a,b,c" and reads each as a number, naming the flag and the 1-based position.
std::vector<double> parse_number_list(const std::string& flag, const std::string& text) {
  std::vector<double> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    const auto comma = text.find(',', start);
    const auto piece =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (values.size() >= limits::max_sweep_points) {
      fail(flag + ": more than " + std::to_string(limits::max_sweep_points) + " values");
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

// Names the flag (or the file) an engine error's JSON path came from.
std::string serve_error(const Args& args, const ScenarioInput& input, const Error& error) {
  const std::string prefix = "/serving/";
  if (error.path.rfind(prefix, 0) == 0) {
    const std::string key =
        error.path.substr(prefix.size(), error.path.find('/', prefix.size()) - prefix.size());
    for (const ServingFlag& spec : kServingFlags) {
      if (key == spec.key && option(args, spec.flag))
        return std::string(spec.flag) + " (" + error.path + "): " + error.what;
    }
    if (input.file) return *input.file + ": " + error.message;
  }
  if (error.path == "/serving" && input.file) return *input.file + ": " + error.message;
  return with_source(args, input, error);
}

int run_serve(const Args& args) {
  if (!args.positional.empty()) fail("serve: unexpected argument \"" + args.positional[0] + "\"");
  const int formats = (option(args, "--json") ? 1 : 0) + (option(args, "--csv") ? 1 : 0) +
                      (option(args, "--table") ? 1 : 0);
  if (formats > 1) fail("serve: choose one of --json, --csv, --table");
  if (option(args, "--prompt") && option(args, "--prompt-dist"))
    fail("--prompt-dist: give --prompt T or --prompt-dist D, not both");
  if (option(args, "--output") && option(args, "--output-dist"))
    fail("--output-dist: give --output O or --output-dist D, not both");
  ScenarioInput input = scenario_input(args, true);
  json serving = json::object();
  if (input.value.contains("serving")) {
    if (!input.value["serving"].is_object()) fail(*input.file + ": /serving: must be an object");
    serving = input.value["serving"];
  }
  for (const ServingFlag& spec : kServingFlags) {
    const auto value = option(args, spec.flag);
    if (!value) continue;
    switch (spec.kind) {
      case ServingValue::number:
        serving[spec.key] = json_number(parse_number(spec.flag, *value));
        break;
      case ServingValue::text:
        serving[spec.key] = *value;
        break;
      case ServingValue::list: {
        json list = json::array();
        for (const double rate : parse_number_list(spec.flag, *value)) list.push_back(rate);
        serving[spec.key] = list;
        break;
      }
      case ServingValue::toggle:
        serving[spec.key] = true;
        break;
    }
  }
  input.value["serving"] = serving;
  const std::string text = dump_json(input.value);
  if (option(args, "--csv")) {
    const auto reply = api::simulate_serving_csv(text);
    if (!reply.ok) fail(serve_error(args, input, reply_error(reply)));
    std::cout << reply.csv;
    return kOk;
  }
  const auto reply = api::simulate_serving(text);
  if (!reply.ok) fail(serve_error(args, input, reply_error(reply)));
  if (option(args, "--json")) {
    std::cout << reply.json << '\n';
    return kOk;
  }
  print_serving_table(json::parse(reply.json, nullptr, false));
  return kOk;
}

int run_presets(const Args& args) {
  const Presets& presets = builtin_presets();
  if (option(args, "--json")) {
    std::cout << dump_json(presets_to_json(presets), 2) << '\n';
    return kOk;
  }
  std::cout << "Models:\n";
  for (const ModelShape& m : presets.models) {
    std::printf(
        "  %-16s %-20s L=%-4lld d=%-6lld heads %lld/%lld d_ff=%-6lld V=%-7lld %s\n", m.id.c_str(),
        m.name.c_str(), static_cast<long long>(m.layers), static_cast<long long>(m.d_model),
        static_cast<long long>(m.query_heads), static_cast<long long>(m.kv_heads),
        static_cast<long long>(m.d_ff), static_cast<long long>(m.vocab),
        m.experts > 1
            ? ("MoE " + std::to_string(m.active_experts) + "/" + std::to_string(m.experts)).c_str()
            : "");
  }
  std::cout << "Accelerators (dense peaks):\n";
  for (const Accelerator& a : presets.accelerators) {
    std::printf("  %-14s %-32s %s bf16, %s/s, %s\n", a.id.c_str(), a.name.c_str(),
                a.peak_flops.has(DType::bf16)
                    ? cli::si(a.peak_flops.at(DType::bf16), "FLOP/s").c_str()
                    : "-",
                cli::si(a.memory_bandwidth, "B").c_str(), cli::bytes(a.memory_capacity).c_str());
  }
  std::cout << "Precisions: bf16, fp16, fp8 (W8A8, fp8 KV), int8 (W8A8, bf16 KV), int4 (W4A16)\n";
  return kOk;
}

int run(int argc, char** argv) {
  try {
    if (argc < 2) fail("missing command (lesson, quiz, trace, sweep, serve, presets); see --help");
    const std::string command = argv[1];
    if (command == "--help" || command == "-h" || command == "help") {
      std::cout << kUsage;
      return kOk;
    }
    if (command == "--version") {
      std::cout << "prefill-trace " << PREFILL_TRACE_VERSION << '\n';
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
      std::vector<std::string> options = {"--scenario", "--json", "--csv", "--table"};
      for (const ScenarioFlag& spec : kScenarioFlags) {
        if (serve_takes_scenario_flag(spec)) options.emplace_back(spec.flag);
      }
      for (const ServingFlag& spec : kServingFlags) options.emplace_back(spec.flag);
      return run_serve(parse_args(argc, argv, 2, options));
    }
    if (command == "presets") return run_presets(parse_args(argc, argv, 2, {"--json"}));
    fail("unknown command " + typed(command) + "; see --help");
  } catch (const Failure& failure) {
    // Every piece quoted from input is escaped where it is quoted; escaping the whole line once
    // more (a no-op on escaped text) keeps it one printable line whatever a message missed.
    std::cerr << "prefill-trace: " << excerpt(failure.message, failure.message.size()) << '\n';
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
