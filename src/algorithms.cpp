// The algorithm registry: stable names and what a user should know of each.
#include "jumphash/algorithms.hpp"

#include <array>
#include <cctype>
#include <string>

#include "algorithms/node_set_algorithms.hpp"

namespace jumphash {
namespace {

constexpr std::string_view kNoState = "none: a pure function of the key and n";

constexpr std::array<Algorithm, 5> kBucketCountAlgorithms{{
    {AlgorithmId::jump, AlgorithmKind::bucket_count, "jump", "Jump Consistent Hash",
     "Lamping & Veach, A Fast, Minimal Memory, Consistent Hash Algorithm (2014), arXiv:1406.2294, "
     "fig. 1",
     "O(ln n): fewer than ln(n) + 1 loop iterations, each with a floating-point divide", kNoState,
     true, false, false, &jump_hash},
    {AlgorithmId::jump_guava, AlgorithmKind::bucket_count, "jump-guava",
     "Jump Consistent Hash, Guava's variant",
     "Guava 31 Hashing.consistentHash(long, int); Lamping & Veach's algorithm with one divide per "
     "step",
     "O(ln n), like jump; differs from jump on about 1 key in 10^7", kNoState, true, false, false,
     &jump_hash_guava},
    {AlgorithmId::jumpback, AlgorithmKind::bucket_count, "jumpback", "JumpBackHash*",
     "Ertl, JumpBackHash (2024), arXiv:2403.18682, Algorithm 6; hash4j jumpBackHashSplitMix64()",
     "O(1): fewer than 5/3 SplitMix64 calls in expectation (eq. 25), integer operations only",
     kNoState, true, false, false, &jump_back_hash},
    {AlgorithmId::jumpback_indep, AlgorithmKind::bucket_count, "jumpback-indep",
     "JumpBackHash with independent streams",
     "JumpBackHash with one SplitMix64 stream per interval, from the article JumpBackHash: "
     "Constant-Time Consistent Hashing by Walking Active Indices Backwards",
     "O(1) expected; about 1.2-2.2x jumpback", kNoState, true, false, false,
     &jump_back_hash_independent},
    {AlgorithmId::modulo, AlgorithmKind::bucket_count, "modulo", "Modulo (key % n)",
     "The baseline every consistent hash is measured against",
     "O(1): one 64-bit division; growing n to n+1 moves n/(n+1) of the keys", kNoState, false,
     false, false, &modulo_hash},
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

/// Every algorithm: the bucket-count ones, then the node-set ones (each
/// defined in its own file under src/algorithms/). Built on first use, so
/// the entries of the other files are initialised by then.
const std::array<Algorithm, 14>& registry() {
  static const std::array<Algorithm, 14> all{
      kBucketCountAlgorithms[0], kBucketCountAlgorithms[1], kBucketCountAlgorithms[2],
      kBucketCountAlgorithms[3], kBucketCountAlgorithms[4], node_set::kKetama,
      node_set::kLibketama,      node_set::kNginx,          node_set::kGroupcache,
      node_set::kRendezvous,     node_set::kEnvoyRing,      node_set::kMaglev,
      node_set::kMemento,        node_set::kMementoJava};
  return all;
}

}  // namespace

std::string_view kind_name(AlgorithmKind kind) {
  return kind == AlgorithmKind::bucket_count ? "bucket-count" : "node-set";
}

std::span<const Algorithm> algorithms() { return registry(); }

std::span<const Algorithm> bucket_count_algorithms() {
  return std::span<const Algorithm>(registry()).first(kBucketCountAlgorithms.size());
}

std::string algorithm_names() {
  std::string names;
  for (const Algorithm& algorithm : algorithms()) {
    if (!names.empty()) names += ", ";
    names += algorithm.name;
  }
  return names;
}

Result<const Algorithm*> find_algorithm(std::string_view name) {
  for (const Algorithm& algorithm : algorithms()) {
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
  if (kind != AlgorithmKind::bucket_count) {
    return fail(std::string(name), " places keys on named nodes, not on a bucket count alone");
  }
  Result<std::int32_t> checked = check_bucket_count(n);
  if (!checked) return checked;
  return function(key, *checked);
}

}  // namespace jumphash
