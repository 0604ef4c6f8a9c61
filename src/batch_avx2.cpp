// The AVX2 batch kernels (see batch_kernels.hpp): four keys a vector,
// bit-identical to the scalar functions in include/jumphash/algorithms/.
// This file is compiled with -mavx2, and batch.cpp calls it only on CPUs
// with AVX2 (AVX-512 CPUs run batch_avx512.cpp's). Everything here but the
// table has internal linkage.
//
// Nothing from the public headers is used here, on purpose: an inline
// function compiled in this file could be the copy the linker keeps for
// the whole program, with AVX2 instructions in it. SplitMix64's constants
// are restated in batch_kernels.hpp (from Steele, Lea & Flood, "Fast
// splittable pseudorandom number generators"), and the tests compare every
// kernel with the scalar functions.
#include "batch_x86_shared.hpp"

#if !defined(__AVX2__)
#error "batch_avx2.cpp must be compiled with -mavx2"
#endif

#include <immintrin.h>

namespace jumphash::batch_kernels {
namespace {

inline __m256i set1(std::uint64_t value) {
  return _mm256_set1_epi64x(static_cast<long long>(value));
}

/// a * c (mod 2^64) in each lane. AVX2 multiplies only 32 x 32 -> 64 bits
/// (_mm256_mul_epu32), so a*c = lo(a)lo(c) + ((hi(a)lo(c) + lo(a)hi(c)) << 32).
/// `c` holds the constant, `c_high` the constant >> 32.
inline __m256i multiply(__m256i a, __m256i c, __m256i c_high) {
  const __m256i low = _mm256_mul_epu32(a, c);
  const __m256i cross =
      _mm256_add_epi64(_mm256_mul_epu32(_mm256_srli_epi64(a, 32), c), _mm256_mul_epu32(a, c_high));
  return _mm256_add_epi64(low, _mm256_slli_epi64(cross, 32));
}

/// a * c (mod 2^64) in each lane, for lanes a below 2^32: multiply()
/// without the high half of a (one 32-bit multiply fewer).
inline __m256i multiply_small(__m256i a, __m256i c, __m256i c_high) {
  return _mm256_add_epi64(_mm256_mul_epu32(a, c),
                          _mm256_slli_epi64(_mm256_mul_epu32(a, c_high), 32));
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

/// The highest set bit of each lane (lanes below 2^31), 0 for 0: the
/// double of x with its mantissa cleared is 2^floor(log2 x).
inline __m256i highest_bit(__m256i x) {
  const __m256d power =
      _mm256_and_pd(small_to_double(x), _mm256_castsi256_pd(set1(0xFFF0000000000000ULL)));
  return _mm256_xor_si256(
      _mm256_castpd_si256(_mm256_add_pd(power, _mm256_castsi256_pd(set1(kMagic52)))),
      set1(kMagic52));
}

/// The parity of each lane's low 32 bits, in the lane's sign bit (bit 63):
/// bit 4k of x ^ x>>1 ^ x>>2 ^ x>>3 is nibble k's parity, and multiplying
/// those bits by 0x11111111 sums them into bits 28..31 (no carries: at most 8).
inline __m256i parity_in_sign(__m256i x) {
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 1));
  x = _mm256_xor_si256(x, _mm256_srli_epi64(x, 2));
  const __m256i nibbles = set1(0x11111111ULL);
  return _mm256_slli_epi64(_mm256_mul_epu32(_mm256_and_si256(x, nibbles), nibbles), 35);
}

/// where ? if_set : if_clear, per lane (where is all ones or all zeros).
inline __m256i select(__m256i where, __m256i if_set, __m256i if_clear) {
  return _mm256_blendv_epi8(if_clear, if_set, where);
}

/// where ? if_set : if_clear, per lane, by the sign bit of `where` alone.
inline __m256i select_by_sign(__m256i where, __m256i if_set, __m256i if_clear) {
  return _mm256_castpd_si256(_mm256_blendv_pd(
      _mm256_castsi256_pd(if_clear), _mm256_castsi256_pd(if_set), _mm256_castsi256_pd(where)));
}

/// Bit k set when lane k's sign bit is.
inline unsigned lane_bits(__m256i mask) {
  return static_cast<unsigned>(_mm256_movemask_pd(_mm256_castsi256_pd(mask)));
}

/// For each 4-bit lane set, the _mm256_permutevar8x32_epi32 order that
/// moves those 64-bit lanes, in order, to the front.
struct PackOrders {
  alignas(32) std::int32_t order[16][8];
  constexpr PackOrders() : order{} {
    for (unsigned lanes = 0; lanes < 16; ++lanes) {
      unsigned front = 0;
      for (unsigned lane = 0; lane < 4; ++lane) {
        if ((lanes >> lane) & 1U) {
          order[lanes][2 * front] = static_cast<std::int32_t>(2 * lane);
          order[lanes][2 * front + 1] = static_cast<std::int32_t>(2 * lane + 1);
          ++front;
        }
      }
    }
  }
};
constexpr PackOrders kPackOrders;

inline __m256i pack_order(unsigned lanes) {
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(kPackOrders.order[lanes]));
}

