//===- CtaToSm100.cpp - cta lowering patterns for sm_100a (Blackwell) -----===//
//
// On sm_100a an accumulator lives in tensor memory (TMEM): 128 lanes, one per
// accumulator row, and one 32-bit column per f32 element of the row. One
// warp allocates the program's columns before the warp roles start and
// releases them after every role has finished; each cta.acc_zero owns a
// fixed range of them (`tmem_column`, from cta-allocate-resources). The lowered accumulator is the
// pair (TMEM address, holds data): "zero" is not written anywhere, the
// first MMA of a tile simply does not read D.
//
// MMAs are tcgen05.mma issued by one thread of the math warpgroup on the
// same K-major shared-memory tiles as wgmma (other descriptor encoding,
// compiler/Target/Tcgen05Descriptor.h). The consumer side of a ring commits
// each stage's MMAs to the stage's empty barrier, so a stage is released
// when the tensor core has finished reading it, with no wait in the issuing
// thread; after the K loop the warpgroup waits on the last stage's release,
// which also means every MMA of the tile has completed.
//
// A store reads the accumulator with tcgen05.ld: warp w of the warpgroup
// owns lanes [32 (w % 4), 32 (w % 4) + 32), so each thread holds one row and
// a run of consecutive columns, applies the epilogue per element and writes
// 16-byte chunks of its row into the swizzled staging block that a TMA store
// copies out (TileStore.h, shared with sm_90a).
//
// Reference for every encoding: lowering-brief §5.6-5.8 and the PTX ISA's
// tcgen05 chapter; nothing here has run on a Blackwell GPU yet (see
// docs/architecture.md, "What stands behind sm_100a").
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/ChipLowering.h"
#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "compiler/Conversion/CtaToNVVM/Tcgen05Values.h"
#include "compiler/Conversion/CtaToNVVM/TileStore.h"
#include "compiler/Target/MLIR/ElementTypes.h"
#include "compiler/Target/BlockScaleLayout.h"
#include "compiler/Target/Tcgen05Descriptor.h"
#include "compiler/Target/TensorMemory.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tcgen05;

namespace {

/// Accumulator rows of one cta_group::1 tcgen05.mma: one per TMEM lane.
constexpr int64_t kMmaRows = target::tmemLanes;

/// The tcgen05 form of a block-scaled cta.mma: NVFP4 (e2m1 data, e4m3
/// scales per 16: kind::mxf4nvf4.block16) or MXFP8 (e4m3/e5m2 data, ue8m0
/// scales per 32: kind::mxf8f6f4.block32).
struct ScaledMma {
  target::Tcgen05Kind kind;
  target::ElementType data, scale;
  unsigned block;
  NVVM::MMABlockScaleKind nvvmKind;
  NVVM::Tcgen05MMABlockScale nvvmBlock;
};

FailureOr<ScaledMma> scaledMmaOf(cta::MmaOp mma, std::string &error) {
  auto lhs = llvm::cast<cta::BufferType>(mma.getLhs().getType());
  std::optional<target::ElementType> data =
      target::getElementType(lhs.getElementType());
  std::optional<target::ElementType> scale = target::getElementType(
      mma.getLhsScale().getType().getElementType());
  std::optional<target::ElementType> rhsScale = target::getElementType(
      mma.getRhsScale().getType().getElementType());
  int64_t block = mma.getScaleBlock().value_or(0);
  if (data == target::ElementType::E2M1 && block == 16 &&
      scale == target::ElementType::E4M3 && rhsScale == scale)
    return ScaledMma{target::Tcgen05Kind::MXF4NVF4, *data,
                     target::ElementType::UE4M3, 16,
                     NVVM::MMABlockScaleKind::MXF4NVF4,
                     NVVM::Tcgen05MMABlockScale::BLOCK16};
  if ((data == target::ElementType::E4M3 ||
       data == target::ElementType::E5M2) &&
      block == 32 && scale == target::ElementType::UE8M0 &&
      rhsScale == scale)
    return ScaledMma{target::Tcgen05Kind::MXF8F6F4, *data,
                     target::ElementType::UE8M0, 32,
                     NVVM::MMABlockScaleKind::MXF8F6F4,
                     NVVM::Tcgen05MMABlockScale::BLOCK32};
  llvm::raw_string_ostream os(error);
  os << "no sm_100a block-scaled MMA for " << lhs.getElementType()
     << " data with " << mma.getLhsScale().getType().getElementType()
     << " scales per " << block
     << " (NVFP4: f4E2M1FN with f8E4M3FN per 16; MXFP8: f8E4M3FN or "
        "f8E5M2 with f8E8M0FNU per 32)";
  return failure();
}

/// Scale-factor atoms (32 rows of 16 bytes) in a block-scale buffer.
int64_t scaleAtoms(cta::BufferType buffer) {
  return buffer.getShape()[0] / target::scaleFactorAtomBufferRows;
}

/// The warp that allocates and releases tensor memory (whole-warp
/// instructions, the same warp for both): warp 0, before the roles split
/// the CTA and after they join again.
Value isAllocatingWarp(Emitter &e) {
  return e.eq(e.udiv(e.threadId(), e.i32(target::threadsPerWarp)), e.i32(0));
}

/// The CTA group of the program's tcgen05 instructions: 2 for CTA pairs.
NVVM::CTAGroupKind ctaGroup(const KernelABI &abi) {
  return abi.ctaPair ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1;
}

/// A zero accumulator: its columns, read from the allocation's slot, and
/// "holds no data", so the first MMA overwrites instead of accumulating.
struct AccZeroLowering : public AbiPattern<cta::AccZeroOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::AccZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    std::optional<int64_t> column = op.getTmemColumn();
    if (!column)
      return rewriter.notifyMatchFailure(op, "no tensor-memory columns");
    Emitter e(rewriter, op.getLoc());
    // tcgen05.alloc wrote the slot before the CTA barrier that started the
    // roles.
    fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value address = e.add(tmemBase(e, abi), e.i32(*column));
    rewriter.replaceOp(op, makeAcc(e, address, boolConstant(e, false)));
    return success();
  }
};

