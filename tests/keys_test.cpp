// Key syntax, tokens and key sets.
#include "jumphash/keys.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/splitmix64.hpp"

namespace jumphash {
namespace {

std::uint64_t value_of(std::string_view token) {
  const Result<Key> key = parse_key(token);
  EXPECT_TRUE(key) << token << ": " << (key ? "" : key.error());
  return key ? key->value : 0;
}

std::string error_of(std::string_view token) {
  const Result<Key> key = parse_key(token);
  EXPECT_FALSE(key) << token << " was accepted";
  return key ? "" : key.error();
}

TEST(Keys, DecimalWithLeadingZerosUpToTheLargestKey) {
  EXPECT_EQ(value_of("0"), 0u);
  EXPECT_EQ(value_of("00042"), 42u);
  EXPECT_EQ(value_of("18446744073709551615"), 18446744073709551615ULL);
  EXPECT_EQ(value_of("000018446744073709551615"), 18446744073709551615ULL);
}

TEST(Keys, HexWithOneToSixteenDigits) {
  EXPECT_EQ(value_of("0x0"), 0u);
  EXPECT_EQ(value_of("0x2A"), 42u);
  EXPECT_EQ(value_of("0xffffffffffffffff"), ~0ULL);
  EXPECT_EQ(value_of("0X10"), 16u);
}

TEST(Keys, StringKeysAreXxh3OfTheirUtf8Bytes) {
  // XXH3-64 of empty input with seed 0 is 0x2D06800538D394C2 (xxHash's
  // published self-test value).
  EXPECT_EQ(value_of("\"\""), 0x2D06800538D394C2ULL);
  const Result<Key> quoted = parse_key(R"("say \"hi\" \\ ok")");
  ASSERT_TRUE(quoted);
  EXPECT_EQ(quoted->label, R"("say \"hi\" \\ ok")");
  // Values from `printf '%s' TEXT | xxhsum -H3` (Debian's xxhash 0.8.1 CLI).
  EXPECT_EQ(value_of("\"alice\""), 0x4da10dd61a0116b0ULL);
  EXPECT_EQ(value_of(R"("say \"hi\"")"), 0xf9fe995b6b9e591dULL);
  EXPECT_EQ(value_of(R"("back\\slash")"), 0x80c26488879f222aULL);
  EXPECT_EQ(value_of("\"caf\xC3\xA9\""), 0x4c83dbd5f29d367fULL);
  EXPECT_NE(value_of("\"a\""), value_of("\"b\""));
  EXPECT_EQ(value_of("\"caf\xC3\xA9\""), value_of("\"caf\xC3\xA9\""));
}

TEST(Keys, EverythingElseIsAnErrorThatSaysWhatIsAllowed) {
  const std::string forms =
      "(a key is a decimal integer 0..18446744073709551615, 0x followed by 1 to 16 hex digits, "
      "or a \"quoted string\")";
  for (const char* bad : {"-1", "1.5", "1e3", "abc", "0x", "0xg1", "+5", "", "2^64"}) {
    EXPECT_EQ(error_of(bad), "'" + std::string(bad) + "' is not a key " + forms);
  }
  EXPECT_EQ(error_of("18446744073709551616"),
            "'18446744073709551616' is out of range (keys are 0..18446744073709551615)");
  EXPECT_EQ(error_of("0x10000000000000000"),
            "'0x10000000000000000' has more than 16 hex digits (keys are 64-bit: at most "
            "0xFFFFFFFFFFFFFFFF)");
  EXPECT_EQ(error_of(R"("a\n")"),
            R"(unknown escape '\n' in string key "a\n" (allowed: \" and \\))");
  // The byte that is not UTF-8 is shown as \xff, never written raw.
  EXPECT_EQ(error_of("\"\xff\""), "string key \"\\xff\" is not valid UTF-8");
}

TEST(Messages, UserInputIsShownSafely) {
  using namespace std::string_literals;
  EXPECT_EQ(printable_input("cache-3 caf\u00e9 \u65e5\u672c"), "cache-3 caf\u00e9 \u65e5\u672c");
  EXPECT_EQ(printable_input("a\0b"s), "a\\u{0}b");
  EXPECT_EQ(printable_input("\x1b[2J\t\x7f"), "\\u{1b}[2J\\u{9}\\u{7f}");
  EXPECT_EQ(printable_input("\xc2\x9b"), "\\u{9b}");       // C1 control
  EXPECT_EQ(printable_input("x\u202ey"), "x\\u{202e}y");   // bidi override
  EXPECT_EQ(printable_input("\xff\xc3("), "\\xff\\xc3(");  // not UTF-8
  const std::string long_token(10'000'000, '7');
  EXPECT_EQ(printable_input(long_token), std::string(80, '7') + "... (10000000 bytes)");
  // Every message that quotes input goes through it: the CLI never prints
  // the raw bytes of a NUL, an escape sequence or a 10 MB token.
  const ScriptOutput out = run_script(
      "MOVED \x00"
      "12 1000\nHASH \x1b[31mred 5\nALGO \xe2\x80\xae\nHASH "s +
      long_token + " 10\n");
  EXPECT_EQ(out.stderr_text,
            "line 1: error: '\\u{0}12' is not an edit (an edit is -name (remove), +name or "
            "+name*weight (add) or =name*weight (change a weight); quote a name that holds "
            "spaces: -\"cache 3\")\n"
            "line 2: error: '\\u{1b}[31mred' is not a key (a key is a decimal integer "
            "0..18446744073709551615, 0x followed by 1 to 16 hex digits, or a \"quoted string\")\n"
            "line 3: error: unknown algorithm '\\u{202e}' (known: " +
                algorithm_names() +
                ")\n"
                "line 4: error: '" +
                std::string(80, '7') +
                "... (10000000 bytes)' is out of range "
                "(keys are 0..18446744073709551615)\n");
}

TEST(Tokens, QuotesKeepSpacesAndHashesCommentsOutsideQuotes) {
  const auto tokens = split_tokens("HASH \"a b # c\"\t10  # comment \"x");
  ASSERT_TRUE(tokens);
  EXPECT_EQ(*tokens, (std::vector<std::string_view>{"HASH", "\"a b # c\"", "10"}));
  EXPECT_TRUE(split_tokens("   ")->empty());
  EXPECT_TRUE(split_tokens("# only a comment")->empty());
  EXPECT_EQ(*split_tokens("HASH 42 100\r"), (std::vector<std::string_view>{"HASH", "42", "100"}));
}

TEST(Tokens, BrokenStringsAreErrors) {
  EXPECT_EQ(split_tokens("HASH \"abc 10").error(), "string \"abc 10 has no closing quote");
  EXPECT_EQ(split_tokens("HASH \"abc\"def 10").error(),
            "unexpected text after the closing quote of \"abc\" (separate arguments with a space)");
  EXPECT_FALSE(split_tokens("HASH ab\"c\" 10"));
}

std::vector<std::pair<std::uint64_t, std::string>> collect(const KeySet& set) {
  std::vector<std::pair<std::uint64_t, std::string>> keys;
  set.for_each([&](std::uint64_t value, const std::string* label) {
    keys.emplace_back(value, label ? *label : "");
  });
  return keys;
}

TEST(KeySet, MixesKeysRangesAndRandomInOrder) {
  const Result<KeySet> set = KeySet::parse("5 \"x\" 0x10 8..10 random:2:7");
  ASSERT_TRUE(set) << set.error();
  EXPECT_EQ(set->size(), 8u);
  std::uint64_t state = 7;
  const std::uint64_t r0 = splitmix64_next(state), r1 = splitmix64_next(state);
  const auto keys = collect(*set);
  const std::vector<std::pair<std::uint64_t, std::string>> want{
      {5, ""}, {value_of("\"x\""), "\"x\""}, {16, ""}, {8, ""}, {9, ""}, {10, ""}, {r0, ""},
      {r1, ""}};
  EXPECT_EQ(keys, want);
}

TEST(KeySet, SlicesVisitExactlyTheirIndices) {
  const KeySet set = *KeySet::parse("1 2 3 100..104 random:3:1 9");
  const auto all = collect(set);
  for (std::uint64_t begin = 0; begin <= set.size(); ++begin) {
    for (std::uint64_t end = begin; end <= set.size() + 2; ++end) {
      std::vector<std::uint64_t> got;
      set.for_each(begin, end, [&](std::uint64_t v, const std::string*) { got.push_back(v); });
      std::vector<std::uint64_t> want;
      for (std::uint64_t i = begin; i < std::min<std::uint64_t>(end, set.size()); ++i) {
        want.push_back(all[i].first);
      }
      ASSERT_EQ(got, want) << begin << ".." << end;
    }
  }
}

TEST(KeySet, HugeRangesCostNoMemoryAndTheLimitIsOneBillion) {
  const Result<KeySet> big = KeySet::parse("0..999999999");
  ASSERT_TRUE(big);
  EXPECT_EQ(big->size(), 1000000000u);
  EXPECT_EQ(big->segments().size(), 1u);
  const Result<KeySet> too_big = KeySet::parse("0..999999999 5");
  ASSERT_FALSE(too_big);
  EXPECT_EQ(
      too_big.error(),
      "too many keys: '5' brings the set above 1000000000 keys (the most one key set may hold)");
  EXPECT_FALSE(KeySet::parse("0..18446744073709551615"));
  EXPECT_FALSE(KeySet::parse("random:1000000001:1"));
  EXPECT_TRUE(KeySet::parse("18446744073709551000..18446744073709551615"));
}

TEST(KeySet, BadSpecsSayWhatIsWrong) {
  EXPECT_EQ(KeySet::parse("9..3").error(),
            "range '9..3' is empty: its first key must be at most its last");
  EXPECT_EQ(KeySet::parse("random:10").error(),
            "'random:10' is not a random key set (write random:COUNT:SEED, e.g. random:1000:42)");
  EXPECT_EQ(KeySet::parse("random:x:1").error(),
            "random key count must be an integer in 0..1000000000 (got 'x')");
  EXPECT_EQ(
      KeySet::parse("1..x").error(),
      "range '1..x': 'x' is not a key (a key is a decimal integer 0..18446744073709551615, 0x "
      "followed by 1 to 16 hex digits, or a \"quoted string\")");
  EXPECT_TRUE(KeySet::parse("")->empty());
}

TEST(Decimal, PrintsPlainDecimal) {
  std::string out;
  append_decimal(out, 18446744073709551615ULL);
  EXPECT_EQ(out, "18446744073709551615");
}

}  // namespace
}  // namespace jumphash