/// Stores the lanes chosen by `order` (pack_order) to the front of `to`,
/// four lanes written: `to` must have room for four.
inline void store_packed(std::uint64_t* to, __m256i order, __m256i lanes) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(to), _mm256_permutevar8x32_epi32(lanes, order));
}

/// Stores the low 32 bits of the four lanes to out[0..3].
inline void store_low_halves(std::int32_t* out, __m256i lanes) {
  const __m256i packed =
      _mm256_permutevar8x32_epi32(lanes, _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm256_castsi256_si128(packed));
}

/// Vectors a kernel works on at once, one step at a time: each step runs
/// on all of them before the next, so that the CPU has kGroup independent
/// chains of work in flight. One vector's JumpBackHash lookup is a chain of
/// some 60 instructions, most waiting for the one before, and a step of
/// Jump Consistent Hash's walk waits on a multiply and a divide; worked on
/// one vector at a time, they left the vector units idle much of the time.
/// On this project's AMD EPYC (jumphash_batch_bench, 2026-12-06),
/// JumpBackHash at n = 128 took 1.93 ns a key one vector at a time, 1.75
/// two at a time, 1.49 four and 1.41-1.46 eight (16 vector registers hold
/// less than eight vectors' work, so some of it is spilled to the stack).
/// With four, n = 129 went from 3.5-3.6 ns to 2.6-3.5 (the draws four at a
/// time too), and jump from 12.4-12.9 ns at n = 128 to 6.6-7.2.
constexpr std::size_t kGroup = 4;

/// SplitMix64's output function on each vector of a group, a step at a time.
inline void splitmix64_mix(__m256i (&z)[kGroup]) {
  const __m256i mix1 = set1(kMix1), mix1_high = set1(kMix1 >> 32);
  const __m256i mix2 = set1(kMix2), mix2_high = set1(kMix2 >> 32);
  for (__m256i& lanes : z) lanes = _mm256_xor_si256(lanes, _mm256_srli_epi64(lanes, 30));
  for (__m256i& lanes : z) lanes = multiply(lanes, mix1, mix1_high);
  for (__m256i& lanes : z) lanes = _mm256_xor_si256(lanes, _mm256_srli_epi64(lanes, 27));
  for (__m256i& lanes : z) lanes = multiply(lanes, mix2, mix2_high);
  for (__m256i& lanes : z) lanes = _mm256_xor_si256(lanes, _mm256_srli_epi64(lanes, 31));
}

/// How many lanes of a group's vector `k` hold keys when the group's first
/// `keys` lanes do (the rest is padding): 0..4.
inline unsigned real_lanes_in(std::size_t keys, std::size_t k) {
  const std::size_t from = 4 * k;
  if (keys <= from) return 0;
  return keys - from >= 4 ? 4U : static_cast<unsigned>(keys - from);
}

