// What the x86 batch kernels share (batch_avx2.cpp, batch_avx512.cpp): the
// slice length, the rejection modes, the description of JumpBackHash's two
// passes and the entry points of both variants, with no vector code, so that each file
// compiles them with its own flags. Internal linkage, as in those files
// (batch_avx2.cpp says why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "batch_kernels.hpp"

namespace jumphash::batch_kernels {
namespace {

/// Keys per slice of the JumpBackHash kernels (their queue lives on the
/// stack: 8 KiB a bucket count under AVX2, 16 KiB under AVX-512): the
/// report loops' blocks (kBatchBlockKeys); 256 measured 10% slower at
/// n = 129 under AVX2, where a queue's rounds are most of the work.
constexpr std::size_t kSliceKeys = 1024;

inline void fill_zero(std::size_t count, std::int32_t* out) {
  for (std::size_t i = 0; i < count; ++i) out[i] = 0;
}

/// Bits of n - 1 (n >= 2): 1..31.
inline unsigned bit_length_of_n_minus_1(std::int32_t n) {
  return 32U - static_cast<unsigned>(__builtin_clz(static_cast<unsigned>(n - 1)));
}

// JumpBackHash* (Ertl, Algorithm 6, as hash4j). Only the top interval
// [q, 2q) with q = 2^(bits(n-1) - 1) can hold buckets >= n, so a key ends in
// one of two ways: in the top interval (its first candidate, or one drawn
// from further SplitMix64 outputs), or by the immediate answer of the next
// lower active index (the highest bit of u below q).
//
// Two passes over each slice of kSliceKeys keys. The first computes every
// key's first candidate and its fallback, without a loop, and queues the keys
// whose top candidate is >= n (their place and fallback; under AVX-512 their
// generator state too), packed to the front of the queue. The second draws
// once for every queued key, writes those that are done and packs the rest to
// the front again, until the queue is empty. Both work on a few vectors at
// once, a step at a time (batch_avx2.cpp's kGroup says why). So vectors stay
// full: a lane that must draw again never holds finished lanes back, and no
// branch depends on one key (at n = 129 half the keys draw, 1.33 times on
// average).
//
// Bucket counts with the same bits(n - 1) share everything up to the
// rejection test (q, u, the candidate, the fallback, the draws), so the
// pair kernel, for a resize's before and after, runs the first pass once
// and keeps a queue per count.

/// How often a key is rejected decides how the first pass queues: never (n
/// a power of two: no check at all), rarely (a branch the CPU predicts), or
/// often (packing every vector without a branch, cheaper than mispredicting).
enum class Rejections { never, rare, common };

inline Rejections rejections_at(std::int32_t n) {
  const std::uint64_t top_half = std::uint64_t{1} << bit_length_of_n_minus_1(n);  // 2q
  const std::uint64_t rejecting = top_half - static_cast<std::uint64_t>(n);       // of 2q values
  // A key is rejected with probability rejecting / 2q; "rare" below 1/128
  // (a vector of four then holds one fewer than 1 time in 32, of eight 1 in 16).
  if (rejecting == 0) return Rejections::never;
  return rejecting * 128 < top_half ? Rejections::rare : Rejections::common;
}

/// Calls run(mode) with `mode` as a compile-time constant
/// (std::integral_constant<Rejections, mode>): each mode is a kernel of its
/// own.
template <class Run>
inline void in_mode(Rejections mode, Run&& run) {
  switch (mode) {
    case Rejections::never:
      return run(std::integral_constant<Rejections, Rejections::never>{});
    case Rejections::rare:
      return run(std::integral_constant<Rejections, Rejections::rare>{});
    case Rejections::common:
      break;
  }
  return run(std::integral_constant<Rejections, Rejections::common>{});
}

/// JumpBackHash's entry points, the same in each file: `Kernel::run<mode>`
/// is that file's kernel (out[c][i] = jump_back_hash(keys[i], n[c]) for
/// counts sharing bits(n - 1), each >= 2), run in the mode of the count
/// whose keys are rejected most often.
template <class Kernel, std::size_t kCounts>
inline void run_jump_back_hash(const std::uint64_t* keys, std::size_t count,
                               const std::int32_t (&n)[kCounts],
                               std::int32_t* const (&out)[kCounts]) {
  Rejections most = Rejections::never;
  for (std::int32_t buckets : n) {
    const Rejections at = rejections_at(buckets);
    if (at > most) most = at;
  }
  in_mode(most, [&](auto mode) { Kernel::template run<mode.value>(keys, count, n, out); });
}

/// out[i] = jump_back_hash(keys[i], n) with `Kernel` (1 <= n).
template <class Kernel>
void jump_back_hash_with(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                         std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  const std::int32_t counts[1] = {n};
  std::int32_t* const outs[1] = {out};
  run_jump_back_hash<Kernel>(keys, count, counts, outs);
}

/// Both counts of a resize in one pass with `Kernel` when they share
/// bits(n - 1) and are >= 2 (X86Kernels::jump_back_hash_pair); else false.
template <class Kernel>
bool jump_back_hash_pair_with(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                              std::int32_t second, std::int32_t* out_first,
                              std::int32_t* out_second) {
  if (first <= 1 || second <= 1 ||
      bit_length_of_n_minus_1(first) != bit_length_of_n_minus_1(second)) {
    return false;
  }
  const std::int32_t counts[2] = {first, second};
  std::int32_t* const outs[2] = {out_first, out_second};
  run_jump_back_hash<Kernel>(keys, count, counts, outs);
  return true;
}

/// out[i] = jump_back_hash_independent(keys[i], n) with `Kernel::run<mode>`
/// (1 <= n): that file's independent-streams kernel, in the mode of n's
/// rejections.
template <class Kernel>
void jump_back_hash_independent_with(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                                     std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  in_mode(rejections_at(n),
          [&](auto mode) { Kernel::template run<mode.value>(keys, count, n, out); });
}

}  // namespace
}  // namespace jumphash::batch_kernels
