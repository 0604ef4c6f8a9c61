// Spawns the built `jumphash` binary on every `jumphash check` transcript in
// tests/check/ and compares stdout, stderr and the exit status byte for byte.
//
// A transcript (see expect_transcript in test_data.hpp) is <name>.args (e.g. `check exercise.script
// js-number.output`), <name>.stdout, <name>.stderr and <name>.exit, with
// <name>.stdin fed to standard input when it exists (else /dev/null). The
// command runs in tests/check/.
//
// When node is on the PATH, two more tests check that the inputs are what
// the independent JavaScript programs print: every <mistake>.output is
// `node student.mjs <mistake> < exercise.script`, and variants.tsv is
// `node ../reference/js_number.mjs`.
//
//   jumphash_checker_cli_tests [--transcript=NAME]   (CTest runs one per transcript)
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "test_data.hpp"

namespace {

namespace fs = std::filesystem;
using namespace jumphash::testing;

std::string only_transcript;  // set by --transcript=NAME

fs::path scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("jumphash_check_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

/// Runs `command` in tests/check/; returns its exit status (-1 when it did
/// not exit normally).
int run_in_check_dir(const std::string& command) {
  const std::string full = "cd '" + data_path("check") + "' && " + command;
  const int status = std::system(full.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool have_node() { return std::system("node --version > /dev/null 2>&1") == 0; }

TEST(CheckTranscripts, MatchGoldenOutput) {
  if (!only_transcript.empty()) {
    expect_transcript(JUMPHASH_CLI, "check", only_transcript);
    return;
  }
  for (const std::string& name : transcript_names("check")) {
    expect_transcript(JUMPHASH_CLI, "check", name);
  }
}

TEST(CheckTranscripts, ThereAreTranscripts) { EXPECT_GE(transcript_names("check").size(), 15u); }

TEST(CheckInputs, StudentOutputsAreWhatTheJavaScriptStudentPrints) {
  if (!have_node()) GTEST_SKIP() << "node is not on the PATH";
  const fs::path dir = scratch_dir();
  std::size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(data_path("check"))) {
    if (entry.path().extension() != ".output") continue;
    const std::string mistake = entry.path().stem().string();
    if (mistake.rfind("hand_", 0) == 0) continue;  // written by hand
    SCOPED_TRACE(mistake);
    const fs::path out = dir / (mistake + ".out");
    const int status = run_in_check_dir("node student.mjs " + mistake + " < exercise.script > '" +
                                        out.string() + "'");
    // The no-wrap student stands for a program that never returns.
    EXPECT_EQ(status, mistake == "no-wrap" ? 124 : 0);
    EXPECT_EQ(read_file(out.string()), read_file(entry.path().string()));
    ++compared;
  }
  EXPECT_GE(compared, 9u);
  fs::remove_all(dir);
}

TEST(CheckInputs, VariantVectorsAreWhatNodeComputes) {
  if (!have_node()) GTEST_SKIP() << "node is not on the PATH";
  const fs::path dir = scratch_dir();
  const fs::path out = dir / "variants.tsv";
  ASSERT_EQ(run_in_check_dir("node ../reference/js_number.mjs > '" + out.string() + "'"), 0);
  EXPECT_EQ(read_file(out.string()), read_file(data_path("check/variants.tsv")));
  fs::remove_all(dir);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  only_transcript = transcript_argument(argc, argv);
  return RUN_ALL_TESTS();
}
