//===- kiln-run.cpp - Launch, time and check a Kiln kernel ----------------===//
//
//   kiln-run out/matmul.kiln.json --dims M=1024,N=1024,K=512 [--check]
//
// Allocates every param with the shapes the dims give, fills inputs with random
// values that are exact in their dtype (scales with powers of two near 1, i32
// inputs with --values or zeros), poisons outputs with 0xFF bytes (NaN for
// every float dtype), launches through the C++ runtime, and times --iters
// launches with CUDA events. --check compares the outputs of the first launch
// with a host reference in double precision; it knows only matmul (c = a * b^T)
// and SwiGLU (y = silu(x * w1^T) * (x * w2^T)), with optional block scales.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"
#include "Options.h"
#include "Reference.h"

#include "runtime/CudaDriver.h"
#include "runtime/Runtime.h"

#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <random>
#include <string>
#include <vector>

using namespace kiln;
using namespace kiln::tools;

namespace {

/// Calls `call` (a driver function and its arguments, `cuInit(0)`) through the
/// driver table `cu` in scope and exits on failure, naming the call.
#define CK(call)                                                               \
  do {                                                                         \
    CUresult r_ = cu->call;                                                    \
    if (r_ != CUDA_SUCCESS) {                                                  \
      std::fprintf(stderr, "kiln-run: %s failed: %s\n", #call,                 \
                   cudaErrorText(r_).c_str());                                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

/// One allocated param.
struct Buffer {
  std::vector<int64_t> shape;
  int64_t numel = 0;
  size_t bytes = 0;
  CUdeviceptr ptr = 0;
  std::vector<uint8_t> host;
};

/// Which params a matmul-family reference reads, or why the kernel is not one.
struct RefPlan {
  RefKind kind = RefKind::Matmul;
  std::vector<int> inputs; // a, b (matmul) or x, w1, w2 (swiglu)
  int output = -1;
  int lseOutput = -1; // attention's optional log-sum-exp [.., S]
  /// A grouped product's offsets param (mixture of experts): the weights
  /// are [E, N, K], rows offsets[e] .. offsets[e+1] of x multiply w[e].
  int offsets = -1;
};

bool sameExpr(const Param &p, int axis, const Param &q, int qaxis) {
  return p.shape[axis] == q.shape[qaxis];
}

/// The attention reference's params: q [.., S, D], k [.., T, D], v [.., T,
/// Dv] -> o [.., S, Dv] of one rank from 3 to 5, k's and v's leading axes
/// q's or 1 (one key/value head for several query heads), and optionally a
/// log-sum-exp output [.., S] (before or after o).
bool planAttention(const Manifest &m, const std::vector<int> &ins,
                   const std::vector<int> &outs, bool causal, RefPlan &out,
                   std::string &why) {
  why = "kernel '" + m.kernel +
        "' does not have the attention signature (q[.., S, D], k[.., T, D], "
        "v[.., T, Dv] -> o[.., S, Dv] and optionally lse[.., S], rank 3 to 5, "
        "k's and v's leading axes q's or 1)";
  if (ins.size() != 3 || outs.empty() || outs.size() > 2)
    return false;
  size_t r = m.params[ins[0]].shape.size();
  // o has q's rank, the log-sum-exp one less.
  int oIndex = outs[0], lseIndex = -1;
  if (outs.size() == 2) {
    lseIndex = outs[1];
    if (m.params[oIndex].shape.size() + 1 == r)
      std::swap(oIndex, lseIndex);
    const Param &lse = m.params[lseIndex];
    const Param &q0 = m.params[ins[0]];
    if (lse.shape.size() + 1 != r)
      return false;
    for (size_t a = 0; a + 1 < r; ++a)
      if (!(lse.shape[a] == q0.shape[a]))
        return false;
  }
  const Param &q = m.params[ins[0]], &k = m.params[ins[1]],
              &v = m.params[ins[2]], &o = m.params[oIndex];
  if (r < 3 || r > 5 || k.shape.size() != r || v.shape.size() != r ||
      o.shape.size() != r)
    return false;
  if (!(q.shape[r - 1] == k.shape[r - 1]) ||
      !(k.shape[r - 2] == v.shape[r - 2]) ||
      !(o.shape[r - 2] == q.shape[r - 2]) ||
      !(o.shape[r - 1] == v.shape[r - 1]))
    return false;
  DimExpr one = DimExpr::constant(1);
  for (size_t a = 0; a + 2 < r; ++a)
    if (!(o.shape[a] == q.shape[a]) ||
        !(k.shape[a] == q.shape[a] || k.shape[a] == one) ||
        !(v.shape[a] == k.shape[a]))
      return false;
  out.kind = causal ? RefKind::AttentionCausal : RefKind::Attention;
  out.inputs = ins;
  out.output = oIndex;
  out.lseOutput = lseIndex;
  why.clear();
  return true;
}

/// A grouped product's params (`--ref grouped` or `grouped-swiglu`): x[T, K],
/// one or two weights [E, N, K] and offsets i32[E+1] -> y[T, N], unscaled.
bool planGrouped(const Manifest &m, const std::vector<int> &ins,
                 const std::vector<int> &outs, bool swiglu, RefPlan &out,
                 std::string &why) {
  why = "kernel '" + m.kernel + "' does not have the grouped" +
        (swiglu ? "-swiglu" : "") + " signature (x[T,K], " +
        (swiglu ? "w1[E,N,K], w2[E,N,K]" : "w[E,N,K]") +
        ", offsets[E+1] -> y[T,N], no block scales)";
  size_t weights = swiglu ? 2 : 1;
  if (ins.size() != weights + 2 || outs.size() != 1)
    return false;
  for (const Param &p : m.params)
    if (p.role == ParamRole::Scale)
      return false;
  const Param &x = m.params[ins[0]], &o = m.params[ins.back()],
              &y = m.params[outs[0]];
  if (x.shape.size() != 2 || y.shape.size() != 2 || o.shape.size() != 1 ||
      o.dtype != DType::I32 || !(y.shape[0] == x.shape[0]))
    return false;
  for (size_t j = 1; j <= weights; ++j) {
    const Param &w = m.params[ins[j]];
    if (w.shape.size() != 3 || !(w.shape[2] == x.shape[1]) ||
        !(w.shape[1] == y.shape[1]))
      return false;
  }
  out.kind = swiglu ? RefKind::Swiglu : RefKind::Matmul;
  out.inputs.assign(ins.begin(), ins.end() - 1);
  out.offsets = ins.back();
  out.output = outs[0];
  why.clear();
  return true;
}

bool planReference(const Manifest &m, const std::string &requested,
                   RefPlan &out, std::string &why) {
  std::vector<int> ins, outs;
  for (size_t i = 0; i < m.params.size(); ++i) {
    if (m.params[i].role == ParamRole::Input)
      ins.push_back(static_cast<int>(i));
    else if (m.params[i].role == ParamRole::Output)
      outs.push_back(static_cast<int>(i));
  }
  auto rank2 = [&](int i) { return m.params[i].shape.size() == 2; };
  auto matches = [&](size_t nIn) {
    if (ins.size() != nIn || outs.size() != 1)
      return false;
    for (int i : ins)
      if (!rank2(i))
        return false;
    const Param &a = m.params[ins[0]], &c = m.params[outs[0]];
    if (!rank2(outs[0]) || !sameExpr(c, 0, a, 0))
      return false;
    for (size_t j = 1; j < nIn; ++j) {
      const Param &b = m.params[ins[j]];
      if (!sameExpr(b, 1, a, 1) || !sameExpr(c, 1, b, 0))
        return false;
    }
    return true;
  };
  if (requested == "attention" || requested == "attention-causal")
    return planAttention(m, ins, outs, requested == "attention-causal", out,
                         why);
  // A grouped kernel (its manifest lists the offsets it walks) is checked
  // as one, per group.
  if (requested == "grouped" || requested == "grouped-swiglu" ||
      (requested.empty() && !m.segments.empty()))
    return planGrouped(m, ins, outs,
                       requested == "grouped-swiglu" ||
                           (requested.empty() &&
                            m.kernel.find("swiglu") != std::string::npos),
                       out, why);
  std::string kind = requested;
  if (kind.empty())
    kind = m.kernel.find("swiglu") != std::string::npos && matches(3)
               ? "swiglu"
               : "matmul";
  out.kind = kind == "swiglu" ? RefKind::Swiglu : RefKind::Matmul;
  if (!matches(kind == "swiglu" ? 3 : 2)) {
    why = "kernel '" + m.kernel + "' does not have the " + kind +
          " signature (" +
          (kind == "swiglu" ? "x[M,K], w1[N,K], w2[N,K] -> y[M,N]"
                            : "a[M,K], b[N,K] -> c[M,N]") +
          ", plus optional scales); kiln-run --check knows only matmul, "
          "swiglu, grouped (mixture of experts) and, with --ref "
          "attention|attention-causal, attention";
    return false;
  }
  out.inputs = ins;
  out.output = outs[0];
  return true;
}

/// kiln-run --check for a grouped product (mixture of experts), on the output
/// the caller read back to the host: per group, sampled rows of x times that group's
/// weights (rows clipped to [0, T), a decreasing pair an empty group, as
/// the kernel reads them); rows of no group are not checked. Prints the
/// result; false on a mismatch.
bool checkGroupedOutput(const Manifest &m, const RefPlan &rp,
                        std::vector<Buffer> &bufs, int64_t checkWork) {
  const Buffer &ob = bufs[rp.output];
  const Buffer &xb = bufs[rp.inputs[0]];
  int64_t T = xb.shape[0], K = xb.shape[1], N = ob.shape[1];
  Operand x = dequantize(m.params[rp.inputs[0]].dtype, xb.host.data(), T, K,
                         nullptr);
  std::vector<int32_t> offsets(bufs[rp.offsets].shape[0]);
  std::memcpy(offsets.data(), bufs[rp.offsets].host.data(),
              offsets.size() * sizeof(int32_t));
  int64_t groups = static_cast<int64_t>(offsets.size()) - 1;
  CheckStats total;
  int64_t rowsInGroups = 0;
  for (int64_t e = 0; e < groups; ++e) {
    int64_t begin = std::min<int64_t>(std::max(offsets[e], 0), T);
    int64_t end = std::min<int64_t>(
        std::max<int64_t>(std::max(offsets[e + 1], 0), begin), T);
    if (end <= begin)
      continue;
    rowsInGroups += end - begin;
    std::vector<Operand> weights;
    for (size_t j = 1; j < rp.inputs.size(); ++j) {
      const Param &w = m.params[rp.inputs[j]];
      size_t matrixBytes = static_cast<size_t>(N * K) * dtypeBits(w.dtype) / 8;
      weights.push_back(dequantize(
          w.dtype, bufs[rp.inputs[j]].host.data() + e * matrixBytes, N, K,
          nullptr));
    }
    std::vector<int64_t> rows =
        sampleRows(end - begin, N, K, std::max<int64_t>(checkWork / groups, 1));
    for (int64_t &r : rows)
      r += begin;
    CheckStats st = checkOutput(
        rp.kind, x, weights[0], weights.size() > 1 ? &weights[1] : nullptr,
        m.params[rp.output].dtype, ob.host.data(), rows);
    if (st.mismatches && !total.mismatches)
      total.firstBad = st.firstBad + " (group " + std::to_string(e) + ")";
    total.rowsChecked += st.rowsChecked;
    total.cols = st.cols;
    total.mismatches += st.mismatches;
    total.nans += st.nans;
    total.maxAbsErr = std::max(total.maxAbsErr, st.maxAbsErr);
    total.maxRatio = std::max(total.maxRatio, st.maxRatio);
  }
  std::printf("check (grouped%s, per group: %s, host double reference): "
              "%lld of %lld rows in %lld groups x %lld cols, max abs err %.3g, "
              "max err/tolerance %.3g, %lld NaN, %lld mismatches: %s\n",
              rp.kind == RefKind::Swiglu ? " swiglu" : "",
              rp.kind == RefKind::Swiglu ? "y = silu(x * w1[e]^T) * (x * w2[e]^T)"
                                         : "y = x * w[e]^T",
              static_cast<long long>(total.rowsChecked),
              static_cast<long long>(rowsInGroups),
              static_cast<long long>(groups), static_cast<long long>(N),
              total.maxAbsErr, total.maxRatio,
              static_cast<long long>(total.nans),
              static_cast<long long>(total.mismatches),
              total.mismatches || total.rowsChecked == 0 ? "FAIL" : "PASS");
  if (total.rowsChecked == 0)
    std::printf("no row belongs to a group: set the offsets with --values\n");
  if (total.mismatches)
    std::printf("first mismatch at %s\n", total.firstBad.c_str());
  return total.mismatches == 0 && total.rowsChecked > 0;
}

/// kiln-run --check for attention, on the output read back to the host:
/// checks sampled query rows against the host reference and prints the
/// result; false on a mismatch.
bool checkAttentionOutput(const Manifest &m, const RefPlan &rp,
                          std::vector<Buffer> &bufs, int64_t checkWork) {
  const Buffer &qb = bufs[rp.inputs[0]], &kb = bufs[rp.inputs[1]],
               &vb = bufs[rp.inputs[2]];
  const Buffer &ob = bufs[rp.output];
  size_t r = qb.shape.size();
  AttentionShape shape;
  shape.S = qb.shape[r - 2];
  shape.D = qb.shape[r - 1];
  shape.T = kb.shape[r - 2];
  shape.Dv = vb.shape[r - 1];
  shape.causal = rp.kind == RefKind::AttentionCausal;
  // Entry b of q (its leading indices, innermost fastest) reads the key/value
  // entry with index 0 along k's size-1 axes.
  shape.entries = 1;
  int64_t kvEntries = 1;
  for (size_t a = 0; a + 2 < r; ++a) {
    shape.entries *= qb.shape[a];
    kvEntries *= kb.shape[a];
  }
  shape.kvEntry.resize(static_cast<size_t>(shape.entries));
  for (int64_t b = 0; b < shape.entries; ++b) {
    int64_t rest = b, kv = 0, stride = 1;
    for (size_t a = r - 2; a-- > 0;) {
      int64_t index = rest % qb.shape[a];
      rest /= qb.shape[a];
      kv += (kb.shape[a] == 1 ? 0 : index) * stride;
      stride *= kb.shape[a];
    }
    shape.kvEntry[static_cast<size_t>(b)] = kv;
  }
  const Param &qp = m.params[rp.inputs[0]], &kp = m.params[rp.inputs[1]],
              &vp = m.params[rp.inputs[2]];
  Operand q = dequantize(qp.dtype, qb.host.data(), shape.entries * shape.S,
                         shape.D, nullptr);
  Operand k = dequantize(kp.dtype, kb.host.data(), kvEntries * shape.T,
                         shape.D, nullptr);
  Operand v = dequantize(vp.dtype, vb.host.data(), kvEntries * shape.T,
                         shape.Dv, nullptr);
  int64_t M = shape.entries * shape.S;
  std::vector<int64_t> rows =
      sampleRows(M, shape.T, shape.D + shape.Dv, checkWork);
  const uint8_t *lse =
      rp.lseOutput >= 0 ? bufs[rp.lseOutput].host.data() : nullptr;
  DType lseType =
      rp.lseOutput >= 0 ? m.params[rp.lseOutput].dtype : DType::F32;
  CheckStats st = checkAttention(shape, q, k, v, vp.dtype,
                                 m.params[rp.output].dtype, ob.host.data(),
                                 rows, lse, lseType);
  std::printf("check (attention%s%s: o = softmax(q k^T / sqrt(%lld)) v, host "
              "double reference): %lld of %lld query rows x %lld cols, max "
              "abs err %.3g, max err/tolerance %.3g, %lld NaN, %lld "
              "mismatches: %s\n",
              shape.causal ? ", causal" : "",
              lse ? ", and its log-sum-exp" : "",
              static_cast<long long>(shape.D),
              static_cast<long long>(st.rowsChecked),
              static_cast<long long>(M), static_cast<long long>(st.cols),
              st.maxAbsErr, st.maxRatio, static_cast<long long>(st.nans),
              static_cast<long long>(st.mismatches),
              st.mismatches ? "FAIL" : "PASS");
  if (st.mismatches)
    std::printf("first mismatch at %s\n", st.firstBad.c_str());
  return st.mismatches == 0;
}

/// --host-time: the host time per call of issuing `iters` (> 0, parseArgs)
/// launches back to back, with launch() and with one prepared launch issued
/// again and again, in batches of at most 500 with the stream synchronized
/// between them, so the driver's launch queue never fills and the time is
/// the host's.
Status hostTime(Module &mod, const driver::CudaDriver &cu,
                const std::vector<Tensor> &args, CUstream stream, int iters) {
  PreparedLaunch prepared;
  Status s = mod.prepareLaunch(args.data(), args.size(), stream, prepared);
  if (!s.ok())
    return s;
  auto seconds = [&](auto &&issue) -> double {
    double total = 0;
    for (int done = 0; done < iters;) {
      int batch = std::min(iters - done, 500);
      auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < batch && s.ok(); ++i)
        s = issue();
      total += std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                             start)
                   .count();
      cu.cuStreamSynchronize(stream);
      done += batch;
    }
    return total;
  };
  double plain = seconds([&] { return mod.launch(args, stream); });
  double again = seconds([&] { return prepared.launch(stream); });
  if (!s.ok())
    return s;
  std::printf("host time: %.2f us per launch(), %.2f us per prepared launch "
              "(%d calls each)\n",
              1e6 * plain / iters, 1e6 * again / iters, iters);
  return Status();
}

/// All of kiln-run but the last-resort handler in main().
int run(int argc, char **argv) {
  Options opt;
  std::string error;
  switch (parseArgs(argc, argv, opt, error)) {
  case ParseResult::Help:
    std::fputs(kUsage, stdout);
    return 0;
  case ParseResult::Error:
    std::fprintf(stderr, "kiln-run: %s\n\n%s", error.c_str(), kUsage);
    return 2;
  case ParseResult::Run:
    break;
  }

  std::unique_ptr<Module> mod;
  Status s = Module::load(opt.manifest, mod);
  if (!s.ok()) {
    std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
    return 1;
  }
  const Manifest &m = mod->manifest();
  if (opt.checkOffsets)
    mod->setCheckOffsets(true);
  if (!opt.entry.empty()) {
    int pinned = -1;
    std::string entries;
    for (size_t k = 0; k < mod->numVariants(); ++k) {
      entries += (k ? ", " : "") + mod->variantEntry(k);
      if (mod->variantEntry(k) == opt.entry)
        pinned = static_cast<int>(k);
    }
    if (pinned < 0) {
      std::fprintf(stderr, "kiln-run: --entry %s: the kernel has no such entry "
                           "(entries: %s)\n",
                   opt.entry.c_str(), entries.c_str());
      return 2;
    }
    mod->pinVariant(pinned);
  }

  // Dims and shapes.
  std::vector<int64_t> dimValues;
  for (const std::string &d : m.dims) {
    auto it = opt.dims.find(d);
    if (it == opt.dims.end()) {
      std::fprintf(stderr,
                   "kiln-run: --dims has no value for %s (kernel '%s' has dims",
                   d.c_str(), m.kernel.c_str());
      for (const std::string &x : m.dims)
        std::fprintf(stderr, " %s", x.c_str());
      std::fprintf(stderr, ")\n");
      return 2;
    }
    dimValues.push_back(it->second);
  }
  for (const auto &kv : opt.dims)
    if (m.findDim(kv.first) < 0) {
      std::fprintf(stderr, "kiln-run: kernel '%s' has no dim %s\n",
                   m.kernel.c_str(), kv.first.c_str());
      return 2;
    }
  std::vector<Buffer> bufs(m.params.size());
  for (size_t i = 0; i < m.params.size(); ++i) {
    const Param &p = m.params[i];
    Buffer &b = bufs[i];
    for (const DimExpr &e : p.shape) {
      int64_t v = 0;
      int d = e.kind == DimExpr::Kind::Const ? -1 : m.findDim(e.name);
      if (!e.evaluate(d >= 0 ? dimValues[d] : 0, v) || v < 0) {
        std::fprintf(stderr,
                     "kiln-run: param '%s': %s is invalid for these dims\n",
                     p.name.c_str(), e.str().c_str());
        return 2;
      }
      b.shape.push_back(v);
    }
    // The product is checked: a wrapped element count would allocate a
    // buffer smaller than the kernel writes.
    if (!bufferSize(p.dtype, b.shape, b.numel, b.bytes)) {
      std::string shape;
      for (int64_t v : b.shape)
        shape += (shape.empty() ? "" : ", ") + std::to_string(v);
      std::fprintf(stderr,
                   "kiln-run: param '%s' of shape [%s] has more than 2^56 "
                   "elements; use smaller --dims\n",
                   p.name.c_str(), shape.c_str());
      return 2;
    }
  }

  // The rest of what the options say about this kernel, so that usage errors
  // come before the device too.
  for (const auto &kv : opt.values) {
    int i = m.findParam(kv.first);
    if (i < 0) {
      std::fprintf(stderr, "kiln-run: --values: kernel '%s' has no param %s\n",
                   m.kernel.c_str(), kv.first.c_str());
      return 2;
    }
    const Param &p = m.params[i];
    if (p.role != ParamRole::Output && p.dtype == DType::I32 &&
        static_cast<int64_t>(kv.second.size()) != bufs[i].numel) {
      std::fprintf(stderr,
                   "kiln-run: --values %s has %zu values; the param has %lld\n",
                   p.name.c_str(), kv.second.size(),
                   static_cast<long long>(bufs[i].numel));
      return 2;
    }
  }
  RefPlan rp;
  if (opt.check && !planReference(m, opt.ref, rp, error)) {
    std::fprintf(stderr, "kiln-run: --check: %s\n", error.c_str());
    return 2;
  }

  // Device. The driver is looked for only now, so --help, usage errors and a
  // refused manifest need none.
  const driver::CudaDriver *cu = nullptr;
  if (!(s = driver::cudaDriver(cu)).ok() ||
      !(s = driver::checkToolFunctions(*cu)).ok()) {
    std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
    return 1;
  }
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, opt.device));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  char devName[256] = {};
  cu->cuDeviceGetName(devName, sizeof devName - 1, dev);
  CUstream stream;
  CK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  s = mod->prepare(stream);
  if (!s.ok()) {
    std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
    return 1;
  }

  // Allocate and fill.
  std::mt19937_64 rng(opt.seed);
  std::vector<Tensor> args;
  for (size_t i = 0; i < m.params.size(); ++i) {
    const Param &p = m.params[i];
    Buffer &b = bufs[i];
    if (b.bytes > 0)
      CK(cuMemAlloc(&b.ptr, b.bytes));
    if (p.role == ParamRole::Output) {
      if (b.bytes > 0)
        CK(cuMemsetD8(b.ptr, 0xFF,
                      b.bytes)); // NaN in every float dtype: unwritten shows up
    } else if (p.dtype == DType::I32) {
      b.host.assign(b.bytes, 0);
      auto it = opt.values.find(p.name);
      if (it != opt.values.end()) {
        std::memcpy(b.host.data(), it->second.data(), b.bytes); // count checked
      } else {
        std::printf(
            "note: i32 input '%s' is all zeros (set it with --values %s=...)\n",
            p.name.c_str(), p.name.c_str());
      }
    } else {
      fillRandom(p.dtype, p.role == ParamRole::Scale ? Fill::Scale : Fill::Data,
                 b.host, b.numel, rng);
    }
    if (!b.host.empty())
      CK(cuMemcpyHtoD(b.ptr, b.host.data(), b.bytes));
    args.push_back(Tensor::contiguous(b.ptr, p.dtype, b.shape));
  }

  // First launch.
  LaunchReport report;
  s = mod->launch(args, stream, &report);
  if (!s.ok()) {
    std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
    return 1;
  }
  CUresult sync = cu->cuStreamSynchronize(stream);
  if (sync != CUDA_SUCCESS) {
    std::fprintf(stderr, "kiln-run: the kernel failed: %s\n",
                 cudaErrorText(sync).c_str());
    return 1;
  }
  std::printf("kernel %s (%s, entry %s) on device %d: %s\n", m.kernel.c_str(),
              m.chip.c_str(), report.entry.c_str(), report.device, devName);
  std::printf("dims:");
  for (size_t d = 0; d < m.dims.size(); ++d)
    std::printf(" %s=%lld", m.dims[d].c_str(),
                static_cast<long long>(dimValues[d]));
  std::printf("\n");
  if (!m.variants.empty()) {
    int sms = 0;
    cu->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                             dev);
    std::printf("variant %d of %zu: entry %s\n", report.variant,
                mod->numVariants(), report.entry.c_str());
    if (opt.verbose || opt.explain) {
      BoundDims bound;
      bound.values = dimValues;
      bound.sources.assign(dimValues.size(), DimSource());
      std::printf("variant choice (%d SMs):\n%s", sms,
                  describeVariantChoice(mod->plan(), bound, sms).c_str());
      if (mod->pinnedVariant() >= 0)
        std::printf("  pinned (--entry): variant %d '%s' runs\n",
                    mod->pinnedVariant(),
                    mod->variantEntry(mod->pinnedVariant()).c_str());
    }
  }
  if (!report.launched) {
    std::printf("grid is empty (zero tiles): nothing launched, nothing to "
                "check or time\n");
    return 0;
  }
  std::printf("grid [%u, %u, %u] block [%u, %u, %u] cluster [%u, %u, %u] "
              "dynamic smem %u B\n",
              report.grid.x, report.grid.y, report.grid.z, report.block[0],
              report.block[1], report.block[2], report.cluster[0],
              report.cluster[1], report.cluster[2], report.dynamicSmem);
  for (const std::string &why : report.skipped)
    std::printf("optional tensor map skipped: %s\n", why.c_str());
  if (opt.verbose)
    std::printf("kernel args:\n%s", report.kernelArgs.c_str());

  int exitCode = 0;
  bool attention =
      rp.kind == RefKind::Attention || rp.kind == RefKind::AttentionCausal;
  if (opt.check && attention) {
    for (int output : {rp.output, rp.lseOutput}) {
      if (output < 0)
        continue;
      Buffer &ob = bufs[output];
      ob.host.resize(ob.bytes);
      if (ob.bytes)
        CK(cuMemcpyDtoH(ob.host.data(), ob.ptr, ob.bytes));
    }
    if (!checkAttentionOutput(m, rp, bufs, opt.checkWork))
      exitCode = 1;
  } else if (opt.check && rp.offsets >= 0) {
    Buffer &ob = bufs[rp.output];
    ob.host.resize(ob.bytes);
    if (ob.bytes)
      CK(cuMemcpyDtoH(ob.host.data(), ob.ptr, ob.bytes));
    if (!checkGroupedOutput(m, rp, bufs, opt.checkWork))
      exitCode = 1;
  } else if (opt.check) {
    // Dequantize inputs (with their scales), read the output back.
    std::vector<Operand> ops;
    for (int i : rp.inputs) {
      const Param &p = m.params[i];
      ScaleView sv;
      const ScaleView *scale = nullptr;
      for (size_t j = 0; j < m.params.size(); ++j) {
        const Param &q = m.params[j];
        if (q.role != ParamRole::Scale || q.scaleOf != p.name)
          continue;
        sv.dtype = q.dtype;
        sv.bytes = bufs[j].host.data();
        sv.blockRows = q.block.size() >= 2 ? q.block[q.block.size() - 2] : 1;
        sv.blockCols = q.block.back();
        scale = &sv;
      }
      ops.push_back(dequantize(p.dtype, bufs[i].host.data(), bufs[i].shape[0],
                               bufs[i].shape[1], scale));
    }
    Buffer &ob = bufs[rp.output];
    ob.host.resize(ob.bytes);
    if (ob.bytes)
      CK(cuMemcpyDtoH(ob.host.data(), ob.ptr, ob.bytes));
    int64_t M = ob.shape[0], N = ob.shape[1], K = ops[0].cols;
    std::vector<int64_t> rows = sampleRows(M, N, K, opt.checkWork);
    CheckStats st =
        checkOutput(rp.kind, ops[0], ops[1], ops.size() > 2 ? &ops[2] : nullptr,
                    m.params[rp.output].dtype, ob.host.data(), rows);
    const char *what = rp.kind == RefKind::Swiglu
                           ? "swiglu: y = silu(x * w1^T) * (x * w2^T)"
                           : "matmul: c = a * b^T";
    std::printf("check (%s, host double reference): %lld of %lld rows x %lld "
                "cols, max abs err "
                "%.3g, max err/tolerance %.3g, %lld NaN, %lld mismatches: %s\n",
                what, static_cast<long long>(st.rowsChecked),
                static_cast<long long>(M), static_cast<long long>(st.cols),
                st.maxAbsErr, st.maxRatio, static_cast<long long>(st.nans),
                static_cast<long long>(st.mismatches),
                st.mismatches ? "FAIL" : "PASS");
    if (st.mismatches) {
      std::printf("first mismatch at %s\n", st.firstBad.c_str());
      exitCode = 1;
    }
  }

  if (opt.iters > 0) {
    for (int i = 0; i < opt.warmup; ++i)
      if (!(s = mod->launch(args, stream)).ok()) {
        std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
        return 1;
      }
    CUevent start, stop;
    CK(cuEventCreate(&start, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&stop, CU_EVENT_DEFAULT));
    CK(cuEventRecord(start, stream));
    for (int i = 0; i < opt.iters; ++i)
      if (!(s = mod->launch(args, stream)).ok()) {
        std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
        return 1;
      }
    CK(cuEventRecord(stop, stream));
    CK(cuEventSynchronize(stop));
    float ms = 0;
    CK(cuEventElapsedTime(&ms, start, stop));
    double us = 1000.0 * ms / opt.iters;
    std::printf("time: %.2f us per launch (mean of %d back-to-back launches on "
                "one stream, "
                "after %d warm-up; includes launch overhead)",
                us, opt.iters, opt.warmup);
    RefPlan tp;
    std::string ignored;
    if (planReference(m, opt.ref, tp, ignored) &&
        (tp.kind == RefKind::Matmul || tp.kind == RefKind::Swiglu)) {
      double M = static_cast<double>(bufs[tp.output].shape[0]);
      double N = static_cast<double>(bufs[tp.output].shape[1]);
      double K = static_cast<double>(bufs[tp.inputs[0]].shape[1]);
      double flops = 2 * M * N * K * (tp.kind == RefKind::Swiglu ? 2 : 1);
      std::printf(", %.1f TFLOP/s", flops / (us * 1e-6) / 1e12);
    }
    std::printf("\n");
    cu->cuEventDestroy(start);
    cu->cuEventDestroy(stop);
  }

  if (opt.hostTime && !(s = hostTime(*mod, *cu, args, stream, opt.iters))) {
    std::fprintf(stderr, "kiln-run: %s\n", s.message().c_str());
    return 1;
  }

  for (Buffer &b : bufs)
    if (b.ptr)
      cu->cuMemFree(b.ptr);
  mod.reset();
  cu->cuStreamDestroy(stream);
  cu->cuDevicePrimaryCtxRelease(dev);
  return exitCode;
}

} // namespace

int main(int argc, char **argv) {
  // Host buffers are as large as the dims make them; running out of host
  // memory is an error like any other, not an abort.
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc &) {
    std::fprintf(stderr, "kiln-run: out of host memory\n");
    return 1;
  }
}
