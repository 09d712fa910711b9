// Paged K/V (vLLM, Kwon et al., SOSP 2023; the rules of vLLM v0's scheduler and
// BlockSpaceManager v1, 0.2–0.6): K/V lives in blocks of `block_size` tokens allocated as a
// request's context grows. Admission allocates the blocks of the tokens to prefill (the prompt,
// or prompt + generated tokens after a preemption) and needs, after them, the watermark's share
// of all blocks still free (`can_allocate`); a running request takes a block when its next token
// starts one (`append_slot`), with no watermark. When none is free the loop preempts
// (kv_admission.cpp). With a trace's hash ids the instance's prefix cache shares these blocks
// (prefix_cache.hpp).

#include <algorithm>

#include "serving/kv/kv.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {
namespace {

class Paged final : public KvGrant {
 public:
  Paged(int64_t block_size, int64_t window, bool prefix_cache)
      : block_size_(block_size),
        window_(window),
        blocks_per_id_(prefix_cache ? kHashBlockTokens / block_size : 0) {}

  bool fits(const Instance& in, const RequestSpec& spec, const RequestState& s) const override {
    const int64_t free = in.kv_capacity_blocks - in.kv_used_blocks;
    return free - blocks_to_take(in, spec, s) >= in.watermark_blocks;
  }
  void admit(Instance& in, const RequestSpec& spec, RequestState& s) const override {
    in.kv_used_blocks += blocks_to_take(in, spec, s);
    s.kv_blocks = blocks(s.target);
    s.kv_tokens = s.target;
    s.hash_refs = cached_ids(in, spec);
    if (s.hash_refs > 0) {
      // The hit leaves one token to compute: the last prompt token samples (vLLM v1 caps the
      // hit at num_tokens − 1); after a preemption the target is prompt + generated > prompt.
      const int64_t hit = std::min(in.prefix_cache.acquire(spec.hash_ids, s.hash_refs),
                                   (s.target - 1) / kHashBlockTokens);
      s.hash_marked = hit;
      s.cached = s.prefilled = hit * kHashBlockTokens;
    }
    evict_to_fit(in);
  }
  void release(Instance& in, const RequestSpec& spec, RequestState& s) const override {
    in.kv_used_blocks -= s.kv_blocks - blocks_per_id_ * s.hash_refs;
    if (s.hash_refs > 0) {
      in.kv_used_blocks -= blocks_per_id_ * in.prefix_cache.release(spec.hash_ids, s.hash_refs);
    }
    s.kv_blocks = 0;
    s.kv_tokens = 0;
    s.hash_refs = 0;
    s.hash_marked = 0;
  }
  bool grows() const override { return true; }
  bool grow(Instance& in, RequestState& s, int64_t tokens) const override {
    const int64_t more = blocks(tokens) - s.kv_blocks;
    if (more <= 0) return true;
    if (in.kv_used_blocks + more > in.kv_capacity_blocks) return false;
    in.kv_used_blocks += more;
    s.kv_blocks += more;
    s.kv_tokens = tokens;
    evict_to_fit(in);
    return true;
  }
  // The prompt's full hash blocks the chunk completed become hits for later requests.
  void computed(Instance& in, const RequestSpec& spec, RequestState& s) const override {
    const int64_t full = std::min(s.hash_refs, s.prefilled / kHashBlockTokens);
    if (full <= s.hash_marked) return;
    in.prefix_cache.mark_computed(spec.hash_ids, s.hash_marked, full);
    s.hash_marked = full;
  }

 private:
  // Blocks taken from the free pool come from those without a cached prefix first; free cached
  // ids are evicted (least recently freed first) only for what those cannot cover.
  void evict_to_fit(Instance& in) const {
    if (blocks_per_id_ == 0) return;
    in.prefix_cache.fit_within((in.kv_capacity_blocks - in.kv_used_blocks) / blocks_per_id_);
  }
  // Blocks for a context of `tokens`: a sliding-window model keeps the window's worth.
  int64_t blocks(int64_t tokens) const {
    const int64_t kept = window_ > 0 ? std::min(tokens, window_) : tokens;
    return (kept + block_size_ - 1) / block_size_;
  }
  // The hash ids a request references on `in`: those of its prompt's full 512-token blocks, on
  // an instance that prefills (a decode instance receives the K/V and caches none).
  int64_t cached_ids(const Instance& in, const RequestSpec& spec) const {
    if (blocks_per_id_ == 0 || in.role == Role::decode) return 0;
    return std::min(static_cast<int64_t>(spec.hash_ids.size()), spec.prompt / kHashBlockTokens);
  }
  // Blocks the request takes from the free pool at admission: its context's blocks, those of
  // hash ids a running request already holds aside (they are counted once).
  int64_t blocks_to_take(const Instance& in, const RequestSpec& spec, const RequestState& s) const {
    const int64_t ids = cached_ids(in, spec);
    if (ids == 0) return blocks(s.target);
    return blocks(s.target) -
           blocks_per_id_ * (ids - in.prefix_cache.ids_to_take(spec.hash_ids, ids));
  }
  int64_t block_size_;
  int64_t window_;
  int64_t blocks_per_id_;  // paged blocks of one hash id; 0: no prefix cache from hash ids
};

}  // namespace

std::unique_ptr<KvGrant> make_paged_kv(int64_t block_size, int64_t window, bool prefix_cache) {
  return std::make_unique<Paged>(block_size, window, prefix_cache);
}

}  // namespace prefill_trace::serving
