#include "field_reader.hpp"

#include <cstdio>

namespace prefill_trace {
std::string ten_digits(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

std::string format_limit(double value) {
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", value);
  return buffer;
}

std::string must_be_one_of(const ScenarioField& field) {
  std::string text = "must be ";
  for (std::size_t i = 0; i < field.choice_count; ++i) {
    if (i > 0) text += i + 1 == field.choice_count ? " or " : ", ";
    text += '"';
    text += field.choices[i].value;
    text += '"';
  }
  return text;
}

Fields::Fields(const nlohmann::json& object, std::string path, KnownKeys known, FirstError& errors,
               RangeWording wording)
    : object_(object.is_object() ? object : json_empty_object()),
      path_(std::move(path)),
      errors_(errors),
      wording_(wording) {
  if (!object.is_object()) {
    errors_.fail(ErrorCode::wrong_type, path_, "must be an object, not " + json_type_name(object));
    return;
  }
  // A linear scan of at most 23 names: no allocation on the per-change path.
  for (const auto& item : object_.items()) {
    if (!known.contains(item.key())) {
      errors_.fail(ErrorCode::unknown_field, child_path(path_, item.key()), "unknown field");
    }
  }
}

void Fields::fail_choice(const ScenarioField& field) const {
  errors_.fail(ErrorCode::unknown_name, path(field.name), must_be_one_of(field));
}

void Fields::fail_type(std::string_view key, const char* expected,
                       const nlohmann::json& value) const {
  errors_.fail(ErrorCode::wrong_type, path(key),
               std::string(expected) + ", not " + json_type_name(value));
}

// `allowed` opens a bare message: "must be from ", "must be 0 or from ", …
void Fields::fail_range(std::string_view key, const char* allowed, double min, double max,
                        bool open) const {
  std::string what;
  if (wording_ == RangeWording::bare) {
    what = allowed + format_limit(min) + " to " + format_limit(max);
  } else if (open) {
    what = "must be a number > " + ten_digits(min) + " and ≤ " + ten_digits(max);
  } else {
    what = "must be a number from " + ten_digits(min) + " to " + ten_digits(max);
  }
  errors_.fail(ErrorCode::out_of_range, path(key), what);
}

// Integer bounds in full (a seed's 2^53 too): format_limit would print it as %g.
void Fields::fail_integer_range(std::string_view key, int64_t min, int64_t max) const {
  errors_.fail(ErrorCode::out_of_range, path(key),
               "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
}

}  // namespace prefill_trace