/// Column groups of an accumulator are column ranges of its TMEM.
struct SplitColsLowering : public OpConversionPattern<cta::SplitColsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::SplitColsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    Value address = accAddress(e, adaptor.getInput());
    Value written = accWritten(e, adaptor.getInput());
    SmallVector<Value> parts;
    int64_t column = 0;
    for (Value part : op.getParts()) {
      parts.push_back(makeAcc(e, e.add(address, e.i32(column)), written));
      column += llvm::cast<cta::AccType>(part.getType()).getShape()[1];
    }
    rewriter.replaceOp(op, parts);
    return success();
  }
};

/// For each K step: wait until the stage is full, let one thread issue the
/// stage's MMAs and commit them to the stage's empty barrier (the tensor
/// core arrives there once it has read the stage). In a math role the
/// warpgroup then waits for the last stage's release: by then every MMA of
/// the loop has completed and the accumulators may be read. In an mma role
/// (one thread) the loop ends at once; cta.acc_commit follows.
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

    ConsumeStepHooks hooks;
    // In a cluster every CTA's producer multicasts into this CTA's copy of
    // the stage, so the commit arrives on the stage's empty barrier in each
    // CTA of the cluster (the same offset everywhere); a CTA pair's leader
    // releases the stage in both CTAs of the pair.
    hooks.afterBody = [&](Emitter &step, Value, Value, Value slot) {
      issueOnce(step, op.getOneThread(), [&] {
        Value mask =
            clusterSize > 1 ? step.clusterMask(clusterSize) : Value();
        NVVM::Tcgen05CommitOp::create(
            step.b, step.loc,
            step.barrier(ring, slot, stages, /*empty=*/true), mask,
            ctaGroup(abi));
      });
    };
    scf::ForOp loop = lowerConsumeLoop(rewriter, op, ring, position, count,
                                       adaptor.getInits(), hooks);
    Value count32 = e.toI32(count);
    Value end = e.add(position, count32);
    // In an mma role the MMAs stay in flight: the cta.acc_commit that hands
    // the accumulators to the epilogue tracks their completion.
    if (!op.getOneThread()) {
      e.ifThen(e.cmp(arith::CmpIPredicate::ugt, count32, e.i32(0)), [&] {
        Value last = e.sub(end, e.i32(1));
        e.wait(
            e.barrier(ring, e.ringSlot(last, stages), stages, /*empty=*/true),
            e.ringPhase(last, stages));
      });
      fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    }
    SmallVector<Value> results = {e.toIndex(end)};
    llvm::append_range(results, loop.getResults());
    rewriter.replaceOp(op, results);
    return success();
  }
};

/// The dense tcgen05.mma kind of two operand types: kind::f16 for two equal
/// 16-bit types, kind::f8f6f4 for two 8-bit floats (e4m3, e5m2, mixed).
static std::optional<target::Tcgen05Kind> denseKindOf(Type a, Type b) {
  if ((a.isBF16() || a.isF16()) && a == b)
    return target::Tcgen05Kind::F16;
  if (target::isMmaFp8(a) && target::isMmaFp8(b))
    return target::Tcgen05Kind::F8F6F4;
  return std::nullopt;
}

/// Accumulators are whole tensor-memory lane ranges: 128 rows.
std::optional<std::string> accumulatorError(cta::AccType acc) {
  if (acc.getShape()[0] == kMmaRows)
    return std::nullopt;
  return "a " + std::to_string(acc.getShape()[0]) +
         "-row accumulator; on sm_100a an accumulator fills the " +
         std::to_string(kMmaRows) + " lanes of tensor memory";
}

LogicalResult checkAccumulator(Operation *op, cta::AccType acc) {
  if (std::optional<std::string> error = accumulatorError(acc))
    return op->emitError() << "convert-cta-to-nvvm: " << *error;
  return success();
}

/// How a cta.mma becomes tcgen05.mma instructions: kind::f16 or
/// kind::f8f6f4 (M = 128, or 256 over a CTA pair; N = the accumulator's
/// columns; 32 bytes of K per instruction), or a block-scaled kind, on
/// K-major shared-memory descriptors. The one place that decides whether an
/// MMA lowers on sm_100a: the check before the conversion reports its
/// error, the pattern emits its plan.
struct Tcgen05MmaPlan {
  target::Tcgen05InstrDescriptorFields fields;
  /// The descriptors' constant fields.
  uint64_t highA = 0, highB = 0;
  /// Per K step: the instruction descriptor (block-scaled kinds pick their
  /// scale bytes with it), what each operand's descriptor advances by, and
  /// each operand's scale-factor column offset.
  SmallVector<uint32_t> idesc;
  SmallVector<uint64_t> stepA, stepB;
  SmallVector<std::pair<uint32_t, uint32_t>> scaleColumns;
  std::optional<ScaledMma> scaled;
  /// Whether the first instruction ignores what D holds (accumulate false).
  bool overwrite = false;
  /// A is read from tensor memory (the lhs is a cta.tmem tile): per K step
  /// its column offset (target::tmemOperandKStepColumns) instead of a
  /// descriptor.
  bool tmemA = false;
};

