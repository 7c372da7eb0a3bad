// tma_copy.cu - a hand-written sm_90a kernel for the runtime's GPU smoke test
// (not compiler output). It exercises what every Kiln kernel relies on: a
// required tensor map read with TMA, an optional tensor map written with a TMA
// store when tma_ok says it was encoded and plain stores through the
// pointer/stride/dim arguments when it was not, and dynamic shared memory.
//
// c[M, K] = a[M, K], one 64 x 64 tile per CTA (grid = [cdiv(K, 64), cdiv(M,
// 64)], possibly rounded up to a cluster: CTAs past the tensor return at once).
#include <cuda.h>
#include <cuda_bf16.h>

#include <cstdint>

static __device__ __forceinline__ uint32_t smemAddress(const void *p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

extern "C" __global__ void __launch_bounds__(128)
    tma_copy(const __grid_constant__ CUtensorMap mapA,
             const __grid_constant__ CUtensorMap mapC, int tmaOkC,
             __nv_bfloat16 *c, long long cStride0, int M, int K) {
  extern __shared__ unsigned char smemRaw[];
  __shared__ __align__(8) uint64_t bar;
  unsigned char *tile = reinterpret_cast<unsigned char *>(
      (reinterpret_cast<uintptr_t>(smemRaw) + 1023) & ~uintptr_t(1023));
  const int k0 = blockIdx.x * 64, m0 = blockIdx.y * 64;
  if (k0 >= K || m0 >= M)
    return;

  if (threadIdx.x == 0) {
    asm volatile(
        "mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smemAddress(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     smemAddress(&bar)),
                 "r"(64 * 64 * 2)
                 : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes"
                 " [%0], [%1, {%2, %3}], [%4];" ::"r"(smemAddress(tile)),
                 "l"(&mapA), "r"(k0), "r"(m0), "r"(smemAddress(&bar))
                 : "memory");
  }
  asm volatile("{\n .reg .pred done;\n WAIT_%=:\n"
               " mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n"
               " @!done bra WAIT_%=;\n}" ::"r"(smemAddress(&bar))
               : "memory");

  if (tmaOkC) {
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, "
                   "{%1, %2}], [%3];" ::"l"(&mapC),
                   "r"(k0), "r"(m0), "r"(smemAddress(tile))
                   : "memory");
      asm volatile("cp.async.bulk.commit_group;" ::: "memory");
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    }
  } else {
    const __nv_bfloat16 *t = reinterpret_cast<const __nv_bfloat16 *>(tile);
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
      int m = m0 + i / 64, k = k0 + i % 64;
      if (m < M && k < K)
        c[m * cStride0 + k] = t[i];
    }
  }
}