/// Runs `pass(at, key, real, result)` over keys[begin, end) a group of
/// kGroup vectors at a time (`at`: the group's first key; real[k]: how many
/// lanes of vector k are keys, the last group being padded with zero keys)
/// and stores each key's results, the low halves of its lanes in
/// result[o][k], to out[o].
template <std::size_t kOutputs, class Pass>
inline void for_each_group(const std::uint64_t* keys, std::size_t begin, std::size_t end,
                           std::int32_t* const (&out)[kOutputs], Pass&& pass) {
  __m256i key[kGroup], result[kOutputs][kGroup];
  unsigned real[kGroup];
  std::size_t i = begin;
  for (; i + 4 * kGroup <= end; i += 4 * kGroup) {
    for (std::size_t k = 0; k < kGroup; ++k) {
      key[k] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys + i + 4 * k));
      real[k] = 4;
    }
    pass(i, key, real, result);
    for (std::size_t o = 0; o < kOutputs; ++o) {
      for (std::size_t k = 0; k < kGroup; ++k) store_low_halves(out[o] + i + 4 * k, result[o][k]);
    }
  }
  if (i == end) return;
  alignas(32) std::uint64_t padded[4 * kGroup] = {};
  for (std::size_t j = i; j < end; ++j) padded[j - i] = keys[j];
  for (std::size_t k = 0; k < kGroup; ++k) {
    key[k] = _mm256_load_si256(reinterpret_cast<const __m256i*>(padded + 4 * k));
    real[k] = real_lanes_in(end - i, k);
  }
  pass(i, key, real, result);
  for (std::size_t o = 0; o < kOutputs; ++o) {
    alignas(16) std::int32_t results[4 * kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) store_low_halves(results + 4 * k, result[o][k]);
    for (std::size_t j = i; j < end; ++j) out[o][j] = results[j - i];
  }
}

// JumpBackHash*: the two passes that batch_x86_shared.hpp describes, four
// keys a vector.

/// The vectors every lookup at bucket counts with bits(n - 1) = bits uses.
struct TopInterval {
  explicit TopInterval(unsigned bits)
      : q(std::uint64_t{1} << (bits - 1)),
        top(set1(q)),
        below_top(set1(q - 1)),
        draw_mask(set1((q << 1) - 1)) {}
  std::uint64_t q;
  __m256i top, below_top, draw_mask;
};

/// Keys of a slice rejected at one bucket count, each as one word: its
/// place in the slice (high 32 bits) and its fallback (low 32 bits), packed
/// to the front; 4 spare entries so the last vector can be loaded whole.
/// The generator state is not queued: every key in the queue has drawn as
/// many times as the others, so drain() recomputes it from the key. On Zen 3
/// (AMD EPYC, family 25, model 1; 2026-12-08) queueing it too, one more
/// permute and store per vector, made MOVED 1000 1001 over 10^8 keys on one
/// thread 685-792 ms against 587-652 without (docs/every-core.md).
/// The count of queued keys is the caller's local variable, passed in and
/// returned (as in batch_avx512.cpp): kept in this struct, it would live in
/// memory, since the vector stores may alias it, and each vector's stores
/// would wait to reload it.
struct RejectedKeys {
  static constexpr std::size_t kCapacity = kSliceKeys + 4;
  alignas(32) std::uint64_t place_and_fallback[kCapacity];

  /// Queues `lanes` (bit k: lane k) after the `size` keys queued; returns
  /// the new count.
  std::size_t add(std::size_t size, unsigned lanes, __m256i places_and_fallbacks) {
    store_packed(place_and_fallback + size, pack_order(lanes), places_and_fallbacks);
    return size + static_cast<unsigned>(__builtin_popcount(lanes));
  }

