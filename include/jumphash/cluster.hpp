// A cluster: a node list placed by one algorithm (with its options), and
// the edits people make to it (remove any node, add one, change a weight).
//
// Both kinds of algorithm run every node list:
//  - node-set algorithms (ketama, rendezvous, maglev, memento, ...) hash the
//    key's bytes (a string key's text, a numeric key's decimal digits) with
//    the structure they build from the list;
//  - bucket-count algorithms index the list, servers[bucket(key, count)],
//    with the key's 64-bit value (XXH3-64 for string keys). Removing a middle
//    node renumbers every node after it: that is the pitfall the articles
//    warn about, shown as it is.
// A bucket count n given to a node-set algorithm means nodes "0".."n-1".
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/nodes.hpp"

namespace jumphash {

/// One change to a node list: remove a node, add one, or change a weight.
struct NodeEdit {
  enum class Kind { remove, add, reweight };
  Kind kind;
  Node node;  ///< the name (and, for add and reweight, the weight)
};

/// Parses one MOVED edit: `-name` removes, `+name` or `+name*w` adds, and
/// `=name*w` changes a weight; names as in NODES (quoted when needed).
Result<NodeEdit> parse_node_edit(std::string_view token);

/// `-name`, `+name*w`, `=name*w`: how an edit is written.
std::string describe_edit(const NodeEdit& edit);

/// Applies `edit` to a plain list (remove erases, add appends, reweight
/// changes the weight). Errors (the list is unchanged): an unknown node, a
/// name already present, removing the last node, more than kMaxNodes.
Result<bool> apply_edit(NodeList& nodes, const NodeEdit& edit);

class Cluster {
 public:
  /// Places `nodes` (non-empty, validated) with `algorithm`. Errors: limits
  /// of the algorithm (e.g. too many ring points for the weights).
  static Result<Cluster> create(const Algorithm& algorithm, const OptionValues& options,
                                NodeList nodes);

  /// Nodes "0".."n-1" for a node-set algorithm. Errors: n outside
  /// 1..kMaxNodes, naming `what` ("bucket count", "from bucket count").
  static Result<Cluster> numbered(const Algorithm& algorithm, const OptionValues& options,
                                  std::int64_t n, std::string_view what);

  Cluster(Cluster&&) noexcept = default;
  Cluster& operator=(Cluster&&) noexcept = default;
  ~Cluster();

  /// An independent copy: edits on it leave this one unchanged.
  Cluster copy() const;

  const Algorithm& algorithm() const { return *algorithm_; }
  const OptionValues& options() const { return options_; }
  /// The live nodes in list order.
  const NodeList& nodes() const;

  /// Index into nodes() of the node that a key lands on. `key` is null for
  /// keys that print as decimal (as KeySet::for_each_key passes them).
  std::uint32_t locate(std::uint64_t value, const Key* key) const;

  /// Bytes of lookup state the algorithm keeps (0 for bucket-count ones).
  std::size_t state_bytes() const;

  /// Applies one edit. Errors (nothing changes): an unknown node, a name
  /// already present, removing the last node, too many nodes, a limit of
  /// the algorithm.
  Result<bool> apply(const NodeEdit& edit);

 private:
  Cluster(const Algorithm& algorithm, OptionValues options);
  const Algorithm* algorithm_;
  OptionValues options_;
  NodeList indexed_;                      // bucket-count algorithms: the list they index
  std::unique_ptr<Placement> placement_;  // node-set algorithms
};

}  // namespace jumphash
