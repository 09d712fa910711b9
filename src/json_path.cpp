#include "json_path.hpp"

#include <string>
#include <vector>

namespace prefill_trace {
namespace {

using nlohmann::json;

// Builds the document from nlohmann's SAX events, enforcing the limits as it goes and tracking
// where it is, so an error can name a JSON Pointer rather than a byte. A handler that returns
// false stops the parse: no exceptions are involved (the core is built without them).
class StrictDomBuilder {
 public:
  StrictDomBuilder(std::string_view text, const JsonLimits& limits)
      : text_(text), limits_(limits) {}

  bool null() { return add(json(nullptr)); }
  bool boolean(bool value) { return add(json(value)); }
  bool number_integer(json::number_integer_t value) { return add(json(value)); }
  bool number_unsigned(json::number_unsigned_t value) { return add(json(value)); }
  bool number_float(json::number_float_t value, const std::string& /*literal*/) {
    return add(json(value));
  }
  bool string(std::string& value) {
    return within_string_limit(value, "string") && add(json(std::move(value)));
  }
  bool binary(json::binary_t& /*value*/) {
    return refuse(ErrorCode::invalid_json,
                  "binary values are not JSON");  // only the binary formats emit this
  }
  bool start_object(std::size_t /*elements*/) { return open(json::object()); }
  bool start_array(std::size_t /*elements*/) { return open(json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string& key) {
    Frame& frame = frames_.back();
    frame.key = key;
    if (!within_string_limit(frame.key, "key")) return false;
    if (frame.container->contains(frame.key)) {
      return refuse(ErrorCode::invalid_json, "duplicate key (the object already has this member)");
    }
    return true;
  }

  bool parse_error(std::size_t position, const std::string& /*last_token*/,
                   const nlohmann::detail::exception& error) {
    // A syntax error has a byte offset, not a path.
    error_ = error_at(ErrorCode::invalid_json, "",
                      error.id == kNumberOverflowId
                          ? overflow_message(error.what())
                          : "byte " + std::to_string(position) + ": invalid JSON (" +
                                syntax_reason(error.what()) + ")");
    return false;
  }

  json& document() { return document_; }
  const Error& error() const { return error_; }

 private:
  // nlohmann's out_of_range.406: a number literal beyond double range (1e999).
  static constexpr int kNumberOverflowId = 406;

  struct Frame {
    json* container;
    std::string key;        // the member being read, when the container is an object
    std::size_t index = 0;  // the element being read, when it is an array
  };

  bool add(json value) {
    next_slot() = std::move(value);
    value_done();
    return true;
  }

  bool open(json empty_container) {
    if (frames_.size() >= limits_.max_depth) {
      return refuse(ErrorCode::too_large,
                    "nesting deeper than " + std::to_string(limits_.max_depth) + " levels");
    }
    // A member of a std::map, or the last element of an array that grows only after this
    // child closes: the pointer stays valid while the child is open.
    json& container = next_slot();
    container = std::move(empty_container);
    frames_.push_back(Frame{&container, {}, 0});
    return true;
  }

  bool close() {
    frames_.pop_back();
    value_done();
    return true;
  }

  // Where the value being read goes: the document itself, the current member of the open
  // object, or a new last element of the open array.
  json& next_slot() {
    if (frames_.empty()) return document_;
    Frame& frame = frames_.back();
    return frame.container->is_object() ? (*frame.container)[frame.key]
                                        : frame.container->emplace_back();
  }

  // An array's index moves past a value once it is complete, so paths inside an open element
  // still name that element.
  void value_done() {
    if (!frames_.empty() && frames_.back().container->is_array()) ++frames_.back().index;
  }

  std::string where() const {
    std::string path;
    for (const Frame& frame : frames_) {
      path = frame.container->is_object() ? child_path(path, frame.key)
                                          : child_path(path, frame.index);
    }
    return path.empty() ? "/" : path;
  }

  bool within_string_limit(const std::string& text, const char* what) {
    if (text.size() <= limits_.max_string_bytes) return true;
    return refuse(ErrorCode::too_large, std::string(what) + " of " + std::to_string(text.size()) +
                                            " bytes exceeds the limit of " +
                                            std::to_string(limits_.max_string_bytes));
  }

  // A problem at the value being read.
  bool refuse(ErrorCode code, const std::string& what) {
    error_ = error_at(code, where(), what);
    return false;
  }

  // nlohmann names no offset for an overflowing literal, so quote it and locate its first
  // occurrence (1-based, as nlohmann counts bytes).
  std::string overflow_message(const std::string& what) const {
    std::string reason = what;
    if (const auto tag = reason.find("] "); tag != std::string::npos) reason.erase(0, tag + 2);
    std::size_t offset = 0;
    if (const auto open = reason.find('\''); open != std::string::npos) {
      const auto close = reason.find('\'', open + 1);
      const auto at = text_.find(reason.substr(open + 1, close - open - 1));
      offset = at == std::string_view::npos ? 0 : at + 1;
    }
    return "byte " + std::to_string(offset) + ": invalid JSON (" + reason + ")";
  }

  static std::string syntax_reason(const std::string& what);

  std::string_view text_;
  const JsonLimits& limits_;
  json document_;
  std::vector<Frame> frames_;
  Error error_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1,
// column 2: " and end with the token last read, which may be long or binary: keep the reason.
std::string StrictDomBuilder::syntax_reason(const std::string& what) {
  std::string reason = what;
  if (const auto colon = reason.find(": "); colon != std::string::npos) reason.erase(0, colon + 2);
  if (const auto last = reason.find("; last read"); last != std::string::npos) reason.erase(last);
  return reason;
}

}  // namespace

std::string child_path(const std::string& parent, std::string_view key) {
  std::string path = parent == "/" ? std::string() : parent;
  path += '/';
  for (const char c : key) {
    if (c == '~') {
      path += "~0";
    } else if (c == '/') {
      path += "~1";
    } else {
      path += c;
    }
  }
  return path;
}

std::string child_path(const std::string& parent, std::size_t index) {
  return (parent == "/" ? std::string() : parent) + '/' + std::to_string(index);
}

const json& json_null() {
  static const json value;
  return value;
}

const json& json_empty_object() {
  static const json value = json::object();
  return value;
}

const json& json_empty_array() {
  static const json value = json::array();
  return value;
}

std::string json_type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "integer";
    case json::value_t::number_float:
      return "number";
    case json::value_t::string:
      return "string";
    case json::value_t::array:
      return "array";
    case json::value_t::object:
      return "object";
    default:
      return "binary";
  }
}

Result<json> parse_strict_json(std::string_view text, const JsonLimits& limits) {
  if (text.size() > limits.max_bytes) {
    return error_at(ErrorCode::too_large, "",
                    "byte 0: document of " + std::to_string(text.size()) +
                        " bytes exceeds the limit of " + std::to_string(limits.max_bytes));
  }
  // nlohmann silently skips a UTF-8 BOM; RFC 8259 says not to add one, so refuse it.
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    return error_at(ErrorCode::invalid_json, "",
                    "byte 0: a UTF-8 byte-order mark is not allowed before the JSON text");
  }
  StrictDomBuilder builder(text, limits);
  if (!json::sax_parse(text.begin(), text.end(), &builder)) return builder.error();
  return std::move(builder.document());
}

}  // namespace prefill_trace
