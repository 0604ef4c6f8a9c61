// Batch lookups against the scalar functions and scalar modulo, per
// algorithm and n, in one run; a resize's two lookups per key, paired
// (buckets_batch_pair) against two calls; and MOVED 1000 1001 over keys 0..99999999:
// the CLI with -j 1 and -j <all cores>, the report function on 1 and all
// threads, against a bare single-thread scalar loop; and the page's short
// jumpback report over 10^7 random keys on 1 and 2 native threads. Prints Google
// Benchmark's table, then the ratios. Not a test: nothing here asserts a time.
//
//   build/<dir>/bench/jumphash_batch_bench [--benchmark_filter=lookup]
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "jumphash/algorithms.hpp"
#include "jumphash/batch.hpp"
#include "jumphash/reports.hpp"
#include "jumphash/splitmix64.hpp"

namespace {

using namespace jumphash;

constexpr std::int32_t kBucketCounts[] = {128, 129, 1000, 1024, 1000000, 1 << 30};
constexpr const char* kBatchAlgorithms[] = {"jump", "jumpback", "jumpback-indep"};
constexpr std::uint64_t kResizeKeys = 100000000;  // keys 0..99999999

// 2^20 random keys: the branch predictor cannot learn them (see algorithms_bench.cpp).
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

const Algorithm& named(const std::string& name) { return **find_algorithm(name); }

/// Scalar: one call per key over all 2^20 keys (inlined, as the report loops did).
void scalar_lookups(benchmark::State& state, const Algorithm* algorithm) {
  const auto n = static_cast<std::int32_t>(state.range(0));
  const auto& keys = random_keys();
  std::vector<std::int32_t> out(kKeyCount);
  visit_algorithm(algorithm->id, [&](auto bucket_of) {
    for (auto _ : state) {
      for (std::size_t i = 0; i < kKeyCount; ++i) out[i] = bucket_of(keys[i], n);
      benchmark::ClobberMemory();
    }
  });
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kKeyCount));
}

/// Batch: buckets_batch on blocks of kBatchBlockKeys keys, on `path`.
void batch_lookups(benchmark::State& state, const Algorithm* algorithm, BatchPath path) {
  const auto n = static_cast<std::int32_t>(state.range(0));
  const auto& keys = random_keys();
  std::vector<std::int32_t> out(kKeyCount);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kKeyCount; i += kBatchBlockKeys) {
      buckets_batch(*algorithm, std::span(keys).subspan(i, kBatchBlockKeys), n,
                    std::span(out).subspan(i, kBatchBlockKeys), path);
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kKeyCount));
}

/// A resize's two lookups over the 2^20 keys, 1000 -> 1001: buckets_batch_pair
/// (one pass where the kernel shares the work) or two buckets_batch calls.
void pair_lookups(benchmark::State& state, const Algorithm* algorithm, bool paired) {
  const auto& keys = random_keys();
  std::vector<std::int32_t> first(kKeyCount), second(kKeyCount);
  for (auto _ : state) {
    for (std::size_t i = 0; i < kKeyCount; i += kBatchBlockKeys) {
      const auto block = std::span(keys).subspan(i, kBatchBlockKeys);
      const auto to_first = std::span(first).subspan(i, kBatchBlockKeys);
      const auto to_second = std::span(second).subspan(i, kBatchBlockKeys);
      if (paired) {
        buckets_batch_pair(*algorithm, block, 1000, 1001, to_first, to_second);
      } else {
        buckets_batch(*algorithm, block, 1000, to_first);
        buckets_batch(*algorithm, block, 1001, to_second);
      }
    }
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * kKeyCount));
}

/// The bare loop of the issue: two scalar jumpback lookups per key over
/// 0..99999999, counting differences, on one thread.
void resize_bare_loop(benchmark::State& state) {
  for (auto _ : state) {
    std::uint64_t moved = 0;
    for (std::uint64_t key = 0; key < kResizeKeys; ++key) {
      moved += jump_back_hash(key, 1000) != jump_back_hash(key, 1001);
    }
    benchmark::DoNotOptimize(moved);
  }
}

/// for_each_moved (batched; threaded when threads > 1) over the same keys.
void resize_report(benchmark::State& state) {
  const unsigned saved = report_threads();
  set_report_threads(static_cast<unsigned>(state.range(0)));
  const KeySet keys = *KeySet::parse("0..99999999");
  for (auto _ : state) {
    std::uint64_t checksum = 0;
    const std::uint64_t moved = for_each_moved(
        named("jumpback"), keys, 1000, 1001, 0, keys.size(),
        [&](std::uint64_t key, const std::string*, std::int32_t, std::int32_t to) {
          checksum += key ^ static_cast<std::uint64_t>(to);
        });
    benchmark::DoNotOptimize(moved);
    benchmark::DoNotOptimize(checksum);
  }
  set_report_threads(saved);
}

