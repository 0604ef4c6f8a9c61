// AVX2 kernels of the batch lookups (see batch_kernels.hpp): four keys a
// vector, bit-identical to the scalar functions in
// include/jumphash/algorithms/. Compiled with -mavx2 (this file only) and
// called only when the CPU has AVX2 (batch.cpp checks at run time).
//
// Nothing from the public headers is used here, on purpose: an inline
// function compiled in this file could be the copy the linker keeps for the
// whole program, with AVX2 instructions in it. SplitMix64's constants are
// restated below (from Steele, Lea & Flood, "Fast splittable pseudorandom
// number generators"), and the tests compare every kernel with the scalar
// functions.
#include "batch_kernels.hpp"

#if !defined(__AVX2__)
#error "batch_avx2.cpp must be compiled with -mavx2"
#endif

#include <immintrin.h>

namespace jumphash::batch_kernels {
namespace {

constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;
constexpr std::uint64_t kMix1 = 0xBF58476D1CE4E5B9ULL;
constexpr std::uint64_t kMix2 = 0x94D049BB133111EBULL;
constexpr std::uint64_t kLcgMultiplier = 2862933555777941757ULL;  // Lamping & Veach, fig. 1
constexpr std::uint64_t kMagic52 = 0x4330000000000000ULL;         // the bits of 2^52 as a double

inline __m256i set1(std::uint64_t value) {
  return _mm256_set1_epi64x(static_cast<long long>(value));
}

/// a * c (mod 2^64) in each lane: AVX2 multiplies only 32 x 32 -> 64 bits
/// (_mm256_mul_epu32), so a*c = lo(a)lo(c) + ((hi(a)lo(c) + lo(a)hi(c)) << 32).
/// `c` holds the constant, `c_high` the constant >> 32.
inline __m256i multiply(__m256i a, __m256i c, __m256i c_high) {
  const __m256i low = _mm256_mul_epu32(a, c);
  const __m256i cross = _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), c),
                                         _mm256_mul_epu32(a, c_high));
  return _mm256_add_epi64(low, _mm256_slli_epi64(cross, 32));
}

/// SplitMix64's output function (Stafford's Mix13), four lanes.
inline __m256i splitmix64_mix(__m256i z) {
  z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 30));
  z = multiply(z, set1(kMix1), set1(kMix1 >> 32));
  z = _mm256_xor_si256(z, _mm256_srli_epi64(z, 27));
  z = multiply(z, set1(kMix2), set1(kMix2 >> 32));
  return _mm256_xor_si256(z, _mm256_srli_epi64(z, 31));
}

/// Lanes below 2^52 as doubles, exactly.
inline __m256d small_to_double(__m256i x) {
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(x, set1(kMagic52))),
                       _mm256_castsi256_pd(set1(kMagic52)));
}

/// The highest set bit of each lane (lanes below 2^31), 0 for 0: the double
/// of x with its mantissa cleared is 2^floor(log2 x).
inline __m256i highest_bit(__m256i x) {
  const __m256d power = _mm256_and_pd(small_to_double(x),
                                      _mm256_castsi256_pd(set1(0xFFF0000000000000ULL)));
  return _mm256_xor_si256(
      _mm256_castpd_si256(_mm256_add_pd(power, _mm256_castsi256_pd(set1(kMagic52)))),
      set1(kMagic52));
}

/// 1 in the lanes (below 2^32) with an odd number of set bits, else 0.
inline __m256i parity(__m256i x) {
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 16));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 8));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 4));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 2));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 1));
  return _mm256_and_si256(x, set1(1));
}

/// where ? if_set : if_clear, per lane (where is all ones or all zeros).
inline __m256i select(__m256i where, __m256i if_set, __m256i if_clear) {
  return _mm256_blendv_epi8(if_clear, if_set, where);
}

inline bool none(__m256i mask) { return _mm256_testz_si256(mask, mask) != 0; }

/// Stores the low 32 bits of the four lanes to out[0..3].
inline void store_low_halves(std::int32_t* out, __m256i lanes) {
  const __m256i packed = _mm256_permutevar8x32_epi32(lanes, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(packed));
}

/// Runs `four(keys)` over every group of four keys; the last partial group
/// is padded with zero keys and only its real lanes are stored.
template <class Four>
inline void for_each_four(const std::uint64_t* keys, std::size_t count, std::int32_t* out,
                          Four&& four) {
  std::size_t i = 0;
  for (; i + 4 <= count; i += 4) {
    store_low_halves(out + i, four(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys + i))));
  }
  if (i == count) return;
  alignas(32) std::uint64_t padded[4] = {0, 0, 0, 0};
  for (std::size_t j = i; j < count; ++j) padded[j - i] = keys[j];
  alignas(16) std::int32_t results[4];
  store_low_halves(results, four(_mm256_load_si256(reinterpret_cast<const __m256i*>(padded))));
  for (std::size_t j = i; j < count; ++j) out[j] = results[j - i];
}

