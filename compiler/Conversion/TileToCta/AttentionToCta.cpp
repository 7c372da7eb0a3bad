//===- AttentionToCta.cpp - an attention kernel onto thread blocks --------===//
//
// A kernel whose body is one `tile.attention` becomes a warp-specialized
// `cta.program` in FlashAttention-3's structure (docs/architecture.md §5.1):
// a batched walk over (batch..., query block); a producer warpgroup loads the
// query tile once per unit through a two-stage ring (the next unit's Q lands
// while this one runs) and, per key block, K and V through rings of their
// own; each math warpgroup owns 64 query rows and runs the key blocks
// software-pipelined: a step issues S = Q Kᵀ of its block and O += P V of
// the previous one, then computes the score modifiers and masks (each
// element's query and key index), the online softmax in base 2 and P
// (rounded into the MMA's register operand) while O's MMA is in flight, and
// rescales O once it lands. The math warpgroups take turns issuing their
// MMAs (ping-pong), so one's softmax overlaps the other's MMAs. The output
// is multiplied by the inverse row sums before the store.
//
// On a chip with tensor memory (sm_100a, buildTensorMemoryRoles) the scores,
// P and O live there instead: an MMA warp issues S = Q Kᵀ into two score
// sets and O += P V with P read from tensor memory, and one softmax
// warpgroup of 128 rows (a thread per row) reads the scores, writes P and
// rescales O, handing P over through a one-stage ring; the producer and
// the softmax's arithmetic are the same code as on sm_90a.
//
// The program is built with its warp roles, rings and ring positions
// already explicit, since its loop nest (a query tile held across a key loop
// that carries registers) is not the single K loop cta-pipeline turns into
// roles; cta-pipeline leaves a program without a cta.mainloop alone.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/TileToCta/AttentionToCta.h"
#include "compiler/Conversion/TileToCta/ProgramSignature.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/TensorMemory.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "dialects/Tile/Transforms/AttentionSchedule.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace kiln;

