// K/V by reservation: a request reserves its whole context — prompt + output, or the sliding
// window's worth; a prefill instance only the prompt — at admission and keeps it until it
// leaves. A running request never runs out, nothing is preempted: the vLLM paper's
// "Orca (Oracle)" baseline (Kwon et al., SOSP 2023, §6.1), and this simulation's only mode
// before paging. Admission counts tokens; the blocks of `block_size` a reservation would take
// in a paged allocator, ⌈reserved tokens / block_size⌉, are counted beside them for the
// timeline's `kv_blocks` (docs/serving.md, "K/V memory"), so both modes draw in one unit.

#include <algorithm>

#include "serving/kv/kv.hpp"
#include "serving/simulation.hpp"

namespace prefill_trace::serving {
namespace {

class Reserve final : public KvGrant {
 public:
  Reserve(int64_t block_size, int64_t window) : block_size_(block_size), window_(window) {}

  bool fits(const Instance& in, const RequestSpec& spec, const RequestState&) const override {
    return in.kv_used_tokens + static_cast<double>(need(in, spec)) <= in.kv_capacity_tokens;
  }
  void admit(Instance& in, const RequestSpec& spec, RequestState& s) const override {
    s.kv_tokens = need(in, spec);
    in.kv_used_tokens += static_cast<double>(s.kv_tokens);
    s.kv_blocks = (s.kv_tokens + block_size_ - 1) / block_size_;
    in.kv_used_blocks += s.kv_blocks;
  }
  void release(Instance& in, const RequestSpec&, RequestState& s) const override {
    in.kv_used_tokens -= static_cast<double>(s.kv_tokens);
    s.kv_tokens = 0;
    in.kv_used_blocks -= s.kv_blocks;
    s.kv_blocks = 0;
  }
  bool grows() const override { return false; }
  bool grow(Instance&, RequestState&, int64_t) const override { return true; }

 private:
  int64_t need(const Instance& in, const RequestSpec& spec) const {
    const int64_t context = spec.prompt + (in.role == Role::prefill ? 0 : spec.output);
    return window_ > 0 ? std::min(context, window_) : context;
  }
  int64_t block_size_;
  int64_t window_;
};

}  // namespace

std::unique_ptr<KvGrant> make_reserve_kv(int64_t block_size, int64_t window, bool) {
  return std::make_unique<Reserve>(block_size, window);
}

}  // namespace prefill_trace::serving
