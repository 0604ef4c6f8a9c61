// The command language of the exercise, interpreted once for every face:
// the native CLI, the WebAssembly `run()` and the page's console.
//
//   ALGO <name> [<option>=<value>]...
//                        later commands use that algorithm (default jump)
//   HASH <key> <n>       prints "<key>: <bucket>"
//   KEYS <spec>...       replaces the key list (keys, A..B, random:COUNT:SEED)
//   BUCKETS <n>          "<key>: <bucket>" for each current key
//   MOVED <from> <to>    "<key>: <old> -> <new>" per moved key, then
//                        "moved: <count> of <total>"
//   LOAD <n>             "<bucket>: <count>" for every bucket (n <= 10^6)
//   TRACE <key> <max>    "<n>: <bucket>" where the bucket changes, n <= max
//
// Node lists (see jumphash/cluster.hpp for how each kind of algorithm
// places keys on them):
//   NODES <node>...      sets the list; a node is name or name*weight
//   REMOVE <name>...     removes nodes (any of them), in order
//   ADD <node>...        adds nodes at the end (memento restores the last
//                        removed bucket under the new name)
//   HASH <key>           "<key>: <node>"
//   BUCKETS              "<key>: <node>" for each current key
//   LOAD                 "<node>: <count>" for every node, in list order
//   MOVED <edit>...      edits -name, +name[*w], =name*w applied to a copy:
//                        "<key>: <old> -> <new>" per moved key, then
//                        "moved: <count> of <total>"; the list stays as it was
//
// Every printed line is also an OutputEvent (set_output_observer): its key
// and values as data, with the command's context, for the checker.
//
// Keywords are case-insensitive, '#' outside quotes starts a comment, blank
// lines are skipped, CRLF is accepted. A failing line prints
// "line <N>: error: <message>" to the error stream and has no effect.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/keys.hpp"

