//===- Sm90Lowering.h - cta programs to sm_90a NVVM -------------*- C++ -*-===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_SM90LOWERING_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_SM90LOWERING_H

#include "compiler/Conversion/CtaToNVVM/KernelABI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

namespace kiln {

/// Emits the body of `func`, an empty `llvm.func` whose parameters follow
/// `abi`, from `program`: TMA copies, mbarrier rings, wgmma, stmatrix + TMA
/// store epilogues and setmaxnreg warp roles. `smem` is the dynamic
/// shared-memory window (an `llvm.mlir.global` in address space 3).
mlir::LogicalResult lowerProgramToSm90(cta::ProgramOp program,
                                       const KernelABI &abi,
                                       mlir::LLVM::LLVMFuncOp func,
                                       mlir::LLVM::GlobalOp smem);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_SM90LOWERING_H
