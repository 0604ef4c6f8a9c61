// WebAssembly SIMD128 kernels of the batch lookups (see batch_kernels.hpp):
// two keys a vector, four vectors at a time (kGroup), bit-identical to the
// scalar functions in include/jumphash/algorithms/. The same algorithms as
// batch_avx2.cpp, with SIMD128's own 64-bit lane multiply (i64x2.mul) and
// 64-bit compares.
//
// JumpBackHash's kernel runs only where many keys draw again (batch.cpp,
// simd128_jump_back_hash_gains): i64x2.mul has no x86-64 instruction below
// AVX-512, and the scalar loop costs little more than copying a key in and
// its bucket out unless its branch on a rejected key is often taken. In
// Node 20 (V8 11.3, x86-64; wasm/bench/simd.mjs) the kernel took 0.75-0.96x
// the scalar loop's time at n = 129..192 and 1025..1536, 1.02-1.58x at the
// other counts measured. Jump (0.29-0.37x) and the independent-streams
// variant (0.47-0.73x) gain at every count.
// Compiled with -msimd128 (this file only) in the Emscripten build, whose
// modules then need an engine with WebAssembly SIMD (the package's loader
// says so when the engine has none).
//
// As in batch_avx2.cpp, nothing from the public headers is used here, and
// the tests compare every kernel with the scalar functions (native tests
// cannot reach this file: wasm/test/batch.test.mjs does, on the vectors and
// on 10^6 random keys per algorithm and n).
#include "batch_kernels.hpp"

#if !defined(__wasm_simd128__)
#error "batch_simd128.cpp must be compiled with -msimd128"
#endif

#include <wasm_simd128.h>

