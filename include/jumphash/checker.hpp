// The exercise checker: compares a student's output with what a script
// prints, line by line, and names the classic mistake that reproduces each
// wrong number (issue 5). Shared by the CLI (`jumphash check`) and the wasm
// package; pure: strings in, a structured report out, no I/O.
//
// Expected output is the interpreter's stdout for the script, taken from its
// output events (each line's key and values as data). Each expected line
// gets one verdict; student lines that belong to no expected line are
// `extra`. Lines are aligned by their key (the key of HASH/BUCKETS/MOVED
// lines, "moved", the n of TRACE, the bucket or node of LOAD), so one
// missing line does not make every later line wrong:
//
//   match         the text is exactly the expected text
//   wrong_format  key and values right, text not exactly `<key>: <bucket>`,
//                 `<key>: <old> -> <new>`, `moved: <count> of <total>`,
//                 `<key>: <node>` or `<node>: <count>`
//   wrong_value   some value differs (diagnoses name the mistakes that
//                 reproduce it)
//   missing       no student line for this expected line
//   extra         a student line that matches no expected line
//   out_of_order  the line is there, with the right values, elsewhere
//
// On node lists (NODES) a student's line is read by names: a key line's key
// is the text before the first ':' (a string key in quotes), its node the
// rest (split at "->" for MOVED); a LOAD line's node is the text before the
// last ':' (names may hold ':' and spaces; quoted names print unquoted).
// Wrong node lines are recomputed with every other registered algorithm on
// the same list (node-set ones with their default options, bucket-count
// ones indexing the list): `other-algorithm`, or `index-renumbering` when
// servers[bucket(key, count)] explains it after a middle node was removed.
//
// A trailing carriage return on a student line is accepted (CRLF files);
// any other difference in spacing is a format error.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/interpreter.hpp"
#include "jumphash/limits.hpp"
#include "jumphash/mistakes.hpp"
#include "jumphash/result.hpp"

namespace jumphash {

// kMaxCheckedLines, kMaxCheckOutputBytes: in jumphash/limits.hpp, the one
// table of limits.

/// Largest key set over which a MOVED summary (or a node LOAD) is
/// recomputed with every variant (each key costs two lookups per variant);
/// above it the line is only checked, not diagnosed with variants.
inline constexpr std::uint64_t kMaxDiagnosedMovedKeys = 1000000;

enum class Verdict { match, wrong_value, wrong_format, missing, extra, out_of_order };

/// Stable identifier of a verdict: "match", "wrong-value", "wrong-format",
/// "missing", "extra", "out-of-order".
std::string_view verdict_id(Verdict verdict);

/// Words for a reader: "match", "wrong value", "wrong format", "missing
/// line", "extra line", "out of order".
std::string_view verdict_text(Verdict verdict);

/// One mistake that reproduces (or explains) a line.
struct Diagnosis {
  std::string id;                ///< a kMistakes identifier, e.g. "js-number"
  std::string detail;            ///< this line's evidence, e.g. "at n - 1 = 99 jump gives 42"
  std::string_view explanation;  ///< the catalog's paragraph (static storage)
  std::string_view fix;          ///< the catalog's fix (static storage)
};

/// The verdict of one expected line, or one extra student line.
struct LineVerdict {
  Verdict verdict = Verdict::match;
  /// 1-based line of the expected output; 0 for an extra line.
  std::uint64_t expected_line = 0;
  /// 1-based line of the student's output; 0 for a missing line.
  std::uint64_t actual_line = 0;
  /// 1-based script line that printed the expected line. For an extra line:
  /// the script line of the command it is attributed to: that of the aligned
  /// line before it, or of the one after it when only that command prints
  /// lines of its shape (0 when the output has no aligned line).
  std::uint64_t script_line = 0;
  std::string command;   ///< that script line's text (comments kept, CR removed)
  std::string expected;  ///< expected text, no newline; empty for extra
  std::string actual;    ///< student text, no newline or CR; empty for missing
  /// For wrong_format (and out_of_order lines whose text also differs): what
  /// is wrong with the text, e.g. "a tab where one space belongs; no space
  /// after ':'".
  std::string format_problem;
  /// In the catalog's order (kMistakes): for wrong_value, every variant that
  /// reproduces the student's values exactly (and moved-estimated; on node
  /// lists, every other algorithm that gives the student's node, move, moved
  /// count, or every count of the LOAD block); for a
  /// missing line, no-64-bit-wrap when the output stops in the first jump or
  /// jump-guava command whose loop never ends without the 64-bit wrap (any
  /// key >= 1 once n >= 7; see unwrapped_jump_first_target), variants under
  /// which a MOVED key does not
  /// move and that give the student's moved count, variants whose TRACE lacks
  /// the step but has every step the student printed; for an extra MOVED or
  /// TRACE line, the variants that print it. Empty when nothing explains it.
  std::vector<Diagnosis> diagnoses;
};

struct CheckReport {
  /// Every expected line in order (expected_line 1, 2, ...), with each extra
  /// line inserted next to the command it is attributed to, in the student's
  /// order. Every student line appears exactly once (paired or extra).
  std::vector<LineVerdict> lines;
  std::uint64_t matching = 0;        ///< lines with verdict match
  std::uint64_t expected_lines = 0;  ///< lines the script prints
  std::uint64_t actual_lines = 0;    ///< lines of the student's output
  /// The script's own errors ("line N: error: ..."), one per failing line.
  /// The expected output is then what the other lines print.
  std::vector<std::string> script_errors;
  /// True when some stretch of the outputs was too large to align by key
  /// (above 2^24 expected x student lines) and had no line that occurs once
  /// on each side to cut it at; its lines were paired by position.
  bool aligned_by_position = false;

  /// Every expected line matches and there is no extra line.
  bool all_match() const { return matching == expected_lines && actual_lines == expected_lines; }
};

/// Runs `script` with the interpreter and checks `student_output` against
/// its stdout. `student_output` lines end with "\n" (or "\r\n"); a missing
/// final newline is accepted.
///
/// `budget` bounds the interpreter run that computes the expected lines
/// (lookups and output bytes, see WorkBudget; the default {} bounds
/// nothing, as `jumphash check` runs). Callers that check scripts from
/// strangers pass one, so that a script over 10^9 keys ends at once: the
/// script line that would pass it ends the check with an Error (the
/// expected output would be incomplete). The recomputation of wrong lines
/// with the variants is bounded by kMaxDiagnosedMovedKeys, not by `budget`.
///
/// Errors, each naming its limit: the student output has more than
/// kMaxCheckOutputBytes bytes (checked before the script runs) or more
/// than kMaxCheckedLines lines; the script prints more than
/// kMaxCheckedLines lines; a script line passes `budget`. Script errors are
/// not Errors: they are listed in the report.
Result<CheckReport> check_output(std::string_view script, std::string_view student_output,
                                 WorkBudget budget = {});

/// The CLI's text: for each line that is not a match, the expected-output
/// line, the script line, expected and actual text, the verdict and the
/// diagnoses (each mistake's explanation and fix the first time it is
/// named), then "checked: <matching> of <expected lines> lines match".
std::string render_check_report(const CheckReport& report);

}  // namespace jumphash