namespace {

InFlightDiagnostic notImplemented(Operation *op, const Twine &what) {
  return op->emitError() << "convert-tile-to-cta: not implemented yet: "
                         << what;
}

bool isSixteenBit(Type type) { return type.isBF16() || type.isF16(); }

Type elementOf(Value value) {
  return llvm::cast<RankedTensorType>(value.getType()).getElementType();
}

SmallVector<std::string> dimsOf(Value value) {
  return tile::getDimExprs(llvm::cast<RankedTensorType>(value.getType()));
}

/// Whether `dim` is a name or a constant: what a program's dim arguments
/// and the walk's extents can be.
bool isNameOrConstant(StringRef dim) {
  return tile::getConstantDim(dim) ||
         llvm::all_of(dim, [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

/// The constant `c` when the score region is `s * c` (the usual
/// 1/sqrt(d)); it then folds into the base-2 scale and costs nothing.
std::optional<double> pureScale(Region &score) {
  if (score.empty())
    return 1.0;
  Block &body = score.front();
  auto yield = llvm::cast<tile::YieldOp>(body.getTerminator());
  auto mul = yield.getOperand(0).getDefiningOp<arith::MulFOp>();
  if (!mul || std::distance(body.begin(), body.end()) != 3)
    return std::nullopt;
  for (auto [x, c] : {std::pair(mul.getLhs(), mul.getRhs()),
                      std::pair(mul.getRhs(), mul.getLhs())}) {
    FloatAttr value;
    if (x == body.getArgument(0) && matchPattern(c, m_Constant(&value)))
      return value.getValueAsDouble();
  }
  return std::nullopt;
}

/// The number of packed sequences of varlen attention: the name B of
/// offsets `i32[B+1]`, or a constant extent minus one.
std::optional<std::string> sequenceCount(tile::AttentionOp attention) {
  tile::DimExprAttr extent = tile::getDimAttrs(llvm::cast<RankedTensorType>(
      attention.getQOffsets().getType()))[0];
  if (std::optional<int64_t> constant = extent.getConstant())
    return *constant >= 1 ? std::optional(std::to_string(*constant - 1))
                          : std::nullopt;
  if (extent.getKind() != DimExpr::Kind::Add || extent.getValue() != 1)
    return std::nullopt;
  return extent.getName().str();
}

} // namespace

LogicalResult kiln::checkAttentionSupport(tile::KernelOp kernel,
                                          tile::AttentionOp attention,
                                          target::Chip chip) {
  Block &body = kernel.getBody().front();
  for (Operation &op : body)
    if (&op != attention.getOperation() && !llvm::isa<tile::ReturnOp>(op) &&
        !op.hasTrait<OpTrait::ConstantLike>())
      return notImplemented(&op, "'" + op.getName().getStringRef() +
                                     "' next to attention in one kernel");
  auto ret = llvm::cast<tile::ReturnOp>(body.getTerminator());
  // The outputs: the attention's result and, if it has one, its
  // log-sum-exp, each once, in either order.
  SmallVector<Value> outputs = {attention.getResult()};
  if (attention.getLse())
    outputs.push_back(attention.getLse());
  if (ret.getValues().size() != outputs.size() ||
      !llvm::all_of(outputs, [&](Value output) {
        return llvm::count(ret.getValues(), output) == 1;
      }))
    return notImplemented(ret, "an attention kernel whose outputs are not "
                               "the attention's result (and log-sum-exp) "
                               "alone");
  if (!attention.getSchedule())
    return attention.emitError("convert-tile-to-cta: the attention has no "
                               "schedule; run tile-select-schedule first");
  for (Value operand :
       {attention.getQ(), attention.getK(), attention.getV()}) {
    if (!llvm::isa<BlockArgument>(operand))
      return notImplemented(attention,
                            "attention operands computed inside the kernel");
    if (!isSixteenBit(elementOf(operand)))
      return notImplemented(
          attention, "attention on " +
                         llvm::formatv("{0}", elementOf(operand)).str() +
                         " operands (bf16 and f16 are supported)");
  }
  if (elementOf(attention.getQ()) != elementOf(attention.getV()))
    return notImplemented(attention, "q and v of different element types");
  if (!isSixteenBit(elementOf(attention.getResult())))
    return notImplemented(
        attention, "an attention output of type " +
                       llvm::formatv("{0}", elementOf(attention.getResult()))
                           .str() +
                       " (bf16 and f16 are supported)");
  for (Value operand : {attention.getQ(), attention.getK(), attention.getV()})
    for (const std::string &dim : dimsOf(operand))
      if (!isNameOrConstant(dim))
        return notImplemented(attention,
                              "an attention extent given by the expression '" +
                                  dim + "'");
  // Packed sequences: the walk counts them from the offsets' extent.
  if (attention.getQOffsets() && !sequenceCount(attention))
    return notImplemented(
        attention, "sequence offsets of extent '" +
                       dimsOf(attention.getQOffsets())[0] +
                       "'; varlen attention takes i32[B + 1] (a name plus "
                       "one) or a constant extent");
  return success();
}

namespace {

/// Builds the `cta.program` of one attention kernel that
/// checkAttentionSupport accepted, in the order the program reads: the
/// signature, the buffers and rings, then each warp role's walk.
class AttentionBuilder {
public:
  AttentionBuilder(PatternRewriter &rewriter, tile::KernelOp kernel,
                   tile::AttentionOp attention, target::Chip chip)
      : rewriter(rewriter), ctx(kernel.getContext()), kernel(kernel),
        attention(attention), schedule(*attention.getSchedule()),
        chipInfo(target::getChipInfo(chip)), chip(chip),
        loc(attention.getLoc()),
        segmented(static_cast<bool>(attention.getQOffsets())),
        tensorMemory(chipInfo.hasTensorMemory()),
        kRows(tensorMemory ? static_cast<int64_t>(target::tmemLanes)
                           : target::mmaMinRows) {}

  void build() {
    buildSignature();
    rewriter.setInsertionPointToStart(signature.entry);
    buildExtents();
    allocate();
    buildTypes();
    if (tensorMemory)
      return buildTensorMemoryRoles();
    // The producer computes every walk coordinate of a unit: at the
    // lowest count a rank-5 walk over five distinct axes spilled. Rank-5
    // walks take the next count (the math warpgroups then get 232; grouped-
    // query attention measured the same at 32/232 as at 24/240 on an H200).
    // A grouped walk's scan of the sequence offsets spilled 8 bytes at the
    // lowest count too, and so did a banded walk above head dim 128 (4
    // bytes; the math warpgroups' 232 then hold the 64 x 256 output with
    // no spills).
    auto [d, dv] = *tile::attentionHeadDims(attention);
    unsigned producerRegs =
        rank > 4 || segmented || (banded() && std::max(d, dv) > kWideHeadDim)
            ? target::setmaxnregLowest + target::setmaxnregStep
            : target::setmaxnregLowest;
    unsigned mathRegs = target::warpSpecializedConsumerRegisters(
        chipInfo, 1, consumers, producerRegs);
    auto roles = cta::WarpSpecializeOp::create(
        rewriter, loc,
        rewriter.getArrayAttr(
            {cta::RoleAttr::get(ctx, cta::RoleKind::producer, kWarps,
                                producerRegs),
             cta::RoleAttr::get(ctx, cta::RoleKind::math, kWarps * consumers,
                                mathRegs)}),
        /*bodiesCount=*/2);
    buildProducer(roles.getBodies()[0]);
    buildMath(roles.getBodies()[1]);
    finishProgram(roles);
  }

private:
  static constexpr int64_t kWarps = target::warpsPerWarpgroup;
  static constexpr double kLog2e = 1.4426950408889634;
  /// How far (log2 of the factor) a row's maximum may fall behind its
  /// scores before it moves (FlashAttention-4's rescaling threshold).
  static constexpr double kLazyMaxLog2 = 8.0;
  /// Whether the math warpgroups take turns issuing MMAs (ping-pong): one
  /// warpgroup's softmax runs while the tensor cores run the other's
  /// MMAs. It pays now that each step issues its MMAs before its softmax
  /// (1.03-1.14x at 2k-16k on an H100, docs/performance.md); with each
  /// S = Q K^T waited for before its turn passed, it cost 2-6%.
  static constexpr bool kPingPong = true;
  /// Query tiles in flight: two, so that the producer loads the next
  /// unit's Q while this unit runs (with one, each unit waited for its own
  /// Q after the previous unit released the stage), where they fit next to
  /// the K/V stages (head dims up to 128).
  static constexpr int64_t kQueryStages = 2;
  /// Above this head dim the band arithmetic of a causal walk spilled 4
  /// bytes in a producer of the lowest register count.
  static constexpr int64_t kWideHeadDim = 128;

  //===--------------------------------------------------------------------===//
  // The signature, extents and resources
  //===--------------------------------------------------------------------===//

  /// Ends the program after its roles: one thread per lane of every role's
  /// warps; the kernel it replaces goes.
  void finishProgram(cta::WarpSpecializeOp roles) {
    rewriter.setInsertionPointToEnd(signature.entry);
    cta::ReturnOp::create(rewriter, loc);
    program.setBlockAttr(rewriter.getDenseI64ArrayAttr(
        {roles.getTotalWarps() * static_cast<int64_t>(target::threadsPerWarp),
         1, 1}));
    rewriter.eraseOp(kernel);
  }

  /// The tiles a consumer warpgroup computes on: O and S (accumulators), P
  /// in f32 and rounded into the MMA's register operand (sm_90a), the row
  /// statistics.
  void buildTypes() {
    Type f32 = rewriter.getF32Type();
    int64_t tileN = schedule.getTileN();
    outType = cta::AccType::get(
        ctx, {kRows, tile::attentionHeadDims(attention)->second}, f32);
    scoreType = cta::AccType::get(ctx, {kRows, tileN}, f32);
    probabilityType =
        cta::FragType::get(ctx, {kRows, tileN}, f32, cta::FragLayout::acc);
    rowsType = cta::FragType::get(ctx, {kRows}, f32, cta::FragLayout::rows);
    pType = cta::FragType::get(ctx, {kRows, tileN}, attention.getPType(),
                               cta::FragLayout::lhs);
  }

  void buildSignature() {
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
      signature.addTensor(
          llvm::cast<RankedTensorType>(kernel.getArgumentTypes()[i]),
          kernel.getArgParam(i));
    for (unsigned i = 0; i < kernel.getNumResults(); ++i)
      signature.addTensor(
          llvm::cast<RankedTensorType>(kernel.getResultTypes()[i]),
          kernel.getResultParam(i));
    program = signature.create(rewriter, kernel, chip);
    // Which kernel output is which.
    auto ret = llvm::cast<tile::ReturnOp>(
        kernel.getBody().front().getTerminator());
    for (auto [i, value] : llvm::enumerate(ret.getValues()))
      (value == attention.getLse() ? lseOutput : output) = i;
    consumers = schedule.getConsumers();
    program.setScheduleAttr(
        cta::ScheduleAttr::get(ctx, schedule.getStages(), consumers,
                               schedule.getAccStages(), /*pingpong=*/false));
    program.setClusterAttr(rewriter.getDenseI64ArrayAttr({1, 1}));
  }

  /// The walk's extents (the output's: q's leading axes, S, and the value
  /// head dim in one tile), T, and for each leading axis whether k and v
  /// broadcast along it (a size-1 axis: one key/value head for several query
  /// heads).
  void buildExtents() {
    SmallVector<std::string> q = dimsOf(attention.getQ());
    SmallVector<std::string> k = dimsOf(attention.getK());
    SmallVector<std::string> o = dimsOf(attention.getResult());
    rank = q.size();
    for (size_t axis = 0; axis < rank; ++axis) {
      walkExtents.push_back(signature.dimValue(rewriter, loc, o[axis]));
      tileSizes.push_back(axis + 2 == rank   ? schedule.getTileM()
                          : axis + 1 == rank ? *tile::getConstantDim(o[axis])
                                             : 1);
    }
    for (size_t axis = 0; axis + 2 < rank; ++axis)
      kvBroadcast.push_back(k[axis] == "1" && q[axis] != "1");
    keys = signature.dimValue(rewriter, loc, k[rank - 2]);
    if (segmented)
      sequences = signature.dimValue(rewriter, loc, *sequenceCount(attention));
    c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
    c1 = arith::ConstantIndexOp::create(rewriter, loc, 1);
    rowsPerWarpgroup = arith::ConstantIndexOp::create(rewriter, loc, kRows);
    queryTile =
        arith::ConstantIndexOp::create(rewriter, loc, schedule.getTileM());
    keyTile =
        arith::ConstantIndexOp::create(rewriter, loc, schedule.getTileN());
    negInf = arith::ConstantOp::create(
        rewriter, loc, rewriter.getF32FloatAttr(-INFINITY));
    zero =
        arith::ConstantOp::create(rewriter, loc, rewriter.getF32FloatAttr(0));
  }

  /// Q (held for the key loop), the K and V stages, the output staging of
  /// each math warpgroup (its 64 rows), and the three rings.
  void allocate() {
    auto [d, dv] = *tile::attentionHeadDims(attention);
    Type in = elementOf(attention.getQ()), out = elementOf(attention.getResult());
    int64_t tileN = schedule.getTileN(), stages = schedule.getStages();
    auto buffer = [&](int64_t rows, int64_t cols, Type element,
                      int64_t bufferStages) {
      return cta::AllocOp::create(
                 rewriter, loc,
                 cta::BufferType::get(ctx, {rows, cols}, element, bufferStages,
                                      /*swizzle=*/nullptr))
          .getBuffer();
    };
    // Two query stages and each warpgroup's whole output row block staged
    // (its column blocks go out back to back, none waiting for the bulk
    // store of the one before to have read the staging) where the shared
    // memory holds them next to the K and V stages; else (head dim 256)
    // one query stage and one swizzle span of output columns.
    int64_t inBytes = in.getIntOrFloatBitWidth() / 8;
    int64_t outBytes = out.getIntOrFloatBitWidth() / 8;
    int64_t tileM = schedule.getTileM();
    int64_t budget = static_cast<int64_t>(chipInfo.smemPerBlockOptIn) -
                     static_cast<int64_t>(chipInfo.smemReserve);
    int64_t keysAndValues = stages * tileN * (d + dv) * inBytes;
    int64_t wholeStaging = consumers * kRows * dv * outBytes;
    bool roomy = kQueryStages * tileM * d * inBytes + keysAndValues +
                     wholeStaging <=
                 budget;
    queryStages = roomy ? kQueryStages : 1;
    int64_t spanColumns = target::maxSwizzleSpanBytes / outBytes;
    sq = buffer(tileM, d, in, queryStages);
    sk = buffer(tileN, d, in, stages);
    sv = buffer(tileN, dv, in, stages);
    so = buffer(kRows, roomy ? dv : spanColumns, out, consumers);
    qRing = cta::RingOp::create(rewriter, loc,
                                cta::RingType::get(ctx, queryStages),
                                consumers, /*cluster_size=*/1);
    // K and V in rings of their own: a key step reads K of its block and V
    // of the previous one, and each goes back as soon as its MMA is done.
    kRing = cta::RingOp::create(rewriter, loc,
                                cta::RingType::get(ctx, stages), consumers,
                                /*cluster_size=*/1);
    vRing = cta::RingOp::create(rewriter, loc,
                                cta::RingType::get(ctx, stages), consumers,
                                /*cluster_size=*/1);
    if (!tensorMemory)
      return;
    // Tensor memory: the score sets (the MMA warp computes the next block's
    // S while the softmax warpgroup reads this one), O, and P (rounded to
    // the product's type), which the softmax warpgroup hands to the MMA warp through
    // a ring of one stage: the MMA warp releases it once its O += P V has
    // completed, after which O may be rescaled and P rewritten.
    Type f32 = rewriter.getF32Type();
    auto scores = cta::AccType::get(ctx, {kRows, tileN}, f32);
    sRing = cta::AccRingOp::create(
        rewriter, loc,
        cta::AccRingType::get(ctx, schedule.getAccStages(), {scores}),
        /*consumers=*/1);
    pRing = cta::RingOp::create(rewriter, loc, cta::RingType::get(ctx, 1),
                                /*consumers=*/1, /*cluster_size=*/1);
    oTile = cta::TmemAllocOp::create(
        rewriter, loc, cta::TmemType::get(ctx, {kRows, dv}, f32));
    pTile = cta::TmemAllocOp::create(
        rewriter, loc,
        cta::TmemType::get(ctx, {kRows, tileN}, attention.getPType()));
  }

  //===--------------------------------------------------------------------===//
  // sm_100a: the MMA warp and the softmax warpgroup
  //===--------------------------------------------------------------------===//

  /// Three roles, the softmax warpgroup first (warp w reads tensor-memory
  /// lanes [32 w, +32)): it reads each block's scores from tensor memory,
  /// computes the online softmax in its registers (one row per thread),
  /// rescales O and writes P in tensor memory, and stores O / l; a
  /// producer warp loads Q, K and V as on sm_90a; the MMA warp issues
  /// S = Q Kᵀ of each block into the next free score set and O += P V of
  /// the block before once its P is written, so the tensor cores compute a
  /// block's scores while the softmax works on the previous one.
  void buildTensorMemoryRoles() {
    auto roles = cta::WarpSpecializeOp::create(
        rewriter, loc,
        rewriter.getArrayAttr(
            {cta::RoleAttr::get(ctx, cta::RoleKind::epilogue, kWarps, 0),
             cta::RoleAttr::get(ctx, cta::RoleKind::producer, 1, 0),
             cta::RoleAttr::get(ctx, cta::RoleKind::mma, 1, 0)}),
        /*bodiesCount=*/3);
    buildSoftmaxRole(roles.getBodies()[0]);
    buildProducer(roles.getBodies()[1]);
    buildMmaRole(roles.getBodies()[2]);
    finishProgram(roles);
  }

  /// The MMA warp's units: per key block S = Q Kᵀ into the block's score
  /// set (K released when it completes), and from the second block on
  /// O += P V of the block before, once the softmax warpgroup has written
  /// its P (V and the P stage released when it completes); the last
  /// block's P V after the loop. Q goes back when every MMA of the unit
  /// has completed.
  void buildMmaRole(Region &region) {
    cta::TileLoopOp loop = beginWalk(region);
    Value qPos = loop.getIterArgs()[0], kvPos = loop.getIterArgs()[1];
    Value blocks = keyBlocks(loop);
    Value slot = cta::StageWaitOp::create(rewriter, loc, qRing, qPos);
    qSlot = queryStages > 1 ? slot : Value();
    Value hasKeys = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, blocks, c0);
    auto guarded = scf::IfOp::create(rewriter, loc, hasKeys,
                                     /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(guarded.thenBlock()->getTerminator());
      issueScores(kvPos);
      auto steps = scf::ForOp::create(rewriter, loc, c1, blocks, c1);
      {
        OpBuilder::InsertionGuard inner(rewriter);
        rewriter.setInsertionPoint(steps.getBody()->getTerminator());
        Value j = steps.getInductionVar();
        Value position = arith::AddIOp::create(rewriter, loc, kvPos, j);
        issueScores(position);
        // (O accumulates from the unit's second P V on.)
        Value previous = arith::SubIOp::create(rewriter, loc, position, c1);
        Value accumulate = arith::CmpIOp::create(
            rewriter, loc, arith::CmpIPredicate::ugt, j, c1);
        issueOutput(previous, accumulate);
      }
      Value end = arith::AddIOp::create(rewriter, loc, kvPos, blocks);
      Value last = arith::SubIOp::create(rewriter, loc, end, c1);
      Value accumulate = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ugt, blocks, c1);
      issueOutput(last, accumulate);
    }
    cta::StageReleaseOp::create(rewriter, loc, qRing, qPos);
    Value qNext = arith::AddIOp::create(rewriter, loc, qPos, c1);
    Value kvNext = arith::AddIOp::create(rewriter, loc, kvPos, blocks);
    endWalk(loop, {qNext, kvNext});
  }

  /// S = Q Kᵀ of the block at ring position `position` into its score set.
  void issueScores(Value position) {
    Value kSlot = cta::StageWaitOp::create(rewriter, loc, kRing, position);
    auto acquire = cta::AccAcquireOp::create(
        rewriter, loc, TypeRange{scoreType}, sRing, position);
    Value noAccumulate = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    Value s = cta::MmaOp::create(
                  rewriter, loc, scoreType, sq, qSlot, Value(), sk, kSlot,
                  acquire.getAccs()[0], noAccumulate, Value(), Value(),
                  Value(), Value(), /*transpose_b=*/true, nullptr,
                  /*cta_pair=*/false, /*in_stage=*/false,
                  /*one_thread=*/false, /*async=*/false)
                  .getResult();
    cta::AccCommitOp::create(rewriter, loc, sRing, position, ValueRange{s});
    cta::StageReleaseOp::create(rewriter, loc, kRing, position);
  }

  /// O (+)= P V of the block at ring position `position`, P from tensor
  /// memory once the softmax warpgroup has committed it.
  void issueOutput(Value position, Value accumulate) {
    cta::StageWaitOp::create(rewriter, loc, pRing, position);
    Value vSlot = cta::StageWaitOp::create(rewriter, loc, vRing, position);
    Value o = cta::TmemAccOp::create(rewriter, loc, outType, oTile);
    cta::MmaOp::create(rewriter, loc, outType, pTile, Value(), Value(),
                       sv, vSlot, o, accumulate, Value(), Value(), Value(),
                       Value(), /*transpose_b=*/false, nullptr,
                       /*cta_pair=*/false, /*in_stage=*/false,
                       /*one_thread=*/false, /*async=*/false);
    cta::StageReleaseOp::create(rewriter, loc, vRing, position);
    cta::StageReleaseOp::create(rewriter, loc, pRing, position);
  }

  /// The softmax warpgroup's units: the key blocks no mask touches, then
  /// the rest, each reading its scores from tensor memory (a thread per
  /// row); then O / l once the last P V has completed, and the
  /// log-sum-exp.
  void buildSoftmaxRole(Region &region) {
    cta::TileLoopOp loop = beginWalk(region);
    Value qPos = loop.getIterArgs()[0], kvPos = loop.getIterArgs()[1];
    row0 = queryOrigin(loop);
    localRow0 = localQueryOrigin(loop);
    Value blocks = keyBlocks(loop);
    Value unmasked = unmaskedBlocks(loop, blocks);
    SmallVector<Value> state = {
        cta::SplatOp::create(rewriter, loc, rowsType, negInf),
        cta::SplatOp::create(rewriter, loc, rowsType, zero)};
    state = buildSoftmaxSteps(kvPos, c0, unmasked, state, /*masked=*/false);
    state = buildSoftmaxSteps(kvPos, unmasked, blocks, state, /*masked=*/true);
    // The P stage after the unit's last comes back once its P V has
    // completed: O is final. (Without keys it has long been back; O then
    // holds another unit's values, and the rows are 0 / 0 as on sm_90a.)
    Value end = arith::AddIOp::create(rewriter, loc, kvPos, blocks);
    cta::StageAcquireOp::create(rewriter, loc, pRing, end);
    Value hasKeys = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, blocks, c0);
    Value inverse = rowSumsInverse(state[1]);
    updateOutput({inverse}, [&](ValueRange x) {
      Value o = arith::SelectOp::create(rewriter, loc, hasKeys, x[0], zero);
      return arith::MulFOp::create(rewriter, loc, o, x[1]).getResult();
    });
    Value o = cta::TmemAccOp::create(rewriter, loc, outType, oTile);
    storeOutput(loop, o);
    if (attention.getLse())
      buildLogSumExpStore(loop, state[0], state[1]);
    Value qNext = arith::AddIOp::create(rewriter, loc, qPos, c1);
    endWalk(loop, {qNext, end});
  }

  /// Key blocks [from, to) of the softmax warpgroup, carrying the row
  /// maxima and sums: wait for the block's scores, compute its softmax and
  /// free the score set; once the previous block's P V has completed,
  /// write P and rescale O (from the second block on); hand P to the MMA
  /// warp.
  SmallVector<Value> buildSoftmaxSteps(Value kvPos, Value from, Value to,
                                       ValueRange inits, bool masked) {
    OpBuilder::InsertionGuard guard(rewriter);
    scf::ForOp loop = openKeyLoop(from, to, inits);
    Value j = loop.getInductionVar();
    ValueRange carried = loop.getRegionIterArgs();
    Value position = arith::AddIOp::create(rewriter, loc, kvPos, j);
    Value filled = arith::ConstantIntOp::create(rewriter, loc, 1, 1);
    auto wait = cta::AccWaitOp::create(rewriter, loc,
                                       TypeRange{scoreType}, sRing,
                                       position, filled);
    Softmax step = buildSoftmax(wait.getAccs()[0], j, masked, carried[0],
                                carried[1]);
    cta::AccReleaseOp::create(rewriter, loc, sRing, position);
    cta::StageAcquireOp::create(rewriter, loc, pRing, position);
    // P first: its registers are free before O's rescale runs.
    cta::TmemStoreOp::create(rewriter, loc, step.p, pTile);
    Value later = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, j, c0);
    auto rescale = scf::IfOp::create(rewriter, loc, later,
                                     /*withElseRegion=*/false);
    {
      OpBuilder::InsertionGuard inner(rewriter);
      rewriter.setInsertionPoint(rescale.thenBlock()->getTerminator());
      updateOutput({step.alpha}, [&](ValueRange x) {
        return arith::MulFOp::create(rewriter, loc, x[0], x[1]).getResult();
      });
    }
    cta::StageCommitOp::create(rewriter, loc, pRing, position);
    scf::YieldOp::create(rewriter, loc, ValueRange{step.m, step.l});
    return SmallVector<Value>(loop.getResults());
  }

