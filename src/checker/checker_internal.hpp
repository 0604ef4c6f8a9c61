// The exercise checker's parts (see jumphash/checker.hpp): the expected
// lines built from the interpreter's output events (expected.cpp), the
// student's lines read leniently (student.cpp), their alignment by key
// (alignment.cpp), the recomputation of wrong lines with every variant
// (diagnosis.cpp) and the report's text (render.cpp); check.cpp joins them.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "jumphash/checker.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/reports.hpp"

namespace jumphash::checker_detail {

using CommandKind = OutputContext::Command;

/// A script line that printed something, with what it computed from.
struct Command {
  CommandKind kind = CommandKind::hash;
  std::uint64_t script_line = 0;
  std::string text;  // the script line (comments kept, CR removed)
  const Algorithm* algorithm = nullptr;
  Key key;                             // HASH, TRACE
  std::int32_t n = 0;                  // bucket counts: HASH, BUCKETS, LOAD: n; TRACE: max
  std::int32_t from = 0, to = 0;       // MOVED <from> <to>
  std::shared_ptr<const KeySet> keys;  // the key set in effect
  std::shared_ptr<const OutputContext> context;
  /// The command placed keys on a node list (its lines name nodes).
  bool on_nodes() const { return context->cluster != nullptr; }
};

/// The form of an expected line. Bucket counts print numbers; node lists
/// print node names (key_node, node_move, node_load).
enum class Shape { key_bucket, key_move, moved_total, load, trace, key_node, node_move, node_load };

struct ExpectedLine {
  std::string text;
  std::size_t command = 0;  // index into Expected::commands
  Shape shape = Shape::key_bucket;
  std::uint64_t key = 0;  // key value; TRACE: n; LOAD: bucket or node index
  /// Canonical key: decimal, the quoted label, "moved", or (node_load) the
  /// node's name.
  std::string key_text;
  bool numeric_key = true;           // false for string keys, "moved" and node names
  std::string key_bytes;             // a string key's bytes (what node-set algorithms hash)
  std::vector<std::int64_t> values;  // buckets, counts; node lines: node indices, counts
  std::vector<std::string> names;    // key_node, node_move: the nodes printed
  std::string canonical;             // key and values, for finding a line elsewhere

  /// The key as Cluster::locate takes it: null for keys that print as decimal.
  const Key* string_key(Key& scratch) const;
};

struct Expected {
  std::vector<Command> commands;
  std::vector<ExpectedLine> lines;
  std::vector<std::string> errors;
  bool has_node_lines = false;
};

/// (1) Runs the script under `budget`, building the expected lines from
/// output events. Errors: more than kMaxCheckedLines lines; a line that
/// passes the budget.
Result<Expected> run_expected(std::string_view script, WorkBudget budget);

struct StudentLine {
  std::string text;       // without the newline and a trailing CR
  std::string key_token;  // as written
  std::string key_text;   // canonical, comparable with ExpectedLine::key_text
  bool numeric_key = false;
  std::uint64_t key = 0;
  bool numbers_ok = true;  // false when a number overflowed
  std::vector<std::int64_t> numbers;
  std::string canonical;
  /// The key token's value as the nearest double when it is all digits
  /// (any length), else NaN: a key printed from a JavaScript Number reads
  /// "18446744073709552000" for 18446744073709551615.
  double key_as_double = std::numeric_limits<double>::quiet_NaN();

  // Readings as a node line (only when the expected output names nodes):
  /// `<key>: <node>` or `<key>: <old> -> <new>`: the text after the key and
  /// ':', split at "->", blanks around each name removed.
  std::vector<std::string> node_names;
  std::string node_canonical;  // comparable with a key_node or node_move canonical
  /// `<node>: <count>`: the name before the last ':', the count after it.
  std::string load_name;
  std::size_t load_name_end = 0;  // where the name ends in text
  std::string load_canonical;     // comparable with a node_load canonical; empty if unread
};

/// (2) Reads one student line; `node_readings` adds the node readings.
StudentLine parse_student_line(std::string_view text, bool node_readings);

/// The student's canonical form in the reading that `e` calls for.
const std::string& canonical_for(const ExpectedLine& e, const StudentLine& s);

/// The student printed the expected line's key as its nearest double (a
/// key held in a JavaScript Number): different digits, same double.
bool key_printed_as_double(const ExpectedLine& e, const StudentLine& s);

/// (3) and (4): pairs of expected and student lines.
struct Alignment {
  std::vector<std::ptrdiff_t> student_of;   // per expected line, -1 when unpaired
  std::vector<std::ptrdiff_t> expected_of;  // per student line, -1 when unpaired
  std::vector<bool> out_of_order;           // per expected line
  bool by_position = false;
};
Alignment align(const std::vector<ExpectedLine>& expected, const std::vector<StudentLine>& student);
void pair_leftovers(Alignment& a, const std::vector<ExpectedLine>& expected,
                    const std::vector<StudentLine>& student);

/// (5) What is wrong with a line whose key and values are right.
std::string describe_format(const ExpectedLine& e, const StudentLine& s);

/// One recomputation on bucket counts: the algorithm in effect with one
/// thing changed.
struct Candidate {
  std::string_view id;
  std::string how;  // e.g. "with JavaScript Numbers", "at n - 1", "with modulo"
  /// The bucket this variant prints for (key, n); numeric is false for
  /// string keys (which are never parsed as numbers). -1 when n +/- 1 falls
  /// outside 1..2147483647.
  std::function<std::int32_t(std::uint64_t key, bool numeric, std::int64_t n)> bucket;
  int n_shift = 0;       // off-by-one-n: the shift of n (TRACE: of max)
  bool monotone = true;  // its bucket only changes by jumping to the new bucket
};

/// The variants of a bucket-count algorithm, in the catalog's order.
std::vector<Candidate> candidates_for(const Algorithm& algorithm);

/// Where one variant puts keys on one node list: a registered algorithm's
/// cluster, or a bucket-count variant indexing the list.
struct Placer {
  std::shared_ptr<const Cluster> cluster;
  std::function<std::int32_t(std::uint64_t key, bool numeric, std::int64_t n)> bucket;
  const NodeList* indexed = nullptr;  // with bucket: the list it indexes
  /// The node `key` lands on, or null (a variant's bucket outside the list).
  const Node* locate(std::uint64_t value, const Key* key) const;
};

/// One recomputation on a node list: another algorithm (or a variant of
/// the one in effect) on the command's list(s).
struct NodeCandidate {
  std::string_view id;
  std::string what;      // "ketama", "servers[jump(key, 9)]", "jump with JavaScript Numbers"
  std::string note;      // appended once to the detail, e.g. why the list is renumbered
  Placer before, after;  // after: MOVED on node lists only
};

/// (5) Recomputes wrong lines with every variant; caches per command.
class Diagnoser {
 public:
  explicit Diagnoser(const Expected& expected) : expected_(expected) {}
  /// Mistakes that reproduce the student's values on a paired line; `block`:
  /// the student's lines attributed to the same command (a node LOAD line
  /// is only explained by a variant that gives every count of the block).
  std::vector<Diagnosis> wrong_value(const ExpectedLine& e, const StudentLine& s,
                                     const std::vector<const StudentLine*>& block);
  /// Why expected line `line` (an index into Expected::lines) may be
  /// missing (see LineVerdict::diagnoses); `stops_here`: the student's
  /// output ends before it (every later expected line is missing too).
  std::vector<Diagnosis> missing(std::size_t line, bool stops_here, std::uint64_t missing_after,
                                 const std::vector<const StudentLine*>& block);
  /// Variants that print an extra student line after expected line
  /// `previous` (a MOVED or TRACE block).
  std::vector<Diagnosis> extra(const ExpectedLine& previous, const StudentLine& s);

