// The exercise checker; see jumphash/checker.hpp for what it promises and
// jumphash/mistakes.hpp for the variants it recomputes.
//
// Steps: (1) run the script line by line with the interpreter, remembering
// for each output line the command that printed it and the algorithm and key
// set in effect; (2) parse the student's lines leniently into a key and its
// numbers; (3) align the two sides by key (common prefix and suffix, then a
// weighted LCS in the middle); (4) pair the leftovers: the same line
// elsewhere is out of order, leftovers between two aligned lines are paired
// by position when that is safe; (5) give each pair its verdict and
// recompute wrong numbers with every variant.
#include "jumphash/checker.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

#include "jumphash/algorithms.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/reports.hpp"

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

namespace {

/// Largest section (expected x student lines) aligned by the weighted LCS
/// (one byte per cell); larger ones are first cut at unique lines.
constexpr std::uint64_t kMaxAlignCells = std::uint64_t{1} << 24;

constexpr std::uint64_t kTwo63 = std::uint64_t{1} << 63;

enum class CommandKind { hash, buckets, moved, load, trace };

/// A script line that printed something, with the state it ran in.
struct Command {
  CommandKind kind;
  std::uint64_t script_line = 0;
  std::string text;
  const Algorithm* algorithm = nullptr;
  Key key;                             // HASH, TRACE
  std::int32_t n = 0;                  // HASH, BUCKETS, LOAD: n; TRACE: max
  std::int32_t from = 0;               // MOVED
  std::int32_t to = 0;                 // MOVED
  std::shared_ptr<const KeySet> keys;  // BUCKETS, MOVED
};

enum class Shape { key_bucket, key_move, moved_total, load, trace };

struct ExpectedLine {
  std::string text;
  std::size_t command = 0;  // index into Expected::commands
  Shape shape = Shape::key_bucket;
  std::uint64_t key = 0;    // key value; TRACE: n; LOAD: bucket
  std::string key_text;     // canonical key: decimal, the quoted label, or "moved"
  bool numeric_key = true;  // false for string keys and "moved"
  std::vector<std::int64_t> values;
  std::string canonical;  // key_text + values, for finding a line elsewhere
};

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
};

/// The student printed the expected line's key as its nearest double (a
/// key held in a JavaScript Number): different digits, same double.
bool key_printed_as_double(const ExpectedLine& e, const StudentLine& s) {
  return e.numeric_key && s.key_text != e.key_text && s.key_as_double == static_cast<double>(e.key);
}

struct Expected {
  std::vector<Command> commands;
  std::vector<ExpectedLine> lines;
  std::vector<std::string> errors;
};

