// The checker's alignment: expected and student lines paired by key, so one
// missing line does not make every later line wrong.
#include <algorithm>
#include <unordered_map>

#include "checker_internal.hpp"

namespace jumphash::checker_detail {
namespace {

/// Largest section (expected x student lines) aligned by the weighted LCS
/// (one byte per cell); larger ones are first cut at unique lines.
constexpr std::uint64_t kMaxAlignCells = std::uint64_t{1} << 24;

/// How well a student line fits an expected line: 4 identical, 3 same key
/// and numbers, 2 same key, 0 not the same line at all. The "key" of a TRACE
/// line is the n of a step, which a wrong trace does not share: TRACE lines
/// only fit with their numbers, and the steps in between pair by position.
int fit(const ExpectedLine& e, const StudentLine& s) {
  if (e.text == s.text) return 4;
  if (e.canonical == canonical_for(e, s)) return 3;
  if (e.shape == Shape::trace) return 0;
  if (e.shape == Shape::node_load) return e.key_text == s.load_name ? 2 : 0;
  if (e.key_text == s.key_text || key_printed_as_double(e, s)) return 2;
  return 0;
}

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

}  // namespace

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
/// key is n, a bucket or a node, not a key the student could have dropped).
void pair_leftovers(Alignment& a, const std::vector<ExpectedLine>& expected,
                    const std::vector<StudentLine>& student) {
  std::vector<std::pair<std::size_t, std::size_t>> anchors;  // in-order pairs
  for (std::size_t e = 0; e < expected.size(); ++e) {
    if (a.student_of[e] >= 0) anchors.emplace_back(e, static_cast<std::size_t>(a.student_of[e]));
  }

  // Each unpaired student line under each of its readings (a line paired
  // through one reading is skipped under the others).
  std::unordered_map<std::string, std::vector<std::size_t>> unpaired_by_line;
  for (std::size_t s = student.size(); s-- > 0;) {
    if (a.expected_of[s] >= 0) continue;
    const StudentLine& line = student[s];
    unpaired_by_line[line.canonical].push_back(s);
    if (!line.node_canonical.empty()) unpaired_by_line[line.node_canonical].push_back(s);
    if (!line.load_canonical.empty()) unpaired_by_line[line.load_canonical].push_back(s);
  }
  for (std::size_t e = 0; e < expected.size(); ++e) {
    if (a.student_of[e] >= 0) continue;
    auto found = unpaired_by_line.find(expected[e].canonical);
    if (found == unpaired_by_line.end()) continue;
    std::vector<std::size_t>& candidates = found->second;
    while (!candidates.empty() && a.expected_of[candidates.back()] >= 0) candidates.pop_back();
    if (candidates.empty()) continue;
    pair(a, e, candidates.back());
    candidates.pop_back();
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
      return expected[e].shape == Shape::trace || expected[e].shape == Shape::load ||
             expected[e].shape == Shape::node_load;
    });
    // Node lines have names, not numbers, to recompute: a line of another
    // key is another line (missing, and extra), not a wrong value.
    const bool keyed_nodes = std::all_of(es.begin(), es.end(), [&](std::size_t e) {
      return expected[e].shape == Shape::key_node || expected[e].shape == Shape::node_move;
    });
    if (!es.empty() && !ss.empty() && !keyed_nodes && (es.size() == ss.size() || positional_keys)) {
      for (std::size_t i = 0; i < std::min(es.size(), ss.size()); ++i) pair(a, es[i], ss[i]);
    }
    if (k < anchors.size()) e_begin = e_end + 1, s_begin = s_end + 1;
  }
}

}  // namespace jumphash::checker_detail
