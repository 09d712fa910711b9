// Every expected number below is derived by hand from the formulas in docs/model.md (or taken
// from a published figure), with the derivation beside it; none is copied from program output.

#include "trace.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "prefill_trace/engine.hpp"
#include "scenario.hpp"
#include "trace_json.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

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
  // its 8 KiB gain (0.04 µs at 1 TB/s) — far below 4 µs, so its bound is overhead and its time
  // is 4 µs + 0.04096 µs.
  json hardware = round_hardware();
  hardware["launch_overhead_seconds"] = 4e-6;
  const Trace trace = trace_of({{"prompt_tokens", 1}, {"hardware", hardware}});
  const Operator& norm = op(trace, "final_norm");
  EXPECT_EQ(norm.bound, Bound::overhead);
  // Every kernel launches once here (T = 1, one chunk): the overhead total is 4 µs per launch.
  EXPECT_DOUBLE_EQ(trace.totals.overhead_seconds, 4e-6 * trace.embedding.kernel_launches);
  EXPECT_EQ(trace_to_json(trace)["totals"]["overhead_seconds"], trace.totals.overhead_seconds);
  EXPECT_DOUBLE_EQ(norm.seconds, 4e-6 + (4.0 * 4096 * 2 + 4096 * 2) / 1e12);
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

TEST(Steps, BoundIsTheOneWithTheMostKernelTime) {
  // Llama-3.1-8B, 2048 tokens, one request, H100 (ridge 989e12 / 3.35e12 = 295 FLOP/byte).
  auto parsed = scenario_from_json(
      {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}, {"prompt_tokens", 2048}});
  const Trace trace = compute_trace(parsed.value(), {});
  ASSERT_EQ(trace.steps.size(), 5u);
  // Step 5 holds two kernels of different bounds, so counting kernels would tie. The LM head on
  // the last position reads 4096·128256·2 B = 1.05 GB of weights (314 µs at 3.35 TB/s) for
  // 2·4096·128256 = 1.05 GFLOP (1.06 µs at 989 TFLOP/s): memory-bound. Sampling does
  // 5·128256 FLOPs and reads 128256·4 B of logits (0.15 µs), under one 4 µs launch: overhead.
  EXPECT_EQ(op(trace, "lm_head").bound, Bound::memory);
  EXPECT_EQ(op(trace, "sampling").bound, Bound::overhead);
  EXPECT_EQ(trace.steps[4].bound, Bound::memory);  // 314 µs of memory time against ~4 µs
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

// Every number anywhere in a JSON value is finite and no byte count is negative.
void expect_finite(const json& value, const std::string& path) {
  if (value.is_number()) {
    EXPECT_TRUE(std::isfinite(value.get<double>())) << path;
    if (path.find("bytes") != std::string::npos) {
      EXPECT_GE(value.get<double>(), 0) << path;
    }
  } else if (value.is_object()) {
    for (const auto& item : value.items()) expect_finite(item.value(), path + "/" + item.key());
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i)
      expect_finite(value[i], path + "/" + std::to_string(i));
  }
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

TEST(Scenario, OutOfRangeValuesNameTheirField) {
  const auto error = [](const json& overrides) {
    json base = {{"model", "llama-3.1-8b"}, {"hardware", "h100-sxm"}};
    for (const auto& item : overrides.items()) base[item.key()] = item.value();
    auto parsed = scenario_from_json(base);
    return parsed.ok() ? std::string("accepted") : parsed.error();
  };
  EXPECT_EQ(error({{"prompt_tokens", 0}}), "/prompt_tokens: must be an integer from 1 to 16777216");
  EXPECT_EQ(error({{"prompt_tokens", 1.5}}), "/prompt_tokens: must be an integer, not number");
  EXPECT_EQ(error({{"prompt_tokens", 18446744073709551615ull}}),
            "/prompt_tokens: must be an integer from 1 to 16777216");
  EXPECT_EQ(error({{"prompt_tokens", 1e308}}),
            "/prompt_tokens: must be an integer from 1 to 16777216");
  EXPECT_EQ(error({{"arrival_rate", -1}}), "/arrival_rate: must be from 0 to 1000000000");
  EXPECT_EQ(error({{"compute_efficiency", 0}}), "/compute_efficiency: must be from 0.001 to 1");
  EXPECT_EQ(error({{"attention", "flash"}}), "/attention: must be \"fused\" or \"materialized\"");
  EXPECT_EQ(error({{"prompt_token", 5}}), "/prompt_token: unknown field");
  EXPECT_EQ(error({{"model", "llama-9"}}), "/model: unknown model preset \"llama-9\"");
  EXPECT_EQ(
      error({{"model", {{"preset", "llama-3.1-8b"}, {"kv_heads", 5}}}}),
      "/model/kv_heads: must divide query_heads (32) so each key/value head serves a whole group");
  EXPECT_EQ(
      error({{"model",
              {{"layers", 2}, {"d_model", 100}, {"query_heads", 3}, {"d_ff", 8}, {"vocab", 9}}}}),
      "/model/query_heads: must divide d_model (100) unless head_dim is given");
  EXPECT_EQ(error({{"hardware", "a100-sxm-80gb"}, {"precision", "fp8"}}),
            "/precision: the accelerator a100-sxm-80gb states no peak for fp8 arithmetic");
  EXPECT_EQ(error({{"prompt_tokens", 2000000}, {"chunk_tokens", 1}}),
            "/chunk_tokens: splits the prompt into more than 1048576 chunks; use a larger chunk");
}

TEST(Engine, FacadeReportsErrorsAsValues) {
  const auto reply = api::compute_trace("{\"model\": \"llama-3.1-8b\"}");
  EXPECT_FALSE(reply.ok);
  EXPECT_EQ(reply.error, "/hardware: is required (a preset id or an object)");
  const auto bad_json = api::compute_trace("{");
  EXPECT_FALSE(bad_json.ok);
  // nlohmann reports the offset after the byte it failed on: end of input after "{" is byte 2.
  EXPECT_EQ(bad_json.error.rfind("byte 2: invalid JSON", 0), 0u) << bad_json.error;
  const auto sweep = api::sweep("{\"model\": \"llama-3.1-8b\", \"hardware\": \"h100-sxm\"}",
                                "prompt_tokens", {1, 0});
  EXPECT_EQ(sweep.error, "sweep value 1: prompt_tokens must be an integer from 1 to 16777216");
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
