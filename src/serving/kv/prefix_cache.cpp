// One instance's prefix cache of Mooncake hash ids (src/serving/kv/prefix_cache.hpp).

#include "serving/kv/prefix_cache.hpp"

namespace prefill_trace::serving {

int64_t PrefixCache::ids_to_take(const std::vector<int64_t>& ids, int64_t refs) const {
  int64_t take = 0;
  for (int64_t i = 0; i < refs; ++i) {
    const auto it = entries_.find(ids[static_cast<std::size_t>(i)]);
    if (it == entries_.end() || it->second.references == 0) ++take;
  }
  return take;
}

int64_t PrefixCache::acquire(const std::vector<int64_t>& ids, int64_t refs) {
  int64_t hit = 0;
  bool leading = true;
  for (int64_t i = 0; i < refs; ++i) {
    Entry& entry = entries_[ids[static_cast<std::size_t>(i)]];
    // A free cached id is touched: out of the eviction order while it is referenced.
    if (entry.references == 0 && entry.computed) lru_.erase(entry.order);
    ++entry.references;
    leading = leading && entry.computed;
    if (leading) ++hit;
  }
  return hit;
}

void PrefixCache::mark_computed(const std::vector<int64_t>& ids, int64_t from, int64_t to) {
  for (int64_t i = from; i < to; ++i) entries_[ids[static_cast<std::size_t>(i)]].computed = true;
}

int64_t PrefixCache::release(const std::vector<int64_t>& ids, int64_t refs) {
  int64_t dropped = 0;
  // Deepest first: a request's tail blocks are the first of its blocks to be evicted.
  for (int64_t i = refs - 1; i >= 0; --i) {
    const int64_t id = ids[static_cast<std::size_t>(i)];
    const auto it = entries_.find(id);
    Entry& entry = it->second;
    if (--entry.references > 0) continue;
    ++dropped;
    if (entry.computed) {
      entry.order = next_order_++;
      lru_.emplace(entry.order, id);
    } else {
      entries_.erase(it);  // never computed: nothing to keep
    }
  }
  return dropped;
}

void PrefixCache::fit_within(int64_t room) {
  while (free_cached_ids() > room) {
    const auto oldest = lru_.begin();
    entries_.erase(oldest->second);
    lru_.erase(oldest);
    ++evicted_;
  }
}

}  // namespace prefill_trace::serving