 private:
  const std::vector<Candidate>& candidates_of(const Algorithm& algorithm);
  static void add(std::vector<Diagnosis>& out, std::string_view id, const std::string& detail);
  static std::string how(const Candidate& c, const ExpectedLine& e, const Command& command);
  void moved_total(const ExpectedLine& e, const StudentLine& s, std::vector<Diagnosis>& out);
  std::optional<std::uint64_t> moved_count(std::size_t command_index, std::size_t candidate_index);
  const std::optional<std::vector<TraceStep>>& trace_of(std::size_t command_index,
                                                        std::size_t candidate_index);
  void trace_step(const ExpectedLine& e, std::uint64_t n, std::int64_t bucket,
                  std::vector<Diagnosis>& out);
  /// no-64-bit-wrap: the first computation that never returns in a
  /// program without the 64-bit wrap, and where its output can stop.
  struct UnwrappedHang {
    /// Expected lines: the output stops at one in first_line..last_line,
    /// the first line of the command (a program that computes before it
    /// prints) up to the line before which a program that prints as it
    /// goes stops.
    std::size_t first_line = 0, last_line = 0;
    std::uint64_t key = 0;
    std::string key_text;  // as the script prints it
    std::int64_t n = 0;    // the bucket count of the call that never returns
  };
  const std::optional<UnwrappedHang>& unwrapped_hang();

  // Node lists.
  const std::vector<NodeCandidate>& node_candidates_of(std::size_t command_index);
  std::shared_ptr<const Cluster> build(const Algorithm& algorithm,
                                       const std::shared_ptr<const NodeHistory>& history);
  std::optional<std::uint64_t> node_moved_count(std::size_t command_index,
                                                std::size_t candidate_index);
  /// Keys per node name under a candidate, or nothing when the key set
  /// exceeds kMaxDiagnosedMovedKeys or a variant falls outside the list.
  const std::optional<std::unordered_map<std::string, std::uint64_t>>& node_loads(
      std::size_t command_index, std::size_t candidate_index);
  void node_wrong_value(const ExpectedLine& e, const StudentLine& s,
                        const std::vector<const StudentLine*>& block, std::vector<Diagnosis>& out);
  void node_missing_move(const ExpectedLine& e, const std::vector<const StudentLine*>& block,
                         std::vector<Diagnosis>& out);
  void node_extra_move(const ExpectedLine& previous, const StudentLine& s,
                       std::vector<Diagnosis>& out);

  const Expected& expected_;
  std::map<AlgorithmId, std::vector<Candidate>> candidates_;
  std::optional<std::optional<UnwrappedHang>> unwrapped_hang_;  // outer: computed yet
  std::map<std::pair<std::size_t, std::size_t>, std::optional<std::vector<TraceStep>>> traces_;
  std::map<std::pair<std::size_t, std::size_t>, std::optional<std::uint64_t>> moved_counts_;
  std::map<std::size_t, std::vector<NodeCandidate>> node_candidates_;
  std::map<std::pair<const NodeHistory*, AlgorithmId>, std::shared_ptr<const Cluster>> clusters_;
  std::map<std::pair<std::size_t, std::size_t>,
           std::optional<std::unordered_map<std::string, std::uint64_t>>>
      node_loads_;
};

// Small text helpers shared by the parts.
std::string decimal(std::uint64_t value);
std::string signed_decimal(std::int64_t value);
std::string upper(std::string_view word);
bool all_digits(std::string_view text);
bool to_u64(std::string_view text, std::uint64_t& value);
bool is_blank(char c);
std::vector<std::string_view> split_lines(std::string_view text);
std::string canonical_of(const std::string& key_text, const std::vector<std::int64_t>& values);

}  // namespace jumphash::checker_detail
