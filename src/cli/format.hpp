#pragma once
// Human-readable numbers for the CLI's table output: SI prefixes, and bytes labelled GB (10^9)
// with the binary GiB (2^30) beside them, because the two are routinely confused.

#include <string>

namespace prefill_trace::cli {

std::string si(double value, const std::string& unit);  // 3.35e13 FLOP -> "33.5 TFLOP"
std::string bytes(double value);                        // "16.1 GB (15.0 GiB)"
std::string seconds(double value);                      // "12.3 ms"
std::string plain(double value);                        // "295.2"

}  // namespace prefill_trace::cli
