// The algorithm registry: stable names and what a user should know of each.
#include "jumphash/algorithms.hpp"

#include <array>
#include <cctype>
#include <string>

namespace jumphash {
namespace {

constexpr std::array<Algorithm, 5> kAlgorithms{{
    {AlgorithmId::jump, "jump", "Jump Consistent Hash",
     "Lamping & Veach, A Fast, Minimal Memory, Consistent Hash Algorithm (2014), arXiv:1406.2294, fig. 1",
     "O(ln n): fewer than ln(n) + 1 loop iterations, each with a floating-point divide", true, false,
     &jump_hash},
    {AlgorithmId::jump_guava, "jump-guava", "Jump Consistent Hash, Guava's variant",
     "Guava 31 Hashing.consistentHash(long, int); Lamping & Veach's algorithm with one divide per step",
     "O(ln n), like jump; differs from jump on about 1 key in 10^7", true, false, &jump_hash_guava},
    {AlgorithmId::jumpback, "jumpback", "JumpBackHash*",
     "Ertl, JumpBackHash (2024), arXiv:2403.18682, Algorithm 6; hash4j jumpBackHashSplitMix64()",
     "O(1): fewer than 5/3 SplitMix64 calls in expectation (eq. 25), integer operations only", true,
     false, &jump_back_hash},
    {AlgorithmId::jumpback_indep, "jumpback-indep", "JumpBackHash with independent streams",
     "Seed 000 (jbh_indep): JumpBackHash with one SplitMix64 stream per interval",
     "O(1) expected; about 1.2-2.2x jumpback", true, false, &jump_back_hash_independent},
    {AlgorithmId::modulo, "modulo", "Modulo (key % n)",
     "The baseline every consistent hash is measured against",
     "O(1): one 64-bit division; growing n to n+1 moves n/(n+1) of the keys", false, false,
     &modulo_hash},
}};

bool equals_ignoring_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  }
  return true;
}

}  // namespace

std::span<const Algorithm> algorithms() { return kAlgorithms; }

std::string algorithm_names() {
  std::string names;
  for (const Algorithm& algorithm : kAlgorithms) {
    if (!names.empty()) names += ", ";
    names += algorithm.name;
  }
  return names;
}

Result<const Algorithm*> find_algorithm(std::string_view name) {
  for (const Algorithm& algorithm : kAlgorithms) {
    if (equals_ignoring_case(algorithm.name, name)) return &algorithm;
  }
  return fail("unknown algorithm '", std::string(name), "' (known: ", algorithm_names(), ")");
}

Result<std::int32_t> check_bucket_count(std::int64_t n, std::string_view what, std::int64_t max) {
  if (n < 1 || n > max) {
    return fail(std::string(what), " must be an integer in 1..", std::to_string(max), " (got '",
                std::to_string(n), "')");
  }
  return static_cast<std::int32_t>(n);
}

Result<std::int32_t> Algorithm::bucket(std::uint64_t key, std::int64_t n) const {
  Result<std::int32_t> checked = check_bucket_count(n);
  if (!checked) return checked;
  return function(key, *checked);
}

}  // namespace jumphash
