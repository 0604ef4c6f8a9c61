// The exercise checker (jumphash/checker.hpp) and its mistake variants
// (jumphash/mistakes.hpp).
//
// Where the expected numbers come from:
// - tests/check/variants.tsv: real JavaScript under node
//   (tests/reference/js_number.mjs), independent of the C++;
// - the exercise's text: key 42 sits in bucket 40 for n = 41..43 and in 43
//   for n = 44..571 (so jump(42, 43) = 40, jump(42, 44) = 43, and at
//   n = 100 it is 43);
// - tests/vectors' README: Guava gives 851968 and the paper's C 851967 for
//   key 628522610165938199 at n = 10^6; jumpback gives 73 for 2^64-1 at 100.
#include "jumphash/checker.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/mistakes.hpp"
#include "jumphash/splitmix64.hpp"
#include "test_data.hpp"

namespace jumphash {
namespace {

// --- the variants -----------------------------------------------------------

TEST(MistakeVariants, MatchRealJavaScriptOnEveryReferenceRow) {
  const std::vector<testing::VectorRow> rows = testing::read_vectors("check/variants.tsv");
  ASSERT_GT(rows.size(), 4000u);
  std::size_t js = 0, division = 0, through_double = 0;
  for (const testing::VectorRow& row : rows) {
    const auto n = static_cast<std::int32_t>(row.n);
    SCOPED_TRACE(row.algorithm + " key " + std::to_string(row.key) + " n " + std::to_string(n));
    if (row.algorithm == "js-number") {
      EXPECT_EQ(jump_hash_js_number(row.key, n), row.bucket);
      ++js;
    } else if (row.algorithm == "integer-division") {
      EXPECT_EQ(jump_hash_integer_division(row.key, n), row.bucket);
      ++division;
    } else if (row.algorithm == "key-as-double") {
      EXPECT_EQ(jump_hash(key_through_double(row.key), n), row.bucket);
      ++through_double;
    } else {
      ADD_FAILURE() << "unknown variant " << row.algorithm;
    }
  }
  EXPECT_GT(js, 2000u);
  EXPECT_GT(division, 900u);
  EXPECT_GT(through_double, 900u);
}

TEST(MistakeVariants, JsNumberValuesComputedByNode) {
  // Copied from node's output (tests/check/variants.tsv).
  EXPECT_EQ(jump_hash_js_number(42, 100), 1);
  EXPECT_EQ(jump_hash_js_number(1, 2147483647), 6);
  EXPECT_EQ(jump_hash_js_number(2, 2147483647), 3);
  EXPECT_EQ(jump_hash_js_number(1000, 2147483647), 5);
  EXPECT_EQ(jump_hash_js_number(2147483647, 2147483647), 9);
  EXPECT_EQ(jump_hash_js_number(58, 1000000), 626);
  EXPECT_EQ(jump_hash_js_number(173000519, 1000000), 315);
  EXPECT_EQ(jump_hash_js_number(18446744073709551615ULL, 100), 0);
}

TEST(MistakeVariants, IntegerDivisionValuesComputedByNode) {
  EXPECT_EQ(jump_hash_integer_division(42, 100), 24);
  EXPECT_EQ(jump_hash_integer_division(42, 1000000), 78287);
  EXPECT_EQ(jump_hash_integer_division(9007199254740993ULL, 1000), 161);
  EXPECT_EQ(jump_hash_integer_division(18446744073709551615ULL, 100), 72);
  // Terminates at the largest n (quotient >= 1, so j grows every step).
  const std::int32_t b = jump_hash_integer_division(18446744073709551615ULL, 2147483647);
  EXPECT_GE(b, 0);
}

TEST(MistakeVariants, KeyThroughDouble) {
  EXPECT_EQ(key_through_double(0), 0u);
  EXPECT_EQ(key_through_double(9007199254740992ULL), 9007199254740992ULL);        // 2^53
  EXPECT_EQ(key_through_double(9007199254740993ULL), 9007199254740992ULL);        // ties to even
  EXPECT_EQ(key_through_double(9007199254740995ULL), 9007199254740996ULL);        // ties to even
  EXPECT_EQ(key_through_double(9223372036854775807ULL), 9223372036854775808ULL);  // 2^63-1 -> 2^63
  EXPECT_EQ(key_through_double(18446744073709551615ULL), 0u);                     // 2^64 wraps
  EXPECT_EQ(jump_hash(key_through_double(9007199254740993ULL), 1000), 784);       // node
}

/// A natural number of any size (little-endian 32-bit limbs, no leading
/// zero limb): enough to run jump's loop on a state that is never wrapped.
struct Natural {
  std::vector<std::uint32_t> limbs;

