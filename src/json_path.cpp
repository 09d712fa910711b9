#include "json_path.hpp"

#include <string>
#include <unordered_set>
#include <vector>

namespace prefill_trace {
namespace {

using nlohmann::json;

// Raised from inside the parser callback and caught in parse_strict_json only: it never
// crosses the public API.
struct StructuralError {
  std::string message;
};

// Tracks where the parser is, so an error can name a JSON Pointer rather than a byte.
class PathTracker {
 public:
  explicit PathTracker(const JsonLimits& limits) : limits_(limits) {}

  bool operator()(int /*depth*/, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (frames_.size() >= limits_.max_depth) {
          throw StructuralError{where() + ": nesting deeper than " +
                                std::to_string(limits_.max_depth) + " levels"};
        }
        frames_.push_back(Frame{event == json::parse_event_t::object_start, {}, {}, 0});
        break;
      case json::parse_event_t::key: {
        Frame& frame = frames_.back();
        frame.key = parsed.get<std::string>();
        check_string_length(frame.key, "key");
        if (!frame.keys.insert(frame.key).second) {
          throw StructuralError{where() + ": duplicate key (the object already has this member)"};
        }
        break;
      }
      case json::parse_event_t::value:
        if (parsed.is_string()) check_string_length(parsed.get_ref<const std::string&>(), "string");
        value_done();
        break;
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        value_done();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool object;
    std::unordered_set<std::string> keys;
    std::string key;
    std::size_t index;
  };

  std::string where() const {
    std::string path;
    for (const Frame& frame : frames_) {
      path = frame.object ? child_path(path, frame.key) : child_path(path, frame.index);
    }
    return path.empty() ? "/" : path;
  }

  void check_string_length(const std::string& text, const char* what) const {
    if (text.size() > limits_.max_string_bytes) {
      throw StructuralError{where() + ": " + what + " of " + std::to_string(text.size()) +
                            " bytes exceeds the limit of " +
                            std::to_string(limits_.max_string_bytes)};
    }
  }

  void value_done() {
    if (!frames_.empty() && !frames_.back().object) ++frames_.back().index;
  }

  const JsonLimits& limits_;
  std::vector<Frame> frames_;
};

// nlohmann's messages start with "[json.exception.parse_error.101] parse error at line 1,
// column 2: " and end with the token last read, which may be long or binary: keep the reason.
std::string syntax_reason(const std::string& what) {
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
    return Error{"byte 0: document of " + std::to_string(text.size()) +
                 " bytes exceeds the limit of " + std::to_string(limits.max_bytes)};
  }
  // nlohmann silently skips a UTF-8 BOM; RFC 8259 says not to add one, so refuse it.
  if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) {
    return Error{"byte 0: a UTF-8 byte-order mark is not allowed before the JSON text"};
  }
  PathTracker tracker(limits);
  try {
    json document = json::parse(text.begin(), text.end(), std::ref(tracker), true, false);
    return document;
  } catch (const StructuralError& error) {
    return Error{error.message};
  } catch (const json::parse_error& error) {
    return Error{"byte " + std::to_string(error.byte) + ": invalid JSON (" +
                 syntax_reason(error.what()) + ")"};
  } catch (const json::out_of_range& error) {
    // A number literal beyond double range (1e999): nlohmann reports no offset, so name the
    // literal it quotes and locate its first occurrence.
    std::string reason = error.what();
    if (const auto tag = reason.find("] "); tag != std::string::npos) reason.erase(0, tag + 2);
    std::size_t offset = 0;
    if (const auto open = reason.find('\''); open != std::string::npos) {
      const auto close = reason.find('\'', open + 1);
      const auto literal = reason.substr(open + 1, close - open - 1);
      const auto at = text.find(literal);
      offset = at == std::string_view::npos ? 0 : at + 1;
    }
    return Error{"byte " + std::to_string(offset) + ": invalid JSON (" + reason + ")"};
  }
}

}  // namespace prefill_trace
