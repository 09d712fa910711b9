// Prefix caching decided by a Mooncake trace's hash_ids (docs/serving.md, "Prefix cache from
// hash_ids"; src/serving/kv/prefix_cache.hpp): first the paged K/V grant itself on an instance
// small enough to follow on paper (every hit, every block in use, every eviction derived in the
// comments), then whole runs through the trace reader and the facade.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "prefill_trace/engine.hpp"
#include "serving/kv/kv.hpp"
#include "serving/serving_json.hpp"
#include "serving/simulation.hpp"
#include "serving/workload.hpp"

namespace prefill_trace {
namespace {

using serving::Instance;
using serving::KvGrant;
using serving::RequestSpec;
using serving::RequestState;

// Blocks of 256 tokens: one hash id (512 tokens) is u = 2 paged blocks. Ten blocks, no
// watermark: the cache holds at most 5 ids.
constexpr int64_t kBlockSize = 256;

struct Bench {
  std::unique_ptr<KvGrant> grant = serving::make_paged_kv(kBlockSize, 0, true);
  Instance in;
  Bench() {
    in.kv_capacity_blocks = 10;
    in.watermark_blocks = 0;
  }
  // A request's prompt, admitted: its state as the loop keeps it.
  RequestState admit(const RequestSpec& spec) {
    RequestState s;
    s.target = spec.prompt;
    EXPECT_TRUE(grant->fits(in, spec, s));
    grant->admit(in, spec, s);
    return s;
  }
  // Its whole prompt computed in one pass.
  void compute(const RequestSpec& spec, RequestState& s) {
    s.prefilled = s.target;
    grant->computed(in, spec, s);
  }
};

RequestSpec request(int64_t prompt, std::vector<int64_t> ids) {
  RequestSpec spec;
  spec.prompt = prompt;
  spec.output = 1;
  spec.hash_ids = std::move(ids);
  return spec;
}

TEST(PrefixCache, FreeBlocksAreEvictedLeastRecentlyUsedDeepestFirst) {
  Bench b;
  // A: 1,024 tokens = 4 blocks, ids [1, 2] (both full 512-token blocks). Nothing cached: hit 0.
  // Released after computing: both ids stay cached, free, the deeper one (2) first in line.
  const RequestSpec a = request(1024, {1, 2});
  RequestState sa = b.admit(a);
  EXPECT_EQ(sa.cached, 0);
  EXPECT_EQ(b.in.kv_used_blocks, 4);
  b.compute(a, sa);
  b.grant->release(b.in, a, sa);
  EXPECT_EQ(b.in.kv_used_blocks, 0);
  EXPECT_EQ(b.in.prefix_cache.free_cached_ids(), 2);
  // B: ids [3, 4] the same way. Free order now 2, 1, 4, 3 (4 ids = 8 of the 10 blocks).
  const RequestSpec bb = request(1024, {3, 4});
  RequestState sb = b.admit(bb);
  b.compute(bb, sb);
  b.grant->release(b.in, bb, sb);
  EXPECT_EQ(b.in.prefix_cache.free_cached_ids(), 4);
  EXPECT_EQ(b.in.prefix_cache.evicted_ids(), 0);
  // C: 1,536 tokens = 6 blocks, ids [1, 5, 6]. Id 1 is cached and computed: a hit of 512
  // tokens (the cap (1,536 − 1) / 512 = 2 ids allows it). It takes 6 blocks (1 touched, 5 and 6
  // new); 10 − 6 = 4 blocks are left for free cached ids: 2 of the 3 (2, 4, 3) stay, and the
  // least recently used, 2, is evicted.
  const RequestSpec c = request(1536, {1, 5, 6});
  RequestState sc = b.admit(c);
  EXPECT_EQ(sc.cached, 512);
  EXPECT_EQ(sc.prefilled, 512);
  EXPECT_EQ(b.in.kv_used_blocks, 6);
  EXPECT_EQ(b.in.prefix_cache.evicted_ids(), 1);
  EXPECT_EQ(b.in.prefix_cache.free_cached_ids(), 2);
  // C computes and leaves: its ids freed deepest first, 6 then 5 then 1. Free order 4, 3, 6, 5,
  // 1: five ids, all ten blocks.
  b.compute(c, sc);
  b.grant->release(b.in, c, sc);
  EXPECT_EQ(b.in.kv_used_blocks, 0);
  EXPECT_EQ(b.in.prefix_cache.free_cached_ids(), 5);
  // D: 1,100 tokens = ⌈1,100/256⌉ = 5 blocks, ids [3, 4, 7]; only ⌊1,100/512⌋ = 2 are full
  // blocks, both cached (C's eviction spared them): hit 1,024. It takes 5 blocks; the 5 left hold
  // 2 free ids of the 3 (6, 5, 1): 6 is evicted.
  const RequestSpec d = request(1100, {3, 4, 7});
  RequestState sd = b.admit(d);
  EXPECT_EQ(sd.cached, 1024);
  EXPECT_EQ(b.in.prefix_cache.evicted_ids(), 2);
  // E: ids [1, 2, 8], 1,100 tokens: 1 is cached (freed last), 2 was the first evicted: hit 512.
  // 5 more blocks: none left for free ids, 5 is evicted.
  const RequestSpec e = request(1100, {1, 2, 8});
  RequestState se = b.admit(e);
  EXPECT_EQ(se.cached, 512);
  EXPECT_EQ(b.in.kv_used_blocks, 10);
  EXPECT_EQ(b.in.prefix_cache.evicted_ids(), 3);
  EXPECT_EQ(b.in.prefix_cache.free_cached_ids(), 0);
  // Nothing fits beside them: a 1-block prompt needs 1 free block.
  const RequestSpec f = request(200, {});
  RequestState sf;
  sf.target = f.prompt;
  EXPECT_FALSE(b.grant->fits(b.in, f, sf));
}

TEST(PrefixCache, SharedIdsAreHeldOnceAndOnlyComputedOnesHit) {
  Bench b;
  // C: ids [1, 5, 6], 1,536 tokens: 6 blocks, no hit; not computed yet.
  const RequestSpec c = request(1536, {1, 5, 6});
  RequestState sc = b.admit(c);
  EXPECT_EQ(b.in.kv_used_blocks, 6);
  // C2: ids [1, 5], 1,100 tokens = 5 blocks, of which the 2 ids' 4 are C's already: it takes 1.
  // C has not computed them: no hit (a block being computed is shared, not skipped).
  const RequestSpec c2 = request(1100, {1, 5});
  RequestState sc2 = b.admit(c2);
  EXPECT_EQ(sc2.cached, 0);
  EXPECT_EQ(b.in.kv_used_blocks, 7);
  // C computes its prompt. C3: ids [1, 5, 9], 1,600 tokens = ⌈1,600/256⌉ = 7 blocks, 3 full
  // 512-token blocks; 1 and 5 are held and computed (hit 1,024), 9 is new: it takes 7 − 4 = 3.
  b.compute(c, sc);
  const RequestSpec c3 = request(1600, {1, 5, 9});
  RequestState sc3 = b.admit(c3);
  EXPECT_EQ(sc3.cached, 1024);
  EXPECT_EQ(b.in.kv_used_blocks, 10);
  // C2 leaves: its private block goes, ids 1 and 5 stay held by C and C3.
  b.grant->release(b.in, c2, sc2);
  EXPECT_EQ(b.in.kv_used_blocks, 9);
  // C3 leaves before computing id 9: its private block and id 9 (never computed: not cached,
  // dropped) go; 1 and 5 stay with C. 9 − 1 − 2 = 6 blocks, nothing free and cached.
  b.grant->release(b.in, c3, sc3);
  EXPECT_EQ(b.in.kv_used_blocks, 6);
  EXPECT_EQ(b.in.prefix_cache.free_cached_ids(), 0);
  // A whole prompt of cached ids still computes its last token: [1, 5] on a 1,024-token prompt
  // hits (1,024 − 1) / 512 = 1 id, 512 tokens.
  const RequestSpec whole = request(1024, {1, 5});
  RequestState sw = b.admit(whole);
  EXPECT_EQ(sw.cached, 512);
}

std::string scenario(const std::string& serving) {
  return R"({"model": "llama-3.1-8b", "hardware": "h100-sxm", "serving": {)" + serving + "}}";
}

std::string line(int64_t ms, int64_t prompt, int64_t output, const std::string& ids) {
  return "{\"timestamp\": " + std::to_string(ms) + ", \"input_length\": " + std::to_string(prompt) +
         ", \"output_length\": " + std::to_string(output) +
         (ids.empty() ? "" : ", \"hash_ids\": [" + ids + "]") + "}\n";
}

ServingReport run(const std::string& serving, const std::string& trace) {
  const auto request = parse_serving_request(scenario(serving), trace);
  EXPECT_TRUE(request.ok()) << request.error();
  auto report = simulate_serving(request->scenario, request->config);
  EXPECT_TRUE(report.ok()) << report.error();
  return std::move(report.value());
}

TEST(PrefixCache, RequestsSharingAPrefixSkipItsPrefill) {
  // Three requests 100 s apart (each alone on the device) share ids 1 and 2 (1,024 tokens):
  // the first computes them, the next two hit both. The first's third block (1,500 − 1,024 = 476
  // tokens) is partial: not cached. Hits 0 + 1,024 + 1,024 = 2,048 of 1,500 + 2,048 + 2,000 =
  // 5,548 prompt tokens.
  const std::string trace = line(0, 1500, 4, "1, 2, 3") + line(100000, 2048, 4, "1, 2, 7, 8") +
                            line(200000, 2000, 4, "1, 2, 5, 6");
  const ServingReport report = run(R"("policy": "prefill-first", "timeline_points": 0)", trace);
  ASSERT_EQ(report.run.outcomes.size(), 3u);
  EXPECT_EQ(report.run.outcomes[0].cached_tokens, 0);
  EXPECT_EQ(report.run.outcomes[1].cached_tokens, 1024);
  EXPECT_EQ(report.run.outcomes[2].cached_tokens, 1024);
  ASSERT_TRUE(report.run.prefix_cache.has_value());
  EXPECT_EQ(report.run.prefix_cache->block_tokens, 512);
  EXPECT_EQ(report.run.prefix_cache->hit_tokens, 2048);
  EXPECT_EQ(report.run.prefix_cache->prompt_tokens, 5548);
  EXPECT_EQ(report.run.prefix_cache->hit_rate, 2048.0 / 5548.0);
  EXPECT_EQ(report.run.prefix_cache->evicted_blocks, 0);
  // The second request prefills 1,024 tokens after 1,024 cached ones: what the fraction mode
  // gives a 2,048-token prompt with prefix_hit 0.5 (⌊0.5 · 2,048⌋ = 1,024) arriving at the same
  // time on an idle device (after a 10-token request at 0: the same clock, to the bit).
  const ServingReport fraction = run(R"("policy": "prefill-first", "timeline_points": 0,
                                         "prefix_hit": 0.5)",
                                     line(0, 10, 1, "") + line(100000, 2048, 4, ""));
  EXPECT_EQ(fraction.run.outcomes[1].cached_tokens, 1024);
  EXPECT_EQ(report.run.outcomes[1].ttft_seconds, fraction.run.outcomes[1].ttft_seconds);
  EXPECT_EQ(report.run.outcomes[1].e2e_seconds, fraction.run.outcomes[1].e2e_seconds);
  EXPECT_FALSE(fraction.run.prefix_cache.has_value());
}

TEST(PrefixCache, AnUnrelatedPromptEvictsTheDeepestBlockFirst) {
  // Blocks of 512 tokens (one id = one block) and a capacity of C blocks, the one figure taken
  // from the engine (the memory ledger's, as in serving_kv_test.cpp). With C < 100 the 1 %
  // watermark is int(0.01·C) = 0.
  const std::string options =
      R"("policy": "prefill-first", "timeline_points": 0, "block_size": 512,
         "gpu_memory_utilization": 0.25)";
  const int64_t capacity = run(options, line(0, 10, 1, "")).kv_capacity_blocks;
  ASSERT_GT(capacity, 4);
  ASSERT_LT(capacity, 100);
  // R0 computes ids 1 and 2 (1,500 tokens: 2 full blocks) and leaves them cached, freed deepest
  // first (2 before 1). R1, unrelated and alone, takes C − 1 blocks: one block is left for the
  // two free ids, so 2 is evicted. R2 shares ids 1 and 2: it hits 1 only, 512 tokens.
  const std::string trace = line(0, 1500, 1, "1, 2, 3") +
                            line(100000, (capacity - 1) * 512, 1, "") +
                            line(200000, 1500, 1, "1, 2, 4");
  const ServingReport report = run(options, trace);
  ASSERT_EQ(report.run.completed, 3);
  EXPECT_EQ(report.run.outcomes[2].cached_tokens, 512);
  EXPECT_EQ(report.run.prefix_cache->evicted_blocks, 1);
  EXPECT_EQ(report.run.prefix_cache->hit_tokens, 512);
  // One block more for R1 (C blocks): both ids go, R2 hits nothing.
  // (C·512 − 1 tokens: C blocks, and prompt + output = C·512, the instance's tokens.)
  const std::string all = line(0, 1500, 1, "1, 2, 3") + line(100000, capacity * 512 - 1, 1, "") +
                          line(200000, 1500, 1, "1, 2, 4");
  const ServingReport evicted = run(options, all);
  EXPECT_EQ(evicted.run.outcomes[2].cached_tokens, 0);
  EXPECT_EQ(evicted.run.prefix_cache->evicted_blocks, 2);
}

