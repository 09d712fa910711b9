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

namespace {

// The value's JSON text as an error's detail quotes it: one line, at most the quoted length.
// (Strings were checked as UTF-8 when parsed; `replace` keeps dump() from ever throwing.)
std::string value_text(const nlohmann::json& value) {
  return excerpt(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace

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
    ErrorDetail detail;
    detail.expected = "object";
    detail.found = json_type_name(object);
    errors_.fail(ErrorCode::wrong_type, path_, "must be an object, not " + detail.found, detail);
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
  ErrorDetail detail;
  detail.expected = "one_of";
  detail.value = value_text(at(field.name));
  errors_.fail(ErrorCode::unknown_name, path(field.name), must_be_one_of(field), detail);
}

void Fields::fail_type(std::string_view key, const char* expected, const char* kind,
                       const nlohmann::json& value) const {
  ErrorDetail detail;
  detail.expected = kind;
  detail.found = json_type_name(value);
  detail.value = value_text(value);
  errors_.fail(ErrorCode::wrong_type, path(key), std::string(expected) + ", not " + detail.found,
               detail);
}

// The detail of a range error: the bounds, and the value refused.
ErrorDetail Fields::range_detail(std::string_view key, const char* kind, double min,
                                 double max) const {
  ErrorDetail detail;
  detail.expected = kind;
  detail.value = value_text(at(key));
  detail.minimum = min;
  detail.maximum = max;
  return detail;
}

void Fields::fail_range(std::string_view key, bool zero_allowed, double min, double max,
                        bool open) const {
  ErrorDetail detail = range_detail(key, "number", min, max);
  detail.minimum_excluded = open;
  detail.zero_allowed = zero_allowed;
  std::string what;
  if (wording_ == RangeWording::bare) {
    what = (zero_allowed ? "must be 0 or from " : "must be from ") + format_limit(min) + " to " +
           format_limit(max);
  } else if (open) {
    what = "must be a number > " + ten_digits(min) + " and ≤ " + ten_digits(max);
  } else {
    what = "must be a number from " + ten_digits(min) + " to " + ten_digits(max);
  }
  errors_.fail(ErrorCode::out_of_range, path(key), what, detail);
}

// Integer bounds in full (a seed's 2^53 too): format_limit would print it as %g.
void Fields::fail_integer_range(std::string_view key, int64_t min, int64_t max) const {
  errors_.fail(ErrorCode::out_of_range, path(key),
               "must be an integer from " + std::to_string(min) + " to " + std::to_string(max),
               range_detail(key, "integer", static_cast<double>(min), static_cast<double>(max)));
}

}  // namespace prefill_trace
