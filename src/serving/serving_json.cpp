#include "serving/serving_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <type_traits>

#include "field_reader.hpp"
#include "json_builder.hpp"
#include "json_path.hpp"
#include "json_write.hpp"
#include "limits.hpp"
#include "prefill_trace/number_text.hpp"
#include "serving/request_trace.hpp"
#include "serving/serving_fields.hpp"
#include "serving/serving_schema.hpp"
#include "serving/sort.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

// The `serving` object's members by their rows (serving_fields.hpp); the first problem is kept
// (FirstError). Ranges are worded as this reader always has ("must be a number from …").
Fields serving_fields_of(const json& object, FirstError& errors) {
  return Fields(object, "/serving", kServingFields, errors, RangeWording::typed);
}

// "a:b:c" → {"a", "b", "c"}.
std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t at = text.find(separator, start);
    parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return parts;
    start = at + 1;
  }
}

// "fixed:T", "uniform:A:B" or "lognormal:MEAN:SIGMA" from its kind and numbers (`text` is the
// whole string, for the message that names an unknown one).
LengthDistribution length_of(const std::string& kind, const std::vector<double>& numbers,
                             const std::string& text, int64_t max_tokens, const std::string& where,
                             FirstError& errors) {
  LengthDistribution dist;
  const std::string range = "from 1 to " + std::to_string(max_tokens);
  const auto whole = [&](double v) {
    return v >= 1 && v <= static_cast<double>(max_tokens) && v == std::floor(v);
  };
  if (kind == "fixed" && numbers.size() == 1) {
    if (!whole(numbers[0]))
      errors.fail(ErrorCode::out_of_range, where, "fixed:T needs a whole T " + range);
    dist.a = numbers[0];
  } else if (kind == "uniform" && numbers.size() == 2) {
    dist.kind = LengthDistribution::Kind::uniform;
    if (!whole(numbers[0]) || !whole(numbers[1]) || numbers[0] > numbers[1])
      errors.fail(ErrorCode::out_of_range, where, "uniform:A:B needs whole A ≤ B, each " + range);
    dist.a = numbers[0];
    dist.b = numbers[1];
  } else if (kind == "lognormal" && numbers.size() == 2) {
    dist.kind = LengthDistribution::Kind::lognormal;
    if (!(numbers[0] >= 1 && numbers[0] <= static_cast<double>(max_tokens)))
      errors.fail(ErrorCode::out_of_range, where, "lognormal:MEAN:SIGMA needs MEAN " + range);
    else if (!(numbers[1] >= 0 && numbers[1] <= limits::max_length_sigma))
      errors.fail(
          ErrorCode::out_of_range, where,
          "lognormal:MEAN:SIGMA needs SIGMA from 0 to " + ten_digits(limits::max_length_sigma));
    dist.a = numbers[0];
    dist.b = numbers[1];
  } else {
    errors.fail(ErrorCode::unknown_name, where,
                quoted_excerpt(text) + " is not fixed:T, uniform:A:B or lognormal:MEAN:SIGMA");
  }
  return dist;
}

// A token-count distribution: a whole number (fixed), or "fixed:T", "uniform:A:B",
// "lognormal:MEAN:SIGMA".
LengthDistribution read_length(const Fields& fields, const ScenarioField& row) {
  LengthDistribution dist;
  const std::string_view key = row.name;
  const auto max_tokens = static_cast<int64_t>(row.max);
  const std::string where = fields.path(key);
  FirstError& errors = fields.errors();
  const std::string range = "from 1 to " + std::to_string(max_tokens);
  if (!fields.has(key)) {
    errors.fail(ErrorCode::missing_field, where,
                "is required: a token count or fixed:T, uniform:A:B, lognormal:MEAN:SIGMA");
    return dist;
  }
  const json& value = fields.at(key);
  if (value.is_number()) {
    const double tokens = value.get<double>();
    if (!(tokens >= 1 && tokens <= static_cast<double>(max_tokens) && tokens == std::floor(tokens)))
      errors.fail(ErrorCode::out_of_range, where, "must be a whole number of tokens " + range);
    dist.a = tokens;
    return dist;
  }
  if (!value.is_string()) {
    errors.fail(ErrorCode::wrong_type, where,
                "must be a token count or a distribution string, not " + json_type_name(value));
    return dist;
  }
  const std::vector<std::string> parts = split(value.get<std::string>(), ':');
  std::vector<double> numbers;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const auto number = parse_decimal(parts[i]);
    if (!number) {
      errors.fail(ErrorCode::out_of_range, where, quoted_excerpt(parts[i]) + " " + number.error());
      return dist;
    }
    numbers.push_back(*number);
  }
  return length_of(parts[0], numbers, value.get<std::string>(), max_tokens, where, errors);
}

