#pragma once
// Builds an nlohmann document from a description written as a visitor (trace_schema.hpp's
// protocol: number, maybe, flag, text, bound, object, maybe_object, array, and null): the trace
// document's writer and the serving report's (serving_schema.hpp) share it.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "trace/trace.hpp"  // Bound

namespace prefill_trace {
namespace json_building {

using nlohmann::json;

// Builds the nlohmann document from the description (trace_schema.hpp): each value is stored
// as nlohmann would store the C++ value itself, so integers stay integers and the text is the
// same byte for byte as the hand-written writer's was.
class JsonBuilder {
 public:
  explicit JsonBuilder(json& root) : open_{&root} {}

  template <typename T>
  void number(std::string_view key, T value) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "numbers only");
    put(key, json(value));
  }
  void maybe(std::string_view key, const std::optional<double>& value) {
    put(key, value ? json(*value) : json(nullptr));
  }
  template <typename T>
  void flag(std::string_view key, T value) {
    static_assert(std::is_same_v<T, bool>, "flags are bool");
    put(key, json(value));
  }
  void text(std::string_view key, std::string_view value) { put(key, json(std::string(value))); }
  void null(std::string_view key) { put(key, json(nullptr)); }
  void bound(std::string_view key, const std::optional<Bound>& value) {
    put(key, value ? json(bound_name(*value)) : json(nullptr));
  }
  template <typename Members>
  void object(std::string_view key, Members members) {
    open_.push_back(&put(key, json(json::value_t::object)));
    members();
    open_.pop_back();
  }
  template <typename Members>
  void maybe_object(std::string_view key, bool present, Members members) {
    if (present) {
      object(key, members);
    } else {
      put(key, json(nullptr));
    }
  }
  template <typename Item>
  void array(std::string_view key, std::size_t size, Item item) {
    json& list = put(key, json(json::value_t::array));
    list.get_ref<json::array_t&>().reserve(size);
    open_.push_back(&list);
    for (std::size_t i = 0; i < size; ++i) item(i);
    open_.pop_back();
  }

 private:
  // The new member (or item) of the innermost open object (or array).
  json& put(std::string_view key, json value) {
    json& parent = *open_.back();
    if (parent.is_array()) {
      auto& items = parent.get_ref<json::array_t&>();
      items.push_back(std::move(value));
      return items.back();
    }
    auto& members = parent.get_ref<json::object_t&>();
    return members.emplace(std::string(key), std::move(value)).first->second;
  }
  std::vector<json*> open_;
};

/// The members `visit(value, builder)` describes, as one JSON object.
template <typename T, typename Visit>
json object_of(const T& value, Visit visit) {
  json object(json::value_t::object);
  JsonBuilder builder(object);
  visit(value, builder);
  return object;
}

}  // namespace json_building

using json_building::JsonBuilder;
using json_building::object_of;

}  // namespace prefill_trace
