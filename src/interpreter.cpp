// The command interpreter; see jumphash/interpreter.hpp for the language.
#include "jumphash/interpreter.hpp"

#include <algorithm>
#include <cctype>
#include <optional>

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

Interpreter::Interpreter(TextSink out, TextSink err)
    : out_(std::move(out)),
      err_(std::move(err)),
      algorithm_(&algorithms()[0]),
      keys_(std::make_shared<const KeySet>()) {}

Interpreter::~Interpreter() { flush(); }

void Interpreter::flush() {
  if (!buffer_.empty()) {
    out_(buffer_);
    buffer_.clear();
  }
  line_start_ = 0;
}

template <class FillRow>
void Interpreter::emit_line(FillRow&& fill_row) {
  if (output_observer_) {
    OutputEvent event;
    fill_row(event);
    event.script_line = line_number_;
    event.text = std::string_view(buffer_).substr(line_start_);
    event.context = context_;
    output_observer_(event);
  }
  buffer_ += '\n';
  if (line_observer_) {
    flush();
    line_observer_(line_number_);
  } else if (buffer_.size() >= kFlushThreshold) {
    flush();
  }
  line_start_ = buffer_.size();
}

template <class Fill>
void Interpreter::describe_command(OutputContext::Command command, Fill&& fill) {
  if (!output_observer_) return;
  auto context = std::make_shared<OutputContext>();
  context->command = command;
  context->algorithm = algorithm_;
  context->options = options_;
  context->keys = keys_;
  fill(*context);
  context_ = std::move(context);
}

std::shared_ptr<const NodeHistory> Interpreter::numbered_history(const Cluster& cluster) {
  return std::make_shared<const NodeHistory>(NodeHistory{cluster.nodes(), {}, cluster.nodes()});
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
    std::string message = "line ";
    append_decimal(message, line_number);
    message += ": error: ";
    message += result.error();
    message += '\n';
    err_(message);
    return false;
  }
  return true;
}

namespace {

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
  if (!history_) {
    return fail(std::string(command),
                " needs a node list: set one with NODES (e.g. NODES a b c*2)");
  }
  if (!cluster_) {
    if (algorithm_->keeps_history) {
      // Memento's table depends on the order of removals: replay them.
      Result<Cluster> built = Cluster::create(*algorithm_, options_, history_->listed);
      if (!built) return Error{built.error()};
      for (const NodeEdit& edit : history_->edits) {
        Result<bool> applied = built.value().apply(edit);
        if (!applied) return Error{applied.error()};
      }
      cluster_ = std::make_shared<const Cluster>(std::move(built).value());
    } else {
      Result<Cluster> built = Cluster::create(*algorithm_, options_, history_->nodes);
      if (!built) return Error{built.error()};
      cluster_ = std::make_shared<const Cluster>(std::move(built).value());
    }
  }
  return cluster_.get();
}

void Interpreter::print_moved_total(std::uint64_t moved) {
  buffer_ += "moved: ";
  append_decimal(buffer_, moved);
  buffer_ += " of ";
  append_decimal(buffer_, keys_->size());
  emit_line([&](OutputEvent& event) {
    event.row = OutputEvent::Row::moved_total;
    event.values[0] = static_cast<std::int64_t>(moved);
    event.values[1] = static_cast<std::int64_t>(keys_->size());
  });
}

