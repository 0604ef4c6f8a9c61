// The classic wrong ways to compute jump hash, as exact functions, and the
// catalog of mistakes the exercise checker (jumphash/checker.hpp) names.
//
// Each variant here is defined once and used by the checker to recompute a
// student's line: when a variant reproduces the student's number exactly, the
// checker names it. They live next to the algorithms (jumphash/algorithms.hpp)
// because they are the same loops with one thing changed.
//
// Like the algorithms, these are pure functions of (key, n) with
// 1 <= n <= kMaxBuckets (2147483647); none of them can loop forever there.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>
#include <string_view>

namespace jumphash {

/// JumpHash as JavaScript computes it with Numbers (IEEE doubles, round to
/// nearest) instead of 64-bit integers, operation for operation:
///
///   s = Number(key); b = -1; j = 0;
///   while (j < n) {
///     b = j;
///     s = (s * 2862933555777941757 + 1) % 18446744073709551616;
///     j = Math.floor((b + 1) / ((Math.floor(s / 8589934592) + 1) / 2147483648));
///   }
///   return b;
///
/// `Number(key)` rounds keys above 2^53 (2^64 - 1 becomes 2^64); the literal
/// 2862933555777941757 is itself rounded to the nearest double
/// (2862933555777941504); `%` on Numbers is C's fmod (exact). The product
/// and the +1 are rounded separately (two statements, so no compiler may
/// fuse them into one FMA). Terminates: s stays in [0, 2^64), so the divisor
/// is in (0, 1] and j >= b + 1. Checked against node in
/// tests/reference/js_number.mjs. Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t jump_hash_js_number(std::uint64_t key, std::int32_t n) {
  constexpr double kMultiplier = 2862933555777941757.0;  // rounds like the JS literal
  constexpr double kTwo64 = 18446744073709551616.0;
  double s = static_cast<double>(key);  // round to nearest, ties to even, as Number(BigInt)
  double b = -1;
  double j = 0;
  const double limit = static_cast<double>(n);
  while (j < limit) {
    b = j;
    const double product = s * kMultiplier;
    const double sum = product + 1.0;
    s = std::fmod(sum, kTwo64);
    const double top = std::floor(s / 8589934592.0) + 1.0;  // 2^33; exact
    const double r = top / 2147483648.0;                    // 2^31; exact
    j = std::floor((b + 1.0) / r);
  }
  return static_cast<std::int32_t>(b);
}

/// The paper's loop with the 64-bit wrap right but the factor
/// 2^31 / ((key >> 33) + 1) computed as an integer division, so
/// j = (b + 1) * floor(2^31 / ((key >> 33) + 1)) in 64-bit integers.
/// (key >> 33) + 1 is in 1..2^31, so the quotient is in 1..2^31, j >= b + 1
/// (the loop ends) and j <= 2^62 (no overflow).
/// Precondition: 1 <= n <= kMaxBuckets.
inline std::int32_t jump_hash_integer_division(std::uint64_t key, std::int32_t n) {
  std::int64_t b = -1, j = 0;
  while (j < n) {
    b = j;
    key = key * 2862933555777941757ULL + 1;
    const auto quotient = static_cast<std::int64_t>((std::uint64_t{1} << 31) / ((key >> 33) + 1));
    j = (b + 1) * quotient;
  }
  return static_cast<std::int32_t>(b);
}

