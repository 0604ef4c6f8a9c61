// The checker's student side: each line read leniently into a key and its
// values, as a bucket line (numbers) and, when the script prints node
// names, as a node line.
#include <algorithm>
#include <cstdlib>

#include "checker_internal.hpp"

namespace jumphash::checker_detail {
namespace {

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && is_blank(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_blank(text.back())) text.remove_suffix(1);
  return text;
}

/// `<key>: <node>` or `<key>: <old> -> <new>`: what follows the key (and a
/// ':' if there is one), split at the first "->".
void read_node_names(StudentLine& line, std::size_t after_key) {
  std::string_view rest = std::string_view(line.text).substr(after_key);
  rest = trim_blanks(rest);
  if (!rest.empty() && rest.front() == ':') rest = trim_blanks(rest.substr(1));
  if (rest.empty()) return;
  const std::size_t arrow = rest.find("->");
  if (arrow == std::string_view::npos) {
    line.node_names = {std::string(rest)};
  } else {
    line.node_names = {std::string(trim_blanks(rest.substr(0, arrow))),
                       std::string(trim_blanks(rest.substr(arrow + 2)))};
  }
  line.node_canonical = "N" + line.key_text;
  for (const std::string& name : line.node_names) line.node_canonical += "|" + name;
}

/// `<node>: <count>`: the count is the digits that end the line, the name
/// what comes before them and the last ':' (names may hold ':' and blanks).
void read_load(StudentLine& line) {
  const std::string_view t = line.text;
  std::size_t end = t.size();
  while (end > 0 && is_blank(t[end - 1])) --end;
  std::size_t digits = end;
  while (digits > 0 && t[digits - 1] >= '0' && t[digits - 1] <= '9') --digits;
  std::uint64_t count = 0;
  if (digits == end || !to_u64(t.substr(digits, end - digits), count) ||
      count > static_cast<std::uint64_t>(INT64_MAX)) {
    return;
  }
  std::size_t name_end = digits;
  while (name_end > 0 && is_blank(t[name_end - 1])) --name_end;
  if (name_end > 0 && t[name_end - 1] == ':') --name_end;
  while (name_end > 0 && is_blank(t[name_end - 1])) --name_end;
  std::size_t start = 0;
  while (start < name_end && is_blank(t[start])) ++start;
  if (start == name_end) return;
  line.load_name = std::string(t.substr(start, name_end - start));
  line.load_name_end = name_end;
  line.load_canonical = "L" + line.load_name + "|" + decimal(count);
}

}  // namespace

bool key_printed_as_double(const ExpectedLine& e, const StudentLine& s) {
  return e.numeric_key && s.key_text != e.key_text && s.key_as_double == static_cast<double>(e.key);
}

const std::string& canonical_for(const ExpectedLine& e, const StudentLine& s) {
  if (e.shape == Shape::key_node || e.shape == Shape::node_move) return s.node_canonical;
  if (e.shape == Shape::node_load) return s.load_canonical;
  return s.canonical;
}

StudentLine parse_student_line(std::string_view text, bool node_readings) {
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
  if (node_readings) {
    read_node_names(line, i);
    read_load(line);
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

}  // namespace jumphash::checker_detail
