//===- KernelABI.h - the launch ABI of a lowered cta.program ----*- C++ -*-===//
//
// Before a program is lowered, everything the host must know to launch it is
// decided in one place: which tensor maps exist (one per distinct global
// tensor, box and swizzle), the order and type of the entry's parameters, the
// shared-memory offset of every buffer and barrier ring, and the grid rule.
// The same decisions produce the manifest, so the cubin and its manifest
// cannot disagree.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_KERNELABI_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_KERNELABI_H

#include "compiler/Target/TensorMapRules.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "runtime/Manifest.h"

#include "llvm/ADT/DenseMap.h"

namespace kiln {

/// One TMA descriptor of the kernel and how its boxes fill a buffer.
struct TensorMapPlan {
  /// The program argument (a memref) it describes.
  unsigned programArg = 0;
  target::TmaBoxPlan boxes;
};

/// Entry parameters of one `cta.store` that may fall back to plain stores.
struct StoreArgs {
  unsigned tensorMap = 0; ///< entry param of the destination's tensor map
  unsigned tmaOk = 0;     ///< i32: 1 when the tensor map could be encoded
  unsigned pointer = 0;   ///< !llvm.ptr<1>: the destination's base address
  unsigned rowStride = 0; ///< i64: elements between destination rows
};

struct KernelABI {
  /// Tensor maps, which are also the first entry parameters, in order.
  llvm::SmallVector<TensorMapPlan> tensorMaps;
  /// For each cta.load: the entry parameter of its tensor map.
  llvm::DenseMap<mlir::Operation *, unsigned> loadMap;
  /// For each cta.store: its entry parameters.
  llvm::DenseMap<mlir::Operation *, StoreArgs> storeArgs;
  /// For each program `index` argument (a dim): its i32 entry parameter.
  llvm::DenseMap<unsigned, unsigned> dimArgs;
  /// The entry's parameter types, in order.
  llvm::SmallVector<mlir::Type> entryTypes;
  /// Byte offset of each cta.alloc and cta.ring in dynamic shared memory.
  llvm::DenseMap<mlir::Operation *, int64_t> smemOffset;
  /// Dynamic shared memory in bytes.
  int64_t smemBytes = 0;
  /// Threads per CTA and CTAs per cluster (along x).
  int64_t blockThreads = 0;
  int64_t clusterSize = 1;
  /// What the runtime needs; `cubin` and `source` are left to the driver.
  Manifest manifest;
};

/// Decides the ABI of `program`; reports unsupported shapes at the op.
mlir::FailureOr<KernelABI> planKernelABI(cta::ProgramOp program);

/// The target library's name for a buffer's swizzle (none when unset).
target::SwizzleMode toTargetSwizzle(cta::SwizzleKindAttr attr);

/// The target element type of an MLIR scalar type, if it has one.
std::optional<target::ElementType> toTargetElement(mlir::Type type);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_KERNELABI_H
