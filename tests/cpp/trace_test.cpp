// Every expected number below is derived by hand from the formulas in docs/model.md (or taken
// from a published figure), with the derivation beside it; none is copied from program output.

#include "trace/trace.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "prefill_trace/engine.hpp"
#include "scenario/scenario.hpp"
#include "test_support.hpp"
#include "trace/collective.hpp"
#include "trace/queueing.hpp"
#include "trace/trace_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;
using test::expect_finite;

// A round-numbered accelerator: ridge point P/β = 100e12 / 1e12 = 100 FLOP/byte, no launch cost.
json round_hardware() {
  return {{"peak_flops", {{"bf16", 100e12}}},
          {"memory_bandwidth", 1e12},
          {"memory_capacity", 80e9},
          {"sram_per_unit_bytes", 131072},
          {"launch_overhead_seconds", 0}};
}

// d = 4096, 32 query heads of 128, 8 KV heads (GQA 4:1), gated MLP of 8192, 2 layers.
json small_model() {
  return {{"layers", 2},  {"d_model", 4096}, {"query_heads", 32}, {"kv_heads", 8},
          {"d_ff", 8192}, {"mlp", "gated"},  {"vocab", 1000}};
}

Scenario scenario(const json& overrides) {
  json base = {{"model", small_model()}, {"hardware", round_hardware()}};
  for (const auto& item : overrides.items()) base[item.key()] = item.value();
  auto parsed = scenario_from_json(base);
  EXPECT_TRUE(parsed.ok()) << parsed.error();
  return parsed.value();
}

Trace trace_of(const json& overrides) {
  return compute_trace(scenario(overrides), {});
}

// The named operator; a missing one fails the test and yields a zeroed placeholder (the suite
// also runs in the exception-free wasm build, so it cannot throw).
const Operator& op(const Trace& trace, const std::string& name) {
  for (const Operator& candidate : trace.operators) {
    if (candidate.name == name) return candidate;
  }
  ADD_FAILURE() << "no operator " << name;
  static const Operator missing{};
  return missing;
}

TEST(Parameters, MatchPublishedCounts) {
  const Presets& presets = builtin_presets();
  // Llama-2-7B: 6,738,415,616 parameters (Hugging Face num_parameters() of
  // meta-llama/Llama-2-7b-hf). By hand: 32·(4·4096² + 3·4096·11008 + 2·4096) + 2·32000·4096 + 4096.
  EXPECT_EQ(parameter_count(*presets.find_model("llama-2-7b")), 6738415616.0);
  // Llama-3.1-8B: 8,030,261,248 (the model card's "8.03B"):
  // 32·(2·4096² + 2·4096·1024 + 3·4096·14336 + 2·4096) + 2·128256·4096 + 4096.
  EXPECT_EQ(parameter_count(*presets.find_model("llama-3.1-8b")), 8030261248.0);
  // Mixtral-8x7B: 46,702,792,704 ("46.7B total parameters", Mistral AI):
  // 32·(2·4096² + 2·4096·1024 + 8·3·4096·14336 + 4096·8 + 2·4096) + 2·32000·4096 + 4096.
  EXPECT_EQ(parameter_count(*presets.find_model("mixtral-8x7b")), 46702792704.0);
}

