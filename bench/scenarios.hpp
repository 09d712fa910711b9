#pragma once
// The scenarios every benchmark (native, wasm, page) measures, so their figures compare.
namespace prefill_trace::bench {
constexpr const char* k405b =
    R"({"model":"llama-3.1-405b","hardware":"h100-sxm","prompt_tokens":2048})";
constexpr const char* k7b = R"({"model":"llama-2-7b","hardware":"h100-sxm","prompt_tokens":2048})";
}  // namespace prefill_trace::bench