  /// O's elements in place: `fn(element, inputs' elements)`.
  void updateOutput(ValueRange inputs,
                    llvm::function_ref<Value(ValueRange)> fn) {
    auto op = cta::TmemUpdateOp::create(rewriter, loc, oTile, inputs);
    buildElementRegion(op.getBody(), 1 + inputs.size(),
                       [&](Value, Value, ValueRange x) { return fn(x); });
  }

  //===--------------------------------------------------------------------===//
  // The walk both roles share
  //===--------------------------------------------------------------------===//

  /// Opens the walk in `region` with the two ring positions carried; leaves
  /// the insertion point in its body.
  cta::TileLoopOp beginWalk(Region &region) {
    Block *block = rewriter.createBlock(&region);
    rewriter.setInsertionPointToStart(block);
    cta::TileLoopOp loop;
    if (segmented) {
      // Packed sequences: each sequence's query rows tiled separately.
      loop = cta::TileLoopOp::create(
          rewriter, loc, cta::WalkKind::grouped,
          signature.programArg(attention.getQOffsets()), sequences,
          walkExtents, tileSizes, ValueRange{c0, c0});
      loop.setPersistent(true);
    } else {
      loop = cta::TileLoopOp::create(rewriter, loc, cta::WalkKind::batched,
                                     walkExtents, tileSizes,
                                     ValueRange{c0, c0});
      loop.setPersistent(schedule.getPersistent());
      // Causal units differ in length: the longest first, evenly per wave,
      // in bands of batch entries whose keys and values fit in L2.
      if (attention.getMaskKind() == tile::AttentionMask::causal)
        loop.setLongestFirst(true);
      if (banded())
        loop.getBandMutable().assign(keyValueBand(loop));
    }
    rewriter.setInsertionPointToStart(&loop.getBody().front());
    if (segmented) {
      // The unit's sequence: its first query row and its keys.
      Value sequence = loop.getBody().getArgument(0);
      Value kOffsets = signature.programArg(attention.getKOffsets());
      Type index = rewriter.getIndexType();
      sequenceStart = cta::ReadIndexOp::create(
          rewriter, loc, index, signature.programArg(attention.getQOffsets()),
          sequence);
      keyStart =
          cta::ReadIndexOp::create(rewriter, loc, index, kOffsets, sequence);
      Value next = arith::AddIOp::create(rewriter, loc, sequence, c1);
      Value keyEnd =
          cta::ReadIndexOp::create(rewriter, loc, index, kOffsets, next);
      // (Offsets that decrease give an empty sequence.)
      Value ordered = arith::CmpIOp::create(
          rewriter, loc, arith::CmpIPredicate::ugt, keyEnd, keyStart);
      keys = arith::SelectOp::create(
          rewriter, loc, ordered,
          arith::SubIOp::create(rewriter, loc, keyEnd, keyStart), c0);
    }
    return loop;
  }

