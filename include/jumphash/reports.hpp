// Reports built on the hash: which keys move when n changes (MOVED), how
// many keys each bucket holds (LOAD), and a key's jump history (TRACE).
//
// Reports produce rows (plain structs or callbacks); the interpreter renders
// them as text, the WebAssembly API hands them to the page's charts. Each
// report can run over a slice [begin, end) of a key set so that a caller can
// show progress and cancel between slices.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/keys.hpp"

namespace jumphash {

/// Largest bucket count of a LOAD report (one counter per bucket).
inline constexpr std::int64_t kMaxLoadBuckets = 1000000;
/// Largest `max` of a TRACE with a non-consistent algorithm (modulo), whose
/// bucket changes at almost every n.
inline constexpr std::int64_t kMaxModuloTrace = 1000000;
/// Largest from x to of the source -> destination matrix a resize keeps.
inline constexpr std::uint64_t kMaxFlowCells = std::uint64_t{1} << 22;

/// Calls on_moved(value, label, old_bucket, new_bucket) for each key of
/// keys[begin, end) whose bucket differs between n = from and n = to, in
/// order, and returns how many keys moved. from and to must be checked.
template <class OnMoved>
std::uint64_t for_each_moved(const Algorithm& algorithm, const KeySet& keys, std::int32_t from,
                             std::int32_t to, std::uint64_t begin, std::uint64_t end,
                             OnMoved&& on_moved) {
  return visit_algorithm(algorithm.id, [&](auto bucket_of) {
    std::uint64_t moved = 0;
    keys.for_each(begin, end, [&](std::uint64_t key, const std::string* label) {
      const std::int32_t old_bucket = bucket_of(key, from);
      const std::int32_t new_bucket = bucket_of(key, to);
      if (old_bucket != new_bucket) {
        ++moved;
        on_moved(key, label, old_bucket, new_bucket);
      }
    });
    return moved;
  });
}

/// Adds the number of keys of keys[begin, end) in each bucket among n to
/// loads[0..n) (loads.size() must be n; n must be checked).
void add_loads(const Algorithm& algorithm, const KeySet& keys, std::int32_t n, std::uint64_t begin,
               std::uint64_t end, std::vector<std::uint64_t>& loads);

/// Balance of a load vector against the uniform expectation total / n.
struct LoadStats {
  std::uint64_t total = 0;
  std::uint64_t min = 0;
  std::uint64_t max = 0;
  double mean = 0;
  double max_over_mean = 0;              ///< 0 when there are no keys
  double chi_square = 0;                 ///< Pearson's chi-square against uniform
  std::uint64_t degrees_of_freedom = 0;  ///< n - 1
};
LoadStats load_stats(const std::vector<std::uint64_t>& loads);

/// One row of TRACE: at bucket count `n` the key moves to `bucket`.
struct TraceStep {
  std::int64_t n;
  std::int32_t bucket;
};

/// The bucket counts n in 1..max at which the key's bucket differs from its
/// bucket at n - 1 (n = 1 always included), in increasing n. Consistent
/// algorithms walk the active indices backwards (ch(k, b) for the previous
/// answer b), so max may be 2147483647; modulo, which changes at almost every
/// n, allows max up to 1000000. Errors: max outside those ranges.
Result<std::vector<TraceStep>> trace_key(const Algorithm& algorithm, std::uint64_t key,
                                         std::int64_t max);

/// One moved key of a resize, for the sample of moved keys.
struct MovedKey {
  std::uint64_t value;
  std::string label;  ///< empty for numeric keys
  std::int32_t old_bucket;
  std::int32_t new_bucket;
};

/// The structured resize report behind the page's Resize view: moved count,
/// loads before and after, the source -> destination count matrix and the
/// first moved keys. Feed it key slices with `add`; it keeps no key list.
class ResizeReport {
 public:
  /// Errors: from or to outside 1..2147483647, or loads that would not fit
  /// (from or to above kMaxLoadBuckets).
  static Result<ResizeReport> create(const Algorithm& algorithm, std::int64_t from, std::int64_t to,
                                     std::size_t sample_limit);

  /// Accounts for keys[begin, end).
  void add(const KeySet& keys, std::uint64_t begin, std::uint64_t end);

  const Algorithm& algorithm() const { return *algorithm_; }
  std::int32_t from() const { return from_; }
  std::int32_t to() const { return to_; }
  std::uint64_t total() const { return total_; }
  std::uint64_t moved() const { return moved_; }
  /// The fewest keys any scheme must move: those that cannot stay, in
  /// expectation total x |to - from| / max(from, to).
  double minimum_moved_expected() const;
  const std::vector<std::uint64_t>& loads_before() const { return before_; }
  const std::vector<std::uint64_t>& loads_after() const { return after_; }
  /// Row-major from x to matrix: flows()[old * to + new] keys went from
  /// bucket old to bucket new (staying keys on the diagonal). Empty when
  /// from x to exceeds kMaxFlowCells.
  const std::vector<std::uint64_t>& flows() const { return flows_; }
  bool has_flows() const { return !flows_.empty(); }
  const std::vector<MovedKey>& sample() const { return sample_; }

