// naive_matmul.cu - a hand-written, deliberately simple c = a * b^T (bf16 in,
// f32 accumulate, bf16 out) for the runtime's GPU smoke test: it has the matmul
// example's signature, so the host examples and kiln-run --check can run before
// the compiler produces kernels. Persistent: each CTA walks T x T output tiles,
// so the manifest's "persistent" rule and a cluster launch are exercised too.
//
// Two entries make naive_matmul_variants.kiln.json's kernel variants:
// naive_matmul (16 x 16 tiles) and naive_matmul_8 (8 x 8 tiles, with the dims
// first, so each variant's parameter list is packed and checked on its own).
#include <cuda_bf16.h>

template <int T>
__device__ void matmulTiles(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                            __nv_bfloat16 *c, int M, int N, int K) {
  const int tilesN = (N + T - 1) / T, tiles = ((M + T - 1) / T) * tilesN;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    int m = (t / tilesN) * T + threadIdx.y, n = (t % tilesN) * T + threadIdx.x;
    if (m >= M || n >= N)
      continue;
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
      acc += __bfloat162float(a[(long long)m * K + k]) *
             __bfloat162float(b[(long long)n * K + k]);
    c[(long long)m * N + n] = __float2bfloat16(acc);
  }
}

extern "C" __global__ void __launch_bounds__(256)
    naive_matmul(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                 __nv_bfloat16 *c, int M, int N, int K) {
  matmulTiles<16>(a, b, c, M, N, K);
}

extern "C" __global__ void __launch_bounds__(64)
    naive_matmul_8(int M, int N, int K, const __nv_bfloat16 *a,
                   const __nv_bfloat16 *b, __nv_bfloat16 *c) {
  matmulTiles<8>(a, b, c, M, N, K);
}
