//===- ElementTypes.h - MLIR types of the target's element types -*- C++ -*-===//
//
// compiler/Target/ElementType.h is the one table of storage element types
// (names, widths); it knows no MLIR. This is the one map between its entries
// and MLIR's scalar types, used by the frontend to type tensors and by the
// lowering to pick MMA shapes, TMA element types and manifest dtypes.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_TARGET_MLIR_ELEMENTTYPES_H
#define KILN_COMPILER_TARGET_MLIR_ELEMENTTYPES_H

#include "compiler/Target/ElementType.h"

#include "mlir/IR/Types.h"

#include <cstdint>
#include <optional>
#include <string>

namespace kiln::target {

/// The MLIR scalar type of `type`; null for TF32, U8, S8 and UE4M3, which
/// are ways an MMA reads f32 or byte data, not types of their own in MLIR.
mlir::Type getMlirType(mlir::MLIRContext *ctx, ElementType type);

/// The element type of an MLIR scalar type, if the target stores it
/// (getMlirType's inverse).
std::optional<ElementType> getElementType(mlir::Type type);

/// Whether `type` is an 8-bit float the tensor cores multiply unscaled
/// (e4m3, e5m2; the two mix in one MMA).
bool isMmaFp8(mlir::Type type);

/// Whether the tensor cores' block-scaled MMA (sm_100a tcgen05,
/// kind::mxf8f6f4 and kind::mxf4nvf4) multiplies `data` with one `scale`
/// per `block` K elements: MXFP8 (e4m3 or e5m2, ue8m0 per 32), MXFP4 (e2m1,
/// ue8m0 per 32) and NVFP4 (e2m1, e4m3 per 16). Other block scales (f32
/// per 128, as DeepSeek's fp8 GEMMs use) are applied in software, not by
/// the MMA.
bool isMmaBlockScaled(mlir::Type data, mlir::Type scale, int64_t block);

/// Whether `data` with one `scale` per block is multiplied with the scales
/// applied in software: fp8 (e4m3, e5m2) with f32 scales, as DeepSeek's fp8
/// GEMMs use (1x128 activation blocks, 128x128 weight blocks). On sm_90a
/// each K block's product is scaled in registers and added to the running
/// sum; no tensor core takes f32 scales.
bool isSoftwareBlockScaled(mlir::Type data, mlir::Type scale);

/// The name a .kiln program gives `type` ("e4m3"), or MLIR's if none.
std::string getElementTypeName(mlir::Type type);

} // namespace kiln::target

#endif // KILN_COMPILER_TARGET_MLIR_ELEMENTTYPES_H