/// How far jump hash gets without the 64-bit wrap: the state an unbounded
/// integer (Python ints, a JavaScript BigInt never masked with
/// BigInt.asUintN) in the paper's loop
///
///   b = -1; j = 0;
///   while (j < n) { b = j; key = key * 2862933555777941757 + 1;
///                   j = floor((b + 1) * 2^31 / ((key >> 33) + 1)); }
///
/// Returns the first jump target, computed exactly (no wrap):
/// j1 = floor(2^31 / (((key * 2862933555777941757 + 1) >> 33) + 1)). The
/// loop ends, with bucket 0 (the wrapped loop's answer too, as the first
/// state is then below 2^64), exactly when n <= j1, and never ends when
/// n > j1:
/// - key 0: the state is 1, j1 = 2^31, above every n in 1..kMaxBuckets;
/// - key >= 1: the state is at least 2862933555777941758 (about 2^61.3), so
///   j1 <= 6 (keys 1..6 give 6, 3, 2, 1, 1, 1); from key 7 up it is at
///   least 2^64 and j1 = 0;
/// - when j1 < n, the second state exceeds 2^122, so the target is below
///   7 * 2^-58 and j = 0 (b = 0); the state only grows, j stays 0 < n.
/// So the loop never ends for any key >= 1 once n >= 7. In doubles (C's
/// `(b + 1) * (2^31 / (double)...)`, Python's true division) the first
/// target is the same: 2^31 / m for an integer m <= 2^31 is either an
/// integer or at least 2^-31 from one, far more than the rounding error.
/// The same holds for Guava's single division (jump-guava). Checked
/// against an exact simulation in tests/checker_test.cpp.
inline std::uint64_t unwrapped_jump_first_target(std::uint64_t key) {
  constexpr std::uint64_t kMultiplier = 2862933555777941757ULL;
  // 6 * kMultiplier + 1 < 2^64 <= 7 * kMultiplier: the first state fits in
  // 64 bits exactly for keys 0..6, and reaches 2^64 or more from key 7 up.
  static_assert(kMultiplier <= (UINT64_MAX - 1) / 6 && kMultiplier > UINT64_MAX / 7);
  if (key >= 7) return 0;  // state >= 2^64: (state >> 33) + 1 > 2^31
  const std::uint64_t state = key * kMultiplier + 1;
  return (std::uint64_t{1} << 31) / ((state >> 33) + 1);
}

/// Whether jump hash without the 64-bit wrap never returns for (key, n):
/// n > unwrapped_jump_first_target(key). True for every key >= 1 when
/// n >= 7; false for key 0. Any n >= 1.
inline bool unwrapped_jump_hangs(std::uint64_t key, std::int64_t n) {
  return n > 0 && static_cast<std::uint64_t>(n) > unwrapped_jump_first_target(key);
}

/// The key after a round trip through a double: the nearest double (ties to
/// even), then modulo 2^64, as when a key is parsed as a JavaScript Number or
/// a JSON number and converted back. Keys up to 2^53 come back unchanged;
/// 18446744073709551615 rounds to 2^64 and wraps to 0.
inline std::uint64_t key_through_double(std::uint64_t key) {
  const double d = static_cast<double>(key);
  if (d >= 18446744073709551616.0) return 0;  // only 2^64 itself; 2^64 mod 2^64
  return static_cast<std::uint64_t>(d);
}

/// One kind of mistake (or explained difference) the checker can name.
struct MistakeInfo {
  std::string_view id;           ///< stable identifier, printed and used by the page
  std::string_view explanation;  ///< one paragraph: what went wrong and why it gives this number
  std::string_view fix;          ///< what to change
};

