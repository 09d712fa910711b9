#include "lesson.hpp"

#include <cmath>
#include <string>

namespace prefill_trace {
namespace {

using nlohmann::json;

struct ContractError {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw ContractError{path + ": " + what};
}

const json& member(const json& object, const std::string& path, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) fail(child_path(path, key), "is required");
  return *it;
}

const json& expect_object(const json& value, const std::string& path) {
  if (!value.is_object()) fail(path, "must be an object, not " + json_type_name(value));
  return value;
}

const json& expect_array(const json& value, const std::string& path) {
  if (!value.is_array()) fail(path, "must be an array, not " + json_type_name(value));
  return value;
}

std::string text_at(const json& value, const std::string& path) {
  if (!value.is_string()) fail(path, "must be a string, not " + json_type_name(value));
  const auto& text = value.get_ref<const std::string&>();
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    fail(path, "must be a non-empty string");
  }
  return text;
}

std::string required_text(const json& object, const std::string& path, const char* key) {
  return text_at(member(object, path, key), child_path(path, key));
}

std::optional<std::string> optional_text(const json& object, const std::string& path,
                                         const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  return text_at(*it, child_path(path, key));
}

template <typename Element, typename ReadOne>
std::vector<Element> list_at(const json& value, const std::string& path, ReadOne read_one) {
  expect_array(value, path);
  std::vector<Element> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    out.push_back(read_one(value[i], child_path(path, i)));
  return out;
}

std::vector<std::string> text_list(const json& value, const std::string& path) {
  return list_at<std::string>(value, path, text_at);
}

QuizCheck read_check(const json& value, const std::string& path) {
  expect_object(value, path);
  QuizCheck check;
  check.question = required_text(value, path, "question");
  const std::string options_path = child_path(path, "options");
  const json& options = expect_array(member(value, path, "options"), options_path);
  if (options.size() != check.options.size()) {
    fail(options_path, "must hold exactly 3 options, not " + std::to_string(options.size()));
  }
  for (std::size_t i = 0; i < options.size(); ++i) {
    check.options[i] = text_at(options[i], child_path(options_path, i));
  }
  const json& answer = member(value, path, "answer");
  // Only a JSON integer counts: 0.0, "0" and true are not indices.
  const bool integer = answer.is_number_integer();
  const long long index = integer ? answer.get<long long>() : -1;
  if (!integer || index < 0 || index >= static_cast<long long>(options.size())) {
    fail(child_path(path, "answer"),
         "must be an integer index into " + options_path + " (3 items)");
  }
  check.answer = static_cast<int>(index);
  check.explanation = required_text(value, path, "explanation");
  return check;
}

Spec read_spec(const json& value, const std::string& path) {
  expect_object(value, path);
  return Spec{required_text(value, path, "label"), required_text(value, path, "value"),
              required_text(value, path, "context")};
}

Interface read_interface(const json& value, const std::string& path) {
  expect_object(value, path);
  Interface interface {
    required_text(value, path, "name"), Direction::in, {}
  };
  const std::string direction = required_text(value, path, "direction");
  if (direction == "out") {
    interface.direction = Direction::out;
  } else if (direction != "in") {
    fail(child_path(path, "direction"), "must be \"in\" or \"out\"");
  }
  interface.signal = required_text(value, path, "signal");
  return interface;
}

Source read_source(const json& value, const std::string& path) {
  expect_object(value, path);
  Source source{required_text(value, path, "title"), required_text(value, path, "url")};
  // Only https links reach the page as links; anything else (javascript:, http:, data:) is
  // refused here rather than sanitized later.
  const std::string prefix = "https://";
  if (source.url.compare(0, prefix.size(), prefix) != 0 || source.url.size() == prefix.size() ||
      source.url.find_first_of(" \t\r\n\"<>\\") != std::string::npos) {
    fail(child_path(path, "url"), "must be an https:// URL");
  }
  return source;
}

Science read_science(const json& value, const std::string& path) {
  expect_object(value, path);
  return Science{required_text(value, path, "title"), required_text(value, path, "equation"),
                 required_text(value, path, "explanation"),
                 required_text(value, path, "assumptions")};
}

template <typename Element, typename ReadOne>
std::vector<Element> optional_list(const json& object, const std::string& path, const char* key,
                                   ReadOne read_one) {
  const auto it = object.find(key);
  if (it == object.end()) return {};
  return list_at<Element>(*it, child_path(path, key), read_one);
}