namespace jumphash::batch_kernels {
namespace {

inline v128_t set1(std::uint64_t value) { return wasm_u64x2_splat(value); }

/// Lanes below 2^52 as doubles, exactly.
inline v128_t small_to_double(v128_t x) {
  return wasm_f64x2_sub(wasm_v128_or(x, set1(kMagic52)), set1(kMagic52));
}

/// The highest set bit of each lane (lanes below 2^31), 0 for 0.
inline v128_t highest_bit(v128_t x) {
  const v128_t power = wasm_v128_and(small_to_double(x), set1(0xFFF0000000000000ULL));
  return wasm_v128_xor(wasm_f64x2_add(power, set1(kMagic52)), set1(kMagic52));
}

/// where ? if_set : if_clear, per lane (where is all ones or all zeros).
inline v128_t select(v128_t where, v128_t if_set, v128_t if_clear) {
  return wasm_v128_bitselect(if_set, if_clear, where);
}

/// a > b per lane, as unsigned 64-bit numbers below 2^63 (all lanes here are).
inline v128_t greater(v128_t a, v128_t b) { return wasm_i64x2_gt(a, b); }

/// Vectors a kernel works on at once, one step at a time, so that the CPU
/// has kGroup independent chains of work in flight (batch_avx2.cpp's kGroup
/// says why): a step of Jump Consistent Hash's walk waits on a multiply
/// and a divide.
constexpr std::size_t kGroup = 4;

/// SplitMix64's output function (Stafford's Mix13) on each vector of a
/// group, a step at a time.
inline void splitmix64_mix(v128_t (&z)[kGroup]) {
  for (v128_t& lanes : z) lanes = wasm_v128_xor(lanes, wasm_u64x2_shr(lanes, 30));
  for (v128_t& lanes : z) lanes = wasm_i64x2_mul(lanes, set1(kMix1));
  for (v128_t& lanes : z) lanes = wasm_v128_xor(lanes, wasm_u64x2_shr(lanes, 27));
  for (v128_t& lanes : z) lanes = wasm_i64x2_mul(lanes, set1(kMix2));
  for (v128_t& lanes : z) lanes = wasm_v128_xor(lanes, wasm_u64x2_shr(lanes, 31));
}

/// Runs `pass(key, result)` over the keys a group of kGroup vectors (two
/// keys each) at a time, the last group padded with zero keys, and stores
/// each key's results, the low halves of its lanes in result[o][k], to
/// out[o].
template <std::size_t kOutputs, class Pass>
inline void for_each_group(const std::uint64_t* keys, std::size_t count,
                           std::int32_t* const (&out)[kOutputs], Pass&& pass) {
  v128_t key[kGroup], result[kOutputs][kGroup];
  std::size_t i = 0;
  for (; i + 2 * kGroup <= count; i += 2 * kGroup) {
    for (std::size_t k = 0; k < kGroup; ++k) key[k] = wasm_v128_load(keys + i + 2 * k);
    pass(key, result);
    for (std::size_t o = 0; o < kOutputs; ++o) {
      for (std::size_t k = 0; k < kGroup; ++k) {
        out[o][i + 2 * k] = wasm_i32x4_extract_lane(result[o][k], 0);
        out[o][i + 2 * k + 1] = wasm_i32x4_extract_lane(result[o][k], 2);
      }
    }
  }
  if (i == count) return;
  std::uint64_t padded[2 * kGroup] = {};
  for (std::size_t j = i; j < count; ++j) padded[j - i] = keys[j];
  for (std::size_t k = 0; k < kGroup; ++k) key[k] = wasm_v128_load(padded + 2 * k);
  pass(key, result);
  for (std::size_t o = 0; o < kOutputs; ++o) {
    std::int32_t results[2 * kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) {
      results[2 * k] = wasm_i32x4_extract_lane(result[o][k], 0);
      results[2 * k + 1] = wasm_i32x4_extract_lane(result[o][k], 2);
    }
    for (std::size_t j = i; j < count; ++j) out[o][j] = results[j - i];
  }
}

inline void fill_zero(std::size_t count, std::int32_t* out) {
  for (std::size_t i = 0; i < count; ++i) out[i] = 0;
}

/// Bits of n - 1 (n >= 2): 1..31.
inline unsigned bit_length_of_n_minus_1(std::int32_t n) {
  return 32U - static_cast<unsigned>(__builtin_clz(static_cast<unsigned>(n - 1)));
}

/// The vectors every JumpBackHash lookup at bucket count n (n >= 2) uses:
/// the top interval [q, 2q), q = 2^(bits(n - 1) - 1), and n itself.
struct TopInterval {
  explicit TopInterval(std::int32_t n)
      : q(std::uint64_t{1} << (bit_length_of_n_minus_1(n) - 1)),
        top(set1(q)),
        below_top(set1(q - 1)),
        draw_mask(set1((q << 1) - 1)),
        buckets(set1(static_cast<std::uint64_t>(n))) {}
  std::uint64_t q;
  v128_t top, below_top, draw_mask, buckets;
};

/// Draws again from each stream `state` for the `pending` lanes (keys whose
/// top candidate was >= n), the group together, until none is pending:
/// each draw's candidates (JumpBackHash takes two from each SplitMix64
/// output, low and high 32 bits, the independent-streams variant one), of
/// which one below q means the lane's fallback and one below n is its
/// answer, written to `result`.
template <int kCandidatesPerDraw>
inline void draw_until_done(const TopInterval& shape, v128_t (&state)[kGroup],
                            v128_t (&pending)[kGroup], const v128_t (&fallback)[kGroup],
                            v128_t (&result)[kGroup]) {
  const v128_t gamma = set1(kGamma);
  v128_t any_pending = set1(0);
  for (const v128_t& lanes : pending) any_pending = wasm_v128_or(any_pending, lanes);
  while (wasm_v128_any_true(any_pending)) {
    v128_t w[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) w[k] = state[k] = wasm_i64x2_add(state[k], gamma);
    splitmix64_mix(w);
    any_pending = set1(0);
    for (std::size_t k = 0; k < kGroup; ++k) {
      const v128_t first = wasm_v128_and(w[k], shape.draw_mask);
      v128_t fits = greater(shape.buckets, first);
      v128_t chosen = first;
      if constexpr (kCandidatesPerDraw == 2) {
        // The first that fits (or the second, unused, when neither does).
        const v128_t second = wasm_v128_and(wasm_u64x2_shr(w[k], 32), shape.draw_mask);
        chosen = select(fits, first, second);
        fits = wasm_v128_or(fits, greater(shape.buckets, second));
      }
      const v128_t value = select(greater(shape.top, chosen), fallback[k], chosen);
      const v128_t done = wasm_v128_and(pending[k], fits);
      result[k] = select(done, value, result[k]);
      pending[k] = wasm_v128_andnot(pending[k], done);
      any_pending = wasm_v128_or(any_pending, pending[k]);
    }
  }
}

}  // namespace

// JumpBackHash* (Ertl, Algorithm 6, as hash4j): batch_x86_shared.hpp's first
// pass, a group of vectors at a time; a key its top candidate rejects draws
// again from its stream with the rest of its group, until every one is done.
// No queue: the group draws together, each lane still pending taking its
// draw's answer, which at the counts this kernel runs at (where a quarter
// to a half of the keys draw) measured faster than the scalar loop.
void jump_back_hash_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                            std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  const TopInterval shape(n);
  const v128_t gamma = set1(kGamma), zero = set1(0), one = set1(1);
  std::int32_t* const outs[1] = {out};
  for_each_group(keys, count, outs, [&](const v128_t (&key)[kGroup], v128_t (&result)[1][kGroup]) {
    v128_t state[kGroup], v[kGroup], fallback[kGroup], pending[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) v[k] = state[k] = wasm_i64x2_add(key[k], gamma);
    splitmix64_mix(v);  // V0 = low 32 bits, V1 = high
    for (std::size_t k = 0; k < kGroup; ++k) {
      const v128_t v_high = wasm_u64x2_shr(v[k], 32);
      const v128_t u = wasm_v128_and(wasm_v128_xor(v[k], v_high), shape.draw_mask);
      // u's parity in bit 0 (u < 2^31).
      v128_t parity = wasm_v128_xor(u, wasm_u64x2_shr(u, 16));
      parity = wasm_v128_xor(parity, wasm_u64x2_shr(parity, 8));
      parity = wasm_v128_xor(parity, wasm_u64x2_shr(parity, 4));
      parity = wasm_v128_xor(parity, wasm_u64x2_shr(parity, 2));
      parity = wasm_v128_xor(parity, wasm_u64x2_shr(parity, 1));
      const v128_t u_odd = wasm_i64x2_eq(wasm_v128_and(parity, one), one);
      const v128_t in_top = wasm_i64x2_eq(wasm_v128_and(u, shape.top), shape.top);
      // The next lower active index: highest bit h of u below q, and the
      // bucket h + (V_parity & (h - 1)), or 0 when there is none. Its
      // parity is u's without the top bit.
      const v128_t h = highest_bit(wasm_v128_and(u, shape.below_top));
      const v128_t lower_word = select(wasm_v128_xor(u_odd, in_top), v_high, v[k]);
      fallback[k] = wasm_v128_andnot(
          wasm_i64x2_add(h, wasm_v128_and(lower_word, wasm_i64x2_sub(h, one))),
          wasm_i64x2_eq(h, zero));
      // The top interval's first candidate.
      const v128_t candidate = wasm_i64x2_add(
          shape.top, wasm_v128_and(select(u_odd, v_high, v[k]), shape.below_top));
      result[0][k] = select(in_top, candidate, fallback[k]);
      pending[k] = wasm_v128_andnot(in_top, greater(shape.buckets, candidate));
    }
    draw_until_done<2>(shape, state, pending, fallback, result[0]);
  });
}

