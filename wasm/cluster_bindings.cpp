// Embind registrations for node lists: a topology built from JavaScript
// values, a placed cluster (lookups, state size), and the chunked MOVED and
// LOAD reports over clusters. src/api.js is the only caller; it decides every
// message a user sees that is not the core's own.
//
// Node names and weights arrive as JavaScript strings and are turned into
// the command language's tokens here (node_token quotes what needs quoting),
// so they go through the core's own parsers and get the CLI's messages:
// `{name: 'a b', weight: 2}` is the NODES token `"a b"*2`.
#include <emscripten/bind.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bindings_shared.hpp"
#include "jumphash/algorithms.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/nodes.hpp"
#include "jumphash/reports.hpp"

namespace jumphash::wasm {
namespace {

/// Splits ALGO's option assignments ("table=251 mode=plain") at spaces.
std::vector<std::string_view> split_spaces(std::string_view text) {
  std::vector<std::string_view> parts;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (end > at) parts.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  return parts;
}

/// A topology as src/api.js writes it: one entry per line,
///   `#<n>`                      nodes "0".."n-1" (first line only)
///   `<op><bytes>:<name><weight>` a node (op ' ') or an edit (op '-', '+', '=')
/// where <bytes> is the name's UTF-8 length in decimal (so a name may hold
/// any character, newlines too, and still reaches the core's checks whole)
/// and <weight> is empty or `*` and JavaScript's String(weight).
/// Nodes and edits become the command language's tokens (node_token quotes
/// what needs quoting) and go through the core's own parsers, so every error
/// is the CLI's message: `{name: 'a b', weight: 2}` is the token `"a b"*2`.
struct TopologyTokens {
  std::string count;
  std::vector<std::string> nodes, edits;
};

/// Reads the wire text; src/api.js writes it, so a malformed one is a bug
/// there, reported as such rather than as the user's error.
Result<TopologyTokens> read_topology(std::string_view wire) {
  TopologyTokens tokens;
  std::size_t at = 0;
  const auto broken = [&] {
    return Error{"internal error: malformed topology from the JavaScript side at byte " +
                 std::to_string(at)};
  };
  if (wire.starts_with('#')) {
    const std::size_t end = std::min(wire.find('\n'), wire.size());
    tokens.count = std::string(wire.substr(1, end - 1));
    at = end + 1;
  }
  while (at < wire.size()) {
    const char op = wire[at++];
    const std::size_t colon = wire.find(':', at);
    if (colon == std::string_view::npos) return broken();
    std::size_t length = 0;
    for (std::size_t i = at; i < colon; ++i) {
      if (wire[i] < '0' || wire[i] > '9' || length > wire.size()) return broken();
      length = length * 10 + static_cast<std::size_t>(wire[i] - '0');
    }
    at = colon + 1;
    if (length > wire.size() - at) return broken();
    std::string token = node_token(wire.substr(at, length));
    at += length;
    const std::size_t end = std::min(wire.find('\n', at), wire.size());
    token += wire.substr(at, end - at);  // "" or "*<weight>"
    at = end + 1;
    if (op == ' ') {
      tokens.nodes.push_back(std::move(token));
    } else if (op == '-' || op == '+' || op == '=') {
      tokens.edits.push_back(op + token);
    } else {
      return broken();
    }
  }
  return tokens;
}

const Algorithm& algorithm_at(int index) { return algorithms()[static_cast<std::size_t>(index)]; }

/// How a bucket count is checked where a topology gives one: the words the
/// CLI's command uses for it and its range (then the node limit).
struct CountCheck {
  std::string_view what = "bucket count";
  std::int64_t max = kMaxBuckets;
};

/// The cluster of algorithm `index` with `options` (ALGO's assignments) on
/// the topology `wire`, or the core's message for what is wrong.
Result<Cluster> build_cluster(int index, std::string_view options, std::string_view wire,
                              CountCheck count = {}) {
  const Algorithm& algorithm = algorithm_at(index);
  Result<TopologyTokens> tokens = read_topology(wire);
  if (!tokens) return Error{tokens.error()};
  const std::vector<std::string_view> assignments = split_spaces(options);
  Result<OptionValues> values = OptionValues::parse(algorithm.options, assignments, algorithm.name);
  if (!values) return Error{values.error()};
  std::optional<Result<Cluster>> made;
  if (!tokens->count.empty()) {
    // As the CLI's command: its range for a count, then the node limit.
    Result<std::int64_t> n = parse_integer(tokens->count, count.what, 1, count.max);
    if (!n) return Error{n.error()};
    made.emplace(Cluster::numbered(algorithm, *values, *n, count.what));
  } else {
    std::vector<std::string_view> list(tokens->nodes.begin(), tokens->nodes.end());
    Result<NodeList> nodes = parse_node_list(list);
    if (!nodes) return Error{nodes.error()};
    made.emplace(Cluster::create(algorithm, *values, std::move(nodes).value()));
  }
  if (!*made) return Error{made->error()};
  Cluster cluster = std::move(*made).value();
  for (const std::string& token : tokens->edits) {
    Result<NodeEdit> edit = parse_node_edit(token);
    if (!edit) return Error{edit.error()};
    Result<bool> applied = cluster.apply(*edit);
    if (!applied) return Error{applied.error()};
  }
  return cluster;
}

/// A node list as it crosses to JavaScript: names joined by newlines (a
/// valid name holds no control character) and weights as doubles.
struct NodeRows {
  std::string names;
  std::vector<double> weights;
  void fill(const NodeList& nodes) {
    names.clear();
    weights.clear();
    for (const Node& node : nodes) {
      if (!weights.empty()) names += '\n';
      names += node.name;
      weights.push_back(node.weight);
    }
  }
};

}  // namespace

/// The tokens of a node list or edit list as people type it in the page:
/// NODES tokens separated by spaces, commas or newlines ('#' starts a
/// comment to the end of its line, as in scripts; quote a name that holds
/// a space, comma, '#', '*' or '"').
Result<std::vector<std::string>> split_node_text(std::string_view text) {
  std::vector<std::string> tokens;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string line(text.substr(at, end - at));
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      if (quoted && line[i] == '\\') {
        ++i;
      } else if (line[i] == '"') {
        quoted = !quoted;
      } else if (!quoted && line[i] == ',') {
        line[i] = ' ';
      }
    }
    Result<std::vector<std::string_view>> words = split_tokens(line);
    if (!words) return Error{words.error()};
    for (std::string_view word : *words) tokens.emplace_back(word);
    at = end + 1;
  }
  return tokens;
}

