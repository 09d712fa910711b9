#include <emscripten.h>

#include "sha256.hpp"

namespace {

// Writes the 64 hex digits and a NUL into `hex` (65 bytes); returns 0 if node:crypto failed.
EM_JS(int, node_sha256_hex, (const unsigned char* bytes, unsigned long size, char* hex), {
  try {
    const digest = require("crypto")
                       .createHash("sha256")
                       .update(HEAPU8.subarray(bytes, bytes + size))
                       .digest("hex");
    stringToUTF8(digest, hex, 65);
    return 1;
  } catch (error) {
    return 0;
  }
});

}  // namespace

namespace prefill_trace::cli {

std::optional<std::string> sha256_hex(const std::string& bytes) {
  char hex[65] = {};
  if (node_sha256_hex(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), hex) ==
      0) {
    return std::nullopt;
  }
  return std::string(hex, 64);
}

}  // namespace prefill_trace::cli
