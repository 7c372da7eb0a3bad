//===- Tensor.h - A caller's tensor as the runtime sees it -----*- C++ -*-===//
//
// A non-owning description of device memory: no allocation, so describing the
// arguments of every launch costs nothing. Shapes and strides count elements of
// the tensor's dtype; for e2m1 that is 4-bit values, so a contiguous e2m1 [M,
// K] tensor has strides {K, 1} and occupies M*K/2 bytes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_TENSOR_H
#define KILN_RUNTIME_TENSOR_H

#include "runtime/Manifest.h"

#include <cstdint>
#include <initializer_list>
#include <vector>

namespace kiln {

struct Tensor {
  /// Device address (a CUdeviceptr) of element [0, ..., 0].
  uint64_t data = 0;
  DType dtype = DType::F32;
  /// Number of axes, 0..kMaxRank; -1 marks a tensor that was built with too
  /// many axes.
  int32_t rank = 0;
  int64_t shape[kMaxRank] = {};
  /// Per axis, in elements of `dtype` (may be 0 for broadcast views, never
  /// negative).
  int64_t strides[kMaxRank] = {};

  /// A row-major tensor (rank -1 if `shape` has more than kMaxRank axes).
  static Tensor contiguous(uint64_t data, DType dtype,
                           const std::vector<int64_t> &shape);
  static Tensor contiguous(uint64_t data, DType dtype,
                           std::initializer_list<int64_t> shape) {
    return contiguous(data, dtype, std::vector<int64_t>(shape));
  }
  /// A strided view; `strides` must have as many entries as `shape` (else rank
  /// -1).
  static Tensor strided(uint64_t data, DType dtype,
                        const std::vector<int64_t> &shape,
                        const std::vector<int64_t> &strides);

  /// Number of elements (0 if any extent is 0 or negative).
  int64_t numel() const;
};

} // namespace kiln

#endif // KILN_RUNTIME_TENSOR_H
