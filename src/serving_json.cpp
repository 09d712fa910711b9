#include "serving_json.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "json_path.hpp"
#include "json_write.hpp"
#include "limits.hpp"
#include "prefill_trace/number_text.hpp"
#include "serving/sort.hpp"

namespace prefill_trace {
namespace {

using nlohmann::json;

constexpr std::string_view kServingKeys[] = {"policy",
                                             "rate",
                                             "requests",
                                             "seed",
                                             "prompt",
                                             "output",
                                             "arrival",
                                             "prefix_hit",
                                             "token_budget",
                                             "max_batch",
                                             "prefill_devices",
                                             "decode_devices",
                                             "prefill_tensor_parallel",
                                             "decode_tensor_parallel",
                                             "ttft_slo",
                                             "tpot_slo",
                                             "attainment",
                                             "goodput",
                                             "goodput_tolerance",
                                             "sweep_rates",
                                             "rows",
                                             "timeline_points",
                                             "max_queue",
                                             "kv",
                                             "block_size",
                                             "gpu_memory_utilization"};

std::string number_text(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.10g", value);
  return buffer;
}

// Reads the members of the `serving` object; the first problem is kept (FirstError).
class ServingFields {
 public:
  ServingFields(const json& object, FirstError& errors) : object_(object), errors_(errors) {
    for (const auto& item : object_.items()) {
      const std::string_view key = item.key();
      if (std::find(std::begin(kServingKeys), std::end(kServingKeys), key) ==
          std::end(kServingKeys)) {
        errors_.fail(ErrorCode::unknown_field, path(key), "unknown field");
      }
    }
  }
  bool has(std::string_view key) const { return object_.contains(key); }
  const json& at(std::string_view key) const { return object_.find(key).value(); }
  std::string path(std::string_view key) const { return child_path("/serving", key); }

  double number(std::string_view key, double fallback, double min, double max,
                bool min_open = false) const {
    if (!has(key)) return fallback;
    const json& value = at(key);
    if (!value.is_number()) {
      errors_.fail(ErrorCode::wrong_type, path(key),
                   "must be a number, not " + json_type_name(value));
      return fallback;
    }
    const double number = value.get<double>();
    if (!std::isfinite(number) || number > max || number < min || (min_open && number == min)) {
      errors_.fail(ErrorCode::out_of_range, path(key),
                   std::string("must be a number ") + (min_open ? "> " : "from ") +
                       number_text(min) + (min_open ? " and ≤ " : " to ") + number_text(max));
      return fallback;
    }
    return number;
  }

  int64_t integer(std::string_view key, int64_t fallback, int64_t min, int64_t max) const {
    if (!has(key)) return fallback;
    const json& value = at(key);
    const bool integral = value.is_number() && std::isfinite(value.get<double>()) &&
                          value.get<double>() == std::floor(value.get<double>());
    if (!integral) {
      errors_.fail(ErrorCode::wrong_type, path(key),
                   "must be an integer, not " + json_type_name(value));
      return fallback;
    }
    const double as_double = value.get<double>();
    if (as_double < static_cast<double>(min) || as_double > static_cast<double>(max)) {
      errors_.fail(ErrorCode::out_of_range, path(key),
                   "must be an integer from " + std::to_string(min) + " to " + std::to_string(max));
      return fallback;
    }
    return static_cast<int64_t>(as_double);
  }

  bool boolean(std::string_view key, bool fallback) const {
    if (!has(key)) return fallback;
    const json& value = at(key);
    if (!value.is_boolean()) {
      errors_.fail(ErrorCode::wrong_type, path(key),
                   "must be true or false, not " + json_type_name(value));
      return fallback;
    }
    return value.get<bool>();
  }

  std::string text(std::string_view key, std::string fallback) const {
    if (!has(key)) return fallback;
    const json& value = at(key);
    if (!value.is_string()) {
      errors_.fail(ErrorCode::wrong_type, path(key),
                   "must be a string, not " + json_type_name(value));
      return fallback;
    }
    return value.get<std::string>();
  }

  FirstError& errors() const { return errors_; }

