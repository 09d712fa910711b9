// One Llama-3.1-405B trace through the JSON facade, for callgrind's instruction count: a
// repeatable figure on a noisy shared machine (script/bench reports it every run).
#include "engine.hpp"
#include "scenarios.hpp"

int main() {
  return prefill_trace::api::compute_trace(prefill_trace::bench::k405b).ok ? 0 : 1;
}