/// A parsed node list or edit list, as it crosses to JavaScript.
struct ParsedNodeText {
  std::string error;
  std::string kinds;    ///< edits: one of '-', '+', '=' per edit
  std::string names;    ///< joined by newlines
  std::string weights;  ///< decimal, joined by commas
};

void append_row(ParsedNodeText& parsed, const Node& node) {
  if (!parsed.weights.empty()) {
    parsed.names += '\n';
    parsed.weights += ',';
  }
  parsed.names += node.name;
  parsed.weights += std::to_string(node.weight);
}

/// A node list typed in the page, checked as NODES checks it.
ParsedNodeText parse_nodes_text(const std::string& text) {
  Result<std::vector<std::string>> tokens = split_node_text(text);
  if (!tokens) return {tokens.error(), {}, {}, {}};
  std::vector<std::string_view> views(tokens->begin(), tokens->end());
  Result<NodeList> nodes = parse_node_list(views);
  if (!nodes) return {nodes.error(), {}, {}, {}};
  ParsedNodeText parsed;
  for (const Node& node : *nodes) append_row(parsed, node);
  return parsed;
}

/// Edits typed in the page (-name, +name*w, =name*w), each checked as MOVED
/// checks it; whether each applies is known only against a list.
ParsedNodeText parse_changes_text(const std::string& text) {
  Result<std::vector<std::string>> tokens = split_node_text(text);
  if (!tokens) return {tokens.error(), {}, {}, {}};
  ParsedNodeText parsed;
  for (const std::string& token : *tokens) {
    Result<NodeEdit> edit = parse_node_edit(token);
    if (!edit) return {edit.error(), {}, {}, {}};
    parsed.kinds += edit->kind == NodeEdit::Kind::remove ? '-'
                    : edit->kind == NodeEdit::Kind::add  ? '+'
                                                         : '=';
    append_row(parsed, edit->node);
  }
  return parsed;
}

/// A placed cluster: which node keys land on, and what the placement holds.
class ClusterHandle {
 public:
  ClusterHandle(int algorithm, const std::string& options, const std::string& topology) {
    Result<Cluster> built = build_cluster(algorithm, options, topology);
    if (!built) {
      error_ = built.error();
      return;
    }
    cluster_.emplace(std::move(built).value());
    rows_.fill(cluster_->nodes());
  }
  std::string error() const { return error_; }
  int nodeCount() const { return static_cast<int>(rows_.weights.size()); }
  std::string nodeNames() const { return rows_.names; }
  std::uintptr_t nodeWeights() const { return address(rows_.weights.data()); }
  /// Bytes of lookup state (rings, tables), as Cluster::state_bytes.
  double stateBytes() const { return static_cast<double>(cluster_->state_bytes()); }