Lesson read_lesson(const json& document) {
  const std::string root;  // the document itself: paths below start with "/"
  if (!document.is_object())
    fail("/", "the lesson must be a JSON object, not " + json_type_name(document));
  Lesson lesson;
  lesson.id = required_text(document, root, "id");
  lesson.level = required_text(document, root, "level");
  lesson.name = required_text(document, root, "name");
  lesson.short_name = required_text(document, root, "shortName");
  lesson.role = required_text(document, root, "role");
  lesson.description = required_text(document, root, "description");
  lesson.specs = list_at<Spec>(member(document, root, "specs"), "/specs", read_spec);
  lesson.interfaces =
      list_at<Interface>(member(document, root, "interfaces"), "/interfaces", read_interface);
  lesson.tradeoff = required_text(document, root, "tradeoff");
  lesson.why_ai = required_text(document, root, "whyAI");
  lesson.related = text_list(member(document, root, "related"), "/related");
  lesson.sources = list_at<Source>(member(document, root, "sources"), "/sources", read_source);
  if (lesson.sources.empty()) fail("/sources", "must list at least one source");
  lesson.scale = required_text(document, root, "scale");
  lesson.kind = required_text(document, root, "kind");
  lesson.branch = optional_text(document, root, "branch");
  lesson.subbranch = optional_text(document, root, "subbranch");
  lesson.mechanism = text_list(member(document, root, "mechanism"), "/mechanism");
  if (lesson.mechanism.size() < 3) {
    fail("/mechanism",
         "must hold at least 3 steps, not " + std::to_string(lesson.mechanism.size()));
  }
  lesson.misconception = required_text(document, root, "misconception");
  lesson.check = read_check(member(document, root, "check"), "/check");
  lesson.checks = optional_list<QuizCheck>(document, root, "checks", read_check);
  lesson.science = optional_list<Science>(document, root, "science", read_science);
  if (const auto it = document.find("history"); it != document.end()) expect_array(*it, "/history");
  lesson.prerequisites = optional_list<std::string>(document, root, "prerequisites", text_at);
  lesson.learning_objective = required_text(document, root, "learningObjective");
  lesson.workstream = optional_text(document, root, "workstream");
  lesson.visual_family = optional_text(document, root, "visualFamily");
  lesson.engineering_example = required_text(document, root, "engineeringExample");
  lesson.evidence_notes = required_text(document, root, "evidenceNotes");
  lesson.lab_id = optional_text(document, root, "labId");
  lesson.deep_lab_id = optional_text(document, root, "deepLabId");
  lesson.investigation_id = optional_text(document, root, "investigationId");
  lesson.scope = optional_text(document, root, "scope");
  lesson.lab_scope = optional_text(document, root, "labScope");
  lesson.document = document;
  return lesson;
}

bool is_lower_hex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

Result<Lesson> parse_lesson(std::string_view text, const JsonLimits& limits) {
  auto document = parse_strict_json(text, limits);
  if (!document) return Error{document.error()};
  try {
    return read_lesson(document.value());
  } catch (const ContractError& error) {
    return Error{error.message};
  }
}

Result<bool> verify_published_name(std::string_view file_name, std::string_view sha256_hex) {
  // Published names end in "-<16 lowercase hex digits>.json".
  constexpr std::size_t prefix_digits = 16;
  const std::string_view suffix = ".json";
  const auto slash = file_name.find_last_of('/');
  if (slash != std::string_view::npos) file_name.remove_prefix(slash + 1);
  if (file_name.size() < prefix_digits + 1 + suffix.size() ||
      file_name.substr(file_name.size() - suffix.size()) != suffix) {
    return Error{"file name \"" + std::string(file_name) +
                 "\" does not carry a published hash (expected NAME-<16 hex digits>.json)"};
  }
  const auto digits =
      file_name.substr(file_name.size() - suffix.size() - prefix_digits, prefix_digits);
  const char dash = file_name[file_name.size() - suffix.size() - prefix_digits - 1];
  if (dash != '-' || !is_lower_hex(digits)) {
    return Error{"file name \"" + std::string(file_name) +
                 "\" does not carry a published hash (expected NAME-<16 hex digits>.json)"};
  }
  if (sha256_hex.size() != 64 || !is_lower_hex(sha256_hex)) {
    return Error{"digest must be 64 lowercase hex digits"};
  }
  if (sha256_hex.substr(0, prefix_digits) != digits) {
    return Error{"integrity: SHA-256 of the file begins " +
                 std::string(sha256_hex.substr(0, prefix_digits)) +
                 ", but its published name says " + std::string(digits)};
  }
  return true;
}

}  // namespace prefill_trace
