// The x86 batch kernels compiled for AVX-512 F, VL, DQ and CD (this file
// has -mavx2 -mavx512f -mavx512vl -mavx512dq -mavx512cd; see batch_x86.hpp):
// still 256-bit vectors, with native 64-bit multiplies and leading-zero
// counts. batch.cpp calls them only on CPUs with all four.
#include "batch_x86.hpp"

#if !JUMPHASH_X86_AVX512
#error "batch_avx512.cpp must be compiled with -mavx512f -mavx512vl -mavx512dq -mavx512cd"
#endif

namespace jumphash::batch_kernels {
const X86Kernels kAvx512Kernels = kKernelsHere;
}  // namespace jumphash::batch_kernels
