// The placement search in slices (api::ServingPlan, PlanSearch in src/serving/plan.hpp): advanced
// by any budget of work, it ends with plan_serving's reply byte for byte — candidates, skipped
// placements, the search count — and refuses what plan_serving refuses, with the same error,
// including a plan that passes its work limit between two slices. As in serving_slices_test.cpp
// nothing here is a figure of the engine: each test compares the two paths, so it fails as soon
// as slicing changes one byte (a search's state kept across placements, a placement taken twice).

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "prefill_trace/engine.hpp"
#include "serving/plan.hpp"
#include "serving/serving.hpp"
#include "serving/serving_plan_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// serving_plan_test.cpp's small workload: 40 requests of 512 + 16 tokens, searched from 8 req/s.
json small_workload() {
  return json{{"rate", 8},    {"requests", 40},  {"prompt", 512},
              {"output", 16}, {"ttft_slo", 0.2}, {"tpot_slo", 0.05}};
}

std::string scenario(const json& serving, const std::string& model = "llama-3.1-8b",
                     const std::string& hardware = "h100-sxm") {
  return json{{"model", model}, {"hardware", hardware}, {"serving", serving}}.dump();
}

struct Sliced {
  api::JsonReply reply;
  int slices = 0;
  double placements_total = 0;
};

// Starts a plan of `text` over `devices`, advances it by `budget` until done; the progress must
// only move forward and its total stay what it was at the first slice.
Sliced run_sliced(const std::string& text, double devices, double budget) {
  api::ServingPlan plan;
  Sliced out;
  const api::JsonReply started = plan.start(text, devices);
  EXPECT_TRUE(started.ok) << started.error;
  double searches = 0, placements = 0;
  for (;;) {
    const api::PlanProgressReply progress = plan.advance(budget);
    EXPECT_TRUE(progress.ok) << progress.error;
    if (!progress.ok) break;
    if (out.slices++ == 0) out.placements_total = progress.placements_total;
    EXPECT_EQ(progress.placements_total, out.placements_total);
    EXPECT_GE(progress.searches, searches);
    EXPECT_GE(progress.placements, placements);
    EXPECT_LE(progress.placements, progress.placements_total);
    searches = progress.searches;
    placements = progress.placements;
    if (progress.done) {
      EXPECT_EQ(placements, out.placements_total);  // every placement passed
      break;
    }
  }
  out.reply = plan.result();
  return out;
}

// Budget 1: every slice runs one iteration of one goodput search (an iteration alone is 40
// units). 20,000: a few hundred iterations, searches ending mid-slice and the next starting in
// it. Unlimited: one slice, plan_serving itself.
void expect_same_as_one_shot(const std::string& text, double devices) {
  const api::JsonReply once = api::plan_serving(text, devices);
  ASSERT_TRUE(once.ok) << once.error;
  for (const double budget : {1.0, 20000.0, std::numeric_limits<double>::infinity()}) {
    const Sliced sliced = run_sliced(text, devices, budget);
    ASSERT_TRUE(sliced.reply.ok) << sliced.reply.error;
    EXPECT_EQ(sliced.reply.json, once.json) << "budget " << budget;
    if (std::isfinite(budget)) {
      EXPECT_GT(sliced.slices, 1) << "budget " << budget;
    }
  }
}

TEST(ServingPlanSlices, TwoDevicesEqualTheOneShotPlan) {
  expect_same_as_one_shot(scenario(small_workload()), 2);
  // The seven placements of 2 devices counted by hand in serving_plan_test.cpp (3 per colocated
  // policy, 1 disaggregated) are the progress's total.
  EXPECT_EQ(run_sliced(scenario(small_workload()), 2, 1e12).placements_total, 7);
}

TEST(ServingPlanSlices, GammaArrivalsEqualTheOneShotPlan) {
  // Gamma arrivals search every instance count (its own burstiness): no placement reuses another.
  json serving = small_workload();
  serving["arrival"] = "gamma:3";
  expect_same_as_one_shot(scenario(serving), 2);
}

TEST(ServingPlanSlices, SkippedPlacementsEqualTheOneShotPlan) {
  // OPT-13B's ~26 GB of 16-bit weights do not fit a 24 GB RTX 4090: every TP-1 placement is
  // skipped with the simulation's reason (checked, so the test covers the skipping).
  const std::string text = scenario(small_workload(), "opt-13b", "rtx-4090");
  const api::JsonReply once = api::plan_serving(text, 2);
  ASSERT_TRUE(once.ok) << once.error;
  ASSERT_FALSE(json::parse(once.json)["skipped"].empty());
  expect_same_as_one_shot(text, 2);
}