void read_arrival(const Fields& fields, ServingConfig& config) {
  const std::string text = fields.text(serving_field("arrival"));
  if (text == "poisson") return;
  const std::vector<std::string> parts = split(text, ':');
  const auto cv = parts.size() == 2 && parts[0] == "gamma"
                      ? parse_decimal(parts[1])
                      : Result<double>(error_at(ErrorCode::unknown_name, "", ""));
  if (!cv || !(*cv > 0 && *cv <= limits::max_arrival_cv)) {
    // gamma with a CV out of its range is out_of_range; any other word names no process.
    fields.errors().fail(cv ? ErrorCode::out_of_range : ErrorCode::unknown_name,
                         fields.path("arrival"),
                         "must be poisson or gamma:CV with 0 < CV ≤ " +
                             ten_digits(limits::max_arrival_cv) + ", not " + quoted_excerpt(text));
    return;
  }
  config.arrival = ArrivalKind::gamma;
  config.arrival_cv = *cv;
}

void read_rows(const Fields& fields, ServingConfig& config) {
  if (!fields.has("rows")) return;
  const json& rows = fields.at("rows");
  FirstError& errors = fields.errors();
  const std::string where = fields.path("rows");
  if (!rows.is_array() || rows.empty() ||
      rows.size() > static_cast<std::size_t>(limits::max_serving_requests)) {
    errors.fail(ErrorCode::out_of_range, where,
                "must be an array of 1 to " + std::to_string(limits::max_serving_requests) +
                    " [arrival_seconds, prompt_tokens, output_tokens] rows");
    return;
  }
  double previous = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& row = rows[i];
    const std::string at = child_path(where, i);
    const bool shaped =
        row.is_array() && row.size() == 3 &&
        std::all_of(row.begin(), row.end(), [](const json& v) { return v.is_number(); });
    if (!shaped) {
      errors.fail(ErrorCode::wrong_type, at,
                  "must be [arrival_seconds, prompt_tokens, output_tokens] numbers");
      return;
    }
    const double arrival = row[0].get<double>();
    const double prompt = row[1].get<double>();
    const double output = row[2].get<double>();
    if (!(arrival >= 0 && arrival <= limits::max_arrival_seconds)) {
      errors.fail(
          ErrorCode::out_of_range, child_path(at, 0),
          "arrival must be from 0 to " + ten_digits(limits::max_arrival_seconds) + " seconds");
      return;
    }
    if (arrival < previous) {
      errors.fail(ErrorCode::out_of_range, child_path(at, 0),
                  "arrives at " + ten_digits(arrival) + " s, before the row above (" +
                      ten_digits(previous) + " s): rows must be in arrival order");
      return;
    }
    const auto whole = [](double v, double max) {
      return v >= 1 && v <= max && v == std::floor(v);
    };
    if (!whole(prompt, static_cast<double>(limits::max_prompt_tokens))) {
      errors.fail(ErrorCode::out_of_range, child_path(at, 1),
                  "prompt_tokens must be a whole number from 1 to " +
                      std::to_string(limits::max_prompt_tokens));
      return;
    }
    if (!whole(output, static_cast<double>(limits::max_output_tokens))) {
      errors.fail(ErrorCode::out_of_range, child_path(at, 2),
                  "output_tokens must be a whole number from 1 to " +
                      std::to_string(limits::max_output_tokens));
      return;
    }
    previous = arrival;
    config.rows.push_back(
        RequestRow{arrival, static_cast<int64_t>(prompt), static_cast<int64_t>(output)});
  }
}

void read_sweep_rates(const Fields& fields, ServingConfig& config) {
  if (!fields.has("sweep_rates")) return;
  const json& rates = fields.at("sweep_rates");
  const std::string where = fields.path("sweep_rates");
  if (!rates.is_array() || rates.empty() || rates.size() > limits::max_serving_sweep_rates) {
    fields.errors().fail(
        ErrorCode::out_of_range, where,
        "must be an array of 1 to " + std::to_string(limits::max_serving_sweep_rates) + " rates");
    return;
  }
  for (std::size_t i = 0; i < rates.size(); ++i) {
    const json& rate = rates[i];
    if (!rate.is_number() ||
        !(rate.get<double>() > 0 && rate.get<double>() <= limits::max_arrival_rate)) {
      fields.errors().fail(ErrorCode::out_of_range, child_path(where, i),
                           "must be a rate > 0 and ≤ 1e9 requests/s");
      return;
    }
    config.sweep_rates.push_back(rate.get<double>());
  }
}

