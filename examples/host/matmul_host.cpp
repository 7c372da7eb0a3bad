//===- matmul_host.cpp - Launch the Kiln matmul from C++ ------------------===//
//
//   matmul_host_cpp [out/matmul.kiln.json] [M N K]
//
// Loads the compiled matmul (c[M,N] = a[M,K] * b[N,K]^T, bf16), launches it on
// random bf16 inputs through the C++ runtime API, and compares the result with
// a host reference. Exits 1 on a mismatch, 2 on a usage or setup error.
//
//===----------------------------------------------------------------------===//

#include "runtime/Runtime.h"

#include <cuda.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

static uint16_t toBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7FFF + ((u >> 16) & 1); // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}

static float fromBf16(uint16_t h) {
  uint32_t u = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

#define CK(call)                                                               \
  do {                                                                         \
    CUresult r_ = (call);                                                      \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::fprintf(stderr, "%s failed: %s\n", #call,                           \
                   kiln::cudaErrorText(r_).c_str());                           \
      return 2;                                                                \
    }                                                                          \
  } while (0)

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : "out/matmul.kiln.json";
  int64_t M = argc > 4 ? std::atoll(argv[2]) : 256;
  int64_t N = argc > 4 ? std::atoll(argv[3]) : 256;
  int64_t K = argc > 4 ? std::atoll(argv[4]) : 512;

  std::unique_ptr<kiln::Module> mod;
  kiln::Status s = kiln::Module::load(path, mod);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 2;
  }
  const kiln::Manifest &m = mod->manifest();
  if (m.params.size() != 3 || m.params[0].dtype != kiln::DType::BF16 ||
      m.params[1].dtype != kiln::DType::BF16 ||
      m.params[2].role != kiln::ParamRole::Output) {
    std::fprintf(
        stderr, "%s is not the bf16 matmul (a[M,K], b[N,K] -> c[M,N])\n", path);
    return 2;
  }
  kiln::DType outType = m.params[2].dtype;
  if (outType != kiln::DType::BF16 && outType != kiln::DType::F32) {
    std::fprintf(stderr, "this example reads bf16 or f32 outputs, not %s\n",
                 kiln::dtypeName(outType));
    return 2;
  }
  size_t outBytes = outType == kiln::DType::F32 ? 4 : 2;

  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));

  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1.f, 1.f);
  std::vector<uint16_t> a(M * K), b(N * K);
  for (auto &x : a)
    x = toBf16(dist(rng));
  for (auto &x : b)
    x = toBf16(dist(rng));

  CUdeviceptr da, db, dc;
  CK(cuMemAlloc(&da, a.size() * 2));
  CK(cuMemAlloc(&db, b.size() * 2));
  CK(cuMemAlloc(&dc, M * N * outBytes));
  CK(cuMemcpyHtoD(da, a.data(), a.size() * 2));
  CK(cuMemcpyHtoD(db, b.data(), b.size() * 2));
  CK(cuMemsetD8(dc, 0xFF,
                M * N * outBytes)); // NaN: elements the kernel misses show up

  s = mod->launch({kiln::Tensor::contiguous(da, kiln::DType::BF16, {M, K}),
                   kiln::Tensor::contiguous(db, kiln::DType::BF16, {N, K}),
                   kiln::Tensor::contiguous(dc, outType, {M, N})},
                  /*stream=*/nullptr);
  if (!s.ok()) {
    std::fprintf(stderr, "%s\n", s.message().c_str());
    return 2;
  }
  CK(cuCtxSynchronize());

  std::vector<uint8_t> c(M * N * outBytes);
  CK(cuMemcpyDtoH(c.data(), dc, c.size()));

  // Reference in float with the same bf16 inputs; the tolerance allows bf16
  // output rounding and a different fp32 summation order.
  double maxErr = 0;
  int64_t bad = 0;
  for (int64_t i = 0; i < M; ++i)
    for (int64_t j = 0; j < N; ++j) {
      float ref = 0, mag = 0;
      for (int64_t k = 0; k < K; ++k) {
        float p = fromBf16(a[i * K + k]) * fromBf16(b[j * K + k]);
        ref += p;
        mag += std::fabs(p);
      }
      float got;
      if (outType == kiln::DType::F32) {
        std::memcpy(&got, &c[(i * N + j) * 4], 4);
      } else {
        uint16_t h;
        std::memcpy(&h, &c[(i * N + j) * 2], 2);
        got = fromBf16(h);
      }
      double err = std::fabs(static_cast<double>(got) - ref);
      double tol =
          (outType == kiln::DType::F32 ? 1e-5 : 1.0 / 128) * std::fabs(ref) +
          1e-3 * mag;
      if (!(err <= maxErr))
        maxErr = std::isnan(err) ? INFINITY : err;
      if (!(err <= tol) && bad++ == 0)
        std::fprintf(stderr, "mismatch at c[%lld][%lld]: got %g, expected %g\n",
                     static_cast<long long>(i), static_cast<long long>(j), got,
                     ref);
    }
  std::printf(
      "matmul %lldx%lldx%lld: max abs error %.3g, %lld mismatches: %s\n",
      static_cast<long long>(M), static_cast<long long>(N),
      static_cast<long long>(K), maxErr, static_cast<long long>(bad),
      bad ? "FAIL" : "PASS");

  cuMemFree(da);
  cuMemFree(db);
  cuMemFree(dc);
  mod.reset();
  cuDevicePrimaryCtxRelease(dev);
  return bad ? 1 : 0;
}
