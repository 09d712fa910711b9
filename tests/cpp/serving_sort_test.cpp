// The radix sort behind the serving report's percentiles against std::sort, the sort it
// replaced: the report's bytes depend on the exact sorted sequence (the mean is summed in
// ascending order), so every column must come out bit for bit as std::sort leaves it.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "serving/sort.hpp"

namespace prefill_trace {
namespace {

std::vector<uint64_t> bits_of(const std::vector<double>& values) {
  std::vector<uint64_t> bits(values.size());
  std::memcpy(bits.data(), values.data(), values.size() * sizeof(double));
  return bits;
}

void expect_same_order_as_std_sort(std::vector<double> values) {
  std::vector<double> expected = values;
  std::sort(expected.begin(), expected.end());
  sort_ascending(values);
  EXPECT_EQ(bits_of(values), bits_of(expected));
}

TEST(ServingSort, LatenciesOfEverySizeSortAsStdSortDoes) {
  std::mt19937_64 random(19);
  std::lognormal_distribution<double> latency(-3, 1);  // seconds, like a TTFT column
  // Both sides of the 256-value switch to radix sorting, and a 10,000-request run's size.
  for (const std::size_t size : {1, 2, 255, 256, 257, 1000, 10000}) {
    std::vector<double> values(size);
    for (double& v : values) v = latency(random);
    expect_same_order_as_std_sort(values);
  }
}

TEST(ServingSort, RepeatsZerosNegativesAndExtremesSortAsStdSortDoes) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int> pick(0, 7);
  const double specials[] = {0.0,
                             1.0,
                             -2.5,
                             std::numeric_limits<double>::denorm_min(),
                             std::numeric_limits<double>::max(),
                             -std::numeric_limits<double>::max(),
                             std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()};
  std::vector<double> values(5000);
  for (double& v : values) v = specials[pick(random)];
  expect_same_order_as_std_sort(values);
  // Figures that agree in their high bits (the passes on those digits have nothing to move).
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = 1.0 + static_cast<double>(i % 97) * 1e-12;
  expect_same_order_as_std_sort(values);
}

}  // namespace
}  // namespace prefill_trace
