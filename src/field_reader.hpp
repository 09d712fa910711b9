#pragma once
// Reading the members of one JSON object against a table of fields (scenario_fields.hpp,
// serving_fields.hpp): the one generic reader the scenario's objects and the serving object
// share. Keys it does not know are refused (a misspelt field must be an error, not a silently
// ignored default). A problem goes to `errors` (the first one is kept) and the reader returns
// the fallback, so callers check `errors.failed()` before using values in arithmetic.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "json_path.hpp"
#include "scenario/scenario_fields.hpp"

namespace prefill_trace {

/// The keys an object may hold: a list written out, or the names of a table of fields. Made
/// for the duration of one Fields construction (the list's array lives that long).
class KnownKeys {
 public:
  KnownKeys(std::initializer_list<std::string_view> names) : names_(names) {}
  template <std::size_t N>
  KnownKeys(const std::array<ScenarioField, N>& table) : fields_(table.data()), field_count_(N) {}
  // The names a keyed object's row lists as its choices (peak_flops' number formats, …).
  explicit KnownKeys(const ScenarioField& keyed) : keyed_(&keyed) {}
  bool contains(std::string_view key) const {
    for (std::size_t i = 0; i < field_count_; ++i) {
      if (fields_[i].name == key) return true;
    }
    if (keyed_ != nullptr && keyed_->has_choice(key)) return true;
    return std::find(names_.begin(), names_.end(), key) != names_.end();
  }

 private:
  std::initializer_list<std::string_view> names_;
  const ScenarioField* fields_ = nullptr;
  std::size_t field_count_ = 0;
  const ScenarioField* keyed_ = nullptr;
};

/// How a number's range is worded in an error. The scenario's readers say "must be from 0.001
/// to 1" (bounds as %g); the serving reader has always said "must be a number from 0.0001 to
/// 0.5" (bounds to 10 digits) — both kept, since callers' logs and tests quote them.
enum class RangeWording { bare, typed };

/// A number as the serving reader's messages and echoes print it: up to 10 significant digits.
std::string ten_digits(double value);
/// A bound as an error prints it: whole numbers below 1e15 in full, others as %g.
std::string format_limit(double value);
/// "must be \"a\", \"b\" or \"c\"": a choice field's values, in the table's order.
std::string must_be_one_of(const ScenarioField& field);

class Fields {
 public:
  Fields(const nlohmann::json& object, std::string path, KnownKeys known, FirstError& errors,
         RangeWording wording = RangeWording::bare);

  bool has(std::string_view key) const { return object_.contains(key); }
  std::string path(std::string_view key) const { return child_path(path_, key); }
  const nlohmann::json& at(std::string_view key) const {
    const auto it = object_.find(key);
    return it == object_.end() ? json_null() : *it;
  }
  FirstError& errors() const { return errors_; }

  double number(std::string_view key, double fallback, double min, double max) const {
    return bounded_number(key, fallback, min, max, false);
  }

  // A rate or bandwidth where 0 means "none" (no queue, no link) and anything else must clear
  // a floor: a denormal such as 1e-320 would pass a plain 0 … max check and turn a time into
  // Infinity.
  double zero_or_number(std::string_view key, double fallback, double min, double max) const {
    if (has(key) && at(key).is_number() && at(key).get<double>() == 0) return 0;
    return bounded_number(key, fallback, min, max, false, true);
  }

  int64_t integer(std::string_view key, int64_t fallback, int64_t min, int64_t max) const {
    if (!has(key)) return fallback;
    const nlohmann::json& value = at(key);
    const bool integral = value.is_number_integer() ||
                          (value.is_number_float() && std::isfinite(value.get<double>()) &&
                           value.get<double>() == std::floor(value.get<double>()));
    if (!integral) {
      fail_type(key, "must be an integer", "integer", value);
      return fallback;
    }
    if (!integer_in_range(value, min, max)) {
      fail_integer_range(key, min, max);
      return fallback;
    }
    const double as_double = value.get<double>();
    return value.is_number_unsigned()  ? static_cast<int64_t>(value.get<uint64_t>())
           : value.is_number_integer() ? value.get<int64_t>()
                                       : static_cast<int64_t>(as_double);
  }

  std::string text(std::string_view key, std::string fallback) const {
    if (!has(key)) return fallback;
    const nlohmann::json& value = at(key);
    if (!value.is_string()) {
      fail_type(key, "must be a string", "string", value);
      return fallback;
    }
    return value.get<std::string>();
  }

  bool boolean(std::string_view key, bool fallback) const {
    if (!has(key)) return fallback;
    const nlohmann::json& value = at(key);
    if (!value.is_boolean()) {
      fail_type(key, "must be true or false", "boolean", value);
      return fallback;
    }
    return value.get<bool>();
  }

