// The AVX-512 batch kernels (see batch_kernels.hpp): batch_avx2.cpp's
// kernels again with 512-bit vectors, eight keys a vector, and AVX-512's
// mask registers, compress, 64-bit multiply and leading-zero count in place
// of AVX2's sign-bit masks, blends, permute tables and 32-bit multiplies.
// This file is compiled with -mavx2 -mavx512f -mavx512vl -mavx512dq
// -mavx512cd, and batch.cpp calls it only on CPUs with all four. On this
// project's machine (AMD EPYC, family 26, whose vector units are 512 bits
// wide) these kernels take a third to a half of the time a key of the
// 256-bit ones (README, Every core: Lookups). JumpBackHash's passes are those
// batch_x86_shared.hpp describes; nothing from the public headers is used
// here (batch_avx2.cpp says why).
#include "batch_x86_shared.hpp"

#if !(defined(__AVX512F__) && defined(__AVX512VL__) && defined(__AVX512DQ__) && \
      defined(__AVX512CD__))
#error "batch_avx512.cpp must be compiled with -mavx512f -mavx512vl -mavx512dq -mavx512cd"
#endif

#include <immintrin.h>

// GCC 12's AVX-512 intrinsics start their unmasked operations from a
// self-initialized "undefined" vector, which -Wmaybe-uninitialized reports
// once they are inlined here (GCC bug 105593, fixed in GCC 13).
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ < 13
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace jumphash::batch_kernels {
namespace {

inline __m512i set1_wide(std::uint64_t value) {
  return _mm512_set1_epi64(static_cast<long long>(value));
}

/// SplitMix64's output function (Stafford's Mix13), eight lanes.
inline __m512i splitmix64_mix_wide(__m512i z) {
  z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 30));
  z = _mm512_mullo_epi64(z, set1_wide(kMix1));
  z = _mm512_xor_si512(z, _mm512_srli_epi64(z, 27));
  z = _mm512_mullo_epi64(z, set1_wide(kMix2));
  return _mm512_xor_si512(z, _mm512_srli_epi64(z, 31));
}

/// Vectors the kernels work on at once, a step at a time (batch_avx2.cpp's
/// kGroup says why). Measured as there, four at a time took JumpBackHash
/// at n = 128 from 0.55 ns a key to 0.45 and jump from 6.1-6.4 ns to 2.1;
/// two at a time, jump took 3.6-3.7 ns, eight at a time 2.3-2.4.
constexpr std::size_t kWideGroup = 4;

/// SplitMix64's output function on each vector of a group, a step at a time.
inline void splitmix64_mix_wide(__m512i (&z)[kWideGroup]) {
  const __m512i mix1 = set1_wide(kMix1), mix2 = set1_wide(kMix2);
  for (__m512i& lanes : z) lanes = _mm512_xor_si512(lanes, _mm512_srli_epi64(lanes, 30));
  for (__m512i& lanes : z) lanes = _mm512_mullo_epi64(lanes, mix1);
  for (__m512i& lanes : z) lanes = _mm512_xor_si512(lanes, _mm512_srli_epi64(lanes, 27));
  for (__m512i& lanes : z) lanes = _mm512_mullo_epi64(lanes, mix2);
  for (__m512i& lanes : z) lanes = _mm512_xor_si512(lanes, _mm512_srli_epi64(lanes, 31));
}

/// The lanes whose low 32 bits have an odd number of ones: bit 4k of
/// x ^ x>>1 ^ x>>2 ^ x>>3 is nibble k's parity, and multiplying those bits
/// by 0x11111111 sums them into bits 28..31 (no carries: at most 8).
inline __mmask8 odd_parity(__m512i x) {
  x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 1));
  x = _mm512_xor_si512(x, _mm512_srli_epi64(x, 2));
  const __m512i nibbles = set1_wide(0x11111111ULL);
  return _mm512_test_epi64_mask(_mm512_mul_epu32(_mm512_and_si512(x, nibbles), nibbles),
                                set1_wide(std::uint64_t{1} << 28));
}