  explicit Natural(std::uint64_t value) {
    for (; value != 0; value >>= 32) limbs.push_back(static_cast<std::uint32_t>(value));
  }
  /// this * factor + addend.
  Natural times_plus(std::uint64_t factor, std::uint32_t addend) const {
    const std::uint64_t halves[2] = {factor & 0xFFFFFFFFu, factor >> 32};
    std::vector<std::uint64_t> sums(limbs.size() + 3, 0);  // each < 2^64: see the carries
    sums[0] = addend;
    for (std::size_t h = 0; h < 2; ++h) {
      std::uint64_t carry = 0;
      std::size_t i = 0;
      for (; i < limbs.size(); ++i) {
        const std::uint64_t product = std::uint64_t{limbs[i]} * halves[h];  // < 2^64 - 2^33
        const std::uint64_t low = (product & 0xFFFFFFFFu) + (sums[i + h] & 0xFFFFFFFFu) + carry;
        carry = (product >> 32) + (sums[i + h] >> 32) + (low >> 32);
        sums[i + h] = low & 0xFFFFFFFFu;
      }
      for (; carry != 0; ++i) {
        const std::uint64_t low = (sums[i + h] & 0xFFFFFFFFu) + carry;
        carry = (sums[i + h] >> 32) + (low >> 32);
        sums[i + h] = low & 0xFFFFFFFFu;
      }
    }
    Natural out(0);
    for (std::uint64_t limb : sums) out.limbs.push_back(static_cast<std::uint32_t>(limb));
    while (!out.limbs.empty() && out.limbs.back() == 0) out.limbs.pop_back();
    return out;
  }
  /// this >> 33.
  Natural shifted_right_33() const {
    Natural out(0);
    for (std::size_t i = 1; i < limbs.size(); ++i) {
      const std::uint64_t high = i + 1 < limbs.size() ? limbs[i + 1] : 0;
      out.limbs.push_back(static_cast<std::uint32_t>((limbs[i] >> 1) | (high << 31)));
    }
    while (!out.limbs.empty() && out.limbs.back() == 0) out.limbs.pop_back();
    return out;
  }
  bool below_2_64() const { return limbs.size() <= 2; }
  std::uint64_t value() const {  // precondition: below_2_64()
    std::uint64_t v = 0;
    for (std::size_t i = limbs.size(); i-- > 0;) v = (v << 32) | limbs[i];
    return v;
  }
};

/// Jump's loop without the 64-bit wrap, in exact arithmetic:
///   b = -1; j = 0; while (j < n) { b = j; s = s * 2862933555777941757 + 1;
///                                  j = floor((b + 1) * 2^31 / ((s >> 33) + 1)); }
/// The bucket it returns, or nothing once it provably never ends: j = 0
/// with s >= 2^64, so (s >> 33) + 1 > 2^31 from then on (s only grows)
/// and every later j is floor(1 * 2^31 / ((s >> 33) + 1)) = 0 < n.
/// `steps`: the steps run.
std::optional<std::int64_t> unwrapped_jump_exact(std::uint64_t key, std::int64_t n, int& steps) {
  Natural state(key);
  std::int64_t b = -1, j = 0;
  steps = 0;
  while (j < n) {
    if (b >= 0 && j == 0 && !state.below_2_64()) return std::nullopt;
    b = j;
    state = state.times_plus(2862933555777941757ULL, 1);
    ++steps;
    const Natural top = state.shifted_right_33();
    const auto numerator = static_cast<std::uint64_t>(b + 1) << 31;  // < 2^62
    // floor(numerator / (top + 1)) is 0 when top >= numerator.
    j = !top.below_2_64() || top.value() >= numerator
            ? 0
            : static_cast<std::int64_t>(numerator / (top.value() + 1));
  }
  return b;
}

TEST(MistakeVariants, UnwrappedJumpFirstTargetIsWherePythonStops) {
  // Computed once with python3 (ints never wrap):
  // (2**31) // (((k * 2862933555777941757 + 1) >> 33) + 1) for k = 0..7.
  const std::uint64_t targets[] = {2147483648u, 6, 3, 2, 1, 1, 1, 0};
  for (std::uint64_t key = 0; key < std::size(targets); ++key) {
    EXPECT_EQ(unwrapped_jump_first_target(key), targets[key]) << key;
  }
  EXPECT_EQ(unwrapped_jump_first_target(42), 0u);
  EXPECT_EQ(unwrapped_jump_first_target(18446744073709551615ULL), 0u);
  EXPECT_FALSE(unwrapped_jump_hangs(0, 2147483647));
  EXPECT_FALSE(unwrapped_jump_hangs(1, 6));
  EXPECT_TRUE(unwrapped_jump_hangs(1, 7));
  EXPECT_TRUE(unwrapped_jump_hangs(2, 4));
  EXPECT_TRUE(unwrapped_jump_hangs(42, 1));
}

TEST(MistakeVariants, UnwrappedJumpHangsExactlyWhenTheExactLoopNeverEnds) {
  std::vector<std::uint64_t> keys;
  for (std::uint64_t k = 0; k <= 20; ++k) keys.push_back(k);
  for (std::uint64_t k : {42ULL, 1000ULL, 2147483647ULL, 4294967296ULL, 9007199254740993ULL,
                          9223372036854775807ULL, 9223372036854775808ULL,
                          18446744073709551614ULL, 18446744073709551615ULL}) {
    keys.push_back(k);
  }
  for (std::uint64_t i = 0; i < 200; ++i) keys.push_back(splitmix64_at(12345, i));
  std::vector<std::int64_t> counts;
  for (std::int64_t n = 1; n <= 10; ++n) counts.push_back(n);
  for (std::int64_t n : {100, 1000, 1000000, 2147483647}) counts.push_back(n);

  std::size_t ends = 0, hangs = 0;
  for (std::uint64_t key : keys) {
    for (std::int64_t n : counts) {
      SCOPED_TRACE("key " + std::to_string(key) + " n " + std::to_string(n));
      int steps = 0;
      const std::optional<std::int64_t> bucket = unwrapped_jump_exact(key, n, steps);
      EXPECT_EQ(unwrapped_jump_hangs(key, n), !bucket.has_value());
      if (bucket) {
        ++ends;
        // When it ends it ends at once, with the right bucket (the wrapped
        // loop in doubles takes the same first step).
        EXPECT_EQ(steps, 1);
        EXPECT_EQ(*bucket, jump_hash(key, static_cast<std::int32_t>(n)));
        EXPECT_EQ(*bucket, jump_hash_guava(key, static_cast<std::int32_t>(n)));
      } else {
        ++hangs;
        EXPECT_LE(steps, 2);  // j is 0 for good after at most two steps
      }
      // From n = 7 up only key 0 ends.
      if (n >= 7) {
        EXPECT_EQ(bucket.has_value(), key == 0);
      }
    }
  }
  // Key 0 at all 14 counts, key 1 at n = 1..6, key 2 at 1..3, key 3 at
  // 1..2, keys 4..6 at 1: 28 pairs end, every other one hangs.
  EXPECT_EQ(ends, 28u);
  EXPECT_EQ(hangs, keys.size() * counts.size() - 28);
}

TEST(MistakeVariants, CatalogHasEveryIdentifierOnceWithExplanationAndFix) {
  const std::vector<std::string> ids = {"no-64-bit-wrap",  "js-number",      "integer-division",
                                        "key-as-double",   "off-by-one-n",   "guava-rounding",
                                        "other-algorithm", "index-renumbering",
                                        "moved-estimated"};
  EXPECT_EQ(std::size(kMistakes), ids.size());
  for (const std::string& id : ids) {
    const MistakeInfo* info = find_mistake(id);
    ASSERT_NE(info, nullptr) << id;
    EXPECT_GT(info->explanation.size(), 100u) << id;
    EXPECT_GT(info->fix.size(), 30u) << id;
  }
  EXPECT_EQ(find_mistake("no-such-mistake"), nullptr);
}

// --- helpers ----------------------------------------------------------------

CheckReport check(const std::string& script, const std::string& output) {
  Result<CheckReport> report = check_output(script, output);
  EXPECT_TRUE(report.ok()) << (report.ok() ? "" : report.error());
  return report.ok() ? *report : CheckReport{};
}

/// The verdict of expected line `line` (1-based).
const LineVerdict& expected_line(const CheckReport& report, std::uint64_t line) {
  for (const LineVerdict& v : report.lines) {
    if (v.expected_line == line) return v;
  }
  static const LineVerdict none{};
  ADD_FAILURE() << "no expected line " << line;
  return none;
}

std::vector<std::string> ids(const LineVerdict& v) {
  std::vector<std::string> out;
  for (const Diagnosis& d : v.diagnoses) out.push_back(d.id);
  return out;
}

std::string detail(const LineVerdict& v, const std::string& id) {
  for (const Diagnosis& d : v.diagnoses) {
    if (d.id == id) return d.detail;
  }
  return "";
}

using V = Verdict;
using Ids = std::vector<std::string>;

const std::string kExercise =
    "HASH 42 100\n"  // 1: 42: 43
    "KEYS 1..20\n"
    "BUCKETS 10\n"     // 2..21
    "MOVED 10 11\n"    // 22..25 moved keys, 26 summary
    "TRACE 42 800\n";  // 27..34

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string join(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& line : lines) out += line + "\n";
  return out;
}

// --- verdicts ----------------------------------------------------------------

TEST(Checker, RightOutputMatchesEveryLine) {
  const std::string right = run_script(kExercise).stdout_text;
  const CheckReport report = check(kExercise, right);
  EXPECT_EQ(report.expected_lines, 34u);
  EXPECT_EQ(report.matching, 34u);
  EXPECT_TRUE(report.all_match());
  EXPECT_EQ(expected_line(report, 1).expected, "42: 43");  // the exercise's value
  EXPECT_EQ(expected_line(report, 1).script_line, 1u);
  EXPECT_EQ(expected_line(report, 2).script_line, 3u);
  EXPECT_EQ(expected_line(report, 26).script_line, 4u);
  EXPECT_EQ(expected_line(report, 27).script_line, 5u);
  EXPECT_EQ(expected_line(report, 27).command, "TRACE 42 800");
  EXPECT_EQ(render_check_report(report), "checked: 34 of 34 lines match\n");
}

TEST(Checker, CrlfAndMissingFinalNewlineAreAccepted) {
  const CheckReport crlf = check("HASH 42 100\nHASH 42 44\n", "42: 43\r\n42: 43");
  EXPECT_TRUE(crlf.all_match());
}

struct FormatCase {
  std::string script, actual, problem;
};

TEST(Checker, NumbersRightTextWrongIsWrongFormat) {
  const std::vector<FormatCase> cases = {
      {"HASH 42 100", "42:43", "no space after ':'"},
      {"HASH 42 100", "42:\t43", "a tab"},
      {"HASH 42 100", "42 : 43", "a blank before ':'"},
      {"HASH 42 100", "42:  43", "more than one space after ':'"},
      {"HASH 42 100", " 42: 43", "blanks before the key"},
      {"HASH 42 100", "42: 43 ", "blanks at the end"},
      {"HASH 42 100", "042: 43", "the key is written '042'"},
      {"KEYS 5\nMOVED 10 11", "5: 4->10\nmoved: 1 of 1", "'->' needs exactly one space"},
      {"KEYS 5\nMOVED 10 11", "5: 4 ->10\nmoved: 1 of 1", "'->' needs exactly one space"},
      {"KEYS 5\nMOVED 10 11", "5: 4 => 10\nmoved: 1 of 1", "not written '->'"},
      {"KEYS 5\nMOVED 10 11", "5: 4 -> 10\nmoved: 1/1", "' of '"},
      {"KEYS 5\nMOVED 10 11", "5: 4 -> 10\nmoved: 1  of 1", "more than one space"},
      {"KEYS 5\nMOVED 10 11", "5: 4 -> 10\nMoved: 1 of 1", "the key is written 'Moved'"},
  };
  for (const FormatCase& c : cases) {
    SCOPED_TRACE(c.actual);
    const CheckReport report = check(c.script, c.actual + "\n");
    const auto wrong = std::find_if(report.lines.begin(), report.lines.end(),
                                    [](const LineVerdict& v) { return v.verdict != V::match; });
    ASSERT_NE(wrong, report.lines.end());
    EXPECT_EQ(wrong->verdict, V::wrong_format);
    EXPECT_NE(wrong->format_problem.find(c.problem), std::string::npos) << wrong->format_problem;
    EXPECT_EQ(report.matching + 1, report.expected_lines);
    EXPECT_FALSE(report.all_match());
  }
}

TEST(Checker, OneMissingLineDoesNotShiftTheRest) {
  std::vector<std::string> lines = lines_of(run_script(kExercise).stdout_text);
  lines.erase(lines.begin() + 5);  // expected line 6: "5: 4"
  const CheckReport report = check(kExercise, join(lines));
  EXPECT_EQ(report.matching, 33u);
  EXPECT_EQ(expected_line(report, 6).verdict, V::missing);
  EXPECT_EQ(expected_line(report, 6).expected, "5: 4");
  EXPECT_EQ(expected_line(report, 6).actual_line, 0u);
  EXPECT_EQ(expected_line(report, 7).actual_line, 6u);
  EXPECT_TRUE(expected_line(report, 6).diagnoses.empty());
}

TEST(Checker, ExtraLineIsPlacedWhereItAppears) {
  std::vector<std::string> lines = lines_of(run_script(kExercise).stdout_text);
  lines.insert(lines.begin() + 1, "debug: keys loaded");
  const CheckReport report = check(kExercise, join(lines));
  EXPECT_EQ(report.matching, 34u);
  EXPECT_FALSE(report.all_match());
  ASSERT_GE(report.lines.size(), 2u);
  EXPECT_EQ(report.lines[1].verdict, V::extra);
  EXPECT_EQ(report.lines[1].actual_line, 2u);
  EXPECT_EQ(report.lines[1].expected_line, 0u);
  EXPECT_EQ(report.lines[1].actual, "debug: keys loaded");
}

TEST(Checker, SwappedLinesAreOutOfOrder) {
  std::vector<std::string> lines = lines_of(run_script(kExercise).stdout_text);
  std::swap(lines[2], lines[3]);                  // "2: 6" and "3: 8"... expected lines 3 and 4
  std::reverse(lines.begin() + 26, lines.end());  // the whole TRACE block reversed
  const CheckReport report = check(kExercise, join(lines));
  std::size_t out_of_order = 0;
  for (const LineVerdict& v : report.lines) {
    EXPECT_TRUE(v.verdict == V::match || v.verdict == V::out_of_order) << v.expected;
    if (v.verdict == V::out_of_order) ++out_of_order;
  }
  EXPECT_EQ(out_of_order, 1u + 7u);  // one of the swapped pair, 7 of the 8 reversed steps
  EXPECT_EQ(report.matching + out_of_order, 34u);
}

TEST(Checker, GarbledKeyIsAWrongValueInItsPlace) {
  std::vector<std::string> lines = lines_of(run_script(kExercise).stdout_text);
  lines[4] = "x: 1";  // expected "4: 1"
  const CheckReport report = check(kExercise, join(lines));
  EXPECT_EQ(expected_line(report, 5).verdict, V::wrong_value);
  EXPECT_EQ(expected_line(report, 5).actual, "x: 1");
  EXPECT_EQ(report.matching, 33u);
}

TEST(Checker, LargeOutputsAreAlignedAtUniqueLines) {
  // 60000 x 60000 lines is far above what the LCS table holds.
  const std::string script = "KEYS 0..59999\nBUCKETS 1000\n";
  std::vector<std::string> lines = lines_of(run_script(script).stdout_text);
  ASSERT_EQ(lines.size(), 60000u);
  const std::string missing = lines[10];
  lines.erase(lines.begin() + 10);
  std::swap(lines[30000], lines[30001]);
  lines.insert(lines.begin() + 50000, "debug");
  auto key_59000 = std::find_if(lines.begin(), lines.end(), [](const std::string& line) {
    return line.rfind("59000: ", 0) == 0;
  });
  ASSERT_NE(key_59000, lines.end());
  *key_59000 = "59000: 1000";  // no bucket among 1000: a wrong value
  const CheckReport report = check(script, join(lines));
  EXPECT_FALSE(report.aligned_by_position);
  EXPECT_EQ(expected_line(report, 11).verdict, V::missing);
  EXPECT_EQ(expected_line(report, 11).expected, missing);
  EXPECT_EQ(expected_line(report, 59001).verdict, V::wrong_value);
  EXPECT_EQ(expected_line(report, 59001).actual, "59000: 1000");
  std::size_t out_of_order = 0, extra = 0;
  for (const LineVerdict& v : report.lines) {
    out_of_order += v.verdict == V::out_of_order;
    extra += v.verdict == V::extra;
  }
  EXPECT_EQ(out_of_order, 1u);
  EXPECT_EQ(extra, 1u);
  EXPECT_EQ(report.matching, 60000u - 3u);
}

TEST(Checker, LargeOutputsWithoutUniqueLinesArePairedByPosition) {
  const std::string script = "KEYS 0..4999\nBUCKETS 10\n";
  std::string garbage;
  for (int i = 0; i < 5000; ++i) garbage += "x\n";
  const CheckReport positional = check(script, garbage);
  EXPECT_TRUE(positional.aligned_by_position);
  EXPECT_EQ(positional.lines.size(), 5000u);
  for (const LineVerdict& v : positional.lines) EXPECT_EQ(v.verdict, V::wrong_value);
  EXPECT_NE(render_check_report(positional).find("compared by position"), std::string::npos);
}

TEST(Checker, EveryLineIsAccountedForOnceUnderRandomEdits) {
  const std::string script =
      "HASH 42 100\nHASH \"alice: x\" 10\nKEYS 1..30 \"bob\" 18446744073709551615\n"
      "BUCKETS 7\nMOVED 7 9\nALGO jumpback\nMOVED 9 7\nLOAD 5\nALGO modulo\nTRACE 42 50\n"
      "ALGO jump-guava\nTRACE 18446744073709551615 100000\n";
  const std::vector<std::string> right = lines_of(run_script(script).stdout_text);
  ASSERT_GT(right.size(), 60u);
  std::uint64_t state = 5;
  auto next = [&state](std::size_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<std::size_t>((state >> 33) % bound);
  };
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string> lines = right;
    const int edits = 1 + static_cast<int>(next(6));
    for (int k = 0; k < edits && !lines.empty(); ++k) {
      const std::size_t at = next(lines.size());
      switch (next(6)) {
        case 0:
          lines.erase(lines.begin() + static_cast<std::ptrdiff_t>(at));
          break;
        case 1:
          lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(at), "noise 1 2");
          break;
        case 2:
          std::swap(lines[at], lines[next(lines.size())]);
          break;
        case 3:
          lines[at] += "7";
          break;
        case 4:
          lines[at].replace(0, 0, " ");
          break;
        default:
          lines.resize(at);
          break;
      }
    }
    SCOPED_TRACE("round " + std::to_string(round));
    const CheckReport report = check(script, join(lines));
    std::uint64_t next_expected = 1, matches = 0;
    std::vector<int> seen(lines.size() + 1, 0);
    for (const LineVerdict& v : report.lines) {
      if (v.verdict == V::extra) {
        EXPECT_EQ(v.expected_line, 0u);
      } else {
        EXPECT_EQ(v.expected_line, next_expected++);
      }
      if (v.verdict == V::missing) {
        EXPECT_EQ(v.actual_line, 0u);
      } else {
        ASSERT_GE(v.actual_line, 1u);
        ASSERT_LE(v.actual_line, lines.size());
        ++seen[v.actual_line];
        EXPECT_EQ(v.actual, lines[v.actual_line - 1]);
      }
      if (v.verdict == V::match) {
        ++matches;
        EXPECT_EQ(v.actual, v.expected);
      }
    }
    EXPECT_EQ(next_expected - 1, report.expected_lines);
    EXPECT_EQ(matches, report.matching);
    for (std::size_t i = 1; i <= lines.size(); ++i) EXPECT_EQ(seen[i], 1) << "actual line " << i;
    EXPECT_EQ(report.all_match(), lines == right);
  }
}