// JumpBackHash with independent streams: see jump_back_hash_independent_avx2.
void jump_back_hash_independent_simd128(const std::uint64_t* keys, std::size_t count,
                                        std::int32_t n, std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  const TopInterval shape(n);
  const v128_t gamma = set1(kGamma);
  const v128_t top_stream =
      set1(static_cast<std::uint64_t>(bit_length_of_n_minus_1(n)) * kGamma);
  const v128_t zero = set1(0), one = set1(1);
  std::int32_t* const outs[1] = {out};
  for_each_group(keys, count, outs, [&](const v128_t (&key)[kGroup], v128_t (&result)[1][kGroup]) {
    v128_t x[kGroup], lower_draw[kGroup], state[kGroup], candidate[kGroup], h[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) x[k] = wasm_i64x2_add(key[k], gamma);
    splitmix64_mix(x);
    for (std::size_t k = 0; k < kGroup; ++k) {
      // Fallback: h = 2^m' for the highest set bit m' of x below q; its
      // stream is key ^ ((m'+1) * gamma), m' + 1 read from h's exponent.
      h[k] = highest_bit(wasm_v128_and(x[k], shape.below_top));
      const v128_t exponent = wasm_u64x2_shr(small_to_double(h[k]), 52);
      const v128_t m_plus_1 = wasm_i64x2_sub(exponent, set1(1022));
      const v128_t stream_offset = wasm_i64x2_mul(m_plus_1, gamma);
      lower_draw[k] = wasm_i64x2_add(wasm_v128_xor(key[k], stream_offset), gamma);
      // The top interval's stream.
      state[k] = wasm_i64x2_add(wasm_v128_xor(key[k], top_stream), gamma);
      candidate[k] = state[k];
    }
    splitmix64_mix(lower_draw);
    splitmix64_mix(candidate);
    v128_t fallback[kGroup], pending[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) {
      const v128_t in_top = wasm_i64x2_eq(wasm_v128_and(x[k], shape.top), shape.top);
      fallback[k] = wasm_v128_andnot(
          wasm_i64x2_add(h[k], wasm_v128_and(lower_draw[k], wasm_i64x2_sub(h[k], one))),
          wasm_i64x2_eq(h[k], zero));
      // The top interval's first candidate.
      candidate[k] = wasm_i64x2_add(shape.top, wasm_v128_and(candidate[k], shape.below_top));
      result[0][k] = select(in_top, candidate[k], fallback[k]);
      pending[k] = wasm_v128_andnot(in_top, greater(shape.buckets, candidate[k]));
    }
    // The keys the top interval rejects draw again from its stream.
    draw_until_done<1>(shape, state, pending, fallback, result[0]);
  });
}