/// ResizeReport (the page's Resize view: loads, the from x to flows and a
/// sample of 1000 moved keys) over the same keys, on one thread.
void resize_flows(benchmark::State& state) {
  const KeySet keys = *KeySet::parse("0..99999999");
  for (auto _ : state) {
    ResizeReport report = *ResizeReport::create(named("jumpback"), 1000, 1001, 1000);
    report.add(keys, 0, keys.size());
    benchmark::DoNotOptimize(report.moved());
  }
}

/// The page's Resize report of jumpback 1000 -> 1001 over keys
/// random:10000000:1 (ResizeReport: loads, flows, a sample of 1000 moved
/// keys), on 1 thread, or on 2 threads that each count half of the keys in
/// a report of their own (the page's two workers run the same loop over
/// their parts): the machine's own 1 -> 2 speedup on the page's shortest
/// split report, with no message, merge or browser in it. The reports are
/// made before the clock starts: a report's 8 MB flow matrix, new to the
/// process each time, took 8-13 ms of page faults here, while a page's
/// worker reuses its module's memory and pays only for zeroing it (about
/// 0.2 ms a part).
void short_report(benchmark::State& state) {
  const auto threads = static_cast<std::uint64_t>(state.range(0));
  const KeySet keys = *KeySet::parse("random:10000000:1");
  std::vector<ResizeReport> reports;
  for (auto _ : state) {
    state.PauseTiming();
    reports.clear();
    for (std::uint64_t t = 0; t < threads; ++t) {
      reports.push_back(*ResizeReport::create(named("jumpback"), 1000, 1001, 1000));
    }
    state.ResumeTiming();
    std::vector<std::thread> running;
    for (std::uint64_t t = 0; t < threads; ++t) {
      running.emplace_back([&, t] {
        reports[t].add(keys, keys.size() * t / threads, keys.size() * (t + 1) / threads);
      });
    }
    for (std::thread& thread : running) thread.join();
    for (const ResizeReport& report : reports) benchmark::DoNotOptimize(report.moved());
  }
}

/// The built CLI: `jumphash -j N -e 'ALGO jumpback' -e 'KEYS 0..99999999'
/// -e 'MOVED 1000 1001' > /dev/null` (process start included, about 1 ms).
void resize_cli(benchmark::State& state) {
  const std::string command = std::string("'") + JUMPHASH_CLI + "' -j " +
                              std::to_string(state.range(0)) +
                              " -e 'ALGO jumpback' -e 'KEYS 0..99999999' -e 'MOVED 1000 1001'"
                              " > /dev/null";
  for (auto _ : state) {
    if (std::system(command.c_str()) != 0) state.SkipWithError("the CLI failed");
  }
}

