// A C++ program that uses prefill_trace as a stranger's project would: through the public header
// only, next to its own nlohmann_json used the ordinary way (exceptions and implicit conversions
// on). If the library's private JSON_NOEXCEPTION or JSON_USE_IMPLICIT_CONVERSIONS=0 leaked into
// this program, it would not compile (implicit conversion below) or would abort (the catch).
#include <prefill_trace/engine.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>

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

  bool caught = false;
  try {
    const auto never = nlohmann::json::parse("{\"unterminated\": ");
    std::cerr << "consumer: parsed " << never << '\n';
  } catch (const nlohmann::json::parse_error&) {
    caught = true;
  }
  expect(caught, "nlohmann_json throws parse_error in the consumer");

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
    const auto trace = nlohmann::json::parse(reply.json);
    const double parameters = trace["parameters"];  // implicit conversion, the library default
    expect(parameters == 7888, "parameters == 7888, got " + std::to_string(parameters));
    expect(trace["totals"]["kv_cache"]["bytes"].get<double>() == 512, "KV bytes == 512");
    expect(trace["engine_version"].get<std::string>() == PREFILL_TRACE_VERSION,
           "engine_version equals PREFILL_TRACE_VERSION");
  }
  expect(api::version() == PREFILL_TRACE_VERSION, "api::version() equals the header's version");

  const auto bad = api::compute_trace(R"({"hardware": "h100-sxm"})");
  expect(!bad.ok && bad.error.find("model") != std::string::npos,
         "a scenario without a model is an error naming it: " + bad.error);

  if (failures == 0) std::cout << "consumer: ok (prefill_trace " << api::version() << ")\n";
  return failures == 0 ? 0 : 1;
}
