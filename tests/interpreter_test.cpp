// The interpreter in-process; the CLI's transcripts are in tests/cli/.
#include "jumphash/interpreter.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace jumphash {
namespace {

TEST(Interpreter, ExerciseCases) {
  const ScriptOutput out =
      run_script("HASH 42 100\nHASH 18446744073709551615 100\nKEYS 0..9999\nMOVED 10 12\n");
  EXPECT_EQ(out.exit_code, 0);
  EXPECT_EQ(out.stderr_text, "");
  EXPECT_EQ(out.stdout_text.substr(0, 31), "42: 43\n18446744073709551615: 92");
  EXPECT_NE(out.stdout_text.find("\nmoved: 1653 of 10000\n"), std::string::npos);
}

TEST(Interpreter, FailingLineHasNoEffectAndLaterLinesRun) {
  const ScriptOutput out = run_script("KEYS 1 2\nKEYS 3 bad\nALGO nope\nBUCKETS 1\n");
  EXPECT_EQ(out.exit_code, 1);
  EXPECT_EQ(out.stdout_text, "1: 0\n2: 0\n");
  EXPECT_EQ(out.stderr_text.substr(0, 22), "line 2: error: 'bad' i");
  EXPECT_NE(out.stderr_text.find("line 3: error: unknown algorithm 'nope'"), std::string::npos);
}

TEST(Interpreter, KeywordsIgnoreCaseAndCrlfIsAccepted) {
  const ScriptOutput out = run_script("algo JUMPBACK\r\nhash 18446744073709551615 100\r\n");
  EXPECT_EQ(out.stdout_text, "18446744073709551615: 73\n");
  EXPECT_EQ(out.exit_code, 0);
}

TEST(Interpreter, ObserverSeesTheScriptLineOfEveryOutputLine) {
  std::string out, err;
  Interpreter interpreter([&out](std::string_view t) { out += t; },
                          [&err](std::string_view t) { err += t; });
  std::vector<std::uint64_t> lines;
  interpreter.set_output_line_observer([&](std::uint64_t line) { lines.push_back(line); });
  interpreter.run("# header\nHASH 1 2\n\nKEYS 1 2 3\nBUCKETS 4\n");
  EXPECT_EQ(lines, (std::vector<std::uint64_t>{2, 5, 5, 5}));
}

TEST(Interpreter, ArityErrorsShowTheUsage) {
  const ScriptOutput out = run_script("HASH 1\nMOVED 1\nLOAD\nTRACE 1 2 3\nBUCKETS\nALGO\n");
  EXPECT_EQ(
      out.stderr_text,
      "line 1: error: HASH <key> needs a node list: set one with NODES (e.g. NODES a b c*2)\n"
      "line 2: error: MOVED takes 2 arguments (MOVED <from> <to>), or node edits (MOVED -name "
      "+name*w ...), got 1\n"
      "line 3: error: LOAD without a bucket count needs a node list: set one with NODES (e.g. "
      "NODES a b c*2)\n"
      "line 4: error: TRACE takes 2 arguments (TRACE <key> <max>), got 3\n"
      "line 5: error: BUCKETS without a bucket count needs a node list: set one with NODES (e.g. "
      "NODES a b c*2)\n"
      "line 6: error: ALGO takes a name (ALGO <name> [<option>=<value>]...), got nothing\n");
}

// --- output events ---------------------------------------------------------------

/// One event, copied out of the observer (its views die with the call).
struct Seen {
  OutputEvent::Row row;
  std::uint64_t script_line;
  std::string text;
  std::uint64_t key;
  std::string key_label, key_bytes;  // empty for keys that print as decimal
  std::int64_t values[2];
  std::string names[2];
  std::shared_ptr<const OutputContext> context;
};

struct Observed {
  std::vector<Seen> events;
  std::string stdout_text;
};

Observed observe(const std::string& script) {
  std::string out, err;
  Observed observed;
  {
    Interpreter interpreter([&out](std::string_view t) { out += t; },
                            [&err](std::string_view t) { err += t; });
    interpreter.set_output_observer([&](const OutputEvent& e) {
      observed.events.push_back({e.row,
                                 e.script_line,
                                 std::string(e.text),
                                 e.key,
                                 e.string_key ? e.string_key->label : "",
                                 e.string_key ? e.string_key->text : "",
                                 {e.values[0], e.values[1]},
                                 {std::string(e.names[0]), std::string(e.names[1])},
                                 e.context});
    });
    interpreter.run(script);
  }
  observed.stdout_text = out;
  return observed;
}

/// The printed lines are exactly the events' texts, and observing changes
/// no byte of the output.
void expect_events_are_the_output(const std::string& script, const Observed& observed) {
  std::string joined;
  for (const Seen& e : observed.events) joined += e.text + "\n";
  EXPECT_EQ(joined, observed.stdout_text);
  EXPECT_EQ(observed.stdout_text, run_script(script).stdout_text);
}

using Row = OutputEvent::Row;
using Command = OutputContext::Command;

TEST(InterpreterEvents, EveryCommandOnBucketCounts) {
  const std::string script =
      "HASH 42 100\nKEYS 1..3 \"alice\"\nBUCKETS 10\nMOVED 10 11\nLOAD 3\nTRACE 42 50\n";
  const Observed o = observe(script);
  expect_events_are_the_output(script, o);
  ASSERT_GE(o.events.size(), 5u);

  const Seen& hash = o.events[0];  // the exercise's value: jump(42, 100) = 43
  EXPECT_EQ(hash.row, Row::key_value);
  EXPECT_EQ(hash.text, "42: 43");
  EXPECT_EQ(hash.script_line, 1u);
  EXPECT_EQ(hash.key, 42u);
  EXPECT_EQ(hash.values[0], 43);
  EXPECT_EQ(hash.key_label, "");
  EXPECT_EQ(hash.names[0], "");
  EXPECT_EQ(hash.context->command, Command::hash);
  EXPECT_EQ(hash.context->algorithm->name, "jump");
  EXPECT_EQ(hash.context->n, 100);
  EXPECT_EQ(hash.context->key.value, 42u);
  EXPECT_EQ(hash.context->cluster, nullptr);

  std::size_t buckets = 0, moves = 0, totals = 0, loads = 0, steps = 0;
  for (const Seen& e : o.events) {
    SCOPED_TRACE(e.text);
    const OutputContext& c = *e.context;
    switch (e.row) {
      case Row::key_value:
        if (e.script_line != 3) break;
        ++buckets;
        EXPECT_EQ(c.command, Command::buckets);
        EXPECT_EQ(c.n, 10);
        EXPECT_EQ(c.keys->size(), 4u);
        EXPECT_EQ(e.text, (e.key_label.empty() ? std::to_string(e.key) : e.key_label) + ": " +
                              std::to_string(e.values[0]));
        break;
      case Row::key_move:
        ++moves;
        EXPECT_EQ(c.command, Command::moved);
        EXPECT_EQ(c.from, 10);
        EXPECT_EQ(c.to, 11);
        EXPECT_EQ(e.values[1], 10);  // growing by one: moved keys go to the new bucket
        break;
      case Row::moved_total:
        ++totals;
        EXPECT_EQ(e.text, "moved: " + std::to_string(e.values[0]) + " of 4");
        EXPECT_EQ(e.values[0], static_cast<std::int64_t>(moves));
        EXPECT_EQ(e.values[1], 4);
        break;
      case Row::load:
        EXPECT_EQ(c.command, Command::load);
        EXPECT_EQ(e.key, loads);
        EXPECT_EQ(e.text, std::to_string(loads) + ": " + std::to_string(e.values[0]));
        ++loads;
        break;
      case Row::trace:
        ++steps;
        EXPECT_EQ(c.command, Command::trace);
        EXPECT_EQ(c.n, 50);
        EXPECT_EQ(e.text, std::to_string(e.key) + ": " + std::to_string(e.values[0]));
        break;
    }
  }
  EXPECT_EQ(buckets, 4u);
  EXPECT_EQ(totals, 1u);
  EXPECT_EQ(loads, 3u);
  EXPECT_GE(steps, 2u);  // 1: 0, then at least one jump up to n = 50
  // The string key of BUCKETS comes with its bytes.
  const Seen& alice = o.events[4];
  EXPECT_EQ(alice.key_label, "\"alice\"");
  EXPECT_EQ(alice.key_bytes, "alice");
}

TEST(InterpreterEvents, NodeListsNameNodesAndShareTheirHistory) {
  const std::string script =
      "ALGO rendezvous\n"
      "NODES 10.0.0.1:11211 \"cache 2\" c d\n"
      "KEYS 0..199 \"alice\"\n"
      "HASH \"alice\"\n"
      "BUCKETS\n"
      "LOAD\n"
      "MOVED -\"cache 2\"\n"
      "REMOVE c\n"
      "HASH 7\n";
  const Observed o = observe(script);
  expect_events_are_the_output(script, o);
  ASSERT_FALSE(o.events.empty());

  const Seen& hash = o.events[0];
  EXPECT_EQ(hash.row, Row::key_value);
  EXPECT_EQ(hash.key_label, "\"alice\"");
  EXPECT_EQ(hash.key_bytes, "alice");
  ASSERT_NE(hash.context->cluster, nullptr);
  const NodeList& nodes = hash.context->cluster->nodes();
  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[static_cast<std::size_t>(hash.values[0])].name, hash.names[0]);
  EXPECT_EQ(hash.text, "\"alice\": " + hash.names[0]);
  EXPECT_EQ(hash.context->history->listed.size(), 4u);
  EXPECT_TRUE(hash.context->history->edits.empty());

