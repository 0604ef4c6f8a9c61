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
// Keywords are case-insensitive, '#' outside quotes starts a comment, blank
// lines are skipped, CRLF is accepted. A failing line prints
// "line <N>: error: <message>" to the error stream and has no effect.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include "jumphash/algorithms.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/keys.hpp"

namespace jumphash {

class Interpreter {
 public:
  /// Output goes to `out`, error lines to `err`; both are written as each
  /// command runs, so a MOVED over 10^8 keys holds no lines in memory.
  Interpreter(std::ostream& out, std::ostream& err);
  ~Interpreter();

  /// Runs one line; `line_number` (1-based) labels its error. Returns false
  /// when the line failed.
  bool run_line(std::string_view line, std::uint64_t line_number);

  /// Runs every line of `input`; returns the exit status: 0 when every line
  /// ran, 1 when any failed.
  int run(std::istream& input);
  int run(std::string_view script);

  /// Called after each output line is written to `out` with the script line
  /// number that produced it (the checker maps expected lines to commands).
  void set_output_line_observer(std::function<void(std::uint64_t script_line)> observer) {
    observer_ = std::move(observer);
  }

  bool any_failed() const { return failed_; }

 private:
  Result<bool> execute(const std::vector<std::string_view>& args);
  Result<bool> edit_nodes(std::string_view command, std::span<const std::string_view> args);
  /// The current node list under the current algorithm, built on first use.
  Result<const Cluster*> cluster(std::string_view command);
  /// A cluster of nodes "0".."n-1" for a node-set algorithm.
  Result<Cluster> numbered(std::int64_t n, std::string_view what) const;
  void print_moved_total(std::uint64_t moved);
  void emit_line();  // ends the current line in buffer_
  void flush();

  std::ostream& out_;
  std::ostream& err_;
  const Algorithm* algorithm_;
  OptionValues options_;
  KeySet keys_;
  std::optional<NodeList> listed_nodes_;  // as NODES set them
  std::vector<NodeEdit> edits_;           // REMOVE and ADD since NODES
  NodeList nodes_;                        // the list after those edits
  std::optional<Cluster> cluster_;        // nodes_ under algorithm_, built on first use
  bool failed_ = false;
  std::uint64_t line_number_ = 0;
  std::string buffer_;
  std::function<void(std::uint64_t)> observer_;
};

/// Runs `script` and returns what it printed, for the bindings and tests.
struct ScriptOutput {
  std::string stdout_text;
  std::string stderr_text;
  int exit_code = 0;
};
ScriptOutput run_script(std::string_view script);

}  // namespace jumphash