/// The highest set bit of each lane, 0 for 0 (a leading-zero count of 64
/// makes the shift 2^64 - 1, which vpsllvq turns into 0).
inline __m512i highest_bit_wide(__m512i x) {
  return _mm512_sllv_epi64(set1_wide(1), _mm512_sub_epi64(set1_wide(63), _mm512_lzcnt_epi64(x)));
}

/// The lanes [0, count) of eight (count <= 8).
inline __mmask8 first_lanes(std::size_t count) {
  return static_cast<__mmask8>(count >= 8 ? 0xFFU : (1U << count) - 1U);
}

/// The `real` lanes of from[0..8), the others 0. A full vector takes a
/// plain load: in these loops a masked one made the lookups 14-20% slower
/// at n = 128 and 1000 (jumphash_batch_bench, this project's AMD EPYC).
inline __m512i load_lanes(__mmask8 real, const std::uint64_t* from) {
  return real == 0xFF ? _mm512_loadu_si512(from) : _mm512_maskz_loadu_epi64(real, from);
}

/// Stores the `real` lanes of eight to to[0..8), as load_lanes loads.
inline void store_lanes(__mmask8 real, std::int32_t* to, __m256i lanes) {
  if (real == 0xFF) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), lanes);
  } else {
    _mm256_mask_storeu_epi32(to, real, lanes);
  }
}

/// Lane k's place, k, in its high 32 bits: added to a vector's place in its
/// slice, the places the queue keeps beside the fallbacks.
inline __m512i lane_places_in_high_halves() {
  return _mm512_setr_epi64(0, std::int64_t{1} << 32, std::int64_t{2} << 32, std::int64_t{3} << 32,
                           std::int64_t{4} << 32, std::int64_t{5} << 32, std::int64_t{6} << 32,
                           std::int64_t{7} << 32);
}

/// The vectors every lookup at bucket counts with bits(n - 1) = bits uses
/// (batch_avx2.cpp's TopInterval, eight lanes).
struct WideTopInterval {
  explicit WideTopInterval(unsigned bits)
      : top(set1_wide(std::uint64_t{1} << (bits - 1))),
        below_top(set1_wide((std::uint64_t{1} << (bits - 1)) - 1)),
        draw_mask(set1_wide((std::uint64_t{1} << bits) - 1)) {}
  __m512i top, below_top, draw_mask;
};

/// Keys of a slice rejected at one bucket count (as batch_avx2.cpp's
/// RejectedKeys, eight lanes, but with each one's generator state queued too:
/// dropping it was measured only under AVX2, on a CPU without AVX-512), and
/// its place in the slice (high 32 bits) with its fallback (low 32 bits) in
/// one lane, packed to the front with AVX-512's compress. The count of queued
/// keys is the caller's local variable, passed in and returned: kept in this
/// struct, it would live in memory, since the kernels' vector stores may alias
/// it, and each vector would wait to reload it.
struct WideRejectedKeys {
  alignas(64) std::uint64_t state[kSliceKeys + 8];
  alignas(64) std::uint64_t place_and_fallback[kSliceKeys + 8];

  /// Queues `lanes` after the `size` keys queued; returns the new count.
  std::size_t add(std::size_t size, __mmask8 lanes, __m512i states, __m512i places_and_fallbacks) {
    _mm512_storeu_si512(state + size, _mm512_maskz_compress_epi64(lanes, states));
    _mm512_storeu_si512(place_and_fallback + size,
                        _mm512_maskz_compress_epi64(lanes, places_and_fallbacks));
    return size + static_cast<unsigned>(__builtin_popcount(lanes));
  }

