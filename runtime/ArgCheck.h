//===- ArgCheck.h - Bind dims and validate launch arguments ----*- C++ -*-===//
//
// The launch-independent half of argument validation: pure logic over the
// manifest and the caller's tensor descriptors, so it is unit-tested without a
// GPU. What needs the device (which device a pointer lives on) or a specific
// tensor map (TMA stride rules) is checked elsewhere.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_ARGCHECK_H
#define KILN_RUNTIME_ARGCHECK_H

#include "runtime/LaunchPlan.h"
#include "runtime/Tensor.h"

#include <string>
#include <vector>

namespace kiln {

/// Dim values of one launch, indexed like Manifest::dims.
struct BoundDims {
  /// -1 for a dim no given tensor binds (only possible in inferShapes).
  std::vector<int64_t> values;
  /// Where each value came from, for messages.
  std::vector<DimSource> sources;
};

/// Checks the count, rank, dtype and extents of the given tensors, binds every
/// dim from the first given tensor that has it as a plain entry, then checks
/// every entry of every given tensor against its DimExpr. `known` (nullable:
/// all given) marks the tensors the caller has. Messages name the param, the
/// axis and both values.
bool bindDims(const LaunchPlan &plan, const Tensor *args, const bool *known,
              size_t count, BoundDims &out, std::string &error);

/// Full validation of a launch's tensors: bindDims, then the layout rules every
/// param obeys — non-null, `align`-aligned pointers, a contiguous innermost
/// axis, no negative strides, and whole bytes per row for packed dtypes.
/// Tensors with no elements skip the layout rules.
bool checkArguments(const LaunchPlan &plan, const Tensor *args, size_t count,
                    BoundDims &out, std::string &error);

/// The shape of every param given only the `known` tensors (the caller
/// allocates the rest): binds dims from the known tensors, checks them as
/// bindDims does, and evaluates all shapes. Fails naming the param and the dim
/// when a needed dim is not bound by any known tensor.
bool inferShapes(const LaunchPlan &plan, const Tensor *args, const bool *known,
                 size_t count, std::vector<std::vector<int64_t>> &shapes,
                 BoundDims &dims, std::string &error);

} // namespace kiln

#endif // KILN_RUNTIME_ARGCHECK_H
