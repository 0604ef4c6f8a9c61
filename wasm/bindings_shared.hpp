// What the two Embind files of the main module (bindings.cpp: bucket counts,
// keys, the command language; cluster_bindings.cpp: node lists) share: the
// batch buffers that keys cross in, and the CLI's reading of a key token.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"

namespace jumphash::wasm {

/// Keys per batch call: the JavaScript side copies up to this many keys into
/// `g_batch_keys`, calls once, and copies the results out of `g_batch_out`.
inline constexpr std::size_t kBatchCapacity = std::size_t{1} << 16;
alignas(8) inline std::uint64_t g_batch_keys[kBatchCapacity];
alignas(8) inline std::int32_t g_batch_out[kBatchCapacity];

/// A pointer as JavaScript sees it: an offset into the module's memory.
inline std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

/// Counts as doubles for a Float64Array view (exact below 2^53).
inline std::vector<double> to_doubles(const std::vector<std::uint64_t>& counts) {
  return std::vector<double>(counts.begin(), counts.end());
}

/// parse_key, after the CLI's tokenizer has seen a quoted key: the CLI reads
/// `"open` (no closing quote) as a line error of split_tokens, so the API
/// reports the same words for the same text.
inline Result<Key> parse_key_text_as_cli(std::string_view text) {
  if (!text.empty() && text[0] == '"') {
    Result<std::vector<std::string_view>> tokens = split_tokens(text);
    if (!tokens) return Error{tokens.error()};
  }
  return parse_key(text);
}

}  // namespace jumphash::wasm
