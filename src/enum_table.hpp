#pragma once
// Tables indexed by an enum (one row per value, looked up as table[value]): the check that
// their rows follow the enum's order, for a static_assert beside each table.

#include <cstddef>

namespace prefill_trace {

/// True when row i of `rows` has `i` as its `key`.
template <typename Row, std::size_t N, typename Enum>
constexpr bool rows_follow_enum(const Row (&rows)[N], Enum Row::*key) {
  for (std::size_t i = 0; i < N; ++i) {
    if (static_cast<std::size_t>(rows[i].*key) != i) return false;
  }
  return true;
}

}  // namespace prefill_trace
