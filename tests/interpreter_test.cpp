// The interpreter in-process; the CLI's transcripts are in tests/cli/.
#include <gtest/gtest.h>

#include <sstream>

#include "jumphash/interpreter.hpp"

namespace jumphash {
namespace {

TEST(Interpreter, ExerciseCases) {
  const ScriptOutput out = run_script(
      "HASH 42 100\nHASH 18446744073709551615 100\nKEYS 0..9999\nMOVED 10 12\n");
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
  std::ostringstream out, err;
  Interpreter interpreter(out, err);
  std::vector<std::uint64_t> lines;
  interpreter.set_output_line_observer([&](std::uint64_t line) { lines.push_back(line); });
  interpreter.run("# header\nHASH 1 2\n\nKEYS 1 2 3\nBUCKETS 4\n");
  EXPECT_EQ(lines, (std::vector<std::uint64_t>{2, 5, 5, 5}));
}

TEST(Interpreter, ArityErrorsShowTheUsage) {
  const ScriptOutput out = run_script("HASH 1\nMOVED 1\nLOAD\nTRACE 1 2 3\nBUCKETS\nALGO\n");
  EXPECT_EQ(out.stderr_text,
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

}  // namespace
}  // namespace jumphash