inline void fill_zero(std::size_t count, std::int32_t* out) {
  for (std::size_t i = 0; i < count; ++i) out[i] = 0;
}

/// Bits of n - 1 (n >= 2): 1..31.
inline unsigned bit_length_of_n_minus_1(std::int32_t n) {
  return 32U - static_cast<unsigned>(__builtin_clz(static_cast<unsigned>(n - 1)));
}

}  // namespace

// JumpBackHash* (Ertl, Algorithm 6, as hash4j). Only the top interval
// [q, 2q) with q = 2^(bits(n-1) - 1) can hold buckets >= n, so a key ends in
// one of two ways: in the top interval (its first candidate, or one drawn
// from further SplitMix64 outputs), or by the immediate answer of the next
// lower active index (the highest bit of u below q). Both are computed for
// every lane; only lanes whose top candidate is >= n loop on more draws,
// masked, until all four lanes are done.
void jump_back_hash_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                         std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  const unsigned bits = bit_length_of_n_minus_1(n);
  const std::uint64_t q = std::uint64_t{1} << (bits - 1);
  const __m256i top = set1(q), below_top = set1(q - 1), draw_mask = set1((q << 1) - 1);
  const __m256i buckets = set1(static_cast<std::uint64_t>(n));
  const __m256i gamma = set1(kGamma), low32 = set1(0xFFFFFFFFULL), zero = _mm256_setzero_si256();
  for_each_four(keys, count, out, [&](__m256i key) {
    __m256i state = _mm256_add_epi64(key, gamma);
    const __m256i v = splitmix64_mix(state);
    const __m256i v_low = _mm256_and_si256(v, low32), v_high = _mm256_srli_epi64(v, 32);
    const __m256i u = _mm256_and_si256(_mm256_xor_si256(v_low, v_high), draw_mask);
    const __m256i u_odd = parity(u);
    const __m256i in_top = _mm256_cmpeq_epi64(_mm256_and_si256(u, top), top);
    // The next lower active index: highest bit h of u below q, and the
    // bucket h + (V_parity & (h - 1)), or 0 when there is none.
    const __m256i lower = _mm256_and_si256(u, below_top);
    const __m256i h = highest_bit(lower);
    const __m256i lower_odd = _mm256_xor_si256(u_odd, _mm256_and_si256(in_top, set1(1)));
    const __m256i lower_word = select(_mm256_cmpeq_epi64(lower_odd, set1(1)), v_high, v_low);
    const __m256i fallback = _mm256_andnot_si256(
        _mm256_cmpeq_epi64(h, zero),
        _mm256_add_epi64(h, _mm256_and_si256(lower_word, _mm256_sub_epi64(h, set1(1)))));
    // The top interval's first candidate.
    const __m256i top_word = select(_mm256_cmpeq_epi64(u_odd, set1(1)), v_high, v_low);
    const __m256i candidate = _mm256_add_epi64(top, _mm256_and_si256(top_word, below_top));
    __m256i result = select(in_top, candidate, fallback);
    __m256i pending = _mm256_andnot_si256(_mm256_cmpgt_epi64(buckets, candidate), in_top);
    auto draw = [&] {
      state = _mm256_add_epi64(state, gamma);
      const __m256i w = splitmix64_mix(state);  // two candidates per draw
      const __m256i first = _mm256_and_si256(w, draw_mask);
      const __m256i second = _mm256_and_si256(_mm256_srli_epi64(w, 32), draw_mask);
      const __m256i first_fits = _mm256_cmpgt_epi64(buckets, first);
      const __m256i second_fits = _mm256_cmpgt_epi64(buckets, second);
      const __m256i first_value = select(_mm256_cmpgt_epi64(top, first), fallback, first);
      const __m256i second_value = select(_mm256_cmpgt_epi64(top, second), fallback, second);
      const __m256i value = select(first_fits, first_value, second_value);
      const __m256i done = _mm256_and_si256(pending, _mm256_or_si256(first_fits, second_fits));
      result = select(done, value, result);
      pending = _mm256_andnot_si256(done, pending);
    };
    while (!none(pending)) draw();
    return result;
  });
}

