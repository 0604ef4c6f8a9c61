// Shared by the fuzz targets: the properties every target checks, and the
// work budget that keeps one input from running long.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"

namespace jumphash::fuzz {

/// The budget of one fuzz input: at most 10^4 placements and 64 KiB of
/// output, so that `KEYS 0..999999999` then `BUCKETS 10` ends in
/// milliseconds with the budget's error instead of running for minutes.
inline constexpr WorkBudget kFuzzBudget{10000, std::uint64_t{1} << 16};

/// Largest integer ALGO option (table=, min_ring=, max_ring=, replicas=) a
/// fuzz input may set: maglev's default table. Larger placements (up to
/// 2^24 slots) are built once before the budget refuses more work, which
/// takes 15-25 s under the sanitizers; the harness skips such scripts.
inline constexpr std::int64_t kMaxFuzzOptionValue = 65537;

/// True when some ALGO line of `script` sets an integer option above
/// kMaxFuzzOptionValue.
inline bool asks_for_huge_placement(std::string_view script) {
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    Result<std::vector<std::string_view>> tokens = split_tokens(script.substr(start, end - start));
    start = end + 1;
    if (!tokens || tokens->empty() || (*tokens)[0].size() != 4) continue;
    std::string word((*tokens)[0]);
    for (char& c : word) c = static_cast<char>(c & ~0x20);
    if (word != "ALGO") continue;
    for (std::string_view token : *tokens) {
      const std::size_t equals = token.find('=');
      if (equals == std::string_view::npos) continue;
      const std::string_view value = token.substr(equals + 1);
      const bool digits = !value.empty() && value.find_first_not_of("0123456789") == value.npos;
      if (digits && !parse_integer(value, "option", 0, kMaxFuzzOptionValue)) return true;
    }
  }
  return false;
}

/// Stops the process (a crash libFuzzer records) with `what` and the text.
[[noreturn]] inline void property_failed(const char* what, std::string_view text) {
  std::fprintf(stderr, "fuzz property failed: %s: %s\n", what,
               printable_input(text.substr(0, 2000)).c_str());
  std::abort();
}

/// A message shown to a user (an error, a "line N: error: ..." line) must be
/// safe to print: well-formed UTF-8 without control characters, except the
/// newlines that end lines when `lines` is true. Messages quote user input
/// through printable_input, so no input can break this.
inline void check_printable(std::string_view message, bool lines = false) {
  if (!is_valid_utf8(message)) property_failed("message is not UTF-8", message);
  for (std::size_t i = 0; i < message.size(); ++i) {
    const auto byte = static_cast<unsigned char>(message[i]);
    if (byte == '\n' && lines) continue;
    if (byte < 0x20 || byte == 0x7f) property_failed("message holds a control character", message);
    // C1 controls (U+0080..U+009F) are 0xC2 0x80..0x9F in UTF-8.
    if (byte == 0xc2 && i + 1 < message.size() &&
        static_cast<unsigned char>(message[i + 1]) <= 0x9f) {
      property_failed("message holds a C1 control character", message);
    }
  }
}

}  // namespace jumphash::fuzz
