#include "serving/request_trace.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <climits>
#include <cmath>
#include <optional>
#include <string>

#include "json_path.hpp"
#include "limits.hpp"

namespace prefill_trace {
namespace {

constexpr std::string_view kAzureHeader = "TIMESTAMP,ContextTokens,GeneratedTokens";
constexpr int64_t kNanosecondsPerSecond = 1'000'000'000;

Error trace_error(ErrorCode code, std::size_t line, const std::string& what) {
  return error_at(code, {}, "line " + std::to_string(line) + ": " + what);
}

/// The next line of `text` from `at` (without its '\n' or a '\r' before it); `at` moves past it.
std::string_view next_line(std::string_view text, std::size_t& at) {
  const std::size_t end = std::min(text.find('\n', at), text.size());
  std::string_view line = text.substr(at, end - at);
  at = end + 1;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return line;
}

/// A control byte other than tab: a binary file, or text that is not one record a line.
std::optional<unsigned char> control_byte(std::string_view line) {
  for (const char c : line) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && byte != '\t') || byte == 0x7f) return byte;
  }
  return std::nullopt;
}

/// Digits only (no sign, no spaces), as an integer of at most 18 digits: exact in int64.
std::optional<int64_t> whole_number(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  const auto [end, status] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (status != std::errc() || end != text.data() + text.size() || text.front() == '-' ||
      text.front() == '+') {
    return std::nullopt;
  }
  return value;
}

/// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil, exact).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

bool leap_year(int64_t y) {
  return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

int64_t days_in_month(int64_t y, int64_t m) {
  constexpr std::array<int64_t, 12> kDays{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && leap_year(y) ? 29 : kDays[static_cast<std::size_t>(m - 1)];
}

/// "YYYY-MM-DD HH:MM:SS[.fffffffff]" as nanoseconds since 1970 (UTC), exactly.
std::optional<int64_t> azure_timestamp(std::string_view text) {
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != ' ' || text[13] != ':' ||
      text[16] != ':') {
    return std::nullopt;
  }
  const auto field = [&](std::size_t at, std::size_t size) {
    return whole_number(text.substr(at, size));
  };
  const auto y = field(0, 4), mo = field(5, 2), d = field(8, 2), h = field(11, 2),
             mi = field(14, 2), s = field(17, 2);
  if (!y || !mo || !d || !h || !mi || !s || *mo < 1 || *mo > 12 || *d < 1 ||
      *d > days_in_month(*y, *mo) || *h > 23 || *mi > 59 || *s > 59) {
    return std::nullopt;
  }
  int64_t nanoseconds = 0;
  if (text.size() > 19) {
    const std::string_view fraction = text.substr(20);
    if (text[19] != '.' || fraction.empty() || fraction.size() > 9 || !whole_number(fraction))
      return std::nullopt;
    nanoseconds = *whole_number(fraction);
    for (std::size_t k = fraction.size(); k < 9; ++k) nanoseconds *= 10;
  }
  const int64_t seconds = days_from_civil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *s;
  return seconds * kNanosecondsPerSecond + nanoseconds;
}

/// A token count of `name` inside the per-request limits, or the reason it is not one.
std::optional<std::string> check_count(const std::string& name, std::optional<int64_t> value,
                                       int64_t max) {
  if (!value || *value < 1 || *value > max) {
    return name + " must be a whole number from 1 to " + std::to_string(max);
  }
  return std::nullopt;
}

struct Reader {
  const RequestTraceOptions& options;
  RequestTrace trace;
  int64_t first_nanoseconds = 0;
  int64_t last_nanoseconds = 0;
  int64_t hash_ids = 0;  // Mooncake hash ids read so far

  /// Appends one request at `nanoseconds` (absolute), or the problem with it.
  std::optional<Error> add(std::size_t line, int64_t nanoseconds, int64_t prompt, int64_t output,
                           std::vector<int64_t> ids) {
    if (trace.requests.empty()) first_nanoseconds = last_nanoseconds = nanoseconds;
    if (nanoseconds < last_nanoseconds) {
      return trace_error(ErrorCode::out_of_range, line,
                         "arrives before the line above it (the trace must be in time order)");
    }
    if (prompt + output > limits::max_context_tokens) {
      return trace_error(ErrorCode::out_of_range, line,
                         "prompt + output must be at most " +
                             std::to_string(limits::max_context_tokens) + " tokens");
    }
    if (static_cast<int64_t>(trace.requests.size()) >= limits::max_serving_requests) {
      return trace_error(
          ErrorCode::too_large, line,
          "more than " + std::to_string(limits::max_serving_requests) + " requests (use a limit)");
    }
    last_nanoseconds = nanoseconds;
    // Exact integer difference first, then one rounding to seconds: an hour-long trace keeps its
    // 100 ns ticks (a double of absolute epoch seconds resolves only ~2e-7 s).
    const double seconds =
        static_cast<double>(nanoseconds - first_nanoseconds) / 1e9 / options.rate_scale;
    if (!(seconds <= limits::max_arrival_seconds)) {
      return trace_error(ErrorCode::out_of_range, line,
                         "arrives more than a year (" +
                             std::to_string(static_cast<int64_t>(limits::max_arrival_seconds)) +
                             " s) after the first request at this rate scale");
    }
    trace.requests.push_back({seconds, prompt, output, std::move(ids)});
    return std::nullopt;
  }

  bool full() const {
    return options.limit > 0 && static_cast<int64_t>(trace.requests.size()) >= options.limit;
  }
};

std::optional<Error> read_azure_line(Reader& reader, std::string_view line, std::size_t number) {
  std::array<std::string_view, 3> fields;
  std::size_t at = 0;
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const std::size_t comma = k + 1 < fields.size() ? line.find(',', at) : line.size();
    if (comma == std::string_view::npos) {
      return trace_error(
          ErrorCode::missing_field, number,
          "expected 3 comma-separated fields: TIMESTAMP,ContextTokens,GeneratedTokens");
    }
    fields[k] = line.substr(at, comma - at);
    at = comma + 1;
  }
  if (fields[2].find(',') != std::string_view::npos) {
    return trace_error(ErrorCode::unknown_field, number, "more than 3 fields");
  }
  const auto time = azure_timestamp(fields[0]);
  if (!time) {
    return trace_error(
        ErrorCode::wrong_type, number,
        "TIMESTAMP must read YYYY-MM-DD HH:MM:SS.fffffff, found " + quoted_excerpt(fields[0]));
  }
  const auto prompt = whole_number(fields[1]), output = whole_number(fields[2]);
  if (auto why = check_count("ContextTokens", prompt, limits::max_context_tokens - 1)) {
    return trace_error(ErrorCode::out_of_range, number,
                       *why + ", found " + quoted_excerpt(fields[1]));
  }
  if (auto why = check_count("GeneratedTokens", output, limits::max_output_tokens)) {
    return trace_error(ErrorCode::out_of_range, number,
                       *why + ", found " + quoted_excerpt(fields[2]));
  }
  return reader.add(number, *time, *prompt, *output, {});
}