TEST(PrefixCache, WhatCannotJoinTheHashIdsIsRefusedByName) {
  const std::string trace = line(0, 1024, 2, "1, 2");
  const auto refused = [&](const std::string& serving, const std::string& model) {
    const std::string text =
        R"({"model": ")" + model + R"(", "hardware": "h100-sxm", "serving": {)" + serving + "}}";
    const auto reply = api::simulate_serving(text, trace);
    EXPECT_FALSE(reply.ok) << serving;
    EXPECT_EQ(reply.code, ErrorCode::incompatible) << serving;
    return reply.path;
  };
  EXPECT_EQ(refused(R"("prefix_hit": 0.5)", "llama-3.1-8b"), "/serving/prefix_hit");
  EXPECT_EQ(refused(R"("kv": "reserve")", "llama-3.1-8b"), "/serving/kv");
  EXPECT_EQ(refused(R"("block_size": 24)", "llama-3.1-8b"), "/serving/block_size");
  EXPECT_EQ(refused("", "mistral-7b"), "/trace");  // a sliding window of 4,096 tokens
  // Without hash_ids the fraction mode is the trace's, and the report has no prefix_cache.
  const auto fraction =
      api::simulate_serving(scenario(R"("prefix_hit": 0.5)"), line(0, 1024, 2, ""));
  ASSERT_TRUE(fraction.ok) << fraction.error;
  EXPECT_EQ(fraction.json.find("prefix_cache"), std::string::npos);
}

}  // namespace
}  // namespace prefill_trace