std::string upper(std::string_view word) {
  std::string result(word);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

std::string decimal(std::uint64_t value) {
  std::string out;
  append_decimal(out, value);
  return out;
}

std::string signed_decimal(std::int64_t value) {
  if (value >= 0) return decimal(static_cast<std::uint64_t>(value));
  return "-" + decimal(0 - static_cast<std::uint64_t>(value));
}

std::string canonical_of(const std::string& key_text, const std::vector<std::int64_t>& values) {
  std::string out = key_text;
  for (std::int64_t v : values) {
    out += '|';
    out += signed_decimal(v);
  }
  return out;
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// Decimal digits to uint64; false on overflow or non-digits.
bool to_u64(std::string_view text, std::uint64_t& value) {
  if (!all_digits(text)) return false;
  std::uint64_t v = 0;
  for (char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return false;
    v = v * 10 + digit;
  }
  value = v;
  return true;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

// ---------------------------------------------------------------------------
// (1) The expected side.

/// Fills key, key_text, numeric_key from the key as the interpreter printed it.
void set_expected_key(ExpectedLine& line, std::string_view key_text) {
  line.key_text = std::string(key_text);
  if (!key_text.empty() && key_text.front() == '"') {
    line.numeric_key = false;
    Result<Key> key = parse_key(key_text);
    if (key) line.key = key->value;
  } else {
    to_u64(key_text, line.key);
  }
}

std::int64_t number_after(std::string_view text, std::size_t pos) {
  std::uint64_t v = 0;
  std::size_t end = pos;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  to_u64(text.substr(pos, end - pos), v);
  return static_cast<std::int64_t>(v);
}

/// Structures one line the interpreter printed (its formats are fixed).
ExpectedLine structure_line(std::string text, std::size_t command_index, const Command& command,
                            bool last_of_command) {
  ExpectedLine line;
  line.command = command_index;
  const std::string_view t = text;
  switch (command.kind) {
    case CommandKind::hash:
    case CommandKind::buckets:
    case CommandKind::load:
    case CommandKind::trace: {
      line.shape = command.kind == CommandKind::load    ? Shape::load
                   : command.kind == CommandKind::trace ? Shape::trace
                                                        : Shape::key_bucket;
      const std::size_t colon = t.rfind(": ");
      set_expected_key(line, t.substr(0, colon));
      line.values = {number_after(t, colon + 2)};
      break;
    }
    case CommandKind::moved:
      if (last_of_command) {  // "moved: <count> of <total>"
        line.shape = Shape::moved_total;
        line.key_text = "moved";
        line.numeric_key = false;
        const std::size_t of = t.rfind(" of ");
        line.values = {number_after(t, 7), number_after(t, of + 4)};
      } else {  // "<key>: <old> -> <new>"
        line.shape = Shape::key_move;
        const std::size_t arrow = t.rfind(" -> ");
        const std::size_t colon = t.rfind(": ", arrow);
        set_expected_key(line, t.substr(0, colon));
        line.values = {number_after(t, colon + 2), number_after(t, arrow + 4)};
      }
      break;
  }
  line.canonical = canonical_of(line.key_text, line.values);
  line.text = std::move(text);
  return line;
}

Result<Expected> run_expected(std::string_view script) {
  Expected expected;
  std::ostringstream out, err;
  Interpreter interpreter(out, err);
  std::vector<std::uint64_t> line_of_output;
  interpreter.set_output_line_observer(
      [&line_of_output](std::uint64_t script_line) { line_of_output.push_back(script_line); });

  const Algorithm* algorithm = &algorithms()[0];
  auto keys = std::make_shared<const KeySet>();
  const std::vector<std::string_view> script_lines = split_lines(script);
  for (std::size_t index = 0; index < script_lines.size(); ++index) {
    const std::uint64_t number = index + 1;
    const std::string_view line = script_lines[index];
    Result<std::vector<std::string_view>> tokens = split_tokens(line);
    const std::string word = tokens && !tokens->empty() ? upper((*tokens)[0]) : std::string();
    const std::uint64_t printed = line_of_output.size();
    const std::uint64_t bound = word == "BUCKETS" ? keys->size()
                                : word == "MOVED" ? keys->size() + 1
                                                  : 0;
    if (printed + bound > kMaxCheckedLines) {
      return fail("the script prints more than ", decimal(kMaxCheckedLines), " lines (script line ",
                  decimal(number), ": ", std::string(line),
                  "); the checker compares at most that many");
    }

    const bool ok = interpreter.run_line(line, number);
    if (!ok) {
      std::string message = err.str();
      while (!message.empty() && message.back() == '\n') message.pop_back();
      expected.errors.push_back(std::move(message));
      err.str("");
      continue;
    }
    if (line_of_output.size() > kMaxCheckedLines) {
      return fail("the script prints more than ", decimal(kMaxCheckedLines), " lines (script line ",
                  decimal(number), ": ", std::string(line),
                  "); the checker compares at most that many");
    }
    const std::vector<std::string_view>& args = *tokens;
    if (word == "ALGO") {
      algorithm = *find_algorithm(args[1]);
      continue;
    }
    if (word == "KEYS") {
      std::vector<std::string_view> specs(args.begin() + 1, args.end());
      keys = std::make_shared<const KeySet>(*KeySet::parse(specs));
      continue;
    }
    if (line_of_output.size() == printed) continue;  // printed nothing

    Command command;
    command.script_line = number;
    command.text = std::string(line);
    command.algorithm = algorithm;
    auto count = [](std::string_view token) {
      Result<std::int64_t> n = parse_integer(token, "n", 1, kMaxBuckets);
      return n ? static_cast<std::int32_t>(*n) : 0;
    };
    if (word == "HASH") {
      command.kind = CommandKind::hash;
      command.key = *parse_key(args[1]);
      command.n = count(args[2]);
    } else if (word == "BUCKETS") {
      command.kind = CommandKind::buckets;
      command.n = count(args[1]);
      command.keys = keys;
    } else if (word == "MOVED") {
      command.kind = CommandKind::moved;
      command.from = count(args[1]);
      command.to = count(args[2]);
      command.keys = keys;
    } else if (word == "LOAD") {
      command.kind = CommandKind::load;
      command.n = count(args[1]);
    } else {
      command.kind = CommandKind::trace;
      command.key = *parse_key(args[1]);
      command.n = count(args[2]);
    }
    expected.commands.push_back(std::move(command));
  }

  // Every output line was reported to the observer with its script line;
  // the commands were recorded in the same order.
  const std::string text = out.str();
  const std::vector<std::string_view> output = split_lines(text);
  std::size_t command_index = 0;
  for (std::size_t i = 0; i < output.size() && i < line_of_output.size(); ++i) {
    while (command_index < expected.commands.size() &&
           expected.commands[command_index].script_line != line_of_output[i]) {
      ++command_index;
    }
    if (command_index == expected.commands.size()) break;  // cannot happen
    const bool last = i + 1 == line_of_output.size() || line_of_output[i + 1] != line_of_output[i];
    expected.lines.push_back(structure_line(std::string(output[i]), command_index,
                                            expected.commands[command_index], last));
  }
  return expected;
}

// ---------------------------------------------------------------------------
// (2) The student's side, read leniently.

bool is_blank(char c) { return c == ' ' || c == '\t'; }

StudentLine parse_student_line(std::string_view text) {
  StudentLine line;
  line.text = std::string(text);
  std::size_t i = 0;
  while (i < text.size() && is_blank(text[i])) ++i;
  const std::size_t start = i;
  if (i < text.size() && text[i] == '"') {
    ++i;
    while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
    i = std::min(i + 1, text.size());
  } else {
    while (i < text.size() && text[i] != ':' && !is_blank(text[i])) ++i;
  }
  line.key_token = std::string(text.substr(start, i - start));
  if (all_digits(line.key_token)) line.key_as_double = std::strtod(line.key_token.c_str(), nullptr);
  if (to_u64(line.key_token, line.key)) {
    line.numeric_key = true;
    line.key_text = decimal(line.key);
  } else if (upper(line.key_token) == "MOVED") {
    line.key_text = "moved";
  } else {
    line.key_text = line.key_token;
  }
  // Every integer after the key, with a '-' directly before it as its sign
  // (the '-' of "->" is followed by '>', not a digit).
  while (i < text.size()) {
    if (text[i] >= '0' && text[i] <= '9') {
      const bool negative = i > 0 && text[i - 1] == '-';
      std::size_t end = i;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      std::uint64_t v = 0;
      if (!to_u64(text.substr(i, end - i), v) || v > static_cast<std::uint64_t>(INT64_MAX)) {
        line.numbers_ok = false;
      } else {
        const auto value = static_cast<std::int64_t>(v);
        line.numbers.push_back(negative ? -value : value);
      }
      i = end;
    } else {
      ++i;
    }
  }
  line.canonical = line.numbers_ok ? canonical_of(line.key_text, line.numbers) : line.text;
  return line;
}

// ---------------------------------------------------------------------------
// (3) Alignment.

/// How well a student line fits an expected line: 4 identical, 3 same key
/// and numbers, 2 same key, 0 not the same line at all. The "key" of a TRACE
/// line is the n of a step, which a wrong trace does not share: TRACE lines
/// only fit with their numbers, and the steps in between pair by position.
int fit(const ExpectedLine& e, const StudentLine& s) {
  if (e.text == s.text) return 4;
  if (e.canonical == s.canonical) return 3;
  if (e.shape == Shape::trace) return 0;
  if (e.key_text == s.key_text || key_printed_as_double(e, s)) return 2;
  return 0;
}

struct Alignment {
  std::vector<std::ptrdiff_t> student_of;   // per expected line, -1 when unpaired
  std::vector<std::ptrdiff_t> expected_of;  // per student line, -1 when unpaired
  std::vector<bool> out_of_order;           // per expected line
  bool by_position = false;
};

void pair(Alignment& a, std::size_t e, std::size_t s) {
  a.student_of[e] = static_cast<std::ptrdiff_t>(s);
  a.expected_of[s] = static_cast<std::ptrdiff_t>(e);
}

/// Aligns expected[e0, e1) with student[s0, s1): identical prefix and
/// suffix; then a weighted LCS when the rest has at most kMaxAlignCells
/// cells; else lines whose text occurs once on each side are anchors (the
/// longest in-order chain of them, as in patience diff) and the gaps between
/// anchors are aligned the same way; with no anchor, by position.
void align_range(Alignment& a, const std::vector<ExpectedLine>& expected,
                 const std::vector<StudentLine>& student, std::size_t e0, std::size_t e1,
                 std::size_t s0, std::size_t s1) {
  while (e0 < e1 && s0 < s1 && expected[e0].text == student[s0].text) pair(a, e0++, s0++);
  while (e1 > e0 && s1 > s0 && expected[e1 - 1].text == student[s1 - 1].text) pair(a, --e1, --s1);

  const std::size_t rows = e1 - e0, cols = s1 - s0;
  if (rows == 0 || cols == 0) return;
  if (static_cast<std::uint64_t>(rows) * cols > kMaxAlignCells) {
    // Texts seen once on each side: count[text] = {expected, student, where}.
    struct Seen {
      std::uint32_t in_expected = 0, in_student = 0;
      std::size_t e = 0, s = 0;
    };
    std::unordered_map<std::string_view, Seen> seen;
    seen.reserve(rows + cols);
    for (std::size_t e = e0; e < e1; ++e) {
      Seen& entry = seen[expected[e].text];
      ++entry.in_expected;
      entry.e = e;
    }
    for (std::size_t s = s0; s < s1; ++s) {
      auto found = seen.find(student[s].text);
      if (found == seen.end()) continue;
      ++found->second.in_student;
      found->second.s = s;
    }
    std::vector<std::pair<std::size_t, std::size_t>> unique;  // (e, s), by e
    for (std::size_t e = e0; e < e1; ++e) {
      const Seen& entry = seen[expected[e].text];
      if (entry.in_expected == 1 && entry.in_student == 1) unique.emplace_back(e, entry.s);
    }
    // Longest chain with increasing s (patience sorting).
    std::vector<std::size_t> tails;  // index into unique
    std::vector<std::ptrdiff_t> before(unique.size(), -1);
    for (std::size_t i = 0; i < unique.size(); ++i) {
      auto at =
          std::lower_bound(tails.begin(), tails.end(), unique[i].second,
                           [&](std::size_t t, std::size_t s) { return unique[t].second < s; });
      if (at != tails.begin()) before[i] = static_cast<std::ptrdiff_t>(*(at - 1));
      if (at == tails.end()) {
        tails.push_back(i);
      } else {
        *at = i;
      }
    }
    if (tails.empty()) {
      a.by_position = true;
      for (std::size_t k = 0; k < std::min(rows, cols); ++k) pair(a, e0 + k, s0 + k);
      return;
    }
    std::vector<std::pair<std::size_t, std::size_t>> chain;
    for (auto i = static_cast<std::ptrdiff_t>(tails.back()); i >= 0; i = before[i]) {
      chain.push_back(unique[static_cast<std::size_t>(i)]);
    }
    std::reverse(chain.begin(), chain.end());
    std::size_t ge = e0, gs = s0;
    for (const auto& [e, s] : chain) {
      align_range(a, expected, student, ge, e, gs, s);
      pair(a, e, s);
      ge = e + 1, gs = s + 1;
    }
    align_range(a, expected, student, ge, e1, gs, s1);
    return;
  }

  // Weighted LCS: maximize the sum of fit() over pairs kept in order.
  // from[r][c]: 0 = skip expected, 1 = skip student, 2 = pair.
  std::vector<std::uint8_t> from(rows * cols);
  std::vector<std::int64_t> previous(cols + 1, 0), current(cols + 1, 0);
  for (std::size_t r = 0; r < rows; ++r) {
    current[0] = 0;
    for (std::size_t c = 0; c < cols; ++c) {
      std::int64_t best = previous[c + 1];
      std::uint8_t move = 0;
      if (current[c] > best) best = current[c], move = 1;
      const int score = fit(expected[e0 + r], student[s0 + c]);
      if (score > 0 && previous[c] + score >= best) best = previous[c] + score, move = 2;
      current[c + 1] = best;
      from[r * cols + c] = move;
    }
    std::swap(previous, current);
  }
  std::size_t r = rows, c = cols;
  while (r > 0 && c > 0) {
    const std::uint8_t move = from[(r - 1) * cols + (c - 1)];
    if (move == 2) {
      pair(a, e0 + r - 1, s0 + c - 1);
      --r, --c;
    } else if (move == 1) {
      --c;
    } else {
      --r;
    }
  }
}

Alignment align(const std::vector<ExpectedLine>& expected,
                const std::vector<StudentLine>& student) {
  Alignment a;
  a.student_of.assign(expected.size(), -1);
  a.expected_of.assign(student.size(), -1);
  a.out_of_order.assign(expected.size(), false);
  align_range(a, expected, student, 0, expected.size(), 0, student.size());
  return a;
}

/// (4) The same line elsewhere is out of order; leftovers between two
/// aligned lines are paired by position when both sides have the same
/// number of them, or when the expected ones are TRACE or LOAD lines (whose
/// key is n or a bucket, not a key the student could have dropped).
void pair_leftovers(Alignment& a, const std::vector<ExpectedLine>& expected,
                    const std::vector<StudentLine>& student) {
  std::vector<std::pair<std::size_t, std::size_t>> anchors;  // in-order pairs
  for (std::size_t e = 0; e < expected.size(); ++e) {
    if (a.student_of[e] >= 0) anchors.emplace_back(e, static_cast<std::size_t>(a.student_of[e]));
  }

  std::unordered_map<std::string, std::vector<std::size_t>> unpaired_by_line;
  for (std::size_t s = student.size(); s-- > 0;) {
    if (a.expected_of[s] < 0) unpaired_by_line[student[s].canonical].push_back(s);
  }
  for (std::size_t e = 0; e < expected.size(); ++e) {
    if (a.student_of[e] >= 0) continue;
    auto found = unpaired_by_line.find(expected[e].canonical);
    if (found == unpaired_by_line.end() || found->second.empty()) continue;
    pair(a, e, found->second.back());
    found->second.pop_back();
    a.out_of_order[e] = true;
  }

  std::size_t e_begin = 0, s_begin = 0;
  for (std::size_t k = 0; k <= anchors.size(); ++k) {
    const std::size_t e_end = k < anchors.size() ? anchors[k].first : expected.size();
    const std::size_t s_end = k < anchors.size() ? anchors[k].second : student.size();
    std::vector<std::size_t> es, ss;
    for (std::size_t e = e_begin; e < e_end; ++e) {
      if (a.student_of[e] < 0) es.push_back(e);
    }
    for (std::size_t s = s_begin; s < s_end; ++s) {
      if (a.expected_of[s] < 0) ss.push_back(s);
    }
    const bool positional_keys = std::all_of(es.begin(), es.end(), [&](std::size_t e) {
      return expected[e].shape == Shape::trace || expected[e].shape == Shape::load;
    });
    if (!es.empty() && !ss.empty() && (es.size() == ss.size() || positional_keys)) {
      for (std::size_t i = 0; i < std::min(es.size(), ss.size()); ++i) pair(a, es[i], ss[i]);
    }
    if (k < anchors.size()) e_begin = e_end + 1, s_begin = s_end + 1;
  }
}

// ---------------------------------------------------------------------------
// (5) Verdicts and diagnoses.

std::string describe_format(const ExpectedLine& e, const StudentLine& s) {
  std::vector<std::string> problems;
  const std::string& t = s.text;
  if (t.find('\t') != std::string::npos) problems.emplace_back("a tab where one space belongs");
  if (!t.empty() && is_blank(t.front())) problems.emplace_back("blanks before the key");
  if (!t.empty() && is_blank(t.back())) problems.emplace_back("blanks at the end of the line");
  if (s.key_text == e.key_text && s.key_token != e.key_text) {
    problems.push_back("the key is written '" + s.key_token + "' instead of '" + e.key_text + "'");
  }
  // What follows the key: exactly ": ".
  const std::size_t after_key = t.find(s.key_token) + s.key_token.size();
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
  if (e.shape == Shape::key_move) {
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

/// One recomputation: the algorithm in effect with one thing changed.
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

std::vector<Candidate> candidates_for(const Algorithm& algorithm) {
  std::vector<Candidate> out;
  const BucketFunction f = algorithm.function;
  const std::string name(algorithm.name);
  const bool jump_family =
      algorithm.id == AlgorithmId::jump || algorithm.id == AlgorithmId::jump_guava;
  if (jump_family) {
    out.push_back({"js-number", "with JavaScript Numbers",
                   [](std::uint64_t k, bool, std::int64_t n) {
                     return jump_hash_js_number(k, static_cast<std::int32_t>(n));
                   },
                   0, true});
    out.push_back({"integer-division", "with integer division",
                   [](std::uint64_t k, bool, std::int64_t n) {
                     return jump_hash_integer_division(k, static_cast<std::int32_t>(n));
                   },
                   0, true});
  }
  out.push_back({"key-as-double", "on the key through a double",
                 [f](std::uint64_t k, bool numeric, std::int64_t n) {
                   return f(numeric ? key_through_double(k) : k, static_cast<std::int32_t>(n));
                 },
                 0, algorithm.consistent});
  for (int shift : {-1, +1}) {
    out.push_back({"off-by-one-n", shift < 0 ? "at n - 1" : "at n + 1",
                   [f, shift](std::uint64_t k, bool, std::int64_t n) -> std::int32_t {
                     const std::int64_t m = n + shift;
                     if (m < 1 || m > kMaxBuckets) return -1;
                     return f(k, static_cast<std::int32_t>(m));
                   },
                   shift, algorithm.consistent});
  }
  if (jump_family) {
    const Algorithm& other =
        **find_algorithm(algorithm.id == AlgorithmId::jump ? "jump-guava" : "jump");
    out.push_back({"guava-rounding",
                   algorithm.id == AlgorithmId::jump ? "with jump-guava (Guava's rounding)"
                                                     : "with jump (the paper's C rounding)",
                   [g = other.function](std::uint64_t k, bool, std::int64_t n) {
                     return g(k, static_cast<std::int32_t>(n));
                   },
                   0, true});
  }
  for (const Algorithm& other : bucket_count_algorithms()) {
    if (other.id == algorithm.id) continue;
    // jump <-> jump-guava is guava-rounding, named with its own explanation.
    if (jump_family && (other.id == AlgorithmId::jump || other.id == AlgorithmId::jump_guava)) {
      continue;
    }
    out.push_back({"other-algorithm", "with " + std::string(other.name),
                   [g = other.function](std::uint64_t k, bool, std::int64_t n) {
                     return g(k, static_cast<std::int32_t>(n));
                   },
                   0, other.consistent});
  }
  return out;
}

class Diagnoser {
 public:
  explicit Diagnoser(const Expected& expected) : expected_(expected) {}

  /// Mistakes that reproduce the student's numbers on a paired line.
  std::vector<Diagnosis> wrong_value(const ExpectedLine& e, const StudentLine& s) {
    std::vector<Diagnosis> out;
    if (!s.numbers_ok) return out;
    const Command& command = expected_.commands[e.command];
    const std::vector<Candidate>& candidates = candidates_of(*command.algorithm);
    const bool printed_as_double = key_printed_as_double(e, s);
    if (printed_as_double && (e.shape == Shape::key_bucket || e.shape == Shape::key_move)) {
      add(out, "key-as-double",
          "the key " + e.key_text + " is printed as " + s.key_token + ", the nearest double");
    }
    switch (e.shape) {
      case Shape::key_bucket: {
        // Right numbers under a key printed differently: only the key is wrong.
        if ((s.key_text != e.key_text && !printed_as_double) || s.numbers.size() != 1 ||
            s.numbers == e.values) {
          break;
        }
        for (const Candidate& c : candidates) {
          if (c.id == "key-as-double" && (!e.numeric_key || key_through_double(e.key) == e.key)) {
            continue;
          }
          const std::int32_t b = c.bucket(e.key, e.numeric_key, command.n);
          if (b >= 0 && b == s.numbers[0]) {
            add(out, c.id, how(c, e, command) + " gives " + decimal(static_cast<std::uint64_t>(b)));
          }
        }
        break;
      }
      case Shape::key_move: {
        if ((s.key_text != e.key_text && !printed_as_double) || s.numbers.size() != 2 ||
            s.numbers == e.values) {
          break;
        }
        for (const Candidate& c : candidates) {
          if (c.id == "key-as-double" && (!e.numeric_key || key_through_double(e.key) == e.key)) {
            continue;
          }
          const std::int32_t old_bucket = c.bucket(e.key, e.numeric_key, command.from);
          const std::int32_t new_bucket = c.bucket(e.key, e.numeric_key, command.to);
          if (old_bucket >= 0 && new_bucket >= 0 && old_bucket == s.numbers[0] &&
              new_bucket == s.numbers[1]) {
            add(out, c.id,
                how(c, e, command) + " gives " + decimal(static_cast<std::uint64_t>(old_bucket)) +
                    " -> " + decimal(static_cast<std::uint64_t>(new_bucket)));
          }
        }
        break;
      }
      case Shape::moved_total:
        if (s.key_text == "moved" && s.numbers.size() == 2) moved_total(e, s, out);
        break;
      case Shape::trace: {
        if (!s.numeric_key || s.numbers.size() != 1) break;
        trace_step(e, s.key, s.numbers[0], out);
        break;
      }
      case Shape::load:
        break;
    }
    return out;
  }

  /// Why an expected line may be missing. `stops_here`: this is the first
  /// line of the missing run that ends the expected output (the student's
  /// output stops before it); `block`:
  /// the student's lines attributed to the same command. A variant explains
  /// a missing MOVED line when the key does not move under it and it moves
  /// as many keys as the student's summary line says; a missing TRACE line
  /// when its trace lacks the step and has every step the student printed.
  std::vector<Diagnosis> missing(const ExpectedLine& e, bool stops_here,
                                 std::uint64_t missing_after,
                                 const std::vector<const StudentLine*>& block) {
    std::vector<Diagnosis> out;
    const Command& command = expected_.commands[e.command];
    const bool keyed = command.kind == CommandKind::hash || command.kind == CommandKind::trace ||
                       command.kind == CommandKind::buckets;
    const std::uint64_t key = command.kind == CommandKind::buckets ? e.key : command.key.value;
    const bool numeric =
        command.kind == CommandKind::buckets ? e.numeric_key : command.key.label.empty();
    if (stops_here && keyed && key >= kTwo63) {
      add(out, "no-64-bit-wrap",
          "the output stops here, at " +
              std::string(command.kind == CommandKind::trace  ? "TRACE"
                          : command.kind == CommandKind::hash ? "HASH"
                                                              : "BUCKETS") +
              " of key " + (numeric ? decimal(key) : command.key.label) + " (at or above 2^63); " +
              decimal(missing_after) + " expected line(s) from here on are missing");
    }
    if (block.empty()) return out;
    const std::vector<Candidate>& candidates = candidates_of(*command.algorithm);
    if (e.shape == Shape::key_move) {
      std::optional<std::int64_t> student_count;
      for (const StudentLine* s : block) {
        if (s->key_text == "moved" && s->numbers_ok && s->numbers.size() == 2) {
          student_count = s->numbers[0];
        }
      }
      if (!student_count) return out;
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        if (c.id == "key-as-double" && (!e.numeric_key || key_through_double(e.key) == e.key)) {
          continue;
        }
        const std::int32_t old_bucket = c.bucket(e.key, e.numeric_key, command.from);
        const std::int32_t new_bucket = c.bucket(e.key, e.numeric_key, command.to);
        if (old_bucket < 0 || old_bucket != new_bucket) continue;
        const std::optional<std::uint64_t> moved = moved_count(e.command, i);
        if (!moved || static_cast<std::int64_t>(*moved) != *student_count) continue;
        add(out, c.id,
            how(c, e, command) + ", the key stays in bucket " +
                decimal(static_cast<std::uint64_t>(old_bucket)) + " and " + decimal(*moved) +
                " keys move, as the output says");
      }
    } else if (e.shape == Shape::trace) {
      for (std::size_t i = 0; i < candidates.size(); ++i) {
        const Candidate& c = candidates[i];
        if (c.id == "key-as-double" &&
            (!command.key.label.empty() ||
             key_through_double(command.key.value) == command.key.value)) {
          continue;
        }
        const std::optional<std::vector<TraceStep>>& steps = trace_of(e.command, i);
        if (!steps) continue;
        auto has = [&](std::uint64_t n, std::int64_t b) {
          return std::any_of(steps->begin(), steps->end(), [&](const TraceStep& step) {
            return static_cast<std::uint64_t>(step.n) == n && step.bucket == b;
          });
        };
        if (has(e.key, e.values[0])) continue;
        const bool explains_all =
            std::all_of(block.begin(), block.end(), [&](const StudentLine* s) {
              return s->numeric_key && s->numbers_ok && s->numbers.size() == 1 &&
                     has(s->key, s->numbers[0]);
            });
        if (!explains_all) continue;
        ExpectedLine keyed = e;
        keyed.key = command.key.value;
        add(out, c.id,
            how(c, keyed, command) + ", the trace has every step the output shows and not " +
                e.text);
      }
    }
    return out;
  }

  /// Variants that print an extra student line that follows expected line
  /// `previous` (a MOVED or TRACE block).
  std::vector<Diagnosis> extra(const ExpectedLine& previous, const StudentLine& s) {
    std::vector<Diagnosis> out;
    if (!s.numbers_ok) return out;
    const Command& command = expected_.commands[previous.command];
    if (command.kind == CommandKind::trace && s.numeric_key && s.numbers.size() == 1) {
      trace_step(previous, s.key, s.numbers[0], out);
    } else if (command.kind == CommandKind::moved && s.numbers.size() == 2) {
      Result<Key> key = parse_key(s.key_token);
      if (!key) return out;
      const bool numeric = key->label.empty();
      ExpectedLine as_line;
      as_line.key = key->value;
      as_line.key_text = s.key_text;
      as_line.numeric_key = numeric;
      for (const Candidate& c : candidates_of(*command.algorithm)) {
        if (c.id == "key-as-double" && (!numeric || key_through_double(key->value) == key->value)) {
          continue;
        }
        const std::int32_t old_bucket = c.bucket(key->value, numeric, command.from);
        const std::int32_t new_bucket = c.bucket(key->value, numeric, command.to);
        if (old_bucket >= 0 && new_bucket >= 0 && old_bucket != new_bucket &&
            old_bucket == s.numbers[0] && new_bucket == s.numbers[1]) {
          add(out, c.id,
              how(c, as_line, command) + ", the key moves " +
                  decimal(static_cast<std::uint64_t>(old_bucket)) + " -> " +
                  decimal(static_cast<std::uint64_t>(new_bucket)));
        }
      }
    }
    return out;
  }

 private:
  const std::vector<Candidate>& candidates_of(const Algorithm& algorithm) {
    auto found = candidates_.find(algorithm.id);
    if (found == candidates_.end()) {
      found = candidates_.emplace(algorithm.id, candidates_for(algorithm)).first;
    }
    return found->second;
  }

  static void add(std::vector<Diagnosis>& out, std::string_view id, const std::string& detail) {
    for (Diagnosis& d : out) {
      if (d.id == id) {
        d.detail += "; " + detail;
        return;
      }
    }
    const MistakeInfo* info = find_mistake(id);
    Diagnosis d;
    d.id = std::string(id);
    d.detail = detail;
    if (info) d.explanation = info->explanation, d.fix = info->fix;
    // Keep the catalog's order.
    auto rank = [](std::string_view name) {
      std::size_t r = 0;
      for (const MistakeInfo& m : kMistakes) {
        if (m.id == name) return r;
        ++r;
      }
      return r;
    };
    auto at = std::find_if(out.begin(), out.end(),
                           [&](const Diagnosis& other) { return rank(other.id) > rank(id); });
    out.insert(at, std::move(d));
  }

  /// "with JavaScript Numbers", "on key 0 (18446744073709551615 through a
  /// double)", "at n - 1 = 99", "at from - 1 = 9 and to - 1 = 10", ...
  static std::string how(const Candidate& c, const ExpectedLine& e, const Command& command) {
    if (c.id == "key-as-double") {
      const std::uint64_t rounded = key_through_double(e.key);
      std::string text = std::string(command.algorithm->name) + " on key " + decimal(rounded) +
                         " (" + decimal(e.key) + " as a double is ";
      text += rounded == 0 ? "2^64, which wraps to 0)" : decimal(rounded) + ")";
      return text;
    }
    if (c.id == "off-by-one-n") {
      const std::string sign = c.n_shift < 0 ? " - 1 = " : " + 1 = ";
      const std::string name(command.algorithm->name);
      if (command.kind == CommandKind::moved) {
        return name + " at from" + sign + std::to_string(command.from + c.n_shift) + " and to" +
               sign + std::to_string(command.to + c.n_shift);
      }
      if (command.kind == CommandKind::trace) {
        return name + " at n" + (c.n_shift < 0 ? " - 1" : " + 1") + " for every n";
      }
      return name + " at n" + sign + std::to_string(command.n + c.n_shift);
    }
    if (c.id == "other-algorithm" || c.id == "guava-rounding") return c.how.substr(5);  // name
    return std::string(command.algorithm->name) + " " + c.how;
  }

  void moved_total(const ExpectedLine& e, const StudentLine& s, std::vector<Diagnosis>& out) {
    const Command& command = expected_.commands[e.command];
    const std::uint64_t total = command.keys->size();
    const std::int64_t counted = e.values[0];
    const std::int64_t count = s.numbers[0];
    if (count == counted || s.numbers[1] != static_cast<std::int64_t>(total)) return;
    // total x |to - from| / max(from, to): total <= 10^9 and |to - from|
    // < 2^31, so the product fits in 64 bits.
    const auto from = static_cast<std::uint64_t>(command.from);
    const auto to = static_cast<std::uint64_t>(command.to);
    const std::uint64_t numerator = total * (from > to ? from - to : to - from);
    const std::uint64_t denominator = std::max(from, to);
    const std::uint64_t truncated = numerator / denominator;
    const std::uint64_t rounded = (2 * numerator + denominator) / (2 * denominator);
    if (count == static_cast<std::int64_t>(truncated) ||
        count == static_cast<std::int64_t>(rounded)) {
      std::ostringstream detail;
      detail.precision(6);
      detail << decimal(total) << " x |" << to << " - " << from << "| / " << denominator << " = "
             << static_cast<double>(numerator) / static_cast<double>(denominator) << ", "
             << (count == static_cast<std::int64_t>(truncated) && truncated != rounded
                     ? "truncated"
                     : (truncated == rounded ? "rounded or truncated" : "rounded"))
             << " to " << count << "; the keys that really move number " << counted;
      add(out, "moved-estimated", detail.str());
    }
    const Algorithm& algorithm = *command.algorithm;
    const std::vector<Candidate>& candidates = candidates_of(algorithm);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Candidate& c = candidates[i];
      const std::optional<std::uint64_t> moved = moved_count(e.command, i);
      if (moved && static_cast<std::int64_t>(*moved) == count) {
        std::string what = how(c, e, command);
        if (c.id == "key-as-double") {
          what = std::string(algorithm.name) + " on the keys through a double";
        }
        add(out, c.id, what + " moves " + decimal(*moved) + " of " + decimal(total) + " keys");
      }
    }
  }

  /// How many keys of the MOVED command's key set the candidate moves, or
  /// nothing when the set exceeds kMaxDiagnosedMovedKeys or n +/- 1 is out
  /// of range.
  std::optional<std::uint64_t> moved_count(std::size_t command_index, std::size_t candidate_index) {
    const auto slot = std::make_pair(command_index, candidate_index);
    auto found = moved_counts_.find(slot);
    if (found != moved_counts_.end()) return found->second;
    const Command& command = expected_.commands[command_index];
    const Candidate& c = candidates_of(*command.algorithm)[candidate_index];
    std::optional<std::uint64_t> result;
    if (command.keys->size() <= kMaxDiagnosedMovedKeys) {
      std::uint64_t moved = 0;
      bool valid = true;
      command.keys->for_each([&](std::uint64_t key, const std::string* label) {
        if (!valid) return;
        const std::int32_t a = c.bucket(key, label == nullptr, command.from);
        const std::int32_t b = c.bucket(key, label == nullptr, command.to);
        if (a < 0 || b < 0) valid = false;
        if (a != b) ++moved;
      });
      if (valid) result = moved;
    }
    moved_counts_.emplace(slot, result);
    return result;
  }

  /// The candidate's TRACE of the command's key up to its max, or nothing
  /// when it cannot be computed (modulo above kMaxModuloTrace).
  const std::optional<std::vector<TraceStep>>& trace_of(std::size_t command_index,
                                                        std::size_t candidate_index) {
    const auto slot = std::make_pair(command_index, candidate_index);
    auto found = traces_.find(slot);
    if (found != traces_.end()) return found->second;
    const Command& command = expected_.commands[command_index];
    const Candidate& c = candidates_of(*command.algorithm)[candidate_index];
    const std::uint64_t key = command.key.value;
    const bool numeric = command.key.label.empty();
    std::optional<std::vector<TraceStep>> steps;
    if (c.n_shift != 0) {
      // The trace of n -> bucket(key, n + shift) for n in 1..max: the right
      // trace over 1+shift..max+shift, moved by -shift. At n = 1 with shift
      // -1 the loop runs for 0 buckets and returns b = -1.
      const std::int64_t shift = c.n_shift;
      Result<std::vector<TraceStep>> right =
          command.n + shift >= 1 ? trace_key(*command.algorithm, key, command.n + shift)
                                 : Result<std::vector<TraceStep>>(std::vector<TraceStep>{});
      if (right) {
        std::vector<TraceStep> moved;
        if (shift < 0) moved.push_back({1, -1});
        for (const TraceStep& step : *right) {
          if (step.n - shift >= 1) moved.push_back({step.n - shift, step.bucket});
        }
        if (shift > 0 && (moved.empty() || moved.front().n != 1)) {
          moved.insert(moved.begin(), {1, command.algorithm->function(key, 2)});
        }
        steps = std::move(moved);
      }
    } else if (c.monotone) {
      // As trace_key does: the bucket below b is the bucket at n = b.
      std::vector<TraceStep> walk;
      std::int32_t b = c.bucket(key, numeric, command.n);
      walk.push_back({std::int64_t{b} + 1, b});
      while (b > 0) {
        b = c.bucket(key, numeric, b);
        walk.push_back({std::int64_t{b} + 1, b});
      }
      std::reverse(walk.begin(), walk.end());
      steps = std::move(walk);
    } else if (command.n <= kMaxModuloTrace) {
      std::vector<TraceStep> scan;
      std::int32_t previous = -1;
      for (std::int32_t n = 1; n <= command.n; ++n) {
        const std::int32_t b = c.bucket(key, numeric, n);
        if (b != previous) scan.push_back({n, b});
        previous = b;
      }
      steps = std::move(scan);
    }
    return traces_.emplace(slot, std::move(steps)).first->second;
  }

  void trace_step(const ExpectedLine& e, std::uint64_t n, std::int64_t bucket,
                  std::vector<Diagnosis>& out) {
    const Command& command = expected_.commands[e.command];
    const std::vector<Candidate>& candidates = candidates_of(*command.algorithm);
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      const Candidate& c = candidates[i];
      if (c.id == "key-as-double" && (!command.key.label.empty() ||
                                      key_through_double(command.key.value) == command.key.value)) {
        continue;
      }
      const std::optional<std::vector<TraceStep>>& steps = trace_of(e.command, i);
      if (!steps) continue;
      const bool has = std::any_of(steps->begin(), steps->end(), [&](const TraceStep& step) {
        return static_cast<std::uint64_t>(step.n) == n && step.bucket == bucket;
      });
      if (!has) continue;
      ExpectedLine keyed = e;
      keyed.key = command.key.value;
      add(out, c.id,
          how(c, keyed, command) + " has the step " + decimal(n) + ": " + signed_decimal(bucket));
    }
  }

  const Expected& expected_;
  std::map<AlgorithmId, std::vector<Candidate>> candidates_;
  std::map<std::pair<std::size_t, std::size_t>, std::optional<std::vector<TraceStep>>> traces_;
  std::map<std::pair<std::size_t, std::size_t>, std::optional<std::uint64_t>> moved_counts_;
};

}  // namespace

Result<CheckReport> check_output(std::string_view script, std::string_view student_output) {
  Result<Expected> run = run_expected(script);
  if (!run) return Error{run.error()};
  const Expected& expected = *run;

  std::vector<StudentLine> student;
  for (std::string_view line : split_lines(student_output)) {
    if (student.size() == kMaxCheckedLines) {
      return fail("the output to check has more than ", decimal(kMaxCheckedLines),
                  " lines; the checker compares at most that many");
    }
    student.push_back(parse_student_line(line));
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
    const CommandKind wanted = line.key_text == "moved" || line.numbers.size() == 2
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
      v.diagnoses = diagnoser.missing(line, e == trailing_from, expected.lines.size() - e,
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
      } else if (s.canonical == line.canonical) {
        v.verdict = Verdict::wrong_format;
        v.format_problem = describe_format(line, s);
      } else {
        v.verdict = Verdict::wrong_value;
        v.diagnoses = diagnoser.wrong_value(line, s);
      }
    }
    report.lines.push_back(std::move(v));
  }
  emit_extras(expected.lines.size());
  return report;
}

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