/// A JSON number field of a Mooncake line as a whole count, or the problem.
std::optional<std::string> json_count(const nlohmann::json& line, const char* key, int64_t max,
                                      int64_t& out) {
  const auto it = line.find(key);
  if (it == line.end()) return std::string(key) + " is missing";
  if (!it->is_number_integer())
    return std::string(key) + " must be a whole number, found " + json_type_name(*it);
  const bool negative =
      it->is_number_integer() && !it->is_number_unsigned() && it->get<int64_t>() < 0;
  out = negative ? -1 : (it->get<uint64_t>() > uint64_t(max) ? max + 1 : it->get<int64_t>());
  return check_count(key, out, max);
}

/// A Mooncake line's hash ids, checked: an array of distinct whole numbers from 0 to 2^53, at
/// most one per 512-token block of the prompt, within the trace's total (counted in `reader`).
std::optional<Error> mooncake_ids(const nlohmann::json& object, std::size_t number, int64_t prompt,
                                  Reader& reader, std::vector<int64_t>& ids) {
  const auto it = object.find("hash_ids");
  if (it == object.end()) return std::nullopt;
  if (!it->is_array())
    return trace_error(ErrorCode::wrong_type, number, "hash_ids must be an array of whole numbers");
  const int64_t blocks = (prompt + kHashBlockTokens - 1) / kHashBlockTokens;
  const auto count = static_cast<int64_t>(it->size());
  if (count > blocks) {
    return trace_error(ErrorCode::out_of_range, number,
                       "hash_ids names " + std::to_string(count) + " blocks; a prompt of " +
                           std::to_string(prompt) + " tokens has " + std::to_string(blocks) +
                           " of 512 tokens (one id each)");
  }
  reader.hash_ids += count;
  if (reader.hash_ids > reader.options.max_hash_ids) {
    return trace_error(ErrorCode::too_large, number,
                       "the trace's hash_ids pass " + std::to_string(reader.options.max_hash_ids) +
                           " in all (limits::max_trace_hash_ids; use a limit)");
  }
  for (const auto& id : *it) {
    const bool whole =
        id.is_number_unsigned() || (id.is_number_integer() && id.get<int64_t>() >= 0);
    if (!whole || id.get<uint64_t>() > uint64_t(limits::max_trace_hash_id)) {
      return trace_error(
          ErrorCode::wrong_type, number,
          "hash_ids must hold whole numbers from 0 to 2^53, found " + quoted_excerpt(id.dump()));
    }
    ids.push_back(id.get<int64_t>());
  }
  // Each id names a block with everything before it: one prompt cannot name one twice.
  std::vector<int64_t> sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  const auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
  if (repeated != sorted.end()) {
    return trace_error(ErrorCode::out_of_range, number,
                       "hash_ids names block " + std::to_string(*repeated) + " twice");
  }
  return std::nullopt;
}

