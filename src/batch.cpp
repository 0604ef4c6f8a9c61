// Batch lookups (dispatch to the SIMD kernels) and parallel report chunks;
// see jumphash/batch.hpp.
#include "jumphash/batch.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <exception>
#include <limits>
#include <vector>

#if !defined(__EMSCRIPTEN__)
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#endif

#include "batch_kernels.hpp"

namespace jumphash {
namespace {

bool cpu_has_avx2() {
#if defined(JUMPHASH_HAVE_AVX2_BATCH)
  return __builtin_cpu_supports("avx2") != 0;
#else
  return false;
#endif
}

/// The AVX-512 kernels need F, VL, DQ and CD (and AVX2); libgcc's check
/// also asks the OS whether it saves the AVX-512 registers.
bool cpu_has_avx512() {
#if defined(JUMPHASH_HAVE_AVX2_BATCH)
  return cpu_has_avx2() && __builtin_cpu_supports("avx512f") != 0 &&
         __builtin_cpu_supports("avx512vl") != 0 && __builtin_cpu_supports("avx512dq") != 0 &&
         __builtin_cpu_supports("avx512cd") != 0;
#else
  return false;
#endif
}

#if defined(JUMPHASH_HAVE_AVX2_BATCH)
/// The x86 kernel table of `path`, or null when it is not an x86 path or
/// this CPU cannot run it.
const batch_kernels::X86Kernels* x86_kernels(BatchPath path) {
  if (path == BatchPath::avx512 && cpu_has_avx512()) return &batch_kernels::kAvx512Kernels;
  if (path == BatchPath::avx2 && cpu_has_avx2()) return &batch_kernels::kAvx2Kernels;
  return nullptr;
}
#endif

/// SIMD128 is compiled in or not: a WebAssembly module with it runs only on
/// engines that have it (the package's loader checks before instantiating).
constexpr bool kHasSimd128 =
#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
    true;
#else
    false;
#endif

BatchPath best_batch_path() {
  if (kHasSimd128) return BatchPath::simd128;
  if (cpu_has_avx512()) return BatchPath::avx512;
  return cpu_has_avx2() ? BatchPath::avx2 : BatchPath::scalar;
}

std::atomic<BatchPath>& current_batch_path() {
  static std::atomic<BatchPath> path{best_batch_path()};
  return path;
}

std::atomic<unsigned> report_thread_count{1};

void scalar_batch(AlgorithmId id, std::span<const std::uint64_t> keys, std::int32_t n,
                  std::int32_t* out) {
  visit_algorithm(id, [&](auto bucket_of) {
    for (std::size_t i = 0; i < keys.size(); ++i) out[i] = bucket_of(keys[i], n);
  });
}

/// The smaller count's buckets from the larger count's, for a consistent
/// (monotone) algorithm: growing from `smaller` to more buckets moves keys
/// only into the added ones, so a key whose bucket among the larger count is
/// below `smaller` has that same bucket among `smaller`. Only the other keys
/// (for 1000 -> 1001 about one in a thousand) are looked up again, one by
/// one. out_larger holds the larger count's buckets on entry.
void smaller_from_larger(const Algorithm& algorithm, std::span<const std::uint64_t> keys,
                         const std::int32_t* out_larger, std::int32_t smaller,
                         std::int32_t* out_smaller) {
  for (std::size_t i = 0; i < keys.size(); ++i) {
    out_smaller[i] =
        out_larger[i] < smaller ? out_larger[i] : algorithm.function(keys[i], smaller);
  }
}

#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
/// Whether JumpBackHash's SIMD128 kernel beats the scalar loop at n: where
/// at least a quarter of the top interval's values are >= n, so that many
/// keys draw again (n in (q, 1.5q], q = 2^(bits(n - 1) - 1)). In Node 20
/// (2026-12-06, wasm/bench/simd.mjs and a sweep of n) the kernel took
/// 0.75-0.96x the scalar loop's time there (129..192, 1025..1536) and
/// 1.02-1.58x elsewhere (200..255, 1700, 2000, and 128, 1000, 1024, 10^6,
/// 2^30), where the scalar loop's branch on a rejection is rarely taken.
bool simd128_jump_back_hash_gains(std::int32_t n) {
  if (n <= 2) return false;
  const auto q = std::uint64_t{1} << (31 - std::countl_zero(static_cast<std::uint32_t>(n - 1)));
  return 2 * static_cast<std::uint64_t>(n) <= 3 * q;
}
#endif

}  // namespace

std::string_view batch_path_name(BatchPath path) {
  switch (path) {
    case BatchPath::avx2:
      return "avx2";
    case BatchPath::avx512:
      return "avx512";
    case BatchPath::simd128:
      return "simd128";
    case BatchPath::scalar:
      break;
  }
  return "scalar";
}

bool batch_path_supported(BatchPath path) {
  return path == BatchPath::scalar || (path == BatchPath::avx2 && cpu_has_avx2()) ||
         (path == BatchPath::avx512 && cpu_has_avx512()) ||
         (path == BatchPath::simd128 && kHasSimd128);
}

BatchPath batch_path() { return current_batch_path().load(std::memory_order_relaxed); }

bool set_batch_path(BatchPath path) {
  if (!batch_path_supported(path)) return false;
  current_batch_path().store(path, std::memory_order_relaxed);
  return true;
}

bool has_simd_batch(AlgorithmId id) {
  return id == AlgorithmId::jump || id == AlgorithmId::jumpback ||
         id == AlgorithmId::jumpback_indep;
}

void buckets_batch(const Algorithm& algorithm, std::span<const std::uint64_t> keys, std::int32_t n,
                   std::span<std::int32_t> out) {
  buckets_batch(algorithm, keys, n, out, batch_path());
}

void buckets_batch(const Algorithm& algorithm, std::span<const std::uint64_t> keys, std::int32_t n,
                   std::span<std::int32_t> out, BatchPath path) {
  const std::size_t count = std::min(keys.size(), out.size());
  keys = keys.first(count);
#if defined(JUMPHASH_HAVE_AVX2_BATCH)
  if (const batch_kernels::X86Kernels* kernels = x86_kernels(path)) {
    switch (algorithm.id) {
      case AlgorithmId::jumpback:
        return kernels->jump_back_hash(keys.data(), count, n, out.data());
      case AlgorithmId::jumpback_indep:
        return kernels->jump_back_hash_independent(keys.data(), count, n, out.data());
      case AlgorithmId::jump:
        return kernels->jump_hash(keys.data(), count, n, out.data());
      default:
        break;
    }
  }
#endif
#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
  if (path == BatchPath::simd128) {
    switch (algorithm.id) {
      case AlgorithmId::jumpback:
        if (simd128_jump_back_hash_gains(n)) {
          return batch_kernels::jump_back_hash_simd128(keys.data(), count, n, out.data());
        }
        break;
      case AlgorithmId::jumpback_indep:
        return batch_kernels::jump_back_hash_independent_simd128(keys.data(), count, n, out.data());
      case AlgorithmId::jump:
        return batch_kernels::jump_hash_simd128(keys.data(), count, n, out.data());
      default:
        break;
    }
  }
#endif
  (void)path;
  scalar_batch(algorithm.id, keys, n, out.data());
}

bool pair_derives_smaller(const Algorithm& algorithm) {
#if defined(JUMPHASH_HAVE_AVX2_BATCH)
  // The pair kernels (jumpback at counts of one bit width, jump).
  if (x86_kernels(batch_path()) &&
      (algorithm.id == AlgorithmId::jumpback || algorithm.id == AlgorithmId::jump)) {
    return false;
  }
#endif
#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
  // jump's pair kernel: one walk gives both counts, where deriving the
  // smaller would walk again, one key at a time, for every key at or above
  // it (a sixth of them for 10 -> 12).
  if (batch_path() == BatchPath::simd128 && algorithm.id == AlgorithmId::jump) return false;
#endif
  return algorithm.consistent;
}

void buckets_batch_pair(const Algorithm& algorithm, std::span<const std::uint64_t> keys,
                        std::int32_t first, std::int32_t second, std::span<std::int32_t> out_first,
                        std::span<std::int32_t> out_second) {
  keys = keys.first(std::min({keys.size(), out_first.size(), out_second.size()}));
#if defined(JUMPHASH_HAVE_AVX2_BATCH)
  if (const batch_kernels::X86Kernels* kernels = x86_kernels(batch_path())) {
    if (algorithm.id == AlgorithmId::jumpback &&
        kernels->jump_back_hash_pair(keys.data(), keys.size(), first, second, out_first.data(),
                                     out_second.data())) {
      return;
    }
    if (algorithm.id == AlgorithmId::jump) {
      return kernels->jump_hash_pair(keys.data(), keys.size(), first, second, out_first.data(),
                                     out_second.data());
    }
  }
#endif
#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
  if (batch_path() == BatchPath::simd128 && algorithm.id == AlgorithmId::jump) {
    return batch_kernels::jump_hash_pair_simd128(keys.data(), keys.size(), first, second,
                                                 out_first.data(), out_second.data());
  }
#endif
  const bool first_larger = first > second;
  const std::int32_t larger = first_larger ? first : second;
  const std::int32_t smaller = first_larger ? second : first;
  const std::span<std::int32_t> out_larger = first_larger ? out_first : out_second;
  const std::span<std::int32_t> out_smaller = first_larger ? out_second : out_first;
  buckets_batch(algorithm, keys, larger, out_larger);
  if (algorithm.consistent) {
    smaller_from_larger(algorithm, keys, out_larger.data(), smaller, out_smaller.data());
  } else {
    buckets_batch(algorithm, keys, smaller, out_smaller);
  }
}

// ---- parallel report chunks -------------------------------------------------------

void set_report_threads(unsigned threads) {
  report_thread_count.store(std::clamp(threads, 1U, kMaxReportThreads), std::memory_order_relaxed);
}

unsigned report_threads() { return report_thread_count.load(std::memory_order_relaxed); }

unsigned threads_for_keys(std::uint64_t keys) {
  if (keys < kParallelMinKeys) return 1;
  const std::uint64_t chunks = (keys + kParallelChunkKeys - 1) / kParallelChunkKeys;
  return static_cast<unsigned>(std::min<std::uint64_t>(report_threads(), chunks));
}

void run_ordered_chunks(std::uint64_t chunk_count, unsigned threads,
                        const std::function<void(std::uint64_t, std::size_t, unsigned)>& compute,
                        const std::function<void(std::uint64_t, std::size_t)>& consume) {
  threads = static_cast<unsigned>(
      std::min<std::uint64_t>(std::clamp(threads, 1U, kMaxReportThreads), chunk_count));
#if defined(__EMSCRIPTEN__)
  threads = 1;  // no pthreads in the module: the page runs workers of its own
#endif
  if (threads <= 1) {
    for (std::uint64_t chunk = 0; chunk < chunk_count; ++chunk) {
      compute(chunk, 0, 0);
      consume(chunk, 0);
    }
    return;
  }
#if !defined(__EMSCRIPTEN__)
  // The calling thread is worker 0: it consumes the next chunk as soon as
  // it is ready and otherwise computes one, beside threads - 1 helpers. So
  // `threads` threads run, and one sleeps only when it has got a whole
  // window of slots ahead of the consuming. (Before 2026-12-06 the calling
  // thread only waited and consumed, beside `threads` workers: one thread
  // more than the cores, woken for every chunk.)
  const std::size_t slots = ordered_chunk_slots(threads);
  constexpr std::uint64_t kEmpty = std::numeric_limits<std::uint64_t>::max();
  std::mutex mutex;
  std::condition_variable chunk_done, slot_freed;
  std::vector<std::uint64_t> chunk_in_slot(slots, kEmpty);  // the chunk computed there
  std::uint64_t next_chunk = 0, consumed = 0;
  bool stop = false;
  std::exception_ptr error;

  auto slot_of = [&](std::uint64_t chunk) { return static_cast<std::size_t>(chunk % slots); };
  auto fail = [&](std::exception_ptr caught) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!error) error = caught;
    stop = true;
    chunk_done.notify_all();
    slot_freed.notify_all();
  };
  // Whether a chunk is left to compute with its slot free (under the lock).
  auto can_take = [&] { return next_chunk < chunk_count && next_chunk < consumed + slots; };
  // Whether the next chunk to consume is computed (under the lock).
  auto next_ready = [&] { return chunk_in_slot[slot_of(consumed)] == consumed; };
  // Computes `chunk` into its slot; false (after fail) if compute threw.
  auto compute_chunk = [&](std::uint64_t chunk, unsigned worker) {
    try {
      compute(chunk, slot_of(chunk), worker);
    } catch (...) {
      fail(std::current_exception());
      return false;
    }
    std::lock_guard<std::mutex> lock(mutex);
    chunk_in_slot[slot_of(chunk)] = chunk;
    return true;
  };
  auto help = [&](unsigned worker) {
    for (;;) {
      std::uint64_t chunk = 0;
      {
        std::unique_lock<std::mutex> lock(mutex);
        slot_freed.wait(lock, [&] { return stop || next_chunk >= chunk_count || can_take(); });
        if (stop || next_chunk >= chunk_count) return;
        chunk = next_chunk++;
      }
      if (!compute_chunk(chunk, worker)) return;
      chunk_done.notify_one();  // no system call unless the calling thread waits
    }
  };

  std::vector<std::thread> helpers;
  helpers.reserve(threads - 1);
  for (unsigned worker = 1; worker < threads; ++worker) {
    try {
      helpers.emplace_back(help, worker);
    } catch (const std::system_error&) {
      break;  // no thread to be had (a process limit): fewer count, the calling thread among them
    }
  }
  for (;;) {
    std::uint64_t chunk = 0;
    bool ready = false;
    {
      std::unique_lock<std::mutex> lock(mutex);
      chunk_done.wait(
          lock, [&] { return stop || consumed == chunk_count || next_ready() || can_take(); });
      if (stop || consumed == chunk_count) break;
      ready = next_ready();
      chunk = ready ? consumed : next_chunk++;
    }
    if (!ready) {
      if (!compute_chunk(chunk, 0)) break;
      continue;
    }
    try {
      consume(chunk, slot_of(chunk));
    } catch (...) {
      fail(std::current_exception());
      break;
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      chunk_in_slot[slot_of(chunk)] = kEmpty;
      consumed = chunk + 1;
    }
    slot_freed.notify_all();  // no system call unless a helper waits
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  slot_freed.notify_all();
  for (std::thread& helper : helpers) helper.join();
  if (error) std::rethrow_exception(error);
#endif
}

}  // namespace jumphash
