//===- Tensor.cpp - Tensor descriptor helpers -----------------------------===//

#include "runtime/Tensor.h"

namespace kiln {

Tensor Tensor::contiguous(uint64_t data, DType dtype,
                          const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;)
    strides[i - 1] = strides[i] * (shape[i] > 0 ? shape[i] : 1);
  return strided(data, dtype, shape, strides);
}

Tensor Tensor::strided(uint64_t data, DType dtype,
                       const std::vector<int64_t> &shape,
                       const std::vector<int64_t> &strides) {
  Tensor t;
  t.data = data;
  t.dtype = dtype;
  if (shape.size() > static_cast<size_t>(kMaxRank) ||
      strides.size() != shape.size()) {
    t.rank = -1;
    return t;
  }
  t.rank = static_cast<int32_t>(shape.size());
  for (size_t i = 0; i < shape.size(); ++i) {
    t.shape[i] = shape[i];
    t.strides[i] = strides[i];
  }
  return t;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int i = 0; i < rank; ++i) {
    if (shape[i] <= 0)
      return 0;
    if (__builtin_mul_overflow(n, shape[i], &n))
      return INT64_MAX;
  }
  return rank < 0 ? 0 : n;
}

} // namespace kiln
