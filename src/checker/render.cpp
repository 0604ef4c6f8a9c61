// The checker's words: verdict names, what is wrong with a line's text, and
// the CLI's report.
#include <algorithm>

#include "checker_internal.hpp"

namespace jumphash {

std::string_view verdict_id(Verdict verdict) {
  switch (verdict) {
    case Verdict::match:
      return "match";
    case Verdict::wrong_value:
      return "wrong-value";
    case Verdict::wrong_format:
      return "wrong-format";
    case Verdict::missing:
      return "missing";
    case Verdict::extra:
      return "extra";
    case Verdict::out_of_order:
      return "out-of-order";
  }
  return "match";
}

std::string_view verdict_text(Verdict verdict) {
  switch (verdict) {
    case Verdict::match:
      return "match";
    case Verdict::wrong_value:
      return "wrong value";
    case Verdict::wrong_format:
      return "wrong format";
    case Verdict::missing:
      return "missing line";
    case Verdict::extra:
      return "extra line";
    case Verdict::out_of_order:
      return "out of order";
  }
  return "match";
}

namespace checker_detail {

std::string describe_format(const ExpectedLine& e, const StudentLine& s) {
  std::vector<std::string> problems;
  const std::string& t = s.text;
  if (t.find('\t') != std::string::npos) problems.emplace_back("a tab where one space belongs");
  if (!t.empty() && is_blank(t.front())) problems.emplace_back("blanks before the key");
  if (!t.empty() && is_blank(t.back())) problems.emplace_back("blanks at the end of the line");
  const bool load_of_node = e.shape == Shape::node_load;
  if (!load_of_node && s.key_text == e.key_text && s.key_token != e.key_text) {
    problems.push_back("the key is written '" + s.key_token + "' instead of '" + e.key_text + "'");
  }
  // What follows the key (a LOAD line's node name): exactly ": ".
  const std::size_t after_key =
      load_of_node ? s.load_name_end : t.find(s.key_token) + s.key_token.size();
  std::size_t i = after_key;
  while (i < t.size() && is_blank(t[i])) ++i;
  if (i > after_key && i < t.size() && t[i] == ':') problems.emplace_back("a blank before ':'");
  if (i >= t.size() || t[i] != ':') {
    problems.emplace_back("no ':' after the key");
  } else {
    std::size_t j = i + 1;
    while (j < t.size() && is_blank(t[j])) ++j;
    if (j == i + 1) {
      problems.emplace_back("no space after ':'");
    } else if (j > i + 2 && t.find('\t', i) >= j) {
      problems.emplace_back("more than one space after ':'");
    }
  }
  if (e.shape == Shape::key_move || e.shape == Shape::node_move) {
    const std::size_t arrow = t.find("->");
    if (arrow == std::string::npos) {
      problems.emplace_back("the arrow is not written '->'");
    } else if (t.find(" -> ") != arrow - 1 || (arrow >= 2 && is_blank(t[arrow - 2])) ||
               (arrow + 3 < t.size() && is_blank(t[arrow + 3]))) {
      problems.emplace_back("'->' needs exactly one space on each side");
    }
  }
  if (e.shape == Shape::moved_total && t.find(" of ") == std::string::npos) {
    problems.emplace_back("the count and total must be joined by ' of '");
  } else if (e.shape == Shape::moved_total && t.find("  ") != std::string::npos) {
    problems.emplace_back("more than one space between words");
  }
  if (problems.empty()) return "the text is not exactly '" + e.text + "'";
  std::string out;
  for (const std::string& p : problems) {
    if (!out.empty()) out += "; ";
    out += p;
  }
  return out;
}

}  // namespace checker_detail

using checker_detail::decimal;

std::string render_check_report(const CheckReport& report) {
  std::string out;
  if (!report.script_errors.empty()) {
    out +=
        "the script itself has errors; the expected output below is what its other lines "
        "print (fix the script before trusting this check):\n";
    for (const std::string& error : report.script_errors) out += "  " + error + "\n";
  }
  if (report.aligned_by_position) {
    out +=
        "note: part of the outputs is too large to align by key; there lines are compared "
        "by position\n";
  }
  std::vector<std::string> explained;
  for (const LineVerdict& v : report.lines) {
    if (v.verdict == Verdict::match) continue;
    std::string where;
    if (v.verdict == Verdict::extra) {
      where = "actual line " + decimal(v.actual_line);
      where += v.script_line ? " (after the output of script line " + decimal(v.script_line) +
                                   ": " + v.command + ")"
                             : " (before the first expected line)";
    } else {
      where = "expected line " + decimal(v.expected_line) + " (script line " +
              decimal(v.script_line) + ": " + v.command + ")";
    }
    out += where + ": " + std::string(verdict_text(v.verdict));
    if (v.verdict == Verdict::out_of_order)
      out += ", found at actual line " + decimal(v.actual_line);
    if (!v.format_problem.empty()) out += " (" + v.format_problem + ")";
    out += "\n";
    if (v.verdict != Verdict::extra) out += "  expected: " + v.expected + "\n";
    const std::string actual = v.verdict == Verdict::missing ? "(no line)"
                               : v.actual.empty()            ? "(empty line)"
                                                             : v.actual;
    out += "  actual:   " + actual + "\n";
    if (v.verdict == Verdict::wrong_value && v.diagnoses.empty()) {
      out += "  no known mistake gives exactly this value\n";
    }
    for (const Diagnosis& d : v.diagnoses) {
      out += "  " + d.id + ": " + d.detail + "\n";
      if (std::find(explained.begin(), explained.end(), d.id) != explained.end()) continue;
      explained.push_back(d.id);
      out += "    " + std::string(d.explanation) + "\n";
      out += "    fix: " + std::string(d.fix) + "\n";
    }
  }
  out += "checked: " + decimal(report.matching) + " of " + decimal(report.expected_lines) +
         " lines match\n";
  return out;
}

}  // namespace jumphash
