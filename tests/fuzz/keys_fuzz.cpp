// Fuzz target: key and topology parsing. The input is one command line's
// arguments; it goes through split_tokens, parse_key, KeySet::parse (as
// tokens and as text), parse_node_list, parse_node and parse_node_edit.
// Properties: nothing crashes, every error message is printable (see
// fuzz_support.hpp), a parsed key reads back to the same value, and a key
// set yields exactly size() keys at its ends.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_support.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/nodes.hpp"

namespace {

using namespace jumphash;

void check_key(std::string_view token) {
  Result<Key> key = parse_key(token);
  if (!key) {
    fuzz::check_printable(key.error());
    return;
  }
  // A key prints as its label (string keys) or in decimal; that text is a
  // key again, with the same value.
  const std::string printed = key->label.empty() ? std::to_string(key->value) : key->label;
  Result<Key> again = parse_key(printed);
  if (!again || again->value != key->value) fuzz::property_failed("key does not read back", token);
}

void check_key_set(const Result<KeySet>& keys) {
  if (!keys) {
    fuzz::check_printable(keys.error());
    return;
  }
  if (keys->size() > kMaxKeysPerSet) fuzz::property_failed("key set above its limit", "");
  // Visit a few keys at both ends: ranges and random sets are generated
  // lazily, so this reaches the arithmetic at their bounds.
  std::uint64_t visited = 0;
  auto visit = [&visited](std::uint64_t, const Key*) { ++visited; };
  const std::uint64_t size = keys->size();
  const std::uint64_t head = size < 8 ? size : 8;
  keys->for_each_key(0, head, visit);
  keys->for_each_key(size - head, size, visit);
  if (visited != 2 * head) fuzz::property_failed("key set visited a wrong number of keys", "");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  fuzz::check_printable(printable_input(input));
  check_key(input);

  Result<std::vector<std::string_view>> tokens = split_tokens(input);
  if (!tokens) {
    fuzz::check_printable(tokens.error());
    return 0;
  }
  for (std::string_view token : *tokens) {
    check_key(token);
    Result<Node> node = parse_node(token);
    if (!node) fuzz::check_printable(node.error());
    Result<NodeEdit> edit = parse_node_edit(token);
    if (!edit) fuzz::check_printable(edit.error());
  }
  check_key_set(KeySet::parse(*tokens));
  check_key_set(KeySet::parse(input));

  Result<NodeList> nodes = parse_node_list(*tokens);
  if (!nodes) {
    fuzz::check_printable(nodes.error());
  } else {
    if (nodes->empty() || static_cast<std::int64_t>(nodes->size()) > kMaxNodes) {
      fuzz::property_failed("node list outside 1..kMaxNodes", input);
    }
    for (const Node& node : *nodes) {
      if (node.name.empty() || node.name.size() > kMaxNodeNameBytes || node.weight < 1 ||
          node.weight > kMaxNodeWeight) {
        fuzz::property_failed("node outside its limits", node.name);
      }
    }
  }
  return 0;
}
