// The command interpreter; see jumphash/interpreter.hpp for the language.
#include "jumphash/interpreter.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "jumphash/reports.hpp"

namespace jumphash {
namespace {

constexpr std::size_t kFlushThreshold = 1 << 16;
/// Keys per slice of a report loop under an output budget: the budget is
/// checked between slices, so a run whose output is full stops computing.
constexpr std::uint64_t kSliceKeys = 1 << 14;
/// Keys per chunk when threads write BUCKETS text: about 100 KB of text,
/// which stays in the thread's cache until it is written (chunks of 2^16
/// keys took 50% more CPU time for the same output on a 2-core machine).
constexpr std::uint64_t kTextChunkKeys = 1 << 13;

/// What placing `nodes` costs against WorkBudget::max_lookups: one per
/// node, plus its weight for algorithms that honour weights (rings build
/// points per unit of weight).
std::uint64_t placement_cost(const Algorithm& algorithm, const NodeList& nodes) {
  std::uint64_t cost = nodes.size();
  if (algorithm.weights) {
    for (const Node& node : nodes) cost += node.weight;
  }
  return cost;
}

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
    bytes_written_ += buffer_.size();
    out_(buffer_);
    buffer_.clear();
  }
  line_start_ = 0;
}

void Interpreter::set_budget(WorkBudget budget) {
  budget_ = budget;
  lookups_spent_ = 0;
  bytes_written_ = 0;
  output_full_ = false;
  budget_exhausted_ = false;
}

Result<bool> Interpreter::spend(std::uint64_t lookups, std::string_view what) {
  if (budget_.max_lookups == 0) return true;
  const std::uint64_t left = budget_.max_lookups - lookups_spent_;
  if (lookups > left) {
    budget_exhausted_ = true;
    return fail(std::string(what), " needs ", std::to_string(lookups), " lookups, more than the ",
                std::to_string(left), " left of this run's budget of ",
                std::to_string(budget_.max_lookups),
                " lookups; the run ends here (the jumphash CLI runs scripts without a budget)");
  }
  lookups_spent_ += lookups;
  return true;
}

Result<bool> Interpreter::spend_placement(const Cluster& placed, std::string_view what) {
  const std::uint64_t words = placed.state_bytes() / 8;
  return spend(words,
               std::string(what) + " (a placement of " + std::to_string(words) + " 8-byte words)");
}

Error Interpreter::output_budget_error() {
  budget_exhausted_ = true;
  std::string limit = std::to_string(budget_.max_output_bytes) + " bytes";
  if (budget_.max_output_bytes == kMaxRunOutputBytes) limit += " (run-output-bytes, 64 MiB)";
  if (budget_.max_output_bytes == kMaxStreamOutputBytes) limit += " (stream-output-bytes, 256 MiB)";
  return fail("the output passed this run's limit of ", limit,
              " of output and error lines; it stops after the last whole line that fit and the "
              "run ends here (the jumphash CLI prints output of any size)");
}

template <class Slice>
void Interpreter::in_slices(std::uint64_t total, Slice&& slice) {
  // Without an output budget: one slice, so that the reports can spread a
  // large key set over threads (see jumphash/batch.hpp).
  const std::uint64_t size = budget_.max_output_bytes != 0 ? kSliceKeys : total;
  for (std::uint64_t begin = 0; begin < total && !output_full_; begin += size) {
    slice(begin, std::min(total, begin + size));
  }
}

