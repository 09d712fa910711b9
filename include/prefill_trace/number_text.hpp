#pragma once
// The one rule for reading a number typed as text (a CLI flag, a page field, a URL parameter):
// plain decimal notation, nothing else. docs/robustness.md ("Numbers typed as text") states it;
// the page applies the same rule with the regular expression below (web/src/scenario.js), and
// tests/data/number-text.json holds the cases both are tested against.
//
//   number := [ASCII space] sign? ( digits ("." digits?)? | "." digits ) exponent? [ASCII space]
//   sign := "+" | "-"      exponent := ("e" | "E") sign? digits      digits := [0-9]+
//
// as the regular expression /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/ on the text with
// surrounding ASCII whitespace (space, \t, \n, \v, \f, \r) removed. Refused: hexadecimal
// ("0x800", which strtod would read as 2048), "inf", "nan", "Infinity", digit separators, an
// empty text, and a decimal beyond double range ("1e999").

#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>

#include "prefill_trace/result.hpp"

namespace prefill_trace {

/// The value of `text` under the rule above, or why it is not one: "is not a decimal number"
/// or "is beyond the range of a double" (callers put the field's name and the text before it).
inline Result<double> parse_decimal(std::string_view text) {
  const Error not_decimal = error_at(ErrorCode::wrong_type, "", "is not a decimal number");
  const auto is_space = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  std::size_t i = 0;
  const auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && is_digit(text[i])) ++i;
    return i - start;
  };
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  const std::size_t whole = digits();
  std::size_t fraction = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (whole == 0 && fraction == 0) return not_decimal;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    if (digits() == 0) return not_decimal;
  }
  if (i != text.size()) return not_decimal;
  // The grammar is checked; the conversion is strtod's (correctly rounded). It reads '.' as the
  // decimal point in the "C" locale, which the CLI and the wasm module never change; under a
  // host locale with another decimal point it stops early and the text is refused, not misread.
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size()) return not_decimal;
  if (!std::isfinite(value))
    return error_at(ErrorCode::out_of_range, "", "is beyond the range of a double");
  return value;
}

}  // namespace prefill_trace