  /// The node of a key given as text, or -1 when the text is not a key.
  int locateText(const std::string& token) const {
    Result<Key> key = parse_key_text_as_cli(token);
    if (!key) return -1;
    return static_cast<int>(cluster_->locate(key->value, key->label.empty() ? nullptr : &*key));
  }
  /// g_batch_out[i] = node of g_batch_keys[i] (numeric keys) for i < count.
  void locateBatch(int count) const {
    const std::size_t size = std::min(static_cast<std::size_t>(count), kBatchCapacity);
    for (std::size_t i = 0; i < size; ++i) {
      g_batch_out[i] = static_cast<std::int32_t>(cluster_->locate(g_batch_keys[i], nullptr));
    }
  }

 private:
  std::string error_;
  std::optional<Cluster> cluster_;
  NodeRows rows_;
};

/// MOVED over two clusters (NodeResizeReport), chunked like ResizeJob.
class NodeResizeJob {
 public:
  NodeResizeJob(int algorithm, const std::string& options, const std::string& key_spec,
                const std::string& before, const std::string& after,
                const std::string& sample_limit_token) {
    Result<KeySet> keys = KeySet::parse(std::string_view(key_spec));
    if (!keys) {
      error_ = keys.error();
      return;
    }
    Result<std::int64_t> sample_limit =
        parse_integer(sample_limit_token, "sampleLimit", 0, kMaxLoadBuckets);
    if (!sample_limit) {
      error_ = sample_limit.error();
      return;
    }
    Result<Cluster> old_cluster = build_cluster(algorithm, options, before, {"from bucket count"});
    if (!old_cluster) {
      error_ = old_cluster.error();
      return;
    }
    Result<Cluster> new_cluster = build_cluster(algorithm, options, after, {"to bucket count"});
    if (!new_cluster) {
      error_ = new_cluster.error();
      return;
    }
    keys_ = std::move(keys).value();
    cursor_ = KeyCursor(keys_.size());
    report_ = std::make_unique<NodeResizeReport>(std::move(old_cluster).value(),
                                                 std::move(new_cluster).value(),
                                                 static_cast<std::size_t>(*sample_limit));
    before_.fill(report_->before().nodes());
    after_.fill(report_->after().nodes());
  }

  std::string error() const { return error_; }
  double total() const { return cursor_.total(); }
  double done() const { return cursor_.done(); }
  /// Narrows the job to key positions [begin, end), counted from the end
  /// down when `from_end` (before the first step); an error or "".
  std::string setKeyRange(double begin, double end, bool from_end) {
    return cursor_.narrow(begin, end, from_end);
  }
  bool step(double max_keys) {
    if (!report_) return true;
    return step_report(cursor_, *report_, keys_, max_keys);
  }

  /// As ResizeJob::stage and ResizeJob::absorb.
  std::uintptr_t stage(double count) { return staged_.stage(count); }
  std::string absorb(double total, double moved, double before, double after, double flows) {
    return staged_.add_resize_to(*report_, total, moved, before, after, flows);
  }
  std::string absorbCells(double total, double moved, double before, double after, double cells) {
    return staged_.add_resize_to(*report_, total, moved, before, after, cells, true);
  }

  double moved() const { return static_cast<double>(report_->moved()); }
  double minimumMovedExpected() const { return report_->minimum_moved_expected(); }
  int beforeCount() const { return static_cast<int>(before_.weights.size()); }
  int afterCount() const { return static_cast<int>(after_.weights.size()); }
  std::string beforeNames() const { return before_.names; }
  std::string afterNames() const { return after_.names; }
  std::uintptr_t beforeWeights() const { return address(before_.weights.data()); }
  std::uintptr_t afterWeights() const { return address(after_.weights.data()); }

