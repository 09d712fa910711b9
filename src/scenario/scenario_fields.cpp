#include "scenario/scenario_fields.hpp"

#include "json_write.hpp"
#include "serving/serving_fields.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// A bound or default as the JSON prints it: whole numbers as integers, so "2048", not "2048.0".
json number_value(const ScenarioField& field, double value) {
  if (field.kind == FieldKind::integer || field.kind == FieldKind::length)
    return static_cast<int64_t>(value);
  return value;
}

json default_of(const ScenarioField& field) {
  if (!field.has_default) return nullptr;
  switch (field.kind) {
    case FieldKind::integer:
    case FieldKind::number:
    case FieldKind::zero_or_number:
      return number_value(field, field.default_number);
    case FieldKind::flag:
      return field.default_number != 0;
    case FieldKind::choice:
    case FieldKind::preset:
      return std::string(field.default_value());
    case FieldKind::text:
      return field.default_text.empty() ? json(nullptr) : json(std::string(field.default_text));
    case FieldKind::named_numbers:
    case FieldKind::object:
    case FieldKind::list:
    case FieldKind::length:
      return nullptr;
  }
  return nullptr;
}

json field_to_json(const ScenarioField& field) {
  const bool bounded = field.kind == FieldKind::integer || field.kind == FieldKind::number ||
                       field.kind == FieldKind::zero_or_number ||
                       field.kind == FieldKind::named_numbers || field.kind == FieldKind::length;
  json choices = json::array();
  for (std::size_t i = 0; i < field.choice_count; ++i) {
    choices.push_back(json_object({{"value", std::string(field.choices[i].value)},
                                   {"label", std::string(field.choices[i].label)}}));
  }
  return json_object({{"name", std::string(field.name)},
                      {"kind", field_kind_name(field.kind)},
                      {"default", default_of(field)},
                      {"min", bounded ? number_value(field, field.min) : json(nullptr)},
                      {"max", bounded ? number_value(field, field.max) : json(nullptr)},
                      {"nullable", field.nullable},
                      {"required", field.required},
                      {"choices", choices},
                      {"unit", std::string(field.unit)},
                      {"symbol", std::string(field.symbol)},
                      {"label", std::string(field.label)},
                      {"hint", std::string(field.hint)},
                      {"docs", std::string(field.docs)}});
}

template <std::size_t N>
json table_to_json(const std::array<ScenarioField, N>& table) {
  json rows = json::array();
  for (const ScenarioField& field : table) rows.push_back(field_to_json(field));
  return rows;
}

}  // namespace

const char* field_kind_name(FieldKind kind) {
  switch (kind) {
    case FieldKind::integer:
      return "integer";
    case FieldKind::number:
      return "number";
    case FieldKind::zero_or_number:
      return "zero_or_number";
    case FieldKind::choice:
      return "choice";
    case FieldKind::flag:
      return "flag";
    case FieldKind::text:
      return "text";
    case FieldKind::preset:
      return "preset";
    case FieldKind::named_numbers:
      return "named_numbers";
    case FieldKind::object:
      return "object";
    case FieldKind::list:
      return "list";
    case FieldKind::length:
      return "length";
  }
  return "?";
}

std::string scenario_fields_json() {
  return dump_json(json_object({{"estimate", table_to_json(kEstimateFields)},
                                {"hardware", table_to_json(kAcceleratorFields)},
                                {"model", table_to_json(kModelFields)},
                                {"scenario", table_to_json(kScenarioFields)}}));
}

std::string serving_fields_json() {
  json rows = json::array();
  for (const ScenarioField& field : kServingFields) {
    json row = field_to_json(field);
    row["flag"] = std::string(field.flag);
    row["min_exclusive"] = field.min_exclusive;
    rows.push_back(std::move(row));
  }
  json aliases = json::array();
  for (const FlagAlias& alias : kServingFlagAliases) {
    aliases.push_back(json_object({{"flag", std::string(alias.flag)},
                                   {"key", std::string(alias.key)},
                                   {"kind", field_kind_name(alias.kind)}}));
  }
  return dump_json(json_object({{"aliases", std::move(aliases)}, {"serving", std::move(rows)}}));
}

}  // namespace prefill_trace