  /// Draws for the `size` queued keys until none is left, writing
  /// out[place] (`out` is the slice's first key's). JumpBackHash takes two
  /// candidates from each SplitMix64 output (low and high 32 bits), the
  /// independent-streams variant one.
  template <int kCandidatesPerDraw>
  void drain(std::size_t size, const WideTopInterval& shape, __m512i buckets, std::int32_t* out) {
    const __m512i gamma = set1_wide(kGamma);
    const __m512i place_bits = set1_wide(0xFFFFFFFF00000000ULL);
    while (size != 0) {
      std::size_t kept = 0;
      // The `real` lanes of eight queued keys after one more draw (`w`, from
      // `drawn_state`): those done written to `out`, the others packed to
      // the queue's front again, in place: the keys being settled are
      // loaded already, and kept <= their index, so the eight lanes written
      // land only on entries already loaded.
      auto settle = [&](__mmask8 real, __m512i packed, __m512i drawn_state, __m512i w) {
        const __m512i first = _mm512_and_si512(w, shape.draw_mask);
        __mmask8 fits = _mm512_cmplt_epu64_mask(first, buckets);
        __m512i chosen = first;
        if constexpr (kCandidatesPerDraw == 2) {
          // The first that fits (or the second, unused, when neither does).
          const __m512i second = _mm512_and_si512(_mm512_srli_epi64(w, 32), shape.draw_mask);
          chosen = _mm512_mask_blend_epi64(fits, second, first);
          fits |= _mm512_cmplt_epu64_mask(second, buckets);
        }
        const __mmask8 done = fits & real;
        // A candidate below q means the fallback; either way the place stays
        // in the high half.
        const __m512i answer = _mm512_mask_blend_epi64(
            _mm512_cmplt_epu64_mask(chosen, shape.top),
            _mm512_or_si512(_mm512_and_si512(packed, place_bits), chosen), packed);
        // Every real lane is written: a lane not done yet gets its final
        // value in a later round, after this one.
        alignas(64) std::uint64_t answers[8];
        _mm512_store_si512(answers, answer);
        for (unsigned lane = 0; lane < 8; ++lane) {
          if (((real >> lane) & 1U) == 0) break;
          out[answers[lane] >> 32] = static_cast<std::int32_t>(answers[lane]);
        }
        const __mmask8 again = real & static_cast<__mmask8>(~done);
        _mm512_storeu_si512(state + kept, _mm512_maskz_compress_epi64(again, drawn_state));
        _mm512_storeu_si512(place_and_fallback + kept, _mm512_maskz_compress_epi64(again, packed));
        kept += static_cast<unsigned>(__builtin_popcount(again));
      };
      std::size_t j = 0;
      for (; j + 8 * kWideGroup <= size; j += 8 * kWideGroup) {
        __m512i packed[kWideGroup], drawn_state[kWideGroup], w[kWideGroup];
        for (std::size_t k = 0; k < kWideGroup; ++k) {
          packed[k] = _mm512_loadu_si512(place_and_fallback + j + 8 * k);
          w[k] = drawn_state[k] = _mm512_add_epi64(_mm512_loadu_si512(state + j + 8 * k), gamma);
        }
        splitmix64_mix_wide(w);
        for (std::size_t k = 0; k < kWideGroup; ++k) settle(0xFF, packed[k], drawn_state[k], w[k]);
      }
      for (; j < size; j += 8) {
        const __mmask8 real = first_lanes(size - j);
        const __m512i drawn_state = _mm512_add_epi64(load_lanes(real, state + j), gamma);
        settle(real, load_lanes(real, place_and_fallback + j), drawn_state,
               splitmix64_mix_wide(drawn_state));
      }
      size = kept;
    }
  }
};