namespace jumphash {

/// A node list as commands see it: the list NODES set (or nodes "0".."n-1"
/// for a bucket count given to a node-set algorithm), the REMOVE and ADD
/// edits since, in order, and the list they leave. Memento's structure
/// depends on that order, so an algorithm's cluster for the list is the
/// listed nodes with every edit applied (see Interpreter for the rule).
struct NodeHistory {
  NodeList listed;
  std::vector<NodeEdit> edits;
  NodeList nodes;  ///< listed after edits
};

/// What one printing command computed its lines from; shared by its lines,
/// so that an observer (the checker) can recompute them with variants.
struct OutputContext {
  enum class Command { hash, buckets, moved, load, trace };
  Command command = Command::hash;
  const Algorithm* algorithm = nullptr;
  OptionValues options;
  /// The current key set (BUCKETS and MOVED print its keys).
  std::shared_ptr<const KeySet> keys;
  /// HASH and TRACE: the key as written.
  Key key;
  /// Bucket counts (cluster null): HASH, BUCKETS, LOAD: n; TRACE: max.
  std::int32_t n = 0;
  /// MOVED <from> <to> (also when a node-set algorithm numbers the nodes).
  std::int32_t from = 0, to = 0;
  /// Node lists (null for bucket counts): the cluster the keys were placed
  /// on (MOVED: before the edits) and how its list came to be.
  std::shared_ptr<const Cluster> cluster;
  std::shared_ptr<const NodeHistory> history;
  /// MOVED on node lists: the cluster after the edits (or of nodes
  /// "0".."to-1"), and its history (history's edits and MOVED's, in order).
  std::shared_ptr<const Cluster> after;
  std::shared_ptr<const NodeHistory> after_history;
};

/// One printed line, with what it says as data.
struct OutputEvent {
  /// The line's form:
  ///   key_value    "<key>: <bucket or node>"          (HASH, BUCKETS)
  ///   key_move     "<key>: <old> -> <new>"            (MOVED)
  ///   moved_total  "moved: <count> of <total>"        (MOVED)
  ///   load         "<bucket or node>: <count>"        (LOAD)
  ///   trace        "<n>: <bucket>"                    (TRACE)
  enum class Row { key_value, key_move, moved_total, load, trace };
  Row row = Row::key_value;
  std::uint64_t script_line = 0;  ///< 1-based line of the script that printed it
  std::string_view text;          ///< the printed line without its newline
  /// key_value, key_move: the key's 64-bit value; load: the bucket or the
  /// node's index; trace: n; moved_total: 0.
  std::uint64_t key = 0;
  /// String keys: the key as written (label and bytes); null for keys that
  /// print as decimal.
  const Key* string_key = nullptr;
  /// key_value: the bucket or node index; key_move: old and new (node
  /// indices into context->cluster and context->after); moved_total: count
  /// and total; load and trace: the count and the bucket.
  std::int64_t values[2] = {0, 0};
  /// Node lists: the names of the nodes in `values` (key_value, key_move),
  /// or of the node a LOAD line counts.
  std::string_view names[2];
  std::shared_ptr<const OutputContext> context;
};

/// Where the interpreter writes: called with each chunk of text, in order.
/// (A function rather than a std::ostream, so that the WebAssembly module
/// carries none of iostream's locale machinery.)
using TextSink = std::function<void(std::string_view text)>;

/// Optional bounds on one interpreter's work, for callers that run scripts
/// from strangers (the page's console, the fuzz targets). 0 means no bound.
/// A line that would pass a bound fails with an error naming it, and the
/// run ends there (run() stops; later run_line calls fail the same way).
struct WorkBudget {
  /// Lookups the run may compute: one per key for HASH, BUCKETS and LOAD
  /// (plus n for LOAD n), two per key for MOVED, one per n for a modulo
  /// TRACE (one per step for the others), checked before a command runs.
  /// Placing a node list counts too: its node count plus, for algorithms
  /// that honour weights, its total weight, before it is built (a bucket
  /// count n given to a node-set algorithm is n nodes of weight 1); and its
  /// state in 8-byte words (ring points, table slots) once built or rebuilt
  /// by an edit, so that a large table (ALGO maglev table=10000019) is
  /// built at most once before the budget refuses more work.
  std::uint64_t max_lookups = 0;
  /// Bytes the run may write, output and error lines together. Output stops
  /// after the last whole line that fits; the error saying so is written
  /// beyond the bound.
  std::uint64_t max_output_bytes = 0;
};

class Interpreter {
 public:
  /// Output goes to `out`, error lines to `err`; both are written as each
  /// command runs (output in chunks of up to 64 KiB, each error line before
  /// the next line runs), so a MOVED over 10^8 keys holds no lines in memory.
  Interpreter(TextSink out, TextSink err);
  ~Interpreter();

  /// Runs one line; `line_number` (1-based) labels its error. Returns false
  /// when the line failed.
  bool run_line(std::string_view line, std::uint64_t line_number);

  /// Runs every line of `script`; returns the exit status: 0 when every line
  /// ran, 1 when any failed. Stops at a line that passes the budget. A
  /// script longer than kMaxScriptBytes runs nothing: it writes
  /// "error: the script has <N> bytes, more than ..." and returns 1.
  int run(std::string_view script);

  /// Writes the buffered output to `out` (run_line does after each line).
  void flush();

  /// Bounds the work of every later line (see WorkBudget); counts start at
  /// zero. Without a call there is no bound (the CLI).
  void set_budget(WorkBudget budget);

  /// True once a line failed for passing the budget; the run has ended.
  bool budget_exhausted() const { return budget_exhausted_; }

  /// Called after each output line is written to `out` with the script line
  /// number that produced it.
  void set_output_line_observer(std::function<void(std::uint64_t script_line)> observer) {
    line_observer_ = std::move(observer);
  }

