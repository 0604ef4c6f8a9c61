// WebAssembly SIMD128 kernels of the batch lookups (see batch_kernels.hpp):
// two keys a vector, bit-identical to the scalar functions in
// include/jumphash/algorithms/. The same algorithms as batch_avx2.cpp, with
// SIMD128's own 64-bit lane multiply (i64x2.mul) and 64-bit compares.
//
// JumpBackHash has none: a two-lane port of the AVX2 jump_back_hash measured
// 1.63-1.78x the scalar loop's time in Node 20 (V8 11.3, x86-64) at n = 128,
// 1000, 1024, 10^6 and 2^30 (0.94x only at n = 129), because i64x2.mul has
// no x86-64 instruction below AVX-512 and the scalar loop already costs
// little more than copying a key in and its bucket out
// (wasm/bench/simd.mjs). JumpHash (0.52-0.55x) and the independent-streams
// variant (0.58-0.79x) gain.
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

/// SplitMix64's output function (Stafford's Mix13), two lanes.
inline v128_t splitmix64_mix(v128_t z) {
  z = wasm_v128_xor(z, wasm_u64x2_shr(z, 30));
  z = wasm_i64x2_mul(z, set1(kMix1));
  z = wasm_v128_xor(z, wasm_u64x2_shr(z, 27));
  z = wasm_i64x2_mul(z, set1(kMix2));
  return wasm_v128_xor(z, wasm_u64x2_shr(z, 31));
}

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

/// Runs `two(keys)` over every pair of keys; an odd last key is paired with
/// a zero key and only its lane is stored.
template <class Two>
inline void for_each_two(const std::uint64_t* keys, std::size_t count, std::int32_t* out, Two&& two) {
  std::size_t i = 0;
  for (; i + 2 <= count; i += 2) {
    const v128_t result = two(wasm_v128_load(keys + i));
    out[i] = wasm_i32x4_extract_lane(result, 0);
    out[i + 1] = wasm_i32x4_extract_lane(result, 2);
  }
  if (i == count) return;
  const v128_t result = two(wasm_u64x2_make(keys[i], 0));
  out[i] = wasm_i32x4_extract_lane(result, 0);
}

inline void fill_zero(std::size_t count, std::int32_t* out) {
  for (std::size_t i = 0; i < count; ++i) out[i] = 0;
}

/// Bits of n - 1 (n >= 2): 1..31.
inline unsigned bit_length_of_n_minus_1(std::int32_t n) {
  return 32U - static_cast<unsigned>(__builtin_clz(static_cast<unsigned>(n - 1)));
}

}  // namespace

// JumpBackHash with independent streams: see jump_back_hash_independent_avx2.
void jump_back_hash_independent_simd128(const std::uint64_t* keys, std::size_t count,
                                        std::int32_t n, std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  const unsigned bits = bit_length_of_n_minus_1(n);
  const std::uint64_t q = std::uint64_t{1} << (bits - 1);
  const v128_t top = set1(q), below_top = set1(q - 1), draw_mask = set1((q << 1) - 1);
  const v128_t buckets = set1(static_cast<std::uint64_t>(n));
  const v128_t gamma = set1(kGamma);
  const v128_t top_stream = set1(static_cast<std::uint64_t>(bits) * kGamma);
  const v128_t zero = set1(0), one = set1(1);
  for_each_two(keys, count, out, [&](v128_t key) {
    const v128_t x = splitmix64_mix(wasm_i64x2_add(key, gamma));
    const v128_t in_top = wasm_i64x2_eq(wasm_v128_and(x, top), top);
    // Fallback: h = 2^m' for the highest set bit m' of x below q; its
    // stream is key ^ ((m'+1) * gamma), m' + 1 read from h's exponent.
    const v128_t h = highest_bit(wasm_v128_and(x, below_top));
    const v128_t exponent = wasm_u64x2_shr(small_to_double(h), 52);
    const v128_t m_plus_1 = wasm_i64x2_sub(exponent, set1(1022));
    const v128_t stream_offset = wasm_i64x2_mul(m_plus_1, gamma);
    const v128_t lower_draw = splitmix64_mix(wasm_i64x2_add(wasm_v128_xor(key, stream_offset), gamma));
    const v128_t fallback = wasm_v128_andnot(
        wasm_i64x2_add(h, wasm_v128_and(lower_draw, wasm_i64x2_sub(h, one))), wasm_i64x2_eq(h, zero));
    // The top interval's stream and first candidate.
    v128_t state = wasm_i64x2_add(wasm_v128_xor(key, top_stream), gamma);
    const v128_t candidate = wasm_i64x2_add(top, wasm_v128_and(splitmix64_mix(state), below_top));
    v128_t result = select(in_top, candidate, fallback);
    v128_t pending = wasm_v128_andnot(in_top, greater(buckets, candidate));
    while (wasm_v128_any_true(pending)) {
      state = wasm_i64x2_add(state, gamma);
      const v128_t drawn = wasm_v128_and(splitmix64_mix(state), draw_mask);
      const v128_t fits = greater(buckets, drawn);
      const v128_t value = select(greater(top, drawn), fallback, drawn);
      const v128_t done = wasm_v128_and(pending, fits);
      result = select(done, value, result);
      pending = wasm_v128_andnot(pending, done);
    }
    return result;
  });
}

// Jump Consistent Hash (Lamping & Veach, fig. 1) with the paper's double
// arithmetic: see jump_hash_avx2.
void jump_hash_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                       std::int32_t* out) {
  const v128_t multiplier = set1(kLcgMultiplier), one = set1(1);
  const v128_t buckets = wasm_f64x2_splat(static_cast<double>(n));
  const v128_t two_31 = wasm_f64x2_splat(2147483648.0), one_double = wasm_f64x2_splat(1.0);
  for_each_two(keys, count, out, [&](v128_t key) {
    v128_t b = wasm_f64x2_splat(0.0);  // after the first b = j (j = 0 < n)
    v128_t active = wasm_i64x2_splat(-1);
    for (;;) {
      key = wasm_i64x2_add(wasm_i64x2_mul(key, multiplier), one);
      const v128_t x = small_to_double(wasm_i64x2_add(wasm_u64x2_shr(key, 33), one));
      const v128_t j = wasm_f64x2_mul(wasm_f64x2_add(b, one_double), wasm_f64x2_div(two_31, x));
      active = wasm_v128_and(active, wasm_f64x2_lt(j, buckets));
      if (!wasm_v128_any_true(active)) break;
      b = select(active, wasm_f64x2_trunc(j), b);
    }
    // b < n <= 2^31 - 1: back to integers via the exact 2^52 trick.
    return wasm_v128_xor(wasm_f64x2_add(b, set1(kMagic52)), set1(kMagic52));
  });
}

}  // namespace jumphash::batch_kernels