/// out[c][i] = jump_back_hash(keys[i], n[c]) for the kCounts bucket counts,
/// which share bits(n - 1) (n >= 2): batch_avx2.cpp's jump_back_hash_at,
/// eight keys a vector.
template <Rejections kRejections, std::size_t kCounts>
void jump_back_hash_wide_at(const std::uint64_t* keys, std::size_t count,
                            const std::int32_t (&n)[kCounts], std::int32_t* const (&out)[kCounts]) {
  const WideTopInterval shape(bit_length_of_n_minus_1(n[0]));
  __m512i buckets[kCounts];
  for (std::size_t c = 0; c < kCounts; ++c)
    buckets[c] = set1_wide(static_cast<std::uint64_t>(n[c]));
  const __m512i gamma = set1_wide(kGamma), one = set1_wide(1);
  const __m512i lane_places = lane_places_in_high_halves();
  WideRejectedKeys rejected[kCounts];
  // The output pointers in locals: read through `out` in the loop, they were
  // reloaded for every vector, since the vector stores may alias them.
  std::int32_t* outs[kCounts];
  for (std::size_t c = 0; c < kCounts; ++c) outs[c] = out[c];

  for (std::size_t slice = 0; slice < count; slice += kSliceKeys) {
    const std::size_t slice_end = slice + kSliceKeys < count ? slice + kSliceKeys : count;
    std::size_t queued[kCounts] = {};
    // The lookups of the `real` lanes of the eight keys at i, from their
    // generator state and its first output v.
    auto finish = [&](std::size_t i, __mmask8 real, __m512i state, __m512i v) {
      // V0 = low 32 bits of v, V1 = high.
      const __m512i v_high = _mm512_srli_epi64(v, 32);
      const __m512i u = _mm512_and_si512(_mm512_xor_si512(v, v_high), shape.draw_mask);
      const __mmask8 odd = odd_parity(u);
      const __mmask8 in_top = _mm512_test_epi64_mask(u, shape.top);
      // The next lower active index: highest bit h of u below q, and the
      // bucket h + (V_parity & (h - 1)), or 0 when there is none. Its
      // parity is u's without the top bit.
      const __m512i h = highest_bit_wide(_mm512_and_si512(u, shape.below_top));
      const __m512i lower_word = _mm512_mask_blend_epi64(odd ^ in_top, v, v_high);
      const __m512i fallback = _mm512_maskz_add_epi64(
          _mm512_test_epi64_mask(h, h), h, _mm512_and_si512(lower_word, _mm512_sub_epi64(h, one)));
      // The top interval's first candidate.
      const __m512i top_word = _mm512_mask_blend_epi64(odd, v, v_high);
      const __m512i candidate =
          _mm512_add_epi64(shape.top, _mm512_and_si512(top_word, shape.below_top));
      if constexpr (kRejections != Rejections::never) {
        const __m512i places_and_fallbacks = _mm512_or_si512(
            _mm512_add_epi64(set1_wide(static_cast<std::uint64_t>(i - slice) << 32), lane_places),
            fallback);
        for (std::size_t c = 0; c < kCounts; ++c) {
          const __mmask8 lanes = _mm512_mask_cmpge_epu64_mask(in_top & real, candidate, buckets[c]);
          if (kRejections == Rejections::common || lanes != 0) {
            queued[c] = rejected[c].add(queued[c], lanes, state, places_and_fallbacks);
          }
        }
      }
      const __m256i result =
          _mm512_cvtepi64_epi32(_mm512_mask_blend_epi64(in_top, fallback, candidate));
      for (std::size_t c = 0; c < kCounts; ++c) store_lanes(real, outs[c] + i, result);
    };
    std::size_t i = slice;
    for (; i + 8 * kWideGroup <= slice_end; i += 8 * kWideGroup) {
      __m512i state[kWideGroup], v[kWideGroup];
      for (std::size_t k = 0; k < kWideGroup; ++k) {
        v[k] = state[k] = _mm512_add_epi64(_mm512_loadu_si512(keys + i + 8 * k), gamma);
      }
      splitmix64_mix_wide(v);
      for (std::size_t k = 0; k < kWideGroup; ++k) finish(i + 8 * k, 0xFF, state[k], v[k]);
    }
    for (; i < slice_end; i += 8) {
      const __mmask8 real = first_lanes(slice_end - i);
      const __m512i state = _mm512_add_epi64(load_lanes(real, keys + i), gamma);
      finish(i, real, state, splitmix64_mix_wide(state));
    }
    for (std::size_t c = 0; c < kCounts; ++c) {
      rejected[c].template drain<2>(queued[c], shape, buckets[c], outs[c] + slice);
    }
  }
}

/// jump_back_hash_wide_at for batch_x86_shared.hpp's entry points.
struct EightLaneJumpBackHash {
  template <Rejections kRejections, std::size_t kCounts>
  static void run(const std::uint64_t* keys, std::size_t count, const std::int32_t (&n)[kCounts],
                  std::int32_t* const (&out)[kCounts]) {
    jump_back_hash_wide_at<kRejections>(keys, count, n, out);
  }
};

