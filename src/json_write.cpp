#include "json_write.hpp"

namespace prefill_trace {

using nlohmann::json;

json json_object(std::initializer_list<JsonMember> members) {
  json object(json::value_t::object);
  auto& map = object.get_ref<json::object_t&>();
  for (const JsonMember& member : members) map.emplace(member.key, member.value);
  return object;
}

std::string dump_json(const json& value, int indent) {
  return value.dump(indent, ' ', false, json::error_handler_t::replace);
}

}  // namespace prefill_trace