namespace {

/// One step of each key's walk in Jump Consistent Hash (Lamping & Veach,
/// fig. 1): advances the LCG states `key` and returns
/// j = (b + 1) * (2^31 / ((key >> 33) + 1)), the paper's two IEEE
/// operations in its order, for each vector of a group.
inline void next_jump(v128_t (&key)[kGroup], const v128_t (&b)[kGroup], v128_t (&j)[kGroup]) {
  const v128_t one = set1(1);
  const v128_t two_31 = wasm_f64x2_splat(2147483648.0), one_double = wasm_f64x2_splat(1.0);
  for (std::size_t k = 0; k < kGroup; ++k) {
    key[k] = wasm_i64x2_add(wasm_i64x2_mul(key[k], set1(kLcgMultiplier)), one);
  }
  for (std::size_t k = 0; k < kGroup; ++k) {
    const v128_t x = small_to_double(wasm_i64x2_add(wasm_u64x2_shr(key[k], 33), one));
    j[k] = wasm_f64x2_mul(wasm_f64x2_add(b[k], one_double), wasm_f64x2_div(two_31, x));
  }
}

/// b < n <= 2^31 - 1 back to integers via the exact 2^52 trick.
inline v128_t to_buckets(v128_t b) {
  return wasm_v128_xor(wasm_f64x2_add(b, set1(kMagic52)), set1(kMagic52));
}

}  // namespace

