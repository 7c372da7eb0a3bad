//===- Reference.h - Host references for kiln-run --check ------*- C++ -*-===//
//
// kiln-run can check the matmul family and plain attention: it does not know
// what a kernel computes beyond its manifest, so the reference is named
// explicitly (or, for the matmul family, guessed from the kernel name and
// shapes) and the check says which one it used.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TOOLS_KILNRUN_REFERENCE_H
#define KILN_RUNTIME_TOOLS_KILNRUN_REFERENCE_H

#include "runtime/Manifest.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kiln {
namespace tools {

enum class RefKind {
  /// c[m][n] = sum_k a[m][k] * b[n][k]
  Matmul,
  /// y[m][n] = silu(sum_k x[m][k] * w1[n][k]) * sum_k x[m][k] * w2[n][k]
  Swiglu,
  /// o[.., i, :] = softmax_j(q[.., i, :] . k[.., j, :] / sqrt(D)) v[.., j, :]
  Attention,
  /// The same over keys j <= i (top-left aligned).
  AttentionCausal,
};

/// Block scales of an operand, stored row-major as [cdiv(rows, blockRows),
/// cdiv(cols, blockCols)]; element [i][k] of the data is multiplied by scale [i
/// / blockRows][k / blockCols].
struct ScaleView {
  DType dtype = DType::F32;
  const uint8_t *bytes = nullptr;
  int64_t blockRows = 1, blockCols = 1;
};

/// A dequantized, row-major [rows, cols] operand.
struct Operand {
  int64_t rows = 0, cols = 0;
  std::vector<float> values;
  /// Inputs of 8 bits or fewer: the tensor cores accumulate them with less
  /// precision.
  bool lowPrecision = false;
};

Operand dequantize(DType dtype, const uint8_t *bytes, int64_t rows,
                   int64_t cols, const ScaleView *scale);

struct CheckStats {
  int64_t rowsChecked = 0, cols = 0, mismatches = 0, nans = 0;
  double maxAbsErr = 0, maxRatio = 0;
  std::string firstBad;
};

/// Compares the [M, N] output `out` (dtype `outType`) with the reference on the
/// given rows. An element passes when |got - ref| <= 2 * eps(out) * |ref| +
/// accEps * sum_k |terms|, where accEps is 2^-12 for 16/32-bit inputs and 2^-8
/// for 8/4-bit inputs (Hopper's fp8 tensor cores accumulate with reduced
/// precision).
CheckStats checkOutput(RefKind kind, const Operand &a, const Operand &b1,
                       const Operand *b2, DType outType, const uint8_t *out,
                       const std::vector<int64_t> &rows);

/// An attention check's shapes: `entries` batch entries (the query's leading
/// axes flattened) of S queries of D elements; entry b reads key/value entry
/// kvEntry[b] of T keys (D elements) and values (Dv elements).
struct AttentionShape {
  int64_t entries = 0, S = 0, T = 0, D = 0, Dv = 0;
  std::vector<int64_t> kvEntry;
  bool causal = false;
};

/// Compares the output `out` ([entries * S, Dv], dtype `outType`) with
/// softmax(q k^T / sqrt(D)) v on the given flattened query rows; q is
/// [entries * S, D], k [kv entries * T, D], v [kv entries * T, Dv]. An
/// element passes when |got - ref| <= 2 * eps(out) * |ref| + 2 * eps(p) *
/// sum_j p_j |v_j| + 2^-20 * sum_j p_j |v_j|, where eps(p) is that of
/// `pType`, the type the kernel rounds the probabilities to before P V. A
/// row without keys (T = 0) has no reference and fails. With `lse` (an
/// [entries * S] output of dtype `lseType`), each checked row's
/// log-sum-exp of the scaled scores too, to 2 * eps(lse) * |ref| + 2^-14 *
/// (1 + |ref|) (-inf exactly for a row without keys).
CheckStats checkAttention(const AttentionShape &shape, const Operand &q,
                          const Operand &k, const Operand &v, DType pType,
                          DType outType, const uint8_t *out,
                          const std::vector<int64_t> &rows,
                          const uint8_t *lse = nullptr,
                          DType lseType = DType::F32);

/// All rows when M*N*K <= maxWork, else about maxWork/(N*K) rows spread evenly
/// (first and last included).
std::vector<int64_t> sampleRows(int64_t M, int64_t N, int64_t K,
                                int64_t maxWork);

} // namespace tools
} // namespace kiln

#endif // KILN_RUNTIME_TOOLS_KILNRUN_REFERENCE_H
