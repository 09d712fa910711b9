#pragma once
// The estimate's time for one all-reduce call, in the form of NCCL's own tuning model: NCCL
// predicts, per call, time = latency + bytes / bandwidth for each algorithm and protocol it may
// use and runs the one predicted fastest. The constants are NCCL's (NVIDIA/nccl
// src/graph/tuning.cc at b6475625fbcaa2c3c0e50eed2fa1255d7514d4a2, the 2.19/2.20 releases the
// measured stacks of 2024 shipped with; docs/model.md): baseLat, hwLat (NVLink and PCI rows) and
// the protocols' share of the bus bandwidth (LL ¼, LL128 0.92, Simple 1). One node only.

#include <algorithm>
#include <limits>

#include "scenario/scenario.hpp"

namespace prefill_trace {

/// One algorithm/protocol pair NCCL may pick for an all-reduce on one node.
struct AllReduceChoice {
  const char* name;
  double base_seconds;         // baseLat
  double nvlink_step_seconds;  // hwLat[NVLINK] per step; < 0: not enabled over NVLink
  double pcie_step_seconds;    // hwLat[PCI] per step; < 0: not enabled over PCIe
  double bandwidth_fraction;   // of the link's bandwidth the protocol delivers
  bool in_network;             // NVLS: the switch sums, one latency, (N−1)/N of the data each way
};

// Ring: 2(N−1) steps, 2(N−1)/N of the data. LL128 is enabled only over NVLink (tuning.cc enables
// it for NVLink paths on Volta/Ampere/Hopper). NVLS: latency = hwLat alone (no per-step term,
// base 0), Simple protocol only, and only where the switch reduces in-network. The tree is left
// out: on one node it sends 2·S per device (algorithm bandwidth = half the bus bandwidth), more
// than the ring, and is never the fastest for the sizes prefill sends (≥ 1 MB per call).
inline constexpr AllReduceChoice kAllReduceChoices[] = {
    {"ring LL", 6.6e-6, 0.6e-6, 1.0e-6, 0.25, false},
    {"ring LL128", 14.0e-6, 1.9e-6, -1, 0.92, false},
    {"ring Simple", 8.4e-6, 3.4e-6, 5.7e-6, 1.0, false},
    {"NVLS Simple", 0, 23e-6, -1, 1.0, true},
};

/// Seconds of one all-reduce of `bytes` per device over `devices` (≥ 2) on a link of `bandwidth`
/// bytes/s one way (already × η_link): the least over the choices the link enables of
/// latency + bytes sent / (bandwidth × the protocol's fraction).
inline double all_reduce_call_seconds(double bytes, double devices, double bandwidth, LinkKind kind,
                                      bool reduces_in_network) {
  double best = std::numeric_limits<double>::infinity();
  for (const AllReduceChoice& choice : kAllReduceChoices) {
    const double step =
        kind == LinkKind::nvlink ? choice.nvlink_step_seconds : choice.pcie_step_seconds;
    if (step < 0 || (choice.in_network && !reduces_in_network)) continue;
    const double steps = choice.in_network ? 1 : 2 * (devices - 1);
    const double sent = (choice.in_network ? 1 : 2) * (devices - 1) / devices * bytes;
    best = std::min(
        best, choice.base_seconds + steps * step + sent / (bandwidth * choice.bandwidth_fraction));
  }
  return best;
}

}  // namespace prefill_trace