// Jump Consistent Hash (Lamping & Veach, fig. 1) with the paper's double
// arithmetic: see batch_avx2.cpp's jump_hash. A group of vectors walks
// together until every lane has stopped.
void jump_hash_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                       std::int32_t* out) {
  const v128_t buckets = wasm_f64x2_splat(static_cast<double>(n));
  std::int32_t* const outs[1] = {out};
  for_each_group(keys, count, outs, [&](const v128_t (&key)[kGroup], v128_t (&result)[1][kGroup]) {
    v128_t state[kGroup], b[kGroup], active[kGroup], j[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) {
      state[k] = key[k];
      b[k] = wasm_f64x2_splat(0.0);  // after the first b = j (j = 0 < n)
      active[k] = wasm_i64x2_splat(-1);
    }
    for (;;) {
      next_jump(state, b, j);
      v128_t any = wasm_i64x2_splat(0);
      for (std::size_t k = 0; k < kGroup; ++k) {
        active[k] = wasm_v128_and(active[k], wasm_f64x2_lt(j[k], buckets));
        any = wasm_v128_or(any, active[k]);
      }
      if (!wasm_v128_any_true(any)) break;
      for (std::size_t k = 0; k < kGroup; ++k) b[k] = select(active[k], wasm_f64x2_trunc(j[k]), b[k]);
    }
    for (std::size_t k = 0; k < kGroup; ++k) result[0][k] = to_buckets(b[k]);
  });
}

// Jump Consistent Hash at two bucket counts, for a resize (batch_avx2.cpp's
// jump_hash_pair): one walk to the larger count, the smaller count's answer
// the last j below it.
void jump_hash_pair_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                            std::int32_t second, std::int32_t* out_first,
                            std::int32_t* out_second) {
  const bool first_smaller = first <= second;
  const v128_t smaller = wasm_f64x2_splat(static_cast<double>(first_smaller ? first : second));
  const v128_t larger = wasm_f64x2_splat(static_cast<double>(first_smaller ? second : first));
  std::int32_t* const outs[2] = {first_smaller ? out_first : out_second,
                                 first_smaller ? out_second : out_first};
  for_each_group(keys, count, outs, [&](const v128_t (&key)[kGroup], v128_t (&result)[2][kGroup]) {
    v128_t state[kGroup], b_larger[kGroup], b_smaller[kGroup], below_larger[kGroup],
        below_smaller[kGroup], j[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) {
      state[k] = key[k];
      b_larger[k] = b_smaller[k] = wasm_f64x2_splat(0.0);
      below_larger[k] = below_smaller[k] = wasm_i64x2_splat(-1);
    }
    for (;;) {
      next_jump(state, b_larger, j);
      v128_t any = wasm_i64x2_splat(0);
      for (std::size_t k = 0; k < kGroup; ++k) {
        below_larger[k] = wasm_v128_and(below_larger[k], wasm_f64x2_lt(j[k], larger));
        any = wasm_v128_or(any, below_larger[k]);
      }
      if (!wasm_v128_any_true(any)) break;
      for (std::size_t k = 0; k < kGroup; ++k) {
        below_smaller[k] = wasm_v128_and(below_smaller[k], wasm_f64x2_lt(j[k], smaller));
        const v128_t step = wasm_f64x2_trunc(j[k]);
        b_larger[k] = select(below_larger[k], step, b_larger[k]);
        b_smaller[k] = select(below_smaller[k], step, b_smaller[k]);
      }
    }
    for (std::size_t k = 0; k < kGroup; ++k) {
      result[0][k] = to_buckets(b_smaller[k]);
      result[1][k] = to_buckets(b_larger[k]);
    }
  });
}

}  // namespace jumphash::batch_kernels
