#include "lesson.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>

#include "json_write.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// What JavaScript's String.prototype.trim() removes (ECMAScript WhiteSpace and LineTerminator:
// TAB, LF, VT, FF, CR, SPACE, NBSP, the other Zs spaces, LS, PS, ZWNBSP), in UTF-8; Node 20
// lists the same 25 code points (tests/cpp/lesson_test.cpp). The source is compiled as UTF-8.
constexpr std::string_view kJavaScriptWhiteSpace[] = {
    "\t",     "\n",     "\v",     "\f",     "\r",     " ",      "\u00A0", "\u1680", "\u2000",
    "\u2001", "\u2002", "\u2003", "\u2004", "\u2005", "\u2006", "\u2007", "\u2008", "\u2009",
    "\u200A", "\u2028", "\u2029", "\u202F", "\u205F", "\u3000", "\uFEFF"};

// True when `r[key].trim()` is empty in JavaScript, the test generate-catalog.mjs applies.
bool is_blank_as_in_javascript(std::string_view text) {
  while (!text.empty()) {
    const auto* space =
        std::find_if(std::begin(kJavaScriptWhiteSpace), std::end(kJavaScriptWhiteSpace),
                     [&](std::string_view s) { return text.substr(0, s.size()) == s; });
    if (space == std::end(kJavaScriptWhiteSpace)) return false;
    text.remove_prefix(space->size());
  }
  return true;
}