  /// Draws for the `size` queued keys until none is left, writing
  /// out[place] (`keys` and `out` are the slice's first key's): whole groups
  /// of vectors at a time (kGroup), then the last few keys a vector at a
  /// time. A queued key's generator state after the first pass is
  /// (key ^ stream) + gamma, and each round draws once more from it.
  /// JumpBackHash takes two candidates from each SplitMix64 output (low and
  /// high 32 bits), the independent-streams variant one.
  template <int kCandidatesPerDraw>
  void drain(std::size_t size, const TopInterval& shape, __m256i buckets, __m256i stream,
             const std::uint64_t* keys, std::int32_t* out) {
    const __m256i gamma = set1(kGamma);
    const __m256i place_bits = set1(0xFFFFFFFF00000000ULL);
    __m256i advance = _mm256_add_epi64(gamma, gamma);  // (draws so far + 1) * gamma
    while (size != 0) {
      for (std::size_t j = size; j < size + 4; ++j) place_and_fallback[j] = 0;
      std::size_t kept = 0;
      // The `real` lanes of four queued keys after one more draw (`w`):
      // those done written to `out`, the others packed to the queue's front
      // again. In place, unconditionally: the keys being settled are loaded
      // already, and kept <= their index, so the four lanes written land
      // only on entries already loaded.
      auto settle = [&](__m256i packed, __m256i w, unsigned real) {
        const __m256i first = _mm256_and_si256(w, shape.draw_mask);
        __m256i fits = _mm256_cmpgt_epi64(buckets, first);
        __m256i chosen = first;
        if constexpr (kCandidatesPerDraw == 2) {
          // The first that fits (or the second, unused, when neither does).
          const __m256i second = _mm256_and_si256(_mm256_srli_epi64(w, 32), shape.draw_mask);
          chosen = select(fits, first, second);
          fits = _mm256_or_si256(fits, _mm256_cmpgt_epi64(buckets, second));
        }
        // A candidate below q means the fallback; either way the place
        // stays in the high half.
        const __m256i answer =
            select(_mm256_cmpgt_epi64(shape.top, chosen), packed,
                   _mm256_or_si256(_mm256_and_si256(packed, place_bits), chosen));
        const unsigned real_lanes = (1U << real) - 1U;
        const unsigned done = lane_bits(fits) & real_lanes;
        // Every real lane is written: a lane not done yet gets its final
        // value in a later round, after this one.
        alignas(32) std::uint64_t answers[4];
        _mm256_store_si256(reinterpret_cast<__m256i*>(answers), answer);
        for (unsigned lane = 0; lane < real; ++lane) {
          out[answers[lane] >> 32] = static_cast<std::int32_t>(answers[lane]);
        }
        kept = add(kept, real_lanes & ~done, packed);
      };
      // The next state of the four keys queued from place_and_fallback[from]
      // on. Four scalar loads: AVX2's gather (_mm256_i64gather_epi64) made
      // n = 129 4.67-4.78 ns a key against 3.43-4.02 on Zen 3.
      auto drawn_state = [&](std::size_t from) {
        const std::uint64_t* queued = place_and_fallback + from;
        auto key_of = [&](std::size_t k) { return static_cast<long long>(keys[queued[k] >> 32]); };
        const __m256i key = _mm256_setr_epi64x(key_of(0), key_of(1), key_of(2), key_of(3));
        return _mm256_add_epi64(_mm256_xor_si256(key, stream), advance);
      };
      auto load = [](const std::uint64_t* from) {
        return _mm256_load_si256(reinterpret_cast<const __m256i*>(from));
      };
      std::size_t j = 0;
      for (; j + 4 * kGroup <= size; j += 4 * kGroup) {
        __m256i packed[kGroup], w[kGroup];
        for (std::size_t k = 0; k < kGroup; ++k) {
          packed[k] = load(place_and_fallback + j + 4 * k);
          w[k] = drawn_state(j + 4 * k);
        }
        splitmix64_mix(w);
        for (std::size_t k = 0; k < kGroup; ++k) settle(packed[k], w[k], 4);
      }
      for (; j < size; j += 4) {
        const __m256i packed = load(place_and_fallback + j);
        settle(packed, splitmix64_mix(drawn_state(j)),
               size - j < 4 ? static_cast<unsigned>(size - j) : 4U);
      }
      size = kept;
      advance = _mm256_add_epi64(advance, gamma);
    }
  }
};

/// The lanes of `real_lanes` (bit k: lane k) whose top candidate is >= buckets.
inline unsigned rejected_lanes(__m256i buckets, __m256i candidate, __m256i in_top,
                               unsigned real_lanes) {
  return lane_bits(_mm256_andnot_si256(_mm256_cmpgt_epi64(buckets, candidate), in_top)) &
         real_lanes;
}

/// Each lane's place in a slice (`at`: the vector's first key's) in the
/// high 32 bits, with its fallback (below 2^31) in the low 32.
inline __m256i places_and(std::size_t at, __m256i fallbacks) {
  const __m256i lane_places =
      _mm256_setr_epi64x(0, std::int64_t{1} << 32, std::int64_t{2} << 32, std::int64_t{3} << 32);
  return _mm256_or_si256(_mm256_add_epi64(set1(static_cast<std::uint64_t>(at) << 32), lane_places),
                         fallbacks);
}

