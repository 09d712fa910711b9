// Paged K/V (vLLM, Kwon et al., SOSP 2023; the rules of vLLM v0's scheduler and
// BlockSpaceManager v1, 0.2–0.6): K/V lives in blocks of `block_size` tokens allocated as a
// request's context grows. Admission allocates the blocks of the tokens to prefill (the prompt,
// or prompt + generated tokens after a preemption) and needs, after them, the watermark's share
// of all blocks still free (`can_allocate`); a running request takes a block when its next token
// starts one (`append_slot`), with no watermark. When none is free the loop preempts
// (kv_admission.cpp).

#include <algorithm>

#include "serving/kv/kv.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {
namespace {

class Paged final : public KvGrant {
 public:
  Paged(int64_t block_size, int64_t window) : block_size_(block_size), window_(window) {}

  bool fits(const Instance& in, const RequestSpec&, const RequestState& s) const override {
    const int64_t free = in.kv_capacity_blocks - in.kv_used_blocks;
    return free - blocks(s.target) >= in.watermark_blocks;
  }
  void admit(Instance& in, const RequestSpec&, RequestState& s) const override {
    s.kv_blocks = blocks(s.target);
    s.kv_tokens = s.target;
    in.kv_used_blocks += s.kv_blocks;
  }
  void release(Instance& in, RequestState& s) const override {
    in.kv_used_blocks -= s.kv_blocks;
    s.kv_blocks = 0;
    s.kv_tokens = 0;
  }
  bool grows() const override { return true; }
  bool grow(Instance& in, RequestState& s, int64_t tokens) const override {
    const int64_t more = blocks(tokens) - s.kv_blocks;
    if (more <= 0) return true;
    if (in.kv_used_blocks + more > in.kv_capacity_blocks) return false;
    in.kv_used_blocks += more;
    s.kv_blocks += more;
    s.kv_tokens = tokens;
    return true;
  }

 private:
  // Blocks for a context of `tokens`: a sliding-window model keeps the window's worth.
  int64_t blocks(int64_t tokens) const {
    const int64_t kept = window_ > 0 ? std::min(tokens, window_) : tokens;
    return (kept + block_size_ - 1) / block_size_;
  }
  int64_t block_size_;
  int64_t window_;
};

}  // namespace

std::unique_ptr<KvGrant> make_paged_kv(int64_t block_size, int64_t window) {
  return std::make_unique<Paged>(block_size, window);
}

}  // namespace prefill_trace::serving
