#pragma once
// The serving report described once (docs/serving.md, "Output" and "CSV"), in trace_schema.hpp's
// visitor protocol: the JSON writer (serving_json.cpp, JsonBuilder) and the CSV's header and
// rows (serving_json.cpp) are generated from these functions, and the tests hold
// bindings/prefill-trace.d.ts's ServingReport and the docs against documents written from them
// (tests/js/serving-report.test.mjs). Members are visited in the order the JSON prints them
// (alphabetical: nlohmann keeps objects sorted); a CSV row's columns in the CSV's order.
//
// Besides trace_schema.hpp's visitor members, V provides v.null(key): a member that is null.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "serving/serving.hpp"

namespace prefill_trace {

/// "fixed:T", "uniform:A:B" or "lognormal:MEAN:SIGMA", as a distribution reads back.
std::string length_text(const LengthDistribution& d);
/// "poisson", "gamma:CV" or, with rows, "rows"; with a trace "trace:FORMAT".
std::string arrival_text(const ServingConfig& c);
/// 101 nearest-rank quantiles (0 %, 1 %, …, 100 %) of `values`; empty when there are none.
std::vector<double> quantile_curve(std::vector<double> values);
/// The quantile curves of the finished requests' TTFT and TPOT (a TPOT needs two tokens).
struct Distributions {
  std::vector<double> ttft, tpot;
};
Distributions distributions_of(const ServingRun& run);

namespace serving_schema {

// A {mean, p50, p90, p99} summary, null when no request has the figure.
template <typename V>
void summary(std::string_view key, const Summary& s, V& v) {
  v.maybe_object(key, s.count != 0, [&] {
    v.number("mean", s.mean);
    v.number("p50", s.p50);
    v.number("p90", s.p90);
    v.number("p99", s.p99);
  });
}

template <typename V>
void numbers(std::string_view key, const std::vector<double>& values, V& v) {
  v.array(key, values.size(), [&](std::size_t i) { v.number("", values[i]); });
}

// A list of numbers, null when empty (a curve without requests).
template <typename V>
void numbers_or_null(std::string_view key, const std::vector<double>& values, V& v) {
  if (values.empty()) {
    v.null(key);
  } else {
    numbers(key, values, v);
  }
}

template <typename V, typename T>
void number_unless(bool absent, std::string_view key, T value, V& v) {
  if (absent) {
    v.null(key);
  } else {
    v.number(key, value);
  }
}

}  // namespace serving_schema

/// The input with every default filled in (the report's `serving`); `rows` when rows were given,
/// `trace` when a request trace was.
template <typename V>
void visit_serving_config(const ServingConfig& c, V& v) {
  const bool rows = !c.rows.empty();
  const std::string given = c.trace_format.empty() ? "rows" : "trace";
  v.text("arrival", arrival_text(c));
  v.number("attainment", c.attainment_target);
  v.number("block_size", c.block_size);
  v.number("decode_devices", c.decode_devices);
  v.number("decode_tensor_parallel", c.decode_tensor_parallel);
  v.flag("goodput", c.goodput);
  v.number("goodput_tolerance", c.goodput_tolerance);
  v.number("gpu_memory_utilization", c.gpu_memory_utilization);
  v.text("kv", kv_mode_name(c.kv));
  v.number("max_batch", c.max_batch);
  v.number("max_queue", c.max_queue);
  v.text("output", rows ? given : length_text(c.output));
  v.text("policy", policy_name(c.policy));
  v.number("prefill_devices", c.prefill_devices);
  v.number("prefill_tensor_parallel", c.prefill_tensor_parallel);
  v.number("prefix_hit", c.prefix_hit);
  v.text("prompt", rows ? given : length_text(c.prompt));
  serving_schema::number_unless(rows, "rate", c.rate, v);
  v.number("requests", c.requests);
  serving_schema::number_unless(rows, "seed", c.seed, v);
  v.number("timeline_points", c.timeline_points);
  v.number("token_budget", c.token_budget);
  v.number("token_times", c.token_times);
  v.maybe("tpot_slo", c.tpot_slo_seconds);
  v.number("trace_limit", c.trace_limit);
  v.number("trace_rate_scale", c.trace_rate_scale);
  v.maybe("ttft_slo", c.ttft_slo_seconds);
}

template <typename V>
void visit_timeline(const Timeline& t, V& v) {
  using serving_schema::numbers;
  numbers("busy_fraction", t.busy_fraction, v);
  numbers("decode_tokens", t.decode_tokens, v);
  numbers("kv_blocks", t.kv_blocks, v);
  numbers("preemptions", t.preemptions, v);
  numbers("prefill_tokens", t.prefill_tokens, v);
  numbers("queued", t.queued, v);
  numbers("running", t.running, v);
  v.number("step_seconds", t.step_seconds);
  numbers("time_seconds", t.time_seconds, v);
}

/// One run of a sweep: its rate and the figures attainment-against-rate charts read.
template <typename V>
void visit_sweep_point(const ServingRun& run, V& v) {
  using serving_schema::summary;
  v.number("busy_fraction", run.busy_fraction);
  v.number("completed_requests", run.completed);
  summary("e2e_seconds", run.e2e, v);
  v.flag("overloaded", run.overloaded);
  v.number("rate_requests_per_second", run.rate);
  v.maybe("slo_attainment", run.slo_attainment);
  summary("tbt_max_seconds", run.tbt_max, v);
  v.number("throughput_requests_per_second", run.throughput_requests_per_second);
  summary("tpot_seconds", run.tpot, v);
  summary("ttft_seconds", run.ttft, v);
}

/// The whole report (docs/serving.md, "Output"), root members in order; `goodput…` only with a
/// goodput search, `sweep` only with sweep rates, `token_times` only when asked for.
template <typename V>
void visit_serving_report(const ServingReport& report, V& v) {
  visit_report_busy_to_model(report, v);
  visit_report_overload_to_ttft(report, v);
}

template <typename V>
void visit_goodput(const GoodputSearch& g, V& v) {
  v.flag("bounded", g.bounded);
  v.array("probes", g.probes.size(), [&](std::size_t i) {
    v.object("", [&] {
      v.flag("overloaded", g.probes[i].overloaded);
      v.number("rate_requests_per_second", g.probes[i].rate);
      v.number("slo_attainment", g.probes[i].attainment);
    });
  });
  v.number("target", g.target);
  v.number("tolerance", g.tolerance);
}

/// The prefix cache of a trace's hash ids (docs/serving.md, "Prefix cache from hash_ids").
template <typename V>
void visit_prefix_cache(const PrefixCacheFigures& p, V& v) {
  v.number("block_tokens", p.block_tokens);
  v.number("evicted_blocks", p.evicted_blocks);
  v.number("hit_rate", p.hit_rate);
  v.number("hit_tokens", p.hit_tokens);
  v.number("prompt_tokens", p.prompt_tokens);
}

/// One request's token times (docs/serving.md, "Token times").
template <typename V>
void visit_token_times(const RequestTokenTimes& t, V& v) {
  v.maybe("admitted_seconds", t.admitted_seconds);
  v.number("arrival_seconds", t.arrival_seconds);
  v.number("cached_tokens", t.cached_tokens);
  v.number("output_tokens", t.output_tokens);
  serving_schema::numbers("preemption_seconds", t.preemption_seconds, v);
  v.array("prefill_passes", t.prefill_passes.size(), [&](std::size_t i) {
    const PrefillPass& pass = t.prefill_passes[i];
    v.object("", [&] {
      v.number("end_seconds", pass.end_seconds);
      v.number("start_seconds", pass.start_seconds);
      v.number("tokens", pass.tokens);
    });
  });
  v.number("prompt_tokens", t.prompt_tokens);
  v.number("request", t.request);
  serving_schema::numbers("token_seconds", t.token_seconds, v);
  v.flag("truncated", t.truncated);
}

// The report's root members from "busy_fraction" to "model", in order (the first half of
// visit_serving_report).
template <typename V>
void visit_report_busy_to_model(const ServingReport& report, V& v) {
  using serving_schema::summary;
  const ServingRun& run = report.run;
  const GoodputSearch* goodput = report.goodput ? &*report.goodput : nullptr;
  v.number("busy_fraction", run.busy_fraction);
  v.number("completed_requests", run.completed);
  v.number("decode_busy_fraction", run.decode_busy_fraction);
  v.number("decode_instance_devices", report.decode_instance_devices);
  v.number("devices", report.devices);
  v.object("distributions", [&] {
    const Distributions curves = distributions_of(run);
    serving_schema::numbers_or_null("tpot_seconds", curves.tpot, v);
    serving_schema::numbers_or_null("ttft_seconds", curves.ttft, v);
  });
  summary("e2e_seconds", run.e2e, v);
  if (goodput != nullptr) {
    v.object("goodput", [&] { visit_goodput(*goodput, v); });
    serving_schema::number_unless(!goodput->bounded, "goodput_per_device",
                                  goodput->goodput_per_device, v);
    serving_schema::number_unless(!goodput->bounded, "goodput_requests_per_second",
                                  goodput->goodput_requests_per_second, v);
  }
  v.text("hardware", report.hardware);
  // Only where the stack charges host time: every other report keeps its bytes.
  if (report.charges_host) v.number("host_seconds", run.host_seconds);
  v.number("iterations", run.iterations);
  v.number("kv_bytes_per_token", report.kv_bytes_per_token);
  v.number("kv_capacity_blocks", report.kv_capacity_blocks);
  v.number("kv_capacity_tokens", report.kv_capacity_tokens);
  v.number("kv_transfer_bytes_per_token", report.kv_transfer_bytes_per_token);
  v.number("longest_iteration_seconds", run.longest_iteration_seconds);
  v.text("model", report.model);
}

// The report's root members from "overload" to "ttft_seconds", in order.
template <typename V>
void visit_report_overload_to_ttft(const ServingReport& report, V& v) {
  using serving_schema::summary;
  const ServingRun& run = report.run;
  v.maybe_object("overload", run.overloaded, [&] {
    v.number("completed_requests", run.completed);
    v.number("queued_requests", run.queued_at_stop);
    v.text("reason", run.overload_reason);
    v.number("simulated_seconds", run.simulated_seconds);
  });
  v.flag("overloaded", run.overloaded);
  v.text("policy", policy_name(report.config.policy));
  v.text("precision", report.precision);
  v.number("preemptions", run.preemptions);
  v.number("prefill_busy_fraction", run.prefill_busy_fraction);
  v.number("prefill_instance_devices", report.prefill_instance_devices);
  // Only where a trace's hash ids decide the hits: every other report keeps its bytes.
  if (run.prefix_cache) v.object("prefix_cache", [&] { visit_prefix_cache(*run.prefix_cache, v); });
  summary("queue_seconds", run.queue, v);
  v.number("recomputed_tokens", run.recomputed_tokens);
  v.number("requests", run.requests);
  v.number("running_requests_mean", run.running_requests_mean);
  v.object("serving", [&] { visit_serving_config(report.config, v); });
  v.number("simulated_seconds", run.simulated_seconds);
  v.maybe("slo_attainment", run.slo_attainment);
  if (!report.sweep.empty()) {
    v.array("sweep", report.sweep.size(),
            [&](std::size_t i) { v.object("", [&] { visit_sweep_point(report.sweep[i], v); }); });
  }
  summary("tbt_max_seconds", run.tbt_max, v);
  v.number("throughput_requests_per_second", run.throughput_requests_per_second);
  v.number("throughput_tokens_per_second", run.throughput_tokens_per_second);
  v.object("timeline", [&] { visit_timeline(run.timeline, v); });
  v.text("timing", report.timing);
  if (report.config.token_times > 0) {
    v.array("token_times", run.token_times.size(), [&](std::size_t i) {
      v.object("", [&] { visit_token_times(run.token_times[i], v); });
    });
  }
  summary("tpot_seconds", run.tpot, v);
  summary("ttft_seconds", run.ttft, v);
}

/// One request's row of the CSV (docs/serving.md, "CSV"), columns in the CSV's order: an
/// unfinished request has no times and does not meet the SLO.
template <typename V>
void visit_request_row(std::size_t index, const RequestOutcome& out, V& v) {
  const auto when_finished = [&](double value) {
    return out.finished ? std::optional<double>(value) : std::nullopt;
  };
  v.number("request", index);
  v.number("arrival_seconds", out.arrival_seconds);
  v.number("prompt_tokens", out.prompt_tokens);
  v.number("cached_tokens", out.cached_tokens);
  v.number("output_tokens", out.output_tokens);
  v.flag("finished", out.finished);
  v.maybe("ttft_seconds", when_finished(out.ttft_seconds));
  v.maybe("tpot_seconds", when_finished(out.tpot_seconds));
  v.maybe("tbt_max_seconds", when_finished(out.tbt_max_seconds));
  v.maybe("e2e_seconds", when_finished(out.e2e_seconds));
  v.flag("meets_slo", out.finished && out.meets_slo);
}

}  // namespace prefill_trace
