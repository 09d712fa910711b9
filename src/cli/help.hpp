#pragma once
// The CLI's help text (help.cpp).

#include <optional>
#include <string>

namespace prefill_trace::cli {

/// Every command's usage and every flag (`command` empty), or one command's usage and the flags
/// it takes; nullopt when `command` names no command.
std::optional<std::string> help_text(const std::string& command = "");

}  // namespace prefill_trace::cli