// Generated arrivals must end within limits::max_arrival_seconds (a year) at every rate a run
// uses: requests / rate, the expected last arrival, is at most that.
void check_arrival_span(const Fields& fields, const ServingConfig& config) {
  if (config.requests <= 0) return;
  const double requests = static_cast<double>(config.requests);
  const double floor = requests / limits::max_arrival_seconds;
  const std::string why = " requests/s: " + std::to_string(config.requests) +
                          " requests at a lower rate would arrive over more than a year (" +
                          ten_digits(limits::max_arrival_seconds) + " s)";
  if (config.rate > 0 && requests / config.rate > limits::max_arrival_seconds) {
    fields.errors().fail(ErrorCode::out_of_range, fields.path("rate"),
                         "must be at least " + ten_digits(floor) + why);
    return;
  }
  for (std::size_t i = 0; i < config.sweep_rates.size(); ++i) {
    if (requests / config.sweep_rates[i] > limits::max_arrival_seconds) {
      fields.errors().fail(ErrorCode::out_of_range, child_path(fields.path("sweep_rates"), i),
                           "must be at least " + ten_digits(floor) + why);
      return;
    }
  }
}

// The members the single rows of the table read as they are (their bounds and defaults).
void read_plain_members(const Fields& fields, ServingConfig& config) {
  const auto integer = [&](std::string_view name) { return fields.integer(serving_field(name)); };
  config.prefix_hit = fields.number(serving_field("prefix_hit"));
  config.token_budget = integer("token_budget");
  config.max_batch = integer("max_batch");
  config.prefill_devices = integer("prefill_devices");
  config.decode_devices = integer("decode_devices");
  if (fields.has("ttft_slo")) config.ttft_slo_seconds = fields.number(serving_field("ttft_slo"));
  if (fields.has("tpot_slo")) config.tpot_slo_seconds = fields.number(serving_field("tpot_slo"));
  config.attainment_target = fields.number(serving_field("attainment"));
  config.goodput = fields.boolean(serving_field("goodput"));
  config.goodput_tolerance = fields.number(serving_field("goodput_tolerance"));
  read_sweep_rates(fields, config);
  config.timeline_points = integer("timeline_points");
  config.max_queue = integer("max_queue");
  config.token_times = integer("token_times");
}

// A request trace's reading (its rate scale and limit); refused without a trace.
void read_trace_options(const Fields& fields, ServingConfig& config, bool traced) {
  for (const char* key : {"trace_rate_scale", "trace_limit"}) {
    if (!traced && fields.has(key))
      fields.errors().fail(ErrorCode::incompatible, fields.path(key),
                           "needs a request trace (the CLI's --trace FILE, or the trace text "
                           "given to simulateServingTrace)");
  }
  config.trace_rate_scale = fields.number(serving_field("trace_rate_scale"));
  config.trace_limit = fields.integer(serving_field("trace_limit"));
}

// The members that explicit rows or a trace replace: refused beside them.
void refuse_replaced(const Fields& fields, bool traced) {
  for (const char* key : {"rows", "prompt", "output", "rate", "requests", "arrival"}) {
    if (!fields.has(key) || (!traced && std::string_view(key) == "rows")) continue;
    fields.errors().fail(ErrorCode::incompatible, fields.path(key),
                         traced ? "is set by the trace" : "is set by the rows when rows are given");
  }
}

// K/V memory (docs/serving.md, "K/V memory"): the mode, its block size and the share of device
// memory the engine may use (0 when absent: the mode's own default, serving/serve.cpp).
void read_kv(const Fields& fields, ServingConfig& config) {
  constexpr const ScenarioField& kv_row = serving_field("kv");
  const std::string kv = fields.text(kv_row.name, std::string(kv_row.default_value()));
  for (std::size_t i = 0; i < kv_row.choice_count; ++i) {
    if (kv == kv_row.choices[i].value) config.kv = static_cast<KvMode>(i);
  }
  if (!kv_row.has_choice(kv)) {
    fields.errors().fail(ErrorCode::unknown_name, fields.path("kv"),
                         "must be paged or reserve, not " + quoted_excerpt(kv));
  }
  config.block_size = fields.integer(serving_field("block_size"));
  if (fields.has("gpu_memory_utilization"))
    config.gpu_memory_utilization = fields.number(serving_field("gpu_memory_utilization"));
}