 private:
  const json& object_;
  FirstError& errors_;
};

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

// A token-count distribution: a whole number (fixed), or "fixed:T", "uniform:A:B",
// "lognormal:MEAN:SIGMA".
LengthDistribution read_length(const ServingFields& fields, std::string_view key,
                               int64_t max_tokens) {
  LengthDistribution dist;
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
      errors.fail(ErrorCode::out_of_range, where, "\"" + parts[i] + "\" " + number.error());
      return dist;
    }
    numbers.push_back(*number);
  }
  const auto whole = [&](double v) {
    return v >= 1 && v <= static_cast<double>(max_tokens) && v == std::floor(v);
  };
  const std::string& kind = parts[0];
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
          "lognormal:MEAN:SIGMA needs SIGMA from 0 to " + number_text(limits::max_length_sigma));
    dist.a = numbers[0];
    dist.b = numbers[1];
  } else {
    errors.fail(
        ErrorCode::unknown_name, where,
        "\"" + value.get<std::string>() + "\" is not fixed:T, uniform:A:B or lognormal:MEAN:SIGMA");
  }
  return dist;
}

void read_arrival(const ServingFields& fields, ServingConfig& config) {
  const std::string text = fields.text("arrival", "poisson");
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
                             number_text(limits::max_arrival_cv) + ", not \"" + text + "\"");
    return;
  }
  config.arrival = ArrivalKind::gamma;
  config.arrival_cv = *cv;
}

