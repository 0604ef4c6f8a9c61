// Spawns the built `jumphash` binary on every transcript in tests/cli/ and
// compares stdout, stderr and the exit status byte for byte (see
// expect_transcript in test_data.hpp for the transcript files).
//
//   jumphash_cli_tests [--transcript=NAME]   (CTest runs one per transcript)
#include <gtest/gtest.h>

#include <string>

#include "test_data.hpp"

namespace {

using namespace jumphash::testing;

std::string only_transcript;  // set by --transcript=NAME

TEST(CliTranscripts, MatchGoldenOutput) {
  if (!only_transcript.empty()) {
    expect_transcript(JUMPHASH_CLI, "cli", only_transcript);
    return;
  }
  for (const std::string& name : transcript_names("cli")) expect_transcript(JUMPHASH_CLI, "cli", name);
}

TEST(CliTranscripts, ThereAreTranscripts) { EXPECT_GE(transcript_names("cli").size(), 10u); }

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  only_transcript = transcript_argument(argc, argv);
  return RUN_ALL_TESTS();
}
