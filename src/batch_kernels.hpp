// The SIMD kernels behind jumphash/batch.hpp, one set per instruction set.
// Private to src/: each set lives in its own translation unit compiled with
// its own flags (batch_avx2.cpp with -mavx2), so these declarations use only
// raw pointers: nothing inline from the public headers (or the standard
// library) is emitted there with instructions another CPU may lack.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jumphash::batch_kernels {

// Every kernel writes out[i] = <algorithm>(keys[i], n) for i in [0, count),
// bit-identical to the scalar function. Precondition: 1 <= n <= 2^31 - 1.

#if defined(JUMPHASH_HAVE_AVX2_BATCH)
/// AVX2 (4 keys a vector); call only when the CPU has AVX2.
void jump_back_hash_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                         std::int32_t* out);
/// out_first[i] = jump_back_hash(keys[i], first) and out_second[i] at
/// `second`, in one pass, when bits(first - 1) == bits(second - 1) and
/// both are >= 2; else returns false and writes nothing.
bool jump_back_hash_pair_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                              std::int32_t second, std::int32_t* out_first,
                              std::int32_t* out_second);
void jump_back_hash_independent_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                                     std::int32_t* out);
void jump_hash_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                    std::int32_t* out);
#endif

#if defined(JUMPHASH_HAVE_SIMD128_BATCH)
/// WebAssembly SIMD128 (2 keys a vector); batch_simd128.cpp, -msimd128.
/// No JumpBackHash kernel: there the scalar loop is faster (see that file).
void jump_back_hash_independent_simd128(const std::uint64_t* keys, std::size_t count,
                                        std::int32_t n, std::int32_t* out);
void jump_hash_simd128(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                       std::int32_t* out);
#endif

}  // namespace jumphash::batch_kernels