  /// Chi-square of where the moved keys of `source` went, against uniform
  /// over the buckets they may go to: the new buckets from..to-1 when
  /// growing, the surviving buckets 0..to-1 when shrinking, any other bucket
  /// for non-consistent algorithms. dof = destinations - 1; both 0 when the
  /// source moved no key or the matrix was not kept.
  struct FlowBalance {
    std::uint64_t moved_out = 0;
    double chi_square = 0;
    std::uint64_t degrees_of_freedom = 0;
  };
  FlowBalance flow_balance(std::int32_t source) const;

 private:
  ResizeReport(const Algorithm& algorithm, std::int32_t from, std::int32_t to,
               std::size_t sample_limit);
  const Algorithm* algorithm_;
  std::int32_t from_, to_;
  std::size_t sample_limit_;
  std::uint64_t total_ = 0, moved_ = 0;
  std::vector<std::uint64_t> before_, after_, flows_;
  std::vector<MovedKey> sample_;
};

// ---- reports on node lists ----------------------------------------------------

/// For each node of `before`, its index in `after` (matched by name), or -1
/// when the node is gone.
std::vector<std::int64_t> node_index_map(const NodeList& before, const NodeList& after);

/// Calls on_moved(value, label, old_index, new_index) for each key of
/// keys[begin, end) whose node (by name) differs between the clusters
/// `before` and `after` (indices into their nodes()), in order, and returns
/// how many keys moved.
template <class OnMoved>
std::uint64_t for_each_moved_node(const Cluster& before, const Cluster& after, const KeySet& keys,
                                  std::uint64_t begin, std::uint64_t end, OnMoved&& on_moved) {
  const std::vector<std::int64_t> map = node_index_map(before.nodes(), after.nodes());
  std::uint64_t moved = 0;
  keys.for_each_key(begin, end, [&](std::uint64_t value, const Key* key) {
    const std::uint32_t old_node = before.locate(value, key);
    const std::uint32_t new_node = after.locate(value, key);
    if (map[old_node] != static_cast<std::int64_t>(new_node)) {
      ++moved;
      on_moved(value, key ? &key->label : nullptr, old_node, new_node);
    }
  });
  return moved;
}

/// Adds the number of keys of keys[begin, end) on each node of `cluster` to
/// loads[0..nodes) (loads.size() must be cluster.nodes().size()).
void add_node_loads(const Cluster& cluster, const KeySet& keys, std::uint64_t begin,
                    std::uint64_t end, std::vector<std::uint64_t>& loads);

/// Each node's share of the keys that a perfect scheme gives it: weight /
/// total weight for algorithms that honour weights, 1 / nodes otherwise.
std::vector<double> ideal_shares(const Cluster& cluster);

/// The fewest keys any scheme must move from `before` to `after`, as a
/// fraction: the share that nodes lose (gone nodes lose all of theirs),
/// sum over nodes of max(0, share before - share after).
double minimum_moved_fraction(const Cluster& before, const Cluster& after);

/// One moved key of a node resize.
struct MovedNodeKey {
  std::uint64_t value;
  std::string label;       ///< empty for numeric keys
  std::uint32_t old_node;  ///< index into the before list
  std::uint32_t new_node;  ///< index into the after list
};

/// The structured report of a change to a node list: moved count against
/// the fewest possible, loads per node before and after, the old-node ->
/// new-node flow matrix (the migration plan) and the first moved keys.
class NodeResizeReport {
 public:
  /// `before` and `after` must use the same algorithm.
  NodeResizeReport(Cluster before, Cluster after, std::size_t sample_limit);

  /// Accounts for keys[begin, end).
  void add(const KeySet& keys, std::uint64_t begin, std::uint64_t end);

  const Cluster& before() const { return before_; }
  const Cluster& after() const { return after_; }
  std::uint64_t total() const { return total_; }
  std::uint64_t moved() const { return moved_; }
  /// total x minimum_moved_fraction(before, after).
  double minimum_moved_expected() const;
  const std::vector<std::uint64_t>& loads_before() const { return loads_before_; }
  const std::vector<std::uint64_t>& loads_after() const { return loads_after_; }
  /// Row-major before x after matrix: flows()[old * after_nodes + new] keys
  /// went from node old to node new (a surviving node's staying keys on its
  /// own cell). Empty when the matrix would exceed kMaxFlowCells.
  const std::vector<std::uint64_t>& flows() const { return flows_; }
  const std::vector<MovedNodeKey>& sample() const { return sample_; }

 private:
  Cluster before_, after_;
  std::vector<std::int64_t> map_;
  std::size_t sample_limit_;
  std::uint64_t total_ = 0, moved_ = 0;
  std::vector<std::uint64_t> loads_before_, loads_after_, flows_;
  std::vector<MovedNodeKey> sample_;
};

}  // namespace jumphash
