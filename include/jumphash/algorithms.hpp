// The algorithms and their registry: the one list of algorithms, read by the
// CLI's help and errors, the interpreter, the checker and the bindings.
//
// Bucket-count algorithms map a 64-bit key and a bucket count n in
// 1..2147483647 to a bucket in [0, n); they are pure functions (no state,
// safe to share), one header each under jumphash/algorithms/. Their raw
// functions take n already checked (1 <= n <= kMaxBuckets); callers that hold
// unchecked input go through `Algorithm::bucket`, which reports a bad n as an
// Error instead of returning -1 (what the paper's code does for n <= 0) or
// looping forever. Node-set algorithms build a Placement from a node list
// (jumphash/nodes.hpp), one file each under src/algorithms/.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>

#include "jumphash/limits.hpp"
#include "jumphash/nodes.hpp"
#include "jumphash/result.hpp"

namespace jumphash {

// kMaxBuckets: in jumphash/limits.hpp, the one table of limits.

using BucketFunction = std::int32_t (*)(std::uint64_t key, std::int32_t n);

/// Stable identifiers; their order is the registry's order: the five
/// bucket-count algorithms first, then the node-set ones.
enum class AlgorithmId {
  jump,
  jump_guava,
  jumpback,
  jumpback_indep,
  modulo,
  ketama,
  libketama,
  nginx,
  groupcache,
  rendezvous,
  envoy_ring,
  maglev,
  memento,
  memento_java,
};

/// The two kinds of algorithm (as hash4j has ConsistentBucketHasher and
/// ConsistentBucketSetHasher):
///  - bucket_count: a pure function bucket(key, n) -> 0..n-1. On a node list
///    it indexes the list, servers[bucket(key, count)], so removing a middle
///    node renumbers every node after it.
///  - node_set: builds a Placement from a node list (names and weights) and
///    maps key bytes to a node. A bucket count n means nodes "0".."n-1".
enum class AlgorithmKind { bucket_count, node_set };

/// "bucket-count" or "node-set".
std::string_view kind_name(AlgorithmKind kind);

/// One registry entry: the algorithm and what a user should know about it.
/// Each algorithm's entry lives in the file of its body.
struct Algorithm {
  AlgorithmId id;
  AlgorithmKind kind;
  std::string_view name;           ///< stable name used by ALGO, URLs, the API
  std::string_view title;          ///< human-readable name
  std::string_view paper;          ///< where it comes from (paper, library and version)
  std::string_view expected_cost;  ///< expected work per lookup
  std::string_view memory;         ///< state it keeps, in words
  bool consistent;                 ///< growing moves only the keys the new bucket/node must take
  bool removes_any_bucket;         ///< can drop any node (not just the last) moving only its keys
  bool weights;                    ///< honours node weights (others ignore them)
  BucketFunction function = nullptr;  ///< bucket_count: unchecked; see the preconditions above
  PlacementBuilder build = nullptr;   ///< node_set: builds the structure for a node list
  std::span<const OptionSpec> options = {};  ///< node_set options (ALGO name opt=value)
  /// node_set: the structure depends on the order of edits, not only on the
  /// resulting list (memento's replacement table), so a cluster is rebuilt
  /// by replaying the list and every edit since.
  bool keeps_history = false;

  /// The bucket of `key` among `n` buckets, or an Error when n is outside
  /// 1..2147483647 or the algorithm is not of kind bucket_count.
  Result<std::int32_t> bucket(std::uint64_t key, std::int64_t n) const;
};

/// All algorithms, in the order of AlgorithmId: the bucket-count ones
/// (jump, jump-guava, jumpback, jumpback-indep, modulo) first.
std::span<const Algorithm> algorithms();

/// The leading bucket-count part of algorithms(): every entry has a
/// `function`.
std::span<const Algorithm> bucket_count_algorithms();

/// The algorithm called `name` (exact, case-insensitive), or an Error that
/// lists the known names.
Result<const Algorithm*> find_algorithm(std::string_view name);

/// Every name, comma-separated, in registry order.
std::string algorithm_names();

/// Checks a bucket count: Error "bucket count must be an integer in
/// 1..2147483647" (with `what` in place of "bucket count") otherwise.
Result<std::int32_t> check_bucket_count(std::int64_t n, std::string_view what = "bucket count",
                                        std::int64_t max = kMaxBuckets);

}  // namespace jumphash

/// What the bucket-count algorithms' entries say of their state.
namespace jumphash {
inline constexpr std::string_view kNoState = "none: a pure function of the key and n";
}  // namespace jumphash

// The bucket-count algorithms, one file each (body and registry entry).
#include "jumphash/algorithms/jump_back_hash.hpp"
#include "jumphash/algorithms/jump_back_hash_independent.hpp"
#include "jumphash/algorithms/jump_hash.hpp"
#include "jumphash/algorithms/jump_hash_guava.hpp"
#include "jumphash/algorithms/modulo_hash.hpp"

namespace jumphash {

/// Calls `visitor` with a stateless callable equivalent to a bucket-count
/// algorithm's function, so that templated report loops inline the lookup instead of
/// calling through a pointer.
template <class Visitor>
decltype(auto) visit_algorithm(AlgorithmId id, Visitor&& visitor) {
  switch (id) {
    case AlgorithmId::jump:
      return visitor([](std::uint64_t k, std::int32_t n) { return jump_hash(k, n); });
    case AlgorithmId::jump_guava:
      return visitor([](std::uint64_t k, std::int32_t n) { return jump_hash_guava(k, n); });
    case AlgorithmId::jumpback:
      return visitor([](std::uint64_t k, std::int32_t n) { return jump_back_hash(k, n); });
    case AlgorithmId::jumpback_indep:
      return visitor(
          [](std::uint64_t k, std::int32_t n) { return jump_back_hash_independent(k, n); });
    default:  // modulo (visit only bucket-count algorithms)
      break;
  }
  return visitor([](std::uint64_t k, std::int32_t n) { return modulo_hash(k, n); });
}

}  // namespace jumphash
