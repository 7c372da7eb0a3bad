//===- CtaToSm90.cpp - cta lowering patterns for sm_90a (Hopper) ----------===//
//
// On sm_90a an accumulator lives in the registers of the warpgroup that owns
// it (the wgmma fragment), MMAs are wgmma.mma_async on shared-memory
// descriptors, and the consumer side of a ring releases a stage once the
// wgmma batch that read it has completed. Stores apply the epilogue to each
// fragment element (reading epilogue inputs at the element's row and
// column) and stream the tile out through stmatrix, a swizzled staging
// buffer and TMA stores, or store elements directly when the destination
// cannot take a bulk copy.
//
// Layout rule used throughout (cta-assign-layouts): a buffer is a row of
// column blocks `span` bytes wide; block j holds all rows, row r at r * span
// within it, 16-byte chunks XOR-swizzled by the row. Buffers and blocks start
// on 1024-byte boundaries, so every descriptor keeps base_offset 0.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/ChipLowering.h"
#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "compiler/Conversion/CtaToNVVM/TileStore.h"
#include "compiler/Target/MLIR/ElementTypes.h"
#include "compiler/Target/WgmmaDescriptor.h"
#include "compiler/Target/WgmmaFragment.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;

/// The wgmma operand type of a shared-memory tile's elements.
static std::optional<NVVM::WGMMATypes> wgmmaOperandType(Type element) {
  if (element.isBF16())
    return NVVM::WGMMATypes::bf16;
  if (element.isF16())
    return NVVM::WGMMATypes::f16;
  if (llvm::isa<Float8E4M3FNType>(element))
    return NVVM::WGMMATypes::e4m3;
  if (llvm::isa<Float8E5M2Type>(element))
    return NVVM::WGMMATypes::e5m2;
  return std::nullopt;
}

