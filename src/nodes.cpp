// Node lists, algorithm options and the rebuild-on-edit placement base; see
// jumphash/nodes.hpp.
#include "jumphash/nodes.hpp"

#include <algorithm>
#include <charconv>
#include <unordered_set>

#include "jumphash/keys.hpp"

namespace jumphash {
namespace {

constexpr std::string_view kNodeForms =
    "a node is name or name*weight, with weight an integer in 1..1000000; quote a name that "
    "holds spaces, '#', '*' or '\"': \"cache 3\"*2";

std::string quote(std::string_view text) { return "'" + printable_input(text) + "'"; }

bool is_plain_name_char(char c) {
  return c != ' ' && c != '\t' && c != '#' && c != '*' && c != '"' && c != '\\' &&
         static_cast<unsigned char>(c) >= 0x20 && c != 0x7F;
}

Result<bool> check_name(std::string_view name, std::string_view token) {
  if (name.empty()) return fail("node ", quote(token), " has an empty name (", kNodeForms, ")");
  if (name.size() > kMaxNodeNameBytes) {
    return fail("node name ", quote(token), " is ", std::to_string(name.size()),
                " bytes long (at most ", std::to_string(kMaxNodeNameBytes), ")");
  }
  for (char c : name) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) {
      return fail("node name ", quote(token),
                  " holds a control character (names are printable text)");
    }
  }
  if (!is_valid_utf8(name)) return fail("node name ", quote(token), " is not valid UTF-8");
  // C1 controls (U+0080..U+009F, in UTF-8 0xC2 0x80..0x9F) are control
  // characters too: a name prints raw in output and messages.
  for (std::size_t i = 0; i + 1 < name.size(); ++i) {
    if (static_cast<unsigned char>(name[i]) == 0xC2 &&
        static_cast<unsigned char>(name[i + 1]) <= 0x9F) {
      return fail("node name ", quote(token),
                  " holds a control character (names are printable text)");
    }
  }
  return true;
}

}  // namespace

Result<Node> parse_node(std::string_view token) {
  Node node;
  std::string_view rest;
  if (!token.empty() && token[0] == '"') {
    Result<std::string> name = unquote_string(token, "node name");
    if (!name) return Error{name.error()};
    node.name = std::move(name).value();
    rest = token.substr(quoted_length(token));
  } else {
    const std::size_t star = token.find('*');
    node.name = std::string(token.substr(0, star));
    rest = star == std::string_view::npos ? std::string_view() : token.substr(star);
    if (node.name.empty() && star == 0) {
      return fail("node ", quote(token), " has no name before '*' (", kNodeForms, ")");
    }
  }
  Result<bool> name_ok = check_name(node.name, token);
  if (!name_ok) return Error{name_ok.error()};
  if (!rest.empty()) {
    if (rest[0] != '*') {
      return fail("unexpected text ", quote(rest), " after node name in ", quote(token), " (",
                  kNodeForms, ")");
    }
    Result<std::int64_t> weight =
        parse_integer(rest.substr(1), "weight of node " + node_token(node.name), 1, kMaxNodeWeight);
    if (!weight) return Error{weight.error()};
    node.weight = static_cast<std::uint32_t>(*weight);
  }
  return node;
}

Result<NodeList> parse_node_list(std::span<const std::string_view> tokens) {
  if (tokens.empty()) {
    return fail("NODES needs at least one node (", kNodeForms, ")");
  }
  if (static_cast<std::int64_t>(tokens.size()) > kMaxNodes) {
    return fail("too many nodes: ", std::to_string(tokens.size()), " (at most ",
                std::to_string(kMaxNodes), ")");
  }
  NodeList nodes;
  nodes.reserve(tokens.size());
  std::unordered_set<std::string> seen;
  for (std::string_view token : tokens) {
    Result<Node> node = parse_node(token);
    if (!node) return Error{node.error()};
    if (!seen.insert(node->name).second) {
      return fail("node ", node_token(node->name), " is listed twice (names must be unique)");
    }
    nodes.push_back(std::move(node).value());
  }
  return nodes;
}

NodeList numbered_nodes(std::int64_t n) {
  NodeList nodes(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) nodes[static_cast<std::size_t>(i)].name = std::to_string(i);
  return nodes;
}

std::int64_t find_node(const NodeList& nodes, std::string_view name) {
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].name == name) return static_cast<std::int64_t>(i);
  }
  return -1;
}

std::string node_token(std::string_view name) {
  const bool plain = !name.empty() && name[0] != '+' && name[0] != '-' &&
                     std::all_of(name.begin(), name.end(), is_plain_name_char);
  if (plain) return std::string(name);
  std::string token = "\"";
  for (char c : name) {
    if (c == '"' || c == '\\') token += '\\';
    token += c;
  }
  token += '"';
  return token;
}

