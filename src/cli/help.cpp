// The CLI's help: `--help` (every command), `help COMMAND` and `COMMAND --help` (one command's
// usage and the flag sections it takes). The flag lists are written here, one place, in the
// words the README uses.

#include "help.hpp"

#include "prefill_trace/version.hpp"

namespace prefill_trace::cli {
namespace {

// The help: a title, each command's usage (kCommands), the flag sections the commands share and
// the notes; `--help` prints all of it, `COMMAND --help` / `help COMMAND` the command's usage and
// the sections it takes (command_help).
const char* const kTitle =
    R"(prefill-trace: the prefill resource trace of the Atlas lesson "Prefill and prompt processing"
)";

const char* const kScenarioFlagsHelp =
    R"(scenario flags (defaults: llama-3.1-8b on h100-sxm, bf16, 2048 tokens, batch 1, fused):
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
                          vllm, sglang, llama.cpp, transformers, kernels (device time only),
                          vllm-0.2 (vllm's kernels; serve: 2023's host time per iteration)
  --attention-kernel NAME estimate only: auto (default), flash-attention-2, flash-attention-3
                          (Hopper only), flashinfer (not on CDNA3), sdpa
)";

const char* const kServingFlagsHelp =
    R"(serving flags (docs/serving.md; --scenario FILE with a "serving" object; of the scenario flags
(trace --help), the device's and the model's apply: --model, --hardware, --precision,
--tensor-parallel, --timing, --graphs, --stack, --attention, --attention-kernel, the efficiencies):
  --policy prefill-first|chunked|disaggregated (default chunked)
  --rate R (requests/s)   --requests N            --seed S (default 1)
  --prompt-length / --output-length  a token count, or fixed:T | uniform:A:B |
                          lognormal:MEAN:SIGMA (older spellings, still read: --prompt T,
                          --prompt-dist D, --output O, --output-dist D)
  --arrival poisson|gamma:CV                      --prefix-hit F (0..1, cached prompt share)
  --token-budget B        --max-batch N           --max-queue N (overload cap)
  --prefill-devices P --decode-devices D          (disaggregated: instances of each role)
  --prefill-tensor-parallel N --decode-tensor-parallel N
  --ttft-slo S --tpot-slo S --attainment A        --goodput (search the goodput)
  --sweep-rates R1,R2,...  --timeline-points N    (--sweep-rates: --json or --table, not --csv)
  --kv paged|reserve (default paged)              --block-size N (default 16; reserve: unit)
  --gpu-memory-utilization F (0..1; default 0.9 paged, 1 reserve)
  --token-times N         every token time of N requests (<= 64) around the longest prompt
                          (--json; the CSV leaves them out)
  --trace FILE            replay a request trace: Azure's CSV (TIMESTAMP,ContextTokens,
                          GeneratedTokens) or Mooncake JSON Lines; it sets the requests (no
                          --rate, --requests, --prompt-length, --output-length, --arrival)
  --trace-rate-scale X (arrivals / X; 1e-3..1e3)  --trace-limit N (its first N requests)
)";

const char* const kNumbersNote =
    R"(Numbers are plain decimals (2048, 0.5, 1e-3); hexadecimal, inf and nan are refused.
)";
const char* const kPathNote =
    R"(PATH defaults to the bundled lesson file. --verify checks the file's SHA-256 against the
16-hex-digit prefix in its published name.
)";
const char* const kExitNote =
    R"(Exit codes: 0 ok, 1 wrong answer, 2 bad input, bad usage or output that could not be written.
)";

// Which of the shared sections a command's help shows.
enum HelpSection : unsigned { kScenarioSection = 1, kServingSection = 2, kPathSection = 4 };
struct CommandHelp {
  const char* name;
  const char* usage;  // its lines under "usage:"
  unsigned sections;
};
constexpr CommandHelp kCommands[] = {
    {"lesson",
     R"(  prefill-trace lesson [--verify] [PATH]              print the lesson's sections as text
)",
     kPathSection},
    {"quiz", R"(  prefill-trace quiz --answer N [--check I] [--verify] [PATH]
                                                      check answer N (1-based, as printed) to
                                                      check I (1 = the lesson's check, the
                                                      default; 2, 3, ... = its further checks)
)",
     kPathSection},
    {"trace", R"(  prefill-trace trace [SCENARIO FLAGS] [--json | --csv | --table]
)",
     kScenarioSection},
    {"sweep",
     R"(  prefill-trace sweep --variable prompt_tokens|arrival_rate --values V1,V2,... [SCENARIO FLAGS]
)",
     kScenarioSection},
    {"serve",
     R"(  prefill-trace serve --rate R --requests N --prompt-length T|D --output-length O|D
                      [SERVING FLAGS] [--json | --csv | --table]
                                                      simulate many requests under load
)",
     kServingSection},
    {"plan",
     R"(  prefill-trace plan --devices N --rate R --requests N --prompt-length T|D --output-length O|D
                     --ttft-slo S|--tpot-slo S [SERVING FLAGS] [--json | --table]
                                                      search policy x instances x tensor
                                                      parallelism per phase within N devices
                                                      (1..16) for the most goodput per device;
                                                      --rate is where each search starts, and
                                                      --policy, the instance counts and TP are
                                                      the search's to choose
)",
     kServingSection},
    {"presets",
     R"(  prefill-trace presets [--json]                      list models, accelerators, precisions
)",
     0},
};

const CommandHelp* find_command(const std::string& name) {
  for (const CommandHelp& command : kCommands) {
    if (name == command.name) return &command;
  }
  return nullptr;
}

// Where the docs the help names live: the package ships the README, the repository has docs/.
std::string docs_note() {
  return std::string("Docs: the npm package's README.md; README.md and docs/ at\n  ") +
         PREFILL_TRACE_HOMEPAGE + " (this is version " + PREFILL_TRACE_VERSION + ")\n";
}

// `--help`: every command and section. `command` non-null: that command's usage and sections.
std::string compose(const CommandHelp* command) {
  std::string text = std::string(kTitle) + "\nusage:\n";
  unsigned sections = kScenarioSection | kServingSection | kPathSection;
  if (command) {
    text += command->usage;
    sections = command->sections;
  } else {
    for (const CommandHelp& each : kCommands) text += each.usage;
    text += "  prefill-trace help [COMMAND]    COMMAND --help|-h    --help|-h    --version|-V\n";
  }
  if (sections & kScenarioSection) text += std::string("\n") + kScenarioFlagsHelp;
  if (sections & kServingSection) text += std::string("\n") + kServingFlagsHelp;
  text += "\n";
  if (sections & (kScenarioSection | kServingSection)) text += kNumbersNote;
  if (sections & kPathSection) text += kPathNote;
  return text + kExitNote + docs_note();
}

}  // namespace

std::optional<std::string> help_text(const std::string& command) {
  if (command.empty()) return compose(nullptr);
  const CommandHelp* found = find_command(command);
  if (!found) return std::nullopt;
  return compose(found);
}

}  // namespace prefill_trace::cli
