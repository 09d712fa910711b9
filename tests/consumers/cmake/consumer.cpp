// A C++ program that uses prefill_trace as a stranger's project would: through the public header
// only, beside its own JSON code (consumer_json.cpp) that uses nlohmann_json with exceptions.
#include <iostream>
#include <prefill_trace/engine.hpp>
#include <string>

#include "consumer_json.hpp"

namespace {

int failures = 0;

void expect(bool condition, const std::string& what) {
  if (!condition) {
    std::cerr << "consumer: FAILED: " << what << '\n';
    ++failures;
  }
}

}  // namespace

int main() {
  namespace api = prefill_trace::api;

  // A tiny model, derived by hand from docs/model.md:
  //   L = 2 layers, d = 16, h_q = 4, h_kv = 2, d_h = 4, d_ff = 32 (gated), V = 100, untied.
  //   parameters per layer = d*h_q*d_h (256) + 2*d*h_kv*d_h (256) + h_q*d_h*d (256)
  //                          + 3*d*d_ff (1536) + 2*d (32) = 2336
  //   total = L*2336 + 2*V*d (3200) + d (16) = 4672 + 3200 + 16 = 7888
  //   KV bytes left behind = 2*L*B*T*h_kv*d_h*c = 2*2*1*8*2*4*2 (bf16) = 512
  const auto reply = api::compute_trace(
      R"({"model": {"layers": 2, "d_model": 16, "query_heads": 4, "kv_heads": 2, "head_dim": 4,
                    "d_ff": 32, "mlp": "gated", "vocab": 100},
          "hardware": "h100-sxm", "prompt_tokens": 8})");
  expect(reply.ok, "compute_trace succeeds: " + reply.error);
  if (reply.ok) {
    const auto figures = read_trace(reply.json);
    expect(figures.parameters == 7888,
           "parameters == 7888, got " + std::to_string(figures.parameters));
    expect(figures.kv_bytes == 512, "KV bytes == 512, got " + std::to_string(figures.kv_bytes));
    expect(figures.engine_version == PREFILL_TRACE_VERSION,
           "engine_version equals PREFILL_TRACE_VERSION");
  }
  expect(api::version() == PREFILL_TRACE_VERSION, "api::version() equals the header's version");

  const auto bad = api::compute_trace(R"({"hardware": "h100-sxm"})");
  expect(!bad.ok && bad.error.find("model") != std::string::npos,
         "a scenario without a model is an error naming it: " + bad.error);

  // After the engine ran (so the library's nlohmann code is linked and used): the consumer's
  // nlohmann still throws.
  expect(parse_error_is_thrown(), "nlohmann_json throws parse_error in the consumer");
  expect(type_error_is_thrown(), "nlohmann_json throws type_error in the consumer");

  if (failures == 0) std::cout << "consumer: ok (prefill_trace " << api::version() << ")\n";
  return failures == 0 ? 0 : 1;
}