TEST(Checker, BlankLineIsExtra) {
  const CheckReport report = check("HASH 42 100\nHASH 42 44\n", "42: 43\n\n42: 43\n");
  EXPECT_EQ(report.matching, 2u);
  ASSERT_EQ(report.lines.size(), 3u);
  EXPECT_EQ(report.lines[1].verdict, V::extra);
  EXPECT_NE(render_check_report(report).find("actual:   (empty line)"), std::string::npos);
}

TEST(Checker, EmptyOutputIsAllMissing) {
  const CheckReport report = check(kExercise, "");
  EXPECT_EQ(report.matching, 0u);
  EXPECT_EQ(report.lines.size(), 34u);
  for (const LineVerdict& v : report.lines) EXPECT_EQ(v.verdict, V::missing);
}

// --- diagnoses of wrong values -----------------------------------------------

TEST(CheckerDiagnosis, JsNumber) {
  const CheckReport report = check("HASH 42 100\nHASH 58 1000000\n", "42: 1\n58: 626\n");
  EXPECT_EQ(expected_line(report, 1).verdict, V::wrong_value);
  EXPECT_EQ(ids(expected_line(report, 1)), Ids{"js-number"});
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"js-number"});
  EXPECT_NE(expected_line(report, 1).diagnoses[0].explanation.find("53 significant bits"),
            std::string::npos);
  EXPECT_FALSE(expected_line(report, 1).diagnoses[0].fix.empty());
}

