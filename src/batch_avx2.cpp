// The x86 batch kernels compiled for AVX2 (this file has -mavx2; see
// batch_x86.hpp). batch.cpp calls them only on CPUs with AVX2. JumpHash's
// two are built here only, and the AVX-512 table lists them too.
#include "batch_x86.hpp"

namespace jumphash::batch_kernels {
void jump_hash_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t n,
                    std::int32_t* out) {
  jump_hash(keys, count, n, out);
}

void jump_hash_pair_avx2(const std::uint64_t* keys, std::size_t count, std::int32_t first,
                         std::int32_t second, std::int32_t* out_first, std::int32_t* out_second) {
  jump_hash_pair(keys, count, first, second, out_first, out_second);
}

const X86Kernels kAvx2Kernels = kKernelsHere;
}  // namespace jumphash::batch_kernels
