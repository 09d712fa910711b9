// The engine under Node: the trace of one scenario and a sweep of its prompt length.
// `node trace.mjs` after `npm install prefill-trace`.
import PrefillTrace from "prefill-trace";

const engine = await PrefillTrace(); // reads the .wasm from the package
const scenario = { model: "llama-3.1-8b", hardware: "h100-sxm", precision: "bf16", prompt_tokens: 2048 };

const result = engine.computeTrace(JSON.stringify(scenario));
if (!result.ok) {
  console.error(result.error); // one line naming the JSON path
  process.exit(2);
}
const trace = JSON.parse(result.json);
console.log(`engine ${engine.version()}: ${scenario.model} on ${scenario.hardware}, ${scenario.prompt_tokens} tokens`);
console.log(`KV cache: ${trace.totals.kv_cache.bytes} bytes`);
console.log(`TTFT: ${(trace.totals.ttft.total_seconds * 1e3).toFixed(2)} ms`);

const sweep = engine.sweep(JSON.stringify(scenario), "prompt_tokens", [512, 2048, 8192]);
if (!sweep.ok) {
  console.error(sweep.error);
  process.exit(2);
}
for (const point of JSON.parse(sweep.json).points) {
  console.log(`  ${String(point.value).padStart(5)} tokens: TTFT ${(point.total_seconds * 1e3).toFixed(2)} ms`);
}
