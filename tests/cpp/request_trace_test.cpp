// Request traces (src/serving/request_trace.hpp): Azure's CSV and Mooncake's JSON Lines, read
// with arrival times worked out by hand from the timestamps, every malformed kind refused with
// its line, and the two published Azure 2023 traces (../shared/traces) read whole.

#include "serving/request_trace.hpp"

#include <gtest/gtest.h>

#include <string>

#include "limits.hpp"
#include "test_support.hpp"

namespace prefill_trace {
namespace {

constexpr const char* kHeader = "TIMESTAMP,ContextTokens,GeneratedTokens\r\n";

RequestTrace read_ok(const std::string& text, const RequestTraceOptions& options = {}) {
  auto trace = read_request_trace(text, options);
  EXPECT_TRUE(trace.ok()) << (trace.ok() ? "" : trace.error());
  return trace.ok() ? *trace : RequestTrace{};
}

std::string read_error(const std::string& text, const RequestTraceOptions& options = {}) {
  auto trace = read_request_trace(text, options);
  EXPECT_FALSE(trace.ok());
  return trace.ok() ? "" : trace.error();
}

TEST(RequestTrace, AzureArrivalsAreExactDifferencesOfTheTimestamps) {
  // 04.0319600 − 03.9799600 = 0.052 s; across midnight, a month and a year: 2023-12-31
  // 23:59:59.5 → 2024-01-01 00:00:00.25 is 0.75 s; a leap day: 2024-02-28 23:00 → 2024-03-01
  // 01:00 is 26 h = 93,600 s (29 February exists in 2024).
  const auto trace = read_ok(std::string(kHeader) +
                             "2023-11-16 18:17:03.9799600,4808,10\r\n"
                             "2023-11-16 18:17:04.0319600,3180,8\r\n");
  ASSERT_EQ(trace.requests.size(), 2u);
  EXPECT_EQ(trace.format, RequestTraceFormat::azure_csv);
  EXPECT_EQ(trace.requests[0].arrival_seconds, 0);
  EXPECT_DOUBLE_EQ(trace.requests[1].arrival_seconds, 0.052);
  EXPECT_EQ(trace.requests[0].prompt_tokens, 4808);
  EXPECT_EQ(trace.requests[1].output_tokens, 8);
  const auto year =
      read_ok(std::string(kHeader) + "2023-12-31 23:59:59.5,1,1\n2024-01-01 00:00:00.25,1,1");
  EXPECT_DOUBLE_EQ(year.requests[1].arrival_seconds, 0.75);
  const auto leap =
      read_ok(std::string(kHeader) + "2024-02-28 23:00:00,1,1\n2024-03-01 01:00:00,1,1\n");
  EXPECT_DOUBLE_EQ(leap.requests[1].arrival_seconds, 93600);
}

TEST(RequestTrace, RateScaleDividesArrivalsAndLimitTakesTheFirstRequests) {
  const std::string text =
      std::string(kHeader) +
      "2023-11-16 18:00:00,10,1\n2023-11-16 18:00:03,20,2\n2023-11-16 18:00:09,30,3\n";
  const auto fast = read_ok(text, {2, 0});  // twice the rate: 3 s → 1.5 s, 9 s → 4.5 s
  EXPECT_DOUBLE_EQ(fast.requests[1].arrival_seconds, 1.5);
  EXPECT_DOUBLE_EQ(fast.requests[2].arrival_seconds, 4.5);
  const auto first_two = read_ok(text, {1, 2});
  ASSERT_EQ(first_two.requests.size(), 2u);
  EXPECT_EQ(first_two.requests[1].prompt_tokens, 20);
  // The limit stops reading: a malformed line after it is never met.
  EXPECT_EQ(read_ok(text + "garbage\n", {1, 3}).requests.size(), 3u);
}

TEST(RequestTrace, MooncakeLinesCarryMillisecondsAndBlockHashes) {
  const auto trace = read_ok(
      "{\"timestamp\": 0, \"input_length\": 1024, \"output_length\": 5, \"hash_ids\": [1, 2]}\n"
      "{\"timestamp\": 1500, \"input_length\": 600, \"output_length\": 7, \"hash_ids\": [1, 3]}\n");
  ASSERT_EQ(trace.requests.size(), 2u);
  EXPECT_EQ(trace.format, RequestTraceFormat::mooncake_jsonl);
  EXPECT_DOUBLE_EQ(trace.requests[1].arrival_seconds, 1.5);  // 1,500 ms
  EXPECT_EQ(trace.requests[1].hash_ids, (std::vector<int64_t>{1, 3}));
  EXPECT_EQ(trace.requests[0].output_tokens, 5);
}

TEST(RequestTrace, EveryMalformedKindIsRefusedWithItsLine) {
  const std::string h = kHeader;
  const std::string m = "{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1}\n";
  const std::pair<std::string, std::string> cases[] = {
      {"", "line 1: not a request trace"},
      {"time,in,out\n1,2,3\n", "line 1: not a request trace"},
      {"TIMESTAMP,ContextTokens,GeneratedTokens,Extra\n", "line 1: the header must read"},
      {h + "2023-11-16 18:00:00,10\n", "line 2: expected 3 comma-separated fields"},
      {h + "2023-11-16 18:00:00,10,1,4\n", "line 2: more than 3 fields"},
      {h + "2023-11-16 18:00:01,10,1\n2023-11-16 18:00:00,10,1\n",
       "line 3: arrives before the line above it"},
      {h + "2023-11-16 18:00:00,-10,1\n",
       "line 2: ContextTokens must be a whole number from 1 to 16777215"},
      {h + "2023-11-16 18:00:00,10,0\n",
       "line 2: GeneratedTokens must be a whole number from 1 to 1048576"},
      {h + "2023-02-30 18:00:00,10,1\n", "line 2: TIMESTAMP must read YYYY-MM-DD HH:MM:SS.fffffff"},
      {h + "2023-11-16 18:00:00,10,1\n\n2023-11-16 18:00:01,10,1\n", "line 3: an empty line"},
      {h + std::string("2023-11-16 18:00:00,1\0,1\n", 26), "line 2: not text (a control byte 0)"},
      {h, "the trace holds no request"},
      {"{\"timestamp\": 0, \"input_length\": 5}\n", "line 1: output_length is missing"},
      {"{\"timestamp\": 0, \"input_length\": 5, \"output_length\": 1, \"extra\": 1}\n",
       "line 1: unknown key \"extra\""},
      {"{\"timestamp\": -1, \"input_length\": 5, \"output_length\": 1}\n",
       "line 1: timestamp must be milliseconds"},
      // One id per 512-token block: 513 tokens have ⌈513/512⌉ = 2.
      {"{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 1, \"hash_ids\": [1, 2]}\n",
       "line 1: hash_ids names 2 blocks; a prompt of 1 tokens has 1 of 512 tokens"},
      {"{\"timestamp\": 0, \"input_length\": 513, \"output_length\": 1, \"hash_ids\": [1, 2, 3]}\n",
       "line 1: hash_ids names 3 blocks; a prompt of 513 tokens has 2"},
      {m + "{\"timestamp\": 1, \"input_length\": 600, \"output_length\": 1, \"hash_ids\": [1, "
           "1.5]}\n",
       "line 2: hash_ids must hold whole numbers from 0 to 2^53, found \"1.5\""},
      {m + "{\"timestamp\": 1, \"input_length\": 600, \"output_length\": 1, \"hash_ids\": "
           "[\"7\"]}\n",
       "line 2: hash_ids must hold whole numbers from 0 to 2^53, found"},
      {m + "{\"timestamp\": 1, \"input_length\": 600, \"output_length\": 1, \"hash_ids\": [-1]}\n",
       "line 2: hash_ids must hold whole numbers from 0 to 2^53, found \"-1\""},
      // 2^53 + 1 = 9,007,199,254,740,993.
      {m + "{\"timestamp\": 1, \"input_length\": 600, \"output_length\": 1, \"hash_ids\": "
           "[9007199254740993]}\n",
       "line 2: hash_ids must hold whole numbers from 0 to 2^53"},
      {m + "{\"timestamp\": 1, \"input_length\": 1100, \"output_length\": 1, \"hash_ids\": [4, 9, "
           "4]}\n",
       "line 2: hash_ids names block 4 twice"},
      {"{\"timestamp\": 0,\n", "line 1: "},
  };
  for (const auto& [text, expected] : cases) {
    EXPECT_NE(read_error(text).find(expected), std::string::npos)
        << read_error(text) << " for " << text.substr(0, 60);
  }
  EXPECT_NE(read_error(h + "2023-11-16 18:00:00,1,1\n", {0, 0}).find("rate scale"),
            std::string::npos);
  // An hour-long trace stretched a thousandfold still fits in a year (3.6e6 s); 2 days stretched
  // 1000× (1.7e8 s) do not.
  EXPECT_NE(read_error(h + "2023-11-16 18:00:00,1,1\n2023-11-18 18:00:00,1,1\n", {1e-3, 0})
                .find("line 3: arrives more than a year"),
            std::string::npos);
}

TEST(RequestTrace, HashIdsPastTheTracesBoundAreRefusedAtTheirLine) {
  // A bound of 5 ids (the limit itself, 2^21, is a 15 MB text): 2 + 3 ids fit, the third line's
  // sixth id does not.
  const std::string lines =
      "{\"timestamp\": 0, \"input_length\": 1024, \"output_length\": 1, \"hash_ids\": [1, 2]}\n"
      "{\"timestamp\": 1, \"input_length\": 1100, \"output_length\": 1, \"hash_ids\": [1, 2, 3]}\n";
  RequestTraceOptions options;
  options.max_hash_ids = 5;
  EXPECT_EQ(read_ok(lines, options).requests.size(), 2u);
  EXPECT_NE(read_error(lines + "{\"timestamp\": 2, \"input_length\": 9, \"output_length\": 1, "
                               "\"hash_ids\": [8]}\n",
                       options)
                .find("line 3: the trace's hash_ids pass 5 in all"),
            std::string::npos);
  EXPECT_EQ(RequestTraceOptions{}.max_hash_ids, limits::max_trace_hash_ids);
}

TEST(RequestTrace, TextOverTheLimitIsRefusedUnread) {
  const std::string big(limits::max_request_trace_bytes + 1, 'x');
  EXPECT_NE(read_error(big).find("at most 67108864 bytes"), std::string::npos);
}

TEST(RequestTrace, ThePublishedAzureTracesReadWhole) {
  // ../shared/traces/README.md: 8,819 code requests, 19,366 conversation requests. The code
  // trace's first line is 18:17:03.9799600 (4,808 prompt, 10 output tokens) and its last
  // 19:14:19.9280160 (549, 173): 19:14:19.928016 − 18:17:03.97996 = 57 min 15.948056 s =
  // 3,435.948056 s later.
  const std::string code = test::read_text("../shared/traces/AzureLLMInferenceTrace_code.csv");
  if (code.empty()) GTEST_SKIP() << "../shared/traces is not beside the checkout";
  const auto trace = read_ok(code);
  ASSERT_EQ(trace.requests.size(), 8819u);
  EXPECT_EQ(trace.requests.front().prompt_tokens, 4808);
  EXPECT_EQ(trace.requests.back().output_tokens, 173);
  EXPECT_NEAR(trace.requests.back().arrival_seconds, 3435.948056, 1e-9);
  const auto conversation =
      read_ok(test::read_text("../shared/traces/AzureLLMInferenceTrace_conv.csv"));
  EXPECT_EQ(conversation.requests.size(), 19366u);
}

}  // namespace
}  // namespace prefill_trace