template <class FillRow>
void Interpreter::emit_line(FillRow&& fill_row) {
  if (budget_.max_output_bytes != 0 &&
      (output_full_ || bytes_written_ + buffer_.size() + 1 > budget_.max_output_bytes)) {
    // The line does not fit: drop it and every later one.
    buffer_.resize(line_start_);
    output_full_ = true;
    return;
  }
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
    if (budget_exhausted_) return fail("not run: an earlier line used up this run's budget");
    Result<std::vector<std::string_view>> tokens = split_tokens(line);
    if (!tokens) return Error{tokens.error()};
    if (tokens->empty()) return true;
    return execute(*tokens);
  }();
  if (output_full_ && !budget_exhausted_) result = output_budget_error();
  flush();
  if (!result) {
    failed_ = true;
    auto error_line = [line_number](std::string_view text) {
      std::string message = "line ";
      append_decimal(message, line_number);
      message += ": error: ";
      message += text;
      message += '\n';
      return message;
    };
    std::string message = error_line(result.error());
    if (budget_.max_output_bytes != 0 && !budget_exhausted_ &&
        bytes_written_ + message.size() > budget_.max_output_bytes) {
      message = error_line(output_budget_error().message);
    }
    bytes_written_ += message.size();
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
    Result<bool> spent =
        spend(placement_cost(*algorithm_, history_->listed) + history_->edits.size(),
              std::string(command) + " placing a list of " +
                  std::to_string(history_->listed.size()) + " nodes");
    if (!spent) return Error{spent.error()};
    if (algorithm_->keeps_history) {
      // Memento's table depends on the order of removals: replay them.
      Result<Cluster> built = Cluster::create(*algorithm_, options_, history_->listed);
      if (!built) return Error{built.error()};
      for (const NodeEdit& edit : history_->edits) {
        Result<bool> applied = built.value().apply(edit);
        if (!applied) return Error{applied.error()};
      }
      Result<bool> placed = spend_placement(*built, command);
      if (!placed) return Error{placed.error()};
      cluster_ = std::make_shared<const Cluster>(std::move(built).value());
    } else {
      Result<Cluster> built = Cluster::create(*algorithm_, options_, history_->nodes);
      if (!built) return Error{built.error()};
      Result<bool> placed = spend_placement(*built, command);
      if (!placed) return Error{placed.error()};
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
  if (cluster_) {
    Result<bool> spent = spend(placement_cost(*algorithm_, history_->nodes),
                               std::string(command) + " copying a placement of " +
                                   std::to_string(history_->nodes.size()) + " nodes");
    if (!spent) return Error{spent.error()};
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
      applied = spend_placement(*edited, command);
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
  // What placing nodes "0".."n-1" costs against the lookup budget.
  // (Above kMaxNodes the list is refused before it is placed.)
  auto numbered_cost = [this](std::int64_t n) {
    const auto nodes = static_cast<std::uint64_t>(std::min(n, kMaxNodes));
    return algorithm_->weights ? 2 * nodes : nodes;
  };
  const std::uint64_t key_count = keys_->size();
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
    Result<bool> spent = spend(
        numbered_cost(*n), std::string(use) + " placing " + std::to_string(*n) + " numbered nodes");
    if (!spent) return Error{spent.error()};
    Result<Cluster> made = numbered(*n, what);
    if (!made) return Error{made.error()};
    spent = spend_placement(*made, use);
    if (!spent) return Error{spent.error()};
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
      Result<bool> spent = spend(1, "HASH");
      if (!spent) return Error{spent.error()};
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
    Result<bool> spent = spend(1, "HASH");
    if (!spent) return Error{spent.error()};
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
      Result<bool> spent = spend(key_count, "BUCKETS over " + std::to_string(key_count) + " keys");
      if (!spent) return Error{spent.error()};
      const Cluster& placed = **found;
      describe_command(Command::buckets, on_nodes(*found, count == 0));
      const NodeList& nodes = placed.nodes();
      in_slices(key_count, [&](std::uint64_t begin, std::uint64_t end) {
        keys_->for_each_key(begin, end, [&](std::uint64_t value, const Key* key) {
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
      });
      return true;
    }
    Result<std::int32_t> n = parse_bucket_count(args[1], "bucket count");
    if (!n) return Error{n.error()};
    Result<bool> spent = spend(key_count, "BUCKETS over " + std::to_string(key_count) + " keys");
    if (!spent) return Error{spent.error()};
    describe_command(Command::buckets, [&](OutputContext& context) { context.n = *n; });
    // "<key>: <bucket>", and a newline when `newline`: the one text of both
    // paths below. (A numeric key's line is written into a small buffer and
    // appended at once: the text costs more than the lookups.)
    auto append_bucket_line = [](std::string& text, std::uint64_t value, const Key* key,
                                 std::int32_t bucket, bool newline) {
      char line[40];  // at most 20 digits, ": ", 10 digits, '\n'
      char* end = line;
      if (key) {
        text += key->label;
      } else {
        end = std::to_chars(line, line + 20, value).ptr;
      }
      *end++ = ':';
      *end++ = ' ';
      end = std::to_chars(end, end + 10, bucket).ptr;
      if (newline) *end++ = '\n';
      text.append(line, end);
    };
    const unsigned threads = threads_for_keys(key_count);
    if (!output_observer_ && !line_observer_ && budget_.max_output_bytes == 0 && threads > 1) {
      // Nothing watches single lines and nothing bounds the output (the CLI):
      // each thread also writes the text of its chunk of keys (the text
      // costs more than the lookups), and the chunks are written in order.
      flush();
      const std::uint64_t chunks = (key_count + kTextChunkKeys - 1) / kTextChunkKeys;
      std::vector<std::string> texts(ordered_chunk_slots(threads));
      run_ordered_chunks(
          chunks, threads,
          [&](std::uint64_t chunk, std::size_t slot, unsigned) {
            std::string& text = texts[slot];
            text.clear();
            const std::uint64_t begin = chunk * kTextChunkKeys;
            detail::KeyBlock block;
            detail::for_each_block(
                *algorithm_, *keys_, begin, std::min(key_count, begin + kTextChunkKeys), *n, 0,
                block, [&](const detail::KeyBlock& b) {
                  for (std::size_t i = 0; i < b.count; ++i) {
                    append_bucket_line(text, b.values[i], b.keys[i], b.first[i], true);
                  }
                });
          },
          [&](std::uint64_t, std::size_t slot) {
            bytes_written_ += texts[slot].size();
            out_(texts[slot]);
          });
      return true;
    }
    // Batched lookups (threaded over large key sets, as MOVED and LOAD); the
    // lines are printed here, in key order.
    in_slices(key_count, [&](std::uint64_t begin, std::uint64_t end) {
      for_each_bucket(*algorithm_, *keys_, *n, begin, end,
                      [&](std::uint64_t value, const Key* key, std::int32_t bucket) {
                        append_bucket_line(buffer_, value, key, bucket, false);
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
      std::uint64_t moved = 0;
      in_slices(key_count, [&](std::uint64_t begin, std::uint64_t end) {
        moved += for_each_moved_node(before, after, *keys_, begin, end,
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
      const std::string moved_work = "MOVED over " + std::to_string(key_count) + " keys";
      if (!node_set) {
        Result<bool> spent = spend(2 * key_count, moved_work);
        if (!spent) return Error{spent.error()};
        describe_command(Command::moved, [&](OutputContext& context) {
          context.from = *from;
          context.to = *to;
        });
        std::uint64_t moved = 0;
        in_slices(key_count, [&](std::uint64_t begin, std::uint64_t end) {
          moved += for_each_moved(*algorithm_, *keys_, *from, *to, begin, end,
                                  [&](std::uint64_t key, const std::string* label,
                                      std::int32_t old_bucket, std::int32_t new_bucket) {
                                    append_key(buffer_, key, label);
                                    buffer_ += ": ";
                                    append_decimal(buffer_, static_cast<std::uint64_t>(old_bucket));
                                    buffer_ += " -> ";
                                    append_decimal(buffer_, static_cast<std::uint64_t>(new_bucket));
                                    emit_line([&](OutputEvent& event) {
                                      fill_moved(event, key, label, old_bucket, new_bucket);
                                    });
                                  });
        });
        print_moved_total(moved);
        return true;
      }
      Result<bool> spent = spend(numbered_cost(*from) + numbered_cost(*to) + 2 * key_count,
                                 moved_work + " between " + std::to_string(*from) + " and " +
                                     std::to_string(*to) + " numbered nodes");
      if (!spent) return Error{spent.error()};
      Result<Cluster> before = numbered(*from, "from bucket count");
      if (!before) return Error{before.error()};
      Result<Cluster> after = numbered(*to, "to bucket count");
      if (!after) return Error{after.error()};
      spent = spend_placement(*before, "MOVED");
      if (spent) spent = spend_placement(*after, "MOVED");
      if (!spent) return Error{spent.error()};
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
    Result<bool> spent = spend(placement_cost(*algorithm_, (*current)->nodes()) + 2 * key_count,
                               "MOVED with node edits over " + std::to_string(key_count) + " keys");
    if (!spent) return Error{spent.error()};
    auto after = std::make_shared<Cluster>((*current)->copy());
    for (const NodeEdit& edit : edits) {
      Result<bool> applied = after->apply(edit);
      if (!applied) return fail("MOVED ", describe_edit(edit), ": ", applied.error());
      applied = spend_placement(*after, "MOVED " + describe_edit(edit));
      if (!applied) return Error{applied.error()};
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
      Result<bool> spent = spend(key_count, "LOAD over " + std::to_string(key_count) + " keys");
      if (!spent) return Error{spent.error()};
      const Cluster& placed = **found;
      describe_command(Command::load, on_nodes(*found, count == 0));
      std::vector<std::uint64_t> loads(placed.nodes().size());
      add_node_loads(placed, *keys_, 0, key_count, loads);
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
    Result<bool> spent = spend(
        key_count + static_cast<std::uint64_t>(*n),
        "LOAD over " + std::to_string(key_count) + " keys and " + std::to_string(*n) + " buckets");
    if (!spent) return Error{spent.error()};
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
    if (!algorithm_->consistent) {
      Result<bool> spent =
          spend(static_cast<std::uint64_t>(*max), "TRACE up to " + std::to_string(*max));
      if (!spent) return Error{spent.error()};
    }
    Result<std::vector<TraceStep>> steps = trace_key(*algorithm_, key->value, *max);
    if (!steps) return Error{steps.error()};
    if (algorithm_->consistent) {
      Result<bool> spent = spend(steps->size(), "TRACE up to " + std::to_string(*max));
      if (!spent) return Error{spent.error()};
    }
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
  if (script.size() > kMaxScriptBytes) {
    failed_ = true;
    std::string message = "error: the script has " + std::to_string(script.size()) +
                          " bytes, more than the limit of " + std::to_string(kMaxScriptBytes) +
                          " bytes (script-bytes, 64 MiB) for a script run as one text; the "
                          "jumphash CLI reads a script file of any size line by line\n";
    bytes_written_ += message.size();
    err_(message);
    return 1;
  }
  std::uint64_t number = 0;
  std::size_t start = 0;
  while (start < script.size() && !budget_exhausted_) {
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

ScriptOutput run_script(std::string_view script, WorkBudget budget) {
  ScriptOutput output;
  Interpreter interpreter([&output](std::string_view text) { output.stdout_text += text; },
                          [&output](std::string_view text) { output.stderr_text += text; });
  interpreter.set_budget(budget);
  output.exit_code = interpreter.run(script);
  return output;
}

}  // namespace jumphash