TEST(CheckerDiagnosis, IntegerDivision) {
  const CheckReport report =
      check("HASH 42 100\nHASH 9007199254740993 1000\n", "42: 24\n9007199254740993: 161\n");
  EXPECT_EQ(ids(expected_line(report, 1)), Ids{"integer-division"});
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"integer-division"});
}

TEST(CheckerDiagnosis, KeyAsDouble) {
  const CheckReport report = check("HASH 9007199254740993 1000\n", "9007199254740993: 784\n");
  EXPECT_EQ(ids(expected_line(report, 1)), Ids{"key-as-double"});
  EXPECT_NE(detail(expected_line(report, 1), "key-as-double").find("9007199254740992"),
            std::string::npos);
}

TEST(CheckerDiagnosis, EveryVariantThatReproducesTheValueIsNamed) {
  // 2^64-1 through a double is 2^64, which wraps to key 0: bucket 0; the JS
  // Number loop also gives 0 for it (node).
  const CheckReport report = check("HASH 18446744073709551615 100\n", "18446744073709551615: 0\n");
  EXPECT_EQ(ids(expected_line(report, 1)), (Ids{"js-number", "key-as-double"}));
  EXPECT_NE(detail(expected_line(report, 1), "key-as-double").find("wraps to 0"),
            std::string::npos);
}

TEST(CheckerDiagnosis, KeyPrintedFromADouble) {
  // JavaScript prints Number(18446744073709551615n) as 18446744073709552000
  // and Number(9007199254740993n) as 9007199254740992 (node).
  const CheckReport report = check("HASH 18446744073709551615 100\nHASH 9007199254740993 1000\n",
                                   "18446744073709552000: 0\n9007199254740992: 446\n");
  EXPECT_EQ(report.matching, 0u);
  EXPECT_EQ(expected_line(report, 1).verdict, V::wrong_value);
  EXPECT_EQ(expected_line(report, 1).actual_line, 1u);
  EXPECT_EQ(ids(expected_line(report, 1)), (Ids{"js-number", "key-as-double"}));
  EXPECT_NE(
      detail(expected_line(report, 1), "key-as-double").find("printed as 18446744073709552000"),
      std::string::npos);
  // The bucket is right; only the key's text went through a double.
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"key-as-double"});
  EXPECT_EQ(detail(expected_line(report, 2), "key-as-double"),
            "the key 9007199254740993 is printed as 9007199254740992, the nearest double");
}

TEST(CheckerDiagnosis, OffByOneN) {
  // The seed: key 42 is in bucket 40 for n = 41..43 and in 43 from n = 44.
  const CheckReport report = check("HASH 42 44\nHASH 42 43\n", "42: 40\n42: 43\n");
  EXPECT_EQ(ids(expected_line(report, 1)), Ids{"off-by-one-n"});
  EXPECT_NE(detail(expected_line(report, 1), "off-by-one-n").find("n - 1 = 43"), std::string::npos);
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"off-by-one-n"});
  EXPECT_NE(detail(expected_line(report, 2), "off-by-one-n").find("n + 1 = 44"), std::string::npos);
}

TEST(CheckerDiagnosis, GuavaRoundingBothWays) {
  const std::string script =
      "HASH 628522610165938199 1000000\n"
      "ALGO jump-guava\n"
      "HASH 628522610165938199 1000000\n";
  const CheckReport report =
      check(script, "628522610165938199: 851968\n628522610165938199: 851967\n");
  EXPECT_EQ(expected_line(report, 1).expected, "628522610165938199: 851967");
  EXPECT_EQ(ids(expected_line(report, 1)), Ids{"guava-rounding"});
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"guava-rounding"});
  EXPECT_NE(expected_line(report, 1).diagnoses[0].explanation.find("Guava"), std::string::npos);
}

TEST(CheckerDiagnosis, OtherAlgorithmFollowsAlgo) {
  const std::string script =
      "HASH 18446744073709551615 100\n"  // jump; jumpback would give 73
      "ALGO jumpback\n"
      "HASH 42 100\n"  // jumpback; jump gives 43
      "ALGO modulo\n"
      "HASH 42 100\n";  // 42; the student kept jump: 43
  const CheckReport report = check(script, "18446744073709551615: 73\n42: 43\n42: 43\n");
  EXPECT_EQ(ids(expected_line(report, 1)), Ids{"other-algorithm"});
  EXPECT_NE(detail(expected_line(report, 1), "other-algorithm").find("jumpback"),
            std::string::npos);
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"other-algorithm"});
  EXPECT_NE(detail(expected_line(report, 2), "other-algorithm").find("jump "), std::string::npos);
  EXPECT_EQ(expected_line(report, 3).expected, "42: 42");
  EXPECT_NE(detail(expected_line(report, 3), "other-algorithm").find("jump "), std::string::npos);
}

TEST(CheckerDiagnosis, UnexplainedWrongValueHasNoDiagnosis) {
  const CheckReport report = check("HASH 42 100\n", "42: 99\n");
  EXPECT_EQ(expected_line(report, 1).verdict, V::wrong_value);
  EXPECT_TRUE(expected_line(report, 1).diagnoses.empty());
  EXPECT_NE(render_check_report(report).find("no known mistake"), std::string::npos);
}

TEST(CheckerDiagnosis, MovedEstimatedRoundedAndTruncated) {
  // 20 keys, 10 -> 11: the estimate is 20/11 = 1.82 (rounded 2, truncated 1).
  const std::string script = "KEYS 1..20\nMOVED 10 11\n";
  std::vector<std::string> lines = lines_of(run_script(script).stdout_text);
  ASSERT_EQ(lines.back(), "moved: 4 of 20");  // counted, as tests/check/student.mjs counts
  for (const std::string count : {"1", "2"}) {
    lines.back() = "moved: " + count + " of 20";
    const CheckReport report = check(script, join(lines));
    const LineVerdict& summary = expected_line(report, report.expected_lines);
    EXPECT_EQ(summary.verdict, V::wrong_value);
    const std::vector<std::string> named = ids(summary);
    EXPECT_NE(std::find(named.begin(), named.end(), "moved-estimated"), named.end()) << count;
  }
  lines.back() = "moved: 3 of 20";
  const CheckReport three = check(script, join(lines));
  const std::vector<std::string> named = ids(expected_line(three, three.expected_lines));
  EXPECT_EQ(std::find(named.begin(), named.end(), "moved-estimated"), named.end());
}

