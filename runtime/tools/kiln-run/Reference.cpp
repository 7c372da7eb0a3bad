//===- Reference.cpp - Host references for kiln-run --check ---------------===//

#include "Reference.h"

#include "HostData.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace kiln {
namespace tools {

Operand dequantize(DType dtype, const uint8_t *bytes, int64_t rows,
                   int64_t cols, const ScaleView *scale) {
  Operand op;
  op.rows = rows;
  op.cols = cols;
  op.lowPrecision = dtypeBits(dtype) <= 8;
  op.values.resize(static_cast<size_t>(rows * cols));
  int64_t scaleCols =
      scale ? (cols + scale->blockCols - 1) / scale->blockCols : 0;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double v = decodeElement(dtype, bytes, r * cols + c);
      if (scale)
        v *= decodeElement(scale->dtype, scale->bytes,
                           (r / scale->blockRows) * scaleCols +
                               c / scale->blockCols);
      op.values[r * cols + c] = static_cast<float>(v);
    }
  return op;
}

/// Counts one checked element into `st`: NaNs, the largest error and
/// error/tolerance ratio, and a mismatch (the first one described as
/// `where()`, then its values). Equal values (infinities included: a
/// log-sum-exp of no keys is -inf) have no error.
template <typename Where>
static void record(CheckStats &st, double got, double ref, double tol,
                   Where where) {
  double err = got == ref ? 0 : std::fabs(got - ref);
  if (std::isnan(got))
    ++st.nans;
  if (!(err <= st.maxAbsErr))
    st.maxAbsErr = std::isnan(err) ? INFINITY : err;
  double ratio = err / tol;
  if (!(ratio <= st.maxRatio))
    st.maxRatio = std::isnan(ratio) ? INFINITY : ratio;
  if (err <= tol)
    return;
  if (st.mismatches == 0) {
    char buf[96];
    std::snprintf(buf, sizeof buf, ": got %.6g, expected %.6g (tolerance %.3g)",
                  got, ref, tol);
    st.firstBad = where() + buf;
  }
  ++st.mismatches;
}

static double outputEps(DType t) {
  switch (t) {
  case DType::BF16:
    return std::ldexp(1.0, -8);
  case DType::F16:
    return std::ldexp(1.0, -11);
  case DType::E4M3:
    return std::ldexp(1.0, -4);
  case DType::E5M2:
    return std::ldexp(1.0, -3);
  case DType::E2M1:
    return 0.25;
  default:
    return std::ldexp(1.0,
                      -16); // f32: the kernel's exp/division may be approximate
  }
}

CheckStats checkOutput(RefKind kind, const Operand &a, const Operand &b1,
                       const Operand *b2, DType outType, const uint8_t *out,
                       const std::vector<int64_t> &rows) {
  CheckStats st;
  const int64_t N = b1.rows, K = a.cols;
  st.cols = N;
  bool low = a.lowPrecision || b1.lowPrecision || (b2 && b2->lowPrecision);
  double accEps = std::ldexp(1.0, low ? -8 : -12);
  double outEps = outputEps(outType);
  for (int64_t m : rows) {
    ++st.rowsChecked;
    const float *ar = &a.values[m * K];
    for (int64_t n = 0; n < N; ++n) {
      const float *br = &b1.values[n * K];
      double s1 = 0, mag1 = 0, s2 = 0, mag2 = 0;
      for (int64_t k = 0; k < K; ++k) {
        double p = static_cast<double>(ar[k]) * br[k];
        s1 += p;
        mag1 += std::fabs(p);
      }
      double ref, tol;
      if (kind == RefKind::Matmul) {
        ref = s1;
        tol = 2 * outEps * std::fabs(ref) + accEps * mag1;
      } else {
        const float *cr = &b2->values[n * K];
        for (int64_t k = 0; k < K; ++k) {
          double p = static_cast<double>(ar[k]) * cr[k];
          s2 += p;
          mag2 += std::fabs(p);
        }
        double silu = s1 / (1 + std::exp(-s1));
        ref = silu * s2;
        // |silu'| <= 1.1, so an error e1 in s1 moves the result by at most 1.1
        // * |s2| * e1.
        tol = 2 * outEps * std::fabs(ref) +
              accEps * (1.1 * std::fabs(s2) * mag1 + std::fabs(silu) * mag2);
      }
      tol += 1e-30;
      double got = decodeElement(outType, out, m * N + n);
      record(st, got, ref, tol, [&] {
        char buf[64];
        std::snprintf(buf, sizeof buf, "[%lld, %lld]",
                      static_cast<long long>(m), static_cast<long long>(n));
        return std::string(buf);
      });
    }
  }
  return st;
}

