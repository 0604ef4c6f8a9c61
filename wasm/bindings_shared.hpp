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
#include "jumphash/reports.hpp"

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

/// How many of the keys from `done` on (of `size`) a job's step takes when
/// asked for at most `max_keys` (a double from JavaScript, >= 1).
inline std::uint64_t step_size(std::uint64_t size, std::uint64_t done, double max_keys) {
  const std::uint64_t remaining = size - done;
  return max_keys >= static_cast<double>(remaining) ? remaining
                                                     : static_cast<std::uint64_t>(max_keys);
}

/// load_stats(loads) as the 7 doubles the package reads: total, min, max,
/// mean, max/mean, chi-square, degrees of freedom.
inline std::vector<double> load_stats_doubles(const std::vector<std::uint64_t>& loads) {
  const LoadStats stats = load_stats(loads);
  return {static_cast<double>(stats.total), static_cast<double>(stats.min),
          static_cast<double>(stats.max),   stats.mean,
          stats.max_over_mean,              stats.chi_square,
          static_cast<double>(stats.degrees_of_freedom)};
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