TEST(CheckerDiagnosis, MovedLinesRecomputedWithVariants) {
  // Integer division moves key 2 from 4 to 10 at 10 -> 11 (node), which the
  // right algorithm does not: an extra line, named.
  const std::string script = "KEYS 1..20\nMOVED 10 11\n";
  std::vector<std::string> lines = lines_of(run_script(script).stdout_text);
  lines.insert(lines.begin(), "2: 4 -> 10");
  const CheckReport report = check(script, join(lines));
  ASSERT_EQ(report.lines[0].verdict, V::extra);
  EXPECT_EQ(report.lines[0].script_line, 2u);
  EXPECT_EQ(ids(report.lines[0]), Ids{"integer-division"});
}

TEST(CheckerDiagnosis, MovedSummaryCountedWithVariants) {
  // A whole JS-Number solution moves no key of 1..20 at 10 -> 11.
  const CheckReport report = check("KEYS 1..20\nMOVED 10 11\n", "moved: 0 of 20\n");
  const LineVerdict& summary = expected_line(report, report.expected_lines);
  const std::vector<std::string> named = ids(summary);
  EXPECT_NE(std::find(named.begin(), named.end(), "js-number"), named.end());
  // The missing per-key lines are explained by the variants that also give
  // the student's count.
  const LineVerdict& first = expected_line(report, 1);
  EXPECT_EQ(first.verdict, V::missing);
  const std::vector<std::string> first_ids = ids(first);
  EXPECT_NE(std::find(first_ids.begin(), first_ids.end(), "js-number"), first_ids.end());
}

TEST(CheckerDiagnosis, TraceStepsRecomputedWithVariants) {
  // The exercise's trace of 42: 1: 0, 2: 1, 3: 2, 23: 22, 34: 33, 41: 40, 44: 43, 572: 571.
  // With every n shifted by one the student prints each step one n later.
  const CheckReport report =
      check("TRACE 42 800\n", "2: 0\n3: 1\n4: 2\n24: 22\n35: 33\n42: 40\n45: 43\n573: 571\n");
  EXPECT_EQ(report.expected_lines, 8u);
  for (const LineVerdict& v : report.lines) {
    EXPECT_EQ(v.verdict, V::wrong_value) << v.expected;
    const std::vector<std::string> named = ids(v);
    EXPECT_NE(std::find(named.begin(), named.end(), "off-by-one-n"), named.end()) << v.expected;
  }
  EXPECT_EQ(expected_line(report, 4).expected, "23: 22");
  EXPECT_EQ(expected_line(report, 4).actual, "24: 22");
}

/// The right output of `script` without its lines from `line` (1-based) on.
std::string right_output_before(const std::string& script, std::size_t line) {
  std::vector<std::string> lines = lines_of(run_script(script).stdout_text);
  lines.resize(std::min(lines.size(), line - 1));
  return join(lines);
}

TEST(CheckerNoWrap, OutputStoppingAtHashOf42IsTheHang) {
  // Key 0 ends (state 1); key 42 never does: its first state passes 2^64.
  const std::string script = "HASH 0 100\nHASH 42 100\nHASH 1 100\n";
  const CheckReport report = check(script, "0: 0\n");
  EXPECT_EQ(expected_line(report, 1).verdict, V::match);
  EXPECT_EQ(ids(expected_line(report, 2)), Ids{"no-64-bit-wrap"});
  const std::string text = detail(expected_line(report, 2), "no-64-bit-wrap");
  EXPECT_NE(text.find("jump of key 42 at n = 100, which this HASH needs"), std::string::npos)
      << text;
  EXPECT_NE(text.find("first jump target is 0, below 100"), std::string::npos) << text;
  EXPECT_NE(text.find("2 expected line(s)"), std::string::npos) << text;
  EXPECT_TRUE(expected_line(report, 3).diagnoses.empty());

  // Stopping at HASH 0 100 is not it: key 0 ends.
  const CheckReport at_zero = check(script, "");
  EXPECT_EQ(expected_line(at_zero, 1).verdict, V::missing);
  EXPECT_TRUE(expected_line(at_zero, 1).diagnoses.empty());
  EXPECT_TRUE(expected_line(at_zero, 2).diagnoses.empty());

  // Nor when later lines are there: the program did not hang.
  const CheckReport later = check(script, "0: 0\n1: 6\n");
  EXPECT_EQ(expected_line(later, 2).verdict, V::missing);
  EXPECT_TRUE(expected_line(later, 2).diagnoses.empty());
}

TEST(CheckerNoWrap, OnlyTheFirstLineThatHangsNotAfterALineThatWouldHaveHung) {
  // 42: 43 is right, which the unwrapped loop never prints; the output
  // then stops at 2^64 - 1 for another reason.
  const CheckReport report =
      check("HASH 42 100\nHASH 18446744073709551615 100\n", "42: 43\n");
  EXPECT_EQ(expected_line(report, 2).verdict, V::missing);
  EXPECT_TRUE(expected_line(report, 2).diagnoses.empty());
  // A key at or above 2^63 first in the output is the hang, as any key >= 1 is.
  const CheckReport top = check("HASH 0 5\nTRACE 9223372036854775808 100\n", "0: 0\n");
  EXPECT_EQ(ids(expected_line(top, 2)), Ids{"no-64-bit-wrap"});
}

TEST(CheckerNoWrap, SmallBucketCountsEndForKeysOneToSix) {
  // First jump targets: key 1 -> 6, key 2 -> 3, keys 4..6 -> 1.
  const std::string script = "HASH 1 6\nHASH 2 3\nHASH 5 1\nHASH 2 4\n";
  for (std::size_t stop = 1; stop <= 4; ++stop) {
    SCOPED_TRACE("stop at line " + std::to_string(stop));
    const CheckReport report = check(script, right_output_before(script, stop));
    const LineVerdict& line = expected_line(report, stop);
    EXPECT_EQ(line.verdict, V::missing);
    if (stop < 4) {
      EXPECT_TRUE(line.diagnoses.empty());
    } else {
      EXPECT_EQ(ids(line), Ids{"no-64-bit-wrap"});
      EXPECT_NE(detail(line, "no-64-bit-wrap").find("first jump target is 3, below 4"),
                std::string::npos);
    }
  }
  const CheckReport seven = check("HASH 1 6\nHASH 1 7\n", "1: 0\n");
  EXPECT_EQ(ids(expected_line(seven, 2)), Ids{"no-64-bit-wrap"});
}

TEST(CheckerNoWrap, BucketsStopAtTheFirstKeyThatHangs) {
  // Keys 0, 0 and 3 end at n = 2 (key 3's first target is 2); key 5 does not.
  const std::string script = "KEYS 0 0 3 5 9\nBUCKETS 2\n";
  const CheckReport report = check(script, right_output_before(script, 4));
  const LineVerdict& line = expected_line(report, 4);
  EXPECT_EQ(ids(line), Ids{"no-64-bit-wrap"});
  EXPECT_NE(detail(line, "no-64-bit-wrap")
                .find("key 5 at n = 2, which this BUCKETS needs (the first of its keys that hangs)"),
            std::string::npos)
      << detail(line, "no-64-bit-wrap");
  // A program that computes every bucket before it prints stops at the first line.
  EXPECT_EQ(ids(expected_line(check(script, ""), 1)), Ids{"no-64-bit-wrap"});
  // Not after the line of key 5, which it could not have printed.
  const CheckReport past = check(script, right_output_before(script, 5));
  EXPECT_TRUE(expected_line(past, 5).diagnoses.empty());
}

