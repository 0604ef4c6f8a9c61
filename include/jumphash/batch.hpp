// Batch lookups and parallel report chunks: the fast paths behind the
// report loops (jumphash/reports.hpp).
//
// buckets_batch() maps many keys at once, bit-identical to the scalar
// functions of jumphash/algorithms/. jumpback, jumpback-indep and jump have
// SIMD kernels: AVX2 natively (chosen at run time on x86-64 CPUs that have
// it, and built again with AVX-512 F, VL, DQ and CD for CPUs with those:
// native 64-bit multiplies) and SIMD128 in the WebAssembly build (whose
// modules need an engine with WebAssembly SIMD; there jumpback keeps its
// scalar loop except at counts just above a power of two, where the kernel
// is faster, see src/batch_simd128.cpp); the other bucket-count
// algorithms, and CPUs without AVX2, run the scalar loop.
//
// run_ordered_chunks() spreads chunks of a report over threads and hands
// their results back in chunk order, so that output is the same for any
// thread count. Under Emscripten (no pthreads) it runs on the calling
// thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>

#include "jumphash/algorithms.hpp"

namespace jumphash {

// ---- batch lookups --------------------------------------------------------------

/// The implementations of buckets_batch.
enum class BatchPath {
  scalar,  ///< one scalar call per key (every CPU, every algorithm)
  avx2,    ///< 4 keys a vector: x86-64 with AVX2, native builds only
  avx512,  ///< the same, with AVX-512 F/VL/DQ/CD (64-bit multiplies); native only
  simd128,  ///< 2 keys a vector: WebAssembly SIMD, the Emscripten build only
};

/// "scalar", "avx2", "avx512" or "simd128".
std::string_view batch_path_name(BatchPath path);

/// True when `path` is compiled in and this CPU can run it.
bool batch_path_supported(BatchPath path);

/// The path buckets_batch uses: the fastest supported one, unless
/// set_batch_path chose another.
BatchPath batch_path();

/// Makes buckets_batch use `path` (for tests and benchmarks; process-wide).
/// Returns false, and changes nothing, when the path is not supported here.
bool set_batch_path(BatchPath path);

/// True when `id` has a SIMD kernel (jump, jumpback, jumpback-indep); the
/// others always run the scalar loop.
bool has_simd_batch(AlgorithmId id);

/// out[i] = algorithm.function(keys[i], n) for every i, bit for bit, on the
/// current batch_path(). Preconditions (as for Algorithm::function):
/// algorithm is of kind bucket_count, 1 <= n <= 2147483647, and
/// out.size() >= keys.size().
void buckets_batch(const Algorithm& algorithm, std::span<const std::uint64_t> keys, std::int32_t n,
                   std::span<std::int32_t> out);

/// The same on a given path; a path that is not supported here runs scalar.
void buckets_batch(const Algorithm& algorithm, std::span<const std::uint64_t> keys, std::int32_t n,
                   std::span<std::int32_t> out, BatchPath path);

/// out_first[i] = algorithm.function(keys[i], first) and out_second[i] the
/// same at `second`, on the current batch_path(): the two lookups of a
/// resize. Where a kernel shares their work it runs once for both (AVX2
/// JumpBackHash when first - 1 and second - 1 have as many bits: the same
/// generator draws decide both; AVX2 JumpHash: one walk up to the larger
/// count passes the smaller). Else, for a consistent algorithm, the larger
/// count is looked up and decides the smaller's bucket of every key that
/// stays below it (growing moves keys only into the added buckets); only the
/// others are looked up again. Else as two buckets_batch calls.
/// Preconditions as buckets_batch's, for both counts and both outputs.
void buckets_batch_pair(const Algorithm& algorithm, std::span<const std::uint64_t> keys,
                        std::int32_t first, std::int32_t second, std::span<std::int32_t> out_first,
                        std::span<std::int32_t> out_second);

/// True for a consistent algorithm with no pair kernel on the current path
/// (x86 has them for jumpback and jump, SIMD128 for jump): every consistent
/// one but jump in WebAssembly, jumpback-indep natively. buckets_batch_pair then looks up
/// the larger count and derives the smaller; a caller that only needs what
/// moves can do it in one pass: look up the larger count in a batch, and
/// only keys at or above the smaller count moved (ResizeReport::add).
/// Either way gives the same buckets.
bool pair_derives_smaller(const Algorithm& algorithm);

/// Keys per block in the report loops: generated, batch-looked-up, then
/// counted (8 KiB of keys, small enough for the L1 cache).
inline constexpr std::size_t kBatchBlockKeys = 1024;

// ---- parallel report chunks -------------------------------------------------------

/// Key sets with fewer keys than this run on one thread (threads would cost
/// more than they save).
inline constexpr std::uint64_t kParallelMinKeys = std::uint64_t{1} << 18;

/// Keys per parallel chunk.
inline constexpr std::uint64_t kParallelChunkKeys = std::uint64_t{1} << 16;

/// Threads that report loops may use (process-wide; default 1, the CLI sets
/// it from -j). Values below 1 count as 1; at most kMaxReportThreads.
void set_report_threads(unsigned threads);
unsigned report_threads();
inline constexpr unsigned kMaxReportThreads = 256;

/// Computes chunks 0..chunk_count-1 on up to `threads` threads, the calling
/// thread (worker 0) and threads - 1 more, and consumes them in order on
/// the calling thread, which computes a chunk whenever the next one to
/// consume is not ready. compute(chunk, slot, worker) fills slot `slot`
/// (0..slots-1) from worker `worker` (0..threads-1); consume(chunk, slot)
/// then reads that slot, chunk 0 first; a slot is reused only after it was
/// consumed. slots = 2 * threads. With one thread (or under Emscripten) it
/// alternates compute and consume on the calling thread, slot 0, worker 0.
/// An exception from compute or consume is rethrown on the calling thread
/// after the other threads stop. Threads the system refuses to start (a
/// process limit) are done without: the others, the calling thread at
/// least, compute every chunk.
void run_ordered_chunks(std::uint64_t chunk_count, unsigned threads,
                        const std::function<void(std::uint64_t chunk, std::size_t slot,
                                                 unsigned worker)>& compute,
                        const std::function<void(std::uint64_t chunk, std::size_t slot)>& consume);

/// Slots run_ordered_chunks uses for `threads` threads.
inline std::size_t ordered_chunk_slots(unsigned threads) {
  return threads <= 1 ? 1 : std::size_t{2} * threads;
}

/// Threads worth using for `keys` keys: 1 below kParallelMinKeys, else
/// report_threads() (never more than there are chunks).
unsigned threads_for_keys(std::uint64_t keys);

}  // namespace jumphash
