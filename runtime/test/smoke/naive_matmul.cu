// naive_matmul.cu - a hand-written, deliberately simple c = a * b^T (bf16 in,
// f32 accumulate, bf16 out) for the runtime's GPU smoke test: it has the matmul
// example's signature, so the host examples and kiln-run --check can run before
// the compiler produces kernels. Persistent: each CTA walks 16 x 16 output
// tiles, so the manifest's "persistent" rule and a cluster launch are exercised
// too.
#include <cuda_bf16.h>

extern "C" __global__ void __launch_bounds__(256)
    naive_matmul(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                 __nv_bfloat16 *c, int M, int N, int K) {
  const int tilesN = (N + 15) / 16, tiles = ((M + 15) / 16) * tilesN;
  for (int t = blockIdx.x; t < tiles; t += gridDim.x) {
    int m = (t / tilesN) * 16 + threadIdx.y,
        n = (t % tilesN) * 16 + threadIdx.x;
    if (m >= M || n >= N)
      continue;
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
      acc += __bfloat162float(a[(long long)m * K + k]) *
             __bfloat162float(b[(long long)n * K + k]);
    c[(long long)m * N + n] = __float2bfloat16(acc);
  }
}
