// Clusters of named nodes: the second topology, beside a bucket count n.
//
// A node list is ordered; each node has a name (any UTF-8 text without
// control characters, 1..1024 bytes, unique in its list) and an integer
// weight 1..1000000 (default 1). In the command language a node is written
// `name` or `name*weight`, and a name that holds spaces, '#', '*' or '"'
// is quoted: `"cache 3"*2`.
//
// Node-set algorithms (ketama, rendezvous, maglev, memento, ...) build a
// `Placement` from a node list: the state a real client holds (a ring, a
// table, a replacement table) and a lookup from key bytes to a node.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jumphash/limits.hpp"
#include "jumphash/result.hpp"

namespace jumphash {

// kMaxNodeWeight, kMaxNodes, kMaxNodeNameBytes, kMaxPlacementPoints: in
// jumphash/limits.hpp, the one table of limits.

struct Node {
  std::string name;  ///< the name's bytes (unquoted, unescaped)
  std::uint32_t weight = 1;
  friend bool operator==(const Node&, const Node&) = default;
};

using NodeList = std::vector<Node>;

/// Parses one node token: `name`, `name*weight`, `"quoted name"` or
/// `"quoted name"*weight`. Errors name the token and the allowed forms.
Result<Node> parse_node(std::string_view token);

/// Parses the arguments of NODES: at least one node, at most kMaxNodes, no
/// name twice.
Result<NodeList> parse_node_list(std::span<const std::string_view> tokens);

/// Nodes named "0".."n-1" with weight 1: what a bucket count n means to a
/// node-set algorithm. Precondition: 1 <= n <= kMaxNodes.
NodeList numbered_nodes(std::int64_t n);

/// Index of the node called `name` in `nodes`, or -1.
std::int64_t find_node(const NodeList& nodes, std::string_view name);

/// How a node name is written in a script so that it reads back as the same
/// name: bare when it is a plain token, else quoted with \" and \\ escapes.
std::string node_token(std::string_view name);

/// Sum of the weights.
std::uint64_t total_weight(const NodeList& nodes);

// ---- options of an algorithm ------------------------------------------------

/// One option of an algorithm, e.g. maglev's `table=65537`. Values are
/// either one of `choices` or, when `choices` is empty, a decimal integer in
/// min..max that also passes `check` (when set).
struct OptionSpec {
  std::string_view name = {};
  std::string_view default_value = {};
  std::string_view description = {};  ///< one line, for help and the API
  std::span<const std::string_view> choices = {};
  std::int64_t min = 0;
  std::int64_t max = 0;
  /// Extra rule for integers (e.g. "must be prime"); an Error's message is
  /// appended to "option <name>=<value> ...".
  Result<bool> (*check)(std::int64_t value) = nullptr;
};

/// Validated option values of one algorithm, every option present (the
/// default where the user gave none).
class OptionValues {
 public:
  OptionValues() = default;
  /// Checks `assignments` ("name=value" tokens) against `specs`; Errors name
  /// the option and the allowed values. Later assignments win.
  static Result<OptionValues> parse(std::span<const OptionSpec> specs,
                                    std::span<const std::string_view> assignments,
                                    std::string_view algorithm_name);
  /// The defaults of `specs`.
  static OptionValues defaults(std::span<const OptionSpec> specs);

  /// The value of option `name` (which must be one of the specs).
  std::string_view text(std::string_view name) const;
  std::int64_t integer(std::string_view name) const;
  /// "table=65537 mode=weighted": every option, in spec order.
  std::string describe() const;
  /// Only the options that differ from their defaults, "name=value" each.
  std::vector<std::string> non_default() const;

  friend bool operator==(const OptionValues&, const OptionValues&) = default;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
  std::vector<std::string> defaults_;
};

// ---- the state a node-set algorithm builds ----------------------------------

/// A node-set algorithm's structure for one node list. Lookups are const and
/// safe to share between threads; edits are not.
class Placement {
 public:
  virtual ~Placement() = default;

  /// Index into nodes() of the node that `key` (its bytes) lands on.
  virtual std::uint32_t locate(std::string_view key) const = 0;

  /// Bytes of lookup state (rings, tables, replacement entries), not
  /// counting the node names, which every algorithm needs.
  virtual std::size_t state_bytes() const = 0;

  /// Removes nodes()[index] (index < nodes().size(), and at least one node
  /// stays: the caller checks both). Errors leave the placement unchanged.
  virtual Result<bool> remove(std::size_t index) = 0;

  /// Adds `node` at the end of nodes() (its name is new: the caller checks).
  /// Errors (e.g. too many ring points) leave the placement unchanged.
  virtual Result<bool> add(const Node& node) = 0;

  /// Changes the weight of nodes()[index]. Errors leave it unchanged.
  virtual Result<bool> reweight(std::size_t index, std::uint32_t weight) = 0;

  /// An independent copy (edits on it leave this one unchanged).
  virtual std::unique_ptr<Placement> clone() const = 0;

  /// The live nodes in list order.
  const NodeList& nodes() const { return nodes_; }

 protected:
  explicit Placement(NodeList nodes) : nodes_(std::move(nodes)) {}
  Placement(const Placement&) = default;
  Placement& operator=(const Placement&) = default;
  NodeList nodes_;
};

/// Base for placements that are a function of the node list alone (rings,
/// tables, rendezvous): every edit rebuilds the state from the edited list,
/// which is exactly what the real clients do when their server list changes.
class ListPlacement : public Placement {
 public:
  Result<bool> remove(std::size_t index) override;
  Result<bool> add(const Node& node) override;
  Result<bool> reweight(std::size_t index, std::uint32_t weight) override;

 protected:
  explicit ListPlacement(NodeList nodes) : Placement(std::move(nodes)) {}
  ListPlacement(const ListPlacement&) = default;
  /// Rebuilds the lookup state from nodes_. On an Error the caller restores
  /// the previous list and rebuilds again (which then succeeds).
  virtual Result<bool> rebuild() = 0;

 private:
  Result<bool> edit_and_rebuild(NodeList edited);
};

/// Builds an algorithm's placement for `nodes` (non-empty, validated) with
/// validated `options`. Errors: limits such as kMaxPlacementPoints.
using PlacementBuilder = Result<std::unique_ptr<Placement>> (*)(NodeList nodes,
                                                                const OptionValues& options);

}  // namespace jumphash
