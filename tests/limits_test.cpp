// The limits table (jumphash/limits.hpp) and each limit's error: every limit
// exceeded by one fails with a message that names it (what it bounds and its
// value); at the limit the same input works. The interpreter's work budget
// (WorkBudget) is tested the same way.
#include "jumphash/limits.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/checker.hpp"
#include "jumphash/cluster.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/keys.hpp"
#include "jumphash/nodes.hpp"
#include "jumphash/reports.hpp"

namespace jumphash {
namespace {

/// EXPECT_CONTAINS(text, part): `text` holds `part` (shown whole when not).
#define EXPECT_CONTAINS(text, part)                                                         \
  do {                                                                                      \
    const std::string text_ = (text);                                                       \
    const std::string part_ = (part);                                                       \
    EXPECT_NE(text_.find(part_), std::string::npos) << "expected \"" << part_ << "\" in:\n" \
                                                    << text_;                               \
  } while (false)

/// Runs `script` with output discarded (a LOAD of 10^6 buckets prints 10^6
/// lines); returns the error lines.
std::string errors_of(std::string_view script, WorkBudget budget = {}) {
  std::string errors;
  Interpreter interpreter([](std::string_view) {},
                          [&errors](std::string_view text) { errors += text; });
  interpreter.set_budget(budget);
  interpreter.run(script);
  return errors;
}

std::string decimal(std::uint64_t value) { return std::to_string(value); }

const Limit& limit_named(std::string_view name) {
  const auto found = std::find_if(limits().begin(), limits().end(),
                                  [name](const Limit& limit) { return limit.name == name; });
  if (found == limits().end()) throw std::runtime_error("no limit named " + std::string(name));
  return *found;
}

TEST(LimitsTable, NamesAreUniqueAndEveryRowIsDescribed) {
  for (std::size_t i = 0; i < limits().size(); ++i) {
    const Limit& limit = limits()[i];
    EXPECT_FALSE(limit.name.empty());
    EXPECT_GT(limit.value, 0u) << limit.name;
    EXPECT_FALSE(limit.bounds.empty()) << limit.name;
    EXPECT_TRUE(limit.enforced_by == "core" || limit.enforced_by == "page") << limit.name;
    for (std::size_t j = i + 1; j < limits().size(); ++j) EXPECT_NE(limit.name, limits()[j].name);
  }
}

TEST(LimitsTable, RowsAreTheConstantsTheCodeChecks) {
  EXPECT_EQ(limit_named("keys-per-set").value, kMaxKeysPerSet);
  EXPECT_EQ(limit_named("buckets").value, static_cast<std::uint64_t>(kMaxBuckets));
  EXPECT_EQ(limit_named("load-buckets").value, static_cast<std::uint64_t>(kMaxLoadBuckets));
  EXPECT_EQ(limit_named("modulo-trace").value, static_cast<std::uint64_t>(kMaxModuloTrace));
  EXPECT_EQ(limit_named("flow-cells").value, kMaxFlowCells);
  EXPECT_EQ(limit_named("nodes").value, static_cast<std::uint64_t>(kMaxNodes));
  EXPECT_EQ(limit_named("node-weight").value, kMaxNodeWeight);
  EXPECT_EQ(limit_named("node-name-bytes").value, kMaxNodeNameBytes);
  EXPECT_EQ(limit_named("placement-points").value, kMaxPlacementPoints);
  EXPECT_EQ(limit_named("checked-lines").value, kMaxCheckedLines);
  EXPECT_EQ(limit_named("check-output-bytes").value, kMaxCheckOutputBytes);
  EXPECT_EQ(limit_named("script-bytes").value, kMaxScriptBytes);
  EXPECT_EQ(limit_named("run-output-bytes").value, kMaxRunOutputBytes);
  EXPECT_EQ(limit_named("stream-output-bytes").value, kMaxStreamOutputBytes);
  EXPECT_EQ(limit_named("stream-output-bytes").enforced_by, "page");
  EXPECT_EQ(limit_named("embed-lookups").value, kMaxEmbedLookups);
  EXPECT_EQ(limit_named("embed-lookups").enforced_by, "page");
  EXPECT_EQ(limit_named("link-field-chars").value, kMaxLinkFieldChars);
  EXPECT_EQ(limit_named("link-field-chars").enforced_by, "page");
  EXPECT_EQ(limit_named("link-chars").value, kMaxLinkChars);
  EXPECT_EQ(limit_named("link-chars").enforced_by, "page");
  // A link carries at least one whole field of the largest size.
  EXPECT_GT(kMaxLinkChars, kMaxLinkFieldChars);
  EXPECT_EQ(limit_named("pasted-list-chars").value, kMaxPastedListChars);
  EXPECT_EQ(limit_named("pasted-list-chars").enforced_by, "page");
}

TEST(LimitsTable, TheReadmeHasTheSameTable) {
  std::ifstream readme(std::string(JUMPHASH_TEST_DATA_DIR) + "/../README.md");
  ASSERT_TRUE(readme) << "cannot read README.md";
  std::vector<std::string> rows;
  bool in_section = false;
  for (std::string line; std::getline(readme, line);) {
    if (line.rfind("## ", 0) == 0) in_section = line == "## Limits";
    if (in_section && line.rfind("| `", 0) == 0) rows.push_back(line);
  }
  ASSERT_EQ(rows.size(), limits().size()) << "README's Limits section has another number of rows";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Limit& limit = limits()[i];
    EXPECT_EQ(rows[i], "| `" + std::string(limit.name) + "` | " + decimal(limit.value) + " | " +
                           std::string(limit.unit) + " | " + std::string(limit.bounds) + " | " +
                           std::string(limit.enforced_by) + " |");
  }
}

TEST(Limits, KeysPerSet) {
  EXPECT_EQ(errors_of("KEYS 0..999999999\n"), "");
  EXPECT_EQ(errors_of("KEYS 1..1000000000\n"), "");
  const std::string error = errors_of("KEYS 0..1000000000\n");
  EXPECT_CONTAINS(error, "too many keys");
  EXPECT_CONTAINS(error, decimal(kMaxKeysPerSet) + " keys");
  EXPECT_CONTAINS(errors_of("KEYS 0..999999999 7\n"), decimal(kMaxKeysPerSet));
  EXPECT_EQ(errors_of("KEYS 0..999999998 7\n"), "");
  EXPECT_EQ(errors_of("KEYS random:1000000000:1\n"), "");
  EXPECT_CONTAINS(errors_of("KEYS random:1000000001:1\n"), decimal(kMaxKeysPerSet));
}

TEST(Limits, Buckets) {
  EXPECT_EQ(errors_of("HASH 42 2147483647\nKEYS 1\nMOVED 2147483646 2147483647\n"), "");
  const std::string error = errors_of("HASH 42 2147483648\n");
  EXPECT_CONTAINS(error, "bucket count must be an integer in 1..2147483647");
  EXPECT_CONTAINS(errors_of("KEYS 1\nMOVED 1 2147483648\n"),
                  "to bucket count must be an integer in 1..2147483647");
}

TEST(Limits, LoadBuckets) {
  EXPECT_EQ(errors_of("KEYS 0..9\nLOAD 1000000\n"), "");
  EXPECT_CONTAINS(errors_of("KEYS 0..9\nLOAD 1000001\n"),
                  "LOAD bucket count must be an integer in 1..1000000");
  EXPECT_TRUE(ResizeReport::create(algorithms()[0], 1000000, 1000000, 0));
  Result<ResizeReport> too_large = ResizeReport::create(algorithms()[0], 1000001, 10, 0);
  ASSERT_FALSE(too_large);
  EXPECT_CONTAINS(too_large.error(), "1..1000000");
}

TEST(Limits, ModuloTrace) {
  EXPECT_EQ(errors_of("ALGO modulo\nTRACE 42 1000000\n"), "");
  EXPECT_CONTAINS(errors_of("ALGO modulo\nTRACE 42 1000001\n"),
                  "TRACE max for modulo must be an integer in 1..1000000");
  // The consistent algorithms trace up to the bucket limit.
  EXPECT_EQ(errors_of("TRACE 42 2147483647\n"), "");
}

TEST(Limits, FlowCellsKeepOrDropTheMatrix) {
  // 2048 x 2048 = 2^22 cells: kept; 2049 x 2048: the report has no matrix
  // (the page says so and lists every source instead).
  Result<ResizeReport> at_limit = ResizeReport::create(algorithms()[0], 2048, 2048, 0);
  ASSERT_TRUE(at_limit);
  EXPECT_TRUE(at_limit->has_flows());
  EXPECT_EQ(at_limit->flows().size(), kMaxFlowCells);
  Result<ResizeReport> above = ResizeReport::create(algorithms()[0], 2049, 2048, 0);
  ASSERT_TRUE(above);
  EXPECT_FALSE(above->has_flows());
}

TEST(Limits, Nodes) {
  std::vector<std::string> names;
  for (int i = 0; i <= kMaxNodes; ++i) names.push_back("n" + std::to_string(i));
  std::vector<std::string_view> tokens(names.begin(), names.end());
  Result<NodeList> too_many = parse_node_list(tokens);
  ASSERT_FALSE(too_many);
  EXPECT_CONTAINS(too_many.error(), "too many nodes: 100001 (at most 100000)");
  tokens.pop_back();
  Result<NodeList> at_limit = parse_node_list(tokens);
  ASSERT_TRUE(at_limit) << at_limit.error();
  EXPECT_EQ(at_limit->size(), static_cast<std::size_t>(kMaxNodes));
  // A bucket count given to a node-set algorithm becomes that many nodes.
  EXPECT_EQ(errors_of("ALGO rendezvous\nHASH 42 100000\n"), "");
  EXPECT_CONTAINS(errors_of("ALGO rendezvous\nHASH 42 100001\n"),
                  "for rendezvous (one node per bucket) must be an integer in 1..100000");
}

TEST(Limits, NodeWeight) {
  EXPECT_EQ(errors_of("NODES a*1000000\n"), "");
  EXPECT_CONTAINS(errors_of("NODES a*1000001\n"),
                  "weight of node a must be an integer in 1..1000000");
}

TEST(Limits, NodeNameBytes) {
  const std::string at_limit(kMaxNodeNameBytes, 'x');
  EXPECT_TRUE(parse_node(at_limit));
  Result<Node> above = parse_node(at_limit + "x");
  ASSERT_FALSE(above);
  EXPECT_CONTAINS(above.error(), "is 1025 bytes long (at most 1024)");
}

TEST(Limits, PlacementPoints) {
  // nginx places 160 points per unit of weight: 104857 x 160 = 16777120
  // points fit in 2^24 = 16777216; weight 104858 (16777280 points), the
  // next a weight can reach, does not.
  EXPECT_EQ(errors_of("ALGO nginx\nNODES a*104857\nHASH 1\n"), "");
  const std::string error = errors_of("ALGO nginx\nNODES a*104858\nHASH 1\n");
  EXPECT_CONTAINS(error, "16777280 points, more than 16777216");
}

TEST(Limits, CheckedLines) {
  // Right output of a script that prints exactly 10^6 lines: checked.
  const std::string script = "KEYS 0..999999\nBUCKETS 7\n";
  const std::string output = run_script(script).stdout_text;
  Result<CheckReport> at_limit = check_output(script, output);
  ASSERT_TRUE(at_limit) << at_limit.error();
  EXPECT_TRUE(at_limit->all_match());
  // One more line from the script, or in the student's output: an error.
  Result<CheckReport> script_above = check_output("KEYS 0..1000000\nBUCKETS 7\n", output);
  ASSERT_FALSE(script_above);
  EXPECT_CONTAINS(script_above.error(), "the script prints more than 1000000 lines");
  // (A script that prints one line, so that only the student's side is large.)
  Result<CheckReport> output_above = check_output("HASH 1 10\n", output + "extra\n");
  ASSERT_FALSE(output_above);
  EXPECT_CONTAINS(output_above.error(), "the output to check has more than 1000000 lines");
}

TEST(Limits, CheckOutputBytes) {
  // Exactly the limit: the right line, then one long line (an extra line).
  std::string output = "42: 43\n";
  output += std::string(kMaxCheckOutputBytes - output.size() - 1, 'x') + "\n";
  ASSERT_EQ(output.size(), kMaxCheckOutputBytes);
  Result<CheckReport> at_limit = check_output("HASH 42 100\n", output);
  ASSERT_TRUE(at_limit) << at_limit.error();
  EXPECT_EQ(at_limit->matching, 1u);
  EXPECT_EQ(at_limit->actual_lines, 2u);
  // One byte more: an error naming the limit, before the script runs (a
  // script of 10^9 keys would take seconds).
  output.insert(0, "x");
  Result<CheckReport> above = check_output("KEYS 0..999999999\nLOAD 10\n", output);
  ASSERT_FALSE(above);
  EXPECT_CONTAINS(above.error(),
                  "the output to check has 67108865 bytes, more than the limit of "
                  "67108864 bytes (check-output-bytes, 64 MiB)");
}

TEST(Limits, ScriptBytes) {
  // One comment line of exactly the limit runs (and prints nothing); one
  // byte more runs nothing.
  std::string script(kMaxScriptBytes, 'x');
  script[0] = '#';
  const ScriptOutput at_limit = run_script(script);
  EXPECT_EQ(at_limit.exit_code, 0);
  EXPECT_EQ(at_limit.stderr_text, "");
  script += "\nHASH 1 10";
  script.resize(kMaxScriptBytes + 1);
  const ScriptOutput above = run_script(script);
  EXPECT_EQ(above.exit_code, 1);
  EXPECT_EQ(above.stdout_text, "");
  EXPECT_CONTAINS(above.stderr_text,
                  "the script has 67108865 bytes, more than the limit of "
                  "67108864 bytes (script-bytes, 64 MiB)");
}

TEST(Limits, RunOutputBytes) {
  // 10^7 keys in one bucket print 108888890 bytes: run_script keeps the
  // whole lines that fit in 64 MiB, then the error naming the limit.
  const ScriptOutput above = run_script("KEYS 0..9999999\nBUCKETS 1\nHASH 1 10\n");
  EXPECT_EQ(above.exit_code, 1);
  EXPECT_LE(above.stdout_text.size(), kMaxRunOutputBytes);
  EXPECT_GT(above.stdout_text.size(), kMaxRunOutputBytes - 20);
  EXPECT_EQ(above.stdout_text.back(), '\n');
  EXPECT_EQ(above.stdout_text.substr(0, 10), "0: 0\n1: 0\n");
  EXPECT_EQ(above.stderr_text,
            "line 2: error: the output passed this run's limit of 67108864 bytes "
            "(run-output-bytes, 64 MiB) of output and error lines; it stops after the last whole "
            "line that fit and the run ends here (the jumphash CLI prints output of any size)\n");
  // The CLI's Interpreter has no budget: the same lines all print.
  std::uint64_t bytes = 0;
  Interpreter unbounded([&bytes](std::string_view text) { bytes += text.size(); },
                        [](std::string_view) {});
  EXPECT_EQ(unbounded.run("KEYS 0..9999999\nBUCKETS 1\n"), 0);
  EXPECT_EQ(bytes, 108888890u);
}

TEST(Limits, StreamOutputBytes) {
  // The page's console streams a run under kMaxStreamOutputBytes: 3*10^7
  // keys in one bucket print 348888890 bytes; the stream stops at the last
  // whole line within 256 MiB and the error names the limit. Counted, not kept.
  std::uint64_t bytes = 0;
  char last = 0;
  std::string errors;
  Interpreter streamed(
      [&](std::string_view text) {
        bytes += text.size();
        if (!text.empty()) last = text.back();
      },
      [&](std::string_view text) { errors += text; });
  streamed.set_budget(WorkBudget{0, kMaxStreamOutputBytes});
  EXPECT_EQ(streamed.run("KEYS 0..29999999\nBUCKETS 1\nHASH 1 10\n"), 1);
  EXPECT_LE(bytes, kMaxStreamOutputBytes);
  EXPECT_GT(bytes, kMaxStreamOutputBytes - 20);
  EXPECT_EQ(last, '\n');
  EXPECT_EQ(errors,
            "line 2: error: the output passed this run's limit of 268435456 bytes "
            "(stream-output-bytes, 256 MiB) of output and error lines; it stops after the last "
            "whole line that fit and the run ends here (the jumphash CLI prints output of any "
            "size)\n");
}

TEST(Limits, EmbedLookups) {
  // An embedded console's automatic run: 10^7 lookups, then a clear error.
  std::string errors;
  Interpreter embedded([](std::string_view) {}, [&](std::string_view text) { errors += text; });
  embedded.set_budget(WorkBudget{kMaxEmbedLookups, 0});
  EXPECT_EQ(embedded.run("KEYS 0..4999999\nMOVED 10 11\n"), 0);  // exactly 10^7
  std::string more;
  Interpreter over([](std::string_view) {}, [&](std::string_view text) { more += text; });
  over.set_budget(WorkBudget{kMaxEmbedLookups, 0});
  EXPECT_EQ(over.run("KEYS 0..5000000\nMOVED 10 11\n"), 1);
  EXPECT_CONTAINS(more, "line 2: error: ");
  EXPECT_CONTAINS(more, "10000000 lookups");
}

TEST(WorkBudget, OutputBytesStopAtTheLastWholeLine) {
  const std::string script = "KEYS 0..9\nBUCKETS 10\nHASH 5 10\n";
  const ScriptOutput whole = run_script(script, {});
  ASSERT_EQ(whole.exit_code, 0);
  const std::uint64_t size = whole.stdout_text.size();
  const ScriptOutput at_limit = run_script(script, {0, size});
  EXPECT_EQ(at_limit.exit_code, 0);
  EXPECT_EQ(at_limit.stdout_text, whole.stdout_text);
  const ScriptOutput above = run_script(script, {0, size - 1});
  EXPECT_EQ(above.exit_code, 1);
  // The HASH line (5: 9 or so) no longer fits; BUCKETS' ten lines do.
  EXPECT_EQ(above.stdout_text,
            whole.stdout_text.substr(0, whole.stdout_text.rfind('\n', size - 2) + 1));
  EXPECT_CONTAINS(above.stderr_text, "line 3: error: the output passed this run's limit of " +
                                         decimal(size - 1) + " bytes");
}

TEST(WorkBudget, ErrorLinesCountAndTheRunEnds) {
  // Error lines count toward the output budget: 1000 bad lines stop early.
  std::string script;
  for (int i = 0; i < 1000; ++i) script += "NOPE\n";
  const ScriptOutput output = run_script(script, {0, 1000});
  EXPECT_EQ(output.exit_code, 1);
  EXPECT_LT(output.stderr_text.size(), 1400u);
  EXPECT_CONTAINS(output.stderr_text, "the output passed this run's limit of 1000 bytes");
}

TEST(WorkBudget, Lookups) {
  // BUCKETS over 10 keys is 10 lookups; MOVED two per key.
  EXPECT_EQ(errors_of("KEYS 0..9\nBUCKETS 10\n", {10, 0}), "");
  EXPECT_EQ(errors_of("KEYS 0..9\nMOVED 10 12\n", {20, 0}), "");
  const std::string error = errors_of("KEYS 0..9\nBUCKETS 10\nHASH 1 10\n", {9, 0});
  EXPECT_EQ(error,
            "line 2: error: BUCKETS over 10 keys needs 10 lookups, more than the 9 left of this "
            "run's budget of 9 lookups; the run ends here (the jumphash CLI runs scripts without "
            "a budget)\n");
  // A 10^9-key script ends at once.
  const ScriptOutput huge = run_script("KEYS 0..999999999\nBUCKETS 10\nMOVED 10 12\n", {100000, 0});
  EXPECT_EQ(huge.exit_code, 1);
  EXPECT_EQ(huge.stdout_text, "");
  EXPECT_CONTAINS(huge.stderr_text, "line 2: error: BUCKETS over 1000000000 keys needs");
  EXPECT_EQ(huge.stderr_text.find("line 3"), std::string::npos) << huge.stderr_text;
  // Node lists: placing them counts too: nodes plus their weights before
  // (ketama honours weights: 2 + 6), and the built ring's 8-byte words
  // after (316 for these 6 units of weight).
  EXPECT_EQ(errors_of("ALGO ketama\nNODES a*5 b\nHASH 1\n", {2 + 6 + 316 + 1, 0}), "");
  EXPECT_CONTAINS(errors_of("ALGO ketama\nNODES a*5 b\nHASH 1\n", {2 + 6 + 316, 0}),
                  "line 3: error: HASH needs 1 lookups, more than the 0 left");
  EXPECT_CONTAINS(errors_of("ALGO ketama\nNODES a*5 b\nHASH 1\n", {2 + 6 + 315, 0}),
                  "HASH <key> (a placement of 316 8-byte words) needs 316 lookups");
  EXPECT_CONTAINS(errors_of("ALGO rendezvous\nHASH 1 100000\n", {99999, 0}),
                  "placing 100000 numbered nodes needs 100000 lookups");
  // A large table is built once, then refused: maglev's default 65537 slots.
  EXPECT_CONTAINS(errors_of("ALGO maglev\nNODES a b\nHASH 1\n", {10000, 0}), "8-byte words) needs");
}

TEST(WorkBudget, LaterRunLinesFailOnceItIsUsedUp) {
  std::string errors;
  Interpreter interpreter([](std::string_view) {},
                          [&errors](std::string_view text) { errors += text; });
  interpreter.set_budget({5, 0});
  EXPECT_TRUE(interpreter.run_line("HASH 1 10", 1));
  EXPECT_TRUE(interpreter.run_line("KEYS 0..9", 2));
  EXPECT_FALSE(interpreter.run_line("BUCKETS 3", 3));
  EXPECT_TRUE(interpreter.budget_exhausted());
  EXPECT_FALSE(interpreter.run_line("HASH 1 10", 4));
  EXPECT_CONTAINS(errors, "line 4: error: not run: an earlier line used up this run's budget");
}

}  // namespace
}  // namespace jumphash