TEST(ServingPlanSlices, APlanPastItsWorkIsRefusedInSlicesAsInOneShot) {
  // serving_plan_test.cpp's refusal: the first search's own work W1 + 0.5 units lets it finish
  // and refuses the second; 1 unit refuses the first. In slices the refusal comes from the
  // search under way when the plan's work runs out, whatever the slice: the same error.
  // The request as api::plan_serving reads it: the scenario and the serving object.
  const auto request = parse_plan_request(scenario(small_workload()));
  ASSERT_TRUE(request.ok()) << request.error();
  const Scenario& llama = request.value().scenario;
  const ServingConfig& config = request.value().config;
  ServingConfig first = config;
  first.policy = SchedulerPolicy::prefill_first;
  first.prefill_tensor_parallel = 1;
  first.goodput = true;
  first.timeline_points = 0;
  const auto alone = simulate_serving(llama, first);
  ASSERT_TRUE(alone.ok()) << alone.error();
  for (const double limit : {alone.value().work + 0.5, 1.0}) {
    const auto once = plan_serving(llama, config, 2, PlanLimits{limit});
    ASSERT_FALSE(once.ok());
    for (const double budget : {1.0, 20000.0}) {
      auto plan = start_plan(llama, config, 2, PlanLimits{limit});
      ASSERT_TRUE(plan.ok()) << plan.error();
      int slices = 1;
      while (!plan.value()->advance(budget)) ++slices;
      if (limit > 1) {
        EXPECT_GT(slices, 1) << budget;
      }
      const auto sliced = plan.value()->take();
      ASSERT_FALSE(sliced.ok());
      EXPECT_EQ(sliced.failure().code, once.failure().code);
      EXPECT_EQ(sliced.failure().path, once.failure().path);
      EXPECT_EQ(sliced.failure().message, once.failure().message);
    }
  }
}

TEST(ServingPlanSlices, BadInputIsRefusedAtStartAsTheOneShotPlanRefusesIt) {
  json policy = small_workload();
  policy["policy"] = "chunked";
  json no_slo = small_workload();
  no_slo.erase("ttft_slo");
  no_slo.erase("tpot_slo");
  const std::string good = scenario(small_workload());
  const std::pair<std::string, double> inputs[] = {
      {"[1]", 2}, {scenario(policy), 2}, {scenario(no_slo), 2}, {good, 0}, {good, std::nan("")}};
  for (const auto& [text, devices] : inputs) {
    const api::JsonReply once = api::plan_serving(text, devices);
    api::ServingPlan plan;
    const api::JsonReply started = plan.start(text, devices);
    ASSERT_FALSE(once.ok);
    EXPECT_FALSE(started.ok);
    EXPECT_EQ(started.code, once.code);
    EXPECT_EQ(started.path, once.path);
    EXPECT_EQ(started.error, once.error);
    const api::PlanProgressReply advanced = plan.advance(1000);
    EXPECT_FALSE(advanced.ok);
    EXPECT_EQ(advanced.code, ErrorCode::usage);
    EXPECT_NE(advanced.error.find(once.error), std::string::npos) << advanced.error;
    EXPECT_FALSE(plan.result().ok);
  }
}

TEST(ServingPlanSlices, MisuseIsRefusedNeverUndefined) {
  const std::string text = scenario(small_workload());
  api::ServingPlan plan;
  EXPECT_EQ(plan.advance(1000).code, ErrorCode::usage);  // before start
  EXPECT_EQ(plan.result().code, ErrorCode::usage);
  ASSERT_TRUE(plan.start(text, 1).ok);
  EXPECT_EQ(plan.start(text, 1).code, ErrorCode::usage);  // twice
  for (const double budget : {0.0, -1.0, std::nan("")}) {
    const api::PlanProgressReply refused = plan.advance(budget);
    EXPECT_EQ(refused.code, ErrorCode::out_of_range);
    EXPECT_EQ(refused.path, "/budget");
  }
  EXPECT_EQ(plan.result().code, ErrorCode::usage);  // not done
  ASSERT_TRUE(plan.advance(std::numeric_limits<double>::infinity()).done);
  ASSERT_TRUE(plan.result().ok);
  EXPECT_EQ(plan.result().json, api::plan_serving(text, 1).json);  // result() twice: the same
  const api::PlanProgressReply after = plan.advance(1000);         // once done
  EXPECT_FALSE(after.ok);
  EXPECT_EQ(after.code, ErrorCode::usage);
}

}  // namespace
}  // namespace prefill_trace