// JumpBackHash with independent streams (batch_avx2.cpp's
// jump_back_hash_independent_when), eight keys a vector: one SplitMix64
// output decides each lane, from the top interval's stream or from the next
// set bit m' of x below it, whose stream is key ^ ((m' + 1) * gamma).
template <Rejections kRejections>
void jump_back_hash_independent_wide_when(const std::uint64_t* keys, std::size_t count,
                                          std::int32_t n, std::int32_t* out) {
  const unsigned bits = bit_length_of_n_minus_1(n);
  const WideTopInterval shape(bits);
  const __m512i buckets = set1_wide(static_cast<std::uint64_t>(n));
  const __m512i gamma = set1_wide(kGamma), one = set1_wide(1), sixty_four = set1_wide(64);
  const __m512i top_stream = set1_wide(static_cast<std::uint64_t>(bits) * kGamma);
  const __m512i lane_places = lane_places_in_high_halves();
  WideRejectedKeys rejected;

  for (std::size_t slice = 0; slice < count; slice += kSliceKeys) {
    const std::size_t slice_end = slice + kSliceKeys < count ? slice + kSliceKeys : count;
    std::size_t queued = 0;
    // Each key's stream, once its first output x is known: the top one
    // (in_top) or the lower one, whose state the fallback also needs, and
    // h = 2^m' for the highest set bit m' of x below q, with m' + 1 from
    // its leading zeros (0 when there is none, whose answer is 0 anyway).
    struct Streams {
      __mmask8 in_top, has_lower;
      __m512i h, lower_state, top_state;
    };
    auto streams = [&](__m512i key, __m512i x) {
      Streams s;
      s.in_top = _mm512_test_epi64_mask(x, shape.top);
      const __m512i below = _mm512_and_si512(x, shape.below_top);
      s.h = highest_bit_wide(below);
      s.has_lower = _mm512_test_epi64_mask(s.h, s.h);
      const __m512i m_plus_1 = _mm512_sub_epi64(sixty_four, _mm512_lzcnt_epi64(below));
      s.lower_state =
          _mm512_add_epi64(_mm512_xor_si512(key, _mm512_mullo_epi64(m_plus_1, gamma)), gamma);
      s.top_state = _mm512_add_epi64(_mm512_xor_si512(key, top_stream), gamma);
      return s;
    };
    // The lookups of the `real` lanes of the eight keys at i, from their
    // streams and the chosen stream's first output `drawn`.
    auto finish = [&](std::size_t i, __mmask8 real, const Streams& s, __m512i drawn) {
      const __m512i below_h = _mm512_sub_epi64(s.h, one);
      const __m512i candidate =
          _mm512_add_epi64(shape.top, _mm512_and_si512(drawn, shape.below_top));
      const __m512i lower =
          _mm512_maskz_add_epi64(s.has_lower, s.h, _mm512_and_si512(drawn, below_h));
      if constexpr (kRejections != Rejections::never) {
        const __mmask8 lanes = _mm512_mask_cmpge_epu64_mask(s.in_top & real, candidate, buckets);
        if (lanes != 0) {
          // Those keys' fallback: the lower stream's first candidate.
          const __m512i fallback = _mm512_maskz_add_epi64(
              s.has_lower, s.h, _mm512_and_si512(splitmix64_mix_wide(s.lower_state), below_h));
          const __m512i places =
              _mm512_add_epi64(set1_wide(static_cast<std::uint64_t>(i - slice) << 32), lane_places);
          queued = rejected.add(queued, lanes, s.top_state, _mm512_or_si512(places, fallback));
        }
      }
      store_lanes(real, out + i,
                  _mm512_cvtepi64_epi32(_mm512_mask_blend_epi64(s.in_top, lower, candidate)));
    };
    std::size_t i = slice;
    for (; i + 8 * kWideGroup <= slice_end; i += 8 * kWideGroup) {
      __m512i key[kWideGroup], x[kWideGroup];
      Streams s[kWideGroup];
      for (std::size_t k = 0; k < kWideGroup; ++k) {
        key[k] = _mm512_loadu_si512(keys + i + 8 * k);
        x[k] = _mm512_add_epi64(key[k], gamma);
      }
      splitmix64_mix_wide(x);
      for (std::size_t k = 0; k < kWideGroup; ++k) {
        s[k] = streams(key[k], x[k]);
        x[k] = _mm512_mask_blend_epi64(s[k].in_top, s[k].lower_state, s[k].top_state);
      }
      splitmix64_mix_wide(x);
      for (std::size_t k = 0; k < kWideGroup; ++k) finish(i + 8 * k, 0xFF, s[k], x[k]);
    }
    for (; i < slice_end; i += 8) {
      const __mmask8 real = first_lanes(slice_end - i);
      const __m512i key = load_lanes(real, keys + i);
      const Streams s = streams(key, splitmix64_mix_wide(_mm512_add_epi64(key, gamma)));
      finish(i, real, s,
             splitmix64_mix_wide(_mm512_mask_blend_epi64(s.in_top, s.lower_state, s.top_state)));
    }
    rejected.template drain<1>(queued, shape, buckets, out + slice);
  }
}

