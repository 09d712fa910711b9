// Issue 24's engine defects (round three of abuse), one test each: floors on every rate that
// could turn a time into Infinity (E1, E2), a document that ends at its last byte and not at a
// NUL (E3), a sweep whose cost is bounded (E4), and errors that quote input bounded and escaped
// (E5). Each expectation is a literal written from the stated limits (src/limits.hpp,
// docs/robustness.md) or derived by hand in its comment; every test here failed on 5c3fb4a.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "json_path.hpp"
#include "lesson.hpp"
#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "test_support.hpp"
#include "trace/queueing.hpp"  // time_to_first_token
#include "trace/trace.hpp"
#include "trace/trace_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;
using test::expect_finite;

std::string scenario_error(const json& scenario) {
  auto parsed = scenario_from_json(scenario);
  return parsed ? "" : parsed.error();
}

// E1. 1e-300 B/s with tensor_parallel 2 gave all-reduce times of Infinity, total_seconds null
// and `overloaded` false. A link is 0 (none) or 1e6 … 1e15 B/s, the HBM bandwidth range.
TEST(Floors, InterconnectBandwidthIsZeroOrAtLeastOneMegabytePerSecond) {
  json scenario = {{"model", "llama-3.1-8b"},
                   {"hardware", {{"preset", "h100-sxm"}, {"interconnect_bandwidth", 1e-300}}},
                   {"tensor_parallel", 2}};
  EXPECT_EQ(scenario_error(scenario),
            "/hardware/interconnect_bandwidth: must be 0 or from 1000000 to 1e+15");
  scenario["hardware"]["interconnect_bandwidth"] = 999999;
  EXPECT_EQ(scenario_error(scenario),
            "/hardware/interconnect_bandwidth: must be 0 or from 1000000 to 1e+15");
  // At the floor every figure is finite and the queue (none) is not overloaded.
  scenario["hardware"]["interconnect_bandwidth"] = 1e6;
  auto parsed = scenario_from_json(scenario);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  expect_finite(trace_to_json(trace), "");
  EXPECT_FALSE(trace.ttft.overloaded);
  EXPECT_TRUE(trace.ttft.total_seconds.has_value());
  // 0 still means "no link": fine on one device, named as missing on two.
  scenario["hardware"]["interconnect_bandwidth"] = 0;
  scenario["tensor_parallel"] = 1;
  EXPECT_EQ(scenario_error(scenario), "");
}

// E2. λ = 1e-320 with B = 2: batch formation (B − 1)/(2λ) overflowed to Infinity while
// `overloaded` stayed false ("time to first token —" on the page).
TEST(Floors, ArrivalRateIsZeroOrAtLeastTheFloor) {
  json scenario = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"batch", 2}};
  scenario["arrival_rate"] = 1e-320;
  EXPECT_EQ(scenario_error(scenario), "/arrival_rate: must be 0 or from 1e-30 to 1000000000");
  // At the floor the queue is finite and by hand: formation (2 − 1)/(2 · 1e-30) = 5e29 s; the
  // M/D/1 wait (λ/B)·S²/(2(1 − ρ)) with λ/B = 5e-31 and S < 1 s is below 1e-30 s, so the queue
  // is 5e29 s to double precision.
  scenario["arrival_rate"] = 1e-30;
  auto parsed = scenario_from_json(scenario);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_FALSE(trace.ttft.overloaded);
  ASSERT_TRUE(trace.ttft.queue_seconds.has_value());
  EXPECT_DOUBLE_EQ(*trace.ttft.queue_seconds, 5e29);
  ASSERT_TRUE(trace.ttft.total_seconds.has_value());
  EXPECT_TRUE(std::isfinite(*trace.ttft.total_seconds));
  // 0 still means no queue: a wait of exactly 0.
  scenario["arrival_rate"] = 0;
  auto no_queue = scenario_from_json(scenario);
  ASSERT_TRUE(no_queue.ok());
  EXPECT_EQ(compute_trace(no_queue.value(), {}).ttft.queue_seconds, 0.0);
}

