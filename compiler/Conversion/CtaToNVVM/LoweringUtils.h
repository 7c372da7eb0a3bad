//===- LoweringUtils.h - shared pieces of the cta lowering patterns -*- C++ -*-===//
//
// The patterns of convert-cta-to-nvvm emit a lot of i32 address and index
// arithmetic and a few recurring NVVM idioms (shared-memory pointers,
// mbarrier slots of a ring, the parity wait, one-thread sections). `Emitter`
// keeps each pattern's body about what it lowers rather than about building
// constants.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_LOWERINGUTILS_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_LOWERINGUTILS_H

#include "compiler/Conversion/CtaToNVVM/ChipLowering.h"
#include "compiler/Conversion/CtaToNVVM/KernelABI.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/SmemDescriptor.h"
#include "compiler/Target/TensorMemory.h"
#include "compiler/Target/WgmmaFragment.h"

#include <functional>
#include <string>

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/raw_ostream.h"

namespace kiln {

/// Threads of one warpgroup: the unit of wgmma, setmaxnreg and the staging
/// barriers.
inline constexpr int64_t kWarpgroupThreads =
    target::warpsPerWarpgroup * target::threadsPerWarp;
/// Suspend-time hint of mbarrier.try_wait, in nanoseconds.
inline constexpr int64_t kWaitTicks = 10000000;
/// The dynamic shared-memory window every kernel of the module shares.
inline constexpr llvm::StringLiteral kSmemSymbol = "kiln_smem";

/// `parts` streamed into one string (the text of a plan's failure).
template <typename... Parts> std::string describe(Parts &&...parts) {
  std::string text;
  llvm::raw_string_ostream os(text);
  (os << ... << parts);
  return text;
}

/// Builds i32 arithmetic and NVVM idioms at one insertion point.
struct Emitter {
  Emitter(mlir::OpBuilder &b, mlir::Location loc) : b(b), loc(loc) {}

  mlir::OpBuilder &b;
  mlir::Location loc;

