// The checker's expected side: the interpreter's output events, as lines
// with their keys and values (no printed text is parsed back).
#include <algorithm>
#include <cctype>

#include "checker_internal.hpp"

namespace jumphash::checker_detail {

std::string decimal(std::uint64_t value) {
  std::string out;
  append_decimal(out, value);
  return out;
}

std::string signed_decimal(std::int64_t value) {
  if (value >= 0) return decimal(static_cast<std::uint64_t>(value));
  return "-" + decimal(0 - static_cast<std::uint64_t>(value));
}

std::string upper(std::string_view word) {
  std::string result(word);
  for (char& c : result) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return result;
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

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

bool is_blank(char c) { return c == ' ' || c == '\t'; }

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

std::string canonical_of(const std::string& key_text, const std::vector<std::int64_t>& values) {
  std::string out = key_text;
  for (std::int64_t v : values) {
    out += '|';
    out += signed_decimal(v);
  }
  return out;
}

/// Canonical form of a node line: "N" or "L" (so that it never equals a
/// numeric line's), the key, then each name or count.
std::string node_canonical_of(char tag, const std::string& key_text,
                              const std::vector<std::string>& names) {
  std::string out(1, tag);
  out += key_text;
  for (const std::string& name : names) {
    out += '|';
    out += name;
  }
  return out;
}

const Key* ExpectedLine::string_key(Key& scratch) const {
  if (numeric_key) return nullptr;
  scratch.value = key;
  scratch.label = key_text;
  scratch.text = key_bytes;
  return &scratch;
}

namespace {

Command command_of(const OutputEvent& event, std::string_view script_line) {
  const OutputContext& context = *event.context;
  Command command;
  command.kind = context.command;
  command.script_line = event.script_line;
  command.text = std::string(script_line);
  command.algorithm = context.algorithm;
  command.key = context.key;
  command.n = context.n;
  command.from = context.from;
  command.to = context.to;
  command.keys = context.keys;
  command.context = event.context;
  return command;
}

ExpectedLine line_of(const OutputEvent& event, std::size_t command_index, bool on_nodes) {
  using Row = OutputEvent::Row;
  ExpectedLine line;
  line.text = std::string(event.text);
  line.command = command_index;
  line.key = event.key;
  if (event.row == Row::key_value || event.row == Row::key_move) {
    line.numeric_key = event.string_key == nullptr;
    line.key_text = line.numeric_key ? decimal(event.key) : event.string_key->label;
    if (!line.numeric_key) line.key_bytes = event.string_key->text;
  }
  switch (event.row) {
    case Row::key_value:
      line.values = {event.values[0]};
      if (on_nodes) {
        line.shape = Shape::key_node;
        line.names = {std::string(event.names[0])};
      } else {
        line.shape = Shape::key_bucket;
      }
      break;
    case Row::key_move:
      line.values = {event.values[0], event.values[1]};
      if (on_nodes) {
        line.shape = Shape::node_move;
        line.names = {std::string(event.names[0]), std::string(event.names[1])};
      } else {
        line.shape = Shape::key_move;
      }
      break;
    case Row::moved_total:
      line.shape = Shape::moved_total;
      line.key_text = "moved";
      line.numeric_key = false;
      line.values = {event.values[0], event.values[1]};
      break;
    case Row::load:
      line.values = {event.values[0]};
      if (on_nodes) {
        line.shape = Shape::node_load;
        line.key_text = std::string(event.names[0]);
        line.numeric_key = false;
      } else {
        line.shape = Shape::load;
        line.key_text = decimal(event.key);
      }
      break;
    case Row::trace:
      line.shape = Shape::trace;
      line.key_text = decimal(event.key);
      line.values = {event.values[0]};
      break;
  }
  if (line.shape == Shape::key_node || line.shape == Shape::node_move) {
    line.canonical = node_canonical_of('N', line.key_text, line.names);
  } else if (line.shape == Shape::node_load) {
    line.canonical = node_canonical_of('L', line.key_text, {signed_decimal(event.values[0])});
  } else {
    line.canonical = canonical_of(line.key_text, line.values);
  }
  return line;
}

}  // namespace

Result<Expected> run_expected(std::string_view script, WorkBudget budget) {
  Expected expected;
  std::string errors;
  Interpreter interpreter([](std::string_view) {},
                          [&errors](std::string_view text) { errors += text; });
  interpreter.set_budget(budget);
  std::uint64_t printed = 0;  // lines, stored or not
  std::string_view current_line;
  interpreter.set_output_observer([&](const OutputEvent& event) {
    ++printed;
    if (printed > kMaxCheckedLines) return;  // reported after the command
    if (expected.commands.empty() || expected.commands.back().context != event.context) {
      expected.commands.push_back(command_of(event, current_line));
    }
    const Command& command = expected.commands.back();
    expected.lines.push_back(line_of(event, expected.commands.size() - 1, command.on_nodes()));
    if (command.on_nodes()) expected.has_node_lines = true;
  });

  const std::vector<std::string_view> script_lines = split_lines(script);
  for (std::size_t index = 0; index < script_lines.size(); ++index) {
    const std::uint64_t number = index + 1;
    const std::string_view line = script_lines[index];
    auto too_many = [&] {
      return fail("the script prints more than ", decimal(kMaxCheckedLines), " lines (script line ",
                  decimal(number), ": ", printable_input(line),
                  "); the checker compares at most that many");
    };
    // BUCKETS prints a line per key and MOVED up to one more: refuse before
    // running a command that could exceed the limit.
    Result<std::vector<std::string_view>> tokens = split_tokens(line);
    const std::string word = tokens && !tokens->empty() ? upper((*tokens)[0]) : std::string();
    const std::uint64_t keys = interpreter.keys().size();
    const std::uint64_t bound = word == "BUCKETS" ? keys : word == "MOVED" ? keys + 1 : 0;
    if (printed + bound > kMaxCheckedLines) return too_many();

    current_line = line;
    if (!interpreter.run_line(line, number)) {
      std::string message = std::move(errors);
      errors.clear();
      while (!message.empty() && message.back() == '\n') message.pop_back();
      if (interpreter.budget_exhausted()) {
        // The expected output would stop here: no check against part of it.
        const std::string prefix = "line " + decimal(number) + ": error: ";
        if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
        return fail("script line ", decimal(number), " (", printable_input(line),
                    ") passes the work budget this check runs the script under, so there is "
                    "no whole expected output to check against: ",
                    message);
      }
      expected.errors.push_back(std::move(message));
      continue;
    }
    if (printed > kMaxCheckedLines) return too_many();
  }
  return expected;
}

}  // namespace jumphash::checker_detail