std::optional<Error> read_mooncake_line(Reader& reader, std::string_view line, std::size_t number) {
  auto parsed = parse_strict_json(line);
  if (!parsed) return trace_error(parsed.failure().code, number, parsed.failure().message);
  const nlohmann::json& object = *parsed;
  if (!object.is_object())
    return trace_error(ErrorCode::wrong_type, number, "expected one JSON object a line");
  for (const auto& [key, value] : object.items()) {
    if (key != "timestamp" && key != "input_length" && key != "output_length" &&
        key != "hash_ids") {
      return trace_error(ErrorCode::unknown_field, number, "unknown key " + quoted_excerpt(key));
    }
  }
  const auto time = object.find("timestamp");
  if (time == object.end() || !time->is_number() || !(time->get<double>() >= 0) ||
      time->get<double>() > 1e15) {
    return trace_error(ErrorCode::wrong_type, number,
                       "timestamp must be milliseconds from 0 to 1e15");
  }
  int64_t prompt = 0, output = 0;
  if (auto why = json_count(object, "input_length", limits::max_context_tokens - 1, prompt)) {
    return trace_error(ErrorCode::out_of_range, number, *why);
  }
  if (auto why = json_count(object, "output_length", limits::max_output_tokens, output)) {
    return trace_error(ErrorCode::out_of_range, number, *why);
  }
  std::vector<int64_t> ids;
  if (auto error = mooncake_ids(object, number, prompt, reader, ids)) return error;
  // Milliseconds to whole nanoseconds: exact for the integers Mooncake writes.
  const auto nanoseconds = static_cast<int64_t>(std::llround(time->get<double>() * 1e6));
  return reader.add(number, nanoseconds, prompt, output, std::move(ids));
}

}  // namespace

const char* request_trace_format_name(RequestTraceFormat format) {
  return format == RequestTraceFormat::azure_csv ? "azure-csv" : "mooncake-jsonl";
}

Result<RequestTrace> read_request_trace(std::string_view text, const RequestTraceOptions& options) {
  if (text.size() > limits::max_request_trace_bytes) {
    return error_at(ErrorCode::too_large, {},
                    "a trace may hold at most " + std::to_string(limits::max_request_trace_bytes) +
                        " bytes, this one holds " + std::to_string(text.size()));
  }
  if (!(options.rate_scale >= limits::min_trace_rate_scale &&
        options.rate_scale <= limits::max_trace_rate_scale)) {
    return error_at(ErrorCode::out_of_range, {}, "the rate scale must be from 1e-3 to 1e3");
  }
  Reader reader{options, {}};
  std::size_t at = 0, number = 0;
  const bool csv = text.substr(0, kAzureHeader.size()) == kAzureHeader;
  reader.trace.format = csv ? RequestTraceFormat::azure_csv : RequestTraceFormat::mooncake_jsonl;
  if (!csv && (text.empty() || text.front() != '{')) {
    return trace_error(ErrorCode::invalid_json, 1,
                       "not a request trace: expected the header " + std::string(kAzureHeader) +
                           " (Azure CSV) or a JSON object (Mooncake JSON Lines), found " +
                           quoted_excerpt(next_line(text, at)));
  }
  while (at < text.size() && !reader.full()) {
    const std::string_view line = next_line(text, at);
    ++number;
    if (const auto byte = control_byte(line)) {
      return trace_error(ErrorCode::invalid_json, number,
                         "not text (a control byte " + std::to_string(*byte) + ")");
    }
    if (csv && number == 1) {
      if (line != kAzureHeader)
        return trace_error(ErrorCode::unknown_field, 1,
                           "the header must read " + std::string(kAzureHeader));
      continue;
    }
    if (line.empty()) return trace_error(ErrorCode::missing_field, number, "an empty line");
    auto error =
        csv ? read_azure_line(reader, line, number) : read_mooncake_line(reader, line, number);
    if (error) return *error;
  }
  if (reader.trace.requests.empty())
    return error_at(ErrorCode::missing_field, {}, "the trace holds no request");
  return std::move(reader.trace);
}

}  // namespace prefill_trace
