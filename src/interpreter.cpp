// The command interpreter; see jumphash/interpreter.hpp for the language.
#include "jumphash/interpreter.hpp"

#include <algorithm>
#include <cctype>
#include <istream>
#include <ostream>
#include <sstream>

#include "jumphash/reports.hpp"

namespace jumphash {
namespace {

constexpr std::size_t kFlushThreshold = 1 << 16;

std::string upper(std::string_view word) {
  std::string result(word);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

Error arity(std::string_view command, std::size_t expected, std::string_view usage,
            std::size_t got) {
  return fail(std::string(command), " takes ", std::to_string(expected), " argument",
              expected == 1 ? "" : "s", " (", std::string(usage), "), got ", std::to_string(got));
}

Result<std::int32_t> parse_bucket_count(std::string_view token, std::string_view what,
                                        std::int64_t max = kMaxBuckets) {
  Result<std::int64_t> n = parse_integer(token, what, 1, max);
  if (!n) return Error{n.error()};
  return static_cast<std::int32_t>(*n);
}

}  // namespace

Interpreter::Interpreter(std::ostream& out, std::ostream& err)
    : out_(out), err_(err), algorithm_(&algorithms()[0]) {}

Interpreter::~Interpreter() { flush(); }

void Interpreter::flush() {
  if (!buffer_.empty()) {
    out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
    buffer_.clear();
  }
}

void Interpreter::emit_line() {
  buffer_ += '\n';
  if (observer_) {
    flush();
    observer_(line_number_);
  } else if (buffer_.size() >= kFlushThreshold) {
    flush();
  }
}

bool Interpreter::run_line(std::string_view line, std::uint64_t line_number) {
  line_number_ = line_number;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  Result<bool> result = [&]() -> Result<bool> {
    Result<std::vector<std::string_view>> tokens = split_tokens(line);
    if (!tokens) return Error{tokens.error()};
    if (tokens->empty()) return true;
    return execute(*tokens);
  }();
  flush();
  if (!result) {
    failed_ = true;
    out_.flush();
    err_ << "line " << line_number << ": error: " << result.error() << '\n';
    return false;
  }
  return true;
}

namespace {

constexpr std::string_view kCommands =
    "ALGO, HASH, KEYS, BUCKETS, MOVED, LOAD, TRACE, NODES, REMOVE, ADD";

bool starts_with_digit(std::string_view token) {
  return !token.empty() && token[0] >= '0' && token[0] <= '9';
}

std::string bucket_count_names() {
  std::string names;
  for (const Algorithm& a : bucket_count_algorithms()) {
    if (!names.empty()) names += ", ";
    names += a.name;
  }
  return names;
}

}  // namespace

Result<Cluster> Interpreter::numbered(std::int64_t n, std::string_view what) const {
  return Cluster::numbered(*algorithm_, options_, n, what);
}

Result<const Cluster*> Interpreter::cluster(std::string_view command) {
  if (!listed_nodes_) {
    return fail(std::string(command),
                " needs a node list: set one with NODES (e.g. NODES a b c*2)");
  }
  if (!cluster_) {
    if (algorithm_->keeps_history) {
      // Memento's table depends on the order of removals: replay them.
      Result<Cluster> built = Cluster::create(*algorithm_, options_, *listed_nodes_);
      if (!built) return Error{built.error()};
      for (const NodeEdit& edit : edits_) {
        Result<bool> applied = built.value().apply(edit);
        if (!applied) return Error{applied.error()};
      }
      cluster_.emplace(std::move(built).value());
    } else {
      Result<Cluster> built = Cluster::create(*algorithm_, options_, nodes_);
      if (!built) return Error{built.error()};
      cluster_.emplace(std::move(built).value());
    }
  }
  return &*cluster_;
}

void Interpreter::print_moved_total(std::uint64_t moved) {
  buffer_ += "moved: ";
  append_decimal(buffer_, moved);
  buffer_ += " of ";
  append_decimal(buffer_, keys_.size());
  emit_line();
}

Result<bool> Interpreter::edit_nodes(std::string_view command,
                                     std::span<const std::string_view> args) {
  const bool removing = command == "REMOVE";
  if (args.empty()) {
    return fail(std::string(command), " needs at least one node (", std::string(command),
                removing ? " <name>...)" : " <node>..., a node is name or name*weight)");
  }
  if (!listed_nodes_) {
    return fail(std::string(command),
                " needs a node list: set one with NODES first (e.g. NODES a b c)");
  }
  std::vector<NodeEdit> edits;
  for (std::string_view token : args) {
    Result<Node> node = parse_node(token);
    if (!node) return Error{node.error()};
    if (removing && token.find('*') != std::string_view::npos &&
        (token[0] != '"' || quoted_length(token) < token.size())) {
      return fail("REMOVE takes node names without weights (got '", std::string(token), "')");
    }
    edits.push_back(
        {removing ? NodeEdit::Kind::remove : NodeEdit::Kind::add, std::move(node).value()});
  }
  // Apply to copies first, so that a failing edit leaves everything as it was.
  Result<Cluster> scratch = Cluster::create(**find_algorithm("modulo"), {}, nodes_);
  std::optional<Cluster> edited;
  if (cluster_) edited.emplace(cluster_->copy());
  for (const NodeEdit& edit : edits) {
    Result<bool> applied = scratch.value().apply(edit);
    if (!applied) return Error{applied.error()};
    if (edited) {
      applied = edited->apply(edit);
      if (!applied) return Error{applied.error()};
    }
  }
  nodes_ = scratch.value().nodes();
  for (NodeEdit& edit : edits) edits_.push_back(std::move(edit));
  if (edited) {
    cluster_.emplace(std::move(*edited));
  } else {
    cluster_.reset();
  }
  return true;
}

Result<bool> Interpreter::execute(const std::vector<std::string_view>& args) {
  const std::string command = upper(args[0]);
  const std::size_t count = args.size() - 1;
  const std::span<const std::string_view> rest(args.data() + 1, count);

  if (command == "ALGO") {
    if (count == 0) {
      return fail("ALGO takes a name (ALGO <name> [<option>=<value>]...), got nothing");
    }
    Result<const Algorithm*> found = find_algorithm(args[1]);
    if (!found) return Error{found.error()};
    Result<OptionValues> options =
        OptionValues::parse((*found)->options, rest.subspan(1), (*found)->name);
    if (!options) return Error{options.error()};
    if (*found != algorithm_ || !(*options == options_)) cluster_.reset();
    algorithm_ = *found;
    options_ = std::move(options).value();
    return true;
  }

  if (command == "NODES") {
    Result<NodeList> nodes = parse_node_list(rest);
    if (!nodes) return Error{nodes.error()};
    listed_nodes_ = *nodes;
    nodes_ = std::move(nodes).value();
    edits_.clear();
    cluster_.reset();
    return true;
  }

  if (command == "REMOVE" || command == "ADD") return edit_nodes(command, rest);

  const bool node_set = algorithm_->kind == AlgorithmKind::node_set;

  if (command == "HASH") {
    if (count != 1 && count != 2) {
      return fail(
          "HASH takes 1 or 2 arguments (HASH <key> <n>, or HASH <key> with a node list), got ",
          std::to_string(count));
    }
    Result<Key> key = parse_key(args[1]);
    if (!key) return Error{key.error()};
    const Key* written = key->label.empty() ? nullptr : &*key;
    if (count == 1 || node_set) {
      std::optional<Cluster> numbered_cluster;
      const Cluster* placed;
      if (count == 1) {
        Result<const Cluster*> current = cluster("HASH <key>");
        if (!current) return Error{current.error()};
        placed = *current;
      } else {
        Result<std::int64_t> n = parse_integer(args[2], "bucket count", 1, kMaxBuckets);
        if (!n) return Error{n.error()};
        Result<Cluster> made = numbered(*n, "bucket count");
        if (!made) return Error{made.error()};
        numbered_cluster.emplace(std::move(made).value());
        placed = &*numbered_cluster;
      }
      append_key(buffer_, key->value, written ? &key->label : nullptr);
      buffer_ += ": ";
      buffer_ += placed->nodes()[placed->locate(key->value, written)].name;
      emit_line();
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[2], "bucket count");
    if (!n) return Error{n.error()};
    append_key(buffer_, key->value, written ? &key->label : nullptr);
    buffer_ += ": ";
    append_decimal(buffer_, static_cast<std::uint64_t>(algorithm_->function(key->value, *n)));
    emit_line();
    return true;
  }

  if (command == "KEYS") {
    std::vector<std::string_view> specs(args.begin() + 1, args.end());
    Result<KeySet> keys = KeySet::parse(specs);
    if (!keys) return Error{keys.error()};
    keys_ = std::move(keys).value();
    return true;
  }

  if (command == "BUCKETS") {
    if (count > 1) {
      return fail("BUCKETS takes 1 argument (BUCKETS <n>), or none with a node list, got ",
                  std::to_string(count));
    }
    if (count == 0 || node_set) {
      std::optional<Cluster> numbered_cluster;
      const Cluster* placed;
      if (count == 0) {
        Result<const Cluster*> current = cluster("BUCKETS without a bucket count");
        if (!current) return Error{current.error()};
        placed = *current;
      } else {
        Result<std::int64_t> n = parse_integer(args[1], "bucket count", 1, kMaxBuckets);
        if (!n) return Error{n.error()};
        Result<Cluster> made = numbered(*n, "bucket count");
        if (!made) return Error{made.error()};
        numbered_cluster.emplace(std::move(made).value());
        placed = &*numbered_cluster;
      }
      const NodeList& nodes = placed->nodes();
      keys_.for_each_key(0, keys_.size(), [&](std::uint64_t value, const Key* key) {
        append_key(buffer_, value, key ? &key->label : nullptr);
        buffer_ += ": ";
        buffer_ += nodes[placed->locate(value, key)].name;
        emit_line();
      });
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[1], "bucket count");
    if (!n) return Error{n.error()};
    visit_algorithm(algorithm_->id, [&](auto bucket_of) {
      keys_.for_each([&](std::uint64_t key, const std::string* label) {
        append_key(buffer_, key, label);
        buffer_ += ": ";
        append_decimal(buffer_, static_cast<std::uint64_t>(bucket_of(key, *n)));
        emit_line();
      });
    });
    return true;
  }

  if (command == "MOVED") {
    // MOVED 10 12 compares bucket counts; MOVED -a +b*2 edits the node list
    // (a node named "3" is removed with -3).
    if (count == 0 || starts_with_digit(rest[0])) {
      if (count != 2) {
        return fail(
            "MOVED takes 2 arguments (MOVED <from> <to>), or node edits (MOVED -name +name*w ...), "
            "got ",
            std::to_string(count));
      }
      Result<std::int32_t> from = parse_bucket_count(args[1], "from bucket count");
      if (!from) return Error{from.error()};
      Result<std::int32_t> to = parse_bucket_count(args[2], "to bucket count");
      if (!to) return Error{to.error()};
      if (!node_set) {
        const std::uint64_t moved =
            for_each_moved(*algorithm_, keys_, *from, *to, 0, keys_.size(),
                           [&](std::uint64_t key, const std::string* label, std::int32_t old_bucket,
                               std::int32_t new_bucket) {
                             append_key(buffer_, key, label);
                             buffer_ += ": ";
                             append_decimal(buffer_, static_cast<std::uint64_t>(old_bucket));
                             buffer_ += " -> ";
                             append_decimal(buffer_, static_cast<std::uint64_t>(new_bucket));
                             emit_line();
                           });
        print_moved_total(moved);
        return true;
      }
      Result<Cluster> before = numbered(*from, "from bucket count");
      if (!before) return Error{before.error()};
      Result<Cluster> after = numbered(*to, "to bucket count");
      if (!after) return Error{after.error()};
      const NodeList& old_nodes = before->nodes();
      const NodeList& new_nodes = after->nodes();
      const std::uint64_t moved =
          for_each_moved_node(*before, *after, keys_, 0, keys_.size(),
                              [&](std::uint64_t key, const std::string* label,
                                  std::uint32_t old_node, std::uint32_t new_node) {
                                append_key(buffer_, key, label);
                                buffer_ += ": ";
                                buffer_ += old_nodes[old_node].name;
                                buffer_ += " -> ";
                                buffer_ += new_nodes[new_node].name;
                                emit_line();
                              });
      print_moved_total(moved);
      return true;
    }
    std::vector<NodeEdit> edits;
    for (std::string_view token : rest) {
      Result<NodeEdit> edit = parse_node_edit(token);
      if (!edit) return Error{edit.error()};
      edits.push_back(std::move(edit).value());
    }
    Result<const Cluster*> current = cluster("MOVED with node edits");
    if (!current) return Error{current.error()};
    Cluster after = (*current)->copy();
    for (const NodeEdit& edit : edits) {
      Result<bool> applied = after.apply(edit);
      if (!applied) return fail("MOVED ", describe_edit(edit), ": ", applied.error());
    }
    const NodeList& old_nodes = (*current)->nodes();
    const NodeList& new_nodes = after.nodes();
    const std::uint64_t moved =
        for_each_moved_node(**current, after, keys_, 0, keys_.size(),
                            [&](std::uint64_t key, const std::string* label, std::uint32_t old_node,
                                std::uint32_t new_node) {
                              append_key(buffer_, key, label);
                              buffer_ += ": ";
                              buffer_ += old_nodes[old_node].name;
                              buffer_ += " -> ";
                              buffer_ += new_nodes[new_node].name;
                              emit_line();
                            });
    print_moved_total(moved);
    return true;
  }

  if (command == "LOAD") {
    if (count > 1) {
      return fail("LOAD takes 1 argument (LOAD <n>), or none with a node list, got ",
                  std::to_string(count));
    }
    if (count == 0 || node_set) {
      std::optional<Cluster> numbered_cluster;
      const Cluster* placed;
      if (count == 0) {
        Result<const Cluster*> current = cluster("LOAD without a bucket count");
        if (!current) return Error{current.error()};
        placed = *current;
      } else {
        Result<std::int64_t> n = parse_integer(args[1], "LOAD bucket count", 1, kMaxLoadBuckets);
        if (!n) return Error{n.error()};
        Result<Cluster> made = numbered(*n, "LOAD bucket count");
        if (!made) return Error{made.error()};
        numbered_cluster.emplace(std::move(made).value());
        placed = &*numbered_cluster;
      }
      std::vector<std::uint64_t> loads(placed->nodes().size());
      add_node_loads(*placed, keys_, 0, keys_.size(), loads);
      for (std::size_t node = 0; node < loads.size(); ++node) {
        buffer_ += placed->nodes()[node].name;
        buffer_ += ": ";
        append_decimal(buffer_, loads[node]);
        emit_line();
      }
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[1], "LOAD bucket count", kMaxLoadBuckets);
    if (!n) return Error{n.error()};
    std::vector<std::uint64_t> loads(static_cast<std::size_t>(*n));
    add_loads(*algorithm_, keys_, *n, 0, keys_.size(), loads);
    for (std::size_t bucket = 0; bucket < loads.size(); ++bucket) {
      append_decimal(buffer_, bucket);
      buffer_ += ": ";
      append_decimal(buffer_, loads[bucket]);
      emit_line();
    }
    return true;
  }

  if (command == "TRACE") {
    if (count != 2) return arity("TRACE", 2, "TRACE <key> <max>", count);
    if (node_set) {
      return fail("TRACE needs a bucket-count algorithm (", bucket_count_names(),
                  "): ", std::string(algorithm_->name),
                  " places keys on named nodes, so a key has no jump history over n");
    }
    Result<Key> key = parse_key(args[1]);
    if (!key) return Error{key.error()};
    const std::int64_t limit = algorithm_->consistent ? kMaxBuckets : kMaxModuloTrace;
    std::string what = "TRACE max";
    if (!algorithm_->consistent) what += " for " + std::string(algorithm_->name);
    Result<std::int32_t> max = parse_bucket_count(args[2], what, limit);
    if (!max) return Error{max.error()};
    Result<std::vector<TraceStep>> steps = trace_key(*algorithm_, key->value, *max);
    if (!steps) return Error{steps.error()};
    for (const TraceStep& step : *steps) {
      append_decimal(buffer_, static_cast<std::uint64_t>(step.n));
      buffer_ += ": ";
      append_decimal(buffer_, static_cast<std::uint64_t>(step.bucket));
      emit_line();
    }
    return true;
  }

  return fail("unknown command '", std::string(args[0]), "' (known: ", std::string(kCommands), ")");
}

int Interpreter::run(std::istream& input) {
  std::string line;
  std::uint64_t number = 0;
  while (std::getline(input, line)) run_line(line, ++number);
  flush();
  out_.flush();
  return failed_ ? 1 : 0;
}

int Interpreter::run(std::string_view script) {
  std::uint64_t number = 0;
  std::size_t start = 0;
  while (start < script.size()) {
    std::size_t end = script.find('\n', start);
    if (end == std::string_view::npos) end = script.size();
    run_line(script.substr(start, end - start), ++number);
    start = end + 1;
  }
  flush();
  out_.flush();
  return failed_ ? 1 : 0;
}

ScriptOutput run_script(std::string_view script) {
  std::ostringstream out, err;
  int exit_code;
  {
    Interpreter interpreter(out, err);
    exit_code = interpreter.run(script);
  }
  return {out.str(), err.str(), exit_code};
}

}  // namespace jumphash