target::ValueOrError<Tcgen05MmaPlan> planTcgen05Mma(cta::MmaOp mma) {
  using Plan = target::ValueOrError<Tcgen05MmaPlan>;
  if (llvm::isa<cta::FragType>(mma.getLhs().getType()))
    return Plan::failure(
        "an MMA with its lhs in registers: tcgen05.mma reads A from shared "
        "or tensor memory (a cta.tmem tile)");
  auto lhs = llvm::dyn_cast<cta::BufferType>(mma.getLhs().getType());
  auto lhsTile = llvm::dyn_cast<cta::TmemType>(mma.getLhs().getType());
  cta::BufferType rhs = mma.getRhs().getType();
  Type element = lhs ? lhs.getElementType() : lhsTile.getElementType();
  Type rhsElement = rhs.getElementType();
  ArrayRef<int64_t> lhsShape = lhs ? lhs.getShape() : lhsTile.getShape();
  Tcgen05MmaPlan plan;
  plan.tmemA = static_cast<bool>(lhsTile);
  target::Tcgen05InstrDescriptorFields &fields = plan.fields;
  for (Type type : {element, rhsElement})
    if (!target::getElementType(type))
      return Plan::failure(
          describe("no sm_100a MMA for ", type, " operands"));
  fields.a = *target::getElementType(element);
  fields.b = *target::getElementType(rhsElement);
  if (mma.getLhsScale() && plan.tmemA)
    return Plan::failure("not implemented yet on sm_100a: a block-scaled MMA "
                         "with its lhs in tensor memory");
  if (mma.getLhsScale()) {
    std::string error;
    FailureOr<ScaledMma> scaled = scaledMmaOf(mma, error);
    if (failed(scaled))
      return Plan::failure(error);
    plan.scaled = *scaled;
    fields.kind = scaled->kind;
    fields.scaleType = scaled->scale;
    fields.scaleBlock = scaled->block;
  } else if (std::optional<target::Tcgen05Kind> kind =
                 denseKindOf(element, rhsElement)) {
    fields.kind = *kind;
  } else {
    return Plan::failure(describe(
        "no sm_100a MMA multiplies ", element, " by ", rhsElement,
        " (kind::f16: both bf16 or both f16; kind::f8f6f4: both e4m3/e5m2)"));
  }
  // An rhs stored [K, N] (attention's V) is read MN-major.
  target::OperandMajor rhsMajor = mma.getTransposeB()
                                      ? target::OperandMajor::K
                                      : target::OperandMajor::MN;
  // (The cta.mma verifier keeps block-scaled and CTA-pair rhs K-major.)
  fields.bMajor = rhsMajor;
  // (A flag computed at run time is read with the accumulator's "holds
  // data" in the lowering.)
  if (Value accumulate = mma.getAccumulate())
    if (auto constant = accumulate.getDefiningOp<arith::ConstantOp>())
      plan.overwrite = !llvm::cast<BoolAttr>(constant.getValue()).getValue();
  cta::AccType acc = mma.getAcc().getType();
  if (std::optional<std::string> error = accumulatorError(acc))
    return Plan::failure(*error);
  fields.accumulator = target::ElementType::F32;
  // A CTA pair's MMA covers both CTAs' rows.
  fields.ctaGroup = mma.getCtaPair() ? target::ctaPairSize : 1;
  fields.m = acc.getShape()[0] * fields.ctaGroup;
  fields.n = acc.getShape()[1];
  target::ValueOrError<uint32_t> idesc =
      target::encodeTcgen05InstrDescriptor(fields);
  if (!idesc)
    return Plan::failure(idesc.error());
  unsigned instructionK = target::tcgen05InstructionK(fields.kind);
  if (lhsShape[1] % instructionK != 0)
    return Plan::failure(describe("K = ", lhsShape[1],
                                  " is not a multiple of the tcgen05.mma's K "
                                  "of ",
                                  instructionK));
  if (lhsShape[0] != kMmaRows)
    return Plan::failure(describe("the lhs has ", lhsShape[0],
                                  " rows; tcgen05.mma reads ", kMmaRows));
  // (The rhs tile covers the accumulator's columns, or in a CTA pair half
  // of them: the cta.mma verifier checks it.)
  if (mma.getCtaPair() && plan.scaled)
    return Plan::failure(
        "not implemented yet on sm_100a: block-scaled MMAs of a CTA pair");
  if (lhs) {
    target::ValueOrError<uint64_t> highA = target::tcgen05DescriptorHighBits(
        target::OperandMajor::K, lhs.getSwizzleMode(), lhsShape[0]);
    if (!highA)
      return Plan::failure(highA.error());
    plan.highA = *highA;
  }
  // The rhs's rows: N rows K-major, K rows MN-major (CanonicalLayout.h).
  target::ValueOrError<uint64_t> highB = target::tcgen05DescriptorHighBits(
      rhsMajor, rhs.getSwizzleMode(), rhs.getShape()[0]);
  if (!highB)
    return Plan::failure(highB.error());
  plan.highB = *highB;
  int64_t kSteps = lhsShape[1] / instructionK;
  for (int64_t k = 0; k < kSteps; ++k) {
    target::ValueOrError<uint64_t> stepA =
        lhs ? target::tcgen05KStepDescriptorDelta(
                  fields.kind, target::OperandMajor::K, lhs.getSwizzleMode(),
                  lhsShape[0], k)
            : target::ValueOrError<uint64_t>(0);
    target::ValueOrError<uint64_t> stepB = target::tcgen05KStepDescriptorDelta(
        fields.kind, rhsMajor, rhs.getSwizzleMode(), rhs.getShape()[0], k);
    if (!stepA || !stepB)
      return Plan::failure(stepA ? stepB.error() : stepA.error());
    plan.stepA.push_back(*stepA);
    plan.stepB.push_back(*stepB);
    plan.idesc.push_back(*idesc);
    plan.scaleColumns.push_back({0, 0});
    if (!plan.scaled)
      continue;
    // Block scales: each MMA reads its atom group and picks its scale bytes
    // with the instruction descriptor's IDs.
    target::ValueOrError<target::ScaleFactorTmemOperand> a =
        target::scaleFactorTmemOperand(plan.scaled->kind, plan.scaled->block,
                                       acc.getShape()[0], k);
    target::ValueOrError<target::ScaleFactorTmemOperand> b =
        target::scaleFactorTmemOperand(plan.scaled->kind, plan.scaled->block,
                                       acc.getShape()[1], k);
    if (!a || !b)
      return Plan::failure(a ? b.error() : a.error());
    target::Tcgen05InstrDescriptorFields stepFields = fields;
    stepFields.scaleFactorIdA = a->scaleFactorId;
    stepFields.scaleFactorIdB = b->scaleFactorId;
    target::ValueOrError<uint32_t> stepIdesc =
        target::encodeTcgen05InstrDescriptor(stepFields);
    if (!stepIdesc)
      return Plan::failure(stepIdesc.error());
    plan.idesc.back() = *stepIdesc;
    plan.scaleColumns.back() = {a->columnOffset, b->columnOffset};
  }
  return plan;
}

