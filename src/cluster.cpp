// A node list under one algorithm, and its edits; see jumphash/cluster.hpp.
#include "jumphash/cluster.hpp"

#include <charconv>

namespace jumphash {
namespace {

std::string node_list_preview(const NodeList& nodes) {
  constexpr std::size_t kShown = 8;
  std::string text;
  for (std::size_t i = 0; i < nodes.size() && i < kShown; ++i) {
    if (i) text += ", ";
    text += node_token(nodes[i].name);
  }
  if (nodes.size() > kShown) text += ", ... (" + std::to_string(nodes.size()) + " nodes)";
  return text;
}

}  // namespace

Result<NodeEdit> parse_node_edit(std::string_view token) {
  constexpr std::string_view kForms =
      "an edit is -name (remove), +name or +name*weight (add) or =name*weight (change a weight)";
  if (token.empty() || (token[0] != '-' && token[0] != '+' && token[0] != '=')) {
    return fail("'", printable_input(token), "' is not an edit (", kForms,
                "; quote a name that holds spaces: -\"cache 3\")");
  }
  const char sign = token[0];
  const std::string_view body = token.substr(1);
  Result<Node> node = parse_node(body);
  if (!node) return fail("edit '", printable_input(token), "': ", node.error());
  const std::size_t name_end =
      !body.empty() && body[0] == '"' ? quoted_length(body) : body.find('*');
  const bool has_weight = name_end < body.size() && body[name_end] == '*';
  if (sign == '-') {
    if (has_weight) {
      return fail("edit '", printable_input(token),
                  "' removes a node: write -name without a weight");
    }
    return NodeEdit{NodeEdit::Kind::remove, std::move(node).value()};
  }
  if (sign == '=') {
    if (!has_weight) {
      return fail("edit '", printable_input(token), "' changes a weight: write =name*weight");
    }
    return NodeEdit{NodeEdit::Kind::reweight, std::move(node).value()};
  }
  return NodeEdit{NodeEdit::Kind::add, std::move(node).value()};
}

std::string describe_edit(const NodeEdit& edit) {
  switch (edit.kind) {
    case NodeEdit::Kind::remove:
      return "-" + node_token(edit.node.name);
    case NodeEdit::Kind::add:
      return "+" + node_token(edit.node.name) +
             (edit.node.weight == 1 ? std::string() : "*" + std::to_string(edit.node.weight));
    case NodeEdit::Kind::reweight:
      break;
  }
  return "=" + node_token(edit.node.name) + "*" + std::to_string(edit.node.weight);
}

Cluster::Cluster(const Algorithm& algorithm, OptionValues options)
    : algorithm_(&algorithm), options_(std::move(options)) {}

Cluster::~Cluster() = default;

Result<Cluster> Cluster::create(const Algorithm& algorithm, const OptionValues& options,
                                NodeList nodes) {
  Cluster cluster(algorithm, options);
  if (algorithm.kind == AlgorithmKind::bucket_count) {
    cluster.indexed_ = std::move(nodes);
    return cluster;
  }
  Result<std::unique_ptr<Placement>> placement = algorithm.build(std::move(nodes), options);
  if (!placement) return Error{placement.error()};
  cluster.placement_ = std::move(placement).value();
  return cluster;
}

Result<Cluster> Cluster::numbered(const Algorithm& algorithm, const OptionValues& options,
                                  std::int64_t n, std::string_view what) {
  Result<std::int32_t> checked = check_bucket_count(
      n, std::string(what) + " for " + std::string(algorithm.name) + " (one node per bucket)",
      kMaxNodes);
  if (!checked) return Error{checked.error()};
  return create(algorithm, options, numbered_nodes(*checked));
}

Cluster Cluster::copy() const {
  Cluster cluster(*algorithm_, options_);
  cluster.indexed_ = indexed_;
  if (placement_) cluster.placement_ = placement_->clone();
  return cluster;
}

const NodeList& Cluster::nodes() const { return placement_ ? placement_->nodes() : indexed_; }

std::uint32_t Cluster::locate(std::uint64_t value, const Key* key) const {
  if (!placement_) {
    return static_cast<std::uint32_t>(
        algorithm_->function(value, static_cast<std::int32_t>(indexed_.size())));
  }
  if (key) return placement_->locate(key->text);
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, value).ptr;
  return placement_->locate(std::string_view(digits, static_cast<std::size_t>(end - digits)));
}

std::size_t Cluster::state_bytes() const { return placement_ ? placement_->state_bytes() : 0; }

namespace {

/// The index of the node `edit` names (remove, reweight) or -1 (add), or the
/// Error that makes the edit impossible on `nodes`.
Result<std::int64_t> check_edit(const NodeList& nodes, const NodeEdit& edit) {
  const std::int64_t index = find_node(nodes, edit.node.name);
  if (edit.kind == NodeEdit::Kind::add) {
    if (index >= 0) {
      return fail("node ", node_token(edit.node.name),
                  " is already in the list (use =name*weight to change its weight)");
    }
    if (static_cast<std::int64_t>(nodes.size()) >= kMaxNodes) {
      return fail("cannot add ", node_token(edit.node.name), ": a list holds at most ",
                  std::to_string(kMaxNodes), " nodes");
    }
    return index;
  }
  if (index < 0) {
    return fail("unknown node ", node_token(edit.node.name), " (nodes: ", node_list_preview(nodes),
                ")");
  }
  if (edit.kind == NodeEdit::Kind::remove && nodes.size() == 1) {
    return fail("cannot remove ", node_token(edit.node.name), ": it is the only node left");
  }
  return index;
}

}  // namespace

Result<bool> apply_edit(NodeList& nodes, const NodeEdit& edit) {
  Result<std::int64_t> index = check_edit(nodes, edit);
  if (!index) return Error{index.error()};
  switch (edit.kind) {
    case NodeEdit::Kind::remove:
      nodes.erase(nodes.begin() + static_cast<std::ptrdiff_t>(*index));
      break;
    case NodeEdit::Kind::add:
      nodes.push_back(edit.node);
      break;
    case NodeEdit::Kind::reweight:
      nodes[static_cast<std::size_t>(*index)].weight = edit.node.weight;
      break;
  }
  return true;
}

Result<bool> Cluster::apply(const NodeEdit& edit) {
  if (!placement_) return apply_edit(indexed_, edit);
  Result<std::int64_t> index = check_edit(placement_->nodes(), edit);
  if (!index) return Error{index.error()};
  const auto at = static_cast<std::size_t>(*index);
  switch (edit.kind) {
    case NodeEdit::Kind::remove:
      return placement_->remove(at);
    case NodeEdit::Kind::add:
      return placement_->add(edit.node);
    case NodeEdit::Kind::reweight:
      break;
  }
  return placement_->reweight(at, edit.node.weight);
}

}  // namespace jumphash