// E2, the sweep's own check of its values, and E1's promise: a queue whose wait is not a finite
// number is overloaded, whatever the cause (here a rate under the floor handed in directly).
TEST(Floors, ADivergingQueueIsOverloadedAndTheSweepChecksTheFloor) {
  Workload work;
  work.batch = 2;
  work.arrival_rate = 1e-320;  // (2 − 1)/(2 · 1e-320) overflows
  const Ttft ttft = time_to_first_token(0.1, 0.001, work);
  EXPECT_TRUE(ttft.overloaded);
  EXPECT_FALSE(ttft.queue_seconds.has_value());
  EXPECT_FALSE(ttft.total_seconds.has_value());

  const std::string scenario = R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "batch": 2})";
  const auto reply = api::sweep(scenario, "arrival_rate", {0, 1e-320});
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(reply.code, ErrorCode::out_of_range);
  EXPECT_EQ(reply.path, "/values/1");  // the second value, 1e-320, below the floor
}

// E3. nlohmann's lexer reads a NUL as the end of its input, so "document\0anything" parsed as
// the document. Bytes are counted from 1, as the parser counts: "{}" is bytes 1–2, NUL byte 3.
TEST(WholeDocument, ANulByteDoesNotEndTheDocument) {
  const std::string nul_then_more("{}\0{\"x\":1}", 10);
  EXPECT_EQ(parse_strict_json(nul_then_more).error(),
            "byte 3: invalid JSON (unexpected data after the document)");
  // The same words for any other byte after the document ("{} x": 'x' is byte 4).
  EXPECT_EQ(parse_strict_json("{} x").error(),
            "byte 4: invalid JSON (unexpected data after the document)");
  EXPECT_EQ(parse_strict_json(std::string("{}\0", 3)).error(),
            "byte 3: invalid JSON (unexpected data after the document)");

  // Through every reader: the lesson, the scenario, and the facade the CLI and wasm call.
  const std::string lesson = test::lesson_text();
  const std::string lesson_then_garbage = lesson + std::string("\0garbage", 8);
  const std::string at_nul = "byte " + std::to_string(lesson.size() + 1) +
                             ": invalid JSON (unexpected data after the document)";
  EXPECT_EQ(parse_lesson(lesson_then_garbage).error(), at_nul);
  EXPECT_EQ(api::load_lesson(lesson_then_garbage).error, at_nul);
  const std::string scenario = R"({"model": "llama-3.1-8b", "hardware": "h100-sxm"})";
  const std::string scenario_then_object = scenario + std::string("\0{\"x\":1}", 8);
  EXPECT_EQ(parse_scenario(scenario_then_object).error(),
            "byte " + std::to_string(scenario.size() + 1) +
                ": invalid JSON (unexpected data after the document)");
  EXPECT_FALSE(api::compute_trace(scenario_then_object).ok);
  EXPECT_FALSE(api::trace_figures(scenario_then_object).ok);
  // Whitespace after the document is still fine.
  EXPECT_TRUE(api::compute_trace(scenario + " \n\t").ok);
}

// E4. 4096 points of T = 2^24 with C = 16 (2^20 chunks each, both within their own limits) ran
// 4096 · 2^20 = 2^32 chunk passes in one call: 45–55 s. The call's work is now bounded at 2^22
// passes (4 such points), checked before any trace runs.
TEST(SweepCost, IsBoundedByPointsTimesChunks) {
  const std::string scenario =
      R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "chunk_tokens": 16})";
  const double longest = 16777216;  // 2^24 tokens: 2^24 / 16 = 2^20 chunks a point
  const auto refused = api::sweep(scenario, "prompt_tokens", std::vector<double>(4096, longest));
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.code, ErrorCode::too_large);
  EXPECT_EQ(refused.path, "/values");
  // 4096 · 2^20 = 4294967296 passes against 2^22 = 4194304.
  EXPECT_NE(refused.error.find("4294967296"), std::string::npos) << refused.error;
  // One point over: 5 · 2^20 = 5242880.
  const auto five = api::sweep(scenario, "prompt_tokens", std::vector<double>(5, longest));
  EXPECT_EQ(five.code, ErrorCode::too_large);
  EXPECT_NE(five.error.find("5242880"), std::string::npos) << five.error;
  // Exactly at the limit: 4 · 2^20 = 2^22.
  const auto four = api::sweep(scenario, "prompt_tokens", std::vector<double>(4, longest));
  EXPECT_TRUE(four.ok) << four.error;
}