  /// Fills the buffers below from the report so far (as ResizeJob::collect;
  /// a node list's report has no flow balance, so `with_balance` changes nothing).
  void collect(bool flows_as_cells, bool /*with_balance*/, bool every_key_text, bool with_sample) {
    loads_before_ = to_doubles(report_->loads_before());
    loads_after_ = to_doubles(report_->loads_after());
    collect_flows(report_->flow_matrix(), flows_as_cells, cells_, flows_);
    sample_values_.clear();
    sample_nodes_.clear();
    sample_keys_.clear(!every_key_text);
    if (with_sample) {
      collect_sample(report_->sample(), &MovedNodeKey::old_node, &MovedNodeKey::new_node,
                     sample_values_, sample_nodes_, sample_keys_);
    }
  }
  std::uintptr_t loadsBefore() const { return address(loads_before_.data()); }
  std::uintptr_t loadsAfter() const { return address(loads_after_.data()); }
  bool hasFlows() const { return !report_->flow_matrix().empty(); }
  /// Row-major beforeCount() x afterCount() doubles.
  std::uintptr_t flows() const { return address(flows_.data()); }
  double cellCount() const { return cells_.size(); }
  bool cellsWhole() const { return cells_.whole(); }
  std::uintptr_t cellIndices() const { return cells_.indices(); }
  std::uintptr_t cellCounts() const { return cells_.counts(); }
  /// Moved keys the report has sampled so far (its sample limit at most);
  /// once collected with the sample, the length of the sample buffers.
  int sampled() const { return static_cast<int>(report_->sample().size()); }
  std::uintptr_t sampleValues() const { return address(sample_values_.data()); }
  /// Two columns of sampled() node indices: every key's old node, then
  /// every key's new one (as ResizeJob::sample_buckets).
  std::uintptr_t sampleNodes() const { return address(sample_nodes_.data()); }
  /// How the sampled keys print (PrintedKeys).
  std::uintptr_t sampleKeyText() const { return sample_keys_.text(); }
  double sampleKeyBytes() const { return sample_keys_.bytes(); }
  std::uintptr_t sampleKeyEnds() const { return sample_keys_.ends(); }
  bool sampleKeysAscii() const { return sample_keys_.ascii(); }

 private:
  std::string error_;
  KeySet keys_;
  KeyCursor cursor_;
  StagedCounts staged_;
  std::unique_ptr<NodeResizeReport> report_;
  NodeRows before_, after_;
  std::vector<double> loads_before_, loads_after_, flows_;
  FlowCellColumns cells_;
  std::vector<std::uint64_t> sample_values_;
  std::vector<std::int32_t> sample_nodes_;
  PrintedKeys sample_keys_;
};

/// LOAD over a cluster (add_node_loads, load_stats, ideal shares), chunked.
class NodeLoadJob {
 public:
  NodeLoadJob(int algorithm, const std::string& options, const std::string& key_spec,
              const std::string& topology) {
    Result<KeySet> keys = KeySet::parse(std::string_view(key_spec));
    if (!keys) {
      error_ = keys.error();
      return;
    }
    Result<Cluster> built =
        build_cluster(algorithm, options, topology, {"bucket count", kMaxLoadBuckets});
    if (!built) {
      error_ = built.error();
      return;
    }
    keys_ = std::move(keys).value();
    cursor_ = KeyCursor(keys_.size());
    cluster_.emplace(std::move(built).value());
    rows_.fill(cluster_->nodes());
    loads_.assign(rows_.weights.size(), 0);
    shares_ = ideal_shares(*cluster_);
  }

  std::string error() const { return error_; }
  double total() const { return cursor_.total(); }
  double done() const { return cursor_.done(); }
  /// Narrows the job to key positions [begin, end), counted from the end
  /// down when `from_end` (before the first step); an error or "".
  std::string setKeyRange(double begin, double end, bool from_end) {
    return cursor_.narrow(begin, end, from_end);
  }
  /// As LoadJob::stage and LoadJob::absorb.
  std::uintptr_t stage(double count) { return staged_.stage(count); }
  std::string absorb() { return staged_.add_loads_to(loads_); }
  int nodeCount() const { return static_cast<int>(rows_.weights.size()); }
  std::string nodeNames() const { return rows_.names; }
  std::uintptr_t nodeWeights() const { return address(rows_.weights.data()); }
  /// nodeCount() doubles: each node's fair share of the keys (they sum to 1).
  std::uintptr_t idealShares() const { return address(shares_.data()); }
  bool step(double max_keys) {
    if (!cluster_) return true;
    const KeyCursor::Slice slice = cursor_.take(max_keys);
    add_node_loads(*cluster_, keys_, slice.first, slice.last, loads_);
    return cursor_.finished();
  }
  void collect() {
    doubles_ = to_doubles(loads_);
    stats_ = load_stats_doubles(loads_);
  }
  std::uintptr_t loads() const { return address(doubles_.data()); }
  /// 7 doubles, as LoadJob::stats.
  std::uintptr_t stats() const { return address(stats_.data()); }

