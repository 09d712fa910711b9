#pragma once
// The Atlas lesson record, parsed and validated against the Atlas lesson contract: exactly the
// union of the three gates a published lesson passes in the Atlas repository (its reader
// src/lib/lesson-contract.ts, its publish step scripts/generate-catalog.mjs and its CI check
// scripts/validate-atlas.mjs), nothing stricter and nothing looser. docs/robustness.md lists
// each rule with its origin. Unknown fields are kept in `document` and otherwise ignored: the
// Atlas adds fields between versions.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json_path.hpp"
#include "prefill_trace/result.hpp"

namespace prefill_trace {

// Strings below may be empty unless a comment says otherwise: the Atlas checks only their type.

struct Spec {
  std::string label;
  std::string value;
  std::string context;
};

struct Interface {
  std::string name;
  std::string direction;  // "in" and "out" in practice; the Atlas allows any string
  std::string signal;
};

struct Source {
  std::string title;
  std::string url;  // in /sources: starts with "https://" (validated); in /history: any string
};

/// One multiple-choice check; `answer` is a 0-based index into `options`. The lesson's main
/// check has exactly three options, a further check (`checks[]`) at least two.
struct QuizCheck {
  std::string question;
  std::vector<std::string> options;
  int answer = 0;
  std::string explanation;
};

struct Science {
  std::string title;
  std::string equation;  // plain-text form; LaTeX lives in the equation pack
  std::string explanation;
  std::string assumptions;
};

struct HistoryEntry {
  std::string year;  // as published: a string ("c. 1947"), or a number's JSON text ("1947")
  std::string title;
  std::string significance;
  Source source;
};

/// id, name, short_name, role, description, learning_objective, engineering_example and
/// evidence_notes are never blank (JavaScript's trim() leaves something of them).
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
  std::vector<Source> sources;  // at least one
  std::string scale;
  std::string kind;
  std::vector<std::string> mechanism;  // at least 3 steps
  std::string misconception;
  QuizCheck check;
  std::vector<QuizCheck> checks;      // optional further checks (`checks?`)
  std::vector<Science> science;       // at least one entry
  std::vector<HistoryEntry> history;  // optional (`history?`)
  std::vector<std::string> prerequisites;
  std::string learning_objective;
  std::string engineering_example;
  std::string evidence_notes;
  std::optional<std::string> branch, subbranch, workstream, visual_family, lab_id, deep_lab_id,
      investigation_id, lab_scope;
  /// No Atlas gate checks `scope`; it is read when it is a string and otherwise left in
  /// `document` like any unknown field.
  std::optional<std::string> scope;

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
