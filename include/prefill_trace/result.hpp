#pragma once
// A value or a one-line error, returned (never thrown) across the public API. C++17 has no
// std::expected; this is the small part of it the engine needs.

#include <string>
#include <utility>
#include <variant>

namespace prefill_trace {

struct Error {
  std::string message;  // one line, starting with the JSON path or field name it concerns
};

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
  const std::string& error() const { return std::get<Error>(state_).message; }

 private:
  std::variant<T, Error> state_;
};

}  // namespace prefill_trace
