// Parsing of keys, counts, tokens and key sets for the command language.
#include "jumphash/keys.hpp"

#include <charconv>
#include <string>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace jumphash {
namespace {

constexpr std::string_view kKeyForms =
    "a key is a decimal integer 0..18446744073709551615, 0x followed by 1 to 16 hex digits, "
    "or a \"quoted string\"";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string quote(std::string_view token) { return "'" + printable_input(token) + "'"; }

/// Decimal digits only; false when empty, not all digits, or above 2^64-1.
bool parse_decimal_u64(std::string_view text, std::uint64_t& value, bool& overflow) {
  overflow = false;
  if (text.empty()) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    if (!is_digit(c)) return false;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) overflow = true;
    v = v * 10 + digit;
  }
  value = v;
  return !overflow;
}

}  // namespace

namespace {

/// Length (1..4) of the well-formed UTF-8 sequence at s[i], with its code
/// point in `cp`; 0 when the bytes there are not UTF-8 (overlong forms,
/// surrogates and values above U+10FFFF are not).
std::size_t utf8_sequence_at(std::string_view s, std::size_t i, std::uint32_t& cp) {
  const auto c = static_cast<unsigned char>(s[i]);
  std::size_t extra;
  if (c < 0x80) {
    cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    extra = 1, cp = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    extra = 2, cp = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    extra = 3, cp = c & 0x07;
  } else {
    return 0;
  }
  if (i + extra >= s.size()) return 0;
  for (std::size_t k = 1; k <= extra; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if ((extra == 1 && cp < 0x80) || (extra == 2 && cp < 0x800) || (extra == 3 && cp < 0x10000) ||
      cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return extra + 1;
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  std::uint32_t cp = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t length = utf8_sequence_at(s, i, cp);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

std::string printable_input(std::string_view text) {
  constexpr std::size_t kShownCharacters = 80;
  constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size(); ++shown) {
    if (shown == kShownCharacters) {
      out += "... (";
      append_decimal(out, text.size());
      out += " bytes)";
      break;
    }
    std::uint32_t cp = 0;
    const std::size_t length = utf8_sequence_at(text, i, cp);
    if (length == 0) {  // not UTF-8: the byte in hex
      const auto byte = static_cast<unsigned char>(text[i]);
      out += "\\x";
      out += kHex[byte >> 4];
      out += kHex[byte & 0xF];
      ++i;
      continue;
    }
    // Control characters (C0, DEL, C1) and the bidirectional overrides and
    // isolates, which could rewrite how a terminal or page shows the text.
    const bool hidden = cp < 0x20 || (cp >= 0x7F && cp < 0xA0) || (cp >= 0x202A && cp <= 0x202E) ||
                        (cp >= 0x2066 && cp <= 0x2069);
    if (hidden) {
      out += "\\u{";
      bool started = false;
      for (int shift = 20; shift >= 0; shift -= 4) {
        const std::uint32_t digit = (cp >> shift) & 0xF;
        if (digit || started || shift == 0) out += kHex[digit], started = true;
      }
      out += '}';
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

std::size_t quoted_length(std::string_view token) {
  for (std::size_t i = 1; i < token.size(); ++i) {
    if (token[i] == '\\') {
      ++i;
    } else if (token[i] == '"') {
      return i + 1;
    }
  }
  return token.size();
}

Result<std::string> unquote_string(std::string_view token, std::string_view what) {
  const std::string_view quoted = token.substr(0, quoted_length(token));
  if (quoted.size() < 2 || quoted[0] != '"' || quoted.back() != '"') {
    return fail(std::string(what), " ", printable_input(token), " has no closing quote");
  }
  std::string bytes;
  for (std::size_t i = 1; i + 1 < quoted.size(); ++i) {
    const char c = quoted[i];
    if (c == '\\') {
      const char next = quoted[i + 1];
      if (next != '"' && next != '\\') {
        return fail("unknown escape '\\", printable_input(std::string_view(&next, 1)), "' in ",
                    std::string(what), " ", printable_input(quoted), " (allowed: \\\" and \\\\)");
      }
      bytes += next;
      ++i;
    } else {
      bytes += c;
    }
  }
  if (!is_valid_utf8(bytes)) {
    return fail(std::string(what), " ", printable_input(quoted), " is not valid UTF-8");
  }
  return bytes;
}

namespace {

Result<Key> parse_string_key(std::string_view token) {
  if (const std::size_t length = quoted_length(token); length < token.size()) {
    return fail("unexpected text after the closing quote of ",
                printable_input(token.substr(0, length)), " (separate arguments with a space)");
  }
  // token starts with '"'; split_tokens guarantees the closing quote, but
  // parse_key may be called on any text.
  if (token.size() < 2 || token.back() != '"') {
    return fail("string key ", printable_input(token), " has no closing quote");
  }
  std::string bytes;
  for (std::size_t i = 1; i + 1 < token.size(); ++i) {
    char c = token[i];
    if (c == '\\') {
      if (i + 2 >= token.size())
        return fail("string key ", printable_input(token), " ends with a lone backslash");
      const char next = token[i + 1];
      if (next != '"' && next != '\\') {
        return fail("unknown escape '\\", printable_input(std::string_view(&next, 1)),
                    "' in string key ", printable_input(token), " (allowed: \\\" and \\\\)");
      }
      bytes += next;
      ++i;
    } else if (c == '"') {
      return fail("string key ", printable_input(token),
                  " has an unescaped '\"' inside (write \\\")");
    } else {
      bytes += c;
    }
  }
  if (!is_valid_utf8(bytes))
    return fail("string key ", printable_input(token), " is not valid UTF-8");
  const std::uint64_t value = XXH3_64bits(bytes.data(), bytes.size());
  return Key{value, std::string(token), std::move(bytes)};
}

Result<std::uint64_t> parse_numeric_key(std::string_view token) {
  if (token.size() >= 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X')) {
    const std::string_view digits = token.substr(2);
    if (digits.empty()) return fail(quote(token), " is not a key (", kKeyForms, ")");
    std::uint64_t v = 0;
    for (char c : digits) {
      const int d = hex_digit_value(c);
      if (d < 0) return fail(quote(token), " is not a key (", kKeyForms, ")");
      v = (v << 4) | static_cast<std::uint64_t>(d);
    }
    if (digits.size() > 16) {
      return fail(quote(token),
                  " has more than 16 hex digits (keys are 64-bit: at most 0xFFFFFFFFFFFFFFFF)");
    }
    return v;
  }
  std::uint64_t v = 0;
  bool overflow = false;
  if (parse_decimal_u64(token, v, overflow)) return v;
  if (overflow) {
    return fail(quote(token), " is out of range (keys are 0..18446744073709551615)");
  }
  return fail(quote(token), " is not a key (", kKeyForms, ")");
}

}  // namespace

void append_decimal(std::string& out, std::uint64_t value) {
  char buffer[24];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  out.append(buffer, result.ptr);
}

void append_key(std::string& out, std::uint64_t value, const std::string* label) {
  if (label) {
    out += *label;
  } else {
    append_decimal(out, value);
  }
}

Result<Key> parse_key(std::string_view token) {
  if (!token.empty() && token[0] == '"') return parse_string_key(token);
  Result<std::uint64_t> value = parse_numeric_key(token);
  if (!value) return Error{value.error()};
  return Key{*value, {}, {}};
}

Result<std::int64_t> parse_integer(std::string_view token, std::string_view what, std::int64_t min,
                                   std::int64_t max) {
  std::uint64_t v = 0;
  bool overflow = false;
  if (!parse_decimal_u64(token, v, overflow) || v < static_cast<std::uint64_t>(min) ||
      v > static_cast<std::uint64_t>(max)) {
    return fail(std::string(what), " must be an integer in ", std::to_string(min), "..",
                std::to_string(max), " (got ", quote(token), ")");
  }
  return static_cast<std::int64_t>(v);
}

Result<std::vector<std::string_view>> split_tokens(std::string_view line) {
  std::vector<std::string_view> tokens;
  std::size_t i = 0;
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (i < line.size()) {
    const char c = line[i];
    if (is_space(c)) {
      ++i;
      continue;
    }
    if (c == '#') break;
    const std::size_t start = i;
    // A node edit may put '+' or '-' before a quoted name: -"cache 3".
    const bool signed_quote = (c == '+' || c == '-') && i + 1 < line.size() && line[i + 1] == '"';
    if (c == '"' || signed_quote) {
      i += signed_quote ? 2 : 1;
      bool closed = false;
      while (i < line.size()) {
        if (line[i] == '\\' && i + 1 < line.size()) {
          i += 2;
        } else if (line[i] == '"') {
          ++i;
          closed = true;
          break;
        } else {
          ++i;
        }
      }
      if (!closed) {
        return fail("string ", printable_input(line.substr(start)), " has no closing quote");
      }
      // A quoted node name may carry a weight: "cache 3"*2.
      if (i < line.size() && line[i] == '*') {
        while (i < line.size() && !is_space(line[i]) && line[i] != '#' && line[i] != '"') ++i;
      }
      if (i < line.size() && !is_space(line[i]) && line[i] != '#') {
        return fail("unexpected text after the closing quote of ",
                    printable_input(line.substr(start, i - start)),
                    " (separate arguments with a space)");
      }
    } else {
      while (i < line.size() && !is_space(line[i]) && line[i] != '#') {
        if (line[i] == '"') {
          return fail("'\"' inside ", quote(line.substr(start, i - start + 1)),
                      " (a string key starts with '\"' and stands alone)");
        }
        ++i;
      }
    }
    tokens.push_back(line.substr(start, i - start));
  }
  return tokens;
}

void KeySet::add(Segment segment, std::uint64_t count) {
  if (count == 0) return;
  if (auto* keys = std::get_if<ExplicitKeys>(&segment);
      keys && !segments_.empty() && std::holds_alternative<ExplicitKeys>(segments_.back())) {
    auto& last = std::get<ExplicitKeys>(segments_.back()).keys;
    for (Key& key : keys->keys) last.push_back(std::move(key));
  } else {
    starts_.push_back(size_);
    segments_.push_back(std::move(segment));
  }
  size_ += count;
}

Result<KeySet> KeySet::parse(const std::vector<std::string_view>& specs) {
  KeySet set;
  const auto too_many = [](std::string_view spec) {
    return fail("too many keys: ", quote(spec), " brings the set above ",
                std::to_string(kMaxKeysPerSet), " keys (the most one key set may hold)");
  };
  for (std::string_view spec : specs) {
    std::uint64_t count = 0;
    Segment segment;
    const bool is_random = spec.size() > 7 && spec.substr(0, 7) == "random:";
    const std::size_t dots = spec.find("..");
    if (!spec.empty() && spec[0] == '"') {
      Result<Key> key = parse_key(spec);
      if (!key) return Error{key.error()};
      segment = ExplicitKeys{{std::move(key).value()}};
      count = 1;
    } else if (is_random) {
      const std::string_view rest = spec.substr(7);
      const std::size_t colon = rest.find(':');
      if (colon == std::string_view::npos) {
        return fail(quote(spec),
                    " is not a random key set (write random:COUNT:SEED, e.g. random:1000:42)");
      }
      Result<std::int64_t> n = parse_integer(rest.substr(0, colon), "random key count", 0,
                                             static_cast<std::int64_t>(kMaxKeysPerSet));
      if (!n) return Error{n.error()};
      Result<std::uint64_t> seed = parse_numeric_key(rest.substr(colon + 1));
      if (!seed) return fail("random key seed: ", seed.error());
      count = static_cast<std::uint64_t>(*n);
      segment = RandomKeys{*seed, count};
    } else if (dots != std::string_view::npos) {
      Result<std::uint64_t> first = parse_numeric_key(spec.substr(0, dots));
      if (!first) return fail("range ", quote(spec), ": ", first.error());
      Result<std::uint64_t> last = parse_numeric_key(spec.substr(dots + 2));
      if (!last) return fail("range ", quote(spec), ": ", last.error());
      if (*first > *last) {
        return fail("range ", quote(spec), " is empty: its first key must be at most its last");
      }
      if (*last - *first >= kMaxKeysPerSet) return too_many(spec);
      count = *last - *first + 1;
      segment = KeyRange{*first, count};
    } else {
      Result<Key> key = parse_key(spec);
      if (!key) {
        return fail(key.error(), "; KEYS also takes ranges A..B and random:COUNT:SEED");
      }
      segment = ExplicitKeys{{std::move(key).value()}};
      count = 1;
    }
    if (set.size_ + count > kMaxKeysPerSet) return too_many(spec);
    set.add(std::move(segment), count);
  }
  return set;
}

Result<KeySet> KeySet::parse(std::string_view spec_text) {
  Result<std::vector<std::string_view>> tokens = split_tokens(spec_text);
  if (!tokens) return Error{tokens.error()};
  return parse(*tokens);
}

}  // namespace jumphash