/// out[c][i] = jump_back_hash(keys[i], n[c]) for the kCounts bucket counts,
/// which share bits(n - 1) (n >= 2).
template <Rejections kRejections, std::size_t kCounts>
void jump_back_hash_at(const std::uint64_t* keys, std::size_t count,
                       const std::int32_t (&n)[kCounts], std::int32_t* const (&out)[kCounts]) {
  const TopInterval shape(bit_length_of_n_minus_1(n[0]));
  __m256i buckets[kCounts];
  for (std::size_t c = 0; c < kCounts; ++c) buckets[c] = set1(static_cast<std::uint64_t>(n[c]));
  const __m256i gamma = set1(kGamma), zero = _mm256_setzero_si256(), one = set1(1);
  RejectedKeys rejected[kCounts];
  std::size_t queued[kCounts] = {};  // keys in rejected[c], zero between slices
  std::size_t slice = 0;             // the first key of the slice being looked up

  // The lookups of a group of keys (kGroup vectors, the first at `at`;
  // real[k] lanes of vector k are keys, the rest padding): each key's first
  // candidate or fallback into `result`, and the keys rejected at each count
  // queued.
  auto first_pass = [&](std::size_t at, const __m256i (&key)[kGroup],
                        const unsigned (&real)[kGroup], __m256i (&result)[kCounts][kGroup]) {
    __m256i state[kGroup], v[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) v[k] = state[k] = _mm256_add_epi64(key[k], gamma);
    splitmix64_mix(v);  // V0 = low 32 bits, V1 = high
    for (std::size_t k = 0; k < kGroup; ++k) {
      const __m256i v_high = _mm256_srli_epi64(v[k], 32);
      const __m256i u = _mm256_and_si256(_mm256_xor_si256(v[k], v_high), shape.draw_mask);
      const __m256i u_odd = parity_in_sign(u);
      const __m256i in_top = _mm256_cmpeq_epi64(_mm256_and_si256(u, shape.top), shape.top);
      // The next lower active index: highest bit h of u below q, and the
      // bucket h + (V_parity & (h - 1)), or 0 when there is none. Its
      // parity is u's without the top bit.
      const __m256i h = highest_bit(_mm256_and_si256(u, shape.below_top));
      const __m256i lower_word = select_by_sign(_mm256_xor_si256(u_odd, in_top), v_high, v[k]);
      const __m256i fallback = _mm256_andnot_si256(
          _mm256_cmpeq_epi64(h, zero),
          _mm256_add_epi64(h, _mm256_and_si256(lower_word, _mm256_sub_epi64(h, one))));
      // The top interval's first candidate.
      const __m256i top_word = select_by_sign(u_odd, v_high, v[k]);
      const __m256i candidate =
          _mm256_add_epi64(shape.top, _mm256_and_si256(top_word, shape.below_top));
      if constexpr (kRejections != Rejections::never) {
        const __m256i places_and_fallbacks = places_and(at - slice + 4 * k, fallback);
        for (std::size_t c = 0; c < kCounts; ++c) {
          const unsigned lanes =
              rejected_lanes(buckets[c], candidate, in_top, (1U << real[k]) - 1U);
          if (kRejections == Rejections::common || lanes != 0) {
            queued[c] = rejected[c].add(queued[c], lanes, places_and_fallbacks);
          }
        }
      } else {
        (void)at, (void)real;
      }
      for (std::size_t c = 0; c < kCounts; ++c) {
        result[c][k] = select_by_sign(in_top, candidate, fallback);
      }
    }
  };

  for (; slice < count; slice += kSliceKeys) {
    const std::size_t slice_end = slice + kSliceKeys < count ? slice + kSliceKeys : count;
    for_each_group(keys, slice, slice_end, out, first_pass);
    for (std::size_t c = 0; c < kCounts; ++c) {
      rejected[c].template drain<2>(queued[c], shape, buckets[c], zero, keys + slice,
                                    out[c] + slice);
      queued[c] = 0;
    }
  }
}