  /// Whether the walk goes in bands (keyValueBand): causal walks, not
  /// packed sequences (their walk is grouped) nor grouped-query heads (their
  /// few K/V heads mostly stay in L2 anyway: bands measured 0.96x at
  /// 16 x 1024, 1.00x at 4 x 4096 on an H100). Head dim 256 gained 1.17x
  /// causal at 4 x 4096 (H100).
  bool banded() {
    return !segmented &&
           attention.getMaskKind() == tile::AttentionMask::causal &&
           !llvm::is_contained(kvBroadcast, true);
  }

  /// Batch entries (the flattened leading index) whose keys and values take
  /// at most half of L2, at least 1: a causal walk in bands of them reads
  /// each band's K/V from HBM once, where walking every entry's longest
  /// row tile first re-read them in each wave (641 MB of DRAM reads for
  /// 128 MB of K/V at 16 x 1024 keys on an H100, ncu: the walk was
  /// memory-bound; 1.36-1.40x at 1k-2k, 1.14x at 4k-16k with bands).
  Value keyValueBand(cta::TileLoopOp loop) {
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(loop);
    auto [d, dv] = *tile::attentionHeadDims(attention);
    int64_t bytes =
        (d + dv) * (elementOf(attention.getK()).getIntOrFloatBitWidth() / 8);
    Value perEntry = arith::MulIOp::create(
        rewriter, loc, keys,
        arith::ConstantIndexOp::create(rewriter, loc, bytes));
    perEntry = arith::MaxUIOp::create(rewriter, loc, perEntry, c1);
    Value budget = arith::ConstantIndexOp::create(
        rewriter, loc, static_cast<int64_t>(chipInfo.l2Bytes / 2));
    Value band = arith::DivUIOp::create(rewriter, loc, budget, perEntry);
    return arith::MaxUIOp::create(rewriter, loc, band, c1);
  }

  /// Closes the walk and the role's region.
  void endWalk(cta::TileLoopOp loop, ValueRange positions) {
    cta::YieldOp::create(rewriter, loc, positions);
    rewriter.setInsertionPointAfter(loop);
    cta::YieldOp::create(rewriter, loc);
  }

