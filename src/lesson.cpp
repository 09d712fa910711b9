#include "lesson.hpp"

#include <cmath>
#include <string>

namespace prefill_trace {
namespace {

using nlohmann::json;

// Reads a parsed lesson against the contract. The first violation is recorded in `errors_`;
// after it, every reader returns empty placeholders, so reading finishes without exceptions
// and the reported error is the first one met, in document order.
class LessonReader {
 public:
  Lesson read(const json& document) {
    const std::string root;  // the document itself: paths below start with "/"
    if (!document.is_object()) {
      errors_.fail("/", "the lesson must be a JSON object, not " + json_type_name(document));
      return {};
    }
    Lesson lesson;
    lesson.id = required_text(document, root, "id");
    lesson.level = required_text(document, root, "level");
    lesson.name = required_text(document, root, "name");
    lesson.short_name = required_text(document, root, "shortName");
    lesson.role = required_text(document, root, "role");
    lesson.description = required_text(document, root, "description");
    lesson.specs = list_at<Spec>(member(document, root, "specs"), "/specs", &LessonReader::spec);
    lesson.interfaces = list_at<Interface>(member(document, root, "interfaces"), "/interfaces",
                                           &LessonReader::interface_at);
    lesson.tradeoff = required_text(document, root, "tradeoff");
    lesson.why_ai = required_text(document, root, "whyAI");
    lesson.related =
        list_at<std::string>(member(document, root, "related"), "/related", &LessonReader::text_at);
    lesson.sources =
        list_at<Source>(member(document, root, "sources"), "/sources", &LessonReader::source);
    if (lesson.sources.empty()) errors_.fail("/sources", "must list at least one source");
    lesson.scale = required_text(document, root, "scale");
    lesson.kind = required_text(document, root, "kind");
    lesson.branch = optional_text(document, root, "branch");
    lesson.subbranch = optional_text(document, root, "subbranch");
    lesson.mechanism = list_at<std::string>(member(document, root, "mechanism"), "/mechanism",
                                            &LessonReader::text_at);
    if (lesson.mechanism.size() < 3) {
      errors_.fail("/mechanism",
                   "must hold at least 3 steps, not " + std::to_string(lesson.mechanism.size()));
    }
    lesson.misconception = required_text(document, root, "misconception");
    lesson.check = check(member(document, root, "check"), "/check");
    lesson.checks = optional_list<QuizCheck>(document, root, "checks", &LessonReader::check);
    lesson.science = optional_list<Science>(document, root, "science", &LessonReader::science);
    if (const auto it = document.find("history"); it != document.end()) {
      expect_array(*it, "/history");
    }
    lesson.prerequisites =
        optional_list<std::string>(document, root, "prerequisites", &LessonReader::text_at);
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

  const FirstError& errors() const { return errors_; }

 private:
  template <typename Element>
  using ReadOne = Element (LessonReader::*)(const json&, const std::string&);

  const json& member(const json& object, const std::string& path, const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) {
      errors_.fail(child_path(path, key), "is required");
      return json_null();
    }
    return *it;
  }

  const json& expect_object(const json& value, const std::string& path) {
    if (value.is_object()) return value;
    errors_.fail(path, "must be an object, not " + json_type_name(value));
    return json_empty_object();
  }

  const json& expect_array(const json& value, const std::string& path) {
    if (value.is_array()) return value;
    errors_.fail(path, "must be an array, not " + json_type_name(value));
    return json_empty_array();
  }

  std::string text_at(const json& value, const std::string& path) {
    if (!value.is_string()) {
      errors_.fail(path, "must be a string, not " + json_type_name(value));
      return {};
    }
    const auto& text = value.get_ref<const std::string&>();
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
      errors_.fail(path, "must be a non-empty string");
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

  template <typename Element>
  std::vector<Element> list_at(const json& value, const std::string& path,
                               ReadOne<Element> read_one) {
    const json& list = expect_array(value, path);
    std::vector<Element> out;
    out.reserve(list.size());
    for (std::size_t i = 0; i < list.size(); ++i) {
      out.push_back((this->*read_one)(list[i], child_path(path, i)));
    }
    return out;
  }

  template <typename Element>
  std::vector<Element> optional_list(const json& object, const std::string& path, const char* key,
                                     ReadOne<Element> read_one) {
    const auto it = object.find(key);
    if (it == object.end()) return {};
    return list_at<Element>(*it, child_path(path, key), read_one);
  }

  QuizCheck check(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    QuizCheck check;
    check.question = required_text(object, path, "question");
    const std::string options_path = child_path(path, "options");
    const json& options = expect_array(member(object, path, "options"), options_path);
    if (options.size() != check.options.size()) {
      errors_.fail(options_path,
                   "must hold exactly 3 options, not " + std::to_string(options.size()));
      return check;
    }
    for (std::size_t i = 0; i < options.size(); ++i) {
      check.options[i] = text_at(options[i], child_path(options_path, i));
    }
    const json& answer = member(object, path, "answer");
    // Only a JSON integer counts: 0.0, "0" and true are not indices.
    const bool integer = answer.is_number_integer();
    const long long index = integer ? answer.get<long long>() : -1;
    if (!integer || index < 0 || index >= static_cast<long long>(options.size())) {
      errors_.fail(child_path(path, "answer"),
                   "must be an integer index into " + options_path + " (3 items)");
      return check;
    }
    check.answer = static_cast<int>(index);
    check.explanation = required_text(object, path, "explanation");
    return check;
  }

  Spec spec(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    // Members are read in this order (braced initializers evaluate left to right), so the
    // first missing one is the one reported.
    return Spec{required_text(object, path, "label"), required_text(object, path, "value"),
                required_text(object, path, "context")};
  }

  Interface interface_at(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    Interface interface {
      required_text(object, path, "name"), Direction::in, {}
    };
    const std::string direction = required_text(object, path, "direction");
    if (direction == "out") {
      interface.direction = Direction::out;
    } else if (direction != "in") {
      errors_.fail(child_path(path, "direction"), "must be \"in\" or \"out\"");
    }
    interface.signal = required_text(object, path, "signal");
    return interface;
  }

  Source source(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    Source source{required_text(object, path, "title"), required_text(object, path, "url")};
    // Only https links reach the page as links; anything else (javascript:, http:, data:) is
    // refused here rather than sanitized later.
    const std::string prefix = "https://";
    if (source.url.compare(0, prefix.size(), prefix) != 0 || source.url.size() == prefix.size() ||
        source.url.find_first_of(" \t\r\n\"<>\\") != std::string::npos) {
      errors_.fail(child_path(path, "url"), "must be an https:// URL");
    }
    return source;
  }

  Science science(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    return Science{required_text(object, path, "title"), required_text(object, path, "equation"),
                   required_text(object, path, "explanation"),
                   required_text(object, path, "assumptions")};
  }

  FirstError errors_;
};

bool is_lower_hex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

Result<Lesson> parse_lesson(std::string_view text, const JsonLimits& limits) {
  auto document = parse_strict_json(text, limits);
  if (!document) return Error{document.error()};
  LessonReader reader;
  Lesson lesson = reader.read(document.value());
  if (reader.errors().failed()) return Error{reader.errors().message()};
  return lesson;
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