  // Whole JSON numbers compared exactly (2^53 + 1 is above a bound of 2^53, which a double
  // compare would miss), others in double: a 2^64 literal must not wrap on the way to int64_t.
  static bool integer_in_range(const nlohmann::json& value, int64_t min, int64_t max) {
    if (value.is_number_unsigned()) {
      const uint64_t v = value.get<uint64_t>();
      return max >= 0 && v <= static_cast<uint64_t>(max) &&
             (min <= 0 || v >= static_cast<uint64_t>(min));
    }
    if (value.is_number_integer()) {
      const int64_t v = value.get<int64_t>();
      return v >= min && v <= max;
    }
    const double v = value.get<double>();
    return v >= static_cast<double>(min) && v <= static_cast<double>(max);
  }

  // The same reads by a row of the field tables: its name, bounds and, without a fallback, its
  // default. A nullable field's null is its default.
  bool is_null(const ScenarioField& field) const {
    return field.nullable && has(field.name) && at(field.name).is_null();
  }
  int64_t integer(const ScenarioField& field, int64_t fallback) const {
    if (is_null(field)) return static_cast<int64_t>(field.default_number);
    return integer(field.name, fallback, static_cast<int64_t>(field.min),
                   static_cast<int64_t>(field.max));
  }
  int64_t integer(const ScenarioField& field) const {
    return integer(field, static_cast<int64_t>(field.default_number));
  }
  double number(const ScenarioField& field, double fallback) const {
    return field.kind == FieldKind::zero_or_number
               ? zero_or_number(field.name, fallback, field.min, field.max)
               : bounded_number(field.name, fallback, field.min, field.max, field.min_exclusive);
  }
  double number(const ScenarioField& field) const { return number(field, field.default_number); }
  // A number without a default: unset when absent or null.
  std::optional<double> optional_number(const ScenarioField& field) const {
    if (!has(field.name) || at(field.name).is_null()) return std::nullopt;
    return number(field);
  }
  bool boolean(const ScenarioField& field, bool fallback) const {
    return boolean(field.name, fallback);
  }
  bool boolean(const ScenarioField& field) const {
    return boolean(field.name, field.default_number != 0);
  }
  std::string text(const ScenarioField& field) const {
    return text(field.name, std::string(field.default_text));
  }
  // The index of the chosen value in the field's choices (the order of the enum it selects).
  std::size_t choice(const ScenarioField& field, std::size_t fallback) const {
    const std::string chosen = text(field.name, std::string(field.choices[fallback].value));
    for (std::size_t i = 0; i < field.choice_count; ++i) {
      if (chosen == field.choices[i].value) return i;
    }
    fail_choice(field);
    return fallback;
  }
  std::size_t choice(const ScenarioField& field) const {
    return choice(field, field.default_choice);
  }
  // A choice that may be left unstated (an accelerator's architecture): its text, "" allowed.
  std::string optional_choice(const ScenarioField& field, std::string fallback) const {
    std::string chosen = text(field.name, std::move(fallback));
    if (!chosen.empty() && !field.has_choice(chosen)) fail_choice(field);
    return chosen;
  }
  // A required field is an error when absent, unless what the object overrides supplies it
  // (a preset's shape or accelerator, or the preset's estimate profile).
  void require(const ScenarioField& field, bool supplied) const {
    if (field.required && !supplied && !has(field.name))
      errors_.fail(ErrorCode::missing_field, path(field.name), "is required");
  }

 private:
  // A finite number from min to max (above min when `open`), else fallback. `zero_allowed`: the
  // error says 0 is allowed too (zero_or_number has let it through before).
  double bounded_number(std::string_view key, double fallback, double min, double max, bool open,
                        bool zero_allowed = false) const {
    if (!has(key)) return fallback;
    const nlohmann::json& value = at(key);
    if (!value.is_number()) {
      fail_type(key, "must be a number", "number", value);
      return fallback;
    }
    const double number = value.get<double>();
    if (!std::isfinite(number) || number > max || number < min || (open && number == min)) {
      fail_range(key, zero_allowed, min, max, open);
      return fallback;
    }
    return number;
  }

  // The error paths are kept out of line (field_reader.cpp): every read above is inlined into
  // its caller on the per-change path, and the messages they build would otherwise be copied
  // into each one.
  [[gnu::noinline, gnu::cold]] void fail_choice(const ScenarioField& field) const;
  // `expected` opens the message ("must be an integer"); `kind` names it in the detail.
  [[gnu::noinline, gnu::cold]] void fail_type(std::string_view key, const char* expected,
                                              const char* kind, const nlohmann::json& value) const;
  ErrorDetail range_detail(std::string_view key, const char* kind, double min, double max) const;
  [[gnu::noinline, gnu::cold]] void fail_range(std::string_view key, bool zero_allowed, double min,
                                               double max, bool open) const;
  [[gnu::noinline, gnu::cold]] void fail_integer_range(std::string_view key, int64_t min,
                                                       int64_t max) const;

  const nlohmann::json& object_;
  std::string path_;
  FirstError& errors_;
  RangeWording wording_;
};

}  // namespace prefill_trace