/// jump_back_hash_independent_wide_when for batch_x86_shared.hpp's entry
/// point.
struct EightLaneIndependentStreams {
  template <Rejections kRejections>
  static void run(const std::uint64_t* keys, std::size_t count, std::int32_t n, std::int32_t* out) {
    jump_back_hash_independent_wide_when<kRejections>(keys, count, n, out);
  }
};

/// One step of a key's walk in Jump Consistent Hash (Lamping & Veach,
/// fig. 1), eight lanes: advances the LCG state `key` and returns
/// j = (b + 1) * (2^31 / ((key >> 33) + 1)), the paper's two IEEE
/// operations in its order (batch_avx2.cpp's next_jump).
inline __m512d next_jump_wide(__m512i& key, __m512d b) {
  key = _mm512_add_epi64(_mm512_mullo_epi64(key, set1_wide(kLcgMultiplier)), set1_wide(1));
  const __m512d x = _mm512_cvtepu64_pd(_mm512_add_epi64(_mm512_srli_epi64(key, 33), set1_wide(1)));
  return _mm512_mul_pd(_mm512_add_pd(b, _mm512_set1_pd(1.0)),
                       _mm512_div_pd(_mm512_set1_pd(2147483648.0), x));
}

/// trunc(j) for doubles j >= 0, where `lanes` are set; `b` elsewhere.
inline __m512d truncate_where(__m512d b, __mmask8 lanes, __m512d j) {
  return _mm512_mask_roundscale_pd(b, lanes, j, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
}

// Jump Consistent Hash (batch_avx2.cpp's jump_hash), eight keys a vector: b
// and j kept as doubles (exact below 2^53), j < n exactly when trunc(j) < n,
// lanes stopping independently (masked).
void jump_hash_wide(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                    std::int32_t* out) {
  const __m512d buckets = _mm512_set1_pd(static_cast<double>(n));
  std::size_t i = 0;
  for (; i + 8 * kWideGroup <= count; i += 8 * kWideGroup) {
    __m512i key[kWideGroup];
    __m512d b[kWideGroup];
    __mmask8 active[kWideGroup];
    for (std::size_t k = 0; k < kWideGroup; ++k) {
      key[k] = _mm512_loadu_si512(keys + i + 8 * k);
      b[k] = _mm512_setzero_pd();  // after the first b = j (j = 0 < n)
      active[k] = 0xFF;
    }
    for (;;) {
      __m512d j[kWideGroup];
      for (std::size_t k = 0; k < kWideGroup; ++k) j[k] = next_jump_wide(key[k], b[k]);
      unsigned any = 0;
      for (std::size_t k = 0; k < kWideGroup; ++k) {
        active[k] = _mm512_mask_cmp_pd_mask(active[k], j[k], buckets, _CMP_LT_OQ);
        any |= active[k];
      }
      if (any == 0) break;
      for (std::size_t k = 0; k < kWideGroup; ++k) b[k] = truncate_where(b[k], active[k], j[k]);
    }
    for (std::size_t k = 0; k < kWideGroup; ++k) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 8 * k), _mm512_cvttpd_epi32(b[k]));
    }
  }
  for (; i < count; i += 8) {
    const __mmask8 real = first_lanes(count - i);
    __m512i key = load_lanes(real, keys + i);
    __m512d b = _mm512_setzero_pd();  // after the first b = j (j = 0 < n)
    __mmask8 active = 0xFF;
    for (;;) {
      const __m512d j = next_jump_wide(key, b);
      active = _mm512_mask_cmp_pd_mask(active, j, buckets, _CMP_LT_OQ);
      if (active == 0) break;
      b = truncate_where(b, active, j);
    }
    store_lanes(real, out + i, _mm512_cvttpd_epi32(b));
  }
}