TEST(CheckerNoWrap, MovedHangsOnTheOldOrTheNewBucketOfAKey) {
  // MOVED 2 3: keys 0..2 end at both counts in bucket 0 (they do not move);
  // key 3 ends at 2 (first target 2) and hangs at 3.
  const std::string script = "HASH 0 9\nKEYS 0 1 2 3 40\nMOVED 2 3\n";
  const CheckReport report = check(script, "0: 0\n");
  const LineVerdict& line = expected_line(report, 2);
  EXPECT_EQ(ids(line), Ids{"no-64-bit-wrap"});
  EXPECT_NE(detail(line, "no-64-bit-wrap").find("key 3 at n = 3, which this MOVED needs"),
            std::string::npos)
      << detail(line, "no-64-bit-wrap");
  EXPECT_NE(detail(line, "no-64-bit-wrap").find("first jump target is 2, below 3"),
            std::string::npos);
  // Only the summary line: key 1 stays in bucket 0 at 5 and 6 and ends;
  // key 42 stays in bucket 43 at 100 and 101 and hangs.
  EXPECT_TRUE(expected_line(check("KEYS 1\nMOVED 5 6\n", ""), 1).diagnoses.empty());
  const CheckReport stays = check("KEYS 42\nMOVED 100 101\n", "");
  const LineVerdict& summary = expected_line(stays, 1);
  EXPECT_EQ(summary.expected, "moved: 0 of 1");
  EXPECT_EQ(ids(summary), Ids{"no-64-bit-wrap"});
  EXPECT_NE(detail(summary, "no-64-bit-wrap").find("key 42 at n = 100"), std::string::npos);
  // Key 1 moves 0 -> 6 from 6 to 7, and hangs at 7.
  const CheckReport moves = check("KEYS 1\nMOVED 6 7\n", "");
  EXPECT_EQ(expected_line(moves, 1).expected, "1: 0 -> 6");
  EXPECT_NE(detail(expected_line(moves, 1), "no-64-bit-wrap").find("key 1 at n = 7"),
            std::string::npos);
  // LOAD counts every key first: its first line.
  EXPECT_EQ(ids(expected_line(check("KEYS 0 9\nLOAD 3\n", ""), 1)), Ids{"no-64-bit-wrap"});
  EXPECT_TRUE(expected_line(check("KEYS 0 1\nLOAD 3\n", ""), 1).diagnoses.empty());
}

bool names(const LineVerdict& v, const std::string& id) {
  const std::vector<std::string> named = ids(v);
  return std::find(named.begin(), named.end(), id) != named.end();
}

TEST(CheckerNoWrap, TraceHangsAtMaxOrAtTheFirstStepPastTheFirstTarget) {
  // Key 3 ends for n <= 2 (bucket 0) and hangs from n = 3 on: a scan over
  // n prints "1: 0" and stops before the step at 3; a walk down from the
  // bucket at max stops before "1: 0". (A missing step after "1: 0" is also
  // explained by the variants whose trace starts the same way.)
  const std::string script = "TRACE 3 10\n";
  EXPECT_EQ(run_script(script).stdout_text, "1: 0\n3: 2\n4: 3\n9: 8\n");
  for (std::size_t stop : {1u, 2u}) {
    const CheckReport report = check(script, right_output_before(script, stop));
    const LineVerdict& line = expected_line(report, stop);
    EXPECT_TRUE(names(line, "no-64-bit-wrap")) << stop;
    EXPECT_NE(detail(line, "no-64-bit-wrap").find("key 3 at n = 10, which this TRACE needs"),
              std::string::npos);
  }
  // "3: 2" needs the bucket at n = 3, which the unwrapped loop never gives.
  EXPECT_FALSE(
      names(expected_line(check(script, right_output_before(script, 3)), 3), "no-64-bit-wrap"));
  // Key 1 up to 6 ends ("1: 0" only).
  EXPECT_TRUE(expected_line(check("TRACE 1 6\n", ""), 1).diagnoses.empty());
  // Key 42 hangs from n = 1: the scan prints nothing either.
  EXPECT_EQ(ids(expected_line(check("TRACE 42 800\n", ""), 1)), Ids{"no-64-bit-wrap"});
  EXPECT_FALSE(names(expected_line(check("TRACE 42 800\n", "1: 0\n"), 2), "no-64-bit-wrap"));
}

TEST(CheckerNoWrap, OnlyJumpAndJumpGuava) {
  const CheckReport guava_report = check("ALGO jump-guava\nHASH 42 100\n", "");
  const LineVerdict& guava = expected_line(guava_report, 1);
  EXPECT_EQ(ids(guava), Ids{"no-64-bit-wrap"});
  EXPECT_NE(detail(guava, "no-64-bit-wrap").find("jump-guava of key 42"), std::string::npos);
  EXPECT_TRUE(expected_line(check("ALGO jumpback\nHASH 42 100\n", ""), 1).diagnoses.empty());
  // A string key hashes to its 64-bit value first, and that hangs.
  const CheckReport text_report = check("HASH \"alice\" 100\n", "");
  const LineVerdict& text = expected_line(text_report, 1);
  EXPECT_EQ(ids(text), Ids{"no-64-bit-wrap"});
  EXPECT_NE(detail(text, "no-64-bit-wrap").find("of key \"alice\""), std::string::npos);
}

// --- node lists -------------------------------------------------------------------

// Ten memcached servers (names with ':'), a quoted name with a space, string
// and numeric keys; the student outputs are what the interpreter prints for
// the same script under another algorithm.
const std::string kNodeServers =
    "NODES 10.0.0.1:11211 10.0.0.2:11211 10.0.0.3:11211 10.0.0.4:11211 10.0.0.5:11211 "
    "10.0.0.6:11211 10.0.0.7:11211 10.0.0.8:11211 10.0.0.9:11211 \"cache 10\"\n";
const std::string kNodeExercise =
    "ALGO rendezvous\n" + kNodeServers +
    "KEYS 1..40 \"alice\" \"bob\"\n"
    "HASH \"carol\"\n"  // 1
    "BUCKETS\n"         // 2..43
    "LOAD\n"            // 44..53
    "MOVED -10.0.0.4:11211\n"
    "REMOVE 10.0.0.4:11211\n"
    "HASH \"carol\"\n"
    "HASH 42\n";

/// The exercise's output with another algorithm in place of rendezvous.
std::string node_output_with(const std::string& algorithm) {
  std::string script = kNodeExercise;
  script.replace(0, std::string("ALGO rendezvous").size(), "ALGO " + algorithm);
  return run_script(script).stdout_text;
}

/// The verdict of the first expected line whose text starts with `prefix`.
const LineVerdict& expected_starting(const CheckReport& report, const std::string& prefix) {
  for (const LineVerdict& v : report.lines) {
    if (v.expected_line != 0 && v.expected.rfind(prefix, 0) == 0) return v;
  }
  static const LineVerdict none{};
  ADD_FAILURE() << "no expected line " << prefix;
  return none;
}

bool names(const LineVerdict& v, const std::string& id, const std::string& text) {
  return detail(v, id).find(text) != std::string::npos;
}

TEST(CheckerNodes, RightOutputMatchesEveryLine) {
  const std::string right = run_script(kNodeExercise).stdout_text;
  const CheckReport report = check(kNodeExercise, right);
  EXPECT_TRUE(report.all_match()) << render_check_report(report);
  EXPECT_GT(report.expected_lines, 55u);
  EXPECT_EQ(expected_line(report, 44).expected.rfind("10.0.0.1:11211: ", 0), 0u);
  EXPECT_EQ(expected_line(report, 53).expected.rfind("cache 10: ", 0), 0u);
  EXPECT_EQ(expected_line(report, 44).command, "LOAD");
}