TEST(Projection, LessonEquationPerProjection) {
  // Llama-3.1-8B, T = 2048, F = 2·T·d_in·d_out per layer:
  //   qkv  2·2048·4096·(32+2·8)·128 = 2·2048·4096·6144  = 103,079,215,104
  //   o    2·2048·4096·4096                          =  68,719,476,736
  //   gate+up 2·2048·4096·2·14336                    = 481,036,337,152
  //   down 2·2048·14336·4096                         = 240,518,168,576
  // sum 893,353,197,568 per layer, × 32 layers = 28,587,302,322,176.
  auto parsed = scenario_from_json(
      {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", 2048}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  ASSERT_EQ(trace.projection.projections.size(), 4u);
  EXPECT_EQ(trace.projection.projections[0].name, "qkv_projection");
  EXPECT_EQ(trace.projection.projections[0].d_out, 6144);
  EXPECT_EQ(trace.projection.projections[0].flops_per_request, 103079215104.0);
  EXPECT_EQ(trace.projection.projections[1].flops_per_request, 68719476736.0);
  EXPECT_EQ(trace.projection.projections[2].flops_per_request, 481036337152.0);
  EXPECT_EQ(trace.projection.projections[3].flops_per_request, 240518168576.0);
  EXPECT_EQ(trace.projection.flops_per_request, 28587302322176.0);
  // The GEMM operator's FLOPs for one layer equal the lesson's F (no padding: 2048 = 16·128).
  EXPECT_EQ(op(trace, "qkv_projection").flops, 103079215104.0);
  EXPECT_EQ(op(trace, "qkv_projection").useful_fraction, 1.0);
}

TEST(Projection, EngineeringExample128RowsVersusOne) {
  // The lesson's example on a 4096×4096 bf16 weight tile (w = a = 2 bytes):
  //   1 row:   F = 2·4096²        = 2^25;  bytes = 4096²·2 + 1·(4096+4096)·2 = 2^25 + 2^14
  //            I = 2^25/(2^25+2^14) = 2048/2049 ≈ 0.9995 FLOP/byte
  //   128 rows: F = 128·2^25 = 2^32;    bytes = 2^25 + 128·8192·2 = 2^25 + 2^21 = 17·2^21
  //            I = 2^32/(17·2^21) = 2048/17 ≈ 120.47 FLOP/byte
  // The weight bytes per row fall 128-fold: 2^25 → 2^18; the stored parameter count is unchanged.
  const Trace trace = trace_of({});
  ASSERT_EQ(trace.projection.reuse_example.size(), 2u);
  EXPECT_DOUBLE_EQ(trace.projection.reuse_example[0].intensity, 2048.0 / 2049.0);
  EXPECT_DOUBLE_EQ(trace.projection.reuse_example[1].intensity, 2048.0 / 17.0);
  EXPECT_EQ(trace.projection.reuse_example[0].weight_bytes_per_row, 33554432.0);
  EXPECT_EQ(trace.projection.reuse_example[1].weight_bytes_per_row, 262144.0);
  // Ridge 100: one row is memory-bound, 128 rows (120 FLOP/byte) compute-bound.
  EXPECT_EQ(trace.projection.reuse_example[0].bound, Bound::memory);
  EXPECT_EQ(trace.projection.reuse_example[1].bound, Bound::compute);
}

TEST(Roofline, ProjectionCrossesTheRidgeWithRows) {
  // o_projection 4096→4096, bf16, ridge 100 FLOP/byte, M-tile 64 (no padding at 64 or 256):
  //   I(N) = 2N·4096² / (4096²·2 + N·8192·2) = N / (1 + N/2048)
  //   N = 64:  I = 64/1.03125 = 62.06  → memory-bound
  //            t_c = 2·64·4096²/1e14 = 21.47 µs, t_m = (2^25 + 64·16384)/1e12 = 34.60 µs
  //   N = 256: I = 256/1.125 = 227.6   → compute-bound
  //            t_c = 85.90 µs, t_m = (2^25 + 256·16384)/1e12 = 37.75 µs
  // Rows to reach the ridge: N = R·d²·w/(2d² − R·2d·a) = 200·4096/(8192 − 400) = 105.1 → 106.
  const Trace short_prompt = trace_of({{"prompt_tokens", 64}, {"gemm_m_tile", 64}});
  const Operator& short_o = op(short_prompt, "o_projection");
  EXPECT_DOUBLE_EQ(short_o.intensity, 64.0 / 1.03125);
  EXPECT_DOUBLE_EQ(short_o.compute_seconds, 2.0 * 64 * 4096 * 4096 / 1e14);
  EXPECT_DOUBLE_EQ(short_o.memory_seconds, (33554432.0 + 64 * 16384) / 1e12);
  EXPECT_EQ(short_o.bound, Bound::memory);
  const Trace long_prompt = trace_of({{"prompt_tokens", 256}, {"gemm_m_tile", 64}});
  const Operator& long_o = op(long_prompt, "o_projection");
  EXPECT_DOUBLE_EQ(long_o.intensity, 256.0 / 1.125);
  EXPECT_EQ(long_o.bound, Bound::compute);
  EXPECT_DOUBLE_EQ(long_o.seconds, 2.0 * 256 * 4096 * 4096 / 1e14);
  EXPECT_EQ(long_prompt.projection.projections[1].name, "o_projection");
  EXPECT_EQ(*long_prompt.projection.projections[1].rows_to_reach_ridge, 106.0);
  EXPECT_DOUBLE_EQ(long_prompt.projection.ridge_flops_per_byte, 100.0);
}

TEST(Roofline, TileQuantizationPadsPoorShapes) {
  // 200 rows with the default 128-row tile: ⌈200/128⌉·128 = 256 rows computed, useful
  // 200/256 = 0.78125; o_projection's compute time is 2·256·4096²/1e14 = 85.90 µs.
  const Trace trace = trace_of({{"prompt_tokens", 200}});
  const Operator& padded = op(trace, "o_projection");
  EXPECT_DOUBLE_EQ(padded.useful_fraction, 200.0 / 256.0);
  EXPECT_DOUBLE_EQ(padded.compute_seconds, 2.0 * 256 * 4096 * 4096 / 1e14);
  // Fewer rows than the tile run a skinny tile rounded up to 16 rows: 20 → 32, useful 0.625.
  const Trace short_trace = trace_of({{"prompt_tokens", 20}});
  EXPECT_DOUBLE_EQ(op(short_trace, "o_projection").useful_fraction, 20.0 / 32.0);
}

TEST(Roofline, LaunchOverheadDominatesTinyKernels) {
  // T = 1 on an accelerator with 4 µs per launch: the final norm moves 4·4096·2 = 32 KiB plus
  // its 8 KiB gain (0.04 µs at 1 TB/s) — far below 4 µs. Under the estimate timing without
  // graphs each launch costs the profile's 4 µs kernel gap, so its bound is overhead and its time
  // 4 µs + 0.04096 µs (efficiencies set to 1 here, so only the gap differs from the bound).
  json hardware = round_hardware();
  hardware["launch_overhead_seconds"] = 4e-6;
  hardware["estimate"] = {{"gemm_efficiency", 0.5},     {"attention_efficiency", 0.5},
                          {"memory_efficiency", 0.5},   {"interconnect_efficiency", 0.5},
                          {"kernel_gap_seconds", 4e-6}, {"graph_launch_gap_seconds", 1e-6}};
  const Trace trace = trace_of({{"prompt_tokens", 1},
                                {"hardware", hardware},
                                {"timing", "estimate"},
                                {"compute_efficiency", 1},
                                {"memory_efficiency", 1}});
  const Operator& norm = op(trace, "final_norm");
  EXPECT_EQ(norm.bound, Bound::overhead);
  // Every kernel launches once here (T = 1, one chunk): the overhead total is 4 µs per launch.
  EXPECT_DOUBLE_EQ(trace.totals.overhead_seconds, 4e-6 * trace.embedding.kernel_launches);
  EXPECT_EQ(trace_to_json(trace)["totals"]["overhead_seconds"], trace.totals.overhead_seconds);
  EXPECT_DOUBLE_EQ(norm.seconds, 4e-6 + (4.0 * 4096 * 2 + 4096 * 2) / 1e12);
  // Graph-captured launches cost the profile's 1 µs gap instead.
  const Trace graphs = trace_of({{"prompt_tokens", 1},
                                 {"hardware", hardware},
                                 {"timing", "estimate"},
                                 {"graphs", "on"},
                                 {"compute_efficiency", 1},
                                 {"memory_efficiency", 1}});
  EXPECT_DOUBLE_EQ(op(graphs, "final_norm").seconds, 1e-6 + (4.0 * 4096 * 2 + 4096 * 2) / 1e12);
  // The bound reports the same 4 µs × launches beside its total, not inside: the norm's time is
  // its memory time alone, and the bound is memory.
  const Trace bound = trace_of({{"prompt_tokens", 1}, {"hardware", hardware}});
  EXPECT_EQ(op(bound, "final_norm").bound, Bound::memory);
  EXPECT_DOUBLE_EQ(op(bound, "final_norm").seconds, (4.0 * 4096 * 2 + 4096 * 2) / 1e12);
  EXPECT_EQ(bound.totals.overhead_seconds, 0.0);
  EXPECT_DOUBLE_EQ(bound.embedding.launch_overhead_total_seconds,
                   4e-6 * bound.embedding.kernel_launches);
}

TEST(Attention, CausalPairsUnderTheBlockedSchedule) {
  // T = 10, b = 4: useful pairs T(T+1)/2 = 55. ⌈10/4⌉ = 3 query blocks →
  // 3·4/2 = 6 tiles. Computed pairs: rows 0–3 × keys 0–3 = 16, rows 4–7 × keys 0–7 = 32,
  // rows 8–9 × keys 0–11 = 24 → 72.
  const Trace trace = trace_of({{"prompt_tokens", 10}, {"attention_block", 4}});
  EXPECT_EQ(trace.attention.useful_pairs, 55.0);
  EXPECT_EQ(trace.attention.tiles, 6.0);
  EXPECT_EQ(trace.attention.computed_pairs, 72.0);
  // Attention FLOPs: per pair and query head 4·d_h (QKᵀ and P·V) + 5 (softmax) = 517;
  // useful 32 heads · 55 · 517 = 909,920; computed 32 · 72 · 517 = 1,191,168.
  EXPECT_EQ(op(trace, "attention").flops, 909920.0);
  EXPECT_EQ(op(trace, "attention").computed_flops, 1191168.0);
}

TEST(Attention, BoundChargesKvOncePerChunk) {
  // T = 10, b = 4, 8 KV heads of 128, bf16 cache: one key position of one layer's K and V is
  // 8·2·128·2 = 4096 bytes. The bound charges every visible key once per chunk: unchunked, 10
  // positions = 40,960 bytes. (Charging K/V once per query block — blocks of 4, 4, 2 rows seeing
  // 4, 8, 10 keys = 22 positions, 90,112 bytes — is a cache-less schedule, not compulsory.)
  const Trace bound = trace_of({{"prompt_tokens", 10}, {"attention_block", 4}});
  EXPECT_EQ(op(bound, "attention").hbm.kv, 40960.0);
  // Chunks of 4 see 4, 8 and 10 keys: 22 positions, 90,112 bytes (earlier chunks' K/V re-read).
  const Trace chunked =
      trace_of({{"prompt_tokens", 10}, {"attention_block", 4}, {"chunk_tokens", 4}});
  EXPECT_EQ(op(chunked, "attention").hbm.kv, 90112.0);
  // The estimate re-reads per query block unless a group's K/V fits its L2 share. One group's
  // K/V here is 10 keys·2·128·2 = 5120 bytes; with 1 SM, blocks of 4 query heads × 3 query blocks
  // leave one group in flight: L2 of 4096 bytes is too small (22 positions), 8192 holds it (10).
  json hardware = round_hardware();
  hardware["compute_units"] = 1;
  hardware["estimate"] = {{"gemm_efficiency", 1},
                          {"attention_efficiency", 1},
                          {"memory_efficiency", 1},
                          {"interconnect_efficiency", 1}};
  const auto estimate_kv = [&](double l2) {
    hardware["l2_bytes"] = l2;
    return op(trace_of({{"prompt_tokens", 10},
                        {"attention_block", 4},
                        {"hardware", hardware},
                        {"timing", "estimate"}}),
              "attention")
        .hbm.kv;
  };
  EXPECT_EQ(estimate_kv(4096), 90112.0);
  EXPECT_EQ(estimate_kv(8192), 40960.0);
}

TEST(Attention, ChunkingKeepsTheUsefulPairs) {
  // Chunks of 4 over T = 10: (rows, prior) = (4,0), (4,4), (2,8):
  //   Σ rows·prior + rows(rows+1)/2 = 10 + (16 + 10) + (16 + 3) = 55 = T(T+1)/2.
  // With b = 4 the chunks align to blocks, so the tiles are the same 6.
  const Trace trace =
      trace_of({{"prompt_tokens", 10}, {"attention_block", 4}, {"chunk_tokens", 4}});
  EXPECT_EQ(trace.attention.useful_pairs, 55.0);
  EXPECT_EQ(trace.attention.tiles, 6.0);
  EXPECT_EQ(trace.chunking.chunks, 3);
  // Later chunks re-read the earlier keys and values: priors 0 + 4 + 8 = 12 token positions,
  // each 2·L·h_kv·d_h·c = 2·2·8·128·2 = 8192 bytes → 98,304 bytes.
  EXPECT_EQ(trace.chunking.kv_reread_bytes, 98304.0);
}

TEST(Attention, MaterializedScoreMatrix) {
  // T = 2048, 32 query heads, scores in bf16: one layer's matrix is 32·2048²·2 = 268,435,456
  // bytes; written by QKᵀ, read+written by softmax, read by ·V: 4× per layer, × 2 layers.
  const Trace trace = trace_of({{"prompt_tokens", 2048}, {"attention", "materialized"}});
  EXPECT_TRUE(trace.attention.materialized);
  EXPECT_EQ(trace.attention.score_matrix_bytes, 268435456.0);
  EXPECT_EQ(trace.attention.score_traffic_bytes, 4.0 * 268435456 * 2);
  EXPECT_EQ(op(trace, "softmax").hbm.scores, 2.0 * 268435456);
  // The full rectangle is computed: useful fraction = (T(T+1)/2)/T² = 2049/4096.
  EXPECT_DOUBLE_EQ(op(trace, "attention_scores").useful_fraction, 2049.0 / 4096.0);
  const Trace fused = trace_of({{"prompt_tokens", 2048}});
  EXPECT_EQ(fused.attention.score_bytes_avoided, 4.0 * 268435456 * 2);
  EXPECT_EQ(fused.attention.score_traffic_bytes, 0.0);
}

TEST(KvCache, GroupedQueryAttentionShrinksTheState) {
  // Llama-3.1-8B, T = 2048, bf16 cache: 2·L·B·T·h_kv·d_h·c = 2·32·1·2048·8·128·2
  // = 268,435,456 bytes (256 MiB). Llama-2-7B (h_kv = 32) leaves 4× as much: 1 GiB.
  const auto kv = [](const char* model) {
    auto parsed =
        scenario_from_json({{"model", model}, {"hardware", "h100-sxm"}, {"prompt_tokens", 2048}});
    return compute_trace(parsed.value(), {}).attention.kv_bytes_written;
  };
  EXPECT_EQ(kv("llama-3.1-8b"), 268435456.0);
  EXPECT_EQ(kv("llama-2-7b"), 1073741824.0);
}

TEST(SlidingWindow, MistralKeepsOnlyTheWindowOfKv) {
  // Mistral-7B-v0.1 (config: sliding_window 4096) at T = 32,768 in bf16. Per token:
  // 2·L·h_kv·d_h·c = 2·32·8·128·2 = 131,072 bytes. All 32,768 tokens are written
  // (4,294,967,296 bytes), but decode keeps the window: 4096 × 131,072 = 536,870,912 (0.54 GB).
  auto parsed = scenario_from_json(
      {{"model", "mistral-7b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", 32768}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(trace.attention.kv_bytes_written, 4294967296.0);
  EXPECT_EQ(trace.attention.kv_tokens_kept, 4096);
  EXPECT_EQ(trace.attention.kv_bytes_kept, 536870912.0);
  EXPECT_EQ(trace.memory.kv_bytes, 536870912.0);
  EXPECT_EQ(trace_to_json(trace)["totals"]["kv_cache"]["bytes"], 536870912.0);
  // Useful pairs per head: positions 0..4095 see p+1 keys (4096·4097/2 = 8,390,656), the
  // remaining 28,672 see 4096 each (117,440,512): 125,831,168 instead of T(T+1)/2 = 536,887,296.
  EXPECT_EQ(trace.attention.useful_pairs, 125831168.0);
  // Below the window nothing changes: T = 2048 keeps all 2048 positions.
  auto short_prompt = scenario_from_json(
      {{"model", "mistral-7b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", 2048}});
  const Trace short_trace = compute_trace(short_prompt.value(), {});
  EXPECT_EQ(short_trace.attention.kv_bytes_kept, 2048.0 * 131072);
  EXPECT_EQ(short_trace.attention.useful_pairs, 2048.0 * 2049 / 2);
}

TEST(SlidingWindow, BlockedScheduleSkipsKeysBehindTheWindow) {
  // T = 8, window W = 3, tile b = 2. Query blocks start at 0, 2, 4, 6. A block starting at
  // s ≤ W − 1 = 2 sees every earlier key: block 0 keys 0–1 (1 tile), block 1 keys 0–3 (2 tiles).
  // Blocks at 4 and 6 see keys s − 2 .. s + 1: 4 keys = 2 tiles each. Tiles 1 + 2 + 2 + 2 = 7,
  // computed pairs 7·2·2 = 28. Useful pairs: min(p + 1, 3) for p = 0..7 = 1+2+3·6 = 21.
  json model = small_model();
  model["sliding_window"] = 3;
  const Trace trace = trace_of({{"model", model}, {"prompt_tokens", 8}, {"attention_block", 2}});
  EXPECT_EQ(trace.attention.useful_pairs, 21.0);
  EXPECT_EQ(trace.attention.tiles, 7.0);
  EXPECT_EQ(trace.attention.computed_pairs, 28.0);
  EXPECT_EQ(trace.attention.kv_tokens_kept, 3);
}

TEST(Quantisation, Int4KeepsEmbeddingAndLmHeadAt16Bits) {
  // Llama-3.1-8B int4 (AWQ/GPTQ-style): the layers' weights at 0.5 byte, the embedding table
  // and LM head (2 · 128,256 · 4096 = 1,050,673,152 parameters) at 2 bytes:
  // 8,030,261,248 · 0.5 + 1,050,673,152 · (2 − 0.5) = 4,015,130,624 + 1,576,009,728
  // = 5,591,140,352 bytes. The LM head kernel reads its d·V weight at 2 bytes: 1,050,673,152.
  auto parsed = scenario_from_json(
      {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"precision", "int4"}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(trace.memory.weight_bytes, 5591140352.0);
  EXPECT_EQ(op(trace, "lm_head").hbm.weights, 4096.0 * 128256 * 2);
  // The embedding gather reads 2048 rows of 4096 16-bit values.
  EXPECT_EQ(op(trace, "embedding").hbm.weights, 2048.0 * 4096 * 2);
}

TEST(TensorParallel, Llama70bOnEightH100sByHand) {
  // Llama-3.1-70B, T = 2048, B = 1, bf16, TP 8 on H100 SXM (NVLink 4: 450 GB/s each way,
  // 1 µs per ring step, 4 µs per launch, from hardware.json).
  auto parsed = scenario_from_json({{"model", "llama-3.1-70b"},
                                    {"hardware", "h100-sxm"},
                                    {"prompt_tokens", 2048},
                                    {"tensor_parallel", 8}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  // All-reduce of the layer output: S = T·d·a = 2048·8192·2 = 33,554,432 bytes; the ring sends
  // 2·(8−1)/8·S = 58,720,256 bytes per device, twice per layer (after o and down projections).
  const Operator& attention_reduce = op(trace, "attention_all_reduce");
  const Operator& mlp_reduce = op(trace, "mlp_all_reduce");
  EXPECT_EQ(attention_reduce.link_bytes, 58720256.0);
  EXPECT_EQ(mlp_reduce.link_bytes, 58720256.0);
  EXPECT_EQ(attention_reduce.count, 80.0);
  // Bound time: the compulsory (N−1)/N·S = 29,360,128 bytes each way at the link's one-way
  // 450 GB/s = 65.24 µs (in-network reduction halves the ring's bytes; step latencies and the
  // launch belong to the estimate), against 2·S = 67 MB of HBM at 3.35 TB/s = 20 µs:
  // interconnect-bound.
  EXPECT_DOUBLE_EQ(attention_reduce.interconnect_seconds, 29360128.0 / 450e9);
  EXPECT_DOUBLE_EQ(attention_reduce.seconds, 29360128.0 / 450e9);
  EXPECT_EQ(attention_reduce.bound, Bound::interconnect);
  // Shards: 64/8 = 8 query heads, 8 KV heads / 8 = 1 per device, d_ff 28672/8 = 3584.
  // qkv: d = 8192 → (8 + 2·1)·128 = 1280 columns; gate_up: 8192 → 2·3584 = 7168.
  const auto& projections = trace.projection.projections;
  EXPECT_EQ(projections[0].d_out, 1280);
  EXPECT_EQ(op(trace, "gate_up_projection").gemm->d_out, 7168);
  // Weights per device: per layer 8192·1024 (Q) + 2·8192·128 (K, V) + 1024·8192 (O)
  // + 3·8192·3584 (MLP) + 2·8192 (norms) = 106,971,136; × 80 = 8,557,690,880; + the replicated
  // embedding 128,256·8192 = 1,050,673,152 + LM-head rows ⌈128,256/8⌉ = 16,032 × 8192 =
  // 131,334,144 + final norm 8192 = 9,739,706,368 parameters × 2 bytes = 19,479,412,736 bytes.
  EXPECT_EQ(trace.memory.weight_bytes, 19479412736.0);
  // KV per device: 2·80·2048·1·128·2 = 83,886,080 bytes.
  EXPECT_EQ(trace.attention.kv_bytes_kept, 83886080.0);
  EXPECT_TRUE(trace.memory.fits);
}

TEST(Precision, Fp8KeepsTheTensorsBetweenKernelsInSixteenBits) {
  // FP8 GEMMs take and return 16-bit tensors (TensorRT-LLM's FP8Linear); only weights, KV and
  // the arithmetic are fp8. Llama-3.1-8B (d 4096, QKV out (32 + 2·8)·128 = 6144), T = 1000:
  //   attn_norm: hidden + residual read, both written: 4·1000·4096·2 = 32,768,000 bytes
  //   qkv_projection: inputs and outputs 1000·(4096 + 6144)·2 = 20,480,000 bytes, weights
  //   4096·6144·1 = 25,165,824 bytes (fp8)
  //   kv_cache_write: reads 2·1000·8·128·2 = 4,096,000 bytes, writes 2·1000·8·128·1 = 2,048,000
  auto parsed = scenario_from_json({{"model", "llama-3.1-8b"},
                                    {"hardware", "h100-sxm"},
                                    {"precision", "fp8"},
                                    {"prompt_tokens", 1000}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(op(trace, "attn_norm").hbm.activations, 32768000.0);
  EXPECT_EQ(op(trace, "qkv_projection").hbm.activations, 20480000.0);
  EXPECT_EQ(op(trace, "qkv_projection").hbm.weights, 25165824.0);
  EXPECT_EQ(op(trace, "kv_cache_write").hbm.activations, 4096000.0);
  EXPECT_EQ(op(trace, "kv_cache_write").hbm.kv, 2048000.0);
}

TEST(TensorParallel, AllReduceSumsInSixteenBitsUnderFp8) {
  // fp8 GEMM inputs, but the row-parallel output (the partial sum) stays in the residual
  // stream's 16 bits: Llama-3.1-70B, T = 2048, TP 8 sends the same 2·(8−1)/8·2048·8192·2 =
  // 58,720,256 bytes per device as in bf16 (not 29,360,128 at one byte), and reads and writes
  // 2·2048·8192·2 = 67,108,864 bytes of HBM.
  auto parsed = scenario_from_json({{"model", "llama-3.1-70b"},
                                    {"hardware", "h100-sxm"},
                                    {"precision", "fp8"},
                                    {"prompt_tokens", 2048},
                                    {"tensor_parallel", 8}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(op(trace, "mlp_all_reduce").link_bytes, 58720256.0);
  EXPECT_EQ(op(trace, "attention_all_reduce").hbm.total(), 67108864.0);
}

TEST(TensorParallel, ParallelBlockSumsOnce) {
  // A parallel block (GPT-J, Falcon) adds attention and MLP outputs into one residual, so TP
  // sums both partials with one all-reduce per layer (TensorRT-LLM's Falcon layer). Small model,
  // L = 2, TP 2, T = 1000, bf16, bound, over a 100 GB/s link.
  json hardware = round_hardware();
  hardware["interconnect_bandwidth"] = 100e9;
  json model = small_model();
  model["parallel_attention"] = true;
  const Trace parallel = trace_of(
      {{"model", model}, {"hardware", hardware}, {"prompt_tokens", 1000}, {"tensor_parallel", 2}});
  int reduces = 0;
  double link_bytes = 0;
  for (const Operator& o : parallel.operators) {
    EXPECT_NE(o.name, "attention_all_reduce");
    EXPECT_NE(o.name, "mlp_all_reduce");
    if (o.link_bytes > 0) ++reduces;
    link_bytes += o.count * o.link_bytes;
  }
  EXPECT_EQ(reduces, 1);
  // One all-reduce of S = 1000·4096·2 = 8,192,000 bytes per layer; the ring sends 2·(1/2)·S =
  // 8,192,000 per call, × 2 layers = 16,384,000 (half the 32,768,000 of two per layer). The
  // bound moves half the ring's bytes: 4,096,000 / 100e9 = 40.96 µs per call.
  const Operator& block = op(parallel, "block_all_reduce");
  EXPECT_EQ(block.link_bytes, 8192000.0);
  EXPECT_EQ(link_bytes, 16384000.0);
  EXPECT_DOUBLE_EQ(block.seconds, 4096000.0 / 100e9);
  // Launches: embedding + 2 layers × (9 kernels + 1 all-reduce) + final norm, LM head, sampling
  // = 1 + 20 + 3 = 24 (two all-reduces per layer would make 26).
  EXPECT_EQ(parallel.embedding.kernel_launches, 24.0);
  // One device: the flag changes no operator.
  const Trace single = trace_of({{"model", model}, {"prompt_tokens", 1000}});
  EXPECT_EQ(single.operators.size(), trace_of({{"prompt_tokens", 1000}}).operators.size());
}

TEST(TensorParallel, KvHeadsReplicateBeyondTheirCount) {
  // Llama-3.1-8B has 8 KV heads; at TP 16 each device has 32/16 = 2 query heads and still needs
  // one whole KV head (replicated): 2·L·1·d_h·c = 2·32·1·128·2 = 16,384 bytes per token.
  auto parsed = scenario_from_json({{"model", "llama-3.1-8b"},
                                    {"hardware", "h100-sxm"},
                                    {"prompt_tokens", 1000},
                                    {"tensor_parallel", 16}});
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(trace.attention.kv_bytes_per_token, 16384.0);
  EXPECT_EQ(trace_to_json(trace)["steps"][1]["facts"]["kv_heads_replicated"], true);
  // 12 does not divide 32 query heads; a custom part that states no link cannot split at all.
  auto uneven = scenario_from_json(
      {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"tensor_parallel", 12}});
  ASSERT_FALSE(uneven.ok());
  EXPECT_NE(uneven.error().find("/tensor_parallel"), std::string::npos) << uneven.error();
  auto no_link = scenario_from_json(
      {{"model", small_model()}, {"hardware", round_hardware()}, {"tensor_parallel", 2}});
  ASSERT_FALSE(no_link.ok());
  EXPECT_NE(no_link.error().find("interconnect_bandwidth"), std::string::npos);
  // The link's class is one of NCCL's two latency rows; anything else is refused by its path.
  json hardware = round_hardware();
  hardware["interconnect_bandwidth"] = 100e9;
  hardware["interconnect_kind"] = "infiniband";
  auto bad_kind = scenario_from_json(
      {{"model", small_model()}, {"hardware", hardware}, {"tensor_parallel", 2}});
  ASSERT_FALSE(bad_kind.ok());
  EXPECT_NE(bad_kind.error().find("/hardware/interconnect_kind"), std::string::npos)
      << bad_kind.error();
}

TEST(Estimate, AllReduceAndGapsFollowTheProfile) {
  // TP 2 of the small model, T = 1000, over a 100 GB/s one-way PCIe link (the kind when none is
  // stated), a profile with η_link 0.5, a 10 µs per-call all-reduce cost and a 3 µs kernel gap.
  // Layer output S = 1000·4096·2 = 8,192,000 bytes; the ring sends 2·(1/2)·S = 8,192,000.
  json hardware = round_hardware();
  hardware["interconnect_bandwidth"] = 100e9;
  hardware["estimate"] = {{"gemm_efficiency", 0.8},
                          {"attention_efficiency", 0.6},
                          {"memory_efficiency", 0.9},
                          {"interconnect_efficiency", 0.5},
                          {"all_reduce_overhead_seconds", 10e-6},
                          {"kernel_gap_seconds", 3e-6}};
  const json base = {{"hardware", hardware}, {"prompt_tokens", 1000}, {"tensor_parallel", 2}};
  json estimate_scenario = base;
  estimate_scenario["timing"] = "estimate";
  const Trace estimate = trace_of(estimate_scenario);
  const Operator& reduce = op(estimate, "mlp_all_reduce");
  EXPECT_EQ(reduce.link_bytes, 8192000.0);
  // NCCL's choices over PCIe at 50 GB/s (η_link 0.5), N = 2 (2 ring steps):
  //   ring LL:     6.6 + 2·1.0 µs + 8,192,000 / (50e9 · ¼) = 8.6 + 655.36 = 663.96 µs
  //   ring Simple: 8.4 + 2·5.7 µs + 8,192,000 / 50e9      = 19.8 + 163.84 = 183.64 µs
  //   (LL128 is not enabled over PCIe; NVLS needs an in-network switch.)
  // Simple wins: 183.64 µs + the 10 µs per-call cost = 193.64 µs; + the 3 µs gap of its launch.
  EXPECT_NEAR(reduce.interconnect_seconds, 193.64e-6, 1e-12);
  EXPECT_NEAR(reduce.seconds, 196.64e-6, 1e-12);
  // The bound: half the ring's bytes at the full link rate, nothing else: 40.96 µs.
  const Trace bound = trace_of(base);
  EXPECT_DOUBLE_EQ(op(bound, "mlp_all_reduce").seconds, 4096000.0 / 100e9);
  // A GEMM under the estimate: the o_projection (16 heads of 128 = 2048 → 4096 per device)
  // computes 2·1024 padded rows·2048·4096 FLOPs at 100 TFLOP/s · 0.8, above its memory time.
  const Operator& o = op(estimate, "o_projection");
  EXPECT_DOUBLE_EQ(o.compute_seconds, 2.0 * 1024 * 2048 * 4096 / (100e12 * 0.8));
}

TEST(Estimate, AllReduceTakesNcclsFastestChoice) {
  // NCCL 2.19's tuning model (src/trace/collective.hpp), all by hand, bandwidth 450 GB/s one way.
  // 2 MiB (2,097,152 B) over 8 NVLink devices whose switch reduces in-network; a ring sends
  // 2·7/8 of it = 3,670,016 B, NVLS 7/8 = 1,835,008 B:
  //   ring LL     6.6 + 14·0.6 = 15.0 µs + 3,670,016 / 112.5e9 = 32.62 µs → 47.62 µs
  //   ring LL128  14 + 14·1.9 = 40.6 µs + 3,670,016 / 414e9   =  8.86 µs → 49.46 µs
  //   ring Simple 8.4 + 14·3.4 = 56.0 µs + 3,670,016 / 450e9  =  8.16 µs → 64.16 µs
  //   NVLS        23 µs                 + 1,835,008 / 450e9   =  4.08 µs → 27.08 µs (fastest)
  EXPECT_NEAR(all_reduce_call_seconds(2097152, 8, 450e9, LinkKind::nvlink, true),
              23e-6 + 1835008 / 450e9, 1e-15);
  // Without in-network reduction the ring's LL protocol is the fastest (47.62 µs).
  EXPECT_NEAR(all_reduce_call_seconds(2097152, 8, 450e9, LinkKind::nvlink, false),
              15.0e-6 + 3670016 / 112.5e9, 1e-15);
  // 32 MiB over 2 devices: LL 7.8 + 298.26, LL128 17.8 + 81.05, Simple 15.2 + 74.57 µs (fastest).
  EXPECT_NEAR(all_reduce_call_seconds(33554432, 2, 450e9, LinkKind::nvlink, false),
              15.2e-6 + 33554432 / 450e9, 1e-15);
  // 4 MiB over 4 devices (6,291,456 B sent): LL 10.2 + 55.92, LL128 25.4 + 15.20 µs (fastest),
  // Simple 28.8 + 13.98 µs. Over PCIe LL128 is not enabled: LL 12.6 + 55.92, Simple
  // 8.4 + 6·5.7 = 42.6 + 13.98 µs (fastest).
  EXPECT_NEAR(all_reduce_call_seconds(4194304, 4, 450e9, LinkKind::nvlink, false),
              25.4e-6 + 6291456 / 414e9, 1e-15);
  EXPECT_NEAR(all_reduce_call_seconds(4194304, 4, 450e9, LinkKind::pcie, false),
              42.6e-6 + 6291456 / 450e9, 1e-15);
}

TEST(Memory, ModelThatDoesNotFit) {
  // Llama-3.1-405B in bf16: weights alone are 2 bytes × 405,853,388,800 parameters
  // (126·(2·16384² + 2·16384·1024 + 3·16384·53248 + 2·16384) + 2·128256·16384 + 16384)
  // = 811.7 GB, ten times an 80 GB H100.
  auto parsed = scenario_from_json({{"model", "llama-3.1-405b"}, {"hardware", "h100-sxm"}});
  ASSERT_TRUE(parsed.ok());
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(trace.parameters, 405853388800.0);
  EXPECT_EQ(trace.memory.weight_bytes, 811706777600.0);
  EXPECT_FALSE(trace.memory.fits);
  // At the default T = 2048, B = 1: KV 2·126·2048·8·128·2 = 1,056,964,608 bytes; temporaries =
  // residual 2·2048·16384·2 = 134,217,728 + the larger workspace, the gated MLP's
  // 2048·53248·2·2 = 436,207,616 (attention's is 2048·(2·128 + 2·8)·128·2 = 142,606,336).
  // Peak 811,706,777,600 + 1,056,964,608 + 570,425,344 = 813,334,167,552 bytes, which exceeds
  // 80 GB by 733,334,167,552.
  EXPECT_EQ(trace.memory.peak_bytes, 813334167552.0);
  EXPECT_EQ(trace.memory.exceeds_by_bytes, 733334167552.0);
}

TEST(Memory, LedgerForTheSmallModel) {
  // T = 1024, bf16, fused: residual 2·1024·4096·2 = 16 MiB; attention workspace
  // 1024·(2·32 + 2·8)·128·2 = 20 MiB; MLP workspace (gated) 1024·8192·2·2 = 32 MiB; logits
  // 1000·4 bytes. Temporaries = 16 MiB + max(20, 32) MiB = 48 MiB = 50,331,648 bytes.
  // KV = 2·2·1024·8·128·2 = 8 MiB.
  const Trace trace = trace_of({{"prompt_tokens", 1024}});
  EXPECT_EQ(trace.memory.residual_bytes, 16777216.0);
  EXPECT_EQ(trace.memory.attention_workspace_bytes, 20971520.0);
  EXPECT_EQ(trace.memory.mlp_workspace_bytes, 33554432.0);
  EXPECT_EQ(trace.memory.temporaries_bytes, 50331648.0);
  EXPECT_EQ(trace.memory.kv_bytes, 8388608.0);
  EXPECT_EQ(trace.memory.peak_bytes, trace.memory.weight_bytes + 8388608.0 + 50331648.0);
  EXPECT_TRUE(trace.memory.fits);
  // Chunks of 256 shrink the workspace 4×: 16/4 + 32/4 = 12 MiB; the weights are read 4 times.
  const Trace chunked = trace_of({{"prompt_tokens", 1024}, {"chunk_tokens", 256}});
  EXPECT_EQ(chunked.memory.temporaries_bytes, 12582912.0);
  EXPECT_EQ(chunked.chunking.temporaries_unchunked_bytes, 50331648.0);
  // Per-layer weights read per chunk: qkv 4096·6144 = 25,165,824 + o 4096² = 16,777,216 +
  // gate_up 4096·16384 = 67,108,864 + down 8192·4096 = 33,554,432 + two norm gains 8,192
  // = 142,614,528 elements, × 2 bytes × 2 layers = 570,458,112 bytes; three extra chunks.
  EXPECT_EQ(chunked.chunking.extra_weight_bytes, 3.0 * 570458112);
}

TEST(Queue, MD1WaitByHand) {
  // λ = 10/s, D = 50 ms: ρ = 0.5, W = λD²/(2(1−ρ)) = 10·0.0025/1 = 25 ms.
  EXPECT_DOUBLE_EQ(*md1_wait_seconds(10, 0.05), 0.025);
  // λ = 30/s: ρ = 1.5 ≥ 1: no finite wait.
  EXPECT_FALSE(md1_wait_seconds(30, 0.05).has_value());
  EXPECT_FALSE(md1_wait_seconds(20, 0.05).has_value());  // ρ = 1 exactly
}

TEST(Queue, OverloadedTraceHasNoTotal) {
  // The small model's prefill takes well over 1 µs, so 10^6 requests/s overload it.
  const Trace trace = trace_of({{"arrival_rate", 1e6}});
  EXPECT_TRUE(trace.ttft.overloaded);
  EXPECT_FALSE(trace.ttft.queue_seconds.has_value());
  EXPECT_FALSE(trace.ttft.total_seconds.has_value());
  const json out = trace_to_json(trace);
  EXPECT_TRUE(out["totals"]["ttft"]["total_seconds"].is_null());
  EXPECT_EQ(out["totals"]["ttft"]["overloaded"], true);
}

TEST(Queue, TtftAddsItsThreeParts) {
  // With λ set, total = M/D/1 wait(λ, service) + execution + delivery, delivery including the
  // user's 20 ms transport; the wait uses the trace's own service time (execution + LM head).
  const Trace trace = trace_of({{"arrival_rate", 5}, {"delivery_seconds", 0.02}});
  const double service = trace.ttft.service_seconds;
  EXPECT_DOUBLE_EQ(*trace.ttft.queue_seconds, 5 * service * service / (2 * (1 - 5 * service)));
  EXPECT_DOUBLE_EQ(
      *trace.ttft.total_seconds,
      *trace.ttft.queue_seconds + trace.ttft.execution_seconds + trace.ttft.delivery_seconds);
  EXPECT_GE(trace.ttft.delivery_seconds, 0.02);
  // Batch formation: B = 4 at λ = 5/s waits (B−1)/(2λ) = 0.3 s on average.
  EXPECT_DOUBLE_EQ(trace_of({{"arrival_rate", 5}, {"batch", 4}}).ttft.batch_formation_seconds, 0.3);
}

// Erlang (1909), D = 1: P(W ≤ t) = (1 − ρ) Σ_{k=0..⌊t⌋} (ρ(k − t))^k / k! · e^{−ρ(k − t)}.
// Independent of src/numeric/md1.cpp (which never evaluates this alternating sum); accurate in
// double for the small t and ρ = 0.5 used here (the largest term is e^{0.5·t} < e^{5}).
double erlang_md1_cdf(double rho, double t) {
  double sum = 0;
  double factorial = 1;
  for (int k = 0; k <= static_cast<int>(std::floor(t)); ++k) {
    if (k > 0) factorial *= k;
    sum += std::pow(rho * (k - t), k) / factorial * std::exp(-rho * (k - t));
  }
  return (1 - rho) * sum;
}

// The smallest t with P(W ≤ t) ≥ p, by bisection on Erlang's formula (t in service times).
double erlang_md1_quantile(double rho, double p) {
  double lo = 0;
  double hi = 10;
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    (erlang_md1_cdf(rho, mid) < p ? lo : hi) = mid;
  }
  return hi;
}

TEST(Queue, QuantilesOfTheWaitByHand) {
  // One request per batch at ρ = λ·S = 0.5: the trace's own service time S, λ = 0.5 / S.
  const double service = trace_of(json::object()).ttft.service_seconds;
  const Trace trace = trace_of({{"arrival_rate", 0.5 / service}});
  const Ttft& q = trace.ttft;
  ASSERT_NEAR(q.utilization, 0.5, 1e-12);
  // P(W = 0) = 1 − ρ = 0.5 (PASTA: the server is idle half the time): the median waits nothing.
  EXPECT_EQ(*q.queue_p50_seconds, 0.0);
  // p90: P(W ≤ 1) = 0.5·e^{0.5} = 0.824 < 0.9 ≤ P(W ≤ 2) = 0.5·(e − 0.5·e^{0.5}) = 0.947, so it
  // solves 0.5·(e^{0.5t} − 0.5(t − 1)e^{0.5(t − 1)}) = 0.9 on (1, 2): t = 1.51574 service times
  // (and p99 = 3.33626, from the four-term sum on (3, 4)).
  const double p90 = erlang_md1_quantile(0.5, 0.9);
  EXPECT_NEAR(p90, 1.51574, 1e-5);
  EXPECT_NEAR(*q.queue_p90_seconds / service, p90, 1e-9);
  const double p99 = erlang_md1_quantile(0.5, 0.99);
  EXPECT_NEAR(p99, 3.33626, 1e-5);
  EXPECT_NEAR(*q.queue_p99_seconds / service, p99, 1e-9);
  // The quantiles bracket the mean ρS/(2(1 − ρ)) = 0.5 S: p50 = 0 < 0.5 S < p90.
  EXPECT_LT(*q.queue_p50_seconds, *q.queue_seconds);
  EXPECT_GT(*q.queue_p90_seconds, *q.queue_seconds);
  // In the document, beside the mean, in totals.ttft and step 5's facts.
  const json out = trace_to_json(trace);
  EXPECT_EQ(out["totals"]["ttft"]["queue_p90_seconds"], *q.queue_p90_seconds);
  EXPECT_EQ(out["steps"][4]["facts"]["queue_p99_seconds"], *q.queue_p99_seconds);
}

TEST(Queue, QuantilesFollowTheMeansConvention) {
  // No arrivals: no wait at any quantile.
  const Trace idle = trace_of(json::object());
  EXPECT_EQ(*idle.ttft.queue_p99_seconds, 0.0);
  // Overloaded: null like the mean.
  const Trace overloaded = trace_of({{"arrival_rate", 1e6}});
  EXPECT_FALSE(overloaded.ttft.queue_p50_seconds.has_value());
  EXPECT_TRUE(trace_to_json(overloaded)["totals"]["ttft"]["queue_p99_seconds"].is_null());
  // B = 4: the batch formation (B − 1)/(2λ) is added as the mean adds it; at ρ = 0.5 for the
  // batch the median batch waits nothing, so p50 is the formation alone.
  const double service = trace_of({{"batch", 4}}).ttft.service_seconds;
  const double rate = 4 * 0.5 / service;
  const Trace batched = trace_of({{"batch", 4}, {"arrival_rate", rate}});
  EXPECT_NEAR(*batched.ttft.queue_p50_seconds, 3 / (2 * rate), 1e-12 * service);
}

TEST(Steps, BoundIsTheOneWithTheMostKernelTime) {
  // Llama-3.1-8B, 2048 tokens, one request, H100 (ridge 989e12 / 3.35e12 = 295 FLOP/byte).
  auto parsed = scenario_from_json(
      {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", 2048}});
  const Trace trace = compute_trace(parsed.value(), {});
  ASSERT_EQ(trace.steps.size(), 5u);
  // The LM head on the last position reads 4096·128256·2 B = 1.05 GB of weights (314 µs at
  // 3.35 TB/s) for 2·4096·128256 = 1.05 GFLOP (1.06 µs at 989 TFLOP/s): memory-bound. Sampling
  // does 5·128256 FLOPs (0.65 ns) and reads 128256·4 B of logits (0.15 µs): memory-bound too —
  // under the bound timing its 4 µs launch is reported beside the total, never as its bound.
  EXPECT_EQ(op(trace, "lm_head").bound, Bound::memory);
  EXPECT_EQ(op(trace, "sampling").bound, Bound::memory);
  EXPECT_EQ(op(trace, "sampling").overhead_seconds, 0.0);
  EXPECT_EQ(trace.steps[4].bound, Bound::memory);
  // Step 2: four GEMMs above the ridge (the qkv GEMM at 1117 FLOP/byte, see Decode below) and
  // four memory-bound elementwise kernels (three norms, the gated activation): the GEMMs do
  // ~2·2048·7.0e9 = 2.9e13 FLOP per pass, ~29 ms, against a few ms of elementwise traffic.
  EXPECT_EQ(op(trace, "attn_norm").bound, Bound::memory);
  EXPECT_EQ(op(trace, "qkv_projection").bound, Bound::compute);
  EXPECT_EQ(trace.steps[1].operators.size(), 8u);
  EXPECT_EQ(trace.steps[1].bound, Bound::compute);
}

TEST(Decode, OneRequestDecodeIsMemoryBound) {
  // Decode at B = 1: each projection has one row, intensity ≈ 2/w = 1 FLOP/byte, far below
  // H100's ridge of 989e12/3.35e12 = 295; a 2048-token prefill's qkv GEMM sits near
  // 2·2048·4096·6144 / (4096·6144·2 + 2048·10240·2) = 1117 FLOP/byte, above it.
  auto parsed = scenario_from_json(
      {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", 2048}});
  const Trace trace = compute_trace(parsed.value(), {});
  EXPECT_EQ(trace.decode.bound, Bound::memory);
  EXPECT_EQ(trace.decode.prefill_bound, Bound::compute);
  EXPECT_DOUBLE_EQ(trace.decode.projection_intensity,
                   2.0 * 4096 * 6144 / (4096.0 * 6144 * 2 + 10240.0 * 2));
  EXPECT_DOUBLE_EQ(trace.decode.prefill_projection_intensity,
                   2.0 * 2048 * 4096 * 6144 / (4096.0 * 6144 * 2 + 2048.0 * 10240 * 2));
  EXPECT_NEAR(trace.projection.ridge_flops_per_byte, 989.0 / 3.35, 1e-9);
}

TEST(Presets, EveryPresetLoadsAndGivesAFiniteTrace) {
  const Presets& presets = builtin_presets();
  ASSERT_EQ(presets.models.size(), 7u);
  ASSERT_GE(presets.accelerators.size(), 7u);
  for (const auto& model : presets.models) {
    EXPECT_FALSE(model.source_url.empty()) << model.id;
    for (const auto& hardware : presets.accelerators) {
      EXPECT_EQ(hardware.source_url.rfind("https://", 0), 0u) << hardware.id;
      for (const char* precision : {"bf16", "fp8", "int4"}) {
        auto parsed = scenario_from_json({{"model", model.id},
                                          {"hardware", hardware.id},
                                          {"precision", precision},
                                          {"prompt_tokens", 8192},
                                          {"chunk_tokens", 3000}});
        if (!parsed) {  // only a precision the accelerator has no peak for may be refused
          EXPECT_NE(parsed.error().find("states no peak"), std::string::npos) << parsed.error();
          continue;
        }
        expect_finite(trace_to_json(compute_trace(parsed.value(), {})),
                      model.id + "@" + hardware.id);
      }
    }
  }
}

// Refusals are told apart by code and JSON path, never by wording (the words may improve).
TEST(Scenario, RefusedValuesNameTheirCodeAndPath) {
  const auto error = [](const json& overrides) {
    json base = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}};
    for (const auto& item : overrides.items()) base[item.key()] = item.value();
    auto parsed = scenario_from_json(base);
    if (parsed.ok()) return std::string("accepted");
    const Error& e = parsed.failure();
    // The message is the path and the problem: error_at's one format.
    EXPECT_EQ(e.message, e.path + ": " + e.what);
    return std::string(error_code_name(e.code)) + " " + e.path;
  };
  EXPECT_EQ(error({{"prompt_tokens", 0}}), "out_of_range /prompt_tokens");
  EXPECT_EQ(error({{"prompt_tokens", 1.5}}), "wrong_type /prompt_tokens");
  EXPECT_EQ(error({{"prompt_tokens", 18446744073709551615ull}}), "out_of_range /prompt_tokens");
  EXPECT_EQ(error({{"prompt_tokens", 1e308}}), "out_of_range /prompt_tokens");
  EXPECT_EQ(error({{"arrival_rate", -1}}), "out_of_range /arrival_rate");
  EXPECT_EQ(error({{"compute_efficiency", 0}}), "out_of_range /compute_efficiency");
  EXPECT_EQ(error({{"attention", "flash"}}), "unknown_name /attention");
  EXPECT_EQ(error({{"prompt_token", 5}}), "unknown_field /prompt_token");
  EXPECT_EQ(error({{"model", "llama-9"}}), "unknown_name /model");
  EXPECT_EQ(error({{"model", {{"preset", "llama-3.1-8b"}, {"kv_heads", 5}}}}),
            "incompatible /model/kv_heads");
  EXPECT_EQ(
      error({{"model",
              {{"layers", 2}, {"d_model", 100}, {"query_heads", 3}, {"d_ff", 8}, {"vocab", 9}}}}),
      "incompatible /model/query_heads");
  EXPECT_EQ(error({{"model", {{"layers", 2}}}}), "missing_field /model/d_model");
  EXPECT_EQ(error({{"hardware", "a100-sxm-80gb"}, {"precision", "fp8"}}),
            "incompatible /precision");
  EXPECT_EQ(error({{"precision", "fp4"}}), "unknown_name /precision");
  EXPECT_EQ(error({{"prompt_tokens", 2000000}, {"chunk_tokens", 1}}), "too_large /chunk_tokens");
  EXPECT_EQ(error({{"tensor_parallel", 3}}), "incompatible /tensor_parallel");
  EXPECT_EQ(error({{"batch", "4"}}), "wrong_type /batch");
  EXPECT_EQ(error(json::object({{"hardware", nullptr}})), "wrong_type /hardware");
}

TEST(Engine, FacadeReportsErrorsAsValues) {
  const auto reply = api::compute_trace("{\"model\": \"llama-3.1-8b\"}");
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(reply.code, ErrorCode::missing_field);
  EXPECT_EQ(reply.path, "/hardware");
  const auto bad_json = api::compute_trace("{");
  EXPECT_FALSE(bad_json.ok);
  EXPECT_EQ(bad_json.code, ErrorCode::invalid_json);
  EXPECT_EQ(bad_json.path, "");  // a syntax error has a byte offset, not a path
  const std::string scenario = "{\"model\": \"llama-3.1-8b\", \"hardware\": \"h100-sxm\"}";
  const auto sweep = api::sweep(scenario, "prompt_tokens", {1, 0});
  EXPECT_EQ(sweep.code, ErrorCode::out_of_range);
  EXPECT_EQ(sweep.path, "/values/1");  // the second value, counted from 0 as JS arrays are
  const auto variable = api::sweep(scenario, "batch", {1});
  EXPECT_EQ(variable.code, ErrorCode::unknown_name);
  EXPECT_EQ(variable.path, "/variable");
  EXPECT_EQ(api::sweep(scenario, "prompt_tokens", {}).path, "/values");
  const auto ok = api::compute_trace(scenario);
  EXPECT_EQ(ok.code, ErrorCode::none);
  EXPECT_EQ(ok.path, "");
  EXPECT_EQ(api::check_generated(scenario, "nope", 1).code, ErrorCode::unknown_name);
}

TEST(Engine, StepsCarryTheLessonMechanism) {
  const auto reply =
      api::compute_trace("{\"model\": \"llama-3.1-8b\", \"hardware\": \"h100-sxm\"}");
  ASSERT_TRUE(reply.ok) << reply.error;
  const json trace = json::parse(reply.json);
  ASSERT_EQ(trace["steps"].size(), 5u);
  EXPECT_EQ(trace["steps"][1]["text"],
            "Group token activations into matrix operands so loaded weights can be reused across "
            "multiple positions.");
  EXPECT_EQ(trace["steps"][3]["bound"], nullptr);  // step 4 has no kernels of its own
}

}  // namespace
}  // namespace prefill_trace

namespace prefill_trace {
namespace {

TEST(Sweep, ArrivalRateSweepMatchesOneTracePerRate) {
  // The arrival-rate sweep traces once and re-evaluates only the queue; each point must equal
  // the full trace at that rate.
  const Scenario base = scenario({{"prompt_tokens", 512}});
  const std::vector<double> rates = {0, 1, 5, 50, 1e6};
  const auto points = sweep(base, SweepVariable::arrival_rate, rates);
  ASSERT_TRUE(points.ok()) << points.error();
  for (std::size_t i = 0; i < rates.size(); ++i) {
    Scenario at_rate = base;
    at_rate.workload.arrival_rate = rates[i];
    const Ttft full = compute_trace(at_rate, {}).ttft;
    EXPECT_EQ(points.value()[i].overloaded, full.overloaded) << rates[i];
    EXPECT_EQ(points.value()[i].total_seconds, full.total_seconds) << rates[i];
    EXPECT_EQ(points.value()[i].execution_seconds, full.execution_seconds) << rates[i];
  }
}

}  // namespace
}  // namespace prefill_trace

namespace prefill_trace {
namespace {

TEST(Roofline, EffectiveRoofsCarryTheEfficiencies) {
  // η_c = 0.5 and η_m = 0.8 on the round accelerator: roofs 50e12 FLOP/s and 0.8e12 B/s,
  // ridge 50e12 / 0.8e12 = 62.5 FLOP/byte.
  const Trace trace = trace_of({{"compute_efficiency", 0.5}, {"memory_efficiency", 0.8}});
  EXPECT_DOUBLE_EQ(trace.roofline.peak_flops, 50e12);
  EXPECT_DOUBLE_EQ(trace.roofline.bandwidth, 0.8e12);
  EXPECT_DOUBLE_EQ(trace.roofline.ridge_flops_per_byte, 62.5);
}

TEST(Queue, SaturationRateIsWhereUtilizationReachesOne) {
  // λ_sat = B / S: just below it the wait is finite, at it the queue is overloaded.
  const Trace base = trace_of({{"batch", 2}});
  const double saturation = base.ttft.saturation_arrival_rate;
  EXPECT_DOUBLE_EQ(saturation, 2 / base.ttft.service_seconds);
  EXPECT_FALSE(trace_of({{"batch", 2}, {"arrival_rate", saturation * 0.99}}).ttft.overloaded);
  EXPECT_TRUE(trace_of({{"batch", 2}, {"arrival_rate", saturation}}).ttft.overloaded);
}

}  // namespace
}  // namespace prefill_trace