namespace {

/// Rows of one wgmma instruction (and of one accumulator fragment).
constexpr int64_t kMmaRows = target::wgmmaRows;

/// Accumulators are whole wgmma fragments: 64 rows each.
std::optional<std::string> accumulatorError(cta::AccType acc) {
  if (acc.getShape()[0] % kMmaRows == 0)
    return std::nullopt;
  return "a " + std::to_string(acc.getShape()[0]) +
         "-row accumulator; on sm_90a accumulators are whole 64-row wgmma "
         "fragments";
}

LogicalResult checkAccumulator(Operation *op, cta::AccType acc) {
  if (std::optional<std::string> error = accumulatorError(acc))
    return op->emitError() << "convert-cta-to-nvvm: " << *error;
  return success();
}

/// How a cta.mma becomes wgmma.mma_async instructions: one m64nNk16 (or k32
/// for 8-bit floats) per 64-row fragment and K step, on K-major descriptors.
/// The one place that decides whether an MMA lowers on sm_90a: the check
/// before the conversion reports its error, the pattern emits its plan.
struct WgmmaPlan {
  NVVM::WGMMATypes typeA, typeB;
  target::WgmmaInstructionShape shape;
  /// The descriptors' constant fields.
  uint64_t highA = 0, highB = 0;
  /// Per K step: what each descriptor advances by; per fragment: what the
  /// lhs descriptor advances by to its 64 rows.
  SmallVector<uint64_t> stepA, stepB, fragmentA;
  /// The first K step's scale-out: zero when the MMA overwrites (accumulate
  /// false).
  NVVM::WGMMAScaleOut firstScaleOut = NVVM::WGMMAScaleOut::one;
};

target::ValueOrError<WgmmaPlan> planWgmma(cta::MmaOp mma) {
  using Plan = target::ValueOrError<WgmmaPlan>;
  if (mma.getCtaPair())
    return Plan::failure("a CTA pair's MMA (cta_pair) is "
                         "tcgen05.mma.cta_group::2, which sm_90a does not "
                         "have (sm_100a)");
  auto lhs = llvm::dyn_cast<cta::BufferType>(mma.getLhs().getType());
  if (!lhs)
    return Plan::failure(
        "not implemented yet on sm_90a: an MMA with its lhs in registers");
  if (mma.getLhsScale())
    return Plan::failure(
        "sm_90a has no block-scaled MMA (NVFP4, MXFP8 need sm_100a)");
  cta::BufferType rhs = mma.getRhs().getType();
  Type element = lhs.getElementType(), rhsElement = rhs.getElementType();
  auto describe = [](auto &&...parts) {
    std::string text;
    llvm::raw_string_ostream os(text);
    (os << ... << parts);
    return text;
  };
  std::optional<NVVM::WGMMATypes> typeA = wgmmaOperandType(element),
                                  typeB = wgmmaOperandType(rhsElement);
  for (auto [type, wgmma] : {std::pair(element, typeA), {rhsElement, typeB}})
    if (!wgmma)
      return Plan::failure(
          describe("no sm_90a MMA for ", type, " operands yet"));
  // (wgmma takes two equal 16-bit types, or any two 8-bit floats: what the
  // cta.mma verifier admits.)
  if (!mma.getTransposeB())
    return Plan::failure("rhs must be K-major (transpose_b)");
  WgmmaPlan plan;
  plan.typeA = *typeA;
  plan.typeB = *typeB;
  if (Value accumulate = mma.getAccumulate()) {
    auto constant = accumulate.getDefiningOp<arith::ConstantOp>();
    if (!constant)
      return Plan::failure("not implemented yet on sm_90a: an accumulate "
                           "flag computed at run time");
    if (!llvm::cast<BoolAttr>(constant.getValue()).getValue())
      plan.firstScaleOut = NVVM::WGMMAScaleOut::zero;
  }
  cta::AccType acc = mma.getAcc().getType();
  if (std::optional<std::string> error = accumulatorError(acc))
    return Plan::failure(*error);
  target::ElementType a = *target::getElementType(element);
  target::ValueOrError<target::WgmmaInstructionShape> shape =
      target::wgmmaInstructionShape(a, target::ElementType::F32,
                                    acc.getShape()[1]);
  if (!shape)
    return Plan::failure(shape.error());
  plan.shape = *shape;
  if (lhs.getShape()[1] % shape->k != 0)
    return Plan::failure(describe("K = ", lhs.getShape()[1],
                                  " is not a multiple of the wgmma's K of ",
                                  shape->k));
  if (lhs.getShape()[0] % kMmaRows != 0)
    return Plan::failure(describe("the lhs has ", lhs.getShape()[0],
                                  " rows; wgmma reads whole 64-row blocks"));
  target::ValueOrError<uint64_t> highA = target::wgmmaDescriptorHighBits(
      target::OperandMajor::K, lhs.getSwizzleMode(), lhs.getShape()[0]);
  if (!highA)
    return Plan::failure(highA.error());
  target::ValueOrError<uint64_t> highB = target::wgmmaDescriptorHighBits(
      target::OperandMajor::K, rhs.getSwizzleMode(), rhs.getShape()[0]);
  if (!highB)
    return Plan::failure(highB.error());
  plan.highA = *highA;
  plan.highB = *highB;
  for (int64_t k = 0; k < lhs.getShape()[1] / shape->k; ++k) {
    target::ValueOrError<uint64_t> stepA = target::wgmmaKStepDescriptorDelta(
        target::OperandMajor::K, lhs.getSwizzleMode(), a, lhs.getShape()[0], k);
    target::ValueOrError<uint64_t> stepB = target::wgmmaKStepDescriptorDelta(
        target::OperandMajor::K, rhs.getSwizzleMode(), a, rhs.getShape()[0], k);
    if (!stepA || !stepB)
      return Plan::failure(stepA ? stepB.error() : stepA.error());
    plan.stepA.push_back(*stepA);
    plan.stepB.push_back(*stepB);
  }
  for (int64_t m = 0; m < acc.getShape()[0] / kMmaRows; ++m) {
    target::ValueOrError<uint64_t> block = target::wgmmaMNDescriptorDelta(
        target::OperandMajor::K, lhs.getSwizzleMode(), a, lhs.getShape()[0],
        m * kMmaRows);
    if (!block)
      return Plan::failure(block.error());
    plan.fragmentA.push_back(*block);
  }
  return plan;
}


//===----------------------------------------------------------------------===//
// Accumulators in registers
//===----------------------------------------------------------------------===//
// An accumulator of R rows is R/64 wgmma fragments. With one fragment it
// lowers to that fragment's struct; with several, to a struct of them, so
// that each wgmma takes and returns a whole fragment (extracting single
// registers between wgmmas would make ptxas serialize them, C7514).

int64_t fragments(cta::AccType type) { return type.getShape()[0] / kMmaRows; }

Type fragmentStruct(MLIRContext *ctx, cta::AccType type) {
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(type.getShape()[1] / 2, Float32Type::get(ctx)));
}

Type accStruct(cta::AccType type) {
  MLIRContext *ctx = type.getContext();
  if (fragments(type) == 1)
    return fragmentStruct(ctx, type);
  return LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(fragments(type), fragmentStruct(ctx, type)));
}

/// Reads and writes the fragments and registers of a lowered accumulator.
struct AccRegisters {
  AccRegisters(Emitter &e, cta::AccType type) : e(e), type(type) {}

