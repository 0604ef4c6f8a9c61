// `jumphash -j N`: the CLI's output does not depend on the thread count.
// Runs every transcript of tests/cli/ with -j 1 and with -j 2 and compares
// stdout, stderr and the exit status byte for byte; then MOVED, LOAD and
// BUCKETS over large range, random and mixed key sets with -j 1 and -j 4
// (BUCKETS also against HASH, key by key for a few keys), and with -j 4
// where the system allows no thread.
//
//   jumphash_cli_parallel_tests [--gtest_filter=...]
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "test_data.hpp"

namespace {

using namespace jumphash::testing;
namespace fs = std::filesystem;

struct CliRun {
  std::string out, err;
  int exit_status = -1;
};

/// Runs `jumphash <arguments>` in `directory` with `stdin_file` as input,
/// through `launcher` (a command that runs the one after it), if any.
CliRun run_cli(const fs::path& directory, const std::string& arguments,
               const std::string& stdin_file, const std::string& launcher = "") {
  const fs::path scratch =
      fs::temp_directory_path() / ("jumphash_parallel_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path out = scratch / "out", err = scratch / "err";
  const std::string command = "cd '" + directory.string() + "' && " + launcher + " '" +
                              JUMPHASH_CLI + "' " + arguments + " < '" + stdin_file + "' > '" +
                              out.string() + "' 2> '" + err.string() + "'";
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

TEST(CliParallel, BucketsOverLargeKeySetsPrintTheSameWithOneAndFourThreads) {
  const fs::path scratch =
      fs::temp_directory_path() / ("jumphash_parallel_buckets_" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  const fs::path script = scratch / "buckets.script";
  // Keys whose BUCKETS lines are also printed by HASH, to check the lines
  // themselves and not only that both thread counts agree.
  const std::vector<std::string> spot_keys = {
      "0", "1", "262143", "262144", "599999", "\"alice\"", "18446744073709551615"};
  const std::vector<std::string> algorithms = {"jump", "jumpback", "jumpback-indep"};
  {
    std::ofstream file(script);
    for (const std::string& algorithm : algorithms) {
      file << "ALGO " << algorithm << "\n";
      for (const std::string& key : spot_keys) file << "HASH " << key << " 1000\n";
      file << "KEYS 0..599999\nBUCKETS 1000\n"
           << "KEYS random:300000:11\nBUCKETS 2147483647\n"
           << "KEYS \"alice\" 7..300006 0xFFFFFFFFFFFFFFFF random:100000:5 \"bob\"\nBUCKETS 1000\n";
    }
  }
  const CliRun one = run_cli(scratch, "-j 1 buckets.script", "/dev/null");
  const CliRun four = run_cli(scratch, "-j 4 buckets.script", "/dev/null");
  fs::remove_all(scratch);
  // Not EXPECT_EQ on the outputs: a failure would print megabytes.
  EXPECT_TRUE(one.out == four.out)
      << "stdout differs (" << one.out.size() << " and " << four.out.size() << " bytes)";
  EXPECT_EQ(one.err, four.err);
  EXPECT_EQ(one.exit_status, four.exit_status);
  EXPECT_EQ(one.exit_status, 0) << one.err;

  // Every key printed, in key order, with the bucket HASH gives it.
  const std::size_t per_algorithm = spot_keys.size() + 600000 + 300000 + 400003;
  std::vector<std::string> lines;
  for (std::size_t start = 0; start < four.out.size();) {
    const std::size_t end = four.out.find('\n', start);
    ASSERT_NE(end, std::string::npos) << "output does not end with a newline";
    lines.push_back(four.out.substr(start, end - start));
    start = end + 1;
  }
  ASSERT_EQ(lines.size(), algorithms.size() * per_algorithm);
  for (std::size_t a = 0; a < algorithms.size(); ++a) {
    const std::size_t first = a * per_algorithm;
    const std::size_t range = first + spot_keys.size();
    for (std::size_t k : {0, 1, 262143, 262144, 599999}) {
      EXPECT_EQ(lines[range + k].substr(0, lines[range + k].find(':')), std::to_string(k))
          << algorithms[a] << " key " << k;
    }
    // HASH 0, 1, 262143, 262144, 599999 against the range's lines.
    for (std::size_t spot = 0; spot < 5; ++spot) {
      const std::size_t key = std::stoul(spot_keys[spot]);
      EXPECT_EQ(lines[first + spot], lines[range + key]) << algorithms[a];
    }
    // HASH "alice" and HASH 2^64-1 against the mixed set's lines.
    const std::size_t mixed = range + 600000 + 300000;
    EXPECT_EQ(lines[first + 5], lines[mixed]) << algorithms[a];
    EXPECT_EQ(lines[first + 6], lines[mixed + 300001]) << algorithms[a];
    EXPECT_EQ(lines[mixed + 400002].substr(0, 6), "\"bob\":") << algorithms[a];
  }
}

TEST(CliParallel, ThreadsAProcessMayNotStartLeaveFewerThreadsNotACrash) {
  // RLIMIT_NPROC binds no root process: the CLI runs as nobody (uid 65534),
  // allowed one process, so no thread of -j 4 can start (before
  // 2026-12-06 that ended in std::terminate). In the sanitizer build
  // LeakSanitizer, which needs a thread of its own at exit, is left out.
  if (::geteuid() != 0 ||
      std::system("command -v setpriv > /dev/null && command -v prlimit > /dev/null") != 0) {
    GTEST_SKIP() << "needs root, setpriv and prlimit (util-linux)";
  }
  const std::string script =
      "-e 'ALGO jumpback' -e 'KEYS 0..999999' -e 'MOVED 1000 1001' -e 'LOAD 1000' "
      "-e 'KEYS 0..299999' -e 'BUCKETS 1000'";
  const CliRun one = run_cli(fs::temp_directory_path(), "-j 1 " + script, "/dev/null");
  const CliRun limited =
      run_cli(fs::temp_directory_path(), "-j 4 " + script, "/dev/null",
              "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" setpriv --reuid=65534 "
              "--regid=65534 --clear-groups prlimit --nproc=1");
  EXPECT_EQ(one.exit_status, 0) << one.err;
  expect_same(one, limited, "-j 4 allowed no thread");
  EXPECT_NE(one.out.find("moved: "), std::string::npos);
}

TEST(CliParallel, RejectsABadThreadCount) {
  for (const char* bad : {"-j 0", "-j 257", "-j x", "-j -1", "-j"}) {
    const CliRun run =
        run_cli(fs::temp_directory_path(), std::string(bad) + " -e 'HASH 1 2'", "/dev/null");
    EXPECT_EQ(run.exit_status, 2) << bad;
    EXPECT_NE(run.err.find("-j needs a thread count in 1..256"), std::string::npos)
        << bad << ": " << run.err;
    EXPECT_TRUE(run.out.empty()) << bad;
  }
}

}  // namespace