void read_rows(const ServingFields& fields, ServingConfig& config) {
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
          "arrival must be from 0 to " + number_text(limits::max_arrival_seconds) + " seconds");
      return;
    }
    if (arrival < previous) {
      errors.fail(ErrorCode::out_of_range, child_path(at, 0),
                  "arrives at " + number_text(arrival) + " s, before the row above (" +
                      number_text(previous) + " s): rows must be in arrival order");
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

void read_sweep_rates(const ServingFields& fields, ServingConfig& config) {
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
void check_arrival_span(const ServingFields& fields, const ServingConfig& config) {
  if (config.requests <= 0) return;
  const double requests = static_cast<double>(config.requests);
  const double floor = requests / limits::max_arrival_seconds;
  const std::string why = " requests/s: " + std::to_string(config.requests) +
                          " requests at a lower rate would arrive over more than a year (" +
                          number_text(limits::max_arrival_seconds) + " s)";
  if (config.rate > 0 && requests / config.rate > limits::max_arrival_seconds) {
    fields.errors().fail(ErrorCode::out_of_range, fields.path("rate"),
                         "must be at least " + number_text(floor) + why);
    return;
  }
  for (std::size_t i = 0; i < config.sweep_rates.size(); ++i) {
    if (requests / config.sweep_rates[i] > limits::max_arrival_seconds) {
      fields.errors().fail(ErrorCode::out_of_range, child_path(fields.path("sweep_rates"), i),
                           "must be at least " + number_text(floor) + why);
      return;
    }
  }
}

// K/V memory (docs/serving.md, "K/V memory"): the mode, its block size and the share of device
// memory the engine may use.
void read_kv(const ServingFields& fields, ServingConfig& config) {
  const std::string kv = fields.text("kv", "paged");
  if (kv == "paged") {
    config.kv = KvMode::paged;
  } else if (kv == "reserve") {
    config.kv = KvMode::reserve;
  } else {
    fields.errors().fail(ErrorCode::unknown_name, fields.path("kv"), "must be paged or reserve");
  }
  config.block_size = fields.integer("block_size", 16, 1, limits::max_kv_block_size);
  if (config.kv == KvMode::reserve && fields.has("block_size"))
    fields.errors().fail(ErrorCode::incompatible, fields.path("block_size"),
                         "only paged K/V has blocks");
  config.gpu_memory_utilization = fields.number("gpu_memory_utilization", 0, 0, 1, true);
}

ServingConfig read_serving(const json& object, FirstError& errors) {
  ServingConfig config;
  if (!object.is_object()) {
    errors.fail(ErrorCode::wrong_type, "/serving",
                "must be an object, not " + json_type_name(object));
    return config;
  }
  const ServingFields fields(object, errors);
  const std::string policy = fields.text("policy", "chunked");
  if (policy == "prefill-first") {
    config.policy = SchedulerPolicy::prefill_first;
  } else if (policy == "chunked") {
    config.policy = SchedulerPolicy::chunked;
  } else if (policy == "disaggregated") {
    config.policy = SchedulerPolicy::disaggregated;
  } else {
    errors.fail(ErrorCode::unknown_name, fields.path("policy"),
                "must be prefill-first, chunked or disaggregated, not \"" + policy + "\"");
  }
  read_rows(fields, config);
  const bool rows = !config.rows.empty();
  config.rate = fields.number("rate", 0, 0, limits::max_arrival_rate, true);
  config.requests = fields.integer("requests", 0, 1, limits::max_serving_requests);
  config.seed = static_cast<uint64_t>(fields.integer("seed", 1, 0, int64_t{1} << 53));
  if (!rows) {
    config.prompt = read_length(fields, "prompt", limits::max_prompt_tokens);
    config.output = read_length(fields, "output", limits::max_output_tokens);
  } else {
    for (const char* key : {"prompt", "output", "rate", "requests", "arrival"}) {
      if (fields.has(key))
        errors.fail(ErrorCode::incompatible, fields.path(key),
                    "is set by the rows when rows are given");
    }
  }
  read_arrival(fields, config);
  config.prefix_hit = fields.number("prefix_hit", 0, 0, 1);
  config.token_budget = fields.integer("token_budget", 0, 1, limits::max_token_budget);
  config.max_batch = fields.integer("max_batch", 0, 1, limits::max_running_requests);
  config.prefill_devices = fields.integer("prefill_devices", 0, 1, limits::max_serving_instances);
  config.decode_devices = fields.integer("decode_devices", 0, 1, limits::max_serving_instances);
  if (fields.has("ttft_slo"))
    config.ttft_slo_seconds = fields.number("ttft_slo", 0, 0, limits::max_slo_seconds, true);
  if (fields.has("tpot_slo"))
    config.tpot_slo_seconds = fields.number("tpot_slo", 0, 0, limits::max_slo_seconds, true);
  config.attainment_target = fields.number("attainment", 0.9, 0, 1, true);
  config.goodput = fields.boolean("goodput", false);
  config.goodput_tolerance = fields.number("goodput_tolerance", 0.01, 1e-4, 0.5);
  read_sweep_rates(fields, config);
  config.timeline_points = fields.integer("timeline_points", 200, 0, limits::max_timeline_points);
  config.max_queue = fields.integer("max_queue", 0, 1, limits::max_serving_requests);
  check_arrival_span(fields, config);
  read_kv(fields, config);
  return config;
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

json summary_json(const Summary& s) {
  if (s.count == 0) return nullptr;
  return json_object({{"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}});
}

json optional_number(const std::optional<double>& value) {
  return value ? json(*value) : json(nullptr);
}

std::string length_text(const LengthDistribution& d) {
  switch (d.kind) {
    case LengthDistribution::Kind::fixed:
      return "fixed:" + number_text(d.a);
    case LengthDistribution::Kind::uniform:
      return "uniform:" + number_text(d.a) + ":" + number_text(d.b);
    case LengthDistribution::Kind::lognormal:
      return "lognormal:" + number_text(d.a) + ":" + number_text(d.b);
  }
  return "";
}

json config_json(const ServingConfig& c) {
  const bool rows = !c.rows.empty();
  return json_object({
      {"policy", policy_name(c.policy)},
      {"rate", rows ? json(nullptr) : json(c.rate)},
      {"requests", c.requests},
      {"seed", rows ? json(nullptr) : json(c.seed)},
      {"prompt", rows ? json("rows") : json(length_text(c.prompt))},
      {"output", rows ? json("rows") : json(length_text(c.output))},
      {"arrival", rows                                ? json("rows")
                  : c.arrival == ArrivalKind::poisson ? json("poisson")
                                                      : json("gamma:" + number_text(c.arrival_cv))},
      {"prefix_hit", c.prefix_hit},
      {"token_budget", c.token_budget},
      {"max_batch", c.max_batch},
      {"prefill_devices", c.prefill_devices},
      {"decode_devices", c.decode_devices},
      {"prefill_tensor_parallel", c.prefill_tensor_parallel},
      {"decode_tensor_parallel", c.decode_tensor_parallel},
      {"ttft_slo", optional_number(c.ttft_slo_seconds)},
      {"tpot_slo", optional_number(c.tpot_slo_seconds)},
      {"attainment", c.attainment_target},
      {"goodput", c.goodput},
      {"goodput_tolerance", c.goodput_tolerance},
      {"timeline_points", c.timeline_points},
      {"max_queue", c.max_queue},
  });
}

// 101 nearest-rank quantiles (0 %, 1 %, …, 100 %) of the finished requests' values: a CDF a
// chart draws as is.
json quantile_curve(std::vector<double> values) {
  if (values.empty()) return nullptr;
  sort_ascending(values);
  json curve = json::array();
  for (int q = 0; q <= 100; ++q) {
    const auto rank =
        static_cast<std::size_t>(std::ceil(q / 100.0 * static_cast<double>(values.size())));
    curve.push_back(values[std::max<std::size_t>(rank, 1) - 1]);
  }
  return curve;
}

json timeline_json(const Timeline& t) {
  return json_object({{"step_seconds", t.step_seconds},
                      {"time_seconds", t.time_seconds},
                      {"queued", t.queued},
                      {"running", t.running},
                      {"prefill_tokens", t.prefill_tokens},
                      {"decode_tokens", t.decode_tokens},
                      {"busy_fraction", t.busy_fraction}});
}

json overload_json(const ServingRun& run) {
  if (!run.overloaded) return nullptr;
  return json_object({{"reason", run.overload_reason},
                      {"simulated_seconds", run.simulated_seconds},
                      {"queued_requests", run.queued_at_stop},
                      {"completed_requests", run.completed}});
}

json sweep_point_json(const ServingRun& run) {
  return json_object({{"rate_requests_per_second", run.rate},
                      {"slo_attainment", optional_number(run.slo_attainment)},
                      {"ttft_seconds", summary_json(run.ttft)},
                      {"tpot_seconds", summary_json(run.tpot)},
                      {"tbt_max_seconds", summary_json(run.tbt_max)},
                      {"e2e_seconds", summary_json(run.e2e)},
                      {"throughput_requests_per_second", run.throughput_requests_per_second},
                      {"busy_fraction", run.busy_fraction},
                      {"completed_requests", run.completed},
                      {"overloaded", run.overloaded}});
}

}  // namespace

Result<ServingRequest> serving_request_from_json(const json& document) {
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
  ServingRequest request{scenario.value(), read_serving(serving, errors)};
  request.config.prefill_tensor_parallel =
      read_instance_tensor_parallel(scenario_document, serving, "prefill_tensor_parallel", errors);
  request.config.decode_tensor_parallel =
      read_instance_tensor_parallel(scenario_document, serving, "decode_tensor_parallel", errors);
  if (errors.failed()) return errors.error();
  return request;
}

Result<ServingRequest> parse_serving_request(std::string_view json_text) {
  auto document = parse_strict_json(json_text);
  if (!document) return document.failure();
  return serving_request_from_json(document.value());
}

namespace {

// The quantile curves of the finished requests' TTFT and TPOT (a TPOT needs two tokens).
json distributions_json(const ServingRun& run) {
  std::vector<double> ttft, tpot;
  for (const RequestOutcome& out : run.outcomes) {
    if (!out.finished) continue;
    ttft.push_back(out.ttft_seconds);
    if (out.output_tokens > 1) tpot.push_back(out.tpot_seconds);
  }
  return json_object({{"ttft_seconds", quantile_curve(std::move(ttft))},
                      {"tpot_seconds", quantile_curve(std::move(tpot))}});
}

// The goodput search's result: the goodput (null when unbounded) and how it was found.
void add_goodput_json(json& document, const GoodputSearch& g) {
  json probes = json::array();
  for (const GoodputSearch::Probe& p : g.probes) {
    probes.push_back(json_object({{"rate_requests_per_second", p.rate},
                                  {"slo_attainment", p.attainment},
                                  {"overloaded", p.overloaded}}));
  }
  document["goodput_requests_per_second"] =
      g.bounded ? json(g.goodput_requests_per_second) : json(nullptr);
  document["goodput_per_device"] = g.bounded ? json(g.goodput_per_device) : json(nullptr);
  document["goodput"] = json_object({{"target", g.target},
                                     {"tolerance", g.tolerance},
                                     {"bounded", g.bounded},
                                     {"probes", std::move(probes)}});
}

// K/V memory's part of the report (issue 29): in both modes the mode, the memory share, the
// running requests' time-average and the preemptions (none under reserve); under paged the
// block size, the blocks an instance holds and the blocks in use in the timeline.
void add_kv_json(json& document, const ServingReport& report) {
  const ServingConfig& c = report.config;
  const ServingRun& run = report.run;
  document["serving"]["kv"] = kv_mode_name(c.kv);
  document["serving"]["gpu_memory_utilization"] = c.gpu_memory_utilization;
  document["running_requests_mean"] = run.running_requests_mean;
  document["preemptions"] = run.preemptions;
  document["recomputed_tokens"] = run.recomputed_tokens;
  if (c.kv != KvMode::paged) return;
  document["serving"]["block_size"] = c.block_size;
  document["kv_capacity_blocks"] = report.kv_capacity_blocks;
  if (!run.timeline.time_seconds.empty())
    document["timeline"]["kv_blocks"] = run.timeline.kv_blocks;
}

}  // namespace

json serving_report_to_json(const ServingReport& report) {
  const ServingRun& run = report.run;
  json document = json_object({
      {"model", report.model},
      {"hardware", report.hardware},
      {"precision", report.precision},
      {"timing", report.timing},
      {"policy", policy_name(report.config.policy)},
      {"serving", config_json(report.config)},
      {"devices", report.devices},
      {"prefill_instance_devices", report.prefill_instance_devices},
      {"decode_instance_devices", report.decode_instance_devices},
      {"kv_capacity_tokens", report.kv_capacity_tokens},
      {"kv_bytes_per_token", report.kv_bytes_per_token},
      {"kv_transfer_bytes_per_token", report.kv_transfer_bytes_per_token},
      {"requests", run.requests},
      {"completed_requests", run.completed},
      {"overloaded", run.overloaded},
      {"overload", overload_json(run)},
      {"simulated_seconds", run.simulated_seconds},
      {"iterations", run.iterations},
      {"ttft_seconds", summary_json(run.ttft)},
      {"tpot_seconds", summary_json(run.tpot)},
      {"tbt_max_seconds", summary_json(run.tbt_max)},
      {"e2e_seconds", summary_json(run.e2e)},
      {"queue_seconds", summary_json(run.queue)},
      {"slo_attainment", optional_number(run.slo_attainment)},
      {"throughput_requests_per_second", run.throughput_requests_per_second},
      {"throughput_tokens_per_second", run.throughput_tokens_per_second},
      {"busy_fraction", run.busy_fraction},
      {"prefill_busy_fraction", run.prefill_busy_fraction},
      {"decode_busy_fraction", run.decode_busy_fraction},
      {"distributions", distributions_json(run)},
      {"timeline", timeline_json(run.timeline)},
  });
  add_kv_json(document, report);
  if (report.goodput) add_goodput_json(document, *report.goodput);
  if (!report.sweep.empty()) {
    json sweep = json::array();
    for (const ServingRun& point : report.sweep) sweep.push_back(sweep_point_json(point));
    document["sweep"] = std::move(sweep);
  }
  return document;
}

std::string serving_report_to_csv(const ServingReport& report) {
  std::string csv =
      "request,arrival_seconds,prompt_tokens,cached_tokens,output_tokens,finished,ttft_seconds,"
      "tpot_seconds,tbt_max_seconds,e2e_seconds,meets_slo\r\n";
  char line[320];
  std::size_t i = 0;
  for (const RequestOutcome& out : report.run.outcomes) {
    if (out.finished) {
      std::snprintf(line, sizeof line,
                    "%zu,%.17g,%lld,%lld,%lld,true,%.17g,%.17g,%.17g,%.17g,%s\r\n", i,
                    out.arrival_seconds, static_cast<long long>(out.prompt_tokens),
                    static_cast<long long>(out.cached_tokens),
                    static_cast<long long>(out.output_tokens), out.ttft_seconds, out.tpot_seconds,
                    out.tbt_max_seconds, out.e2e_seconds, out.meets_slo ? "true" : "false");
    } else {
      std::snprintf(line, sizeof line, "%zu,%.17g,%lld,%lld,%lld,false,,,,,false\r\n", i,
                    out.arrival_seconds, static_cast<long long>(out.prompt_tokens),
                    static_cast<long long>(out.cached_tokens),
                    static_cast<long long>(out.output_tokens));
    }
    csv += line;
    ++i;
  }
  return csv;
}

}  // namespace prefill_trace
