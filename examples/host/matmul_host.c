/*===- matmul_host.c - Launch the Kiln matmul from C ----------------------===*
 *
 *   matmul_host_c [out/matmul.kiln.json] [M N K]
 *
 * Loads the compiled matmul (c[M,N] = a[M,K] * b[N,K]^T, bf16) through the C
 * API (kiln.h), launches it on random bf16 inputs, and compares the result
 * with a host reference. Exits 1 on a mismatch, 2 on a usage or setup error.
 *
 *===----------------------------------------------------------------------===*/

#include "runtime/kiln.h"

#include <cuda.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint16_t to_bf16(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1); /* round to nearest even */
  return (uint16_t)(u >> 16);
}

static float from_bf16(uint16_t h) {
  uint32_t u = (uint32_t)h << 16;
  float f;
  memcpy(&f, &u, 4);
  return f;
}

/* A small deterministic generator so the example needs nothing beyond libc. */
static float next_uniform(uint64_t *state) {
  *state = *state * 6364136223846793005ull + 1442695040888963407ull;
  return (float)((*state >> 40) & 0xFFFFFF) / 8388608.0f - 1.0f; /* [-1, 1) */
}

#define CK(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      const char *name_ = NULL;                                                \
      cuGetErrorName(r_, &name_);                                              \
      fprintf(stderr, "%s failed: %s\n", #call,                                \
              name_ ? name_ : "unknown CUDA error");                           \
      return 2;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "out/matmul.kiln.json";
  int64_t M = argc > 4 ? atoll(argv[2]) : 256;
  int64_t N = argc > 4 ? atoll(argv[3]) : 256;
  int64_t K = argc > 4 ? atoll(argv[4]) : 512;

  kiln_module *mod = NULL;
  if (kiln_module_load(path, &mod) != KILN_OK) {
    fprintf(stderr, "%s\n", kiln_last_error());
    return 2;
  }
  /* The manifest says what the kernel takes; check it is the matmul this
   * example feeds. */
  kiln_param_info pa, pb, pc;
  if (kiln_module_num_params(mod) != 3 ||
      kiln_module_param(mod, 0, &pa) != KILN_OK ||
      kiln_module_param(mod, 1, &pb) != KILN_OK ||
      kiln_module_param(mod, 2, &pc) != KILN_OK || pa.dtype != KILN_BF16 ||
      pb.dtype != KILN_BF16 || pc.role != KILN_ROLE_OUTPUT ||
      (pc.dtype != KILN_BF16 && pc.dtype != KILN_F32)) {
    fprintf(
        stderr,
        "%s is not the bf16 matmul (a[M,K], b[N,K] -> c[M,N] bf16 or f32)\n",
        path);
    kiln_module_free(mod);
    return 2;
  }
  size_t out_bytes = pc.dtype == KILN_F32 ? 4 : 2;

  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));

  uint16_t *a = malloc((size_t)(M * K) * 2), *b = malloc((size_t)(N * K) * 2);
  unsigned char *c = malloc((size_t)(M * N) * out_bytes);
  if (!a || !b || !c) {
    fprintf(stderr, "out of host memory\n");
    return 2;
  }
  uint64_t state = 42;
  for (int64_t i = 0; i < M * K; ++i)
    a[i] = to_bf16(next_uniform(&state));
  for (int64_t i = 0; i < N * K; ++i)
    b[i] = to_bf16(next_uniform(&state));

  CUdeviceptr da, db, dc;
  CK(cuMemAlloc(&da, (size_t)(M * K) * 2));
  CK(cuMemAlloc(&db, (size_t)(N * K) * 2));
  CK(cuMemAlloc(&dc, (size_t)(M * N) * out_bytes));
  CK(cuMemcpyHtoD(da, a, (size_t)(M * K) * 2));
  CK(cuMemcpyHtoD(db, b, (size_t)(N * K) * 2));
  CK(cuMemsetD8(dc, 0xFF,
                (size_t)(M * N) *
                    out_bytes)); /* NaN: missed elements show up */

  int64_t sa[2] = {M, K}, sb[2] = {N, K}, sc[2] = {M, N};
  kiln_tensor args[3] = {
      {(uint64_t)da, KILN_BF16, 2, sa, NULL},
      {(uint64_t)db, KILN_BF16, 2, sb, NULL},
      {(uint64_t)dc, pc.dtype, 2, sc, NULL},
  };
  if (kiln_launch(mod, args, 3, NULL) != KILN_OK) {
    fprintf(stderr, "%s\n", kiln_last_error());
    return 2;
  }
  CK(cuCtxSynchronize());
  CK(cuMemcpyDtoH(c, dc, (size_t)(M * N) * out_bytes));

  /* Reference in float; the tolerance allows bf16 output rounding and another
   * summation order. */
  double max_err = 0;
  long long bad = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float ref = 0, mag = 0, got;
      for (int64_t k = 0; k < K; ++k) {
        float p = from_bf16(a[i * K + k]) * from_bf16(b[j * K + k]);
        ref += p;
        mag += fabsf(p);
      }
      if (pc.dtype == KILN_F32) {
        memcpy(&got, c + (i * N + j) * 4, 4);
      } else {
        uint16_t h;
        memcpy(&h, c + (i * N + j) * 2, 2);
        got = from_bf16(h);
      }
      double err = fabs((double)got - ref);
      double tol =
          (pc.dtype == KILN_F32 ? 1e-5 : 1.0 / 128) * fabs(ref) + 1e-3 * mag;
      if (!(err <= max_err))
        max_err = isnan(err) ? INFINITY : err;
      if (!(err <= tol) && bad++ == 0)
        fprintf(stderr, "mismatch at c[%lld][%lld]: got %g, expected %g\n",
                (long long)i, (long long)j, got, ref);
    }
  printf("matmul %lldx%lldx%lld: max abs error %.3g, %lld mismatches: %s\n",
         (long long)M, (long long)N, (long long)K, max_err, bad,
         bad ? "FAIL" : "PASS");

  cuMemFree(da);
  cuMemFree(db);
  cuMemFree(dc);
  free(a);
  free(b);
  free(c);
  kiln_module_free(mod);
  cuDevicePrimaryCtxRelease(dev);
  return bad ? 1 : 0;
}