/// acc (+)= lhs x rhs as tcgen05Mma plans it, issued by one thread of the
/// warpgroup. The first instruction reads D only when the accumulator
/// already holds data.
struct MmaLowering : public AbiPattern<cta::MmaOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::MmaOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    target::ValueOrError<Tcgen05MmaPlan> plan = planTcgen05Mma(op);
    if (!plan)
      return rewriter.notifyMatchFailure(op, plan.error());
    const std::optional<ScaledMma> &scaled = plan->scaled;
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    cta::AccType accType = op.getAcc().getType();
    MmaOperandAddresses addresses = mmaOperandAddresses(e, op, adaptor);

    Value address = accAddress(e, adaptor.getAcc());
    Value readD = accWritten(e, adaptor.getAcc());
    if (plan->overwrite)
      readD = boolConstant(e, false);
    else if (Value accumulate = adaptor.getAccumulate())
      readD = e.andI(readD, accumulate);
    int64_t kSteps = plan->stepA.size();
    // A from tensor memory: the tile's columns (its lanes are the rows).
    Value tmemA = plan->tmemA ? e.add(tmemBase(e, abi), adaptor.getLhs())
                              : Value();
    Value descA = plan->tmemA ? Value()
                              : e.smemDescriptor(addresses.lhs, plan->highA);
    Value descB = e.smemDescriptor(addresses.rhs, plan->highB);
    Value instr = e.i32(static_cast<int32_t>(plan->idesc[0]));

    // Block scales: each operand's atoms of this stage go from shared to
    // tensor memory (tcgen05.cp, 4 columns per atom), into the stage's own
    // slice of the operand's scale region.
    struct ScaleOperand {
      Value smem;         // the stage's first atom in shared memory (i32)
      int64_t atoms = 0;  // atoms per stage
      int64_t rows = 0;   // operand rows (M or N)
      int64_t column = 0; // the region's first column
      Value slot;
    };
    SmallVector<ScaleOperand, 2> scales;
    if (scaled) {
      for (auto [buffer, converted, slot, rows] :
           {std::tuple<Value, Value, Value, int64_t>{
                op.getLhsScale(), adaptor.getLhsScale(),
                adaptor.getLhsScaleSlot(), accType.getShape()[0]},
            {op.getRhsScale(), adaptor.getRhsScale(),
             adaptor.getRhsScaleSlot(), accType.getShape()[1]}}) {
        auto type = llvm::cast<cta::BufferType>(buffer.getType());
        auto alloc = buffer.getDefiningOp<cta::AllocOp>();
        if (!alloc || !alloc.getTmemColumn())
          return rewriter.notifyMatchFailure(op, "no scale-factor columns");
        ScaleOperand operand;
        operand.atoms = scaleAtoms(type);
        operand.rows = rows;
        operand.column = *alloc.getTmemColumn();
        operand.slot = slot ? e.toI32(slot) : e.i32(0);
        operand.smem =
            e.add(e.smemAddress(converted),
                  e.mul(operand.slot, e.i32(type.getStageBytes())));
        scales.push_back(operand);
      }
    }

    issueOnce(e, op.getOneThread(), [&] {
      // The stage's bytes arrived through the full barrier's wait; order
      // the tensor core's reads after it.
      fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
      Value d = tmemPointer(e, address);
      SmallVector<Value, 2> scaleBase;
      if (scaled) {
        Value tmem = tmemBase(e, abi);
        for (const ScaleOperand &operand : scales) {
          // This stage's slice of the operand's region.
          Value base = e.add(
              tmem, e.add(e.i32(operand.column),
                          e.mul(operand.slot, e.i32(operand.atoms * 4))));
          scaleBase.push_back(base);
          int64_t rowAtoms = (operand.rows + 127) / 128;
          int64_t kAtoms = operand.atoms / rowAtoms;
          for (int64_t rowAtom = 0; rowAtom < rowAtoms; ++rowAtom)
            for (int64_t kAtom = 0; kAtom < kAtoms; ++kAtom) {
              Value atom = e.add(operand.smem,
                                 e.i32((rowAtom * kAtoms + kAtom) *
                                       target::scaleFactorAtomBytes));
              uint32_t column = target::scaleFactorAtomTmemColumn(
                  operand.rows, kAtom, rowAtom);
              NVVM::Tcgen05CpOp::create(
                  rewriter, loc, NVVM::Tcgen05CpShape::SHAPE_32x128b,
                  NVVM::CTAGroupKind::CTA_1, NVVM::Tcgen05CpMulticast::WARPX4,
                  /*srcFormat=*/nullptr,
                  tmemPointer(e, e.add(base, e.i32(column))),
                  e.smemDescriptor(
                      atom, target::tcgen05ScaleFactorDescriptorHighBits()));
            }
        }
      }
      for (int64_t k = 0; k < kSteps; ++k) {
        Value enable = k == 0 ? readD : boolConstant(e, true);
        Value a = plan->tmemA
                      ? tmemPointer(e, e.add(tmemA,
                                             e.i32(target::tmemOperandKStepColumns(
                                                 static_cast<unsigned>(k)))))
                      : e.add(descA, e.i64(plan->stepA[k]));
        Value b = e.add(descB, e.i64(plan->stepB[k]));
        Value stepInstr =
            scaled ? e.i32(static_cast<int32_t>(plan->idesc[k])) : instr;
        if (!scaled) {
          NVVM::Tcgen05MMAOp::create(
              rewriter, loc,
              plan->fields.kind == target::Tcgen05Kind::F8F6F4
                  ? NVVM::Tcgen05MMAKind::F8F6F4
                  : NVVM::Tcgen05MMAKind::F16,
              op.getCtaPair() ? NVVM::CTAGroupKind::CTA_2
                              : NVVM::CTAGroupKind::CTA_1,
              NVVM::Tcgen05MMACollectorOp::DISCARD,
              /*aShift=*/false, d, a, b, stepInstr, enable, Value(), Value());
          continue;
        }
        NVVM::Tcgen05MMABlockScaleOp::create(
            rewriter, loc, scaled->nvvmKind, NVVM::CTAGroupKind::CTA_1,
            scaled->nvvmBlock, NVVM::Tcgen05MMACollectorOp::DISCARD, d, a, b,
            stepInstr, enable,
            tmemPointer(e, e.add(scaleBase[0], e.i32(plan->scaleColumns[k].first))),
            tmemPointer(e,
                        e.add(scaleBase[1], e.i32(plan->scaleColumns[k].second))));
      }
    });
    rewriter.replaceOp(op, makeAcc(e, address, boolConstant(e, true)));
    return success();
  }
};