  mlir::Type i32Type() { return b.getI32Type(); }
  mlir::Value i32(int64_t v) {
    return mlir::arith::ConstantIntOp::create(b, loc, v, 32);
  }
  mlir::Value i64(int64_t v) {
    return mlir::arith::ConstantIntOp::create(b, loc, v, 64);
  }
  mlir::Value index(int64_t v) {
    return mlir::arith::ConstantIndexOp::create(b, loc, v);
  }
  mlir::Value toI32(mlir::Value index) {
    return mlir::arith::IndexCastUIOp::create(b, loc, i32Type(), index);
  }
  /// Each of `indices` (index values) as an i32.
  llvm::SmallVector<mlir::Value> toI32(mlir::ValueRange indices) {
    llvm::SmallVector<mlir::Value> values;
    for (mlir::Value index : indices)
      values.push_back(toI32(index));
    return values;
  }
  mlir::Value toIndex(mlir::Value v) {
    return mlir::arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddIOp::create(b, loc, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return mlir::arith::SubIOp::create(b, loc, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return mlir::arith::MulIOp::create(b, loc, x, y);
  }
  mlir::Value udiv(mlir::Value x, mlir::Value y) {
    return mlir::arith::DivUIOp::create(b, loc, x, y);
  }
  mlir::Value urem(mlir::Value x, mlir::Value y) {
    return mlir::arith::RemUIOp::create(b, loc, x, y);
  }
  mlir::Value ceilDiv(mlir::Value x, mlir::Value y) {
    return mlir::arith::CeilDivUIOp::create(b, loc, x, y);
  }
  mlir::Value andI(mlir::Value x, mlir::Value y) {
    return mlir::arith::AndIOp::create(b, loc, x, y);
  }
  mlir::Value xorI(mlir::Value x, mlir::Value y) {
    return mlir::arith::XOrIOp::create(b, loc, x, y);
  }
  mlir::Value shl(mlir::Value x, mlir::Value y) {
    return mlir::arith::ShLIOp::create(b, loc, x, y);
  }
  mlir::Value lshr(mlir::Value x, mlir::Value y) {
    return mlir::arith::ShRUIOp::create(b, loc, x, y);
  }
  mlir::Value minU(mlir::Value x, mlir::Value y) {
    return mlir::arith::MinUIOp::create(b, loc, x, y);
  }
  mlir::Value cmp(mlir::arith::CmpIPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpIOp::create(b, loc, p, x, y);
  }
  mlir::Value eq(mlir::Value x, mlir::Value y) {
    return cmp(mlir::arith::CmpIPredicate::eq, x, y);
  }
  mlir::Value ult(mlir::Value x, mlir::Value y) {
    return cmp(mlir::arith::CmpIPredicate::ult, x, y);
  }

  /// `base + offset` bytes, for shared (3) or global (1) pointers.
  mlir::Value bytePtr(mlir::Value base, mlir::Value offset) {
    return mlir::LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(),
                                     base, mlir::ValueRange{offset});
  }
  mlir::Value bytePtr(mlir::Value base, int64_t offset) {
    return offset == 0 ? base : bytePtr(base, i32(offset));
  }
  /// The shared-window address of a pointer, as i32.
  mlir::Value smemAddress(mlir::Value ptr) {
    mlir::Value wide =
        mlir::LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
    return mlir::arith::TruncIOp::create(b, loc, i32Type(), wide);
  }
  /// The start of the dynamic shared-memory window.
  mlir::Value smemBase() {
    return mlir::LLVM::AddressOfOp::create(
        b, loc, mlir::LLVM::LLVMPointerType::get(b.getContext(), 3),
        kSmemSymbol);
  }
  mlir::Value threadId() {
    return mlir::NVVM::ThreadIdXOp::create(b, loc, i32Type());
  }
  /// Whether this is thread `t` of the CTA. (The operands are made in a
  /// fixed order: C++ leaves the order of a call's arguments to the
  /// compiler, and gcc- and clang-built Kiln must emit the same IR.)
  mlir::Value isThread(int64_t t) {
    mlir::Value id = i32(t);
    mlir::Value tid = threadId();
    return eq(tid, id);
  }
  /// The thread's lane within its warpgroup.
  mlir::Value warpgroupLane() {
    mlir::Value threads = i32(kWarpgroupThreads);
    return urem(threadId(), threads);
  }
  /// The lane, read where it is used: a side-effecting read of %tid.x that
  /// LLVM cannot hoist out of a loop. Per-element indices derived from it
  /// (a register's row and column in a fragment) are then recomputed in
  /// the loop with an immediate each, instead of being hoisted as one
  /// loop-invariant register per column, live across the whole loop.
  mlir::Value warpgroupLaneHere();
  /// A side-effecting inline PTX instruction (AT&T dialect) of one result:
  /// LLVM neither moves nor deletes it.
  mlir::Value inlineAsm(mlir::Type result, mlir::ValueRange operands,
                        llvm::StringRef text, llvm::StringRef constraints);
  /// `v` (i32 or i64) through a side-effecting copy: values derived from it
  /// are computed here, not hoisted out of the enclosing loop by LLVM and
  /// kept live in registers across it.
  mlir::Value opaque(mlir::Value v);
  /// The named barrier of the thread's warpgroup: one per warpgroup, 0 being
  /// the CTA-wide barrier.
  mlir::Value warpgroupBarrierId() {
    mlir::Value one = i32(1);
    mlir::Value threads = i32(kWarpgroupThreads);
    return add(udiv(threadId(), threads), one);
  }
  /// `map` (a fragment layout of compiler/Target) evaluated on `thread`.
  mlir::Value threadMap(const target::ThreadMap &map, mlir::Value thread) {
    mlir::Value sum;
    for (const target::ThreadTerm &term : map.terms) {
      if (term.scale == 0)
        continue;
      mlir::Value value =
          term.divisor == 1 ? thread : udiv(thread, i32(term.divisor));
      value = urem(value, i32(term.modulus));
      if (term.scale != 1)
        value = mul(value, i32(term.scale));
      sum = sum ? add(sum, value) : value;
    }
    return sum ? sum : i32(0);
  }

  /// The stage of a ring of `stages` that pass `iteration` through the ring
  /// uses, and the barrier phase parity of that pass.
  mlir::Value ringSlot(mlir::Value iteration, int64_t stages) {
    return urem(iteration, i32(stages));
  }
  mlir::Value ringPhase(mlir::Value iteration, int64_t stages) {
    return andI(udiv(iteration, i32(stages)), i32(1));
  }
  /// `full[slot]` or `empty[slot]` of a ring of `stages`.
  mlir::Value barrier(mlir::Value ring, mlir::Value slot, int64_t stages,
                      bool empty) {
    mlir::Value index = empty ? add(slot, i32(stages)) : slot;
    return bytePtr(ring, mul(index, i32(target::mbarrierBytes)));
  }
  /// Blocks until the barrier's phase with this parity has completed.
  void wait(mlir::Value bar, mlir::Value parity) {
    mlir::NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, parity,
                                                i32(kWaitTicks));
  }
  /// Blocks until the stage at ring position `position` (i32) of a ring of
  /// `stages` is full; returns its slot.
  mlir::Value waitFull(mlir::Value ring, mlir::Value position,
                       int64_t stages) {
    mlir::Value slot = ringSlot(position, stages);
    mlir::Value phase = ringPhase(position, stages);
    wait(barrier(ring, slot, stages, /*empty=*/false), phase);
    return slot;
  }
  /// Blocks until the stage at ring position `position` (i32) is empty, with
  /// the producer side's parity (the first pass through the ring passes at
  /// once); returns its slot.
  mlir::Value waitEmpty(mlir::Value ring, mlir::Value position,
                        int64_t stages) {
    mlir::Value slot = ringSlot(position, stages);
    mlir::Value phase = ringPhase(position, stages);
    mlir::Value one = i32(1);
    mlir::Value parity = xorI(phase, one);
    wait(barrier(ring, slot, stages, /*empty=*/true), parity);
    return slot;
  }
  /// Thread 0 initializes the `stages` barrier pairs at `ring`: each full
  /// barrier expecting `fullArrivals`, each empty one `emptyArrivals`.
  void initBarrierPairs(mlir::Value ring, int64_t stages,
                        int64_t fullArrivals, int64_t emptyArrivals);
  /// The 16-bit mask of the first `ctas` CTAs of the cluster (a multicast
  /// commit's destinations).
  mlir::Value clusterMask(int64_t ctas) {
    return mlir::arith::ConstantOp::create(
        b, loc, b.getI16IntegerAttr(static_cast<int16_t>((1 << ctas) - 1)));
  }

