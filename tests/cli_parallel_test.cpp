// `jumphash -j N`: the CLI's output does not depend on the thread count.
// Runs every transcript of tests/cli/ with -j 1 and with -j 2 and compares
// stdout, stderr and the exit status byte for byte; then MOVED, LOAD and
// BUCKETS over large range, random and mixed key sets with -j 1 and -j 4.
//
//   jumphash_cli_parallel_tests [--gtest_filter=...]
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_data.hpp"

namespace {

using namespace jumphash::testing;
namespace fs = std::filesystem;

struct CliRun {
  std::string out, err;
  int exit_status = -1;
};

/// Runs `jumphash <arguments>` in `directory` with `stdin_file` as input.
CliRun run_cli(const fs::path& directory, const std::string& arguments,
            const std::string& stdin_file) {
  const fs::path scratch =
      fs::temp_directory_path() / ("jumphash_parallel_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path out = scratch / "out", err = scratch / "err";
  const std::string command = "cd '" + directory.string() + "' && '" + JUMPHASH_CLI + "' " +
                              arguments + " < '" + stdin_file + "' > '" + out.string() +
                              "' 2> '" + err.string() + "'";
  const int status = std::system(command.c_str());
  CliRun run;
  EXPECT_TRUE(WIFEXITED(status)) << command;
  run.exit_status = WEXITSTATUS(status);
  run.out = read_file(out.string());
  run.err = read_file(err.string());
  fs::remove_all(scratch);
  return run;
}

void expect_same(const CliRun& one, const CliRun& many, const std::string& what) {
  EXPECT_EQ(one.out, many.out) << what << ": stdout";
  EXPECT_EQ(one.err, many.err) << what << ": stderr";
  EXPECT_EQ(one.exit_status, many.exit_status) << what << ": exit status";
}

TEST(CliParallel, EveryTranscriptPrintsTheSameWithOneAndTwoThreads) {
  const fs::path directory = data_path("cli");
  std::size_t compared = 0;
  for (const std::string& name : transcript_names("cli")) {
    const std::string base = (directory / name).string();
    const std::string arguments = fs::exists(base + ".args")
                                      ? read_file(base + ".args")
                                      : "'" + name + ".script'";
    // check and reproduce are subcommands with options of their own.
    if (arguments.rfind("check", 0) == 0 || arguments.rfind("reproduce", 0) == 0) continue;
    std::string trimmed = arguments;
    while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
    const std::string input = fs::exists(base + ".stdin") ? name + ".stdin" : "/dev/null";
    expect_same(run_cli(directory, "-j 1 " + trimmed, input),
                run_cli(directory, "-j 2 " + trimmed, input), "transcript " + name);
    ++compared;
  }
  EXPECT_GE(compared, 10u);
}

TEST(CliParallel, LargeKeySetsPrintTheSameWithOneAndFourThreads) {
  const fs::path scratch =
      fs::temp_directory_path() / ("jumphash_parallel_script_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path script = scratch / "large.script";
  {
    std::ofstream file(script);
    for (const char* algorithm : {"jump", "jumpback", "jumpback-indep", "modulo", "jump-guava"}) {
      file << "ALGO " << algorithm << "\n"
           << "KEYS 0..999999\nMOVED 1000 1001\nLOAD 1000\n"
           << "KEYS random:600000:42\nMOVED 129 128\nLOAD 129\n"
           << "KEYS \"alice\" 7..300006 random:300000:5 0xFFFFFFFFFFFFFFFF \"bob\"\n"
           << "MOVED 10 11\nLOAD 7\nBUCKETS 1000\n";
    }
  }
  const CliRun one = run_cli(scratch, "-j 1 large.script", "/dev/null");
  const CliRun four = run_cli(scratch, "-j 4 large.script", "/dev/null");
  fs::remove_all(scratch);
  expect_same(one, four, "large key sets");
  EXPECT_EQ(one.exit_status, 0) << one.err;
  // The script really printed its reports (5 algorithms, 3 MOVED each).
  std::size_t totals = 0;
  for (std::size_t at = one.out.find("moved: "); at != std::string::npos;
       at = one.out.find("moved: ", at + 1)) {
    ++totals;
  }
  EXPECT_EQ(totals, 15u);
  EXPECT_NE(one.out.find("\"alice\": "), std::string::npos);
}

TEST(CliParallel, RejectsABadThreadCount) {
  for (const char* bad : {"-j 0", "-j 257", "-j x", "-j -1", "-j"}) {
    const CliRun run = run_cli(fs::temp_directory_path(), std::string(bad) + " -e 'HASH 1 2'",
                            "/dev/null");
    EXPECT_EQ(run.exit_status, 2) << bad;
    EXPECT_NE(run.err.find("-j needs a thread count in 1..256"), std::string::npos)
        << bad << ": " << run.err;
    EXPECT_TRUE(run.out.empty()) << bad;
  }
}

}  // namespace
