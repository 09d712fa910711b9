#include "trace_figures.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include "json_write.hpp"
#include "prefill_trace/engine.hpp"
#include "trace_schema.hpp"

namespace prefill_trace {
namespace {

constexpr double kNull = std::numeric_limits<double>::quiet_NaN();

// Writes the description's numbers in order and hashes the rest. The hash is 64-bit FNV-1a over
// 8-byte words (a key or text costs one multiply per 8 bytes, not per byte: the signature hashes
// ~650 keys per call) and is cut to 53 bits so the double holding it is exact.
class FiguresWriter {
 public:
  explicit FiguresWriter(std::vector<double>& out) : out_(out) {}

  template <typename T>
  void number(std::string_view key, T value) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "numbers only");
    mix(key);
    out_.push_back(static_cast<double>(value));
  }
  void maybe(std::string_view key, const std::optional<double>& value) {
    mix(key);
    out_.push_back(value ? *value : kNull);
  }
  template <typename T>
  void flag(std::string_view key, T value) {
    static_assert(std::is_same_v<T, bool>, "flags are bool");
    mix(key);
    out_.push_back(value ? 1.0 : 0.0);
  }
  void text(std::string_view key, std::string_view value) {
    mix(key);
    mix(value);
  }
  void bound(std::string_view key, const std::optional<Bound>& value) {
    mix(key);
    out_.push_back(value ? static_cast<double>(*value) : kNull);
  }
  template <typename Members>
  void object(std::string_view key, Members members) {
    mix(key);
    mix_word(kOpen);
    members();
    mix_word(kClose);
  }
  template <typename Members>
  void maybe_object(std::string_view key, bool present, Members members) {
    if (present) {
      object(key, members);
    } else {
      mix(key);
      mix_word(kAbsent);
      out_.push_back(kNull);  // a null leaf, like any other: the reader consumes one figure
    }
  }
  template <typename Item>
  void array(std::string_view key, std::size_t size, Item item) {
    mix(key);
    mix_word(kOpen ^ size);
    for (std::size_t i = 0; i < size; ++i) item(i);
    mix_word(kClose);
  }

  double signature() const {
    return static_cast<double>((hash_ ^ (hash_ >> 29)) & ((uint64_t{1} << 53) - 1));
  }

 private:
  static constexpr uint64_t kOpen = 0x7b7b7b7b7b7b7b7bu;    // "{{{{{{{{"
  static constexpr uint64_t kClose = 0x7d7d7d7d7d7d7d7du;   // "}}}}}}}}"
  static constexpr uint64_t kAbsent = 0x6e756c6c6e756c6cu;  // "nullnull"

  void mix_word(uint64_t word) { hash_ = (hash_ ^ word) * 0x100000001b3u; }
  void mix(std::string_view text) {
    std::size_t at = 0;
    for (; at + 8 <= text.size(); at += 8) {
      uint64_t word;
      std::memcpy(&word, text.data() + at, 8);
      mix_word(word);
    }
    uint64_t tail = 0;
    std::memcpy(&tail, text.data() + at, text.size() - at);
    mix_word(tail);
    mix_word(text.size());  // "ab" + "" and "a" + "b" differ
  }

  std::vector<double>& out_;
  uint64_t hash_ = 0xcbf29ce484222325u;
};

}  // namespace

std::vector<double> trace_figures_of(const Trace& trace) {
  std::vector<double> out;
  out.reserve(2 + 32 * trace.operators.size() + 256);  // ~26 per operator, ~230 others
  out.push_back(api::kFiguresLayoutVersion);
  out.push_back(0);  // the signature, known at the end
  FiguresWriter writer(out);
  visit_trace(trace, writer);
  out[1] = writer.signature();
  return out;
}

std::string figures_layout_json() {
  nlohmann::json bound_keys = nlohmann::json::array();
  for (const std::string_view key : kBoundKeys) bound_keys.push_back(std::string(key));
  nlohmann::json bound_names = nlohmann::json::array();
  for (std::size_t i = 0; i < kBoundCount; ++i)
    bound_names.push_back(bound_name(static_cast<Bound>(i)));
  return dump_json(json_object({{"bound_keys", bound_keys},
                                {"bound_names", bound_names},
                                {"version", api::kFiguresLayoutVersion}}));
}

}  // namespace prefill_trace