ServingConfig read_serving(const json& object, FirstError& errors, bool traced) {
  ServingConfig config;
  if (!object.is_object()) {
    errors.fail(ErrorCode::wrong_type, "/serving",
                "must be an object, not " + json_type_name(object));
    return config;
  }
  const Fields fields = serving_fields_of(object, errors);
  // The policy's own words, not must_be_one_of's: its message has always read this way.
  constexpr const ScenarioField& policy_row = serving_field("policy");
  const std::string policy = fields.text(policy_row.name, std::string(policy_row.default_value()));
  for (std::size_t i = 0; i < policy_row.choice_count; ++i) {
    if (policy == policy_row.choices[i].value) config.policy = static_cast<SchedulerPolicy>(i);
  }
  if (!policy_row.has_choice(policy)) {
    errors.fail(ErrorCode::unknown_name, fields.path("policy"),
                "must be prefill-first, chunked or disaggregated, not " + quoted_excerpt(policy));
  }
  if (!traced) read_rows(fields, config);
  const bool rows = traced || !config.rows.empty();
  config.rate = fields.number(serving_field("rate"));
  config.requests = fields.integer(serving_field("requests"));
  config.seed = static_cast<uint64_t>(fields.integer(serving_field("seed")));
  if (!rows) {
    config.prompt = read_length(fields, serving_field("prompt"));
    config.output = read_length(fields, serving_field("output"));
  } else {
    refuse_replaced(fields, traced);
  }
  read_arrival(fields, config);
  read_plain_members(fields, config);
  check_arrival_span(fields, config);
  read_kv(fields, config);
  read_trace_options(fields, config, traced);
  return config;
}

// The trace's requests as the run's rows; its errors at /trace, naming the line.
std::optional<Error> read_trace(std::string_view text, ServingConfig& config) {
  auto trace = read_request_trace(text, {config.trace_rate_scale, config.trace_limit});
  if (!trace) return error_at(trace.failure().code, "/trace", trace.failure().what);
  config.trace_format = request_trace_format_name(trace->format);
  config.rows.reserve(trace->requests.size());
  for (TracedRequest& request : trace.value().requests) {
    config.rows.push_back(RequestRow{request.arrival_seconds, request.prompt_tokens,
                                     request.output_tokens, std::move(request.hash_ids)});
  }
  return std::nullopt;
}

// An instance's tensor-parallel degree, checked by the scenario's own rules: the document again
// with tensor_parallel replaced; its error is re-addressed to the serving field.
int64_t read_instance_tensor_parallel(const json& scenario_document, const json& serving,
                                      std::string_view key, FirstError& errors) {
  if (!serving.is_object() || !serving.contains(key)) return 0;
  const json& value = serving.find(key).value();
  const std::string where = child_path("/serving", key);
  if (!value.is_number_integer() || value.get<double>() < 1 ||
      value.get<double>() > static_cast<double>(limits::max_tensor_parallel)) {
    errors.fail(value.is_number_integer() ? ErrorCode::out_of_range : ErrorCode::wrong_type, where,
                "must be an integer from 1 to " + std::to_string(limits::max_tensor_parallel));
    return 0;
  }
  json copy = scenario_document;
  copy["tensor_parallel"] = value;
  auto checked = scenario_from_json(copy);
  if (!checked) {
    const std::string& message = checked.error();
    const std::string prefix = "/tensor_parallel";
    const Error& error = checked.failure();
    errors.fail(error.code, where, error.path == prefix ? error.what : message);
    return 0;
  }
  return value.get<int64_t>();
}

// A scenario with its serving object; `traced`: a request trace comes beside it.
Result<ServingRequest> read_serving_request(const json& document, bool traced) {
  if (!document.is_object())
    return error_at(ErrorCode::wrong_type, "/", "a scenario must be a JSON object");
  if (!document.contains("serving"))
    return error_at(ErrorCode::missing_field, "/serving", "is required (the serving workload)");
  json scenario_document = document;
  scenario_document.erase("serving");
  auto scenario = scenario_from_json(scenario_document);
  if (!scenario) return scenario.failure();
  const json& serving = document.find("serving").value();
  FirstError errors;
  ServingRequest request{scenario.value(), read_serving(serving, errors, traced)};
  request.config.prefill_tensor_parallel =
      read_instance_tensor_parallel(scenario_document, serving, "prefill_tensor_parallel", errors);
  request.config.decode_tensor_parallel =
      read_instance_tensor_parallel(scenario_document, serving, "decode_tensor_parallel", errors);
  if (errors.failed()) return errors.error();
  return request;
}

}  // namespace