/// The MMA warp hands a stage back when the MMAs it issued so far, those
/// that read the stage among them, have completed: tcgen05.commit to the
/// stage's empty barrier; the thread goes on.
struct StageReleaseLowering : public AbiPattern<cta::StageReleaseOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::StageReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    int64_t stages = op.getRing().getType().getStages();
    Value slot = e.ringSlot(e.toI32(adaptor.getPosition()), stages);
    NVVM::Tcgen05CommitOp::create(
        rewriter, op.getLoc(),
        e.barrier(adaptor.getRing(), slot, stages, /*empty=*/true), Value(),
        ctaGroup(abis.of(op)));
    rewriter.eraseOp(op);
    return success();
  }
};

/// The accumulator sets' barriers, initialized by one thread before the
/// roles start (cta.warp_specialize publishes them): full[s] completes with
/// the MMA thread's one tcgen05.commit, empty[s] once every thread of the
/// epilogue warpgroups has released the set.
struct AccRingLowering : public AbiPattern<cta::AccRingOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::AccRingOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Emitter e(rewriter, op.getLoc());
    Value ring = e.bytePtr(e.smemBase(), *op.getSmemOffset());
    int64_t stages = op.getRing().getType().getStages();
    // In a CTA pair both CTAs' epilogues release the leader's sets.
    e.initBarrierPairs(ring, stages, 1,
                       static_cast<int64_t>(op.getConsumers()) *
                           kWarpgroupThreads *
                           (abi.ctaPair ? target::ctaPairSize : 1));
    rewriter.replaceOp(op, ring);
    return success();
  }
};

/// The set of an accumulator ring at `position`: its slot, the parity of
/// this pass through the ring, and its accumulators' TMEM addresses.
struct AccSet {
  Value slot, phase;
  SmallVector<Value> addresses;
};

AccSet accSet(Emitter &e, const KernelABI &abi, Value ringValue,
              Value position) {
  auto type = llvm::cast<cta::AccRingType>(ringValue.getType());
  int64_t stages = type.getStages();
  AccSet set;
  Value iteration = e.toI32(position);
  set.slot = e.ringSlot(iteration, stages);
  set.phase = e.ringPhase(iteration, stages);
  int64_t firstColumn =
      *ringValue.getDefiningOp<cta::AccRingOp>().getTmemColumn();
  Value first = e.add(e.add(tmemBase(e, abi), e.i32(firstColumn)),
                      e.mul(set.slot, e.i32(type.getSetColumns())));
  int64_t column = 0;
  for (cta::AccType acc : type.getAccs()) {
    set.addresses.push_back(e.add(first, e.i32(column)));
    column += acc.getShape()[1];
  }
  return set;
}

/// Waits for the set at `position` to be empty (the MMA thread: parity of
/// the producer side, the first pass passes at once) or full (the
/// epilogue), orders this thread's tensor-memory accesses after the other
/// side's, and returns the set's accumulators with `holds` as their "holds
/// data" flag.
SmallVector<Value> takeAccSet(Emitter &e, const KernelABI &abi,
                              Value ringValue, Value ring, Value position,
                              bool empty, Value holds) {
  int64_t stages =
      llvm::cast<cta::AccRingType>(ringValue.getType()).getStages();
  AccSet set = accSet(e, abi, ringValue, position);
  e.wait(e.barrier(ring, set.slot, stages, empty),
         empty ? e.xorI(set.phase, e.i32(1)) : set.phase);
  fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  SmallVector<Value> accs;
  for (Value address : set.addresses)
    accs.push_back(makeAcc(e, address, holds));
  return accs;
}

/// The MMA thread waits until the set is empty (its first pass through the
/// ring passes at once), orders its MMAs after the epilogue's reads, and
/// takes the set's accumulators as "holding nothing".
struct AccAcquireLowering : public AbiPattern<cta::AccAcquireOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::AccAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, takeAccSet(e, abi, op.getRing(), adaptor.getRing(),
                                      adaptor.getPosition(), /*empty=*/true,
                                      boolConstant(e, false)));
    return success();
  }
};

