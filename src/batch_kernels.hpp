// The SIMD kernels behind jumphash/batch.hpp, one set per instruction set.
// Private to src/: each set lives in its own translation unit compiled with
// its own flags (batch_avx2.cpp with -mavx2, batch_avx512.cpp with AVX-512
// too, batch_simd128.cpp with -msimd128), so these declarations use only
// raw pointers: nothing inline from the public headers (or the standard
// library) is emitted there with instructions another CPU may lack.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jumphash::batch_kernels {

// The constants both kernel files need, restated here rather than taken from
// the public headers (see above); the tests compare every kernel with the
// scalar functions, so a wrong digit fails them.
inline constexpr std::uint64_t kGamma = 0x9E3779B97F4A7C15ULL;  // SplitMix64 (Steele, Lea & Flood,
                                                                // "Fast splittable pseudorandom
                                                                // number generators")
inline constexpr std::uint64_t kMix1 = 0xBF58476D1CE4E5B9ULL;   // its output function (Mix13)
inline constexpr std::uint64_t kMix2 = 0x94D049BB133111EBULL;
inline constexpr std::uint64_t kLcgMultiplier = 2862933555777941757ULL;  // Lamping & Veach, fig. 1
inline constexpr std::uint64_t kMagic52 = 0x4330000000000000ULL;  // the bits of 2^52 as a double

// Every kernel writes out[i] = <algorithm>(keys[i], n) for i in [0, count),
// bit-identical to the scalar function. Precondition: 1 <= n <= 2^31 - 1.

#if defined(JUMPHASH_HAVE_AVX2_BATCH)
/// The x86 kernels (batch_avx2.cpp, batch_avx512.cpp), one table per
/// instruction set; call one only when the CPU has that set.
struct X86Kernels {
  void (*jump_back_hash)(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                         std::int32_t* out);
  /// out_first[i] = jump_back_hash(keys[i], first) and out_second[i] at
  /// `second`, in one pass, when bits(first - 1) == bits(second - 1) and
  /// both are >= 2; else returns false and writes nothing.
  bool (*jump_back_hash_pair)(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                              std::int32_t second, std::int32_t* out_first,
                              std::int32_t* out_second);
  void (*jump_back_hash_independent)(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                                     std::int32_t* out);
  void (*jump_hash)(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                    std::int32_t* out);
  /// out_first[i] = jump_hash(keys[i], first) and out_second[i] at `second`, in one walk.
  void (*jump_hash_pair)(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                         std::int32_t second, std::int32_t* out_first, std::int32_t* out_second);
};

/// batch_avx2.cpp (-mavx2): AVX2.
extern const X86Kernels kAvx2Kernels;
/// batch_avx512.cpp: AVX-512 F, VL, DQ and CD, 512-bit vectors.
extern const X86Kernels kAvx512Kernels;
#endif

#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
/// WebAssembly SIMD128 (2 keys a vector); batch_simd128.cpp, -msimd128.
void jump_back_hash_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                            std::int32_t* out);
void jump_back_hash_independent_simd128(const std::uint64_t* keys, std::size_t count,
                                        std::int32_t n, std::int32_t* out);
void jump_hash_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                       std::int32_t* out);
void jump_hash_pair_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                            std::int32_t second, std::int32_t* out_first, std::int32_t* out_second);
#endif

}  // namespace jumphash::batch_kernels