Result<ServingRequest> serving_request_from_json(const json& document) {
  return read_serving_request(document, false);
}

Result<ServingRequest> parse_serving_request(std::string_view json_text) {
  auto document = parse_strict_json(json_text);
  if (!document) return document.failure();
  return serving_request_from_json(document.value());
}

Result<ServingRequest> parse_serving_request(std::string_view json_text,
                                             std::string_view trace_text) {
  auto document = parse_strict_json(json_text);
  if (!document) return document.failure();
  auto request = read_serving_request(document.value(), true);
  if (!request) return request;
  if (auto error = read_trace(trace_text, request.value().config)) return *error;
  return request;
}

std::string length_text(const LengthDistribution& d) {
  switch (d.kind) {
    case LengthDistribution::Kind::fixed:
      return "fixed:" + ten_digits(d.a);
    case LengthDistribution::Kind::uniform:
      return "uniform:" + ten_digits(d.a) + ":" + ten_digits(d.b);
    case LengthDistribution::Kind::lognormal:
      return "lognormal:" + ten_digits(d.a) + ":" + ten_digits(d.b);
  }
  return "";
}

std::string arrival_text(const ServingConfig& c) {
  if (!c.trace_format.empty()) return "trace:" + c.trace_format;
  if (!c.rows.empty()) return "rows";
  return c.arrival == ArrivalKind::poisson ? "poisson" : "gamma:" + ten_digits(c.arrival_cv);
}

std::vector<double> quantile_curve(std::vector<double> values) {
  std::vector<double> curve;
  if (values.empty()) return curve;
  sort_ascending(values);
  for (int q = 0; q <= 100; ++q) {
    const auto rank =
        static_cast<std::size_t>(std::ceil(q / 100.0 * static_cast<double>(values.size())));
    curve.push_back(values[std::max<std::size_t>(rank, 1) - 1]);
  }
  return curve;
}

Distributions distributions_of(const ServingRun& run) {
  std::vector<double> ttft, tpot;
  for (const RequestOutcome& out : run.outcomes) {
    if (!out.finished) continue;
    ttft.push_back(out.ttft_seconds);
    if (out.output_tokens > 1) tpot.push_back(out.tpot_seconds);
  }
  return {quantile_curve(std::move(ttft)), quantile_curve(std::move(tpot))};
}

json serving_report_to_json(const ServingReport& report) {
  return object_of(report,
                   [](const ServingReport& r, JsonBuilder& b) { visit_serving_report(r, b); });
}

namespace {

// A CSV row's cells from the description (visit_request_row), or its header from the keys:
// integers in full, reals to 17 digits (every double reads back exactly), flags as true/false,
// an absent value as an empty cell.
class CsvRow {
 public:
  explicit CsvRow(bool header) : header_(header) {}
  template <typename T>
  void number(std::string_view key, T value) {
    if constexpr (std::is_integral_v<T>) {
      add(key, std::to_string(value));
    } else {
      char cell[32];
      std::snprintf(cell, sizeof cell, "%.17g", value);
      add(key, cell);
    }
  }
  void maybe(std::string_view key, const std::optional<double>& value) {
    if (value) {
      number(key, *value);
    } else {
      add(key, "");
    }
  }
  void flag(std::string_view key, bool value) { add(key, value ? "true" : "false"); }
  std::string line() const { return text_ + "\r\n"; }

 private:
  void add(std::string_view key, std::string_view cell) {
    if (count_ > 0) text_ += ',';
    text_ += header_ ? key : cell;
    ++count_;
  }
  bool header_;
  std::string text_;
  std::size_t count_ = 0;
};

}  // namespace

std::string serving_report_to_csv(const ServingReport& report) {
  CsvRow header(true);
  visit_request_row(0, RequestOutcome{}, header);
  std::string csv = header.line();
  std::size_t i = 0;
  for (const RequestOutcome& out : report.run.outcomes) {
    CsvRow row(false);
    visit_request_row(i++, out, row);
    csv += row.line();
  }
  return csv;
}

}  // namespace prefill_trace
