#pragma once
// SHA-256 for `--verify`, from a well-kept implementation on each platform rather than a
// hand-written one: OpenSSL natively (sha256_openssl.cpp), Node's node:crypto (itself OpenSSL)
// in the CLI's WebAssembly build for npx (sha256_node.cpp).

#include <optional>
#include <string>

namespace prefill_trace::cli {

// The digest as 64 lower-case hex digits; nullopt if the hash could not be computed.
std::optional<std::string> sha256_hex(const std::string& bytes);

}  // namespace prefill_trace::cli