/// jump_back_hash_at for batch_x86_shared.hpp's entry points.
struct FourLaneJumpBackHash {
  template <Rejections kRejections, std::size_t kCounts>
  static void run(const std::uint64_t* keys, std::size_t count, const std::int32_t (&n)[kCounts],
                  std::int32_t* const (&out)[kCounts]) {
    jump_back_hash_at<kRejections>(keys, count, n, out);
  }
};

// JumpBackHash with independent streams (the article's jbh_indep). As above,
// only the top interval m = bits(n-1) - 1 can reject; its stream is
// key ^ ((m+1) * gamma) with the same m in every lane. Otherwise the answer
// is the next set bit m' of x below the top, whose first candidate, from
// stream key ^ ((m'+1) * gamma), always fits. So one SplitMix64 output
// decides each lane, from the top stream or the lower one: two outputs a
// key in all. A key the top interval rejects needs the lower one too, as
// its fallback: those vectors compute it and queue the key (as above).
template <Rejections kRejections>
void jump_back_hash_independent_when(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                                     std::int32_t* out) {
  const unsigned bits = bit_length_of_n_minus_1(n);
  const TopInterval shape(bits);
  const __m256i buckets = set1(static_cast<std::uint64_t>(n));
  const __m256i gamma = set1(kGamma), gamma_high = set1(kGamma >> 32);
  const __m256i top_stream = set1(static_cast<std::uint64_t>(bits) * kGamma);
  const __m256i zero = _mm256_setzero_si256(), one = set1(1);
  RejectedKeys rejected;
  std::size_t queued = 0;  // keys in `rejected`, zero between slices
  std::size_t slice = 0;   // the first key of the slice being looked up

  std::int32_t* const outs[1] = {out};

  // The lookups of a group of keys (as in jump_back_hash_at): each key's
  // answer, or for a key its top candidate rejects, the fallback (queued).
  auto first_pass = [&](std::size_t at, const __m256i (&key)[kGroup],
                        const unsigned (&real)[kGroup], __m256i (&result)[1][kGroup]) {
    __m256i x[kGroup], drawn[kGroup], in_top[kGroup], h[kGroup], lower_state[kGroup],
        top_state[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) x[k] = _mm256_add_epi64(key[k], gamma);
    splitmix64_mix(x);
    for (std::size_t k = 0; k < kGroup; ++k) {
      in_top[k] = _mm256_cmpeq_epi64(_mm256_and_si256(x[k], shape.top), shape.top);
      // h = 2^m' for the highest set bit m' of x below q; m' + 1 read from
      // h's exponent (garbage when h = 0, whose answer is 0 anyway).
      h[k] = highest_bit(_mm256_and_si256(x[k], shape.below_top));
      const __m256i exponent = _mm256_srli_epi64(_mm256_castpd_si256(small_to_double(h[k])), 52);
      const __m256i m_plus_1 = _mm256_sub_epi64(exponent, set1(1022));
      const __m256i lower_offset = multiply_small(m_plus_1, gamma, gamma_high);
      lower_state[k] = _mm256_add_epi64(_mm256_xor_si256(key[k], lower_offset), gamma);
      top_state[k] = _mm256_add_epi64(_mm256_xor_si256(key[k], top_stream), gamma);
      drawn[k] = select(in_top[k], top_state[k], lower_state[k]);
    }
    splitmix64_mix(drawn);
    // The fallback of a key its top candidate rejects: the lower stream's
    // first candidate. Where rejections are common, drawn for every key
    // (no branch); where rare, only for a vector with a rejected key.
    __m256i lower_drawn[kGroup];
    if constexpr (kRejections == Rejections::common) {
      for (std::size_t k = 0; k < kGroup; ++k) lower_drawn[k] = lower_state[k];
      splitmix64_mix(lower_drawn);
    }
    for (std::size_t k = 0; k < kGroup; ++k) {
      const __m256i no_lower = _mm256_cmpeq_epi64(h[k], zero);
      const __m256i below_h = _mm256_sub_epi64(h[k], one);
      const __m256i candidate =
          _mm256_add_epi64(shape.top, _mm256_and_si256(drawn[k], shape.below_top));
      const __m256i lower = _mm256_andnot_si256(
          no_lower, _mm256_add_epi64(h[k], _mm256_and_si256(drawn[k], below_h)));
      if constexpr (kRejections != Rejections::never) {
        const unsigned lanes = rejected_lanes(buckets, candidate, in_top[k], (1U << real[k]) - 1U);
        if (kRejections == Rejections::common || lanes != 0) {
          if constexpr (kRejections != Rejections::common) {
            lower_drawn[k] = splitmix64_mix(lower_state[k]);
          }
          const __m256i fallback = _mm256_andnot_si256(
              no_lower, _mm256_add_epi64(h[k], _mm256_and_si256(lower_drawn[k], below_h)));
          queued = rejected.add(queued, lanes, places_and(at - slice + 4 * k, fallback));
        }
      } else {
        (void)at, (void)real;
      }
      result[0][k] = select(in_top[k], candidate, lower);
    }
  };

  for (; slice < count; slice += kSliceKeys) {
    const std::size_t slice_end = slice + kSliceKeys < count ? slice + kSliceKeys : count;
    for_each_group(keys, slice, slice_end, outs, first_pass);
    rejected.template drain<1>(queued, shape, buckets, top_stream, keys + slice, out + slice);
    queued = 0;
  }
}

