// Embind registrations of the exercise checker (jumphash/checker.hpp), a
// module of its own so that pages which never check output (the embed page,
// most visits) do not download it: the checker roughly doubles the core's
// .wasm. Loaded by loadChecker() in src/index.js.
#include <emscripten/bind.h>

#include <string>
#include <utility>
#include <vector>

#include "jumphash/checker.hpp"
#include "jumphash/version.hpp"

namespace jumphash::wasm {
namespace {

/// One diagnosis, as plain strings for JavaScript.
struct DiagnosisRow {
  std::string id, detail, explanation, fix;
};

/// One LineVerdict; line numbers are doubles (JS numbers), 0 meaning none.
struct VerdictRow {
  std::string verdict;  ///< verdict_id: "match", "wrong-value", ...
  double expected_line = 0, actual_line = 0, script_line = 0;
  std::string command, expected, actual, format_problem;
  std::vector<DiagnosisRow> diagnoses;
};

/// check_output's report (or its error), plus the CLI's rendering of it.
struct CheckResult {
  std::string error;
  std::vector<VerdictRow> lines;
  double matching = 0, expected_lines = 0, actual_lines = 0;
  std::vector<std::string> script_errors;
  bool aligned_by_position = false;
  bool all_match = false;
  std::string text;
};

/// max_lookups bounds the run that computes the expected lines (0: none).
CheckResult check(const std::string& script, const std::string& student_output, double max_lookups) {
  CheckResult result;
  Result<CheckReport> report =
      check_output(script, student_output, WorkBudget{static_cast<std::uint64_t>(max_lookups), 0});
  if (!report) {
    result.error = report.error();
    return result;
  }
  for (const LineVerdict& line : report->lines) {
    VerdictRow row;
    row.verdict = std::string(verdict_id(line.verdict));
    row.expected_line = static_cast<double>(line.expected_line);
    row.actual_line = static_cast<double>(line.actual_line);
    row.script_line = static_cast<double>(line.script_line);
    row.command = line.command;
    row.expected = line.expected;
    row.actual = line.actual;
    row.format_problem = line.format_problem;
    for (const Diagnosis& d : line.diagnoses) {
      row.diagnoses.push_back({d.id, d.detail, std::string(d.explanation), std::string(d.fix)});
    }
    result.lines.push_back(std::move(row));
  }
  result.matching = static_cast<double>(report->matching);
  result.expected_lines = static_cast<double>(report->expected_lines);
  result.actual_lines = static_cast<double>(report->actual_lines);
  result.script_errors = report->script_errors;
  result.aligned_by_position = report->aligned_by_position;
  result.all_match = report->all_match();
  result.text = render_check_report(*report);
  return result;
}

std::string version() { return kVersion; }

}  // namespace
}  // namespace jumphash::wasm

EMSCRIPTEN_BINDINGS(jumphash_checker) {
  using namespace emscripten;
  using namespace jumphash::wasm;

  value_object<DiagnosisRow>("DiagnosisRow")
      .field("id", &DiagnosisRow::id)
      .field("detail", &DiagnosisRow::detail)
      .field("explanation", &DiagnosisRow::explanation)
      .field("fix", &DiagnosisRow::fix);
  register_vector<DiagnosisRow>("DiagnosisRows");
  value_object<VerdictRow>("VerdictRow")
      .field("verdict", &VerdictRow::verdict)
      .field("expectedLine", &VerdictRow::expected_line)
      .field("actualLine", &VerdictRow::actual_line)
      .field("scriptLine", &VerdictRow::script_line)
      .field("command", &VerdictRow::command)
      .field("expected", &VerdictRow::expected)
      .field("actual", &VerdictRow::actual)
      .field("formatProblem", &VerdictRow::format_problem)
      .field("diagnoses", &VerdictRow::diagnoses);
  register_vector<VerdictRow>("VerdictRows");
  register_vector<std::string>("Strings");
  value_object<CheckResult>("CheckResult")
      .field("error", &CheckResult::error)
      .field("lines", &CheckResult::lines)
      .field("matching", &CheckResult::matching)
      .field("expectedLines", &CheckResult::expected_lines)
      .field("actualLines", &CheckResult::actual_lines)
      .field("scriptErrors", &CheckResult::script_errors)
      .field("alignedByPosition", &CheckResult::aligned_by_position)
      .field("allMatch", &CheckResult::all_match)
      .field("text", &CheckResult::text);
  function("check", &check);
  function("version", &version);
}
