#pragma once
// How much of the machine a kernel's work keeps busy: the estimate timing's shape terms
// (docs/model.md, "Shape"). Pure functions of counts, so the tests derive them by hand.

#include <cmath>

namespace prefill_trace {

/// The share of `units` compute units kept busy by `work_units` equal pieces of work, averaged
/// over the waves they run in: work_units / (⌈work_units / units⌉ · units). One partial wave of
/// w < units pieces keeps w / units busy.
inline double wave_occupancy(double work_units, double units) {
  if (work_units <= 0 || units <= 0) return 1;
  const double waves = std::ceil(work_units / units);
  return work_units / (waves * units);
}

/// Fused prefill attention: one thread block per (request, query head, query block), none split
/// over keys (FlashAttention-2/3 forward), so fewer blocks than units leave the rest idle:
/// blocks / units. With at least one block per unit there is no partial-wave penalty: causal
/// blocks differ in work (block i streams i key tiles), and FlashAttention-2 launches the
/// heaviest first while FlashAttention-3's persistent scheduler hands out blocks
/// longest-first, so the last wave is filled by the short blocks rather than left partial
/// (unlike a GEMM's equal tiles, wave_occupancy above).
inline double attention_occupancy(double blocks, double units) {
  if (blocks <= 0 || units <= 0) return 1;
  return blocks < units ? blocks / units : 1.0;
}

}  // namespace prefill_trace
