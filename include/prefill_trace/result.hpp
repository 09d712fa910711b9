#pragma once
// A value or an error, returned (never thrown) across the public API. C++17 has no
// std::expected; this is the small part of it the engine needs.

#include <cstddef>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <variant>

namespace prefill_trace {

/// What kind of problem an error is. Stable: a code keeps its name and number, new ones are
/// appended. Callers (the CLI, the page, tests) branch on the code and the JSON path, never on
/// the message's wording, which may be improved at any time. Exported to JS as `ErrorCode`.
enum class ErrorCode : int {
  none = 0,           // no error (an ok reply)
  invalid_json = 1,   // not one well-formed JSON document: syntax, UTF-8, byte-order mark,
                      // a duplicate key, a number beyond double range
  too_large = 2,      // over a size limit: bytes, nesting depth, string length, sweep points,
                      // chunks per prompt
  wrong_type = 3,     // a value of the wrong JSON type
  missing_field = 4,  // a required field is absent
  unknown_field = 5,  // a key the contract does not know
  out_of_range = 6,   // a value outside what its field allows: a number beyond its documented
                      // range (src/limits.hpp), an empty text, a list too short, a non-https URL
  unknown_name = 7,   // an id or keyword that names nothing known: a preset, a number format,
                      // an attention kind, a timing, a sweep variable, a generated check
  incompatible = 8,   // values valid alone that do not combine: tensor parallelism against the
                      // heads, a precision the accelerator has no peak for, an estimate without
                      // a profile
  integrity = 9,      // a lesson file whose name or SHA-256 does not match
  usage = 10,         // the command line: an unknown flag, a missing value, a stray argument
  io = 11,            // a file that could not be read, or output that could not be written
  internal = 12,      // a defect of the build (the embedded presets failed to load)
};

/// Each code with its stable name ("unknown_field"), in the enum's order: the one list the names
/// come from — error_code_name(), the JS enum's values (bindings/bindings.cpp registers this
/// list) and, checked against it by tests/js/error-codes.test.mjs, the d.ts's ErrorCodeName.
struct ErrorCodeEntry {
  ErrorCode code;
  const char* name;
};
inline constexpr ErrorCodeEntry kErrorCodeNames[] = {
    {ErrorCode::none, "none"},
    {ErrorCode::invalid_json, "invalid_json"},
    {ErrorCode::too_large, "too_large"},
    {ErrorCode::wrong_type, "wrong_type"},
    {ErrorCode::missing_field, "missing_field"},
    {ErrorCode::unknown_field, "unknown_field"},
    {ErrorCode::out_of_range, "out_of_range"},
    {ErrorCode::unknown_name, "unknown_name"},
    {ErrorCode::incompatible, "incompatible"},
    {ErrorCode::integrity, "integrity"},
    {ErrorCode::usage, "usage"},
    {ErrorCode::io, "io"},
    {ErrorCode::internal, "internal"},
};
/// Every code once, at the index of its number: a code appended to the enum without its row (or
/// a row out of place) does not compile.
constexpr bool error_code_names_in_order() {
  std::size_t i = 0;
  for (const ErrorCodeEntry& entry : kErrorCodeNames) {
    if (static_cast<std::size_t>(entry.code) != i++) return false;
  }
  return i == static_cast<std::size_t>(ErrorCode::internal) + 1;
}
static_assert(error_code_names_in_order(), "kErrorCodeNames: one row per ErrorCode, in order");

/// The code's stable name ("unknown_field"), as the JS enum and the docs spell it.
constexpr const char* error_code_name(ErrorCode code) {
  const auto index = static_cast<std::size_t>(code);
  return index < std::size(kErrorCodeNames) ? kErrorCodeNames[index].name : "internal";
}

/// What a field reader knew about the value it refused, for a caller that words the problem
/// itself (the page) instead of parsing `what`. A member that does not apply is empty (texts)
/// or NaN (bounds); errors raised outside the field readers (src/field_reader.cpp) leave it so.
struct ErrorDetail {
  std::string expected;  // the kind the value must be: "integer", "number", "string", "boolean",
                         // "object", "one_of" (a field's named choices); "" when not a kind
  std::string found;     // a wrong_type value's JSON type ("string", "null", "number", …)
  std::string value;     // the refused value's JSON text (excerpted, one line), or ""
  double minimum = std::numeric_limits<double>::quiet_NaN();  // out_of_range: the allowed range
  double maximum = std::numeric_limits<double>::quiet_NaN();
  bool minimum_excluded = false;  // the range is above minimum, not from it
  bool zero_allowed = false;      // 0 (none) is allowed besides the range
};

/// Build one with error_at(code, path, what[, detail]), so the fields agree.
struct Error {
  std::string message;  // one line for people: "path: what", or `what` when there is no path
  ErrorCode code = ErrorCode::internal;
  std::string path;  // JSON Pointer of the value concerned ("/hardware/peak_flops"); empty when
                     // the error concerns no one value (a byte offset, the whole document)
  std::string what;  // the problem itself, without the path: "must be from 1 to 16777216"
  ErrorDetail detail = {};  // the problem's parts, as far as the reader knew them
};

/// An error about the value at `path` (empty: none): the message is "path: what".
inline Error error_at(ErrorCode code, std::string path, std::string what, ErrorDetail detail = {}) {
  std::string message = path.empty() ? what : path + ": " + what;
  return Error{std::move(message), code, std::move(path), std::move(what), std::move(detail)};
}

template <typename T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT(google-explicit-constructor)
  Result(Error error) : state_(std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool ok() const { return std::holds_alternative<T>(state_); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return std::get<T>(state_); }
  T& value() & { return std::get<T>(state_); }
  T&& value() && { return std::get<T>(std::move(state_)); }
  const T* operator->() const { return &value(); }
  const T& operator*() const { return value(); }
  const std::string& error() const { return failure().message; }
  /// The whole error: code, path and message.
  const Error& failure() const { return std::get<Error>(state_); }

 private:
  std::variant<T, Error> state_;
};

}  // namespace prefill_trace
