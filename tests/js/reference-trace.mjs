// A straightforward pure-JavaScript implementation of the trace formulas (docs/model.md) for a
// dense, gated, unchunked, fused-attention scenario, written apart from the C++: the per-operator
// oracle of tests/js/reference-trace.test.mjs (run by script/test over a grid of scenarios) and the
// pure-JS comparison point of bench/wasm-bench.mjs. Not used by the product.

const BYTES = { fp32: 4, bf16: 2, fp16: 2, fp8: 1, int8: 1, int4: 0.5 };

export function referenceTrace(model, hardware, T, B = 1, precision = "bf16") {
  const w = BYTES[precision], a = BYTES[precision], c = BYTES[precision];
  const { layers: L, d_model: d, query_heads: hq, kv_heads: hkv, head_dim: dh, d_ff: dff, vocab: V } = model;
  const P = hardware.peak_flops[precision], beta = hardware.memory_bandwidth, launch = hardware.launch_overhead_seconds;
  const m = 128, N = B * T;
  const ops = [];
  const finish = (name, count, flops, computed, bytes) => {
    // The bound timing: the roof alone; launch overhead is reported beside the total, not in it.
    const tc = computed / P, tm = bytes / beta, roof = Math.max(tc, tm);
    ops.push({ name, count, flops, computed, bytes, seconds: roof, overhead: launch });
  };
  const padded = (rows) => (rows >= m ? Math.ceil(rows / m) * m : Math.min(m, Math.ceil(rows / 16) * 16));
  const gemm = (name, din, dout, rows = N, count = L) =>
    finish(name, count, 2 * rows * din * dout, 2 * padded(rows) * din * dout, din * dout * w + rows * (din + dout) * a);
  const norm = (name, count) => finish(name, count, 5 * N * d, 5 * N * d, d * w + 4 * N * d * a);

  finish("embedding", 1, 0, 0, N * d * w + N * d * a);
  norm("attn_norm", L);
  gemm("qkv_projection", d, (hq + 2 * hkv) * dh);
  finish("kv_cache_write", L, 0, 0, 2 * N * hkv * dh * (a + c));
  // Fused attention, block b = FlashAttention's B_r from shared memory.
  const b = Math.max(1, Math.min(Math.ceil(hardware.sram_per_unit_bytes / a / (4 * dh)), dh));
  const q = Math.floor(T / b), r = T - q * b;
  const fullTiles = q * (q + 1) / 2, lastTiles = r > 0 ? q + Math.ceil(r / b) : 0;
  const computedPairs = b * (b * fullTiles + r * lastTiles), usefulPairs = T * (T + 1) / 2;
  const perPair = 4 * dh + 5;
  // Compulsory traffic: Q read and O written once, every key and value read once (the bound
  // counts what must cross HBM, not a schedule's re-reads).
  finish("attention", L, B * hq * usefulPairs * perPair, B * hq * computedPairs * perPair,
    2 * B * hq * T * dh * a + B * hkv * 2 * dh * c * T);
  gemm("o_projection", hq * dh, d);
  norm("mlp_norm", L);
  gemm("gate_up_projection", d, 2 * dff);
  finish("silu_and_mul", L, 5 * N * dff, 5 * N * dff, 3 * N * dff * a);
  gemm("down_projection", dff, d);
  norm("final_norm", 1);
  const head = { din: d, dout: V };
  finish("lm_head", 1, 2 * B * head.din * head.dout, 2 * padded(B) * head.din * head.dout,
    head.din * head.dout * w + B * d * a + B * V * 4);
  finish("sampling", 1, 5 * B * V, 5 * B * V, B * V * 4);

  let flops = 0, bytes = 0, seconds = 0;
  for (const op of ops) { flops += op.count * op.flops; bytes += op.count * op.bytes; seconds += op.count * op.seconds; }
  return { flops, hbm_bytes: bytes, seconds, operators: ops };
}