  std::uint64_t load_total = 0;
  std::size_t moved_rows = 0;
  for (const Seen& e : o.events) {
    SCOPED_TRACE(e.text);
    const OutputContext& c = *e.context;
    if (e.script_line == 5) {  // BUCKETS shares the cluster and history of HASH
      EXPECT_EQ(c.cluster, hash.context->cluster);
      EXPECT_EQ(c.history, hash.context->history);
      EXPECT_EQ(c.cluster->nodes()[static_cast<std::size_t>(e.values[0])].name, e.names[0]);
    }
    if (e.row == Row::load) {
      EXPECT_EQ(nodes[e.key].name, e.names[0]);  // quoted names print unquoted
      EXPECT_EQ(e.text, e.names[0] + ": " + std::to_string(e.values[0]));
      load_total += static_cast<std::uint64_t>(e.values[0]);
    }
    if (e.row == Row::key_move) {
      ++moved_rows;
      ASSERT_NE(c.after, nullptr);
      EXPECT_EQ(e.names[0], "cache 2");  // rendezvous moves only the removed node's keys
      EXPECT_EQ(c.cluster->nodes()[static_cast<std::size_t>(e.values[0])].name, e.names[0]);
      EXPECT_EQ(c.after->nodes()[static_cast<std::size_t>(e.values[1])].name, e.names[1]);
      EXPECT_EQ(c.after->nodes().size(), 3u);
      ASSERT_EQ(c.after_history->edits.size(), 1u);
      EXPECT_EQ(c.after_history->edits[0].node.name, "cache 2");
      EXPECT_EQ(c.after_history->nodes.size(), 3u);
      EXPECT_TRUE(c.history->edits.empty());
    }
  }
  EXPECT_EQ(load_total, 201u);
  EXPECT_GT(moved_rows, 20u);  // about a quarter of 201 keys