// E5. Errors quoted input whole: a 900 KiB key made a 921,649-character message, a 100 MB
// check id was echoed back, and control characters went through raw. A quote is now at most
// 80 bytes of the input, then "… (N bytes)", with control characters escaped.
TEST(BoundedErrors, AKeyOverTheLimitIsNotEchoedWhole) {
  const std::string key(900 * 1024, 'k');
  const auto reply = api::load_lesson("{\"" + key + "\": 1}");
  ASSERT_FALSE(reply.ok);
  EXPECT_EQ(reply.error, "/" + std::string(80, 'k') +
                             "… (921600 bytes): key of 921600 bytes exceeds the limit of 65536");
}

TEST(BoundedErrors, ACheckIdIsBoundedInCppToo) {
  const std::string scenario = R"({"model": "llama-3.1-8b", "hardware": "h100-sxm"})";
  const auto long_id = api::check_generated(scenario, std::string(1 << 20, 'x'), 1);
  EXPECT_FALSE(long_id.ok);
  EXPECT_EQ(long_id.error, "id: string of 1048576 bytes exceeds the limit of 256");
  const auto long_variable = api::sweep(scenario, std::string(257, 'v'), {1});
  EXPECT_EQ(long_variable.error, "variable: string of 257 bytes exceeds the limit of 256");
  // Within the limit an unknown id is quoted, its escape and bell characters escaped.
  const auto escaped = api::check_generated(scenario, "a\x1b[31mb\a", 1);
  EXPECT_EQ(escaped.error, R"(unknown check "a\u001b[31mb\u0007")");
}

TEST(BoundedErrors, PresetIdsAndKeysAreQuotedBoundedAndEscaped) {
  json scenario = {{"model", "llama-3.1-8b"}, {"hardware", std::string(10000, 'h')}};
  EXPECT_EQ(scenario_error(scenario),
            "/hardware: unknown hardware preset \"" + std::string(80, 'h') + "…\" (10000 bytes)");
  scenario = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"line\nbreak", 1}};
  EXPECT_EQ(scenario_error(scenario), R"(/line\nbreak: unknown field)");
  scenario = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"precision", "\x1b]0;x\a"}};
  EXPECT_EQ(scenario_error(scenario),
            R"(/precision: unknown precision "\u001b]0;x\u0007" (bf16, fp16, fp8, int8, int4, )"
            R"(or an object {weights, activations, kv}))");
}

// V6 (issue 33): the serving reader quoted its input whole and raw — a 60 KB policy came back
// in a 60,072-character error, and ESC, BEL and line feeds went through. Now as the trace
// reader's: at most 80 bytes (max_quoted_bytes), then "… (N bytes)", control characters as \u.
std::string serving_error(const json& serving) {
  const json scenario = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"serving", serving}};
  const auto reply = api::simulate_serving(scenario.dump());
  EXPECT_FALSE(reply.ok);
  return reply.error;
}

TEST(BoundedErrors, TheServingReaderQuotesBoundedAndEscaped) {
  const json base = {{"rate", 1}, {"requests", 1}, {"prompt", 10}, {"output", 2}};
  json serving = base;
  serving["policy"] = std::string(60000, 'p');
  EXPECT_EQ(serving_error(serving),
            "/serving/policy: must be prefill-first, chunked or disaggregated, not \"" +
                std::string(80, 'p') + "…\" (60000 bytes)");
  serving = base;
  serving["arrival"] = "gamma\x1b[2J\a\n";
  EXPECT_EQ(serving_error(serving),
            R"(/serving/arrival: must be poisson or gamma:CV with 0 < CV ≤ 100, not )"
            R"("gamma\u001b[2J\u0007\n")");
  serving = base;
  serving["prompt"] = "weird\x07:" + std::string(1000, 'x');
  EXPECT_EQ(serving_error(serving), "/serving/prompt: \"" + std::string(1000, 'x').substr(0, 80) +
                                        "…\" (1000 bytes) is not a decimal number");
  serving["prompt"] = "bell\a";
  EXPECT_EQ(serving_error(serving),
            R"(/serving/prompt: "bell\u0007" is not fixed:T, uniform:A:B or lognormal:MEAN:SIGMA)");
}

}  // namespace
}  // namespace prefill_trace