  Value getFragment(Value acc, int64_t m) {
    if (fragments(type) == 1)
      return acc;
    return LLVM::ExtractValueOp::create(e.b, e.loc, acc, m);
  }
  Value setFragment(Value acc, Value fragment, int64_t m) {
    if (fragments(type) == 1)
      return fragment;
    return LLVM::InsertValueOp::create(e.b, e.loc, acc, fragment, m);
  }
  /// Register `i` of fragment `m`.
  Value getElement(Value acc, int64_t m, int64_t i) {
    if (fragments(type) == 1)
      return LLVM::ExtractValueOp::create(e.b, e.loc, acc, i);
    return LLVM::ExtractValueOp::create(e.b, e.loc, acc,
                                        ArrayRef<int64_t>{m, i});
  }

  /// Zeros, written by one `mov` per register. A zero aggregate would let
  /// LLVM copy one zeroed register into the others, and ptxas serializes
  /// the wgmma pipeline (C7514) when non-wgmma instructions read
  /// accumulator registers, which those copies do.
  Value zero() {
    Value acc = LLVM::UndefOp::create(e.b, e.loc, accStruct(type));
    auto structType = llvm::cast<LLVM::LLVMStructType>(
        fragmentStruct(type.getContext(), type));
    int64_t regs = structType.getBody().size();
    std::string text, constraints;
    for (int64_t i = 0; i < regs; ++i) {
      text += "mov.b32 $" + std::to_string(i) + ", 0;\n";
      constraints += (i ? ",=f" : "=f");
    }
    for (int64_t m = 0; m < fragments(type); ++m) {
      auto zeros = LLVM::InlineAsmOp::create(
          e.b, e.loc, structType, ValueRange{}, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(e.b.getContext(), LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
      acc = setFragment(acc, zeros.getResult(0), m);
    }
    return acc;
  }

  /// Pins an accumulator's registers at this point of the program: an empty
  /// side-effecting inline asm that takes and returns every register. LLVM
  /// sees the wgmma results as ordinary values and would otherwise move
  /// their first reads above the wgmma.wait_group that makes them valid (or
  /// the zero-initialization below the wgmma.fence that publishes it).
  Value pin(Value acc, bool copy = false) {
    for (int64_t m = 0; m < fragments(type); ++m) {
      Value fragment = getFragment(acc, m);
      auto structType = llvm::cast<LLVM::LLVMStructType>(fragment.getType());
      int64_t regs = structType.getBody().size();
      SmallVector<Value> operands;
      std::string constraints, text;
      for (int64_t i = 0; i < regs; ++i) {
        operands.push_back(
            LLVM::ExtractValueOp::create(e.b, e.loc, fragment, i));
        constraints += (i ? ",=f" : "=f");
      }
      for (int64_t i = 0; i < regs; ++i) {
        constraints += copy ? ",f" : "," + std::to_string(i);
        if (copy)
          text += "mov.b32 $" + std::to_string(i) + ", $" +
                  std::to_string(regs + i) + ";\n";
      }
      auto pinned = LLVM::InlineAsmOp::create(
          e.b, e.loc, structType, operands, /*asm_string=*/text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(e.b.getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr());
      acc = setFragment(acc, pinned.getResult(0), m);
    }
    return acc;
  }

  Emitter &e;
  cta::AccType type;
};

/// Pins every accumulator among `values` (types from `types`).
SmallVector<Value> pinAccumulators(Emitter &e, ValueRange values,
                                   TypeRange types, bool copy = false) {
  SmallVector<Value> pinned;
  for (auto [value, type] : llvm::zip(values, types)) {
    auto acc = llvm::dyn_cast<cta::AccType>(type);
    pinned.push_back(acc ? AccRegisters(e, acc).pin(value, copy) : value);
  }
  return pinned;
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

/// Column groups of an accumulator are runs of its fragment registers: the
/// wgmma accumulator holds columns [8j, 8j + 8) in registers [4j, 4j + 4).
struct SplitColsLowering : public OpConversionPattern<cta::SplitColsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::SplitColsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    cta::AccType whole = op.getInput().getType();
    AccRegisters from(e, whole);
    SmallVector<Value> parts;
    for (auto [index, part] : llvm::enumerate(op.getParts())) {
      auto type = llvm::cast<cta::AccType>(part.getType());
      AccRegisters to(e, type);
      int64_t regs = type.getShape()[1] / 2;
      int64_t first = target::wgmmaAccumulatorRegister(
          0, index * type.getShape()[1] / 8, 0);
      Value value =
          LLVM::UndefOp::create(rewriter, op.getLoc(), accStruct(type));
      for (int64_t m = 0; m < fragments(type); ++m) {
        Value fragment = LLVM::UndefOp::create(
            rewriter, op.getLoc(), fragmentStruct(getContext(), type));
        for (int64_t i = 0; i < regs; ++i)
          fragment = LLVM::InsertValueOp::create(
              rewriter, op.getLoc(), fragment,
              from.getElement(adaptor.getInput(), m, first + i), i);
        value = to.setFragment(value, fragment, m);
      }
      parts.push_back(value);
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

struct AccZeroLowering : public OpConversionPattern<cta::AccZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::AccZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, AccRegisters(e, op.getAcc().getType()).zero());
    return success();
  }
};

/// A warpgroup releases a stage with lanes 0..cluster size-1: lane r
/// arrives on the stage's empty barrier in cluster CTA r, because every
/// CTA's producer multicasts into this CTA's copy of the stage.
void releaseStage(Emitter &e, Value ring, Value slot, int64_t stages,
                  int64_t clusterSize) {
  Value lane = e.warpgroupLane();
  Value empty = e.barrier(ring, slot, stages, true);
  if (clusterSize == 1) {
    e.ifThen(e.eq(lane, e.i32(0)), [&] {
      NVVM::MBarrierArriveOp::create(e.b, e.loc, Type(), empty, Value(),
                                     NVVM::MemScopeKind::CTA, false);
    });
    return;
  }
  e.ifThen(e.ult(lane, e.i32(clusterSize)), [&] {
    Value remote = NVVM::MapaOp::create(
        e.b, e.loc, LLVM::LLVMPointerType::get(e.b.getContext(), 7), empty,
        lane);
    // .release.cta like a local arrive: the stage was read by wgmma, whose
    // completion wgmma.wait_group already established; a cluster-scope
    // release would add a GPU-wide memory barrier to every K step.
    NVVM::MBarrierArriveOp::create(e.b, e.loc, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CTA, false);
  });
}

/// For each K step: wait until the stage is full, issue the stage's MMAs as
/// one wgmma batch, and keep it in flight while the next stage's batch is
/// issued: once the previous batch has completed (wait_group 1), its stage
/// is released for the producer to refill.
struct ConsumeLowering : public AbiPattern<cta::ConsumeOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::ConsumeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    Value ring = adaptor.getRing();
    int64_t stages = op.getRing().getType().getStages();
    int64_t clusterSize = abi.clusterSize;
    Value position = e.toI32(adaptor.getPosition());
    Value count = adaptor.getCount();
    TypeRange carriedTypes = op.getInits().getTypes();

    ConsumeStepHooks hooks;
    // The stage's wgmmas read and write the carried accumulators: pinned
    // where the batch starts, published by wgmma.fence.
    hooks.beforeBody = [&](Emitter &step, ValueRange carried) {
      SmallVector<Value> pinned = pinAccumulators(step, carried, carriedTypes);
      NVVM::WgmmaFenceAlignedOp::create(step.b, step.loc);
      return pinned;
    };
    // Commit the stage's batch and keep it in flight; once the previous
    // batch has completed, its stage goes back to the producer.
    hooks.afterBody = [&](Emitter &step, Value kb, Value iteration, Value) {
      NVVM::WgmmaGroupSyncAlignedOp::create(step.b, step.loc);
      NVVM::WgmmaWaitGroupSyncOp::create(step.b, step.loc, 1);
      step.ifThen(
          step.cmp(arith::CmpIPredicate::ugt, step.toI32(kb), step.i32(0)),
          [&] {
            Value previous =
                step.ringSlot(step.sub(iteration, step.i32(1)), stages);
            releaseStage(step, ring, previous, stages, clusterSize);
          });
    };
    scf::ForOp loop = lowerConsumeLoop(rewriter, op, ring, position, count,
                                       adaptor.getInits(), hooks);
    NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
    SmallVector<Value> results = {Value()};
    llvm::append_range(results,
                       pinAccumulators(e, loop.getResults(), carriedTypes));
    Value count32 = e.toI32(count);
    e.ifThen(e.cmp(arith::CmpIPredicate::ugt, count32, e.i32(0)), [&] {
      Value last = e.ringSlot(e.sub(e.add(position, count32), e.i32(1)), stages);
      releaseStage(e, ring, last, stages, clusterSize);
    });
    results[0] = e.toIndex(e.add(position, count32));
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// acc += lhs x rhs as wgmma.mma_async, as planWgmma plans it. In a
/// pipelined stage the wgmmas join the stage's batch; elsewhere the MMA is
/// its own batch and completes before its result is used.
struct MmaLowering : public OpConversionPattern<cta::MmaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    target::ValueOrError<WgmmaPlan> plan = planWgmma(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    cta::AccType accType = op.getAcc().getType();
    // Descriptors of this stage's tiles; the warpgroup's rows start
    // `lhs_row` rows into every column block of the lhs.
    MmaOperandAddresses addresses = mmaOperandAddresses(e, op, adaptor);
    Value descA = e.smemDescriptor(addresses.lhs, plan->highA),
          descB = e.smemDescriptor(addresses.rhs, plan->highB);

    AccRegisters regs(e, accType);
    bool batched = op.getInStage();
    Value acc = adaptor.getAcc();
    if (!batched) {
      acc = regs.pin(acc);
      NVVM::WgmmaFenceAlignedOp::create(rewriter, loc);
    }
    auto mmaShape = NVVM::MMAShapeAttr::get(getContext(), plan->shape.m,
                                            plan->shape.n, plan->shape.k);
    for (auto [k, stepA, stepB] :
         llvm::enumerate(plan->stepA, plan->stepB)) {
      Value dB = e.add(descB, e.i64(stepB));
      for (auto [mb, blockA] : llvm::enumerate(plan->fragmentA)) {
        Value dA = e.add(descA, e.i64(stepA + blockA));
        Value fragment = regs.getFragment(acc, mb);
        Value result = NVVM::WgmmaMmaAsyncOp::create(
            rewriter, loc, fragment.getType(), fragment, dA, dB, mmaShape,
            plan->typeA, plan->typeB, NVVM::WGMMATypes::f32,
            k == 0 ? plan->firstScaleOut : NVVM::WGMMAScaleOut::one,
            NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
            NVVM::MMALayout::row, NVVM::MMALayout::col, nullptr);
        acc = regs.setFragment(acc, result, mb);
      }
    }
    if (!batched) {
      NVVM::WgmmaGroupSyncAlignedOp::create(rewriter, loc);
      NVVM::WgmmaWaitGroupSyncOp::create(rewriter, loc, 0);
      acc = regs.pin(acc);
    }
    rewriter.replaceOp(op, acc);
    return success();
  }
};

/// A tile store, one staging block (one TMA box) at a time: the epilogue
/// for the block's fragment elements (reading epilogue inputs at each
/// element's row and column), written into the block with stmatrix (16-bit
/// outputs) or paired stores (32-bit), then copied out (TileStore). Working
/// block by block keeps only one block's results live next to the
/// accumulators.
struct StoreLowering : public AbiPattern<cta::StoreOp> {
  using AbiPattern::AbiPattern;

