// The K/V modes: one row per KvMode, in the enum's order (docs/serving.md, "K/V memory").

#include <cstddef>
#include <iterator>

#include "enum_table.hpp"
#include "serving/kv/kv.hpp"

namespace prefill_trace::serving {
namespace {

constexpr KvModeTraits kKvModes[] = {
    // vLLM's default gpu_memory_utilization.
    {KvMode::paged, "paged", 0.9, make_paged_kv},
    // The whole device memory, as the simulation had before paging (its outputs unchanged).
    {KvMode::reserve, "reserve", 1.0, make_reserve_kv},
};

static_assert(std::size(kKvModes) == kKvModeCount, "one row per KvMode");
static_assert(rows_follow_enum(kKvModes, &KvModeTraits::mode), "rows in the enum's order");

}  // namespace

const KvModeTraits& kv_mode_traits(KvMode mode) {
  return kKvModes[static_cast<std::size_t>(mode)];
}

}  // namespace prefill_trace::serving

namespace prefill_trace {

const char* kv_mode_name(KvMode mode) {
  return serving::kv_mode_traits(mode).name;
}

}  // namespace prefill_trace
