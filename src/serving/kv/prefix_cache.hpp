#pragma once
// One instance's prefix cache under paged K/V when a request trace carries Mooncake `hash_ids`
// (docs/serving.md, "Prefix cache from hash_ids"). A hash id names one block of
// kHashBlockTokens prompt tokens *and everything before it* (Mooncake hashes each block with
// its prefix), so a request hits the first k of its ids that are cached and computed, in
// order: vLLM's automatic prefix caching (Kwon et al. 2023; `vllm/core/block/
// prefix_caching_block.py` in v0, `vllm/v1/core/kv_cache_manager.py` in v1) at the trace's
// granularity. Each cached id holds `blocks_per_id` paged blocks of the instance's K/V (512 /
// block_size), counted once however many running requests share it.
//
// The rules, each vLLM's:
//   - A request references the ids of its prompt's *full* 512-token blocks from admission until
//     it leaves (a block being computed is shared at once, as v0's BlockSpaceManager allocated
//     it by hash); only computed blocks count as hits, and a hit leaves at least one prompt
//     token to compute (v1 caps the hit at prompt − 1 tokens: the last token samples).
//   - An id no running request references stays cached but free: it counts as free memory and
//     is evicted only when a block is needed and no free block without a cached prefix is left
//     (v1's free-block queue evicts from its head; this model takes uncached free blocks
//     first, a simplification that keeps a prefix as long as the memory allows).
//   - Eviction is least recently used: ids in the order their last reference was dropped, a
//     request's own ids deepest first (v1 frees a request's blocks "in reverse order so that
//     the tail blocks are evicted first"). An id never computed is dropped, not cached.
// Copyable (a run copies its instances): the order is a map from a sequence number, not a list
// of iterators.

#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "serving/request_trace.hpp"  // kHashBlockTokens

namespace prefill_trace::serving {

class PrefixCache {
 public:
  /// Ids `ids[0, refs)` of a request about to be admitted: how many of them no running request
  /// holds (absent ones and free cached ones): each takes its blocks from the free pool.
  int64_t ids_to_take(const std::vector<int64_t>& ids, int64_t refs) const;
  /// References `ids[0, refs)`, creating absent ones (not computed); returns how many leading
  /// ones were computed already (the hit, in ids).
  int64_t acquire(const std::vector<int64_t>& ids, int64_t refs);
  /// Marks ids[from, to) computed.
  void mark_computed(const std::vector<int64_t>& ids, int64_t from, int64_t to);
  /// Drops one reference of each of ids[0, refs), deepest first; returns how many ids no running
  /// request holds any more.
  int64_t release(const std::vector<int64_t>& ids, int64_t refs);
  /// Evicts least recently used free ids until at most `room` are left (the ids the instance's
  /// blocks not in use by running requests can hold).
  void fit_within(int64_t room);

  /// Cached ids no running request references.
  int64_t free_cached_ids() const { return static_cast<int64_t>(lru_.size()); }
  int64_t evicted_ids() const { return evicted_; }

 private:
  struct Entry {
    int64_t references = 0;
    bool computed = false;
    uint64_t order = 0;  // its key in lru_ while references == 0
  };
  std::unordered_map<int64_t, Entry> entries_;
  std::map<uint64_t, int64_t> lru_;  // free cached ids, least recently used first
  uint64_t next_order_ = 0;
  int64_t evicted_ = 0;
};

}  // namespace prefill_trace::serving