// Reads a parsed lesson against the contract. The first violation is recorded in `errors_`;
// after it, every reader returns empty placeholders, so reading finishes without exceptions
// and the reported error is the first one met, in the reader's field order. The comment on
// each rule names the Atlas gate it comes from (docs/robustness.md has the table):
//   reader  = src/lib/lesson-contract.ts, validateLessonRecord()
//   publish = scripts/generate-catalog.mjs
//   CI      = scripts/validate-atlas.mjs
class LessonReader {
 public:
  Lesson read(const json& document) {
    const std::string root;       // the document itself: paths below start with "/"
    if (!document.is_object()) {  // reader: object(value)
      errors_.fail(ErrorCode::wrong_type, "/",
                   "the lesson must be a JSON object, not " + json_type_name(document));
      return {};
    }
    // Strings: reader `required` (type only); publish `required` adds "non-blank" for some.
    Lesson lesson;
    lesson.id = nonblank_text(document, root, "id");
    lesson.level = text(document, root, "level");
    lesson.name = nonblank_text(document, root, "name");
    lesson.short_name = nonblank_text(document, root, "shortName");
    lesson.role = nonblank_text(document, root, "role");
    lesson.description = nonblank_text(document, root, "description");
    lesson.specs = list<Spec>(document, root, "specs", &LessonReader::spec);
    lesson.interfaces = list<Interface>(document, root, "interfaces", &LessonReader::interface_at);
    lesson.tradeoff = text(document, root, "tradeoff");
    lesson.why_ai = text(document, root, "whyAI");
    lesson.related = list<std::string>(document, root, "related", &LessonReader::text_at);
    lesson.sources = list<Source>(document, root, "sources", &LessonReader::source);
    // publish: assert.ok(r.sources.length); CI: r.sources?.length.
    if (lesson.sources.empty())
      errors_.fail(ErrorCode::out_of_range, "/sources", "must list at least one source");
    lesson.scale = text(document, root, "scale");
    lesson.kind = text(document, root, "kind");
    lesson.branch = optional_text(document, root, "branch");
    lesson.subbranch = optional_text(document, root, "subbranch");
    lesson.mechanism = list<std::string>(document, root, "mechanism", &LessonReader::text_at);
    if (lesson.mechanism.size() < 3) {  // CI: r.mechanism?.length>=3
      errors_.fail(ErrorCode::out_of_range, "/mechanism",
                   "must hold at least 3 steps, not " + std::to_string(lesson.mechanism.size()));
    }
    lesson.misconception = text(document, root, "misconception");
    lesson.check = main_check(member(document, root, "check"), "/check");
    lesson.checks =
        optional_list<QuizCheck>(document, root, "checks", &LessonReader::further_check);
    lesson.science = list<Science>(document, root, "science", &LessonReader::science);
    if (lesson.science.empty()) {  // CI: assert.ok(r.science?.length)
      errors_.fail(ErrorCode::out_of_range, "/science", "must hold at least one entry");
    }
    lesson.history = optional_list<HistoryEntry>(document, root, "history", &LessonReader::history);
    // reader: strings(prerequisites) when present; publish: Array.isArray(r.prerequisites).
    lesson.prerequisites =
        list<std::string>(document, root, "prerequisites", &LessonReader::text_at);
    lesson.learning_objective = nonblank_text(document, root, "learningObjective");
    lesson.workstream = optional_text(document, root, "workstream");
    lesson.visual_family = optional_text(document, root, "visualFamily");
    lesson.engineering_example = nonblank_text(document, root, "engineeringExample");
    lesson.evidence_notes = nonblank_text(document, root, "evidenceNotes");
    lesson.lab_id = optional_text(document, root, "labId");
    lesson.deep_lab_id = optional_text(document, root, "deepLabId");
    lesson.investigation_id = optional_text(document, root, "investigationId");
    if (const auto it = document.find("scope"); it != document.end() && it->is_string()) {
      lesson.scope = it->get<std::string>();  // no gate checks `scope`
    }
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
      errors_.fail(ErrorCode::missing_field, child_path(path, key), "is required");
      return json_null();
    }
    return *it;
  }

  const json& expect_object(const json& value, const std::string& path) {
    if (value.is_object()) return value;
    errors_.fail(ErrorCode::wrong_type, path, "must be an object, not " + json_type_name(value));
    return json_empty_object();
  }

  const json& expect_array(const json& value, const std::string& path) {
    if (value.is_array()) return value;
    errors_.fail(ErrorCode::wrong_type, path, "must be an array, not " + json_type_name(value));
    return json_empty_array();
  }

  // reader: typeof v === 'string' (empty and blank strings pass).
  std::string text_at(const json& value, const std::string& path) {
    if (!value.is_string()) {
      errors_.fail(ErrorCode::wrong_type, path, "must be a string, not " + json_type_name(value));
      return {};
    }
    return value.get<std::string>();
  }

  std::string text(const json& object, const std::string& path, const char* key) {
    return text_at(member(object, path, key), child_path(path, key));
  }

  // publish: typeof r[key]==='string' && r[key].trim() for id, name, shortName, role,
  // description, learningObjective, engineeringExample and evidenceNotes.
  std::string nonblank_text(const json& object, const std::string& path, const char* key) {
    const std::string key_path = child_path(path, key);
    std::string value = text_at(member(object, path, key), key_path);
    if (!errors_.failed() && is_blank_as_in_javascript(value)) {
      errors_.fail(ErrorCode::out_of_range, key_path, "must be a non-empty string");
    }
    return value;
  }

  // reader: value[key]!==undefined && typeof value[key]!=='string' is an error (null too).
  std::optional<std::string> optional_text(const json& object, const std::string& path,
                                           const char* key) {
    const auto it = object.find(key);
    if (it == object.end()) return std::nullopt;
    return text_at(*it, child_path(path, key));
  }

  template <typename Element>
  std::vector<Element> list_at(const json& value, const std::string& path,
                               ReadOne<Element> read_one) {
    const json& items = expect_array(value, path);
    std::vector<Element> out;
    out.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i) {
      out.push_back((this->*read_one)(items[i], child_path(path, i)));
    }
    return out;
  }

  template <typename Element>
  std::vector<Element> list(const json& object, const std::string& path, const char* key,
                            ReadOne<Element> read_one) {
    return list_at<Element>(member(object, path, key), child_path(path, key), read_one);
  }

  template <typename Element>
  std::vector<Element> optional_list(const json& object, const std::string& path, const char* key,
                                     ReadOne<Element> read_one) {
    const auto it = object.find(key);
    if (it == object.end()) return {};
    return list_at<Element>(*it, child_path(path, key), read_one);
  }

  // The main check: reader (>= 2 options) and CI (check.options.length===3, answer in 0..2).
  QuizCheck main_check(const json& value, const std::string& path) {
    return quiz_check(value, path, 3, 3);
  }

  // A further check (checks[i]): the reader only, at least two options.
  QuizCheck further_check(const json& value, const std::string& path) {
    return quiz_check(value, path, 2, std::numeric_limits<std::size_t>::max());
  }

  QuizCheck quiz_check(const json& value, const std::string& path, std::size_t min_options,
                       std::size_t max_options) {
    const json& object = expect_object(value, path);
    QuizCheck check;
    check.question = text(object, path, "question");
    const std::string options_path = child_path(path, "options");
    const json& options = expect_array(member(object, path, "options"), options_path);
    if (!errors_.failed() && (options.size() < min_options || options.size() > max_options)) {
      errors_.fail(ErrorCode::out_of_range, options_path,
                   (min_options == max_options ? "must hold exactly " : "must hold at least ") +
                       std::to_string(min_options) + " options, not " +
                       std::to_string(options.size()));
      return check;
    }
    check.options = list_at<std::string>(options, options_path, &LessonReader::text_at);
    check.answer = answer_index(member(object, path, "answer"), child_path(path, "answer"),
                                options_path, options.size());
    check.explanation = text(object, path, "explanation");
    return check;
  }

  // reader: typeof answer==='number' && Number.isInteger(answer) && 0 <= answer < length. A
  // JSON number is a JavaScript number whatever its spelling, so 0.0 and 1e0 are integers
  // there; "0" and true are not numbers.
  int answer_index(const json& answer, const std::string& path, const std::string& options_path,
                   std::size_t option_count) {
    if (errors_.failed()) return 0;
    const double index = answer.is_number() ? answer.get<double>() : -1.0;
    if (!answer.is_number() || !std::isfinite(index) || index != std::floor(index) || index < 0 ||
        index >= static_cast<double>(option_count)) {
      errors_.fail(ErrorCode::out_of_range, path,
                   "must be an integer index into " + options_path + " (" +
                       std::to_string(option_count) + " items)");
      return 0;
    }
    return static_cast<int>(index);
  }

  // reader: rows(specs, ['label','value','context']).
  Spec spec(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    // Members are read in this order (braced initializers evaluate left to right), so the
    // first missing one is the one reported.
    return Spec{text(object, path, "label"), text(object, path, "value"),
                text(object, path, "context")};
  }

  // reader: rows(interfaces, ['name','direction','signal']); any direction string.
  Interface interface_at(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    return Interface{text(object, path, "name"), text(object, path, "direction"),
                     text(object, path, "signal")};
  }

  // reader: rows(sources, ['title','url']); CI: ref.url.startsWith('https://') (case matters).
  Source source(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    Source source{text(object, path, "title"), text(object, path, "url")};
    const std::string prefix = "https://";
    if (!errors_.failed() && source.url.compare(0, prefix.size(), prefix) != 0) {
      errors_.fail(ErrorCode::out_of_range, child_path(path, "url"),
                   "must start with \"https://\"");
    }
    return source;
  }

  // reader: rows(science, ['title','equation','explanation','assumptions']).
  Science science(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    return Science{text(object, path, "title"), text(object, path, "equation"),
                   text(object, path, "explanation"), text(object, path, "assumptions")};
  }

  // reader: fields(h, ['title','significance']), year a string or a finite number, and
  // fields(h.source, ['title','url']) (a null source is refused; its url may be any string).
  HistoryEntry history(const json& value, const std::string& path) {
    const json& object = expect_object(value, path);
    HistoryEntry entry;
    entry.title = text(object, path, "title");
    entry.significance = text(object, path, "significance");
    const json& year = member(object, path, "year");
    if (year.is_string()) {
      entry.year = year.get<std::string>();
    } else if (year.is_number()) {  // the strict parser refuses numbers beyond double range
      entry.year = dump_json(year);
    } else {
      errors_.fail(ErrorCode::wrong_type, child_path(path, "year"),
                   "must be a string or a number, not " + json_type_name(year));
    }
    const std::string source_path = child_path(path, "source");
    const json& source = expect_object(member(object, path, "source"), source_path);
    entry.source = Source{text(source, source_path, "title"), text(source, source_path, "url")};
    return entry;
  }

  FirstError errors_;
};