/// tcgen05.commit makes the set's full barrier track every MMA this thread
/// has issued so far: it completes when the tile's last MMA has.
struct AccCommitLowering : public AbiPattern<cta::AccCommitOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::AccCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Emitter e(rewriter, op.getLoc());
    int64_t stages = op.getRing().getType().getStages();
    Value iteration = e.toI32(adaptor.getPosition());
    Value full = e.barrier(adaptor.getRing(), e.ringSlot(iteration, stages),
                           stages, /*empty=*/false);
    issueOnce(e, op.getOneThread(), [&] {
      // A CTA pair's leader signals the set's full barrier in both CTAs.
      Value mask = abi.ctaPair ? e.clusterMask(target::ctaPairSize) : Value();
      NVVM::Tcgen05CommitOp::create(rewriter, op.getLoc(), full, mask,
                                    ctaGroup(abi));
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// Every epilogue thread waits until the set is full and orders its
/// tensor-memory reads after the MMAs.
struct AccWaitLowering : public AbiPattern<cta::AccWaitOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::AccWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, takeAccSet(e, abi, op.getRing(), adaptor.getRing(),
                                      adaptor.getPosition(), /*empty=*/false,
                                      adaptor.getFilled()));
    return success();
  }
};

/// Every epilogue thread has waited for its tcgen05.ld (the store's
/// tcgen05.wait::ld); the fence orders those reads before its arrival on
/// the set's empty barrier, after which the MMA thread may overwrite it.
struct AccReleaseLowering : public AbiPattern<cta::AccReleaseOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::AccReleaseOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Emitter e(rewriter, op.getLoc());
    int64_t stages = op.getRing().getType().getStages();
    Value iteration = e.toI32(adaptor.getPosition());
    fence(e, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    Value empty = e.barrier(adaptor.getRing(), e.ringSlot(iteration, stages),
                            stages, /*empty=*/true);
    // In a CTA pair the leader's MMA thread waits for both CTAs' epilogues:
    // arrive on the leader's barrier (the pair's even rank).
    if (abi.ctaPair) {
      Value rank = NVVM::ClusterId::create(rewriter, op.getLoc(), e.i32Type());
      Value leader = e.sub(rank, e.urem(rank, e.i32(target::ctaPairSize)));
      empty = NVVM::MapaOp::create(
          rewriter, op.getLoc(),
          LLVM::LLVMPointerType::get(rewriter.getContext(), 7), empty, leader);
    }
    NVVM::MBarrierArriveOp::create(rewriter, op.getLoc(), Type(), empty,
                                   Value(), NVVM::MemScopeKind::CTA, false);
    rewriter.eraseOp(op);
    return success();
  }
};

/// A tile store, one staging block at a time: each warp loads its 32 rows
/// of the block's columns from tensor memory (tcgen05.ld.32x32b, one row
/// per thread), applies the epilogue per element and writes its row's
/// 16-byte chunks into the swizzled block, which TileStore copies out. An
/// accumulator no MMA has written (K = 0) reads as zeros.
struct StoreLowering : public AbiPattern<cta::StoreOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::StoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    OpBuilder &b = rewriter;
    TileStore store(e, op, adaptor.getIndices(), adaptor.getRowLimit(),
                    adaptor.getGroup(), adaptor.getStaging(),
                    adaptor.getStagingSlot(), abi, kernel);
    if (failed(store.prepare()))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    Type element = store.element;
    int64_t blockColumns = store.blockColumns;
    int64_t chunkElements = 16 / store.elementBytes;

    // This thread's row: warp w % 4 of the warpgroup reads TMEM lanes
    // [32 (w % 4), 32 (w % 4) + 32).
    Value row = store.lane;
    Value laneRow = e.add(store.row0, row);
    Value laneOffset = warpLaneOffset(e, row);
    SmallVector<Value> addresses, written;
    for (Value value : adaptor.getValues()) {
      addresses.push_back(e.add(accAddress(e, value), laneOffset));
      written.push_back(accWritten(e, value));
    }
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
    // Columns per tcgen05.ld: 32 registers of loaded values in all (16 per
    // accumulator of a dual GEMM) leave room for the epilogue's temporaries
    // (GeGLU's erf spilled with 2 x 32).
    int64_t loadColumns = std::min<int64_t>(
        blockColumns,
        std::max<int64_t>(8, 32 / static_cast<int64_t>(
                                      adaptor.getValues().size())));

    for (int64_t block = 0; block < store.tileBlocks; ++block) {
      Value buffer = store.beginBlock(block);
      for (int64_t first = 0; first < blockColumns; first += loadColumns) {
        SmallVector<Value> loaded;
        for (Value address : addresses)
          loaded.push_back(loadTmemColumns(
              e, e.add(address, e.i32(block * blockColumns + first)),
              loadColumns));
        NVVM::Tcgen05WaitOp::create(b, loc, NVVM::Tcgen05WaitKind::LOAD);
        for (int64_t chunk = 0; chunk < loadColumns / chunkElements; ++chunk) {
          Value vector = LLVM::UndefOp::create(
              b, loc, VectorType::get({chunkElements}, element));
          for (int64_t j = 0; j < chunkElements; ++j) {
            int64_t column = chunk * chunkElements + j;
            SmallVector<Value> values;
            for (auto [bits, holds] : llvm::zip(loaded, written)) {
              Value raw = LLVM::ExtractElementOp::create(b, loc, bits,
                                                         e.i32(column));
              Value f = LLVM::BitcastOp::create(b, loc, b.getF32Type(), raw);
              values.push_back(
                  arith::SelectOp::create(b, loc, holds, f, zero));
            }
            Value result =
                store.epilogue(values, laneRow, 0, store.col0,
                               block * blockColumns + first + column);
            vector = LLVM::InsertElementOp::create(b, loc, vector, result,
                                                   e.i32(j));
          }
          Value offset = store.swizzled(
              row, e.i32((first + chunk * chunkElements) * store.elementBytes));
          LLVM::StoreOp::create(b, loc, vector, e.bytePtr(buffer, offset),
                                /*alignment=*/16);
        }
      }
      store.endBlock(buffer, block);
    }
    // Every thread's TMEM reads are complete (tcgen05.wait::ld); in a math
    // role the barrier hands the columns back to the MMA-issuing thread for
    // the next tile (in an epilogue role cta.acc_release does).
    if (!op.getInEpilogueRole()) {
      fence(e, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
      store.syncWarpgroup();
    }
    rewriter.eraseOp(op);
    return success();
  }
};

