#include "report.hpp"

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <string>

#include "format.hpp"

namespace prefill_trace::cli {
namespace {

using nlohmann::json;

// The documents come from the engine, which validated them; a member the contract promises is
// read without a fallback.
std::string text(const json& object, const char* key) {
  return object.at(key).get<std::string>();
}
double number(const json& object, const char* key) {
  return object.at(key).get<double>();
}
// Members the engine writes as integers (counts, token numbers), printed as integers.
int64_t integer(const json& object, const char* key) {
  return object.at(key).get<int64_t>();
}

void print_heading(const std::string& title) {
  std::cout << '\n' << title << '\n' << std::string(title.size(), '-') << '\n';
}

void print_numbered(const json& items) {
  for (std::size_t i = 0; i < items.size(); ++i)
    std::cout << "  " << i + 1 << ". " << items[i].get<std::string>() << '\n';
}

void print_lesson_title(const json& lesson) {
  const std::string name = text(lesson, "name");
  std::cout << name << '\n'
            << std::string(name.size(), '=') << '\n'
            << text(lesson, "role") << '\n';
  std::cout << (lesson.contains("branch") ? text(lesson, "branch") + " · " : "")
            << text(lesson, "scale") << '\n';
  print_heading("Learning objective");
  std::cout << text(lesson, "learningObjective") << '\n';
  print_heading("The mechanism");
  std::cout << text(lesson, "description") << "\n\n";
  print_numbered(lesson.at("mechanism"));
  print_heading("Science and assumptions");
  for (const json& science : lesson.at("science")) {
    std::cout << text(science, "title") << ": " << text(science, "equation") << '\n'
              << text(science, "explanation") << '\n'
              << "Assumptions: " << text(science, "assumptions") << '\n';
  }
  print_heading("Engineering example");
  std::cout << text(lesson, "engineeringExample") << '\n';
  print_heading("Distinctions and tradeoffs");
  std::cout << "Misconception: " << text(lesson, "misconception")
            << "\nTradeoff: " << text(lesson, "tradeoff")
            << "\nWhy it matters for AI: " << text(lesson, "whyAI") << '\n';
}

void print_lesson_interfaces(const json& lesson) {
  print_heading("Specifications and interfaces");
  for (const json& spec : lesson.at("specs")) {
    std::cout << text(spec, "label") << ": " << text(spec, "value") << " — "
              << text(spec, "context") << '\n';
  }
  for (const json& interface : lesson.at("interfaces")) {
    // The Atlas allows any direction string; "in" and "out" read as the lesson page shows them.
    const std::string way = text(interface, "direction");
    const std::string label = way == "in" ? "Input" : way == "out" ? "Output" : way;
    std::cout << label << ": " << text(interface, "name") << " — " << text(interface, "signal")
              << '\n';
  }
}

void print_lesson_references(const json& lesson) {
  print_heading("Check your understanding");
  const json& check = lesson.at("check");
  std::cout << text(check, "question") << '\n';
  print_numbered(check.at("options"));
  std::cout << "(answer with: prefill-trace quiz --answer N)\n";
  print_heading("Evidence and scope");
  std::cout << text(lesson, "evidenceNotes") << '\n';
  if (lesson.contains("labScope")) std::cout << text(lesson, "labScope") << '\n';
  print_heading("Sources");
  for (const json& source : lesson.at("sources"))
    std::cout << "- " << text(source, "title") << " <" << text(source, "url") << ">\n";
  print_heading("Continue exploring");
  std::cout << "Foundations:";
  for (const json& id : lesson.at("prerequisites")) std::cout << ' ' << id.get<std::string>();
  std::cout << "\nRelated lessons:";
  for (const json& id : lesson.at("related")) std::cout << ' ' << id.get<std::string>();
  std::cout << '\n';
}

// The facts of mechanism step `number` (docs/trace-json.md, "Steps").
const json& step_facts(const json& trace, int64_t number) {
  for (const json& step : trace.at("steps")) {
    if (integer(step, "step") == number) return step.at("facts");
  }
  return trace.at("steps").at(static_cast<std::size_t>(number - 1)).at("facts");
}

void print_trace_heading(const json& trace) {
  const json& s = trace.at("scenario");
  const json& precision = s.at("precision");
  const json& chunking = step_facts(trace, 4).at("chunking");
  const int64_t devices = integer(s, "tensor_parallel");
  std::cout << "Prefill trace: " << text(s.at("model"), "name") << " on "
            << text(s.at("hardware"), "name") << ", " << text(precision, "name") << " (weights "
            << text(precision, "weights") << ", activations " << text(precision, "activations")
            << ", KV " << text(precision, "kv") << ")\n"
            << "T = " << integer(s, "prompt_tokens")
            << " prompt tokens × B = " << integer(s, "batch") << " requests, "
            << text(s, "attention") << " attention, " << integer(chunking, "chunks")
            << " chunk(s) of " << integer(chunking, "chunk_tokens") << " tokens\n"
            << (devices > 1 ? "Tensor parallel over " + std::to_string(devices) +
                                  " devices: every figure below is per device\n"
                            : "")
            << "Parameters: " << si(number(trace, "parameters"), "")
            << "  ridge point: " << plain(number(step_facts(trace, 2), "ridge_flops_per_byte"))
            << " FLOP/byte\n\n";
}

void print_trace_operators(const json& trace) {
  std::printf("%-20s %4s %5s %12s %22s %10s %11s %9s\n", "operator", "step", "runs", "FLOPs/run",
              "HBM bytes/run", "FLOP/byte", "time/run", "bound");
  for (const json& op : trace.at("operators")) {
    std::printf("%-20s %4d %5.0f %12s %22s %10s %11s %9s\n", text(op, "name").c_str(),
                static_cast<int>(integer(op, "step")), number(op, "count"),
                si(number(op, "flops"), "FLOP").c_str(),
                bytes(number(op.at("hbm_bytes"), "total")).c_str(),
                plain(number(op, "intensity")).c_str(), seconds(number(op, "seconds")).c_str(),
                text(op, "bound").c_str());
  }
  std::cout << "\nSteps\n";
  for (const json& step : trace.at("steps")) {
    std::cout << "  " << integer(step, "step") << ". " << text(step, "title") << ": ";
    if (step.at("operators").empty()) {
      std::cout << "no kernels of its own; see the memory ledger below\n";
      continue;
    }
    const json& totals = step.at("totals");
    const json& bound = step.at("bound");
    std::cout << si(number(totals, "flops"), "FLOP") << ", " << bytes(number(totals, "hbm_bytes"))
              << ", " << seconds(number(totals, "seconds"))
              << (bound.is_string() ? ", " + bound.get<std::string>() + "-bound" : "") << '\n';
  }
}

// A time the engine gives as null when it has no finite value (an overloaded queue).
std::string seconds_or_unbounded(const json& value) {
  return value.is_number() ? seconds(value.get<double>()) : std::string("unbounded");
}

void print_trace_facts(const json& trace) {
  const json& att = step_facts(trace, 3);
  std::cout << "\nAttention: block " << integer(att, "block") << ", causal pairs per head "
            << si(number(att, "useful_pairs_per_head"), "") << " useful / "
            << si(number(att, "computed_pairs_per_head"), "") << " computed; score matrix "
            << bytes(number(att, "score_matrix_bytes"))
            << (text(att, "attention") == "materialized" ? " materialized" : " kept on chip")
            << '\n'
            << "KV state left behind: " << bytes(number(att, "kv_bytes_written")) << " ("
            << bytes(number(att, "kv_bytes_per_token")) << " per token)\n";
  const json& mem = step_facts(trace, 4).at("memory");
  std::cout << "Memory: weights " << bytes(number(mem, "weight_bytes")) << " + KV "
            << bytes(number(mem, "kv_bytes")) << " + temporaries "
            << bytes(number(mem, "temporaries_bytes")) << " = " << bytes(number(mem, "peak_bytes"))
            << " of " << bytes(number(mem, "capacity_bytes")) << ": "
            << (mem.at("fits").get<bool>()
                    ? "fits"
                    : "does not fit, exceeds by " + bytes(number(mem, "exceeds_by_bytes")))
            << '\n';
  const json& ttft = step_facts(trace, 5);
  std::cout << "TTFT: queue " << seconds_or_unbounded(ttft.at("queue_seconds")) << " + execution "
            << seconds(number(ttft, "execution_seconds")) << " + delivery "
            << seconds(number(ttft, "delivery_seconds")) << " = "
            << seconds_or_unbounded(ttft.at("total_seconds"))
            << (ttft.at("overloaded").get<bool>()
                    ? "  (overloaded: utilization " + plain(number(ttft, "utilization")) + " >= 1)"
                    : "")
            << '\n';
  // The estimate is a fit, so its figure comes with the range held-out measurements fell in;
  // the bound is a bound and has none (its low and high equal the figure).
  const json& ttft_range = trace.at("totals").at("ttft");
  if (text(trace.at("scenario"), "timing") == "estimate" &&
      ttft_range.at("total_seconds_low").is_number()) {
    std::cout << "      typically " << seconds(number(ttft_range, "total_seconds_low")) << " to "
              << seconds(number(ttft_range, "total_seconds_high"))
              << " (the estimate's p10-p90 on held-out measurements, docs/validation.md)\n";
  }
  const json& decode = trace.at("decode_comparison");
  std::cout << "Decode step at context " << integer(decode, "context_tokens") << ": "
            << seconds(number(decode, "seconds")) << ", " << plain(number(decode, "intensity"))
            << " FLOP/byte, " << text(decode, "bound")
            << "-bound (prefill: " << plain(number(decode, "prefill_intensity")) << " FLOP/byte, "
            << text(decode, "prefill_bound") << "-bound)\n";
  std::cout << "\nStated omissions:\n";
  for (const json& assumption : trace.at("assumptions"))
    std::cout << "  - " << assumption.get<std::string>() << '\n';
}

std::string summary_line(const json& summary) {
  if (!summary.is_object()) return "none (no request has it)";
  return "mean " + seconds(number(summary, "mean")) + ", p50 " + seconds(number(summary, "p50")) +
         ", p90 " + seconds(number(summary, "p90")) + ", p99 " + seconds(number(summary, "p99"));
}

void print_serving_run(const json& r) {
  const json& c = r.at("serving");
  std::cout << "Serving: " << text(r, "model") << " on " << text(r, "hardware") << ", "
            << text(r, "precision") << ", timing " << text(r, "timing") << ", policy "
            << text(r, "policy") << ", " << integer(r, "devices") << " device(s)\n"
            << "Workload: " << integer(r, "requests") << " requests, prompt " << text(c, "prompt")
            << ", output " << text(c, "output") << ", arrivals " << text(c, "arrival");
  if (c.at("rate").is_number()) std::cout << " at " << plain(number(c, "rate")) << " req/s";
  std::cout << "\nCompleted " << integer(r, "completed_requests") << " in "
            << seconds(number(r, "simulated_seconds")) << " simulated (" << integer(r, "iterations")
            << " iterations)";
  if (r.at("overloaded").get<bool>())
    std::cout << "  OVERLOADED: " << text(r.at("overload"), "reason");
  std::cout << "\n  TTFT     " << summary_line(r.at("ttft_seconds")) << "\n  TPOT     "
            << summary_line(r.at("tpot_seconds")) << "\n  max TBT  "
            << summary_line(r.at("tbt_max_seconds")) << "\n  e2e      "
            << summary_line(r.at("e2e_seconds")) << "\n  queue    "
            << summary_line(r.at("queue_seconds")) << '\n';
  std::cout << "Throughput " << plain(number(r, "throughput_requests_per_second")) << " req/s, "
            << plain(number(r, "throughput_tokens_per_second")) << " output tok/s; busy "
            << plain(number(r, "busy_fraction")) << '\n';
  if (r.at("slo_attainment").is_number())
    std::cout << "SLO attainment " << plain(number(r, "slo_attainment")) << '\n';
}

void print_serving_search(const json& r) {
  if (r.contains("goodput_requests_per_second") && r.at("goodput_requests_per_second").is_null()) {
    std::cout
        << "Goodput unbounded: every rate tried meets attainment >= "
        << plain(number(r.at("goodput"), "target"))
        << ", even with all requests arriving at once (too few requests to load the device)\n";
  } else if (r.contains("goodput_requests_per_second")) {
    std::cout << "Goodput " << plain(number(r, "goodput_requests_per_second")) << " req/s ("
              << plain(number(r, "goodput_per_device"))
              << " per device) at attainment >= " << plain(number(r.at("goodput"), "target"))
              << '\n';
  }
  if (r.contains("sweep")) {
    for (const json& point : r.at("sweep")) {
      std::cout << "  rate " << plain(number(point, "rate_requests_per_second")) << ": attainment "
                << (point.at("slo_attainment").is_number() ? plain(number(point, "slo_attainment"))
                                                           : std::string("-"))
                << ", TTFT " << summary_line(point.at("ttft_seconds")) << '\n';
    }
  }
}

}  // namespace

void print_lesson(const json& lesson) {
  print_lesson_title(lesson);
  print_lesson_interfaces(lesson);
  print_lesson_references(lesson);
}

void print_trace_table(const json& trace) {
  print_trace_heading(trace);
  print_trace_operators(trace);
  print_trace_facts(trace);
}

void print_serving_table(const json& report) {
  print_serving_run(report);
  print_serving_search(report);
}

void print_plan_table(const json& plan) {
  std::cout << "Placement search: " << text(plan, "model") << " on " << text(plan, "hardware")
            << ", " << text(plan, "precision") << ", timing " << text(plan, "timing") << ", up to "
            << integer(plan, "devices") << " device(s); " << plan.at("candidates").size()
            << " candidates, " << integer(plan, "searches") << " goodput searches\n";
  std::printf("  %-14s %-10s %-10s %7s %12s %12s\n", "policy", "prefill", "decode", "devices",
              "goodput", "per device");
  for (const json& c : plan.at("candidates")) {
    // Instances x tensor-parallel degree of each role ("-" for colocated decode).
    const auto role = [&](const char* instances, const char* degree) {
      return integer(c, instances) == 0 ? std::string("-")
                                        : std::to_string(integer(c, instances)) + "x TP" +
                                              std::to_string(integer(c, degree));
    };
    std::printf("  %-14s %-10s %-10s %7lld %12s %12s%s\n", text(c, "policy").c_str(),
                role("prefill_instances", "prefill_tensor_parallel").c_str(),
                role("decode_instances", "decode_tensor_parallel").c_str(),
                static_cast<long long>(integer(c, "devices")),
                plain(number(c, "goodput_requests_per_second")).c_str(),
                plain(number(c, "goodput_per_device")).c_str(),
                c.at("bounded").get<bool>() ? "" : "  (a lower bound: too few requests)");
  }
  for (const json& s : plan.at("skipped")) {
    std::cout << "Skipped " << text(s, "policy") << " (TP " << integer(s, "prefill_tensor_parallel")
              << (integer(s, "decode_tensor_parallel") > 0
                      ? "/" + std::to_string(integer(s, "decode_tensor_parallel"))
                      : std::string())
              << "): " << text(s, "reason") << '\n';
  }
  std::cout << (plan.at("best").is_null() ? "No placement meets the target at any rate tried\n"
                                          : "Best: the first row\n");
}

void print_presets_table(const json& presets) {
  std::cout << "Models:\n";
  for (const json& m : presets.at("models")) {
    const int64_t experts = integer(m, "experts");
    const std::string moe = experts > 1 ? "MoE " + std::to_string(integer(m, "active_experts")) +
                                              "/" + std::to_string(experts)
                                        : "";
    std::printf(
        "  %-16s %-20s L=%-4lld d=%-6lld heads %lld/%lld d_ff=%-6lld V=%-7lld %s\n",
        text(m, "id").c_str(), text(m, "name").c_str(),
        static_cast<long long>(integer(m, "layers")), static_cast<long long>(integer(m, "d_model")),
        static_cast<long long>(integer(m, "query_heads")),
        static_cast<long long>(integer(m, "kv_heads")), static_cast<long long>(integer(m, "d_ff")),
        static_cast<long long>(integer(m, "vocab")), moe.c_str());
  }
  std::cout << "Accelerators (dense peaks):\n";
  for (const json& a : presets.at("accelerators")) {
    const json& peaks = a.at("peak_flops");
    std::printf("  %-14s %-32s %s bf16, %s/s, %s\n", text(a, "id").c_str(), text(a, "name").c_str(),
                peaks.contains("bf16") ? si(number(peaks, "bf16"), "FLOP/s").c_str() : "-",
                si(number(a, "memory_bandwidth"), "B").c_str(),
                bytes(number(a, "memory_capacity")).c_str());
  }
  std::cout << "Precisions: bf16, fp16, fp8 (W8A8, fp8 KV), int8 (W8A8, bf16 KV), int4 (W4A16)\n";
}

}  // namespace prefill_trace::cli