  /// Called for each output line, before it is written, with what it says
  /// as data (the checker builds its expected lines from these). Costs
  /// nothing per line when unset; when set, each printing command copies its
  /// context (the key set and clusters are shared, not copied).
  void set_output_observer(std::function<void(const OutputEvent&)> observer) {
    output_observer_ = std::move(observer);
  }

  bool any_failed() const { return failed_; }

  /// The current key set (what BUCKETS and MOVED would print).
  const KeySet& keys() const { return *keys_; }

 private:
  Result<bool> execute(const std::vector<std::string_view>& args);
  Result<bool> edit_nodes(std::string_view command, std::span<const std::string_view> args);
  /// The current node list under the current algorithm, built on first use.
  Result<const Cluster*> cluster(std::string_view command);
  /// A cluster of nodes "0".."n-1" for a node-set algorithm.
  Result<Cluster> numbered(std::int64_t n, std::string_view what) const;
  void print_moved_total(std::uint64_t moved);
  /// Counts `lookups` against the budget; fails (ending the run) when they
  /// would pass it. `what` names the work, e.g. "BUCKETS over 10 keys".
  Result<bool> spend(std::uint64_t lookups, std::string_view what);
  /// Counts a placement just built (or rebuilt by an edit) against the
  /// budget: its state in 8-byte words (ring points, table slots).
  Result<bool> spend_placement(const Cluster& placed, std::string_view what);
  /// Calls slice(begin, end) over [0, total): in slices under an output
  /// budget, stopping once it is used up; else in one call.
  template <class Slice>
  void in_slices(std::uint64_t total, Slice&& slice);
  /// The error of a command whose output passed the output budget.
  Error output_budget_error();
  /// Starts the context of a command's lines when an observer listens:
  /// `fill` completes it (algorithm, options and keys are set).
  template <class Fill>
  void describe_command(OutputContext::Command command, Fill&& fill);
  /// The history of nodes "0".."n-1", for a context.
  static std::shared_ptr<const NodeHistory> numbered_history(const Cluster& cluster);
  /// Ends the current line in buffer_; fill_row(OutputEvent&) describes it
  /// and is called only when an output observer listens.
  template <class FillRow>
  void emit_line(FillRow&& fill_row);

  TextSink out_;
  TextSink err_;
  const Algorithm* algorithm_;
  OptionValues options_;
  std::shared_ptr<const KeySet> keys_;
  std::shared_ptr<const NodeHistory> history_;  // null until NODES
  std::shared_ptr<const Cluster> cluster_;      // history_ under algorithm_, built on first use
  bool failed_ = false;
  std::uint64_t line_number_ = 0;
  std::string buffer_;
  std::size_t line_start_ = 0;  // where the current line starts in buffer_
  std::function<void(std::uint64_t)> line_observer_;
  std::function<void(const OutputEvent&)> output_observer_;
  std::shared_ptr<const OutputContext> context_;  // of the command printing now
  WorkBudget budget_;
  std::uint64_t lookups_spent_ = 0;
  std::uint64_t bytes_written_ = 0;  // output and error bytes passed to the sinks
  bool output_full_ = false;         // a line did not fit the output budget
  bool budget_exhausted_ = false;
};

/// The commands of the language, in the order the help lists them: the one
/// list that errors, the CLI and the page's editor read.
std::span<const std::string_view> command_names();

/// Runs `script` and returns what it printed, for the bindings and tests.
struct ScriptOutput {
  std::string stdout_text;
  std::string stderr_text;
  int exit_code = 0;
};

/// The budget run_script uses unless given one: output up to
/// kMaxRunOutputBytes, no bound on lookups.
inline constexpr WorkBudget kRunScriptBudget{0, kMaxRunOutputBytes};

/// Runs `script` (at most kMaxScriptBytes) under `budget` and collects what
/// it printed. A longer script prints one error and runs nothing (exit 1).
ScriptOutput run_script(std::string_view script, WorkBudget budget = kRunScriptBudget);

}  // namespace jumphash