/// jump_back_hash_independent_when for batch_x86_shared.hpp's entry point.
struct FourLaneIndependentStreams {
  template <Rejections kRejections>
  static void run(const std::uint64_t* keys, std::size_t count, std::int32_t n, std::int32_t* out) {
    jump_back_hash_independent_when<kRejections>(keys, count, n, out);
  }
};

/// One step of a key's walk in Jump Consistent Hash (Lamping & Veach,
/// fig. 1): advances the LCG state `key` and returns
/// j = (b + 1) * (2^31 / ((key >> 33) + 1)), the paper's two IEEE operations
/// in its order.
inline __m256d next_jump(__m256i& key, __m256d b) {
  const __m256i one = set1(1);
  key = _mm256_add_epi64(multiply(key, set1(kLcgMultiplier), set1(kLcgMultiplier >> 32)), one);
  const __m256d x = small_to_double(_mm256_add_epi64(_mm256_srli_epi64(key, 33), one));
  return _mm256_mul_pd(_mm256_add_pd(b, _mm256_set1_pd(1.0)),
                       _mm256_div_pd(_mm256_set1_pd(2147483648.0), x));
}

// Jump Consistent Hash (Lamping & Veach, fig. 1) with the paper's double
// arithmetic: j = (b + 1) * (2^31 / ((key >> 33) + 1)), the same two IEEE
// operations in the same order as the scalar code. b and j are kept as
// doubles (exact below 2^53); j < n holds exactly when trunc(j) < n, so the
// loop test needs no conversion. Lanes stop independently (masked), and a
// group of vectors (kGroup) walks together until every lane has stopped:
// one step of a walk waits on the one before (a multiply, a divide), and
// walked one vector at a time, the vector units were mostly idle.
void jump_hash(const std::uint64_t* keys, std::size_t count, std::int32_t n, std::int32_t* out) {
  const __m256d buckets = _mm256_set1_pd(static_cast<double>(n));
  const __m256i magic = set1(kMagic52);
  auto walk = [&](std::size_t, const __m256i(&key)[kGroup], const unsigned(&)[kGroup],
                  __m256i(&result)[1][kGroup]) {
    __m256i state[kGroup];
    __m256d b[kGroup], active[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) {
      state[k] = key[k];
      b[k] = _mm256_setzero_pd();  // after the first b = j (j = 0 < n)
      active[k] = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
    }
    for (;;) {
      __m256d j[kGroup];
      for (std::size_t k = 0; k < kGroup; ++k) j[k] = next_jump(state[k], b[k]);
      __m256d any = _mm256_setzero_pd();
      for (std::size_t k = 0; k < kGroup; ++k) {
        active[k] = _mm256_and_pd(active[k], _mm256_cmp_pd(j[k], buckets, _CMP_LT_OQ));
        any = _mm256_or_pd(any, active[k]);
      }
      if (_mm256_testz_pd(any, any)) break;
      for (std::size_t k = 0; k < kGroup; ++k) {
        const __m256d step = _mm256_round_pd(j[k], _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        b[k] = _mm256_blendv_pd(b[k], step, active[k]);
      }
    }
    // b < n <= 2^31 - 1: back to integers via the exact 2^52 trick.
    for (std::size_t k = 0; k < kGroup; ++k) {
      result[0][k] = _mm256_xor_si256(
          _mm256_castpd_si256(_mm256_add_pd(b[k], _mm256_castsi256_pd(magic))), magic);
    }
  };
  std::int32_t* const outs[1] = {out};
  for_each_group(keys, 0, count, outs, walk);
}

// Jump Consistent Hash at two bucket counts, for a resize: j only grows
// along a key's walk, and the walk does not depend on n, so one walk up to
// the larger count passes the smaller one, whose answer is the last j below
// it (the walk it would take is this one, cut there).
void jump_hash_pair(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                    std::int32_t second, std::int32_t* out_first, std::int32_t* out_second) {
  const __m256i magic = set1(kMagic52);
  const bool first_smaller = first <= second;
  const __m256d smaller = _mm256_set1_pd(static_cast<double>(first_smaller ? first : second));
  const __m256d larger = _mm256_set1_pd(static_cast<double>(first_smaller ? second : first));
  const __m256d all = _mm256_castsi256_pd(_mm256_set1_epi64x(-1));
  auto to_buckets = [&](__m256d b) {  // b < n <= 2^31 - 1: the exact 2^52 trick
    return _mm256_xor_si256(_mm256_castpd_si256(_mm256_add_pd(b, _mm256_castsi256_pd(magic))),
                            magic);
  };
  // Each group's walks (as jump_hash): the smaller count's answers in
  // result[0], the larger's in result[1].
  auto walk = [&](std::size_t, const __m256i(&key)[kGroup], const unsigned(&)[kGroup],
                  __m256i(&result)[2][kGroup]) {
    __m256i state[kGroup];
    __m256d b_larger[kGroup], b_smaller[kGroup], below_larger[kGroup], below_smaller[kGroup];
    for (std::size_t k = 0; k < kGroup; ++k) {
      state[k] = key[k];
      b_larger[k] = b_smaller[k] = _mm256_setzero_pd();
      below_larger[k] = below_smaller[k] = all;
    }
    for (;;) {
      __m256d j[kGroup];
      for (std::size_t k = 0; k < kGroup; ++k) j[k] = next_jump(state[k], b_larger[k]);
      __m256d any = _mm256_setzero_pd();
      for (std::size_t k = 0; k < kGroup; ++k) {
        below_larger[k] = _mm256_and_pd(below_larger[k], _mm256_cmp_pd(j[k], larger, _CMP_LT_OQ));
        any = _mm256_or_pd(any, below_larger[k]);
      }
      if (_mm256_testz_pd(any, any)) break;
      for (std::size_t k = 0; k < kGroup; ++k) {
        below_smaller[k] =
            _mm256_and_pd(below_smaller[k], _mm256_cmp_pd(j[k], smaller, _CMP_LT_OQ));
        const __m256d step = _mm256_round_pd(j[k], _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        b_larger[k] = _mm256_blendv_pd(b_larger[k], step, below_larger[k]);
        b_smaller[k] = _mm256_blendv_pd(b_smaller[k], step, below_smaller[k]);
      }
    }
    for (std::size_t k = 0; k < kGroup; ++k) {
      result[0][k] = to_buckets(b_smaller[k]);
      result[1][k] = to_buckets(b_larger[k]);
    }
  };
  std::int32_t* const outs[2] = {first_smaller ? out_first : out_second,
                                 first_smaller ? out_second : out_first};
  for_each_group(keys, 0, count, outs, walk);
}

}  // namespace

const X86Kernels kAvx2Kernels = {
    &jump_back_hash_with<FourLaneJumpBackHash>,
    &jump_back_hash_pair_with<FourLaneJumpBackHash>,
    &jump_back_hash_independent_with<FourLaneIndependentStreams>,
    &jump_hash,
    &jump_hash_pair,
};
}  // namespace jumphash::batch_kernels
