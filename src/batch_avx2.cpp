// The x86 batch kernels compiled for AVX2 (this file has -mavx2; see
// batch_x86.hpp). batch.cpp calls them only on CPUs with AVX2.
#include "batch_x86.hpp"

namespace jumphash::batch_kernels {
const X86Kernels kAvx2Kernels = kKernelsHere;
}  // namespace jumphash::batch_kernels
