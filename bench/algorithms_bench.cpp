// Lookups per algorithm at n = 128, 129, 1000, 1024, 10^6, 2^30 next to
// modulo in the same run, and the MOVED report over KEYS 0..9999999 next to
// the bare two-lookup loop. Prints Google Benchmark's table, then the ratios.
//
//   build/native/bench/jumphash_bench [--benchmark_min_time=0.2]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/interpreter.hpp"
#include "jumphash/reports.hpp"
#include "jumphash/splitmix64.hpp"

namespace {

using namespace jumphash;

constexpr std::int32_t kBucketCounts[] = {128, 129, 1000, 1024, 1000000, 1 << 30};
constexpr std::uint64_t kMovedKeys = 10000000;

// 2^20 random keys (8 MiB, read in order so the prefetcher hides memory):
// enough that the branch predictor cannot learn the keys' paths, which a
// short cycle of keys lets it do for jumpback's data-dependent branches.
constexpr std::size_t kKeyCount = std::size_t{1} << 20;

const std::vector<std::uint64_t>& random_keys() {
  static const std::vector<std::uint64_t> keys = [] {
    std::vector<std::uint64_t> result(kKeyCount);
    std::uint64_t state = 12345;
    for (auto& key : result) key = splitmix64_next(state);
    return result;
  }();
  return keys;
}

/// ns per lookup over a cycle of 2^20 random keys (independent lookups).
void lookup(benchmark::State& state, AlgorithmId id) {
  const auto n = static_cast<std::int32_t>(state.range(0));
  const auto& keys = random_keys();
  visit_algorithm(id, [&](auto bucket_of) {
    std::uint64_t sum = 0;
    std::size_t i = 0;
    for (auto _ : state) {
      sum += static_cast<std::uint64_t>(bucket_of(keys[i++ & (kKeyCount - 1)], n));
    }
    benchmark::DoNotOptimize(sum);
  });
  state.SetItemsProcessed(state.iterations());
}

/// The bare loop: two lookups per key over 0..9999999, count differences.
void moved_bare_loop(benchmark::State& state, AlgorithmId id) {
  visit_algorithm(id, [&](auto bucket_of) {
    for (auto _ : state) {
      std::uint64_t moved = 0;
      for (std::uint64_t key = 0; key < kMovedKeys; ++key) {
        moved += bucket_of(key, 10) != bucket_of(key, 12);
      }
      benchmark::DoNotOptimize(moved);
    }
  });
}

/// The MOVED report's rows (key, old, new) over KEYS 0..9999999.
void moved_report_rows(benchmark::State& state, AlgorithmId id) {
  const Algorithm& algorithm = algorithms()[static_cast<std::size_t>(id)];
  const KeySet keys = *KeySet::parse("0..9999999");
  for (auto _ : state) {
    std::uint64_t checksum = 0;
    const std::uint64_t moved = for_each_moved(
        algorithm, keys, 10, 12, 0, keys.size(),
        [&](std::uint64_t key, const std::string*, std::int32_t, std::int32_t to) {
          checksum += key ^ static_cast<std::uint64_t>(to);
        });
    benchmark::DoNotOptimize(moved);
    benchmark::DoNotOptimize(checksum);
  }
}

/// The whole interpreter command `MOVED 10 12`, text included.
void moved_command_text(benchmark::State& state, AlgorithmId id) {
  const Algorithm& algorithm = algorithms()[static_cast<std::size_t>(id)];
  // A sink that drops the text: it is formatted, not stored.
  std::uint64_t bytes = 0;
  Interpreter interpreter([&bytes](std::string_view text) { bytes += text.size(); },
                          [](std::string_view) {});
  interpreter.run_line("ALGO " + std::string(algorithm.name), 1);
  interpreter.run_line("KEYS 0..9999999", 2);
  for (auto _ : state) interpreter.run_line("MOVED 10 12", 3);
  benchmark::DoNotOptimize(bytes);
}

/// Collects each run's time per iteration (ns) by name.
class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> ns;
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      const double seconds = run.real_accumulated_time / static_cast<double>(run.iterations);
      ns[run.benchmark_name()] = seconds * 1e9;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    for (std::int32_t n : kBucketCounts) {
      benchmark::RegisterBenchmark(("lookup/" + std::string(algorithm.name)).c_str(), lookup,
                                   algorithm.id)
          ->Arg(n);
    }
  }
  for (AlgorithmId id : {AlgorithmId::jump, AlgorithmId::jumpback}) {
    const std::string name(algorithms()[static_cast<std::size_t>(id)].name);
    benchmark::RegisterBenchmark(("moved_bare_loop/" + name).c_str(), moved_bare_loop, id)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("moved_report_rows/" + name).c_str(), moved_report_rows, id)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("moved_command_text/" + name).c_str(), moved_command_text, id)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  auto& ns = reporter.ns;
  std::printf("\nns per lookup (ratio to modulo in this run)\n");
  std::printf("| algorithm |");
  for (std::int32_t n : kBucketCounts) std::printf(" n=%d |", n);
  std::printf("\n|---|");
  for (std::size_t i = 0; i < std::size(kBucketCounts); ++i) std::printf("---|");
  std::printf("\n");
  for (const Algorithm& algorithm : bucket_count_algorithms()) {
    std::printf("| %s |", std::string(algorithm.name).c_str());
    for (std::int32_t n : kBucketCounts) {
      const std::string suffix = "/" + std::to_string(n);
      const auto it = ns.find("lookup/" + std::string(algorithm.name) + suffix);
      const auto base = ns.find("lookup/modulo" + suffix);
      if (it == ns.end() || base == ns.end()) {
        std::printf(" - |");
      } else {
        std::printf(" %.1f (%.2fx) |", it->second, it->second / base->second);
      }
    }
    std::printf("\n");
  }
  std::printf("\nMOVED 10 12 over KEYS 0..9999999 (ms; ratio to the bare two-lookup loop)\n");
  std::printf("| algorithm | bare loop | report rows | command with text |\n|---|---|---|---|\n");
  for (const char* name : {"jump", "jumpback"}) {
    const std::string s(name);
    const auto bare = ns.find("moved_bare_loop/" + s);
    const auto rows = ns.find("moved_report_rows/" + s);
    const auto text = ns.find("moved_command_text/" + s);
    if (bare == ns.end() || rows == ns.end() || text == ns.end()) continue;
    std::printf("| %s | %.1f | %.1f (%.2fx) | %.1f (%.2fx) |\n", name, bare->second / 1e6,
                rows->second / 1e6, rows->second / bare->second, text->second / 1e6,
                text->second / bare->second);
  }
  std::printf("\njump / jumpback at n=1000000: %.1fx\n",
              ns["lookup/jump/1000000"] / ns["lookup/jumpback/1000000"]);
  return 0;
}