Result<bool> Interpreter::edit_nodes(std::string_view command,
                                     std::span<const std::string_view> args) {
  const bool removing = command == "REMOVE";
  if (args.empty()) {
    return fail(std::string(command), " needs at least one node (", std::string(command),
                removing ? " <name>...)" : " <node>..., a node is name or name*weight)");
  }
  if (!history_) {
    return fail(std::string(command),
                " needs a node list: set one with NODES first (e.g. NODES a b c)");
  }
  std::vector<NodeEdit> edits;
  for (std::string_view token : args) {
    Result<Node> node = parse_node(token);
    if (!node) return Error{node.error()};
    if (removing && token.find('*') != std::string_view::npos &&
        (token[0] != '"' || quoted_length(token) < token.size())) {
      return fail("REMOVE takes node names without weights (got '", printable_input(token), "')");
    }
    edits.push_back(
        {removing ? NodeEdit::Kind::remove : NodeEdit::Kind::add, std::move(node).value()});
  }
  // Apply to copies first, so that a failing edit leaves everything as it was.
  NodeList nodes = history_->nodes;
  std::optional<Cluster> edited;
  if (cluster_) edited.emplace(cluster_->copy());
  for (const NodeEdit& edit : edits) {
    Result<bool> applied = apply_edit(nodes, edit);
    if (!applied) return Error{applied.error()};
    if (edited) {
      applied = edited->apply(edit);
      if (!applied) return Error{applied.error()};
    }
  }
  auto history = std::make_shared<NodeHistory>(*history_);
  history->nodes = std::move(nodes);
  for (NodeEdit& edit : edits) history->edits.push_back(std::move(edit));
  history_ = std::move(history);
  if (edited) {
    cluster_ = std::make_shared<const Cluster>(std::move(*edited));
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
    history_ = std::make_shared<const NodeHistory>(NodeHistory{*nodes, {}, *nodes});
    cluster_.reset();
    return true;
  }

  if (command == "REMOVE" || command == "ADD") return edit_nodes(command, rest);

  const bool node_set = algorithm_->kind == AlgorithmKind::node_set;
  using Command = OutputContext::Command;
  using Row = OutputEvent::Row;
  // The cluster of a command on nodes: the current list (no count given) or
  // nodes "0".."n-1" for a node-set algorithm given a count.
  auto placed_cluster = [&](bool current, std::string_view use, std::string_view count_token,
                            std::string_view what,
                            std::int64_t max) -> Result<std::shared_ptr<const Cluster>> {
    if (current) {
      Result<const Cluster*> found = cluster(use);
      if (!found) return Error{found.error()};
      return cluster_;
    }
    Result<std::int64_t> n = parse_integer(count_token, what, 1, max);
    if (!n) return Error{n.error()};
    Result<Cluster> made = numbered(*n, what);
    if (!made) return Error{made.error()};
    return std::make_shared<const Cluster>(std::move(made).value());
  };
  // The context of a command on a node list: its cluster and history.
  auto on_nodes = [&](const std::shared_ptr<const Cluster>& placed, bool current) {
    return [&placed, current, this](OutputContext& context) {
      context.cluster = placed;
      context.history = current ? history_ : numbered_history(*placed);
    };
  };

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
      Result<std::shared_ptr<const Cluster>> placed = placed_cluster(
          count == 1, "HASH <key>", count == 2 ? args[2] : "", "bucket count", kMaxBuckets);
      if (!placed) return Error{placed.error()};
      describe_command(Command::hash, [&](OutputContext& context) {
        on_nodes(*placed, count == 1)(context);
        context.key = *key;
      });
      const std::uint32_t node = (*placed)->locate(key->value, written);
      const std::string& name = (*placed)->nodes()[node].name;
      append_key(buffer_, key->value, written ? &key->label : nullptr);
      buffer_ += ": ";
      buffer_ += name;
      emit_line([&](OutputEvent& event) {
        event.key = key->value;
        event.string_key = written;
        event.values[0] = node;
        event.names[0] = name;
      });
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[2], "bucket count");
    if (!n) return Error{n.error()};
    describe_command(Command::hash, [&](OutputContext& context) {
      context.key = *key;
      context.n = *n;
    });
    const std::int32_t bucket = algorithm_->function(key->value, *n);
    append_key(buffer_, key->value, written ? &key->label : nullptr);
    buffer_ += ": ";
    append_decimal(buffer_, static_cast<std::uint64_t>(bucket));
    emit_line([&](OutputEvent& event) {
      event.key = key->value;
      event.string_key = written;
      event.values[0] = bucket;
    });
    return true;
  }

  if (command == "KEYS") {
    std::vector<std::string_view> specs(args.begin() + 1, args.end());
    Result<KeySet> keys = KeySet::parse(specs);
    if (!keys) return Error{keys.error()};
    keys_ = std::make_shared<const KeySet>(std::move(keys).value());
    return true;
  }

  if (command == "BUCKETS") {
    if (count > 1) {
      return fail("BUCKETS takes 1 argument (BUCKETS <n>), or none with a node list, got ",
                  std::to_string(count));
    }
    if (count == 0 || node_set) {
      Result<std::shared_ptr<const Cluster>> found =
          placed_cluster(count == 0, "BUCKETS without a bucket count", count == 1 ? args[1] : "",
                         "bucket count", kMaxBuckets);
      if (!found) return Error{found.error()};
      const Cluster& placed = **found;
      describe_command(Command::buckets, on_nodes(*found, count == 0));
      const NodeList& nodes = placed.nodes();
      keys_->for_each_key(0, keys_->size(), [&](std::uint64_t value, const Key* key) {
        const std::uint32_t node = placed.locate(value, key);
        append_key(buffer_, value, key ? &key->label : nullptr);
        buffer_ += ": ";
        buffer_ += nodes[node].name;
        emit_line([&](OutputEvent& event) {
          event.key = value;
          event.string_key = key;
          event.values[0] = node;
          event.names[0] = nodes[node].name;
        });
      });
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[1], "bucket count");
    if (!n) return Error{n.error()};
    describe_command(Command::buckets, [&](OutputContext& context) { context.n = *n; });
    visit_algorithm(algorithm_->id, [&](auto bucket_of) {
      keys_->for_each_key(0, keys_->size(), [&](std::uint64_t value, const Key* key) {
        const std::int32_t bucket = bucket_of(value, *n);
        append_key(buffer_, value, key ? &key->label : nullptr);
        buffer_ += ": ";
        append_decimal(buffer_, static_cast<std::uint64_t>(bucket));
        emit_line([&](OutputEvent& event) {
          event.key = value;
          event.string_key = key;
          event.values[0] = bucket;
        });
      });
    });
    return true;
  }

  if (command == "MOVED") {
    // Reports pass a moved string key by its label, which names it exactly:
    // an observer gets the Key parsed back from it.
    std::optional<Key> parsed;
    auto fill_moved = [&parsed](OutputEvent& event, std::uint64_t value, const std::string* label,
                                std::int64_t old_value, std::int64_t new_value) {
      event.row = Row::key_move;
      event.key = value;
      if (label) {
        parsed = *parse_key(*label);
        event.string_key = &*parsed;
      }
      event.values[0] = old_value;
      event.values[1] = new_value;
    };
    // Prints the keys whose node differs between two clusters, then the total.
    auto print_moved_nodes = [&](const Cluster& before, const Cluster& after) {
      const NodeList& old_nodes = before.nodes();
      const NodeList& new_nodes = after.nodes();
      const std::uint64_t moved =
          for_each_moved_node(before, after, *keys_, 0, keys_->size(),
                              [&](std::uint64_t key, const std::string* label,
                                  std::uint32_t old_node, std::uint32_t new_node) {
                                append_key(buffer_, key, label);
                                buffer_ += ": ";
                                buffer_ += old_nodes[old_node].name;
                                buffer_ += " -> ";
                                buffer_ += new_nodes[new_node].name;
                                emit_line([&](OutputEvent& event) {
                                  fill_moved(event, key, label, old_node, new_node);
                                  event.names[0] = old_nodes[old_node].name;
                                  event.names[1] = new_nodes[new_node].name;
                                });
                              });
      print_moved_total(moved);
    };
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
        describe_command(Command::moved, [&](OutputContext& context) {
          context.from = *from;
          context.to = *to;
        });
        const std::uint64_t moved =
            for_each_moved(*algorithm_, *keys_, *from, *to, 0, keys_->size(),
                           [&](std::uint64_t key, const std::string* label, std::int32_t old_bucket,
                               std::int32_t new_bucket) {
                             append_key(buffer_, key, label);
                             buffer_ += ": ";
                             append_decimal(buffer_, static_cast<std::uint64_t>(old_bucket));
                             buffer_ += " -> ";
                             append_decimal(buffer_, static_cast<std::uint64_t>(new_bucket));
                             emit_line([&](OutputEvent& event) {
                               fill_moved(event, key, label, old_bucket, new_bucket);
                             });
                           });
        print_moved_total(moved);
        return true;
      }
      Result<Cluster> before = numbered(*from, "from bucket count");
      if (!before) return Error{before.error()};
      Result<Cluster> after = numbered(*to, "to bucket count");
      if (!after) return Error{after.error()};
      auto shared_before = std::make_shared<const Cluster>(std::move(before).value());
      auto shared_after = std::make_shared<const Cluster>(std::move(after).value());
      describe_command(Command::moved, [&](OutputContext& context) {
        context.from = *from;
        context.to = *to;
        context.cluster = shared_before;
        context.history = numbered_history(*shared_before);
        context.after = shared_after;
        context.after_history = numbered_history(*shared_after);
      });
      print_moved_nodes(*shared_before, *shared_after);
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
    auto after = std::make_shared<Cluster>((*current)->copy());
    for (const NodeEdit& edit : edits) {
      Result<bool> applied = after->apply(edit);
      if (!applied) return fail("MOVED ", describe_edit(edit), ": ", applied.error());
    }
    describe_command(Command::moved, [&](OutputContext& context) {
      context.cluster = cluster_;
      context.history = history_;
      context.after = after;
      auto after_history = std::make_shared<NodeHistory>(*history_);
      after_history->edits.insert(after_history->edits.end(), edits.begin(), edits.end());
      after_history->nodes = after->nodes();
      context.after_history = std::move(after_history);
    });
    print_moved_nodes(*cluster_, *after);
    return true;
  }

  if (command == "LOAD") {
    if (count > 1) {
      return fail("LOAD takes 1 argument (LOAD <n>), or none with a node list, got ",
                  std::to_string(count));
    }
    if (count == 0 || node_set) {
      Result<std::shared_ptr<const Cluster>> found =
          placed_cluster(count == 0, "LOAD without a bucket count", count == 1 ? args[1] : "",
                         "LOAD bucket count", kMaxLoadBuckets);
      if (!found) return Error{found.error()};
      const Cluster& placed = **found;
      describe_command(Command::load, on_nodes(*found, count == 0));
      std::vector<std::uint64_t> loads(placed.nodes().size());
      add_node_loads(placed, *keys_, 0, keys_->size(), loads);
      for (std::size_t node = 0; node < loads.size(); ++node) {
        const std::string& name = placed.nodes()[node].name;
        buffer_ += name;
        buffer_ += ": ";
        append_decimal(buffer_, loads[node]);
        emit_line([&](OutputEvent& event) {
          event.row = Row::load;
          event.key = node;
          event.values[0] = static_cast<std::int64_t>(loads[node]);
          event.names[0] = name;
        });
      }
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[1], "LOAD bucket count", kMaxLoadBuckets);
    if (!n) return Error{n.error()};
    describe_command(Command::load, [&](OutputContext& context) { context.n = *n; });
    std::vector<std::uint64_t> loads(static_cast<std::size_t>(*n));
    add_loads(*algorithm_, *keys_, *n, 0, keys_->size(), loads);
    for (std::size_t bucket = 0; bucket < loads.size(); ++bucket) {
      append_decimal(buffer_, bucket);
      buffer_ += ": ";
      append_decimal(buffer_, loads[bucket]);
      emit_line([&](OutputEvent& event) {
        event.row = Row::load;
        event.key = bucket;
        event.values[0] = static_cast<std::int64_t>(loads[bucket]);
      });
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
    describe_command(Command::trace, [&](OutputContext& context) {
      context.key = *key;
      context.n = *max;
    });
    for (const TraceStep& step : *steps) {
      append_decimal(buffer_, static_cast<std::uint64_t>(step.n));
      buffer_ += ": ";
      append_decimal(buffer_, static_cast<std::uint64_t>(step.bucket));
      emit_line([&](OutputEvent& event) {
        event.row = Row::trace;
        event.key = static_cast<std::uint64_t>(step.n);
        event.values[0] = step.bucket;
      });
    }
    return true;
  }

  std::string known;
  for (std::string_view name : command_names()) {
    if (!known.empty()) known += ", ";
    known += name;
  }
  return fail("unknown command '", printable_input(args[0]), "' (known: ", known, ")");
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
  return failed_ ? 1 : 0;
}

std::span<const std::string_view> command_names() {
  static constexpr std::string_view kNames[] = {"ALGO", "HASH",  "KEYS",  "BUCKETS", "MOVED",
                                                "LOAD", "TRACE", "NODES", "REMOVE",  "ADD"};
  return kNames;
}

ScriptOutput run_script(std::string_view script) {
  ScriptOutput output;
  Interpreter interpreter([&output](std::string_view text) { output.stdout_text += text; },
                          [&output](std::string_view text) { output.stderr_text += text; });
  output.exit_code = interpreter.run(script);
  return output;
}

}  // namespace jumphash