std::uint64_t total_weight(const NodeList& nodes) {
  std::uint64_t total = 0;
  for (const Node& node : nodes) total += node.weight;
  return total;
}

// ---- options ------------------------------------------------------------------

Result<OptionValues> OptionValues::parse(std::span<const OptionSpec> specs,
                                         std::span<const std::string_view> assignments,
                                         std::string_view algorithm_name) {
  OptionValues values = defaults(specs);
  const auto known = [&] {
    if (specs.empty()) return std::string(algorithm_name) + " takes no options";
    std::string list = std::string(algorithm_name) + "'s options: ";
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (i) list += ", ";
      list += std::string(specs[i].name) + "=" + std::string(specs[i].default_value) + " (" +
              std::string(specs[i].description) + ")";
    }
    return list;
  };
  for (std::string_view assignment : assignments) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string_view::npos) {
      return fail(quote(assignment), " is not an option (write name=value; ", known(), ")");
    }
    const std::string_view name = assignment.substr(0, eq);
    const std::string_view value = assignment.substr(eq + 1);
    const auto spec = std::find_if(specs.begin(), specs.end(),
                                   [&](const OptionSpec& s) { return s.name == name; });
    if (spec == specs.end()) {
      return fail("unknown option ", quote(name), " for ", std::string(algorithm_name), " (",
                  known(), ")");
    }
    std::string canonical;
    if (!spec->choices.empty()) {
      for (std::string_view choice : spec->choices) {
        if (choice.size() != value.size()) continue;
        bool same = true;
        for (std::size_t i = 0; i < value.size() && same; ++i) {
          same = std::tolower(static_cast<unsigned char>(choice[i])) ==
                 std::tolower(static_cast<unsigned char>(value[i]));
        }
        if (same) canonical = std::string(choice);
      }
      if (canonical.empty()) {
        std::string allowed;
        for (std::string_view choice : spec->choices) {
          if (!allowed.empty()) allowed += ", ";
          allowed += choice;
        }
        return fail("option ", printable_input(name), " of ", std::string(algorithm_name),
                    " must be one of ", allowed, " (got ", quote(value), ")");
      }
    } else {
      Result<std::int64_t> number =
          parse_integer(value, "option " + std::string(name) + " of " + std::string(algorithm_name),
                        spec->min, spec->max);
      if (!number) return Error{number.error()};
      if (spec->check) {
        Result<bool> ok = spec->check(*number);
        if (!ok) {
          return fail("option ", printable_input(name), "=", printable_input(value), " of ",
                      std::string(algorithm_name), " ", ok.error());
        }
      }
      canonical = std::to_string(*number);
    }
    for (auto& [n, v] : values.values_) {
      if (n == name) v = canonical;
    }
  }
  return values;
}

OptionValues OptionValues::defaults(std::span<const OptionSpec> specs) {
  OptionValues values;
  for (const OptionSpec& spec : specs) {
    values.values_.emplace_back(std::string(spec.name), std::string(spec.default_value));
    values.defaults_.emplace_back(spec.default_value);
  }
  return values;
}

std::string_view OptionValues::text(std::string_view name) const {
  for (const auto& [n, v] : values_) {
    if (n == name) return v;
  }
  return {};
}

std::int64_t OptionValues::integer(std::string_view name) const {
  const std::string_view value = text(name);
  std::int64_t number = 0;
  std::from_chars(value.data(), value.data() + value.size(), number);
  return number;
}

std::string OptionValues::describe() const {
  std::string text;
  for (const auto& [n, v] : values_) {
    if (!text.empty()) text += ' ';
    text += n + "=" + v;
  }
  return text;
}

std::vector<std::string> OptionValues::non_default() const {
  std::vector<std::string> result;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (values_[i].second != defaults_[i])
      result.push_back(values_[i].first + "=" + values_[i].second);
  }
  return result;
}

// ---- ListPlacement --------------------------------------------------------------

Result<bool> ListPlacement::edit_and_rebuild(NodeList edited) {
  NodeList previous = std::move(nodes_);
  nodes_ = std::move(edited);
  Result<bool> rebuilt = rebuild();
  if (!rebuilt) {
    nodes_ = std::move(previous);
    rebuild();
  }
  return rebuilt;
}

Result<bool> ListPlacement::remove(std::size_t index) {
  NodeList edited = nodes_;
  edited.erase(edited.begin() + static_cast<std::ptrdiff_t>(index));
  return edit_and_rebuild(std::move(edited));
}

Result<bool> ListPlacement::add(const Node& node) {
  NodeList edited = nodes_;
  edited.push_back(node);
  return edit_and_rebuild(std::move(edited));
}

Result<bool> ListPlacement::reweight(std::size_t index, std::uint32_t weight) {
  NodeList edited = nodes_;
  edited[index].weight = weight;
  return edit_and_rebuild(std::move(edited));
}

}  // namespace jumphash