  /// A 64-bit shared-memory matrix descriptor (wgmma or tcgen05): the
  /// 16-byte start address of `addr` (i32) in the low bits, the constant
  /// fields `highBits` (compiler/Target's encoders) above them.
  mlir::Value smemDescriptor(mlir::Value addr, uint64_t highBits) {
    mlir::Value wide =
        mlir::arith::ExtUIOp::create(b, loc, b.getI64Type(), addr);
    mlir::Value start = andI(lshr(wide, i64(4)),
                             i64(target::descriptorStartAddressMask));
    return mlir::arith::OrIOp::create(b, loc, start,
                                      i64(static_cast<int64_t>(highBits)));
  }

  /// Runs `then` under `cond` (an scf.if without results).
  template <typename Fn> void ifThen(mlir::Value cond, Fn then) {
    auto op = mlir::scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    mlir::OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    then();
  }
};

/// `values` combined as a row reduction of `kind` combines them (a tree, for
/// latency). Max is arith.maximumf, so -inf (a masked row) stays -inf and
/// NaN propagates.
mlir::Value combineTree(Emitter &e, cta::ReduceKind kind,
                        llvm::SmallVector<mlir::Value> values);

/// The identity of a reduction of `kind` (0 for sum, -inf for max), f32.
mlir::Value reductionIdentity(Emitter &e, cta::ReduceKind kind);

/// `values` (as many in every lane, a multiple of 2^masks.size())
/// reduce-scattered with `kind` over the lanes of a warp that differ in the
/// bits of `masks` (target::reduceScatterFirst, compiler/Target/
/// WarpReduce.h): returns the values.size() >> masks.size() combined
/// values this lane ends with. `lane` is an i32 whose low five bits are
/// the thread's lane.
llvm::SmallVector<mlir::Value>
reduceScatterLanes(Emitter &e, cta::ReduceKind kind,
                   llvm::SmallVector<mlir::Value> values,
                   llvm::ArrayRef<unsigned> masks, mlir::Value lane);

/// The position (i32) of the first value reduceScatterLanes leaves `lane`
/// with among the `count` it started with: target::reduceScatterFirst.
mlir::Value reduceScatterFirst(Emitter &e, mlir::Value lane,
                               llvm::ArrayRef<unsigned> masks, unsigned count);

/// The kernel function a pattern's op now lives in.
inline mlir::LLVM::LLVMFuncOp enclosingKernel(mlir::Operation *op) {
  return op->getParentOfType<mlir::LLVM::LLVMFuncOp>();
}

/// Inlines the single block of `region` before `before`, its arguments
/// replaced by `args`, and erases its terminator (a cta.yield of nothing):
/// the caller has already emitted what follows.
void inlineRegionWithoutTerminator(mlir::ConversionPatternRewriter &rewriter,
                                   mlir::Region &region,
                                   mlir::Operation *before,
                                   mlir::ValueRange args);

/// Conversions every chip shares: buffers and rings are shared-memory
/// pointers, global tensors their base address.
void addCommonTypeConversions(mlir::TypeConverter &converter);

/// Base of the patterns that need the ABI of the program their op belongs
/// to (`abis.of(op)`) or its kernel function (`abis.kernelOf(op)`).
template <typename Op>
struct AbiPattern : public mlir::OpConversionPattern<Op> {
  AbiPattern(mlir::TypeConverter &converter, mlir::MLIRContext *ctx,
             const KernelABIs &abis)
      : mlir::OpConversionPattern<Op>(converter, ctx), abis(abis) {}
  const KernelABIs &abis;
};

/// The patterns every chip shares: the program, shared memory, rings and
/// their producer side, TMA copies, tile walks and warp roles (which run the
/// chip's `resources` around the roles).
void populateCtaToNVVMCommonPatterns(mlir::TypeConverter &converter,
                                     mlir::RewritePatternSet &patterns,
                                     const KernelABIs &abis,
                                     const CtaResources &resources);

/// The checks every chip's lowering shares, at the op: copies inside a
/// produce step, pipelined K loops, static tile walks, stores of
/// accumulators through staging blocks, global tensors only in copies and
/// stores, and no cta op the patterns do not know. Each ChipLowering::check
/// runs it and adds its own.
mlir::LogicalResult checkLoweredAlike(mlir::Operation *op,
                                      target::Chip chip);

/// The K loop of a cta.consume, as every chip runs it: for each of `count`
/// steps from ring `position`, wait until the stage is full, then run the
/// body with (step, slot, carried values). The chip adds what its MMAs need
/// around each step's body: `beforeBody` gets the loop's carried values and
/// returns the ones the body sees; `afterBody` runs before the step's
/// yield, with the step's ring iteration (i32) and slot. Returns the loop;
/// what follows it is the chip's.
struct ConsumeStepHooks {
  std::function<llvm::SmallVector<mlir::Value>(Emitter &, mlir::ValueRange)>
      beforeBody;
  std::function<void(Emitter &, mlir::Value step, mlir::Value iteration,
                     mlir::Value slot)>
      afterBody;
};
mlir::scf::ForOp lowerConsumeLoop(mlir::ConversionPatternRewriter &rewriter,
                                  cta::ConsumeOp op, mlir::Value ring,
                                  mlir::Value position, mlir::Value count,
                                  mlir::ValueRange inits,
                                  const ConsumeStepHooks &hooks);

/// The shared-memory addresses (i32) where an MMA's operand tiles start in
/// this stage: the lhs `lhs_row` rows into each of its column blocks (none
/// for an lhs in registers or tensor memory), the rhs at its slot.
struct MmaOperandAddresses {
  mlir::Value lhs, rhs;
};
MmaOperandAddresses mmaOperandAddresses(Emitter &e, cta::MmaOp op,
                                        cta::MmaOp::Adaptor adaptor);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_LOWERINGUTILS_H