TEST(CheckerNodes, NodeLinesWithRightNamesAndWrongTextAreWrongFormat) {
  // Node names hold ':' (LOAD's name is before the last ':') and spaces.
  const std::string script = "NODES 10.0.0.1:11211 \"cache 2\"\nKEYS 1\nBUCKETS\nLOAD\n";
  const std::vector<std::string> right = lines_of(run_script(script).stdout_text);
  ASSERT_EQ(right.size(), 3u);
  const std::string node = right[0].substr(3);  // "1: <node>"
  const std::string first_load = right[1], second_load = right[2];
  const std::vector<FormatCase> cases = {
      {script, "1:" + node + "\n" + first_load + "\n" + second_load, "no space after ':'"},
      {script, "1 :\t" + node + "\n" + first_load + "\n" + second_load, "a tab"},
      {script, right[0] + "\n10.0.0.1:11211 :" + first_load.substr(15) + "\n" + second_load,
       "a blank before ':'"},
      {script, right[0] + "\n" + first_load + "\ncache 2:" + second_load.substr(9),
       "no space after ':'"},
  };
  for (const FormatCase& c : cases) {
    SCOPED_TRACE(c.actual);
    const CheckReport report = check(c.script, c.actual + "\n");
    std::size_t wrong = 0;
    for (const LineVerdict& v : report.lines) {
      if (v.verdict == V::match) continue;
      ++wrong;
      EXPECT_EQ(v.verdict, V::wrong_format);
      EXPECT_NE(v.format_problem.find(c.problem), std::string::npos) << v.format_problem;
    }
    EXPECT_EQ(wrong, 1u);
  }
}

TEST(CheckerNodes, WrongMissingExtraAndOutOfOrderNodeLines) {
  std::vector<std::string> lines = lines_of(run_script(kNodeExercise).stdout_text);
  ASSERT_GT(lines.size(), 55u);
  lines[2] = "2: nowhere";                           // expected line 3: wrong value
  lines.erase(lines.begin() + 10);                   // expected line 11: missing
  lines.insert(lines.begin() + 20, "99: 10.0.0.1:11211");  // an extra line
  std::swap(lines[44], lines[45]);                   // two LOAD lines swapped
  const CheckReport report = check(kNodeExercise, join(lines));
  EXPECT_EQ(expected_line(report, 3).verdict, V::wrong_value);
  EXPECT_TRUE(expected_line(report, 3).diagnoses.empty());
  EXPECT_EQ(expected_line(report, 11).verdict, V::missing);
  std::size_t extra = 0, out_of_order = 0;
  for (const LineVerdict& v : report.lines) {
    if (v.verdict == V::extra) {
      ++extra;
      EXPECT_EQ(v.actual, "99: 10.0.0.1:11211");
      EXPECT_EQ(v.command, "BUCKETS");
    }
    if (v.verdict == V::out_of_order) ++out_of_order;
  }
  EXPECT_EQ(extra, 1u);
  EXPECT_EQ(out_of_order, 1u);
  EXPECT_EQ(report.matching + 3, report.expected_lines);
}

TEST(CheckerNodes, KetamaWhereRendezvousWasAskedIsOtherAlgorithm) {
  const CheckReport report = check(kNodeExercise, node_output_with("ketama"));
  const LineVerdict& hash = expected_line(report, 1);
  ASSERT_EQ(hash.verdict, V::wrong_value);
  EXPECT_TRUE(names(hash, "other-algorithm", "ketama gives ")) << detail(hash, "other-algorithm");
  std::size_t wrong = 0, explained = 0;
  for (const LineVerdict& v : report.lines) {
    if (v.verdict != V::wrong_value) continue;
    ++wrong;
    if (names(v, "other-algorithm", "ketama")) ++explained;
  }
  EXPECT_GT(wrong, 20u);
  EXPECT_EQ(explained, wrong);  // every wrong node, count and summary
  // LOAD: ketama's counts, every one of the block.
  const LineVerdict& load = expected_starting(report, "10.0.0.1:11211: ");
  if (load.verdict == V::wrong_value) {
    EXPECT_TRUE(names(load, "other-algorithm", "ketama counts ")) << detail(load, "other-algorithm");
  }
  // MOVED: ketama's moved lines are extra or wrong, each recomputed.
  for (const LineVerdict& v : report.lines) {
    if (v.verdict == V::extra && v.command == "MOVED -10.0.0.4:11211") {
      EXPECT_TRUE(names(v, "other-algorithm", "ketama, the key moves ")) << v.actual;
    }
  }
  // (Both happen to move 5 of the 42 keys here: the summary matches.)
  EXPECT_EQ(expected_starting(report, "moved: ").verdict, V::match);
}

TEST(CheckerNodes, RendezvousWhereJumpIndexesTheListIsOtherAlgorithm) {
  // The script asks for jump on the list; the student used rendezvous.
  std::string script = kNodeExercise;
  script.replace(0, std::string("ALGO rendezvous").size(), "ALGO jump");
  const CheckReport report = check(script, node_output_with("rendezvous"));
  const LineVerdict& hash = expected_line(report, 1);
  ASSERT_EQ(hash.verdict, V::wrong_value);
  EXPECT_TRUE(names(hash, "other-algorithm", "rendezvous gives ")) << detail(hash, "other-algorithm");
  for (const LineVerdict& v : report.lines) {
    EXPECT_TRUE(detail(v, "index-renumbering").empty()) << v.expected;
  }
}

TEST(CheckerNodes, JumpIndexingTheListAfterAMiddleRemovalIsIndexRenumbering) {
  const CheckReport report = check(kNodeExercise, node_output_with("jump"));
  // Before the removal, servers[jump(key, 10)] is just another algorithm.
  const LineVerdict& first = expected_line(report, 1);
  if (first.verdict == V::wrong_value) {
    EXPECT_TRUE(names(first, "other-algorithm", "servers[jump(key, 10)] gives "));
    EXPECT_TRUE(detail(first, "index-renumbering").empty());
  }
  // MOVED -10.0.0.4:11211: most keys move, each one servers[jump] renumbered.
  std::size_t renumbered_moves = 0;
  for (const LineVerdict& v : report.lines) {
    if (v.command != "MOVED -10.0.0.4:11211" || v.verdict == V::match) continue;
    if (v.verdict == V::missing) continue;
    const std::string d = detail(v, "index-renumbering");
    EXPECT_NE(d.find("servers[jump(key, 10)] then servers[jump(key, 9)]"), std::string::npos)
        << v.actual;
    EXPECT_NE(d.find("after removing 10.0.0.4:11211, every server after it has a new index"),
              std::string::npos)
        << d;
    ++renumbered_moves;
  }
  EXPECT_GT(renumbered_moves, 20u);
  const LineVerdict& summary = expected_starting(report, "moved: ");
  EXPECT_EQ(summary.verdict, V::wrong_value);
  EXPECT_TRUE(names(summary, "index-renumbering", "servers[jump(key, 10)] then servers[jump(key, "
                                                  "9)] moves "));
  // HASH after REMOVE: servers[jump(key, 9)].
  const LineVerdict& after = expected_line(report, report.expected_lines);
  EXPECT_EQ(after.command, "HASH 42");
  ASSERT_EQ(after.verdict, V::wrong_value);
  EXPECT_TRUE(names(after, "index-renumbering", "servers[jump(key, 9)] gives "))
      << render_check_report(report);
  const Diagnosis& d = after.diagnoses.back();
  EXPECT_EQ(d.id, "index-renumbering");
  EXPECT_NE(d.explanation.find("renumber"), std::string::npos);
  EXPECT_NE(d.fix.find("memento"), std::string::npos);
}

TEST(CheckerNodes, RemovingTheLastNodeRenumbersNothing) {
  const std::string script = "ALGO rendezvous\n" + kNodeServers +
                             "KEYS 1..200\nREMOVE \"cache 10\"\nBUCKETS\n";
  std::string student_script = script;
  student_script.replace(0, std::string("ALGO rendezvous").size(), "ALGO jump");
  const CheckReport report = check(script, run_script(student_script).stdout_text);
  std::size_t other = 0;
  for (const LineVerdict& v : report.lines) {
    EXPECT_TRUE(detail(v, "index-renumbering").empty()) << v.expected;
    if (names(v, "other-algorithm", "servers[jump(key, 9)] gives ")) ++other;
  }
  EXPECT_GT(other, 100u);
}

