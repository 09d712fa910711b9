#include "json_path.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace prefill_trace {
namespace {

using nlohmann::json;

constexpr const char* kDataAfterDocument = "invalid JSON (unexpected data after the document)";

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
    // A syntax error has a byte offset, not a path. After a complete document the only
    // possible error is that more follows; say so in those words rather than nlohmann's, which
    // vary with what the extra bytes look like.
    error_ = error_at(ErrorCode::invalid_json, "",
                      error.id == kNumberOverflowId ? overflow_message(error.what())
                      : complete_ ? "byte " + std::to_string(position) + ": " + kDataAfterDocument
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
    complete_ = frames_.empty();  // a scalar document is complete once read
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
    complete_ = frames_.empty();
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
  bool complete_ = false;  // the top-level value has been read
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

namespace {

// The length of the UTF-8 sequence starting at text[i], or 0 when the bytes there are not one
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_sequence_length(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80;
  unsigned char high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t k = 2; k < length; ++k) {
    if (byte(k) < 0x80 || byte(k) > 0xBF) return 0;
  }
  return length;
}

// Code points shown escaped although they are valid UTF-8: the C1 controls (U+009B is a
// terminal's CSI), the line and paragraph separators, and the bidirectional overrides and
// isolates that can make a terminal show text in another order than it was written.
bool shown_escaped(uint32_t code_point) {
  return (code_point >= 0x80 && code_point <= 0x9F) || code_point == 0x200E ||
         code_point == 0x200F || code_point == 0x2028 || code_point == 0x2029 ||
         (code_point >= 0x202A && code_point <= 0x202E) ||
         (code_point >= 0x2066 && code_point <= 0x2069);
}

uint32_t decode_utf8(std::string_view sequence) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(sequence[k]); };
  switch (sequence.size()) {
    case 1:
      return byte(0);
    case 2:
      return (uint32_t{byte(0) & 0x1Fu} << 6) | (byte(1) & 0x3Fu);
    case 3:
      return (uint32_t{byte(0) & 0x0Fu} << 12) | (uint32_t{byte(1) & 0x3Fu} << 6) |
             (byte(2) & 0x3Fu);
    default:
      return (uint32_t{byte(0) & 0x07u} << 18) | (uint32_t{byte(1) & 0x3Fu} << 12) |
             (uint32_t{byte(2) & 0x3Fu} << 6) | (byte(3) & 0x3Fu);
  }
}

void append_hex(std::string& out, const char* prefix, uint32_t value, int digits) {
  static const char hex[] = "0123456789abcdef";
  out += prefix;
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) out += hex[(value >> shift) & 15];
}

// The escaped prefix of `text` of at most max_bytes input bytes, and whether it was cut.
std::pair<std::string, bool> escaped_prefix(std::string_view text, std::size_t max_bytes) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (i + std::max<std::size_t>(length, 1) > max_bytes) break;
    if (length == 0) {
      append_hex(out, "\\x", static_cast<unsigned char>(text[i]), 2);
      ++i;
      continue;
    }
    const std::string_view sequence = text.substr(i, length);
    const uint32_t code_point = decode_utf8(sequence);
    if (code_point == '\n') {
      out += "\\n";
    } else if (code_point == '\t') {
      out += "\\t";
    } else if (code_point == '\r') {
      out += "\\r";
    } else if (code_point < 0x20 || code_point == 0x7F || shown_escaped(code_point)) {
      append_hex(out, "\\u", code_point, 4);
    } else {
      out += sequence;
    }
    i += length;
  }
  return {out, i < text.size()};
}

}  // namespace

std::string excerpt(std::string_view text, std::size_t max_bytes) {
  auto [shown, cut] = escaped_prefix(text, max_bytes);
  if (cut) shown += "… (" + std::to_string(text.size()) + " bytes)";
  return shown;
}

std::string quoted_excerpt(std::string_view text, std::size_t max_bytes) {
  auto [shown, cut] = escaped_prefix(text, max_bytes);
  return cut ? "\"" + shown + "…\" (" + std::to_string(text.size()) + " bytes)"
             : "\"" + shown + "\"";
}

std::string child_path(const std::string& parent, std::string_view key) {
  std::string path = parent == "/" ? std::string() : parent;
  path += '/';
  for (const char c : excerpt(key)) {
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
  // nlohmann's lexer reads a NUL byte as the end of the input (for C strings), so a parse that
  // succeeded stopped at the first NUL, if there is one (inside a string it is an error): what
  // follows is data after the document, however valid. Counted from 1, as nlohmann counts.
  if (const auto nul = text.find('\0'); nul != std::string_view::npos) {
    return error_at(ErrorCode::invalid_json, "",
                    "byte " + std::to_string(nul + 1) + ": " + kDataAfterDocument);
  }
  return std::move(builder.document());
}

}  // namespace prefill_trace