 private:
  std::string error_;
  KeySet keys_;
  std::optional<Cluster> cluster_;
  NodeRows rows_;
  KeyCursor cursor_;
  StagedCounts staged_;
  std::vector<std::uint64_t> loads_;
  std::vector<double> shares_, doubles_;
  std::vector<double> stats_ = std::vector<double>(7, 0.0);
};

}  // namespace jumphash::wasm

EMSCRIPTEN_BINDINGS(jumphash_clusters) {
  using namespace emscripten;
  using namespace jumphash::wasm;

  value_object<ParsedNodeText>("ParsedNodeText")
      .field("error", &ParsedNodeText::error)
      .field("kinds", &ParsedNodeText::kinds)
      .field("names", &ParsedNodeText::names)
      .field("weights", &ParsedNodeText::weights);
  function("parseNodesText", &parse_nodes_text);
  function("parseChangesText", &parse_changes_text);

  class_<ClusterHandle>("ClusterHandle")
      .constructor<int, const std::string&, const std::string&>()
      .function("error", &ClusterHandle::error)
      .function("nodeCount", &ClusterHandle::nodeCount)
      .function("nodeNames", &ClusterHandle::nodeNames)
      .function("nodeWeights", &ClusterHandle::nodeWeights)
      .function("stateBytes", &ClusterHandle::stateBytes)
      .function("locateText", &ClusterHandle::locateText)
      .function("locateBatch", &ClusterHandle::locateBatch);

  class_<NodeResizeJob>("NodeResizeJob")
      .constructor<int, const std::string&, const std::string&, const std::string&,
                   const std::string&, const std::string&>()
      .function("error", &NodeResizeJob::error)
      .function("total", &NodeResizeJob::total)
      .function("done", &NodeResizeJob::done)
      .function("setKeyRange", &NodeResizeJob::setKeyRange)
      .function("stage", &NodeResizeJob::stage)
      .function("absorb", &NodeResizeJob::absorb)
      .function("absorbCells", &NodeResizeJob::absorbCells)
      .function("step", &NodeResizeJob::step)
      .function("moved", &NodeResizeJob::moved)
      .function("minimumMovedExpected", &NodeResizeJob::minimumMovedExpected)
      .function("beforeCount", &NodeResizeJob::beforeCount)
      .function("afterCount", &NodeResizeJob::afterCount)
      .function("beforeNames", &NodeResizeJob::beforeNames)
      .function("afterNames", &NodeResizeJob::afterNames)
      .function("beforeWeights", &NodeResizeJob::beforeWeights)
      .function("afterWeights", &NodeResizeJob::afterWeights)
      .function("collect", &NodeResizeJob::collect)
      .function("loadsBefore", &NodeResizeJob::loadsBefore)
      .function("loadsAfter", &NodeResizeJob::loadsAfter)
      .function("hasFlows", &NodeResizeJob::hasFlows)
      .function("flows", &NodeResizeJob::flows)
      .function("cellCount", &NodeResizeJob::cellCount)
      .function("cellsWhole", &NodeResizeJob::cellsWhole)
      .function("cellIndices", &NodeResizeJob::cellIndices)
      .function("cellCounts", &NodeResizeJob::cellCounts)
      .function("sampled", &NodeResizeJob::sampled)
      .function("sampleValues", &NodeResizeJob::sampleValues)
      .function("sampleNodes", &NodeResizeJob::sampleNodes)
      .function("sampleKeyText", &NodeResizeJob::sampleKeyText)
      .function("sampleKeyBytes", &NodeResizeJob::sampleKeyBytes)
      .function("sampleKeyEnds", &NodeResizeJob::sampleKeyEnds)
      .function("sampleKeysAscii", &NodeResizeJob::sampleKeysAscii);

  class_<NodeLoadJob>("NodeLoadJob")
      .constructor<int, const std::string&, const std::string&, const std::string&>()
      .function("error", &NodeLoadJob::error)
      .function("total", &NodeLoadJob::total)
      .function("done", &NodeLoadJob::done)
      .function("setKeyRange", &NodeLoadJob::setKeyRange)
      .function("stage", &NodeLoadJob::stage)
      .function("absorb", &NodeLoadJob::absorb)
      .function("nodeCount", &NodeLoadJob::nodeCount)
      .function("nodeNames", &NodeLoadJob::nodeNames)
      .function("nodeWeights", &NodeLoadJob::nodeWeights)
      .function("idealShares", &NodeLoadJob::idealShares)
      .function("step", &NodeLoadJob::step)
      .function("collect", &NodeLoadJob::collect)
      .function("loads", &NodeLoadJob::loads)
      .function("stats", &NodeLoadJob::stats);
}
