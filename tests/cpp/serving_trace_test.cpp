// A request trace replayed through the serving facade (docs/serving.md, "Real traces"): its
// requests become the run's, read as the reader reads them (tests/cpp/request_trace_test.cpp),
// with the fields it sets refused beside it and its errors at /trace naming the line.

#include <gtest/gtest.h>

#include <string>

#include "prefill_trace/engine.hpp"
#include "serving/serving_json.hpp"

namespace prefill_trace {
namespace {

// Three requests: at 18:17:03.5, 0.5 s later, and in the same tick as the second (equal
// timestamps are accepted, in file order).
constexpr std::string_view kAzure =
    "TIMESTAMP,ContextTokens,GeneratedTokens\n"
    "2023-11-16 18:17:03.5000000,100,3\n"
    "2023-11-16 18:17:04.0000000,200,2\n"
    "2023-11-16 18:17:04.0000000,300,1\n";

std::string scenario(const std::string& serving) {
  return R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "serving": {)" + serving + "}}";
}

TEST(ServingTrace, ItsRequestsAreTheRun) {
  // Rate scale 2: arrivals 0, 0.5 / 2 = 0.25, 0.25; the limit keeps all three.
  const auto request = parse_serving_request(
      scenario(R"("policy": "prefill-first", "trace_rate_scale": 2, "trace_limit": 3)"), kAzure);
  ASSERT_TRUE(request.ok()) << request.error();
  const auto report = simulate_serving(request->scenario, request->config);
  ASSERT_TRUE(report.ok()) << report.error();
  ASSERT_EQ(report->run.outcomes.size(), 3u);
  EXPECT_EQ(report->run.outcomes[0].arrival_seconds, 0);
  EXPECT_EQ(report->run.outcomes[1].arrival_seconds, 0.25);
  EXPECT_EQ(report->run.outcomes[2].arrival_seconds, 0.25);
  EXPECT_EQ(report->run.outcomes[1].prompt_tokens, 200);
  EXPECT_EQ(report->run.outcomes[2].output_tokens, 1);
  EXPECT_EQ(report->run.completed, 3);
  EXPECT_EQ(report->config.requests, 3);
  EXPECT_EQ(report->config.trace_format, "azure-csv");
}

TEST(ServingTrace, TheLimitTakesTheFirstRequests) {
  const auto request = parse_serving_request(scenario(R"("trace_limit": 2)"), kAzure);
  ASSERT_TRUE(request.ok()) << request.error();
  EXPECT_EQ(request->config.rows.size(), 2u);
  EXPECT_EQ(request->config.rows[1].prompt_tokens, 200);
}

TEST(ServingTrace, WhatTheTraceSetsIsRefusedBesideIt) {
  for (const char* key : {"rate", "requests", "prompt", "output", "arrival"}) {
    const std::string value = std::string(key) == "arrival" ? R"("poisson")" : "10";
    const auto refused =
        parse_serving_request(scenario("\"" + std::string(key) + "\": " + value), kAzure);
    ASSERT_FALSE(refused.ok()) << key;
    EXPECT_EQ(refused.failure().path, "/serving/" + std::string(key));
    EXPECT_EQ(refused.failure().code, ErrorCode::incompatible);
    EXPECT_EQ(refused.failure().what, "is set by the trace");
  }
  const auto rows = parse_serving_request(scenario(R"("rows": [[0, 10, 2]])"), kAzure);
  ASSERT_FALSE(rows.ok());
  EXPECT_EQ(rows.failure().path, "/serving/rows");
  // Without a trace, its reading options are refused.
  const auto scale = parse_serving_request(
      scenario(R"("rate": 1, "requests": 1, "prompt": 10, "output": 2, "trace_limit": 5)"));
  ASSERT_FALSE(scale.ok());
  EXPECT_EQ(scale.failure().path, "/serving/trace_limit");
  EXPECT_EQ(scale.failure().code, ErrorCode::incompatible);
}

TEST(ServingTrace, AnErrorInTheTraceNamesItsLine) {
  // Line 3 arrives before line 2.
  const auto reply = api::simulate_serving(scenario(""),
                                           "TIMESTAMP,ContextTokens,GeneratedTokens\n"
                                           "2023-11-16 18:17:04.0000000,200,2\n"
                                           "2023-11-16 18:17:03.0000000,100,3\n");
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(reply.path, "/trace");
  EXPECT_EQ(reply.error,
            "/trace: line 3: arrives before the line above it (the trace must be in time order)");
  // A goodput search varies a generated rate: refused with a trace.
  const auto goodput = api::simulate_serving(scenario(R"("goodput": true, "ttft_slo": 1)"), kAzure);
  EXPECT_FALSE(goodput.ok);
  EXPECT_EQ(goodput.path, "/serving/goodput");
}

}  // namespace
}  // namespace prefill_trace