bool is_lower_hex(std::string_view text) {
  return text.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

}  // namespace

Result<Lesson> parse_lesson(std::string_view text, const JsonLimits& limits) {
  auto document = parse_strict_json(text, limits);
  if (!document) return document.failure();
  LessonReader reader;
  Lesson lesson = reader.read(document.value());
  if (reader.errors().failed()) return reader.errors().error();
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
    return error_at(ErrorCode::integrity, "",
                    "file name " + quoted_excerpt(file_name) +
                        " does not carry a published hash (expected NAME-<16 hex digits>.json)");
  }
  const auto digits =
      file_name.substr(file_name.size() - suffix.size() - prefix_digits, prefix_digits);
  const char dash = file_name[file_name.size() - suffix.size() - prefix_digits - 1];
  if (dash != '-' || !is_lower_hex(digits)) {
    return error_at(ErrorCode::integrity, "",
                    "file name " + quoted_excerpt(file_name) +
                        " does not carry a published hash (expected NAME-<16 hex digits>.json)");
  }
  if (sha256_hex.size() != 64 || !is_lower_hex(sha256_hex)) {
    return error_at(ErrorCode::integrity, "", "digest must be 64 lowercase hex digits");
  }
  if (sha256_hex.substr(0, prefix_digits) != digits) {
    return error_at(ErrorCode::integrity, "",
                    "integrity: SHA-256 of the file begins " +
                        std::string(sha256_hex.substr(0, prefix_digits)) +
                        ", but its published name says " + std::string(digits));
  }
  return true;
}

}  // namespace prefill_trace
