// Keys and key sets: how the command language and the API name 64-bit keys.
//
// A key is written as
//   - decimal 0..18446744073709551615 (leading zeros allowed),
//   - hex 0x + 1..16 hex digits,
//   - a double-quoted string with \" and \\ escapes; its key is XXH3-64
//     (seed 0) of its UTF-8 bytes.
// Numbers print in plain decimal; a string key prints exactly as written.
// Nothing else is a key (-1, 2^64, 1.5, 1e3, abc are errors).
//
// A key set (the arguments of KEYS) is any mix of keys, inclusive ranges
// A..B and random:COUNT:SEED (the first COUNT outputs of SplitMix64 whose
// state starts at SEED). Ranges and random sets are generated lazily, so
// `0..999999999` costs no memory; one set holds at most 10^9 keys.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "jumphash/limits.hpp"
#include "jumphash/result.hpp"

namespace jumphash {

// kMaxKeysPerSet: in jumphash/limits.hpp, the one table of limits.

/// A key as the user wrote it.
struct Key {
  std::uint64_t value = 0;
  /// How the key prints: the quoted string as written for string keys,
  /// empty for numeric keys (which print as decimal `value`).
  std::string label;
  /// The string's bytes (unquoted, unescaped) for string keys, empty for
  /// numeric keys. Node-set algorithms hash these bytes; a numeric key is
  /// its decimal text there.
  std::string text;
};

/// Parses one key token (decimal, 0x hex, or "quoted string"); the Error
/// names the token and the allowed forms.
Result<Key> parse_key(std::string_view token);

/// User input as messages show it: control characters (C0, DEL, C1) and
/// bidirectional overrides as \u{1b}, bytes that are not UTF-8 as \xff,
/// and after 80 characters "... (<size> bytes)". Every message that quotes
/// what a user typed goes through this one function, so that a script
/// cannot write escape sequences into a terminal or garble the page.
std::string printable_input(std::string_view text);

/// True when `bytes` is well-formed UTF-8 (no overlong forms, surrogates or
/// values above U+10FFFF).
bool is_valid_utf8(std::string_view bytes);

/// The bytes of the double-quoted string that starts `token` (with \" and
/// \\ escapes), which may be followed by more text (a node's `*weight`).
/// Errors name the token as `<what> <token>`: no closing quote, an unknown
/// escape, not UTF-8.
Result<std::string> unquote_string(std::string_view token, std::string_view what);

/// Length of the double-quoted string that starts `token`, quotes included
/// (the whole token when it has no closing quote).
std::size_t quoted_length(std::string_view token);

/// The bytes a node-set algorithm hashes for a key: the text of a string
/// key, the decimal digits of a numeric one (0x2a and 42 are both "42").
/// `key` is null for keys that print as decimal.
inline std::string_view key_bytes(std::uint64_t value, const Key* key, std::string& scratch);

/// Parses a plain decimal integer in min..max for counts such as bucket
/// counts; the Error reads "<what> must be an integer in <min>..<max>".
Result<std::int64_t> parse_integer(std::string_view token, std::string_view what, std::int64_t min,
                                   std::int64_t max);

/// Splits a command line into tokens at spaces and tabs. A double-quoted
/// token (with \" and \\ escapes) may contain spaces and '#'; '#' outside
/// quotes starts a comment. A quoted token may be preceded by '+' or '-'
/// and followed by '*' and a weight (node edits: -"cache 3", +"a b"*2).
/// Errors: an unterminated string, other text glued to a closing quote.
Result<std::vector<std::string_view>> split_tokens(std::string_view line);

/// Appends the decimal form of `value` to `out`.
void append_decimal(std::string& out, std::uint64_t value);

/// Appends how `key` prints: its label, or its value in decimal.
void append_key(std::string& out, std::uint64_t value, const std::string* label);

/// An inclusive range first..first+count-1 of numeric keys.
struct KeyRange {
  std::uint64_t first = 0;
  std::uint64_t count = 0;
};

/// The first `count` outputs of SplitMix64 seeded with `seed`.
struct RandomKeys {
  std::uint64_t seed = 0;
  std::uint64_t count = 0;
};

/// Keys written one by one.
struct ExplicitKeys {
  std::vector<Key> keys;
};

/// An ordered, lazily generated list of keys, with random access by index
/// so that a report can run over it in chunks.
class KeySet {
 public:
  using Segment = std::variant<ExplicitKeys, KeyRange, RandomKeys>;

  KeySet() = default;

  /// Parses KEYS arguments (already split into tokens).
  static Result<KeySet> parse(const std::vector<std::string_view>& specs);
  /// Parses a KEYS argument text such as `0..9999 random:10:1 "alice"`.
  static Result<KeySet> parse(std::string_view spec_text);

  std::uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const std::vector<Segment>& segments() const { return segments_; }

  /// Calls visit(value, label) for the keys with index in [begin, end), in
  /// order; label is null for keys that print as decimal.
  template <class Visit>
  void for_each(std::uint64_t begin, std::uint64_t end, Visit&& visit) const;

  template <class Visit>
  void for_each(Visit&& visit) const {
    for_each(0, size_, visit);
  }

  /// Like for_each, but calls visit(value, key) with the whole Key of keys
  /// written one by one and null for keys of ranges and random sets.
  template <class Visit>
  void for_each_key(std::uint64_t begin, std::uint64_t end, Visit&& visit) const;

 private:
  void add(Segment segment, std::uint64_t count);
  std::vector<Segment> segments_;
  std::vector<std::uint64_t> starts_;  // index of each segment's first key
  std::uint64_t size_ = 0;
};

}  // namespace jumphash

#include "jumphash/detail/key_set_inline.hpp"
