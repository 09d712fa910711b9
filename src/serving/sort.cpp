#include "serving/sort.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace prefill_trace {
namespace {

constexpr int kDigitBits = 11;  // 6 passes over 64 bits; 2,048 counters (16 KB) stay in L1
constexpr std::size_t kBuckets = std::size_t{1} << kDigitBits;
constexpr uint64_t kSignBit = uint64_t{1} << 63;
// Below this many values the six counting passes cost more than comparisons.
constexpr std::size_t kRadixMinimum = 256;

// An unsigned key whose order is the doubles' order: a positive double's bits already sort
// as integers once the sign bit is set; a negative one's sort reversed, so all its bits flip.
uint64_t order_key(double value) {
  uint64_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return (bits & kSignBit) != 0 ? ~bits : bits | kSignBit;
}

double from_order_key(uint64_t key) {
  const uint64_t bits = (key & kSignBit) != 0 ? key & ~kSignBit : ~key;
  double value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// One stable counting pass on the digit at `shift`, skipped when every key shares that digit
// (as the sign and top exponent bits of similar figures do).
void sort_by_digit(std::vector<uint64_t>& keys, std::vector<uint64_t>& scratch, int shift) {
  std::array<std::size_t, kBuckets> offsets{};
  const auto digit = [shift](uint64_t key) {
    return static_cast<std::size_t>((key >> shift) & (kBuckets - 1));
  };
  for (const uint64_t key : keys) ++offsets[digit(key)];
  if (offsets[digit(keys.front())] == keys.size()) return;
  std::size_t start = 0;
  for (std::size_t& offset : offsets) {
    const std::size_t count = offset;
    offset = start;
    start += count;
  }
  for (const uint64_t key : keys) scratch[offsets[digit(key)]++] = key;
  keys.swap(scratch);
}

}  // namespace

void sort_ascending(std::vector<double>& values) {
  if (values.size() < kRadixMinimum) {
    std::sort(values.begin(), values.end());
    return;
  }
  std::vector<uint64_t> keys(values.size());
  std::vector<uint64_t> scratch(values.size());
  std::transform(values.begin(), values.end(), keys.begin(), order_key);
  for (int shift = 0; shift < 64; shift += kDigitBits) sort_by_digit(keys, scratch, shift);
  std::transform(keys.begin(), keys.end(), values.begin(), from_order_key);
}

}  // namespace prefill_trace
