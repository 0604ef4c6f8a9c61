// The exercise checker; see jumphash/checker.hpp for what it promises and
// jumphash/mistakes.hpp for the variants it recomputes.
//
// Steps: (1) run the script with the interpreter, building the expected
// lines from its output events (each with the command that printed it and
// what that command computed from: algorithm, bucket counts or node lists,
// key set); (2) parse the student's lines leniently into a key and its
// values; (3) align the two sides by key (common prefix and suffix, then a
// weighted LCS in the middle); (4) pair the leftovers: the same line
// elsewhere is out of order, leftovers between two aligned lines are paired
// by position when that is safe; (5) give each pair its verdict and
// recompute wrong values with every variant.
#include <algorithm>

#include "checker_internal.hpp"

namespace jumphash {

using namespace checker_detail;

Result<CheckReport> check_output(std::string_view script, std::string_view student_output,
                                 WorkBudget budget) {
  if (student_output.size() > kMaxCheckOutputBytes) {
    return fail("the output to check has ", decimal(student_output.size()),
                " bytes, more than the limit of ", decimal(kMaxCheckOutputBytes),
                " bytes (check-output-bytes, 64 MiB) that the checker reads");
  }
  Result<Expected> run = run_expected(script, budget);
  if (!run) return Error{run.error()};
  const Expected& expected = *run;

  std::vector<StudentLine> student;
  for (std::string_view line : split_lines(student_output)) {
    if (student.size() == kMaxCheckedLines) {
      return fail("the output to check has more than ", decimal(kMaxCheckedLines),
                  " lines; the checker compares at most that many");
    }
    student.push_back(parse_student_line(line, expected.has_node_lines));
  }

  Alignment a = align(expected.lines, student);
  pair_leftovers(a, expected.lines, student);

  CheckReport report;
  report.expected_lines = expected.lines.size();
  report.actual_lines = student.size();
  report.script_errors = expected.errors;
  report.aligned_by_position = a.by_position;

  // The run of missing lines that ends the expected output, if any.
  std::size_t trailing_from = expected.lines.size();
  while (trailing_from > 0 && a.student_of[trailing_from - 1] < 0) --trailing_from;

  // An extra line belongs to the command of the in-order pair just before
  // it, or just after it when that one's command prints lines of its shape
  // (a "<key>: <old> -> <new>" line after the last BUCKETS line and before
  // the first MOVED line is MOVED's). It is listed next to that pair.
  auto command_of = [&](std::size_t e) -> const Command& {
    return expected.commands[expected.lines[e].command];
  };
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  std::vector<std::size_t> next_pair(student.size() + 1, kNone);
  for (std::size_t s = student.size(); s-- > 0;) {
    const std::ptrdiff_t e = a.expected_of[s];
    next_pair[s] = e >= 0 && !a.out_of_order[static_cast<std::size_t>(e)]
                       ? static_cast<std::size_t>(e)
                       : next_pair[s + 1];
  }
  std::vector<std::vector<std::size_t>> extras_at(expected.lines.size() + 1);  // before line k
  std::vector<std::size_t> region(student.size(), kNone);  // expected line an extra belongs to
  std::vector<std::vector<const StudentLine*>> blocks(expected.commands.size());
  std::size_t previous_pair = kNone;
  for (std::size_t s = 0; s < student.size(); ++s) {
    const std::ptrdiff_t paired = a.expected_of[s];
    if (paired >= 0) {
      const auto e = static_cast<std::size_t>(paired);
      blocks[expected.lines[e].command].push_back(&student[s]);
      if (!a.out_of_order[e]) previous_pair = e;
      continue;
    }
    const StudentLine& line = student[s];
    const std::size_t next = next_pair[s];
    const CommandKind wanted =
        line.key_text == "moved" || line.numbers.size() == 2 || line.node_names.size() == 2
            ? CommandKind::moved
            : CommandKind::trace;
    std::size_t chosen = previous_pair != kNone ? previous_pair : next;
    if ((previous_pair == kNone || command_of(previous_pair).kind != wanted) && next != kNone &&
        command_of(next).kind == wanted) {
      chosen = next;
    }
    region[s] = chosen;
    if (chosen != kNone) blocks[expected.lines[chosen].command].push_back(&line);
    extras_at[chosen == kNone ? 0 : chosen == next ? next : chosen + 1].push_back(s);
  }

  Diagnoser diagnoser(expected);
  auto emit_extras = [&](std::size_t slot) {
    for (std::size_t s : extras_at[slot]) {
      LineVerdict v;
      v.verdict = Verdict::extra;
      v.actual_line = s + 1;
      v.actual = student[s].text;
      if (region[s] != kNone) {
        const Command& command = command_of(region[s]);
        v.script_line = command.script_line;
        v.command = command.text;
        v.diagnoses = diagnoser.extra(expected.lines[region[s]], student[s]);
      }
      report.lines.push_back(std::move(v));
    }
  };

  for (std::size_t e = 0; e < expected.lines.size(); ++e) {
    emit_extras(e);
    const ExpectedLine& line = expected.lines[e];
    const Command& command = command_of(e);
    LineVerdict v;
    v.expected_line = e + 1;
    v.script_line = command.script_line;
    v.command = command.text;
    v.expected = line.text;
    const std::ptrdiff_t paired = a.student_of[e];
    if (paired < 0) {
      v.verdict = Verdict::missing;
      v.diagnoses = diagnoser.missing(e, e == trailing_from, expected.lines.size() - e,
                                      blocks[line.command]);
    } else {
      const StudentLine& s = student[static_cast<std::size_t>(paired)];
      v.actual_line = static_cast<std::uint64_t>(paired) + 1;
      v.actual = s.text;
      if (a.out_of_order[e]) {
        v.verdict = Verdict::out_of_order;
        if (s.text != line.text) v.format_problem = describe_format(line, s);
      } else if (s.text == line.text) {
        v.verdict = Verdict::match;
        ++report.matching;
      } else if (canonical_for(line, s) == line.canonical) {
        v.verdict = Verdict::wrong_format;
        v.format_problem = describe_format(line, s);
      } else {
        v.verdict = Verdict::wrong_value;
        v.diagnoses = diagnoser.wrong_value(line, s, blocks[line.command]);
      }
    }
    report.lines.push_back(std::move(v));
  }
  emit_extras(expected.lines.size());
  return report;
}

}  // namespace jumphash