  const Seen& after_remove = o.events.back();
  EXPECT_EQ(after_remove.script_line, 9u);
  EXPECT_EQ(after_remove.key, 7u);
  ASSERT_EQ(after_remove.context->history->edits.size(), 1u);
  EXPECT_EQ(after_remove.context->history->edits[0].kind, NodeEdit::Kind::remove);
  EXPECT_EQ(after_remove.context->history->nodes.size(), 3u);
  EXPECT_EQ(after_remove.context->history->listed.size(), 4u);
}

TEST(InterpreterEvents, NodeSetAlgorithmOnABucketCountNumbersTheNodes) {
  const std::string script = "ALGO memento\nHASH 42 10\nKEYS 0..99\nMOVED 10 12\nLOAD 5\n";
  const Observed o = observe(script);
  expect_events_are_the_output(script, o);
  ASSERT_FALSE(o.events.empty());
  const Seen& hash = o.events[0];
  ASSERT_NE(hash.context->cluster, nullptr);
  EXPECT_EQ(hash.context->history->nodes.size(), 10u);
  EXPECT_EQ(hash.names[0], std::to_string(hash.values[0]));  // node "b" has index b
  for (const Seen& e : o.events) {
    if (e.row != Row::key_move) continue;
    EXPECT_EQ(e.context->from, 10);
    EXPECT_EQ(e.context->to, 12);
    EXPECT_EQ(e.context->history->nodes.size(), 10u);
    EXPECT_EQ(e.context->after_history->nodes.size(), 12u);
    EXPECT_GE(e.values[1], 10);  // memento moves keys only to the new nodes
  }
  EXPECT_EQ(o.events.back().row, Row::load);
  EXPECT_EQ(o.events.back().names[0], "4");
}

TEST(InterpreterEvents, EachCommandHasItsOwnContextAndFailingLinesPrintNothing) {
  const Observed o = observe("KEYS 1 2\nBUCKETS 3\nHASH 1 0\nBUCKETS 3\n");
  ASSERT_EQ(o.events.size(), 4u);
  EXPECT_EQ(o.events[0].context, o.events[1].context);
  EXPECT_NE(o.events[1].context, o.events[2].context);
  EXPECT_EQ(o.events[2].script_line, 4u);
}

TEST(InterpreterEvents, LineObserverStillSeesEveryLineBesideTheEventObserver) {
  std::string out, err;
  Interpreter interpreter([&out](std::string_view t) { out += t; },
                          [&err](std::string_view t) { err += t; });
  std::vector<std::uint64_t> lines, events;
  interpreter.set_output_line_observer([&](std::uint64_t line) { lines.push_back(line); });
  interpreter.set_output_observer([&](const OutputEvent& e) { events.push_back(e.script_line); });
  interpreter.run("NODES a b\nKEYS 1 2\nBUCKETS\nLOAD\n");
  EXPECT_EQ(lines, (std::vector<std::uint64_t>{3, 3, 4, 4}));
  EXPECT_EQ(events, lines);
  EXPECT_EQ(interpreter.keys().size(), 2u);
}

}  // namespace
}  // namespace jumphash