/// The tensor-memory allocation of a program (cta-allocate-resources
/// decided its columns and the slot its address goes to). Before the roles
/// start, one whole warp allocates and gives up its permit (no other
/// allocation follows); the CTA-wide barrier that starts the roles (emitted
/// by the caller) publishes the address, and readers fence after it
/// (AccZeroLowering). After every role, the CTA barrier orders every warp's
/// last tensor-memory access before the allocating warp frees the columns.
/// A CTA pair allocates the same columns in both CTAs (warp 0 of each); the
/// leader's MMAs write them.
void acquireTensorMemory(Emitter &e, const KernelABI &abi) {
  if (abi.tmemColumns == 0)
    return;
  NVVM::CTAGroupKind group = ctaGroup(abi);
  // A pair's allocation is collective over both CTAs' warp 0: the peer CTA
  // must have started (PTX ISA, tcgen05.alloc with .cta_group::2).
  if (abi.ctaPair) {
    NVVM::ClusterArriveOp::create(e.b, e.loc, /*aligned=*/nullptr);
    NVVM::ClusterWaitOp::create(e.b, e.loc, /*aligned=*/nullptr);
  }
  e.ifThen(isAllocatingWarp(e), [&] {
    Value slot = e.bytePtr(e.smemBase(), abi.tmemSlot);
    NVVM::Tcgen05AllocOp::create(e.b, e.loc, slot, e.i32(abi.tmemColumns),
                                 group);
    NVVM::Tcgen05RelinquishAllocPermitOp::create(e.b, e.loc, group);
  });
  fence(e, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
}

void releaseTensorMemory(Emitter &e, const KernelABI &abi) {
  if (abi.tmemColumns == 0)
    return;
  fence(e, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  // Both CTAs of a pair free their columns together.
  if (abi.ctaPair) {
    NVVM::ClusterArriveOp::create(e.b, e.loc, /*aligned=*/nullptr);
    NVVM::ClusterWaitOp::create(e.b, e.loc, /*aligned=*/nullptr);
  } else {
    NVVM::Barrier0Op::create(e.b, e.loc);
  }
  e.ifThen(isAllocatingWarp(e), [&] {
    fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value slot = e.bytePtr(e.smemBase(), abi.tmemSlot);
    Value base = LLVM::LoadOp::create(e.b, e.loc, e.i32Type(), slot);
    NVVM::Tcgen05DeallocOp::create(e.b, e.loc, tmemPointer(e, base),
                                   e.i32(abi.tmemColumns), ctaGroup(abi));
  });
}

/// The kind of the warp role `op` runs in, if any.
std::optional<cta::RoleKind> roleKindOf(Operation *op) {
  for (Operation *parent = op->getParentOp(); parent;
       op = parent, parent = parent->getParentOp())
    if (auto roles = llvm::dyn_cast<cta::WarpSpecializeOp>(parent))
      return roles.getRole(op->getParentRegion()->getRegionNumber()).getKind();
  return std::nullopt;
}

/// The accumulator hand-off's ops run where their lowering assumes: taking
/// and committing sets in an mma role (one thread), waiting for and
/// releasing them in an epilogue role (a warpgroup per 128 rows).
LogicalResult checkAccRingOp(Operation *op) {
  auto aRole = [](cta::RoleKind kind) {
    StringRef name = cta::stringifyRoleKind(kind);
    return (kind == cta::RoleKind::mma || kind == cta::RoleKind::epilogue
                ? "an "
                : "a ") +
           name.str() + " role";
  };
  auto inRole = [&](cta::RoleKind kind) -> LogicalResult {
    std::optional<cta::RoleKind> role = roleKindOf(op);
    if (role == kind)
      return success();
    return op->emitError() << "convert-cta-to-nvvm: '" << op->getName()
                           << "' runs in " << aRole(kind) << "; this one is "
                           << (role ? "in " + aRole(*role)
                                    : std::string("outside the warp roles"));
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](cta::AccRingOp ring) -> LogicalResult {
        if (ring.getConsumers() != 1)
          return op->emitError()
                 << "convert-cta-to-nvvm: not implemented yet on sm_100a: an "
                    "accumulator ring read by "
                 << ring.getConsumers()
                 << " warpgroups (one warpgroup reads a 128-row set)";
        for (cta::AccType acc : ring.getRing().getType().getAccs())
          if (failed(checkAccumulator(op, acc)))
            return failure();
        return success();
      })
      .Case<cta::AccAcquireOp, cta::AccCommitOp>(
          [&](Operation *) { return inRole(cta::RoleKind::mma); })
      .Case<cta::AccWaitOp, cta::AccReleaseOp>(
          [&](Operation *) { return inRole(cta::RoleKind::epilogue); });
}

/// What the tcgen05 patterns lower, checked before the conversion starts.
LogicalResult checkTcgen05Lowered(Operation *op, target::Chip chip) {
  if (llvm::isa<cta::AccRingOp, cta::AccAcquireOp, cta::AccCommitOp,
                cta::AccWaitOp, cta::AccReleaseOp>(op))
    return checkAccRingOp(op);
  if (std::optional<LogicalResult> registers = checkRegisterOp(op))
    return *registers;
  if (failed(checkLoweredAlike(op, chip)))
    return failure();
  auto notYet = [&](const Twine &what) {
    return op->emitError() << "convert-cta-to-nvvm: not implemented yet on "
                              "sm_100a: "
                           << what;
  };
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](cta::StreamKJoinOp) -> LogicalResult {
        return notYet("stream-K partial tiles of tensor-memory accumulators");
      })
      .Case([&](cta::MmaWaitOp) -> LogicalResult {
        return notYet("'cta.mma_wait' (an MMA warp's results are handed "
                      "over by rings: tcgen05.commit)");
      })
      .Case([&](cta::StageReleaseOp release) -> LogicalResult {
        if (!release.getOneThread())
          return notYet("releasing a stage outside the MMA warp (its "
                        "tcgen05.commit tracks the MMAs that read it)");
        return success();
      })

      .Case([&](cta::WarpSpecializeOp roles) -> LogicalResult {
        for (unsigned i = 0; i < roles.getRoles().size(); ++i) {
          cta::RoleAttr role = roles.getRole(i);
          if ((role.getKind() == cta::RoleKind::math ||
               role.getKind() == cta::RoleKind::epilogue) &&
              role.getWarps() != target::warpsPerWarpgroup)
            return notYet("a " + cta::stringifyRoleKind(role.getKind()) +
                          " role of " + Twine(role.getWarps()) +
                          " warps (one warpgroup reads a 128-row "
                          "accumulator)");
        }
        return success();
      })
      .Case([&](cta::ConsumeOp consume) -> LogicalResult {
        // One thread issues the stage's MMAs; anything else in the stage
        // would run in every thread of the warpgroup on values it does not
        // hold.
        for (Operation &inner : consume.getBody().front().without_terminator())
          if (!llvm::isa<cta::MmaOp>(inner) && !isPure(&inner))
            return inner.emitError()
                   << "convert-cta-to-nvvm: not implemented yet on sm_100a: '"
                   << inner.getName() << "' in a pipelined K step (only MMAs)";
        return success();
      })
      .Case([&](cta::AccZeroOp zero) -> LogicalResult {
        return checkAccumulator(op, zero.getAcc().getType());
      })
      .Case([&](cta::MmaOp mma) -> LogicalResult {
        // (The MMA warp issues attention's MMAs outside a K loop: its
        // rings and commits order them.)
        if (!llvm::isa<cta::ConsumeOp>(op->getParentOp()) &&
            roleKindOf(op) != cta::RoleKind::mma)
          return notYet("an MMA outside a pipelined K step or an MMA warp");
        target::ValueOrError<Tcgen05MmaPlan> plan = planTcgen05Mma(mma);
        if (!plan)
          return op->emitError() << "convert-cta-to-nvvm: " << plan.error();
        if (!mma.getCtaPair())
          return success();
        auto program = op->getParentOfType<cta::ProgramOp>();
        if (!program || program.getClusterShape() !=
                            std::make_pair<int64_t, int64_t>(
                                target::ctaPairSize, 1))
          return op->emitError("convert-cta-to-nvvm: a CTA pair's MMA "
                               "runs in clusters of [2, 1]");
        // Every MMA and copy of the program belongs to the pair: the
        // barriers, the allocation and the MMA role are the pair's.
        WalkResult mixed = program.walk([&](Operation *inner) {
          auto other = llvm::dyn_cast<cta::MmaOp>(inner);
          auto load = llvm::dyn_cast<cta::LoadOp>(inner);
          if ((other && !other.getCtaPair()) || (load && !load.getCtaPair()))
            return WalkResult::interrupt();
          return WalkResult::advance();
        });
        if (mixed.wasInterrupted())
          return op->emitError(
              "convert-cta-to-nvvm: a program with a CTA pair's MMA runs "
              "every MMA and copy as the pair's (cta_pair)");
        return success();
      })
      .Case([&](cta::StoreOp store) -> LogicalResult {
        // (checkLoweredAlike keeps stores to math and epilogue roles, where
        // each thread of a warpgroup reads one accumulator row.)
        for (Value value : store.getValues())
          if (failed(checkAccumulator(
                  op, llvm::cast<cta::AccType>(value.getType()))))
            return failure();
        return success();
      })
      .Default([](Operation *) { return success(); });
}

