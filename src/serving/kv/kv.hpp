#pragma once
// How an instance grants K/V memory to its requests (docs/serving.md, "K/V memory"): one class
// per KvMode in this folder (reserve.cpp, paged.cpp), one row per mode in registry.cpp, held to
// the enum by a static_assert. The queue side of preemption (who is preempted, where it waits)
// is the loop's (src/serving/kv_admission.cpp).

#include <cstdint>
#include <memory>

#include "serving/serving.hpp"

namespace prefill_trace::serving {

struct Instance;
struct RequestState;
struct RequestSpec;

class KvGrant {
 public:
  virtual ~KvGrant() = default;
  /// Whether the request may be admitted to `in` now.
  virtual bool fits(const Instance& in, const RequestSpec& spec, const RequestState& s) const = 0;
  virtual void admit(Instance& in, const RequestSpec& spec, RequestState& s) const = 0;
  /// Frees everything the request holds on `in`.
  virtual void release(Instance& in, RequestState& s) const = 0;
  /// Whether a running request's K/V grows as it decodes: then grow() runs before each decode.
  virtual bool grows() const = 0;
  /// Room for `tokens` K/V tokens of a running request; false when memory is out.
  virtual bool grow(Instance& in, RequestState& s, int64_t tokens) const = 0;
};

struct KvModeTraits {
  KvMode mode;
  const char* name;                   // as the input and the report spell it
  double default_memory_utilization;  // when gpu_memory_utilization is 0 (unset)
  // Block size, and the model's sliding window (0: none): the K/V a request keeps.
  std::unique_ptr<KvGrant> (*make)(int64_t block_size, int64_t window);
};

const KvModeTraits& kv_mode_traits(KvMode mode);

std::unique_ptr<KvGrant> make_paged_kv(int64_t block_size, int64_t window);
std::unique_ptr<KvGrant> make_reserve_kv(int64_t block_size, int64_t window);

/// vLLM's block manager keeps this share of the blocks free when admitting a prompt
/// (v0 BlockSpaceManager, `watermark=0.01`: watermark_blocks = int(0.01 × num_gpu_blocks)).
constexpr double kPagedWatermark = 0.01;

}  // namespace prefill_trace::serving