  /// The unit's query-block origin (S axis).
  Value queryOrigin(cta::TileLoopOp loop) {
    return loop.getTileOrigin(rank - 2);
  }

  /// The unit's query-block origin within its sequence (the masks' query
  /// index): queryOrigin less the sequence's first row when packed.
  Value localQueryOrigin(cta::TileLoopOp loop) {
    if (!segmented)
      return queryOrigin(loop);
    return arith::SubIOp::create(rewriter, loc, queryOrigin(loop),
                                 sequenceStart);
  }

  /// The last row a unit's stores may write below: its sequence's end when
  /// packed (the grouped walk's m_end), else none (the tensor's end).
  Value rowLimit(cta::TileLoopOp loop) {
    if (!segmented)
      return Value();
    return loop.getGroupEnd();
  }

  /// The key blocks the unit visits: all of them, or under a causal mask
  /// (key j <= query i) those up to the block's last query row.
  Value keyBlocks(cta::TileLoopOp loop) {
    Value end = keys;
    if (attention.getMaskKind() == tile::AttentionMask::causal)
      end = arith::MinUIOp::create(
          rewriter, loc,
          arith::AddIOp::create(rewriter, loc, localQueryOrigin(loop),
                                queryTile),
          keys);
    return arith::CeilDivUIOp::create(rewriter, loc, end, keyTile);
  }

  /// Indices of a tile at (`row`, 0) of a tensor with q's leading axes
  /// (`broadcast`: index 0 along k's and v's size-1 axes).
  SmallVector<Value> tileIndices(cta::TileLoopOp loop, Value row,
                                 bool broadcast) {
    SmallVector<Value> indices;
    for (size_t axis = 0; axis + 2 < rank; ++axis)
      indices.push_back(broadcast && kvBroadcast[axis]
                            ? c0
                            : Value(loop.getTileOrigin(axis)));
    indices.push_back(row);
    indices.push_back(c0);
    return indices;
  }

  //===--------------------------------------------------------------------===//
  // The producer
  //===--------------------------------------------------------------------===//

