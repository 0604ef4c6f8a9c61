// Fuzz target: the exercise checker. The input is a script and a student's
// output separated by the first NUL byte; without one, the student output
// is what the script prints (the all-match path). check_output runs the
// script under the fuzz budget (fuzz_support.hpp). Properties: nothing
// crashes, errors and script errors are printable, a script the budget
// refuses ends the check with an Error, every student line appears exactly
// once in the report, and an unchanged output matches.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_support.hpp"
#include "jumphash/checker.hpp"
#include "jumphash/interpreter.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace jumphash;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::size_t separator = input.find('\0');
  const std::string_view script = input.substr(0, separator);
  if (fuzz::asks_for_huge_placement(script)) return 0;

  // A run under the budget gives the script's own output; a script it
  // refuses must end the check, under the same budget, with an Error.
  std::string printed;
  Interpreter dry_run([&printed](std::string_view text) { printed += text; },
                      [](std::string_view) {});
  dry_run.set_budget(fuzz::kFuzzBudget);
  dry_run.run(script);
  if (dry_run.budget_exhausted()) {
    Result<CheckReport> refused = check_output(script, "", fuzz::kFuzzBudget);
    if (refused) fuzz::property_failed("the check ran a script that passes the budget", script);
    fuzz::check_printable(refused.error());
    return 0;
  }

  const bool own_output = separator == std::string_view::npos;
  const std::string_view student =
      own_output ? std::string_view(printed) : input.substr(separator + 1);
  Result<CheckReport> report = check_output(script, student, fuzz::kFuzzBudget);
  if (!report) {
    fuzz::check_printable(report.error());
    return 0;
  }
  for (const std::string& error : report->script_errors) fuzz::check_printable(error);
  std::uint64_t student_lines = 0;
  for (const LineVerdict& line : report->lines) {
    if (line.actual_line != 0) ++student_lines;
  }
  if (student_lines != report->actual_lines) {
    fuzz::property_failed("a student line is not in the report exactly once", input);
  }
  if (own_output && report->script_errors.empty() && !report->all_match()) {
    fuzz::property_failed("the script's own output does not match", script);
  }
  (void)render_check_report(*report);
  return 0;
}