TEST(CheckerNodes, MementoWhereRendezvousWasAskedOnNumberedNodes) {
  // A bucket count given to a node-set algorithm means nodes "0".."n-1".
  const std::string script = "ALGO rendezvous\nHASH 42 10\nKEYS 0..99\nMOVED 10 12\n";
  const std::string student = run_script("ALGO memento\nHASH 42 10\nKEYS 0..99\nMOVED 10 12\n")
                                  .stdout_text;
  const CheckReport report = check(script, student);
  EXPECT_FALSE(report.all_match());
  const LineVerdict& summary = expected_starting(report, "moved: ");
  ASSERT_EQ(summary.verdict, V::wrong_value);
  EXPECT_TRUE(names(summary, "other-algorithm", "memento moves ")) << render_check_report(report);
}

TEST(CheckerNodes, StudentFilesAreWhatTheInterpreterPrints) {
  // tests/check/nodes_students.sh ran the CLI; the same here, in-process.
  const std::string script = testing::read_file(testing::data_path("check/nodes.script"));
  auto under = [&](const std::string& algorithm) {
    std::string changed = script;
    const std::size_t at = changed.find("\nALGO rendezvous\n");
    EXPECT_NE(at, std::string::npos);
    changed.replace(at + 1, std::string("ALGO rendezvous").size(), "ALGO " + algorithm);
    return run_script(changed).stdout_text;
  };
  auto student = [](const std::string& name) {
    return testing::read_file(testing::data_path("check/nodes-" + name + ".student"));
  };
  const std::string right = run_script(script).stdout_text;
  EXPECT_EQ(student("right"), right);
  EXPECT_EQ(student("ketama"), under("ketama"));
  EXPECT_EQ(student("jump"), under("jump"));
  std::vector<std::string> formatted = lines_of(right);
  ASSERT_GT(formatted.size(), 18u);
  formatted[1].replace(formatted[1].find(": "), 2, ":\t");
  formatted[17].replace(formatted[17].rfind(": "), 2, ":");
  EXPECT_EQ(formatted[17].rfind("10.0.0.3:11211:", 0), 0u);
  EXPECT_EQ(student("format"), join(formatted));
}

// --- the script's side ----------------------------------------------------------

TEST(Checker, ScriptErrorsAreReported) {
  const CheckReport report = check("HASH 42 0\nHASH 42 100\n", "42: 43\n");
  ASSERT_EQ(report.script_errors.size(), 1u);
  EXPECT_EQ(report.script_errors[0].rfind("line 1: error: ", 0), 0u) << report.script_errors[0];
  EXPECT_EQ(report.expected_lines, 1u);
  EXPECT_EQ(expected_line(report, 1).script_line, 2u);
  EXPECT_NE(render_check_report(report).find("the script itself has errors"), std::string::npos);
}

TEST(Checker, TooManyLinesIsAnError) {
  Result<CheckReport> report = check_output("KEYS 0..999999\nBUCKETS 10\nBUCKETS 10\n", "");
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().find("more than 1000000 lines"), std::string::npos);
}

TEST(CheckerBudget, AHugeScriptEndsAtOnceWithTheBudgetsError) {
  // 10^9 keys: without a budget LOAD would count them all (seconds to
  // minutes); with one it is refused before it runs.
  Result<CheckReport> report =
      check_output("KEYS 0..999999999\nLOAD 10\n", "0: 100000000\n", WorkBudget{1000000, 0});
  ASSERT_FALSE(report.ok());
  const std::string& error = report.error();
  EXPECT_NE(error.find("script line 2 (LOAD 10) passes the work budget"), std::string::npos)
      << error;
  EXPECT_NE(error.find("LOAD over 1000000000 keys and 10 buckets needs 1000000010 lookups"),
            std::string::npos)
      << error;
  EXPECT_NE(error.find("budget of 1000000 lookups"), std::string::npos) << error;
  EXPECT_EQ(error.find("line 2: error:"), std::string::npos) << error;  // said once, as above
}

TEST(CheckerBudget, AtTheBudgetTheCheckRunsAndOneLookupLessIsAnError) {
  // HASH: 1 lookup; BUCKETS over 100 keys: 100.
  const std::string script = "HASH 42 100\nKEYS 0..99\nBUCKETS 10\n";
  const std::string output = run_script(script).stdout_text;
  Result<CheckReport> at_budget = check_output(script, output, WorkBudget{101, 0});
  ASSERT_TRUE(at_budget.ok()) << at_budget.error();
  EXPECT_TRUE(at_budget->all_match());
  EXPECT_EQ(at_budget->expected_lines, 101u);
  Result<CheckReport> below = check_output(script, output, WorkBudget{100, 0});
  ASSERT_FALSE(below.ok());
  EXPECT_NE(below.error().find("script line 3 (BUCKETS 10) passes the work budget"),
            std::string::npos)
      << below.error();
  EXPECT_NE(below.error().find("needs 100 lookups, more than the 99 left"), std::string::npos)
      << below.error();
}

TEST(CheckerBudget, AnOutputBudgetThatTheScriptPassesIsAnError) {
  // "42: 43\n" is 7 bytes; the next line does not fit in 10.
  Result<CheckReport> report =
      check_output("HASH 42 100\nHASH 1 10\n", "42: 43\n1: 6\n", WorkBudget{0, 10});
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().find("script line 2 (HASH 1 10) passes the work budget"),
            std::string::npos)
      << report.error();
  EXPECT_NE(report.error().find("limit of 10 bytes"), std::string::npos) << report.error();
}

TEST(CheckerBudget, ABudgetTheScriptFitsInChangesNothing) {
  // Right lines, wrong values, a script error: the same report with and
  // without a budget.
  const std::string script = kExercise + "HASH 42 0\n";
  std::string output = run_script(script).stdout_text;
  output.replace(output.find("42: 43"), 6, "42: 1");
  output += "extra line\n";
  const CheckReport unbounded = check(script, output);
  Result<CheckReport> bounded = check_output(script, output, WorkBudget{1000000, 1 << 20});
  ASSERT_TRUE(bounded.ok()) << bounded.error();
  EXPECT_EQ(render_check_report(*bounded), render_check_report(unbounded));
  EXPECT_EQ(bounded->matching, unbounded.matching);
  EXPECT_EQ(bounded->expected_lines, unbounded.expected_lines);
  EXPECT_EQ(bounded->script_errors, unbounded.script_errors);
  EXPECT_EQ(unbounded.script_errors.size(), 1u);
  EXPECT_EQ(unbounded.matching + 1, unbounded.expected_lines);
  EXPECT_EQ(expected_line(unbounded, 1).verdict, V::wrong_value);
}

TEST(Checker, RenderNamesLinesVerdictsAndExplainsEachMistakeOnce) {
  const CheckReport report =
      check("HASH 42 100\nHASH 58 1000000\nHASH 42 100\n", "42: 1\n58: 626\n42:43\n");
  const std::string text = render_check_report(report);
  EXPECT_NE(text.find("expected line 1 (script line 1: HASH 42 100): wrong value\n"
                      "  expected: 42: 43\n"
                      "  actual:   42: 1\n"
                      "  js-number: "),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("expected line 3 (script line 3: HASH 42 100): wrong format (no space "
                      "after ':')"),
            std::string::npos)
      << text;
  const std::string paragraph(find_mistake("js-number")->explanation);
  EXPECT_EQ(text.find(paragraph), text.rfind(paragraph));  // once
  EXPECT_NE(text.find(paragraph), std::string::npos);
  const std::string last = "\nchecked: 0 of 3 lines match\n";
  ASSERT_GT(text.size(), last.size());
  EXPECT_EQ(text.substr(text.size() - last.size()), last);
}

TEST(Checker, VerdictIdentifiersAreStable) {
  EXPECT_EQ(verdict_id(V::match), "match");
  EXPECT_EQ(verdict_id(V::wrong_value), "wrong-value");
  EXPECT_EQ(verdict_id(V::wrong_format), "wrong-format");
  EXPECT_EQ(verdict_id(V::missing), "missing");
  EXPECT_EQ(verdict_id(V::extra), "extra");
  EXPECT_EQ(verdict_id(V::out_of_order), "out-of-order");
  EXPECT_EQ(verdict_text(V::missing), "missing line");
}

}  // namespace
}  // namespace jumphash
