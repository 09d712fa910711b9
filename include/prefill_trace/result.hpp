#pragma once
// A value or an error, returned (never thrown) across the public API. C++17 has no
// std::expected; this is the small part of it the engine needs.

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

/// The code's stable name ("unknown_field"), as the JS enum and the docs spell it.
constexpr const char* error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::none:
      return "none";
    case ErrorCode::invalid_json:
      return "invalid_json";
    case ErrorCode::too_large:
      return "too_large";
    case ErrorCode::wrong_type:
      return "wrong_type";
    case ErrorCode::missing_field:
      return "missing_field";
    case ErrorCode::unknown_field:
      return "unknown_field";
    case ErrorCode::out_of_range:
      return "out_of_range";
    case ErrorCode::unknown_name:
      return "unknown_name";
    case ErrorCode::incompatible:
      return "incompatible";
    case ErrorCode::integrity:
      return "integrity";
    case ErrorCode::usage:
      return "usage";
    case ErrorCode::io:
      return "io";
    case ErrorCode::internal:
      return "internal";
  }
  return "internal";
}

/// Build one with error_at(code, path, what), so the four fields agree.
struct Error {
  std::string message;  // one line for people: "path: what", or `what` when there is no path
  ErrorCode code = ErrorCode::internal;
  std::string path;  // JSON Pointer of the value concerned ("/hardware/peak_flops"); empty when
                     // the error concerns no one value (a byte offset, the whole document)
  std::string what;  // the problem itself, without the path: "must be from 1 to 16777216"
};

/// An error about the value at `path` (empty: none): the message is "path: what".
inline Error error_at(ErrorCode code, std::string path, std::string what) {
  std::string message = path.empty() ? what : path + ": " + what;
  return Error{std::move(message), code, std::move(path), std::move(what)};
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
