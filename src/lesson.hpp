#pragma once
// The Atlas lesson record, parsed and validated against the Atlas lesson contract
// (../shared/README.md; the Atlas's own lesson-contract.ts). Unknown fields are kept in
// `document` and otherwise ignored: the Atlas adds fields between versions.

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json_path.hpp"
#include "prefill_trace/result.hpp"

namespace prefill_trace {

struct Spec {
  std::string label;
  std::string value;
  std::string context;
};

enum class Direction { in, out };

struct Interface {
  std::string name;
  Direction direction;
  std::string signal;
};

struct Source {
  std::string title;
  std::string url;  // always https:// (validated)
};

/// One multiple-choice check: exactly three options, `answer` is a 0-based index into them.
struct QuizCheck {
  std::string question;
  std::array<std::string, 3> options;
  int answer;
  std::string explanation;
};

struct Science {
  std::string title;
  std::string equation;  // plain-text form; LaTeX lives in the equation pack
  std::string explanation;
  std::string assumptions;
};

struct Lesson {
  std::string id;
  std::string level;
  std::string name;
  std::string short_name;
  std::string role;
  std::string description;
  std::vector<Spec> specs;
  std::vector<Interface> interfaces;
  std::string tradeoff;
  std::string why_ai;
  std::vector<std::string> related;
  std::vector<Source> sources;
  std::string scale;
  std::string kind;
  std::vector<std::string> mechanism;  // at least 3 steps
  std::string misconception;
  QuizCheck check;
  std::vector<QuizCheck> checks;  // optional further checks (`checks?`)
  std::vector<Science> science;
  std::vector<std::string> prerequisites;
  std::string learning_objective;
  std::string engineering_example;
  std::string evidence_notes;
  std::optional<std::string> branch, subbranch, workstream, visual_family, lab_id, deep_lab_id,
      investigation_id, scope, lab_scope;

  /// The whole validated document, unknown fields included, for re-serialization.
  nlohmann::json document;
};

/// Parses and validates lesson-data JSON text. The error names the JSON path, e.g.
/// "/check/answer: must be an integer index into /check/options (3 items)".
Result<Lesson> parse_lesson(std::string_view text, const JsonLimits& limits = {});

/// Checks that `text` hashes to the SHA-256 prefix carried in a published file name such as
/// "prefill-resource-trace-a76d037833bd69f7.json". `sha256_hex` is the caller's digest of the
/// bytes (the core does no hashing or I/O of its own).
Result<bool> verify_published_name(std::string_view file_name, std::string_view sha256_hex);

}  // namespace prefill_trace
