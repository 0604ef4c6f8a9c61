// Spawns the built `jumphash` binary on every transcript in tests/cli/ and
// compares stdout, stderr and the exit status byte for byte.
//
// A transcript is <name>.stdout, <name>.stderr and <name>.exit beside either
//   <name>.script  run as `jumphash <name>.script`, or
//   <name>.args    a shell-quoted argument list: `jumphash <args>`,
// with <name>.stdin fed to standard input when it exists (else /dev/null).
//
//   jumphash_cli_tests [--transcript=NAME]   (CTest runs one per transcript)
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_data.hpp"

namespace {

namespace fs = std::filesystem;
using jumphash::testing::data_path;
using jumphash::testing::read_file;

std::string trim_newline(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

std::string only_transcript;  // set by --transcript=NAME

void check_transcript(const std::string& name) {
  SCOPED_TRACE("transcript " + name);
  const fs::path dir = data_path("cli");
  const fs::path base = dir / name;
  const fs::path out_dir = fs::temp_directory_path() / ("jumphash_cli_" + std::to_string(::getpid()));
  fs::create_directories(out_dir);
  const fs::path out = out_dir / (name + ".out"), err = out_dir / (name + ".err");

  std::string command = "cd '" + dir.string() + "' && '" JUMPHASH_CLI "' ";
  if (fs::exists(base.string() + ".args")) {
    command += trim_newline(read_file(base.string() + ".args"));
  } else {
    command += "'" + name + ".script'";
  }
  command += fs::exists(base.string() + ".stdin") ? " < '" + name + ".stdin'" : " < /dev/null";
  command += " > '" + out.string() + "' 2> '" + err.string() + "'";
  const int status = std::system(command.c_str());
  ASSERT_TRUE(WIFEXITED(status)) << command;
  ASSERT_TRUE(fs::exists(base.string() + ".stdout")) << "no transcript " << name;

  EXPECT_EQ(read_file(out.string()), read_file(base.string() + ".stdout")) << name << " stdout";
  EXPECT_EQ(read_file(err.string()), read_file(base.string() + ".stderr")) << name << " stderr";
  EXPECT_EQ(std::to_string(WEXITSTATUS(status)), trim_newline(read_file(base.string() + ".exit")))
      << name << " exit status";
  fs::remove_all(out_dir);
}

std::vector<std::string> transcripts() {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(data_path("cli"))) {
    if (entry.path().extension() == ".stdout") names.push_back(entry.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

TEST(CliTranscripts, MatchGoldenOutput) {
  if (!only_transcript.empty()) {
    check_transcript(only_transcript);
    return;
  }
  for (const std::string& name : transcripts()) check_transcript(name);
}

TEST(CliTranscripts, ThereAreTranscripts) { EXPECT_GE(transcripts().size(), 10u); }

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--transcript=", 0) == 0) only_transcript = arg.substr(13);
  }
  return RUN_ALL_TESTS();
}
