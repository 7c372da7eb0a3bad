//===- Tcgen05Values.h - sm_100a lowered values shared by patterns -*- C++ -*-===//
//
// What the sm_100a patterns (CtaToSm100.cpp: MMAs, rings, stores;
// CtaToSm100Registers.cpp: register tiles and tensor-memory tiles) agree on:
// an accumulator lowers to (TMEM address of lane 0 and its first column,
// whether an MMA has written it), the allocation's base address is read
// from its shared-memory slot, and ops of a one-thread role issue without
// an election of their own.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_TCGEN05VALUES_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_TCGEN05VALUES_H

#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "dialects/Cta/IR/CtaOps.h"

namespace kiln::tcgen05 {

/// The lowered accumulator: its TMEM address (lane 0, first column) and
/// whether an MMA has written it since it was zeroed.
inline mlir::Type accStruct(mlir::MLIRContext *ctx) {
  return mlir::LLVM::LLVMStructType::getLiteral(
      ctx, {mlir::IntegerType::get(ctx, 32), mlir::IntegerType::get(ctx, 1)});
}

inline mlir::Value makeAcc(Emitter &e, mlir::Value address,
                           mlir::Value written) {
  mlir::Value acc = mlir::LLVM::UndefOp::create(e.b, e.loc,
                                                accStruct(e.b.getContext()));
  acc = mlir::LLVM::InsertValueOp::create(e.b, e.loc, acc, address,
                                          llvm::ArrayRef<int64_t>{0});
  return mlir::LLVM::InsertValueOp::create(e.b, e.loc, acc, written,
                                           llvm::ArrayRef<int64_t>{1});
}
inline mlir::Value accAddress(Emitter &e, mlir::Value acc) {
  return mlir::LLVM::ExtractValueOp::create(e.b, e.loc, acc,
                                            llvm::ArrayRef<int64_t>{0});
}
inline mlir::Value accWritten(Emitter &e, mlir::Value acc) {
  return mlir::LLVM::ExtractValueOp::create(e.b, e.loc, acc,
                                            llvm::ArrayRef<int64_t>{1});
}
inline mlir::Value tmemPointer(Emitter &e, mlir::Value address) {
  return mlir::LLVM::IntToPtrOp::create(
      e.b, e.loc, mlir::LLVM::LLVMPointerType::get(e.b.getContext(), 6),
      address);
}
inline mlir::Value boolConstant(Emitter &e, bool value) {
  return mlir::arith::ConstantIntOp::create(e.b, e.loc, value ? 1 : 0, 1);
}
inline void fence(Emitter &e, mlir::NVVM::Tcgen05FenceKind kind) {
  mlir::NVVM::Tcgen05FenceOp::create(e.b, e.loc, kind);
}

/// The TMEM address of the allocation's first column, from the slot
/// tcgen05.alloc wrote (before the CTA barrier that started the roles).
inline mlir::Value tmemBase(Emitter &e, const KernelABI &abi) {
  mlir::Value slot = e.bytePtr(e.smemBase(), abi.tmemSlot);
  return mlir::LLVM::LoadOp::create(e.b, e.loc, e.i32Type(), slot);
}

/// The TMEM lane offset (in an address's high half) of the thread's warp:
/// warp w of a warpgroup may access lanes [32 (w % 4), +32), and thread t of
/// the warpgroup holds row t there (target::tmemLaneBaseForWarp).
inline mlir::Value warpLaneOffset(Emitter &e, mlir::Value warpgroupLane) {
  mlir::Value warpThreads = e.i32(target::threadsPerWarp);
  return e.shl(e.mul(e.udiv(warpgroupLane, warpThreads), warpThreads),
               e.i32(16));
}

/// `columns` 32-bit columns of this thread's row from the TMEM address
/// `address` (its lane quarter's offset included): one tcgen05.ld
/// `.32x32b`, whose results the caller reads after tcgen05.wait::ld.
inline mlir::Value loadTmemColumns(Emitter &e, mlir::Value address,
                                   int64_t columns) {
  return mlir::NVVM::Tcgen05LdOp::create(
      e.b, e.loc, mlir::VectorType::get({columns}, e.i32Type()),
      /*pack=*/false, mlir::NVVM::Tcgen05LdStShape::SHAPE_32X32B,
      tmemPointer(e, address), mlir::Value());
}

/// Runs `issue` in one thread: the thread itself where the op's role runs
/// in one elected thread already (`one_thread`: the mma role), else lane 0
/// of the warpgroup.
inline void issueOnce(Emitter &e, bool oneThread,
                      llvm::function_ref<void()> issue) {
  if (oneThread)
    return issue();
  e.ifThen(e.eq(e.warpgroupLane(), e.i32(0)), issue);
}

//===----------------------------------------------------------------------===//
// Register and tensor-memory tiles (CtaToSm100Registers.cpp)
//===----------------------------------------------------------------------===//

/// Register tiles (one row per thread) and tensor-memory tiles (their
/// first column).
void addRegisterConversions(mlir::TypeConverter &converter);
/// Reports what the register-tile and tensor-memory patterns cannot lower
/// at `op`; nullopt for ops they do not lower.
std::optional<mlir::LogicalResult> checkRegisterOp(mlir::Operation *op);
void populateRegisterPatterns(mlir::TypeConverter &converter,
                              mlir::RewritePatternSet &patterns,
                              const KernelABIs &abis);

} // namespace kiln::tcgen05

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_TCGEN05VALUES_H