// Jump Consistent Hash at two bucket counts (batch_avx2.cpp's
// jump_hash_pair): one walk to the larger count, the smaller count's answer
// the last j below it.
void jump_hash_pair_wide(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                         std::int32_t second, std::int32_t* out_first, std::int32_t* out_second) {
  const bool first_smaller = first <= second;
  const __m512d smaller = _mm512_set1_pd(static_cast<double>(first_smaller ? first : second));
  const __m512d larger = _mm512_set1_pd(static_cast<double>(first_smaller ? second : first));
  std::int32_t* const to_smaller = first_smaller ? out_first : out_second;
  std::int32_t* const to_larger = first_smaller ? out_second : out_first;
  std::size_t i = 0;
  for (; i + 8 * kWideGroup <= count; i += 8 * kWideGroup) {
    __m512i key[kWideGroup];
    __m512d b_larger[kWideGroup], b_smaller[kWideGroup];
    __mmask8 below_larger[kWideGroup], below_smaller[kWideGroup];
    for (std::size_t k = 0; k < kWideGroup; ++k) {
      key[k] = _mm512_loadu_si512(keys + i + 8 * k);
      b_larger[k] = b_smaller[k] = _mm512_setzero_pd();
      below_larger[k] = below_smaller[k] = 0xFF;
    }
    for (;;) {
      __m512d j[kWideGroup];
      for (std::size_t k = 0; k < kWideGroup; ++k) j[k] = next_jump_wide(key[k], b_larger[k]);
      unsigned any = 0;
      for (std::size_t k = 0; k < kWideGroup; ++k) {
        below_larger[k] = _mm512_mask_cmp_pd_mask(below_larger[k], j[k], larger, _CMP_LT_OQ);
        any |= below_larger[k];
      }
      if (any == 0) break;
      for (std::size_t k = 0; k < kWideGroup; ++k) {
        below_smaller[k] = _mm512_mask_cmp_pd_mask(below_smaller[k], j[k], smaller, _CMP_LT_OQ);
        b_larger[k] = truncate_where(b_larger[k], below_larger[k], j[k]);
        b_smaller[k] = truncate_where(b_smaller[k], below_smaller[k], j[k]);
      }
    }
    for (std::size_t k = 0; k < kWideGroup; ++k) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to_smaller + i + 8 * k),
                          _mm512_cvttpd_epi32(b_smaller[k]));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(to_larger + i + 8 * k),
                          _mm512_cvttpd_epi32(b_larger[k]));
    }
  }
  for (; i < count; i += 8) {
    const __mmask8 real = first_lanes(count - i);
    __m512i key = load_lanes(real, keys + i);
    __m512d b_larger = _mm512_setzero_pd(), b_smaller = _mm512_setzero_pd();
    __mmask8 below_larger = 0xFF, below_smaller = 0xFF;
    for (;;) {
      const __m512d j = next_jump_wide(key, b_larger);
      below_larger = _mm512_mask_cmp_pd_mask(below_larger, j, larger, _CMP_LT_OQ);
      if (below_larger == 0) break;
      below_smaller = _mm512_mask_cmp_pd_mask(below_smaller, j, smaller, _CMP_LT_OQ);
      b_larger = truncate_where(b_larger, below_larger, j);
      b_smaller = truncate_where(b_smaller, below_smaller, j);
    }
    store_lanes(real, out_first + i, _mm512_cvttpd_epi32(first_smaller ? b_smaller : b_larger));
    store_lanes(real, out_second + i, _mm512_cvttpd_epi32(first_smaller ? b_larger : b_smaller));
  }
}

}  // namespace

const X86Kernels kAvx512Kernels = {
    &jump_back_hash_with<EightLaneJumpBackHash>,
    &jump_back_hash_pair_with<EightLaneJumpBackHash>,
    &jump_back_hash_independent_with<EightLaneIndependentStreams>,
    &jump_hash_wide,
    &jump_hash_pair_wide,
};
}  // namespace jumphash::batch_kernels