// JumpBackHash with independent streams (the article's jbh_indep). As above,
// only the top interval m = bits(n-1) - 1 can reject; its stream is
// key ^ ((m+1) * gamma) with the same m in every lane. The fallback is the
// next set bit m' of x below the top, whose first candidate always fits.
void jump_back_hash_independent_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                                     std::int32_t* out) {
  if (n <= 1) return fill_zero(count, out);
  const unsigned bits = bit_length_of_n_minus_1(n);
  const std::uint64_t q = std::uint64_t{1} << (bits - 1);
  const __m256i top = set1(q), below_top = set1(q - 1), draw_mask = set1((q << 1) - 1);
  const __m256i buckets = set1(static_cast<std::uint64_t>(n));
  const __m256i gamma = set1(kGamma), gamma_high = set1(kGamma >> 32);
  const __m256i top_stream = set1(static_cast<std::uint64_t>(bits) * kGamma);
  const __m256i zero = _mm256_setzero_si256(), one = set1(1);
  for_each_four(keys, count, out, [&](__m256i key) {
    const __m256i x = splitmix64_mix(_mm256_add_epi64(key, gamma));
    const __m256i in_top = _mm256_cmpeq_epi64(_mm256_and_si256(x, top), top);
    // Fallback: h = 2^m' for the highest set bit m' of x below q; its
    // stream is key ^ ((m'+1) * gamma), m' + 1 read from h's exponent.
    const __m256i h = highest_bit(_mm256_and_si256(x, below_top));
    const __m256i exponent = _mm256_srli_epi64(_mm256_castpd_si256(small_to_double(h)), 52);
    const __m256i m_plus_1 = _mm256_sub_epi64(exponent, set1(1022));
    const __m256i stream_offset = _mm256_add_epi64(
        _mm256_mul_epu32(m_plus_1, gamma),
        _mm256_slli_epi64(_mm256_mul_epu32(m_plus_1, gamma_high), 32));
    const __m256i lower_draw =
        splitmix64_mix(_mm256_add_epi64(_mm256_xor_si256(key, stream_offset), gamma));
    const __m256i fallback = _mm256_andnot_si256(
        _mm256_cmpeq_epi64(h, zero),
        _mm256_add_epi64(h, _mm256_and_si256(lower_draw, _mm256_sub_epi64(h, one))));
    // The top interval's stream and first candidate.
    __m256i state = _mm256_add_epi64(_mm256_xor_si256(key, top_stream), gamma);
    const __m256i candidate =
        _mm256_add_epi64(top, _mm256_and_si256(splitmix64_mix(state), below_top));
    __m256i result = select(in_top, candidate, fallback);
    __m256i pending = _mm256_andnot_si256(_mm256_cmpgt_epi64(buckets, candidate), in_top);
    while (!none(pending)) {
      state = _mm256_add_epi64(state, gamma);
      const __m256i drawn = _mm256_and_si256(splitmix64_mix(state), draw_mask);
      const __m256i fits = _mm256_cmpgt_epi64(buckets, drawn);
      const __m256i value = select(_mm256_cmpgt_epi64(top, drawn), fallback, drawn);
      const __m256i done = _mm256_and_si256(pending, fits);
      result = select(done, value, result);
      pending = _mm256_andnot_si256(done, pending);
    }
    return result;
  });
}

// Jump Consistent Hash (Lamping & Veach, fig. 1) with the paper's double
// arithmetic: j = (b + 1) * (2^31 / ((key >> 33) + 1)), the same two IEEE
// operations in the same order as the scalar code. b and j are kept as
// doubles (exact below 2^53); j < n holds exactly when trunc(j) < n, so the
// loop test needs no conversion. Lanes stop independently (masked).
void jump_hash_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                    std::int32_t* out) {
  const __m256i multiplier = set1(kLcgMultiplier), multiplier_high = set1(kLcgMultiplier >> 32);
  const __m256i one = set1(1);
  const __m256d buckets = _mm256_set1_pd(static_cast<double>(n));
  const __m256d two_31 = _mm256_set1_pd(2147483648.0), one_double = _mm256_set1_pd(1.0);
  for_each_four(keys, count, out, [&](__m256i key) {
    __m256d b = _mm256_setzero_pd();  // after the first b = j (j = 0 < n)
    __m256d active = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    for (;;) {
      key = _mm256_add_epi64(multiply(key, multiplier, multiplier_high), one);
      const __m256d x = small_to_double(_mm256_add_epi64(_mm256_srli_epi64(key, 33), one));
      const __m256d j = _mm256_mul_pd(_mm256_add_pd(b, one_double), _mm256_div_pd(two_31, x));
      active = _mm256_and_pd(active, _mm256_cmp_pd(j, buckets, _CMP_LT_OQ));
      if (_mm256_testz_pd(active, active)) break;
      b = _mm256_blendv_pd(b, _mm256_round_pd(j, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC), active);
    }
    // b < n <= 2^31 - 1: back to integers via the exact 2^52 trick.
    return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(b, _mm256_castsi256_pd(set1(kMagic52)))),
                            set1(kMagic52));
  });
}

}  // namespace jumphash::batch_kernels