class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  std::map<std::string, double> ns;  // real time per iteration
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.run_type != Run::RT_Iteration) continue;
      // Repetitions of one benchmark keep their best.
      const double time = run.real_accumulated_time / static_cast<double>(run.iterations) * 1e9;
      const auto [it, added] = ns.emplace(run.benchmark_name(), time);
      if (!added) it->second = std::min(it->second, time);
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
  std::vector<BatchPath> paths;
  for (BatchPath path : {BatchPath::scalar, BatchPath::avx2, BatchPath::avx512}) {
    if (batch_path_supported(path)) paths.push_back(path);
  }
  for (std::int32_t n : kBucketCounts) {
    benchmark::RegisterBenchmark("lookup/modulo/scalar", scalar_lookups, &named("modulo"))->Arg(n);
    for (const char* name : kBatchAlgorithms) {
      benchmark::RegisterBenchmark(("lookup/" + std::string(name) + "/scalar").c_str(),
                                   scalar_lookups, &named(name))
          ->Arg(n);
      for (BatchPath path : paths) {
        benchmark::RegisterBenchmark(
            ("lookup/" + std::string(name) + "/batch-" + std::string(batch_path_name(path))).c_str(),
            batch_lookups, &named(name), path)
            ->Arg(n);
      }
    }
  }
  for (const char* name : kBatchAlgorithms) {
    for (const bool paired : {false, true}) {
      benchmark::RegisterBenchmark(
          ("pair/" + std::string(name) + (paired ? "/paired" : "/two_calls")).c_str(), pair_lookups,
          &named(name), paired);
    }
  }
  benchmark::RegisterBenchmark("resize/bare_loop", resize_bare_loop)
      ->Unit(benchmark::kMillisecond)->Iterations(2);
  benchmark::RegisterBenchmark("resize/flows", resize_flows)
      ->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
  for (unsigned threads : {1U, cores}) {
    benchmark::RegisterBenchmark("resize/report", resize_report)
        ->Arg(threads)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
    benchmark::RegisterBenchmark("resize/cli", resize_cli)
        ->Arg(threads)->Unit(benchmark::kMillisecond)->Iterations(2)->UseRealTime();
    if (cores == 1) break;
  }
  // Best of 5 repetitions of 5 reports (the host has slow spells; a short
  // report is over in tens of milliseconds).
  for (unsigned threads : {1U, 2U}) {
    benchmark::RegisterBenchmark("short/report", short_report)
        ->Arg(threads)->Unit(benchmark::kMillisecond)->Iterations(5)->Repetitions(5)->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  CollectingReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  auto& ns = reporter.ns;

  std::printf("\nns per lookup over 2^20 random keys (ratio to scalar modulo at the same n)\n");
  std::printf("| algorithm | path |");
  for (std::int32_t n : kBucketCounts) std::printf(" n=%d |", n);
  std::printf("\n|---|---|");
  for (std::size_t i = 0; i < std::size(kBucketCounts); ++i) std::printf("---|");
  std::printf("\n");
  auto row = [&](const std::string& algorithm, const std::string& path) {
    std::printf("| %s | %s |", algorithm.c_str(), path.c_str());
    for (std::int32_t n : kBucketCounts) {
      const std::string suffix = "/" + std::to_string(n);
      const auto it = ns.find("lookup/" + algorithm + "/" + path + suffix);
      const auto base = ns.find("lookup/modulo/scalar" + suffix);
      if (it == ns.end() || base == ns.end()) {
        std::printf(" - |");
      } else {
        std::printf(" %.2f (%.2fx) |", it->second / kKeyCount, it->second / base->second);
      }
    }
    std::printf("\n");
  };
  row("modulo", "scalar");
  for (const char* name : kBatchAlgorithms) {
    row(name, "scalar");
    for (BatchPath path : paths) row(name, "batch-" + std::string(batch_path_name(path)));
  }
  std::printf("\nA resize's two lookups (1000 and 1001) per key, batch path %s: ns per key\n",
              std::string(batch_path_name(batch_path())).c_str());
  std::printf("| algorithm | two buckets_batch calls | buckets_batch_pair | ratio |\n|---|---|---|---|\n");
  for (const char* name : kBatchAlgorithms) {
    const auto two = ns.find("pair/" + std::string(name) + "/two_calls");
    const auto paired = ns.find("pair/" + std::string(name) + "/paired");
    if (two == ns.end() || paired == ns.end()) continue;
    std::printf("| %s | %.2f | %.2f | %.2fx |\n", name, two->second / kKeyCount,
                paired->second / kKeyCount, paired->second / two->second);
  }
  std::printf("\njumpback MOVED 1000 1001 over keys 0..99999999 (ms; ratio to the bare loop)\n");
  std::printf("| run | ms | ratio |\n|---|---|---|\n");
  // The first row whose name starts with `prefix` (Google Benchmark appends
  // the arguments and settings to each name), or ns.end().
  const auto row_starting = [&](const std::string& prefix) {
    const auto it = ns.lower_bound(prefix);
    return it != ns.end() && it->first.rfind(prefix, 0) == 0 ? it : ns.end();
  };
  const auto bare = row_starting("resize/bare_loop");
  for (const auto& [name, time] : ns) {
    if (name.rfind("resize/", 0) != 0) continue;
    std::printf("| %s | %.0f | %.2fx |\n", name.c_str(), time / 1e6,
                bare == ns.end() ? 0.0 : time / bare->second);
  }
  const auto one = row_starting("short/report/1/");
  const auto two = row_starting("short/report/2/");
  if (one != ns.end() && two != ns.end()) {
    std::printf("\nThe page's jumpback 1000 -> 1001 report over keys random:10000000:1 on native"
                " threads (ms, best of 5 x 5; 1 -> 2 threads: %.2fx)\n| run | ms |\n|---|---|\n",
                one->second / two->second);
    for (const auto& row : {one, two}) std::printf("| %s | %.1f |\n", row->first.c_str(), row->second / 1e6);
  }
  std::printf("(threads: %u cores; batch path in use: %s)\n", cores,
              std::string(batch_path_name(batch_path())).c_str());
  return 0;
}