class Tcgen05Lowering final : public ChipLowering {
public:
  using ChipLowering::ChipLowering;
  LogicalResult check(Operation *op) const override {
    return checkTcgen05Lowered(op, chip.id);
  }
  void addTypeConversions(TypeConverter &converter) const override {
    converter.addConversion(
        [](cta::AccType type) -> Type { return accStruct(type.getContext()); });
    addRegisterConversions(converter);
    // An accumulator ring is its barriers; its columns were allocated.
    converter.addConversion([](cta::AccRingType type) -> Type {
      return LLVM::LLVMPointerType::get(type.getContext(), 3);
    });
  }
  void populatePatterns(TypeConverter &converter, RewritePatternSet &patterns,
                        const KernelABIs &abis) const override {
    MLIRContext *ctx = patterns.getContext();
    patterns.add<SplitColsLowering>(converter, ctx);
    patterns.add<AccZeroLowering, ConsumeLowering, MmaLowering,
                 AccRingLowering, AccAcquireLowering, AccCommitLowering,
                 AccWaitLowering, AccReleaseLowering, StoreLowering,
                 StageReleaseLowering>(converter, ctx, abis);
    populateRegisterPatterns(converter, patterns, abis);
  }
  CtaResources resources() const override {
    return {acquireTensorMemory, releaseTensorMemory};
  }
};

} // namespace

std::unique_ptr<ChipLowering>
kiln::createTcgen05Lowering(const target::ChipInfo &chip) {
  return std::make_unique<Tcgen05Lowering>(chip);
}
