#pragma once
// Strict JSON parsing shared by the lesson loader and the scenario parser: size, depth and
// duplicate-key limits, and errors that name a JSON Pointer path (RFC 6901) or a byte offset.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "limits.hpp"
#include "prefill_trace/result.hpp"

namespace prefill_trace {

/// Input limits, enforced before the allocator is involved; the defaults are the documented
/// ones (src/limits.hpp, docs/robustness.md), and tests may lower them.
struct JsonLimits {
  std::size_t max_bytes = limits::max_document_bytes;
  std::size_t max_depth = limits::max_json_depth;
  std::size_t max_string_bytes = limits::max_json_string_bytes;
};

/// Parses `text` (all of its bytes: a NUL does not end it) as one JSON document. Rejects invalid
/// UTF-8, a byte-order mark, any byte after the document ("byte N: invalid JSON (unexpected data
/// after the document)"), duplicate object keys, and anything over the limits, naming the path or
/// offset.
Result<nlohmann::json> parse_strict_json(std::string_view text, const JsonLimits& limits = {});

/// Input text as an error message may show it: at most `max_bytes` bytes of it (whole UTF-8
/// sequences), then "… (N bytes)" when cut; control characters (C0, DEL, C1), line and
/// direction-changing format characters escaped as \n, \t, \r or \uXXXX, and bytes that are
/// not UTF-8 as \xNN. The result is one line of printable text whatever the input held.
std::string excerpt(std::string_view text, std::size_t max_bytes = limits::max_quoted_bytes);
/// The excerpt in double quotes, the byte count outside them when cut: "abc…" (100000 bytes).
std::string quoted_excerpt(std::string_view text, std::size_t max_bytes = limits::max_quoted_bytes);

/// Appends "/key" to a JSON Pointer, escaping '~' and '/' as RFC 6901 requires. The path is for
/// messages: the key appears as its excerpt, so a path stays short whatever the keys hold.
std::string child_path(const std::string& parent, std::string_view key);
std::string child_path(const std::string& parent, std::size_t index);

/// The first problem met while reading a parsed document against a contract. Readers record it
/// and carry on with placeholder values, so the core needs no exceptions (it is built without
/// them, for a smaller and faster WebAssembly module) and still reports the first error a
/// throwing reader would have raised, in the same words.
class FirstError {
 public:
  /// Records the problem at `path` ("path: what") unless one is already recorded.
  void fail(ErrorCode code, const std::string& path, const std::string& what,
            ErrorDetail detail = {}) {
    if (!failed()) error_ = error_at(code, path, what, std::move(detail));
  }
  /// Records an error a nested reader returned, unless one is already recorded.
  void fail(const Error& error) {
    if (!failed()) error_ = error;
  }
  bool failed() const { return error_.code != ErrorCode::none; }
  const std::string& message() const { return error_.message; }
  const Error& error() const { return error_; }

 private:
  Error error_{{}, ErrorCode::none, {}, {}, {}};
};

/// Placeholders a reader hands on after a failure: empty, so nothing more is read from them.
const nlohmann::json& json_null();
const nlohmann::json& json_empty_object();
const nlohmann::json& json_empty_array();

/// Human name of a JSON value's type ("string", "array", "integer", ...).
std::string json_type_name(const nlohmann::json& value);

}  // namespace prefill_trace
