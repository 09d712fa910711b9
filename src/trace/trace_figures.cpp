#include "trace/trace_figures.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>

#include "json_write.hpp"
#include "trace/trace_schema.hpp"

namespace prefill_trace {
namespace {

constexpr double kNull = std::numeric_limits<double>::quiet_NaN();

// Writes the description's numbers in order and hashes the rest: texts, lengths and markers by
// 64-bit FNV-1a over 8-byte words (one multiply per 8 bytes, not per byte), keys by rotate-and-
// xor (mix_key), the whole through MurmurHash3's finalizer, cut to 53 bits so the double holding
// the signature is exact.
class FiguresWriter {
 public:
  explicit FiguresWriter(std::vector<double>& out) : out_(out) {}

  template <typename T>
  void number(std::string_view key, T value) {
    static_assert(std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, "numbers only");
    mix_key(key);
    out_.push_back(static_cast<double>(value));
  }
  void maybe(std::string_view key, const std::optional<double>& value) {
    mix_key(key);
    out_.push_back(value ? *value : kNull);
  }
  template <typename T>
  void flag(std::string_view key, T value) {
    static_assert(std::is_same_v<T, bool>, "flags are bool");
    mix_key(key);
    out_.push_back(value ? 1.0 : 0.0);
  }
  void text(std::string_view key, std::string_view value) {
    mix_key(key);
    mix(value);
  }
  void bound(std::string_view key, const std::optional<Bound>& value) {
    mix_key(key);
    out_.push_back(value ? static_cast<double>(*value) : kNull);
  }
  template <typename Members>
  void object(std::string_view key, Members members) {
    mix_key(key);
    mix_word(kOpen);
    members();
    mix_word(kClose);
  }
  template <typename Members>
  void maybe_object(std::string_view key, bool present, Members members) {
    if (present) {
      object(key, members);
    } else {
      mix_key(key);
      mix_word(kAbsent);
      out_.push_back(kNull);  // a null leaf, like any other: the reader consumes one figure
    }
  }
  template <typename Item>
  void array(std::string_view key, std::size_t size, Item item) {
    mix_key(key);
    mix_word(kOpen ^ size);
    for (std::size_t i = 0; i < size; ++i) item(i);
    mix_word(kClose);
  }

  double signature() const {
    uint64_t h = (hash_ ^ (hash_ >> 33)) * 0xff51afd7ed558ccdu;  // MurmurHash3's finalizer
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53u;
    return static_cast<double>((h ^ (h >> 33)) & ((uint64_t{1} << 53) - 1));
  }

 private:
  static constexpr uint64_t kOpen = 0x7b7b7b7b7b7b7b7bu;    // "{{{{{{{{"
  static constexpr uint64_t kClose = 0x7d7d7d7d7d7d7d7du;   // "}}}}}}}}"
  static constexpr uint64_t kAbsent = 0x6e756c6c6e756c6cu;  // "nullnull"

  void mix_word(uint64_t word) { hash_ = (hash_ ^ word) * 0x100000001b3u; }
  // A key: the ~650 keys are string literals whose order the code fixes, so they are folded in
  // by rotate-and-xor (no multiply: a 405B call's keys would cost ~1.5 µs in multiplies); the
  // texts, lengths and markers around them keep the multiply, and signature() mixes at the end.
  void mix_key(std::string_view key) {
    std::size_t at = 0;
    for (; at + 8 <= key.size(); at += 8) {
      uint64_t word;
      std::memcpy(&word, key.data() + at, 8);
      hash_ = ((hash_ << 7) | (hash_ >> 57)) ^ word;
    }
    uint64_t tail = 0;
    std::memcpy(&tail, key.data() + at, key.size() - at);
    hash_ = ((hash_ << 7) | (hash_ >> 57)) ^ tail ^ (static_cast<uint64_t>(key.size()) << 56);
  }
  void mix(std::string_view text) {
    std::size_t at = 0;
    for (; at + 8 <= text.size(); at += 8) {
      uint64_t word;
      std::memcpy(&word, text.data() + at, 8);
      mix_word(word);
    }
    // The last (partial) word carries the length, so "ab" + "" and "a" + "b" differ: a key of
    // up to 8 bytes costs one multiply.
    uint64_t tail = 0;
    std::memcpy(&tail, text.data() + at, text.size() - at);
    const auto size = static_cast<uint64_t>(text.size());
    mix_word(tail ^ (size << 56 | size >> 8));
  }

  std::vector<double>& out_;
  uint64_t hash_ = 0xcbf29ce484222325u;
};

}  // namespace

std::vector<double> trace_figures_of(const Trace& trace) {
  std::vector<double> out;
  out.reserve(2 + 32 * trace.operators.size() + 256);  // ~26 per operator, ~230 others
  out.push_back(kFiguresLayout);
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
  return dump_json(json_object(
      {{"bound_keys", bound_keys}, {"bound_names", bound_names}, {"version", kFiguresLayout}}));
}

}  // namespace prefill_trace