CheckStats checkAttention(const AttentionShape &shape, const Operand &q,
                          const Operand &k, const Operand &v, DType pType,
                          DType outType, const uint8_t *out,
                          const std::vector<int64_t> &rows,
                          const uint8_t *lse, DType lseType) {
  CheckStats st;
  const int64_t S = shape.S, T = shape.T, D = shape.D, Dv = shape.Dv;
  st.cols = Dv;
  double outEps = outputEps(outType), pEps = outputEps(pType);
  double scale = 1.0 / std::sqrt(static_cast<double>(D));
  std::vector<double> p(static_cast<size_t>(T));
  for (int64_t row : rows) {
    ++st.rowsChecked;
    int64_t entry = row / S, i = row % S;
    int64_t kv = shape.kvEntry[static_cast<size_t>(entry)] * T;
    int64_t keys = shape.causal ? std::min(T, i + 1) : T;
    const float *qr = &q.values[row * D];
    double max = -INFINITY;
    for (int64_t j = 0; j < keys; ++j) {
      const float *kr = &k.values[(kv + j) * D];
      double dot = 0;
      for (int64_t d = 0; d < D; ++d)
        dot += static_cast<double>(qr[d]) * kr[d];
      p[j] = dot * scale;
      max = std::max(max, p[j]);
    }
    double sum = 0;
    for (int64_t j = 0; j < keys; ++j)
      sum += (p[j] = std::exp(p[j] - max));
    if (lse) {
      // log(sum_j exp(s_j)); -inf without keys.
      double ref = keys == 0 ? -INFINITY : max + std::log(sum);
      double tol = keys == 0 ? 0
                             : 2 * outputEps(lseType) * std::fabs(ref) +
                                   0x1p-14 * (1 + std::fabs(ref));
      record(st, decodeElement(lseType, lse, row), ref, tol, [&] {
        char buf[96];
        std::snprintf(buf, sizeof buf, "entry %lld, query %lld, log-sum-exp",
                      static_cast<long long>(entry),
                      static_cast<long long>(i));
        return std::string(buf);
      });
    }
    for (int64_t d = 0; d < Dv; ++d) {
      double ref = 0, mag = 0;
      for (int64_t j = 0; j < keys; ++j) {
        double term = p[j] / sum * v.values[(kv + j) * Dv + d];
        ref += term;
        mag += std::fabs(term);
      }
      if (keys == 0)
        ref = NAN;
      double tol = 2 * outEps * std::fabs(ref) + (2 * pEps + 0x1p-20) * mag +
                   1e-30;
      double got = decodeElement(outType, out, row * Dv + d);
      record(st, got, ref, tol, [&] {
        char buf[96];
        std::snprintf(buf, sizeof buf, "entry %lld, query %lld, column %lld",
                      static_cast<long long>(entry),
                      static_cast<long long>(i), static_cast<long long>(d));
        return std::string(buf);
      });
    }
  }
  return st;
}

std::vector<int64_t> sampleRows(int64_t M, int64_t N, int64_t K,
                                int64_t maxWork) {
  std::vector<int64_t> rows;
  if (M <= 0)
    return rows;
  int64_t perRow = std::max<int64_t>(1, N * std::max<int64_t>(K, 1));
  int64_t count = std::max<int64_t>(1, std::min<int64_t>(M, maxWork / perRow));
  if (count >= M) {
    for (int64_t m = 0; m < M; ++m)
      rows.push_back(m);
    return rows;
  }
  for (int64_t i = 0; i < count; ++i) {
    int64_t m = count == 1 ? 0 : i * (M - 1) / (count - 1);
    if (rows.empty() || rows.back() != m)
      rows.push_back(m);
  }
  return rows;
}

} // namespace tools
} // namespace kiln