  /// Where this thread's fragment elements sit in the tile: the thread's
  /// own offset plus the register's, as the wgmma accumulator layout places
  /// them (compiler/Target/WgmmaFragment.h):
  /// coord(thread, reg) = coord(thread, 0) + coord(0, reg), with
  /// coord(thread, 0) = (target::wgmmaQuadRow, target::wgmmaPairColumn).
  static int64_t regRow(int64_t m, int64_t i) {
    return m * kMmaRows + target::wgmmaAccumulatorCoord(0, i).row;
  }
  static int64_t regCol(int64_t i) {
    return target::wgmmaAccumulatorCoord(0, i).col;
  }

  LogicalResult
  matchAndRewrite(cta::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    OpBuilder &b = rewriter;
    TileStore store(e, op, adaptor.getIndices(), adaptor.getStaging(),
                    adaptor.getStagingSlot(), abi, kernel);
    if (failed(store.prepare()))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    auto accType = cta::AccType::get(getContext(), op.getTileShape(),
                                     Float32Type::get(getContext()));
    AccRegisters regs(e, accType);
    Type element = store.element;
    int64_t fragmentsOf = store.rows / kMmaRows;
    int64_t elementBytes = store.elementBytes;
    int64_t blockColumns = store.blockColumns;

    Value t = store.lane;
    Value selfRow = e.threadMap(target::wgmmaQuadRow, t);
    Value selfCol = e.threadMap(target::wgmmaPairColumn, t);
    Value laneRow = e.add(store.row0, selfRow);
    Value laneCol = e.add(store.col0, selfCol);
    auto pack = [&](Value lo, Value hi) -> Value {
      Value pair = LLVM::UndefOp::create(b, loc, VectorType::get({2}, element));
      pair = LLVM::InsertElementOp::create(b, loc, pair, lo, e.i32(0));
      pair = LLVM::InsertElementOp::create(b, loc, pair, hi, e.i32(1));
      return pair;
    };
    // The address this thread gives stmatrix.x4 for a 16x16 block; 32-bit
    // outputs store the thread's fragment pairs directly.
    Value stRow = e.threadMap(target::stmatrixX4Row, t);
    Value stColBytes = e.mul(e.threadMap(target::stmatrixX4Column, t),
                             e.i32(elementBytes));
    Value pairColBytes = e.mul(selfCol, e.i32(elementBytes));

    // The epilogue of fragment element (m, i); each element is computed
    // where it is written to the staging block, so that only a few results
    // are live next to the accumulators (an epilogue with transcendental
    // functions would spill otherwise).
    auto valueAt = [&](int64_t m, int64_t i) -> Value {
      SmallVector<Value> values;
      for (Value value : adaptor.getValues())
        values.push_back(regs.getElement(value, m, i));
      return store.epilogue(values, laneRow, regRow(m, i), laneCol, regCol(i));
    };

    for (int64_t block = 0; block < store.tileBlocks; ++block) {
      // This block's registers of each fragment: columns
      // [block * blockColumns, (block + 1) * blockColumns).
      int64_t firstReg = block * blockColumns / 2;
      Value buffer = store.beginBlock(block);
      for (int64_t m = 0; m < fragmentsOf; ++m) {
        if (elementBytes == 2) {
          Value row = e.add(stRow, e.i32(m * kMmaRows));
          for (int64_t jj = 0; jj < blockColumns / 16; ++jj) {
            int64_t block16 = firstReg / 8 + jj; // the tile's 16-column block
            SmallVector<Value> quads;
            for (int64_t q = 0; q < 4; ++q)
              quads.push_back(LLVM::BitcastOp::create(
                  b, loc, e.i32Type(),
                  pack(valueAt(m, target::stmatrixX4AccumulatorRegister(
                                      block16, q, 0)),
                       valueAt(m, target::stmatrixX4AccumulatorRegister(
                                      block16, q, 1)))));
            Value offset = store.swizzled(
                row, e.add(e.i32(16 * jj * elementBytes), stColBytes));
            NVVM::StMatrixOp::create(
                b, loc, e.bytePtr(buffer, offset), quads, NVVM::MMALayout::row,
                NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
                NVVM::LdStMatrixEltType::B16);
          }
        } else {
          for (int64_t c8 = 0; c8 < blockColumns / 8; ++c8) {
            for (int64_t half = 0; half < 2; ++half) {
              // The fragment register of (row 8 * half, column 8 * c8).
              int64_t i = target::wgmmaAccumulatorRegister(
                  half, firstReg / 4 + c8, 0);
              Value row = e.add(selfRow, e.i32(regRow(m, i)));
              Value offset = store.swizzled(
                  row, e.add(e.i32(8 * c8 * elementBytes), pairColBytes));
              LLVM::StoreOp::create(b, loc,
                                    pack(valueAt(m, i), valueAt(m, i + 1)),
                                    e.bytePtr(buffer, offset),
                                    /*alignment=*/8);
            }
          }
        }
      }
      store.endBlock(buffer, block);
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The two parts of a stream-K tile meet in the workspace (KernelABI.h,
/// StreamKJoinPlan), and whichever arrives last finishes the tile, so
/// neither waits for the other: each warpgroup of a part stores its
/// registers as float4s into its part's half of the region, syncs, and one
/// thread counts its arrival on the warpgroup's counter (`atom.acq_rel.gpu`:
/// its stores published, the other part's seen); a barrier reduction tells
/// the warpgroup whether it came second. The second adds the other part's
/// float4s to its registers, resets the counter for the next launch and
/// runs the epilogue; the first goes on to its next tile. The decision is
/// per warpgroup, so every thread of one runs the same epilogue.
struct StreamKJoinLowering : public AbiPattern<cta::StreamKJoinOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::StreamKJoinOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    auto found = abi.streamKJoins.find(op);
    if (found == abi.streamKJoins.end())
      return rewriter.notifyMatchFailure(op, "outside a warp role");
    const StreamKJoinPlan &plan = found->second;
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    MLIRContext *ctx = getContext();
    Type f32 = Float32Type::get(ctx), i64 = rewriter.getI64Type();
    Type i32 = e.i32Type();
    auto vec4 = VectorType::get({4}, f32);
    auto global = LLVM::LLVMPointerType::get(ctx, 1);

    Value kBegin = e.toI32(adaptor.getKBegin());
    Value kEnd = e.toI32(adaptor.getKEnd());
    Value kExtent = e.toI32(adaptor.getKExtent());
    Value secondPart = e.cmp(arith::CmpIPredicate::ne, kBegin, e.i32(0));
    Value split = arith::OrIOp::create(rewriter, loc, secondPart,
                                       e.ult(kEnd, kExtent));

    Value thread =
        e.sub(e.threadId(), e.i32(plan.firstWarpgroup * kWarpgroupThreads));
    Value warpgroup = e.udiv(thread, e.i32(kWarpgroupThreads));
    Value lane = e.urem(thread, e.i32(kWarpgroupThreads));
    Value rank = abi.clusterSize > 1
                     ? Value(NVVM::ClusterId::create(rewriter, loc, i32))
                     : e.i32(0);
    Value region = e.add(
        e.mul(e.toI32(adaptor.getPartial()), e.i32(abi.clusterSize)), rank);
    // Counters first, at the same place for every kernel of the manifest;
    // the sums after the counter area (KernelABI.h, StreamKJoinPlan).
    Value workspace = kernel.getArgument(abi.workspaceArg);
    Value regionOffset = e.add(
        e.i64(kWorkspaceCounterBytes),
        e.mul(arith::ExtUIOp::create(rewriter, loc, i64, region),
              e.i64(plan.regionBytes())));
    Value base = LLVM::GEPOp::create(rewriter, loc, global,
                                     rewriter.getI8Type(), workspace,
                                     ValueRange{regionOffset});
    Value own = e.bytePtr(base, e.mul(arith::ExtUIOp::create(rewriter, loc,
                                                             i32, secondPart),
                                      e.i32(plan.partBytes())));
    Value other = e.bytePtr(
        base, e.mul(arith::ExtUIOp::create(
                        rewriter, loc, i32,
                        e.cmp(arith::CmpIPredicate::eq, kBegin, e.i32(0))),
                    e.i32(plan.partBytes())));
    Value counter = e.bytePtr(
        workspace,
        e.add(e.mul(region, e.i32(kWorkspaceCounterStride)),
              e.mul(warpgroup, e.i32(16))));
    auto float4At = [&](Value part, int64_t j) {
      return e.bytePtr(part, e.mul(e.add(e.i32(j * plan.threads), thread),
                                   e.i32(16)));
    };
    auto asmOp = [&](Type result, ValueRange operands, StringRef text,
                     StringRef constraints) {
      return LLVM::InlineAsmOp::create(
          rewriter, loc, result, operands, text, constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
    };
    // The warpgroup's named barrier, as the store uses.
    Value barrierId = e.warpgroupBarrierId();

    // Every register of every accumulator, in order: (acc, fragment, reg).
    struct Reg {
      unsigned acc;
      int64_t fragment, index;
    };
    SmallVector<Reg> registers;
    SmallVector<cta::AccType> types;
    for (auto [a, value] : llvm::enumerate(op.getAccs())) {
      auto type = llvm::cast<cta::AccType>(value.getType());
      types.push_back(type);
      for (int64_t m = 0; m < fragments(type); ++m)
        for (int64_t i = 0; i < type.getShape()[1] / 2; ++i)
          registers.push_back({static_cast<unsigned>(a), m, i});
    }
    int64_t float4s = static_cast<int64_t>(registers.size()) / 4;
    SmallVector<Value> accs(adaptor.getAccs());
    SmallVector<Type> resultTypes;
    for (Value acc : accs)
      resultTypes.push_back(acc.getType());
    resultTypes.push_back(rewriter.getI1Type());
    auto element = [&](ArrayRef<Value> values, const Reg &r) {
      return AccRegisters(e, types[r.acc]).getElement(values[r.acc], r.fragment,
                                                      r.index);
    };

    auto join = scf::IfOp::create(rewriter, loc, resultTypes, split,
                                  /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      // A whole tile: its own sums, complete.
      rewriter.setInsertionPointToStart(&join.getElseRegion().front());
      SmallVector<Value> whole(accs);
      whole.push_back(arith::ConstantIntOp::create(rewriter, loc, 1, 1));
      scf::YieldOp::create(rewriter, loc, whole);

      // A part: publish, count the arrival, and finish if second.
      rewriter.setInsertionPointToStart(&join.getThenRegion().front());
      for (int64_t j = 0; j < float4s; ++j) {
        Value v = LLVM::UndefOp::create(rewriter, loc, vec4);
        for (int64_t l = 0; l < 4; ++l)
          v = LLVM::InsertElementOp::create(rewriter, loc, v,
                                            element(accs, registers[4 * j + l]),
                                            e.i32(l));
        LLVM::StoreOp::create(rewriter, loc, v, float4At(own, j),
                              /*alignment=*/16);
      }
      NVVM::BarrierOp::create(rewriter, loc, Type(), barrierId,
                              e.i32(kWarpgroupThreads), nullptr, Value());
      auto count = scf::IfOp::create(rewriter, loc, TypeRange{i32},
                                     e.eq(lane, e.i32(0)),
                                     /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPointToStart(&count.getThenRegion().front());
        Value before = asmOp(i32, ValueRange{counter},
                             "atom.acq_rel.gpu.global.add.u32 $0, [$1], 1;",
                             "=r,l,~{memory}")
                           .getResult(0);
        scf::YieldOp::create(
            rewriter, loc,
            ValueRange{arith::ExtUIOp::create(rewriter, loc, i32,
                                              e.eq(before, e.i32(1)))});
        rewriter.setInsertionPointToStart(&count.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, ValueRange{e.i32(0)});
      }
      // (nvvm.barrier takes a reduction only on barrier 0.)
      Value second =
          asmOp(i32, ValueRange{barrierId, count.getResult(0)},
                "{\n.reg .pred kiln_in, kiln_out;\n"
                "setp.ne.u32 kiln_in, $2, 0;\n"
                "bar.red.or.pred kiln_out, $1, 128, kiln_in;\n"
                "selp.u32 $0, 1, 0, kiln_out;\n}",
                "=r,r,r,~{memory}")
              .getResult(0);
      Value finishes = e.cmp(arith::CmpIPredicate::ne, second, e.i32(0));
      auto add = scf::IfOp::create(rewriter, loc, TypeRange(resultTypes).drop_back(),
                                   finishes, /*withElseRegion=*/true);
      {
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPointToStart(&add.getThenRegion().front());
        SmallVector<Value> sums(accs);
        for (int64_t j = 0; j < float4s; ++j) {
          Value v = LLVM::LoadOp::create(rewriter, loc, vec4,
                                         float4At(other, j), /*alignment=*/16);
          for (int64_t l = 0; l < 4; ++l) {
            const Reg &r = registers[4 * j + l];
            Value sum = arith::AddFOp::create(
                rewriter, loc, element(sums, r),
                LLVM::ExtractElementOp::create(rewriter, loc, v, e.i32(l)));
            AccRegisters regs(e, types[r.acc]);
            Value fragment = regs.getFragment(sums[r.acc], r.fragment);
            fragment = LLVM::InsertValueOp::create(rewriter, loc, fragment,
                                                   sum, r.index);
            sums[r.acc] = regs.setFragment(sums[r.acc], fragment, r.fragment);
          }
        }
        // Both parts have arrived: the counter is free for the next launch.
        e.ifThen(e.eq(lane, e.i32(0)), [&] {
          LLVM::StoreOp::create(rewriter, loc, e.i32(0), counter,
                                /*alignment=*/4);
        });
        scf::YieldOp::create(rewriter, loc, sums);
        rewriter.setInsertionPointToStart(&add.getElseRegion().front());
        scf::YieldOp::create(rewriter, loc, accs);
      }
      SmallVector<Value> results(add.getResults());
      results.push_back(finishes);
      scf::YieldOp::create(rewriter, loc, results);
    }
    rewriter.replaceOp(op, join.getResults());
    return success();
  }
};

/// What the wgmma patterns lower, checked before the conversion starts.
LogicalResult checkWgmmaLowered(Operation *op, target::Chip chip) {
  if (failed(checkLoweredAlike(op, chip)))
    return failure();
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](cta::AccZeroOp zero) -> LogicalResult {
        return checkAccumulator(op, zero.getAcc().getType());
      })
      .Case([&](cta::LoadOp load) -> LogicalResult {
        if (load.getCtaPair())
          return op->emitError("convert-cta-to-nvvm: a CTA pair's copy "
                               "(cta_pair) feeds tcgen05.mma.cta_group::2, "
                               "which sm_90a does not have (sm_100a)");
        return success();
      })
      .Case([&](cta::MmaOp mma) -> LogicalResult {
        target::ValueOrError<WgmmaPlan> plan = planWgmma(mma);
        if (!plan)
          return op->emitError() << "convert-cta-to-nvvm: " << plan.error();
        return success();
      })
      .Case([&](cta::StoreOp store) -> LogicalResult {
        for (Value value : store.getValues())
          if (failed(checkAccumulator(
                  op, llvm::cast<cta::AccType>(value.getType()))))
            return failure();
        return success();
      })
      .Case([&](cta::StreamKJoinOp join) -> LogicalResult {
        for (Value value : join.getAccs())
          if (failed(checkAccumulator(
                  op, llvm::cast<cta::AccType>(value.getType()))))
            return failure();
        return success();
      })
      .Default([](Operation *) { return success(); });
}

class WgmmaLowering final : public ChipLowering {
public:
  using ChipLowering::ChipLowering;
  LogicalResult check(Operation *op) const override {
    return checkWgmmaLowered(op, chip.id);
  }
  void addTypeConversions(TypeConverter &converter) const override {
    converter.addConversion(
        [](cta::AccType type) -> Type { return accStruct(type); });
  }
  void populatePatterns(TypeConverter &converter, RewritePatternSet &patterns,
                        const KernelABIs &abis) const override {
    MLIRContext *ctx = patterns.getContext();
    patterns.add<AccZeroLowering, SplitColsLowering, MmaLowering>(converter,
                                                                  ctx);
    patterns.add<ConsumeLowering, StoreLowering, StreamKJoinLowering>(
        converter, ctx, abis);
  }
};

} // namespace

std::unique_ptr<ChipLowering>
kiln::createWgmmaLowering(const target::ChipInfo &chip) {
  return std::make_unique<WgmmaLowering>(chip);
}