  void buildProducer(Region &region) {
    cta::TileLoopOp loop = beginWalk(region);
    Value qPos = loop.getIterArgs()[0], kvPos = loop.getIterArgs()[1];
    Value qNext = produce(qRing, qPos, c1, [&](Value, Value slot) {
      cta::LoadOp::create(rewriter, loc, q(),
                          tileIndices(loop, queryOrigin(loop), false), sq,
                          queryStages > 1 ? slot : Value(), qRing, Value(), 1,
                          nullptr, false);
    });
    // Per key block, K then V, each into its own ring at the same position:
    // K of the next block is in flight while the math warpgroups still read
    // V of the previous one.
    Value blocks = keyBlocks(loop);
    auto steps = scf::ForOp::create(rewriter, loc, c0, blocks, c1);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(steps.getBody()->getTerminator());
      Value j = steps.getInductionVar();
      Value position = arith::AddIOp::create(rewriter, loc, kvPos, j);
      Value t0 = arith::MulIOp::create(rewriter, loc, j, keyTile);
      if (segmented)
        t0 = arith::AddIOp::create(rewriter, loc, keyStart, t0);
      auto load = [&](Value source, Value buffer, Value ring) {
        produce(ring, position, c1, [&](Value, Value slot) {
          cta::LoadOp::create(rewriter, loc, source,
                              tileIndices(loop, t0, true), buffer, slot, ring,
                              Value(), 1, nullptr, false);
        });
      };
      load(k(), sk, kRing);
      load(v(), sv, vRing);
    }
    Value kvNext = arith::AddIOp::create(rewriter, loc, kvPos, blocks);
    endWalk(loop, {qNext, kvNext});
  }

  /// A cta.produce of `count` stages of `ring` whose body `fill(j, slot)`
  /// issues the copies.
  Value produce(Value ring, Value position, Value count,
                llvm::function_ref<void(Value, Value)> fill) {
    auto op = cta::ProduceOp::create(rewriter, loc, rewriter.getIndexType(),
                                     ring, position, count);
    OpBuilder::InsertionGuard guard(rewriter);
    Block *stage = rewriter.createBlock(&op.getBody());
    Value j = stage->addArgument(rewriter.getIndexType(), loc);
    Value slot = stage->addArgument(rewriter.getIndexType(), loc);
    fill(j, slot);
    cta::YieldOp::create(rewriter, loc);
    return op.getNextPosition();
  }

  //===--------------------------------------------------------------------===//
  // The math warpgroups
  //===--------------------------------------------------------------------===//

  void buildMath(Region &region) {
    cta::TileLoopOp loop = beginWalk(region);
    if (kPingPong) {
      // The math warpgroups take turns issuing their MMAs (ping-pong): one
      // warpgroup's softmax runs while the tensor cores run the other's
      // MMAs. The last warpgroup hands the first turn to warpgroup 0.
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPoint(loop);
      Value first = cta::WarpgroupIndexOp::create(rewriter, loc,
                                                  rewriter.getIndexType());
      turn(cta::TurnKind::start, first);
    }
    Value qPos = loop.getIterArgs()[0], kvPos = loop.getIterArgs()[1];
    warpgroup = cta::WarpgroupIndexOp::create(rewriter, loc,
                                              rewriter.getIndexType());
    wgRow = arith::MulIOp::create(rewriter, loc, warpgroup, rowsPerWarpgroup);
    row0 = arith::AddIOp::create(rewriter, loc, queryOrigin(loop), wgRow);
    localRow0 = segmented ? arith::AddIOp::create(rewriter, loc,
                                                  localQueryOrigin(loop), wgRow)
                                .getResult()
                          : row0;
    Value blocks = keyBlocks(loop);

    // The query tile is held for the whole key loop. A unit without keys
    // (T = 0) has nothing to wait for: its rows are 0 / 0, their
    // log-sum-exp -inf.
    Value slot = cta::StageWaitOp::create(rewriter, loc, qRing, qPos);
    qSlot = queryStages > 1 ? slot : Value();
    Value hasKeys = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::ugt, blocks, c0);
    // (The row maxima leave the key loop only for the log-sum-exp.)
    bool lse = static_cast<bool>(attention.getLse());
    SmallVector<Type> types = {outType, rowsType};
    if (lse)
      types.push_back(rowsType);
    auto guarded = scf::IfOp::create(rewriter, loc, types, hasKeys,
                                     /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&guarded.getThenRegion().front());
      KeyLoop keyLoop = buildKeyBlocks(loop, kvPos, blocks);
      SmallVector<Value> results = {keyLoop.o, keyLoop.l};
      if (lse)
        results.push_back(keyLoop.m);
      scf::YieldOp::create(rewriter, loc, results);
      rewriter.setInsertionPointToStart(&guarded.getElseRegion().front());
      results = {cta::AccZeroOp::create(rewriter, loc, outType),
                 cta::SplatOp::create(rewriter, loc, rowsType, zero)};
      if (lse)
        results.push_back(cta::SplatOp::create(rewriter, loc, rowsType, negInf));
      scf::YieldOp::create(rewriter, loc, results);
    }
    cta::StageReleaseOp::create(rewriter, loc, qRing, qPos);
    buildStore(loop, guarded.getResult(0), guarded.getResult(1));
    if (lse)
      buildLogSumExpStore(loop, guarded.getResult(2), guarded.getResult(1));
    Value qNext = arith::AddIOp::create(rewriter, loc, qPos, c1);
    Value kvNext = arith::AddIOp::create(rewriter, loc, kvPos, blocks);
    endWalk(loop, {qNext, kvNext});
  }

  /// What the key loop leaves: O (not yet divided), the row sums and the
  /// row maxima (in the units the exponentials subtract them in).
  struct KeyLoop {
    Value o, l, m;
  };

  /// The key blocks of a unit (at least one), software-pipelined as
  /// FlashAttention-3 does within a warpgroup: block 0's scores and softmax
  /// first; then each step issues S = Q Kᵀ of its block and O += P V of the
  /// previous block together, computes its softmax while O's MMA is in
  /// flight, and rescales O once it lands; the last block's P V last.
  KeyLoop buildKeyBlocks(cta::TileLoopOp loop, Value kvPos, Value blocks) {
    Value m = cta::SplatOp::create(rewriter, loc, rowsType, negInf);
    Value l = cta::SplatOp::create(rewriter, loc, rowsType, zero);
    // The blocks no mask touches run without mask arithmetic, the rest
    // (the causal diagonal, the partial last block) with it.
    Value unmasked = unmaskedBlocks(loop, blocks);
    // Block 0.
    Value slot = cta::StageWaitOp::create(rewriter, loc, kRing, kvPos);
    turn(cta::TurnKind::wait, warpgroup);
    Value s = scoresMma(slot, /*async=*/false);
    turn(cta::TurnKind::pass, warpgroup);
    cta::StageReleaseOp::create(rewriter, loc, kRing, kvPos);
    Value p;
    std::tie(m, l, p) = buildFirstSoftmax(s, unmasked, m, l);
    SmallVector<Value> state = {cta::AccZeroOp::create(rewriter, loc, outType),
                                m, l, roundP(p)};
    state = buildKeySteps(kvPos, c1, unmasked, state, /*masked=*/false);
    state = buildKeySteps(kvPos,
                          arith::MaxUIOp::create(rewriter, loc, unmasked, c1),
                          blocks, state, /*masked=*/true);
    // The last block's P V.
    Value last = arith::SubIOp::create(
        rewriter, loc, arith::AddIOp::create(rewriter, loc, kvPos, blocks), c1);
    Value vSlot = cta::StageWaitOp::create(rewriter, loc, vRing, last);
    turn(cta::TurnKind::wait, warpgroup);
    Value o = outputMma(state[3], vSlot, state[0], /*async=*/false);
    turn(cta::TurnKind::pass, warpgroup);
    cta::StageReleaseOp::create(rewriter, loc, vRing, last);
    return {o, state[2], state[1]};
  }

  /// Block 0's softmax: without the masks when the unit has unmasked
  /// blocks (block 0 is one of them), else with them. Returns (row maxima,
  /// row sums, P).
  std::tuple<Value, Value, Value> buildFirstSoftmax(Value s, Value unmasked,
                                                    Value m, Value l) {
    if (unmasked == c0) {
      Softmax first = buildSoftmax(s, c0, /*masked=*/true, m, l);
      return {first.m, first.l, first.p};
    }
    Value whole =
        arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::ugt,
                              unmasked, c0);
    auto choice = scf::IfOp::create(
        rewriter, loc, TypeRange{rowsType, rowsType, probabilityType}, whole,
        /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    for (auto [region, masked] : {std::pair(&choice.getThenRegion(), false),
                                  std::pair(&choice.getElseRegion(), true)}) {
      rewriter.setInsertionPointToStart(&region->front());
      Softmax first = buildSoftmax(s, c0, masked, m, l);
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{first.m, first.l, first.p});
    }
    return {choice.getResult(0), choice.getResult(1), choice.getResult(2)};
  }

  /// The leading key blocks every query row of the unit keeps whole: none
  /// under a mask region (any key may be dropped); else the blocks inside
  /// [0, T) and, under the causal mask, wholly at or left of the unit's
  /// first query row (key j <= query s0).
  Value unmaskedBlocks(cta::TileLoopOp loop, Value blocks) {
    if (!attention.getMask().empty())
      return c0;
    Value whole = arith::DivUIOp::create(rewriter, loc, keys, keyTile);
    if (attention.getMaskKind() == tile::AttentionMask::causal)
      whole = arith::MinUIOp::create(
          rewriter, loc, whole,
          arith::DivUIOp::create(
              rewriter, loc,
              arith::AddIOp::create(rewriter, loc, localQueryOrigin(loop), c1),
              keyTile));
    return arith::MinUIOp::create(rewriter, loc, whole, blocks);
  }

  /// S = Q Kᵀ for this warpgroup's rows, K from its stage.
  Value scoresMma(Value kSlot, bool async) {
    Value sZero = cta::AccZeroOp::create(rewriter, loc, scoreType);
    Value noAccumulate = arith::ConstantIntOp::create(rewriter, loc, 0, 1);
    return cta::MmaOp::create(rewriter, loc, scoreType, sq, qSlot, wgRow, sk,
                              kSlot, sZero, noAccumulate, Value(), Value(),
                              Value(), Value(), /*transpose_b=*/true, nullptr,
                              /*cta_pair=*/false, /*in_stage=*/false,
                              /*one_thread=*/false, async)
        .getResult();
  }

  /// O += P V, P in the MMA's register operand; V as stored ([keys, dv])
  /// is the MN-major right operand.
  Value outputMma(Value p, Value vSlot, Value o, bool async) {
    return cta::MmaOp::create(rewriter, loc, outType, p, Value(), Value(), sv,
                              vSlot, o, Value(), Value(), Value(), Value(),
                              Value(), /*transpose_b=*/false, nullptr,
                              /*cta_pair=*/false, /*in_stage=*/false,
                              /*one_thread=*/false, async)
        .getResult();
  }

  /// A loop over key blocks [from, to) carrying `inits`, with the insertion
  /// point at the start of its body, which the caller ends with its yield.
  scf::ForOp openKeyLoop(Value from, Value to, ValueRange inits) {
    auto loop = scf::ForOp::create(rewriter, loc, from, to, c1, inits);
    Block *body = loop.getBody();
    if (!body->empty())
      rewriter.eraseOp(body->getTerminator());
    rewriter.setInsertionPointToStart(body);
    return loop;
  }

  /// Key blocks [from, to) after the first, carrying (O, row maxima, row
  /// sums, P of the previous block). Step j holds K of block j and V of
  /// block j - 1: their MMAs are issued together, S is waited for with
  /// O's MMA still in flight (`later 1`), each stage goes back once its
  /// MMA has completed.
  SmallVector<Value> buildKeySteps(Value kvPos, Value from, Value to,
                                   ValueRange inits, bool masked) {
    OpBuilder::InsertionGuard guard(rewriter);
    scf::ForOp loop = openKeyLoop(from, to, inits);
    Value j = loop.getInductionVar();
    ValueRange carried = loop.getRegionIterArgs();
    Value position = arith::AddIOp::create(rewriter, loc, kvPos, j);
    Value previous = arith::SubIOp::create(rewriter, loc, position, c1);
    Value kSlot = cta::StageWaitOp::create(rewriter, loc, kRing, position);
    Value vSlot = cta::StageWaitOp::create(rewriter, loc, vRing, previous);
    turn(cta::TurnKind::wait, warpgroup);
    Value sPending = scoresMma(kSlot, /*async=*/true);
    Value oPending = outputMma(carried[3], vSlot, carried[0], /*async=*/true);
    turn(cta::TurnKind::pass, warpgroup);
    Value s = cta::MmaWaitOp::create(rewriter, loc, sPending, /*later=*/1);
    cta::StageReleaseOp::create(rewriter, loc, kRing, position);
    Softmax step = buildSoftmax(s, j, masked, carried[1], carried[2]);
    Value o = cta::MmaWaitOp::create(rewriter, loc, oPending, /*later=*/0);
    cta::StageReleaseOp::create(rewriter, loc, vRing, previous);
    // (P is rounded only now: until O's MMA has completed, the previous
    // block's P occupies registers the MMA reads.)
    Value rescaled =
        lazyMaxima()
            ? cta::ScaleRowsOp::create(rewriter, loc, o.getType(), o,
                                       step.alpha)
                  .getResult()
            : map(outType, {o, step.alpha}, [&](ValueRange x) {
                return arith::MulFOp::create(rewriter, loc, x[0], x[1]);
              });
    scf::YieldOp::create(rewriter, loc,
                         ValueRange{rescaled, step.m, step.l, roundP(step.p)});
    return SmallVector<Value>(loop.getResults());
  }

  /// One block's online softmax: the new row maxima and sums, the factor
  /// that rescales the output so far, and P (f32, in the scores' layout).
  struct Softmax {
    Value m, l, alpha, p;
  };

  /// The softmax of the scores `s` of key block `block` (`masked`: with the
  /// masks), given the running row maxima `m` and sums `l`.
  Softmax buildSoftmax(Value s, Value block, bool masked, Value m, Value l) {
    Value scores = buildScores(s, block, masked);

    // The running maxima are kept in the scores' units; the exponentials
    // are exp2(x * C - m * C), one FMA and one MUFU per element, where C is
    // log2(e), times the positive scale when that is all the score region
    // does (the scores are then the MMA's).
    double base2 = foldedScale().value_or(kLog2e);
    Value rowMax = cta::ReduceRowsOp::create(rewriter, loc, rowsType,
                                             cta::ReduceKind::max, scores);
    // Lazy maxima: a row's running maximum moves only when the block's
    // exceeds it by more than 2^kLazyMaxLog2 in the exponentials' units;
    // short of that this block's exponentials reach at most 2^kLazyMaxLog2,
    // which f32 sums and a 16-bit P hold with their full precision, and the
    // output needs no rescale (alpha is exactly 1; cta.scale_rows skips
    // it). Exact: O and l keep the same maximum, which l divides out. A
    // first block (m = -inf) always moves it; -inf - -inf is NaN and keeps
    // a row every key so far was masked from at -inf.
    // (Ops built one statement at a time: the order of a call's arguments
    // differs between compilers, and so would the IR.)
    auto moves = [&](Value mOld, Value blockMax) -> Value {
      Value c = f32Constant(base2);
      Value difference = arith::SubFOp::create(rewriter, loc, blockMax, mOld);
      Value gap = arith::MulFOp::create(rewriter, loc, difference, c);
      Value threshold = f32Constant(kLazyMaxLog2);
      return arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                                   gap, threshold);
    };
    bool lazy = lazyMaxima();
    Value mNew = map(rowsType, {m, rowMax}, [&](ValueRange x) -> Value {
      if (!lazy)
        return arith::MaximumFOp::create(rewriter, loc, x[0], x[1]);
      return arith::SelectOp::create(rewriter, loc, moves(x[0], x[1]), x[1],
                                     x[0]);
    });
    // -m * C. A row every key so far was masked from keeps a maximum of
    // -inf (a mask region can do that anywhere; the causal mask and T
    // only in rows past the sequence, which are never stored); 0 instead
    // keeps its exponentials 0, not NaN.
    bool maybeDead = !attention.getMask().empty();
    Value negMax = map(rowsType, {mNew}, [&](ValueRange x) {
      Value y = arith::MulFOp::create(rewriter, loc, x[0], f32Constant(-base2));
      if (!maybeDead)
        return y;
      Value dead = arith::CmpFOp::create(
          rewriter, loc, arith::CmpFPredicate::OEQ, x[0], negInf);
      return arith::SelectOp::create(rewriter, loc, dead, zero, y).getResult();
    });
    auto exp2 = [&](Value x, Value negMaxElement) -> Value {
      Value arg = math::FmaOp::create(rewriter, loc, x, f32Constant(base2),
                                      negMaxElement);
      return math::Exp2Op::create(rewriter, loc, arg,
                                  arith::FastMathFlags::afn);
    };
    Value p = map(probabilityType, {scores, negMax},
                  [&](ValueRange x) { return exp2(x[0], x[1]); });
    // (1 exactly where the maximum stayed: exp2 of m * C - m * C rounded
    // is not.)
    Value alpha = lazy ? map(rowsType, {m, rowMax, negMax},
                             [&](ValueRange x) {
                               Value one = f32Constant(1.0);
                               Value factor = exp2(x[0], x[2]);
                               Value moved = moves(x[0], x[1]);
                               return arith::SelectOp::create(
                                          rewriter, loc, moved, factor, one)
                                   .getResult();
                             })
                       : map(rowsType, {m, negMax},
                             [&](ValueRange x) { return exp2(x[0], x[1]); });
    Value pSum = cta::ReduceRowsOp::create(rewriter, loc, rowsType,
                                           cta::ReduceKind::sum, p);
    Value lNew = map(rowsType, {l, alpha, pSum}, [&](ValueRange x) {
      return arith::AddFOp::create(
          rewriter, loc, arith::MulFOp::create(rewriter, loc, x[0], x[1]),
          x[2]);
    });
    return {mNew, lNew, alpha, p};
  }

  /// Whether the softmax keeps lazy maxima (buildSoftmax) and the output's
  /// rescale is skipped where they stayed: on sm_90a above head dim 128,
  /// where the rescale is 128 multiplies per thread and block (on an H100,
  /// 4 x 16 x 4096, head dim 256: 1.081x non-causal, 1.065x causal). At
  /// head dim 128 the extra compares and the branch cost more than the 64
  /// multiplies they save (0.963x non-causal, 0.927x causal); sm_100a
  /// rescales O in tensor memory with every warp (docs/performance.md).
  bool lazyMaxima() const {
    return !tensorMemory &&
           tile::attentionHeadDims(attention)->second > kWideHeadDim;
  }

  /// P rounded into the MMA's register operand.
  Value roundP(Value p) {
    return cta::ConvertOp::create(rewriter, loc, pType, p);
  }

  /// log2(e) times the positive scale that is all the score region does
  /// (1/sqrt(d), usually), or nullopt when the region does more. Such a
  /// scale commutes with the row maxima, so it is applied in the
  /// exponentials' FMA instead of to every score.
  std::optional<double> foldedScale() {
    std::optional<double> scale = pureScale(attention.getScore());
    if (!scale || !(*scale > 0))
      return std::nullopt;
    return kLog2e * *scale;
  }

  Value f32Constant(double value) {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getF32FloatAttr(value));
  }

  /// The scores the softmax reads: the MMA's, or, where the score region
  /// does more than a positive scale, its result; when `masked`, with the
  /// masks (causal, keys past T, the mask region) as -inf.
  Value buildScores(Value s, Value block, bool masked) {
    std::optional<double> scale = foldedScale();
    // Unmasked scores a positive scale alone modifies are the MMA's (in
    // tensor memory: read into registers once, not by each op that reads
    // them).
    if (scale && !masked)
      return tensorMemory ? map(probabilityType, {s},
                                [](ValueRange x) { return x[0]; })
                          : s;
    // The block's first key.
    Value t0 = block == c0 ? c0
                           : arith::MulIOp::create(rewriter, loc, block, keyTile)
                                 .getResult();
    // The built-in masks as one bound per row: key t0 + jj is kept below T
    // and, under the causal mask, below query + 1. In 32 bits (sequence
    // lengths fit), the bound the same for every column of a row (computed
    // once per row), so an element costs an add, a compare and a select.
    bool causal = attention.getMaskKind() == tile::AttentionMask::causal;
    Type i32 = rewriter.getI32Type();
    Value t0Narrow, keysNarrow, nextRow;
    if (masked) {
      t0Narrow = arith::IndexCastUIOp::create(rewriter, loc, i32, t0);
      keysNarrow = arith::IndexCastUIOp::create(rewriter, loc, i32, keys);
      if (causal)
        nextRow = arith::IndexCastUIOp::create(
            rewriter, loc, i32,
            arith::AddIOp::create(rewriter, loc, localRow0, c1));
    }
    bool readsIndices = !scale || !attention.getMask().empty();
    return mapWithIndices(probabilityType, {s},
                          [&](Value i, Value jj, ValueRange x) {
      // (The element's query and key index, where a region reads them.)
      Value qi, kj;
      if (readsIndices) {
        qi = arith::AddIOp::create(rewriter, loc, localRow0, i);
        kj = arith::AddIOp::create(rewriter, loc, t0, jj);
      }
      Value y = x[0];
      if (!scale)
        y = cloneRegion(attention.getScore(), {y, qi, kj});
      if (!masked)
        return y;
      Value column = arith::IndexCastUIOp::create(rewriter, loc, i32, jj);
      Value key = arith::AddIOp::create(rewriter, loc, t0Narrow, column);
      Value bound = keysNarrow;
      if (causal) {
        Value row = arith::IndexCastUIOp::create(rewriter, loc, i32, i);
        Value past = arith::AddIOp::create(rewriter, loc, nextRow, row);
        bound = arith::MinUIOp::create(rewriter, loc, bound, past);
      }
      Value keep = arith::CmpIOp::create(rewriter, loc,
                                         arith::CmpIPredicate::ult, key, bound);
      if (!attention.getMask().empty())
        keep = arith::AndIOp::create(
            rewriter, loc, keep,
            cloneRegion(attention.getMask(), {qi, kj}));
      return arith::SelectOp::create(rewriter, loc, keep, y, negInf)
          .getResult();
    });
  }

  /// One step of the math warpgroups' MMA turns (cta.mma_turn), where the
  /// kernel takes turns.
  void turn(cta::TurnKind kind, Value wg) {
    if (!kPingPong)
      return;
    cta::MmaTurnOp::create(rewriter, loc,
                           cta::TurnKindAttr::get(ctx, kind), wg,
                           rewriter.getI64IntegerAttr(consumers));
  }

  /// Clones the body of a tile.attention region with its arguments bound
  /// to `args`; returns the yielded value.
  Value cloneRegion(Region &region, ValueRange args) {
    Block &body = region.front();
    IRMapping mapping;
    mapping.map(body.getArguments(), args);
    for (Operation &op : body.without_terminator()) {
      Operation *copy = rewriter.clone(op, mapping);
      // A score modifier's division (soft-capping's s / 30) may use the
      // reciprocal: a multiply instead of div.rn's ~10 instructions per
      // score, well inside what the bf16 rounding of P and ex2.approx
      // already give up.
      if (auto div = llvm::dyn_cast<arith::DivFOp>(copy))
        div.setFastmath(div.getFastmath() | arith::FastMathFlags::arcp);
    }
    return mapping.lookupOrDefault(
        llvm::cast<tile::YieldOp>(body.getTerminator()).getOperand(0));
  }

  /// A cta.frag_map of `inputs` to `type` whose element is `fn(row, column,
  /// elements)`.
  Value mapWithIndices(
      Type type, ValueRange inputs,
      llvm::function_ref<Value(Value, Value, ValueRange)> fn) {
    auto op = cta::FragMapOp::create(rewriter, loc, type, inputs);
    buildElementRegion(op.getBody(), inputs.size(), fn);
    return op.getResult();
  }

  /// The body of an elementwise region (cta.frag_map, cta.tmem_update): the
  /// element's row and column, then `elements` f32 values; it yields
  /// `fn(row, column, values)`.
  void buildElementRegion(
      Region &region, size_t elements,
      llvm::function_ref<Value(Value, Value, ValueRange)> fn) {
    OpBuilder::InsertionGuard guard(rewriter);
    Block *body = rewriter.createBlock(&region);
    Type f32 = rewriter.getF32Type();
    Value i = body->addArgument(rewriter.getIndexType(), loc);
    Value jj = body->addArgument(rewriter.getIndexType(), loc);
    SmallVector<Value> values;
    for (size_t n = 0; n < elements; ++n)
      values.push_back(body->addArgument(f32, loc));
    cta::YieldOp::create(rewriter, loc, fn(i, jj, values));
  }

  Value map(Type type, ValueRange inputs,
            llvm::function_ref<Value(ValueRange)> fn) {
    return mapWithIndices(type, inputs,
                          [&](Value, Value, ValueRange x) { return fn(x); });
  }

  /// O / l into the output, rounded to its type: the warpgroup's 64 rows.
  void buildStore(cta::TileLoopOp loop, Value o, Value l) {
    Value inverse = rowSumsInverse(l);
    Value normalized = map(outType, {o, inverse}, [&](ValueRange x) {
      return arith::MulFOp::create(rewriter, loc, x[0], x[1]);
    });
    storeOutput(loop, normalized);
  }

  /// 1 / l per row: the output is multiplied by it, one division per row
  /// instead of one (div.rn.f32, ~10 instructions) per element. A row
  /// without keys (l = 0) still comes out 0 * inf = NaN, as 0 / 0 did.
  Value rowSumsInverse(Value l) {
    return map(rowsType, {l}, [&](ValueRange x) {
      return arith::DivFOp::create(rewriter, loc, f32Constant(1.0), x[0])
          .getResult();
    });
  }

  /// The warpgroup's rows of the (normalized) output, rounded to its type.
  void storeOutput(cta::TileLoopOp loop, Value normalized) {
    Type out = elementOf(attention.getResult());
    auto store = cta::StoreOp::create(
        rewriter, loc, ValueRange{normalized}, ValueRange{},
        rewriter.getArrayAttr({}), signature.resultArg(kernel, output),
        tileIndices(loop, row0, false), rowLimit(loop), /*group=*/Value(), so,
        consumers > 1 ? warpgroup : Value());
    OpBuilder::InsertionGuard guard(rewriter);
    Block *epilogue = rewriter.createBlock(&store.getEpilogue());
    Value x = epilogue->addArgument(rewriter.getF32Type(), loc);
    cta::YieldOp::create(
        rewriter, loc,
        arith::TruncFOp::create(rewriter, loc, out, x).getResult());
  }

  /// Each row's log-sum-exp of the scores into the lse output:
  /// m * s + ln(l), where the running maximum m is in the MMA's units when
  /// a positive scale s is folded into the exponentials (else s = 1). A
  /// row every key was masked from has m = -inf and l = 0: -inf.
  void buildLogSumExpStore(cta::TileLoopOp loop, Value m, Value l) {
    double scale = foldedScale().value_or(kLog2e) / kLog2e;
    Value lse = map(rowsType, {m, l}, [&](ValueRange x) {
      Value log = math::LogOp::create(rewriter, loc, x[1]);
      return math::FmaOp::create(rewriter, loc, x[0], f32Constant(scale), log)
          .getResult();
    });
    SmallVector<Value> indices = tileIndices(loop, row0, false);
    indices.pop_back();
    cta::StoreRowsOp::create(rewriter, loc, lse,
                             signature.resultArg(kernel, lseOutput), indices,
                             rowLimit(loop), /*combine=*/nullptr);
  }

  Value q() { return signature.programArg(attention.getQ()); }
  Value k() { return signature.programArg(attention.getK()); }
  Value v() { return signature.programArg(attention.getV()); }

  PatternRewriter &rewriter;
  MLIRContext *ctx;
  tile::KernelOp kernel;
  tile::AttentionOp attention;
  tile::ScheduleAttr schedule;
  const target::ChipInfo &chipInfo;
  target::Chip chip;
  Location loc;

  ProgramSignature signature{ctx};
  cta::ProgramOp program;
  /// The kernel outputs of the attention's result and log-sum-exp.
  unsigned output = 0, lseOutput = 0;
  int64_t consumers = 0;
  size_t rank = 0;
  SmallVector<Value> walkExtents;
  SmallVector<int64_t> tileSizes;
  SmallVector<bool> kvBroadcast;
  /// T (per unit when packed: the unit's sequence's keys), and constants:
  /// 0, 1, the rows of a warpgroup, the query and key tiles, -inf and 0.0.
  Value keys, c0, c1, rowsPerWarpgroup, queryTile, keyTile, negInf, zero;
  /// Packed sequences (varlen): their count, and per unit (read in each
  /// role) the sequence's first query row and first key row.
  bool segmented = false;
  /// The chip keeps accumulators in tensor memory (sm_100a): the kernel of
  /// buildTensorMemoryRoles.
  bool tensorMemory = false;
  /// Query rows per consumer warpgroup: a wgmma's 64, or a tcgen05.mma's
  /// 128 (one per tensor-memory lane).
  int64_t kRows = 0;
  /// sm_100a: the score sets the MMA warp hands to the softmax warpgroup,
  /// the ring of P stages it hands back, O and P in tensor memory.
  Value sRing, pRing, oTile, pTile;
  Value sequences, sequenceStart, keyStart;
  Value sq, sk, sv, so, qRing, kRing, vRing;
  int64_t queryStages = kQueryStages;
  // The math role's per-unit values: its warpgroup, that warpgroup's first
  // row in the query tile and in the sequence, -inf.
  Value warpgroup, wgRow, row0, qSlot;
  /// The warpgroup's first row within its sequence (the masks' index).
  Value localRow0;
  cta::AccType outType, scoreType;
  /// The scores and P in f32 as register fragments (the MMA's layout), and
  /// P rounded into the MMA's register operand.
  cta::FragType rowsType, probabilityType, pType;
};

} // namespace

void kiln::buildAttentionProgram(PatternRewriter &rewriter,
                                 tile::KernelOp kernel,
                                 tile::AttentionOp attention,
                                 target::Chip chip) {
  AttentionBuilder(rewriter, kernel, attention, chip).build();
}