/// The catalog, in the order the checker lists diagnoses.
inline constexpr MistakeInfo kMistakes[] = {
    {"no-64-bit-wrap",
     "The output stops where jump hash would never return without the 64-bit wrap: the "
     "program most likely hangs there. When the step key = key * 2862933555777941757 + 1 is "
     "not wrapped at 64 bits (Python integers, JavaScript BigInt without a mask, a language "
     "that widens on overflow), the state grows without bound, and it goes wrong at the first "
     "step: for any key from 1 up the state is at least 2862933555777941758 (about 2^61.3), "
     "so the first jump target 2^31 / ((key >> 33) + 1) is at most 6 (and 0 from key 7 up, "
     "where the state passes 2^64). Unless n is at most that target (6 for key 1, 3 for key "
     "2, 2 for key 3, 1 for keys 4 to 6), the second step takes the state past 2^122, the "
     "factor falls below 2^-58, j becomes 0, and as the state only grows j stays 0: the loop "
     "`while (j < n)` never ends. Only key 0 (state 1) finishes for every n, and where the "
     "loop does end its bucket is right.",
     "Wrap after every step: `key = (key * 2862933555777941757 + 1) & 0xFFFFFFFFFFFFFFFF` in "
     "Python, `BigInt.asUintN(64, key * 2862933555777941757n + 1n)` in JavaScript, "
     "`wrapping_mul`/`wrapping_add` in Rust, `uint64_t` in C and C++, `uint64` in Go."},
    {"js-number",
     "The hash was computed with JavaScript Numbers (IEEE doubles) instead of 64-bit integers. "
     "A double keeps 53 significant bits: Number(key) rounds keys above 2^53, the constant "
     "2862933555777941757 itself becomes 2862933555777941504, and s * 2862933555777941757 is "
     "rounded before the modulo, so the +1 and the low bits are lost. The loop still ends, but "
     "the state is no longer the generator's state, its top bits choose different jumps, and "
     "most keys land in a different bucket.",
     "Keep the state a 64-bit integer: in JavaScript a BigInt, "
     "`s = BigInt.asUintN(64, s * 2862933555777941757n + 1n)`, parse the key with BigInt(text), "
     "and turn only the top bits into a Number: `Number(s >> 33n) + 1`."},
    {"integer-division",
     "The factor 2^31 / ((key >> 33) + 1) was computed as an integer division, which throws "
     "away its fraction before it is multiplied by b + 1. The jump targets come out smaller "
     "than the paper's, so the key stops at a different bucket.",
     "Divide in floating point and truncate only the product: "
     "`j = (int64_t)((b + 1) * ((double)(1LL << 31) / (double)((key >> 33) + 1)))`."},
    {"key-as-double",
     "The key went through a double before it was hashed, as when it is parsed as a JavaScript "
     "Number, a JSON number or a float. A double holds 53 significant bits, so keys above 2^53 "
     "round to a nearby multiple of a power of two, and 18446744073709551615 rounds to 2^64, "
     "which wraps to 0. The right algorithm on a different key gives a different bucket.",
     "Parse keys as unsigned 64-bit integers and never pass them through a double: BigInt(text) "
     "in JavaScript (and a JSON parser that keeps big integers as text), int(text) in Python, "
     "strtoull in C, Long.parseUnsignedLong in Java."},
    {"off-by-one-n",
     "The right algorithm gives this number for n - 1 or n + 1 buckets (for TRACE: up to max - 1 "
     "or max + 1), so the bucket count was shifted by one somewhere: a loop bound written "
     "`j <= n`, a count passed as n - 1, or buckets numbered from 1.",
     "Pass the bucket count exactly as the command gives it; the loop is `while (j < n)` and "
     "buckets are numbered 0..n-1 (TRACE includes max itself)."},
    {"guava-rounding",
     "Not a mistake in the idea: this is the value of Guava's Hashing.consistentHash (the "
     "jump-guava algorithm) where the paper's C code was asked for, or the other way round. "
     "Guava divides once, (b + 1) / (((int)(state >>> 33) + 1) / 2^31), where the paper "
     "divides twice, (b + 1) * (2^31 / ((state >> 33) + 1)); the two roundings differ on about "
     "one key in 10^7. Guava's `(int)(state >>> 33) + 1` also overflows to -2^31 when the top "
     "31 bits are all ones, which ends its loop early.",
     "Follow the algorithm the script selects: for `jump`, compute "
     "`(b + 1) * (2^31 / ((key >> 33) + 1))` in doubles exactly as the paper's code does; for "
     "`jump-guava`, Guava's single division and its int overflow."},
    {"other-algorithm",
     "Another algorithm of the registry gives exactly this value, so the program computes a "
     "different algorithm from the one the script selects (ALGO sets it for the lines after "
     "it; the default is jump).",
     "Check which algorithm is in effect at this line (the last ALGO before it, else jump) and "
     "compute that one."},
    {"index-renumbering",
     "The servers were picked as servers[bucket(key, number of servers)] with a bucket-count "
     "algorithm such as jump, after a server was removed from the middle of the list. Jump "
     "hash only lets the last bucket go: removing a middle server renumbers every server after "
     "it (each moves down one index), so the keys of all those servers move (most keys, not "
     "just the removed server's), the pitfall the articles on consistent hashing warn about. "
     "The script places keys with a node-set algorithm, which removes any node and moves only "
     "its keys.",
     "Compute the algorithm the script selects: one that removes any node (memento, "
     "rendezvous, a ring such as ketama or maglev) keeps the other servers' keys in place. If "
     "you use jump, keep its bucket numbering and map buckets to servers through a table "
     "that you update in place (give the removed server's bucket to the last server and "
     "shrink by one), never by renumbering the list."},
    {"moved-estimated",
     "The moved count equals the theoretical estimate total x |to - from| / max(from, to) "
     "(rounded or truncated) rather than the number of keys that actually moved. The estimate "
     "is an expectation; a real set of keys moves a few more or a few less.",
     "Count: for every key, compare its bucket at `from` with its bucket at `to`, and print how "
     "many differ."},
};

/// The catalog entry with identifier `id`, or nullptr.
inline const MistakeInfo* find_mistake(std::string_view id) {
  for (const MistakeInfo& info : kMistakes) {
    if (info.id == id) return &info;
  }
  return nullptr;
}

}  // namespace jumphash
