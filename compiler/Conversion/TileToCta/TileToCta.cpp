//===- TileToCta.cpp - tile a contraction kernel onto thread blocks -------===//
//
// The tile -> cta step fixes the kernel's ABI (global tensors as strided
// memrefs, symbolic dims as index arguments) and spells out what one CTA does
// per output tile: copy operand tiles into shared memory, multiply them into
// an accumulator over the K loop, and store the tile through the epilogue.
// Everything about overlap (stages, warp roles) is left to cta-pipeline.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/TileToCta/TileToCta.h"
#include "compiler/Conversion/TileToCta/AttentionToCta.h"
#include "compiler/Conversion/TileToCta/ProgramSignature.h"
#include "compiler/Conversion/Passes.h"
#include "compiler/Target/BlockScaleLayout.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/MLIR/ElementTypes.h"
#include "compiler/Target/TensorMemory.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "dialects/Tile/IR/TileShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/FormatVariadic.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTTILETOCTA
#include "compiler/Conversion/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

bool isSupportedOperand(Type type) {
  return type.isBF16() || type.isF16() || llvm::isa<Float8E4M3FNType, Float8E5M2Type>(type);
}
bool isSupportedResult(Type type) {
  return type.isBF16() || type.isF16() || type.isF32();
}

/// The extents of the [row atoms, K atoms, 32, 16] scale-factor tensor of a
/// block-scaled operand with rows `rows` and K `k` (names or constants) and
/// `block` K elements per scale: one 512-byte atom per 128 rows and
/// 4 * block K elements (the layout tcgen05 reads; runtime/BlockScale.h).
SmallVector<tile::DimExprAttr> scaleTensorShape(tile::DimExprAttr rows,
                                                tile::DimExprAttr k,
                                                int64_t block) {
  MLIRContext *ctx = rows.getContext();
  auto constant = [&](int64_t value) {
    return tile::DimExprAttr::get(ctx, DimExpr::constant(value));
  };
  int64_t atomBytes = target::scaleFactorAtomBytes;
  int64_t atomRows = target::scaleFactorAtomRows;
  // An atom is 32 rows of 16 bytes: row m % 32, byte 4 (m / 32) + kb.
  return {tile::getCeilDivDim(rows, atomRows),
          tile::getCeilDivDim(k, target::scaleFactorAtomKBlocks * block),
          constant(32), constant(atomBytes / 32)};
}

InFlightDiagnostic notImplemented(Operation *op, const Twine &what) {
  return op->emitError() << "convert-tile-to-cta: not implemented yet: "
                         << what;
}

} // namespace

/// Whether `value` is computed, through any chain of ops in the kernel, from
/// a result of `op`.
static bool dependsOn(Value value, Operation *op) {
  SmallVector<Value> work = {value};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *def = work.pop_back_val().getDefiningOp();
    if (!def || !seen.insert(def).second)
      continue;
    if (def == op)
      return true;
    llvm::append_range(work, def->getOperands());
  }
  return false;
}

/// The ops of `block` that `value` depends on (in block order) and the block
/// arguments it reads.
static void collectSlice(Block &block, Value value,
                         llvm::SetVector<Operation *> &ops,
                         llvm::SetVector<BlockArgument> &args) {
  SmallVector<Value> worklist = {value};
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (auto arg = llvm::dyn_cast<BlockArgument>(next)) {
      if (arg.getOwner() == &block)
        args.insert(arg);
      continue;
    }
    Operation *def = next.getDefiningOp();
    if (!def || def->getBlock() != &block || !ops.insert(def))
      continue;
    llvm::append_range(worklist, def->getOperands());
  }
}

/// The part of `contract`'s epilogue that computes its output `output`: the
/// value it yields, the ops that compute it (in block order) and the block
/// arguments (accumulators, then inputs) they read, in order.
static SmallVector<BlockArgument>
epilogueSlice(tile::ContractOp contract, OpResult output, Value &yielded,
              llvm::SetVector<Operation *> &ops) {
  Block &source = contract.getEpilogue().front();
  yielded = llvm::cast<tile::YieldOp>(source.getTerminator())
                .getValues()[output.getResultNumber()];
  llvm::SetVector<BlockArgument> args;
  collectSlice(source, yielded, ops, args);
  SmallVector<BlockArgument> used(args.begin(), args.end());
  llvm::sort(used, [](BlockArgument a, BlockArgument b) {
    return a.getArgNumber() < b.getArgNumber();
  });
  return used;
}

/// What a reduction of a contraction output over its rows (axis = -1) or
/// columns (axis = -2) needs today: a product that is not grouped (2-D or
/// batched), an f32 result, and an element that reads no epilogue input (on either chip:
/// sm_90a reduces register fragments, sm_100a each thread's row of tensor
/// memory, 32 columns at a time).
static LogicalResult checkProductReduction(tile::ReduceOp reduce) {
  auto contract = reduce.getInput().getDefiningOp<tile::ContractOp>();
  auto inputType = llvm::cast<RankedTensorType>(reduce.getInput().getType());
  if (reduce.getKind() == tile::ReduceKind::logsumexp)
    return notImplemented(reduce, "logsumexp of a product outside attention "
                                  "(sum and max of a product's rows and "
                                  "columns lower)");
  if (static_cast<int64_t>(reduce.getAxis()) + 2 < inputType.getRank())
    return notImplemented(reduce, "a reduction of a product over one of its "
                                  "leading (batch) axes; its rows (axis = "
                                  "-1) and columns (axis = -2) reduce");
  bool rows = tile::reducesRows(reduce);
  std::string what = rows ? "a row reduction" : "a column reduction";
  if (!llvm::cast<RankedTensorType>(reduce.getResult().getType())
           .getElementType()
           .isF32())
    return notImplemented(
        reduce, what + " of 16-bit values (the " +
                    (rows ? "column tiles combine in f32: reduce f32(y) "
                            "into an f32[M] output)"
                          : "row tiles combine in f32: reduce f32(y) into "
                            "an f32[N] output)"));
  if (!tile::isProductReduction(reduce))
    return notImplemented(
        reduce, what + " of a product that is used other than as a kernel "
                       "output (for example converted to 16 bits: the " +
                    (rows ? "column tiles combine in f32, so write f32[M])"
                          : "row tiles combine in f32, so write f32[N])"));
  if (contract.getGroups())
    return notImplemented(reduce, what + " of a grouped (mixture-of-experts) "
                                         "product as an output");
  Value yielded;
  llvm::SetVector<Operation *> ops;
  SmallVector<BlockArgument> args = epilogueSlice(
      contract, llvm::cast<OpResult>(reduce.getInput()), yielded, ops);
  size_t accs = contract.getContractions().size();
  if (!args.empty() && args.back().getArgNumber() >= accs)
    return notImplemented(reduce, what + " of an epilogue that reads an "
                                         "input (a bias, a residual, a "
                                         "scale)");
  return success();
}

/// The kernel's one contraction, once every other op of its body is one the
/// lowering moves into it (constants) or the terminator; else reports the
/// first op that is not (unfused attention first: its pieces would be
/// reported as batched matmuls).
static FailureOr<tile::ContractOp> findOnlyContraction(tile::KernelOp kernel) {
  Block &body = kernel.getBody().front();
  for (auto softmax : body.getOps<tile::SoftmaxOp>())
    if (tile::feedsProduct(softmax))
      return notImplemented(softmax,
                            "attention ('tile.softmax' feeding a matmul) "
                            "that tile-fuse-attention did not fuse (its "
                            "remark, shown with --explain, says why)");
  tile::ContractOp contract;
  for (Operation &op : body) {
    if (auto candidate = llvm::dyn_cast<tile::ContractOp>(op)) {
      if (contract &&
          llvm::any_of(candidate.getInputs(),
                       [&](Value in) { return dependsOn(in, contract); }))
        return notImplemented(
            &op, "a contraction of another contraction's result in one "
                 "kernel (a chained MLP such as relu(x @ w1^T) @ w2^T); "
                 "write one kernel per contraction");
      if (contract)
        return notImplemented(
            &op, "several contractions in one kernel that tile-fuse-siblings "
                 "did not fuse (it fuses contractions that read the same lhs "
                 "over the same K, as SwiGLU's two do; --explain shows why "
                 "it left a pair apart, where it tried)");
      contract = candidate;
      continue;
    }
    // Constants canonicalization hoisted out of an epilogue move back in;
    // a per_group expansion is read by the store (checkEpilogueAndExtents).
    if (llvm::isa<tile::ReturnOp, tile::PerGroupOp>(op) ||
        op.hasTrait<OpTrait::ConstantLike>())
      continue;
    // A reduction of a contraction output over its rows or columns
    // (`r = sum(y, axis = -1)`): computed per tile and combined
    // (checkProductReduction says what lowers).
    if (auto reduce = llvm::dyn_cast<tile::ReduceOp>(op);
        reduce && reduce.getInput().getDefiningOp<tile::ContractOp>()) {
      if (failed(checkProductReduction(reduce)))
        return failure();
      continue;
    }
    if (llvm::isa<tile::SoftmaxOp, tile::MaskOp, tile::ScoreModOp>(op)) {
      if (tile::feedsProduct(&op))
        return notImplemented(&op, "attention ('" +
                                       op.getName().getStringRef() +
                                       "' feeding a matmul)");
      return notImplemented(
          &op, "'" + op.getName().getStringRef() +
                   "' outside attention: today only kernels built around "
                   "one contraction (a matmul or a dual GEMM with its "
                   "epilogue) lower");
    }
    if (auto grouped = llvm::dyn_cast<tile::GroupedMatmulOp>(op))
      return notImplemented(
          &op, grouped.getLhsScale()
                   ? "block-scaled grouped (mixture-of-experts) matmul with "
                     "scale blocks other than 1 x K-block on both operands"
                   : "a grouped (mixture-of-experts) matmul that "
                     "tile-fuse-epilogues did not make a contraction");
    if (llvm::isa<tile::SegmentedMatmulOp>(op))
      return notImplemented(&op, "a segmented product (grouped(q, cu_q) @ "
                                 "grouped(k, cu_k)^T) outside attention: it "
                                 "lowers as the scores of softmax(...) @ v");
    if (llvm::isa<tile::ScaledMatmulOp>(op))
      return notImplemented(&op, "block-scaled matmul with scale blocks "
                                 "other than 1 x K-block on both operands "
                                 "(e.g. 128x128 weight blocks)");
    if (llvm::isa<tile::MatmulOp>(op))
      return notImplemented(
          &op, "batched matmul (rank > 2), or a matmul not fused by "
               "tile-fuse-epilogues");
    return notImplemented(&op, "'" + op.getName().getStringRef() +
                                   "' outside a contraction epilogue");
  }
  if (!contract)
    return notImplemented(kernel, "a kernel without a contraction");
  return contract;
}

/// Whether product `mma` of `contract` has block scales the tensor cores do
/// not apply (fp8 with f32 scales): each K step's product is scaled in
/// registers.
static bool isSoftwareScaled(tile::ContractOp contract, tile::MmaAttr mma) {
  if (!mma.isBlockScaled())
    return false;
  auto elementOf = [&](int64_t input) {
    return llvm::cast<RankedTensorType>(contract.getInputs()[input].getType())
        .getElementType();
  };
  return target::isSoftwareBlockScaled(elementOf(mma.getLhs()),
                                       elementOf(mma.getLhsScale()));
}

/// Checks the products of `contract`: scheduled, operands in the layouts
/// the copies read, of types the chip's MMA multiplies.
static LogicalResult checkProducts(tile::ContractOp contract,
                                   target::Chip chip) {
  if (!contract.getSchedule())
    return contract.emitError(
        "convert-tile-to-cta: the contraction has no schedule; run "
        "tile-select-schedule first");
  llvm::DenseMap<unsigned, bool> rhsLayouts;
  for (Attribute attr : contract.getContractions()) {
    auto mma = llvm::cast<tile::MmaAttr>(attr);
    if (mma.getTransposeA())
      return notImplemented(contract, "a transposed lhs (stored [K, M])");
    auto [layout, inserted] =
        rhsLayouts.try_emplace(mma.getRhs(), mma.getTransposeB());
    if (!inserted && layout->second != mma.getTransposeB())
      return notImplemented(contract, "one rhs read both as stored [N, K] "
                                      "(b^T) and as stored [K, N] (b)");
    if (!mma.getTransposeB()) {
      // An rhs stored [K, N] is read MN-major, which the MMAs take for
      // 16-bit operands only.
      Type element = llvm::cast<RankedTensorType>(
                         contract.getInputs()[mma.getRhs()].getType())
                         .getElementType();
      if (mma.isBlockScaled() || element.getIntOrFloatBitWidth() != 16)
        return notImplemented(
            contract, "an rhs of " + llvm::formatv("{0}", element).str() +
                          " stored [K, N] (the MMA reads 8-bit and 4-bit "
                          "operands K-major only); store it [N, K] and "
                          "write b^T");
    }
  }
  bool scaled =
      llvm::cast<tile::MmaAttr>(contract.getContractions()[0]).isBlockScaled();
  bool software =
      scaled && isSoftwareScaled(contract, llvm::cast<tile::MmaAttr>(
                                               contract.getContractions()[0]));
  if (scaled && !software && contract.getGroups() &&
      contract.getSchedule()->getTileM() != target::scaleFactorAtomRows)
    return notImplemented(contract,
                          "a block-scaled grouped (mixture-of-experts) product "
                          "with tile_m = " +
                              Twine(contract.getSchedule()->getTileM()) +
                              " (its scale atoms are per group of " +
                              Twine(target::scaleFactorAtomRows) + " rows)");
  if (software) {
    // fp8 with f32 block scales: each K step's product scaled in registers
    // by the lhs rows' scales and the tile's one rhs scale.
    if (target::getChipInfo(chip).tensorMemoryColumns)
      return notImplemented(contract, "fp8 with f32 block scales on " +
                                          std::string(target::chipName(chip)) +
                                          " (they lower on sm_90a)");
    // Products of one lhs (a dual GEMM, several outputs of one x) share its
    // scales; the weights' blocks are alike.
    auto first = llvm::cast<tile::MmaAttr>(contract.getContractions()[0]);
    for (Attribute attr : contract.getContractions()) {
      auto mma = llvm::cast<tile::MmaAttr>(attr);
      if (mma.getLhs() != first.getLhs() ||
          mma.getRhsScaleRows() != first.getRhsScaleRows() ||
          mma.getScaleBlock() != first.getScaleBlock())
        return notImplemented(contract,
                              "products with f32 block scales that do not "
                              "share their lhs and scale blocks");
    }
    if (llvm::cast<RankedTensorType>(contract.getOutputs()[0].getType())
            .getRank() != 2)
      return notImplemented(contract, "a batched product with f32 block "
                                      "scales");
  } else if (scaled && !target::getChipInfo(chip).blockScaledMma) {
    return contract.emitError("convert-tile-to-cta: block-scaled products "
                              "(NVFP4, MXFP8) need sm_100a");
  }
  for (Value input : contract.getInputs()) {
    if (!llvm::isa<BlockArgument>(input))
      return notImplemented(contract,
                            "contraction operands computed inside the kernel");
    Type element =
        llvm::cast<RankedTensorType>(input.getType()).getElementType();
    if (!isSupportedOperand(element) && !scaled)
      return notImplemented(contract, Twine("operands of type ") +
                                          llvm::formatv("{0}", element).str() +
                                          " (bf16, f16, e4m3 and e5m2 are supported)");
  }
  // Block scales reach the kernel as [row atoms, K atoms, 32, 16] tensors
  // (scaleTensorShape), whose extents need the data's as names or
  // constants.
  if (scaled)
    for (Attribute attr : contract.getContractions()) {
      auto mma = llvm::cast<tile::MmaAttr>(attr);
      for (unsigned data : {mma.getLhs(), mma.getRhs()})
        for (const std::string &dim : tile::getDimExprs(llvm::cast<RankedTensorType>(
                 contract.getInputs()[data].getType())))
          if (!tile::getConstantDim(dim) &&
              !llvm::all_of(dim, [](char c) {
                return llvm::isAlnum(c) || c == '_';
              }))
            return notImplemented(contract,
                                  "a block-scaled operand extent given by the "
                                  "expression '" +
                                      dim + "'");
    }
  return success();
}

/// Checks what the stores need of `contract`: epilogue inputs that are
/// kernel parameters, output types the epilogue writes, and M, N, K the
/// walk can take as index arguments.
static LogicalResult checkEpilogueAndExtents(tile::ContractOp contract) {
  for (Value input : contract.getEpilogueInputs()) {
    if (auto perGroup = input.getDefiningOp<tile::PerGroupOp>()) {
      if (!contract.getGroups())
        return notImplemented(perGroup, "per_group(b, offsets) in the "
                                        "epilogue of a product that is not "
                                        "grouped");
      if (perGroup.getOffsets() != contract.getGroups())
        return notImplemented(perGroup,
                              "per_group(b, offsets) with other offsets than "
                              "its grouped product's");
      input = perGroup.getInput();
    }
    if (!llvm::isa<BlockArgument>(input))
      return notImplemented(contract, "epilogue inputs computed inside the "
                                      "kernel (only kernel parameters)");
    auto type = llvm::cast<RankedTensorType>(input.getType());
    if (type.getRank() > 2)
      return notImplemented(contract, "an epilogue input of rank " +
                                          Twine(type.getRank()));
  }
  for (Value output : contract.getOutputs()) {
    Type out = llvm::cast<RankedTensorType>(output.getType()).getElementType();
    if (!isSupportedResult(out))
      return notImplemented(contract, Twine("an output of type ") +
                                          llvm::formatv("{0}", out).str());
  }
  // M, N and the batch axes are the output's extents, which its stores
  // clip to: names or constants. K may be any dim expression (`K*2`): the
  // K loop's trip count is computed from its name.
  SmallVector<std::string> outDims = tile::getDimExprs(
      llvm::cast<RankedTensorType>(contract.getOutputs()[0].getType()));
  for (const std::string &dim : outDims)
    if (!tile::getConstantDim(dim) &&
        !llvm::all_of(dim, [](char c) { return llvm::isAlnum(c) || c == '_'; }))
      return notImplemented(contract,
                            "an output extent given by the expression '" +
                                dim + "'");
  return success();
}

/// The kernel's attention op, if it has one (AttentionToCta.h builds it).
static tile::AttentionOp findAttention(tile::KernelOp kernel) {
  auto attentions = kernel.getBody().front().getOps<tile::AttentionOp>();
  return attentions.empty() ? tile::AttentionOp() : *attentions.begin();
}

LogicalResult kiln::checkTileToCtaSupport(tile::KernelOp kernel,
                                          target::Chip chip) {
  if (tile::AttentionOp attention = findAttention(kernel))
    return checkAttentionSupport(kernel, attention, chip);
  FailureOr<tile::ContractOp> contract = findOnlyContraction(kernel);
  if (failed(contract))
    return failure();
  auto ret =
      llvm::cast<tile::ReturnOp>(kernel.getBody().front().getTerminator());
  for (Value value : ret.getValues()) {
    // (A reduction's input was checked by findOnlyContraction.)
    if (auto reduce = value.getDefiningOp<tile::ReduceOp>();
        reduce && llvm::is_contained(contract->getOutputs(), reduce.getInput()))
      continue;
    if (!llvm::is_contained(contract->getOutputs(), value))
      return notImplemented(ret,
                            "an output that is not the contraction's result");
  }
  if (failed(checkProducts(*contract, chip)))
    return failure();
  return checkEpilogueAndExtents(*contract);
}

namespace {

/// How an epilogue input of dims `dims` is read per element of an output of
/// dims `out` ([M, N]): along the axes where it is not broadcast.
cta::InputKind inputKind(ArrayRef<std::string> dims,
                         ArrayRef<std::string> out) {
  // Align at the right, as the language broadcasts: a missing or constant-1
  // axis is broadcast.
  auto varies = [&](size_t outAxis) {
    size_t offset = out.size() - dims.size();
    if (outAxis < offset)
      return false;
    return dims[outAxis - offset] != "1" || out[outAxis] == "1";
  };
  bool perRow = varies(0), perCol = varies(1);
  if (perRow && perCol)
    return cta::InputKind::tile;
  if (perRow)
    return cta::InputKind::per_row;
  if (perCol)
    return cta::InputKind::per_col;
  return cta::InputKind::scalar;
}

/// Builds the `cta.program` of one kernel that checkTileToCtaSupport
/// accepted. The steps run in the order the program reads, each leaving the
/// rewriter where the next continues:
///   1. the signature (the ABI the manifest describes) and the entry block;
///   2. how the tile maps onto MMAs (a CTA pair, a packed rhs), no IR;
///   3. the shared buffers: operand tiles, block-scale atoms, staging;
///   4. the tile walk (static; stream-K with a K range per tile part;
///      grouped by offsets, with the group and its end row);
///   5. the K loop: copies and MMAs into the carried accumulators;
///   6. the stream-K join and the split of a packed accumulator;
///   7. one store per output with the part of the epilogue it needs.
/// What the steps share (dims, buffers, the walk's block arguments) lives
/// in the members, so no step recomputes what an earlier one decided.
class ProgramBuilder {
public:
  ProgramBuilder(PatternRewriter &rewriter, tile::KernelOp kernel,
                 target::Chip chip)
      : rewriter(rewriter), ctx(kernel.getContext()), kernel(kernel),
        contract(*kernel.getBody().getOps<tile::ContractOp>().begin()),
        schedule(*contract.getSchedule()), chip(chip),
        chipInfo(target::getChipInfo(chip)), loc(kernel.getLoc()),
        contractLoc(contract.getLoc()),
        numAccs(contract.getContractions().size()) {}

  void build() {
    buildSignature();
    rewriter.setInsertionPointToStart(entry);
    SmallVector<StringAttr, 3> mnk = contract.getMNK();
    m = dimValue(mnk[0]);
    n = dimValue(mnk[1]);
    k = dimValue(mnk[2]);
    SmallVector<std::string> outDims = tile::getDimExprs(
        llvm::cast<RankedTensorType>(contract.getOutputs()[0].getType()));
    for (const std::string &dim : ArrayRef(outDims).drop_back(2))
      batchExtents.push_back(dimValue(rewriter.getStringAttr(dim)));
    planTiling();
    allocateOperandBuffers();
    allocateScaleBuffers();
    allocateStaging();
    buildTileLoop();
    SmallVector<Value> sums = buildMainloop();
    // A tile part that does not finish its tile hands its sums over and
    // stores nothing.
    scf::IfOp complete;
    if (streamK)
      sums = joinStreamKParts(sums, complete);
    if (packed)
      sums = llvm::to_vector_of<Value>(
          cta::SplitColsOp::create(rewriter, contractLoc,
                                   SmallVector<Type>(numAccs, accType),
                                   sums[0])
              .getParts());
    buildStores(sums);
    if (complete)
      rewriter.setInsertionPointAfter(complete);
    cta::YieldOp::create(rewriter, loc);

    rewriter.setInsertionPointToEnd(entry);
    cta::ReturnOp::create(rewriter, loc);
    rewriter.eraseOp(kernel);
  }

private:
  //===--------------------------------------------------------------------===//
  // 1. The signature
  //===--------------------------------------------------------------------===//

  /// The ABI (ProgramSignature.h), with block-scale tensors in the layout
  /// the kernel reads; the program's schedule and cluster.
  void buildSignature() {
    llvm::DenseMap<Value, SmallVector<tile::DimExprAttr>> scaleShapes =
        collectScaleShapes();
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i)
      signature.addTensor(
          llvm::cast<RankedTensorType>(kernel.getArgumentTypes()[i]),
          kernel.getArgParam(i), scaleShapes.lookup(kernel.getArgument(i)));
    for (unsigned i = 0; i < kernel.getNumResults(); ++i)
      signature.addTensor(
          llvm::cast<RankedTensorType>(kernel.getResultTypes()[i]),
          kernel.getResultParam(i));
    program = signature.create(rewriter, kernel, chip);
    entry = signature.entry;
    program.setScheduleAttr(cta::ScheduleAttr::get(
        ctx, schedule.getStages(), schedule.getConsumers(),
        schedule.getAccStages(), schedule.getPingpong()));
    program.setClusterAttr(rewriter.getDenseI64ArrayAttr(
        {schedule.getClusterM(), schedule.getClusterN()}));
  }

  /// Block-scale tensors of scaled products reach the kernel in their
  /// [row atoms, K atoms, 32, 16] layout (scaleTensorShape), not in the
  /// shape the source gave: that layout, keyed by kernel argument.
  llvm::DenseMap<Value, SmallVector<tile::DimExprAttr>>
  collectScaleShapes() {
    llvm::DenseMap<Value, SmallVector<tile::DimExprAttr>> scaleShapes;
    for (Attribute attr : contract.getContractions()) {
      auto mma = llvm::cast<tile::MmaAttr>(attr);
      // (Scales applied in software are read as the source gave them.)
      if (!mma.isBlockScaled() || isSoftwareScaled(contract, mma))
        continue;
      for (auto [data, scale] : {std::pair<unsigned, int64_t>{mma.getLhs(),
                                                              mma.getLhsScale()},
                                 {mma.getRhs(), mma.getRhsScale()}}) {
        // A grouped rhs [E, N, K] has one such tensor per group:
        // [E, row atoms, K atoms, 32, 16].
        SmallVector<tile::DimExprAttr> dataDims = tile::getDimAttrs(
            llvm::cast<RankedTensorType>(contract.getInputs()[data].getType()));
        size_t rank = dataDims.size();
        SmallVector<tile::DimExprAttr> shape(dataDims.begin(),
                                             dataDims.end() - 2);
        llvm::append_range(shape,
                           scaleTensorShape(dataDims[rank - 2],
                                            dataDims[rank - 1],
                                            mma.getScaleBlock()));
        // A grouped lhs's row atoms are per group: group e's first atom
        // follows the last of group e - 1 (each group's rows padded to
        // whole atoms), at most cdiv(T, 128) + E of them, a dim of its own
        // (`<x>_row_atoms`) bound from the tensor.
        if (contract.getGroups() && data == mma.getLhs()) {
          auto arg = llvm::cast<BlockArgument>(contract.getInputs()[data]);
          std::string name =
              kernel.getArgParam(arg.getArgNumber()).getName().str() +
              "_row_atoms";
          shape[0] = tile::DimExprAttr::get(ctx, DimExpr::dim(name));
        }
        scaleShapes[contract.getInputs()[scale]] = shape;
      }
    }
    return scaleShapes;
  }

  /// The extent `dim` (a name or a constant) as an index value.
  Value dimValue(StringAttr dim) {
    return signature.dimValue(rewriter, loc, dim.getValue());
  }

  /// The program argument of a kernel-argument tensor.
  Value programArg(Value value) const { return signature.programArg(value); }

  //===--------------------------------------------------------------------===//
  // 2. How the tile maps onto MMAs
  //===--------------------------------------------------------------------===//

  /// The lhs and rhs kernel arguments of product `acc`.
  std::pair<Value, Value> operands(size_t acc) {
    auto mma = llvm::cast<tile::MmaAttr>(contract.getContractions()[acc]);
    return {contract.getInputs()[mma.getLhs()],
            contract.getInputs()[mma.getRhs()]};
  }

  /// The lhs and rhs scale arguments of block-scaled product `acc`.
  std::pair<Value, Value> scales(size_t acc) {
    auto mma = llvm::cast<tile::MmaAttr>(contract.getContractions()[acc]);
    return {contract.getInputs()[mma.getLhsScale()],
            contract.getInputs()[mma.getRhsScale()]};
  }

  /// Decides the CTA's share of the tile and whether products share one MMA;
  /// creates no IR.
  void planTiling() {
    tm = schedule.getTileM();
    tn = schedule.getTileN();
    tk = schedule.getTileK();
    // Each rhs is stored [N, K] (K-major, read as b^T) or [K, N]
    // (checkProducts: one layout per tensor); sibling products may differ.
    for (size_t i = 0; i < numAccs; ++i)
      rhsKMajor[operands(i).second] =
          llvm::cast<tile::MmaAttr>(contract.getContractions()[i])
              .getTransposeB();
    bool allKMajor = llvm::all_of(
        rhsKMajor, [](const auto &entry) { return entry.second; });
    // A split-K tail is a stream-K walk whose partial last wave is cut into
    // K halves instead of runs; the join is the same.
    streamK = schedule.getStreamK() || schedule.getSplitK();
    // A CTA pair (sm_100a, tile_m = 256): each CTA of the 2x1 cluster owns
    // 128 rows of the tile and holds half of each rhs tile (the even CTA the
    // first half); one MMA of the pair's 256 rows reads both CTAs' halves.
    pair = chipInfo.tensorMemoryColumns &&
           tm == static_cast<int64_t>(target::ctaPairSize * target::tmemLanes);
    if (pair)
      tm /= target::ctaPairSize;
    rhsRows = pair ? tn / target::ctaPairSize : tn;
    // Sibling products of one lhs whose rhs tiles fit side by side in one
    // MMA run as one MMA over both tiles (one m64n256 wgmma chain for a dual
    // GEMM with 128-column tiles instead of two m64n128 chains: the lhs is
    // read from shared memory once per K step instead of once per product,
    // and the MMA has the shape the plain matmul runs at).
    llvm::SmallSetVector<Value, 4> rhsOperands;
    for (size_t i = 0; i < numAccs; ++i)
      rhsOperands.insert(operands(i).second);
    auto elementOf = [](Value value) {
      return llvm::cast<RankedTensorType>(value.getType()).getElementType();
    };
    // (An rhs stored [K, N] is MN-major: its tiles would sit side by side
    // along columns, not rows; those products keep one MMA each.)
    packed = !pair && allKMajor && numAccs > 1 &&
             rhsOperands.size() == numAccs &&
             llvm::all_of(llvm::seq<size_t>(0, numAccs),
                          [&](size_t i) {
                            return operands(i).first == operands(0).first;
                          }) &&
             llvm::all_of(rhsOperands,
                          [&](Value rhs) {
                            return elementOf(rhs) == elementOf(rhsOperands[0]);
                          }) &&
             static_cast<int64_t>(numAccs) * tn <=
                 static_cast<int64_t>(chipInfo.mmaMaxN);
    auto first = llvm::cast<tile::MmaAttr>(contract.getContractions()[0]);
    scaleBlock = first.getScaleBlock();
    softwareScaled = isSoftwareScaled(contract, first);
    rhsScaleRows = first.getRhsScaleRows();
    // (Per-column rhs scales are a cols vector of one product's tile: such
    // products keep one MMA each.)
    if (softwareScaled && rhsScaleRows == 1)
      packed = false;
    kAtoms = scaleBlock && !softwareScaled
                 ? tk / (target::scaleFactorAtomKBlocks * scaleBlock)
                 : 0;
    accType = cta::AccType::get(ctx, {tm, tn}, rewriter.getF32Type());
    // The accumulators the K loop carries: one wide one when packed.
    carried.assign(
        packed ? 1 : numAccs,
        packed
            ? cta::AccType::get(ctx, {tm, tn * static_cast<int64_t>(numAccs)},
                                rewriter.getF32Type())
            : Type(accType));
  }

  //===--------------------------------------------------------------------===//
  // 3. Shared buffers
  //===--------------------------------------------------------------------===//

  /// A single-stage `rows x cols` buffer; cta-pipeline makes it a ring.
  Value buffer(int64_t rows, int64_t cols, Type element) {
    return cta::AllocOp::create(
               rewriter, loc,
               cta::BufferType::get(ctx, {rows, cols}, element, 1, nullptr))
        .getBuffer();
  }

  /// One shared buffer per distinct operand: a dual GEMM's shared lhs is
  /// loaded once per K step. A packed rhs is one buffer holding every
  /// product's rhs tile.
  void allocateOperandBuffers() {
    for (size_t i = 0; i < numAccs; ++i) {
      auto [lhs, rhs] = operands(i);
      Type element =
          llvm::cast<RankedTensorType>(lhs.getType()).getElementType();
      Type rhsElement =
          llvm::cast<RankedTensorType>(rhs.getType()).getElementType();
      if (!lhsBuffers.count(lhs))
        lhsBuffers[lhs] = buffer(tm, tk, element);
      if (packed && i > 0) {
        Value shared = rhsBuffers.front().second; // (a copy: [] may grow)
        rhsBuffers[rhs] = shared;
      } else if (!rhsBuffers.count(rhs)) {
        // A [K, N] rhs's tile is tk rows of its rhsRows columns.
        rhsBuffers[rhs] =
            rhsKMajor.lookup(rhs)
                ? buffer(packed ? tn * static_cast<int64_t>(numAccs) : rhsRows,
                         tk, rhsElement)
                : buffer(tk, rhsRows, rhsElement);
      }
    }
  }

  /// Block scales: per scaled operand a buffer of its stage's scale-factor
  /// atoms (32 x 16 bytes each; row atoms of 128 rows, each with the K atoms
  /// of the stage, in that order), filled one atom per copy from the
  /// [row atoms, K atoms, 32, 16] scale tensor. A packed rhs has its
  /// operands' row atoms one after the other.
  void allocateScaleBuffers() {
    if (!scaleBlock || softwareScaled)
      return;
    auto scaleBuffer = [&](int64_t rows, Value scale) {
      Type element =
          llvm::cast<RankedTensorType>(scale.getType()).getElementType();
      return buffer(llvm::divideCeil(rows, atomRows) * kAtoms * 32,
                    target::scaleFactorAtomBytes / 32, element);
    };
    for (size_t i = 0; i < numAccs; ++i) {
      auto [lhsScale, rhsScale] = scales(i);
      if (!lhsScaleBuffers.count(lhsScale))
        lhsScaleBuffers[lhsScale] = scaleBuffer(tm, lhsScale);
      if (packed && i > 0) {
        Value shared = rhsScaleBuffers.front().second; // (a copy: [] may grow)
        rhsScaleBuffers[rhsScale] = shared;
      } else if (!rhsScaleBuffers.count(rhsScale)) {
        rhsScaleBuffers[rhsScale] = scaleBuffer(
            packed ? tn * static_cast<int64_t>(numAccs) : tn, rhsScale);
      }
    }
  }

  /// The epilogue streams a tile out through two 128-byte column blocks;
  /// outputs of one element type share that staging buffer.
  void allocateStaging() {
    for (Value output : contract.getOutputs()) {
      if (!tile::isStoredOutput(output))
        continue; // reduced in registers (buildProductReduction)
      Type outType =
          llvm::cast<RankedTensorType>(output.getType()).getElementType();
      if (!staging.count(outType))
        staging[outType] =
            buffer(tm,
                   schedule.getStagingColumns(outType.getIntOrFloatBitWidth()),
                   outType);
    }
  }

  //===--------------------------------------------------------------------===//
  // 4. The tile walk
  //===--------------------------------------------------------------------===//

  /// The walk over output tiles, with the schedule's persistence, grouping
  /// and cluster; leaves the rewriter at the start of its body. A stream-K
  /// walk hands each tile part a K range [kBegin, kEnd) and the workspace
  /// slot its two parts meet in.
  void buildTileLoop() {
    // The tile walk, K loop, copies, MMAs and stores are the contraction's:
    // they carry its location, so the PTX's line info (and a profiler's
    // source view) puts them on the line of its `@`.
    if (Value offsets = contract.getGroups()) {
      // Mixture of experts: each group's rows tiled on their own, found by
      // scanning the offsets on the device; the group count is the rhs's
      // leading extent (offsets are [E+1]).
      Value groups = dimValue(
          rewriter.getStringAttr(tile::getDimExprs(llvm::cast<RankedTensorType>(
              operands(0).second.getType()))[0]));
      loop = cta::TileLoopOp::create(rewriter, contractLoc,
                                     cta::WalkKind::grouped,
                                     programArg(offsets), groups,
                                     ValueRange{m, n}, {tm, tn}, ValueRange{});
    } else if (streamK) {
      loop = cta::TileLoopOp::create(rewriter, contractLoc,
                                     cta::WalkKind::stream_k,
                                     ValueRange{m, n, k}, {tm, tn, tk},
                                     ValueRange{});
    } else if (!batchExtents.empty()) {
      // Batched: the tiles of every leading index, one unit each.
      SmallVector<Value> extents(batchExtents);
      extents.append({m, n});
      SmallVector<int64_t> tiles(batchExtents.size(), 1);
      tiles.append({tm, tn});
      loop = cta::TileLoopOp::create(rewriter, contractLoc,
                                     cta::WalkKind::batched, extents, tiles,
                                     ValueRange{});
    } else {
      loop = cta::TileLoopOp::create(rewriter, contractLoc,
                                     cta::WalkKind::static_, ValueRange{m, n},
                                     {tm, tn}, ValueRange{});
    }
    loop.setPersistent(schedule.getPersistent());
    loop.setHalves(schedule.getSplitK());
    loop.setGroupM(schedule.getGroupM());
    loop.setCluster(
        ArrayRef<int64_t>{schedule.getClusterM(), schedule.getClusterN()});
    rewriter.setInsertionPointToStart(&loop.getBody().front());
    size_t leading = batchExtents.size();
    for (size_t axis = 0; axis < leading; ++axis)
      batch.push_back(loop.getBody().getArgument(axis));
    m0 = loop.getTileOrigin(leading);
    n0 = loop.getTileOrigin(leading + 1);
    if (contract.getGroups()) {
      group = loop.getGroup();
      groupEnd = loop.getGroupEnd();
      groupRowTile = loop.getGroupRowTile();
    }
    if (streamK) {
      kBegin = loop.getBody().getArgument(2);
      kEnd = loop.getBody().getArgument(3);
      partial = loop.getBody().getArgument(4);
    }
  }

  //===--------------------------------------------------------------------===//
  // 5. The K loop
  //===--------------------------------------------------------------------===//

  /// Zeroed accumulators, then the sequential K loop (over this tile part's
  /// K range under stream-K) of copies and MMAs; returns its sums and leaves
  /// the rewriter after it.
  SmallVector<Value> buildMainloop() {
    SmallVector<Value> zeros;
    for (Type type : carried)
      zeros.push_back(cta::AccZeroOp::create(rewriter, contractLoc,
                                             llvm::cast<cta::AccType>(type)));
    // The rows of the rhs tiles this CTA loads: the pair's odd CTA loads
    // the second half.
    Value rhsRow0 = n0;
    if (pair) {
      Value rank = cta::ClusterRankOp::create(rewriter, contractLoc,
                                              rewriter.getIndexType());
      rhsRow0 = arith::AddIOp::create(
          rewriter, contractLoc, n0,
          arith::MulIOp::create(
              rewriter, contractLoc, rank,
              arith::ConstantIndexOp::create(rewriter, contractLoc, rhsRows)));
    }
    Value kSpan = streamK ? arith::SubIOp::create(rewriter, contractLoc, kEnd,
                                                  kBegin)
                                .getResult()
                          : k;
    auto mainloop = cta::MainloopOp::create(rewriter, contractLoc, carried,
                                            kSpan, tk, zeros);
    Block *kBody = rewriter.createBlock(&mainloop.getBody());
    Value k0 = kBody->addArgument(rewriter.getIndexType(), loc);
    SmallVector<Value> accs;
    for (Type type : carried)
      accs.push_back(kBody->addArgument(type, loc));
    if (streamK)
      k0 = arith::AddIOp::create(rewriter, contractLoc, kBegin, k0);
    loadOperands(rhsRow0, k0);
    if (scaleBlock && !softwareScaled)
      loadScales(k0);
    SmallVector<Value> products =
        softwareScaled ? multiplyAndScale(k0, accs) : multiply(accs);
    cta::YieldOp::create(rewriter, contractLoc, products);
    rewriter.setInsertionPointAfter(mainloop);
    return SmallVector<Value>(mainloop.getResults());
  }

  /// The operand tiles of K step `k0`. The CTAs of a cluster share n0, so
  /// they share the rhs tiles: a multicast copy, or in a CTA pair one half
  /// per CTA (from `rhsRow0`).
  void loadOperands(Value rhsRow0, Value k0) {
    for (auto [lhs, sa] : lhsBuffers) {
      SmallVector<Value, 5> lhsIndices = batchIndices(lhs);
      lhsIndices.append({m0, k0});
      // Rows past M are read from nowhere rather than zero-filled (see
      // rows_within): no store writes the accumulator rows they reach.
      cta::LoadOp::create(rewriter, contractLoc, programArg(lhs), lhsIndices,
                          sa, Value(), Value(), m, 1, nullptr, pair);
    }
    // A grouped rhs is [E, N, K] (or [E, K, N]): the tile of the group's
    // matrix.
    for (auto [index, entry] : llvm::enumerate(rhsBuffers)) {
      SmallVector<Value, 5> rhsIndices = batchIndices(entry.first);
      if (group)
        rhsIndices.push_back(group);
      if (rhsKMajor.lookup(entry.first))
        rhsIndices.append({rhsRow0, k0});
      else
        rhsIndices.append({k0, rhsRow0});
      auto load = cta::LoadOp::create(
          rewriter, contractLoc, programArg(entry.first), rhsIndices,
          entry.second, Value(), Value(), Value(),
          pair ? 1 : schedule.getClusterM(), nullptr, pair);
      if (packed)
        load.setDstRows(
            ArrayRef<int64_t>{static_cast<int64_t>(index) * tn,
                              static_cast<int64_t>(index + 1) * tn});
    }
  }

  /// The indices of `operand`'s leading (batch) axes for this tile: the
  /// walk's index along the output axis each aligns with (at the right), 0
  /// where the operand broadcasts (extent 1). None for a grouped rhs.
  SmallVector<Value, 5> batchIndices(Value operand) {
    SmallVector<Value, 5> indices;
    if (batch.empty())
      return indices;
    SmallVector<std::string> dims =
        tile::getDimExprs(llvm::cast<RankedTensorType>(operand.getType()));
    size_t leading = dims.size() - 2;
    size_t offset = batch.size() - leading;
    for (size_t axis = 0; axis < leading; ++axis)
      indices.push_back(
          dims[axis] == "1"
              ? Value(arith::ConstantIndexOp::create(rewriter, contractLoc, 0))
              : batch[offset + axis]);
    return indices;
  }

  /// The scale-factor atoms of K step `k0`, one copy per atom into the
  /// buffers allocateScaleBuffers laid out.
  void loadScales(Value k0) {
    Value c0 = arith::ConstantIndexOp::create(rewriter, contractLoc, 0);
    Value kAtom0 = arith::DivUIOp::create(
        rewriter, contractLoc, k0,
        arith::ConstantIndexOp::create(
            rewriter, contractLoc, target::scaleFactorAtomKBlocks * scaleBlock));
    // Atom (rowAtom, kAtom) of a scale tensor into `rows` atom rows of
    // `buffer` starting at atom `firstAtom`; a grouped rhs's from `group`'s
    // tensor.
    auto loadAtoms = [&](Value scale, Value buffer, Value rowAtom0,
                         int64_t rows, int64_t firstRowAtom, Value group) {
      for (int64_t ra = 0,
                   e = static_cast<int64_t>(llvm::divideCeil(rows, atomRows));
           ra < e; ++ra)
        for (int64_t ka = 0; ka < kAtoms; ++ka) {
          Value row = arith::AddIOp::create(
              rewriter, contractLoc, rowAtom0,
              arith::ConstantIndexOp::create(rewriter, contractLoc, ra));
          Value col = arith::AddIOp::create(
              rewriter, contractLoc, kAtom0,
              arith::ConstantIndexOp::create(rewriter, contractLoc, ka));
          int64_t atom = (firstRowAtom + ra) * kAtoms + ka;
          // A grouped rhs's atoms: those of the group's tensor.
          SmallVector<Value, 5> indices = {row, col, c0, c0};
          if (group)
            indices.insert(indices.begin(), group);
          auto load = cta::LoadOp::create(rewriter, contractLoc,
                                          programArg(scale), indices, buffer,
                                          Value(), Value(), Value(), 1,
                                          nullptr);
          load.setDstRows(ArrayRef<int64_t>{32 * atom, 32 * atom + 32});
        }
    };
    auto atomOf = [&](Value origin) {
      return arith::DivUIOp::create(
                 rewriter, contractLoc, origin,
                 arith::ConstantIndexOp::create(rewriter, contractLoc, atomRows))
          .getResult();
    };
    // A grouped lhs's tile is its group's row tile `groupRowTile` (one atom
    // of 128 rows: planTiling keeps tm at 128), its atoms per group.
    for (auto [scale, sfa] : lhsScaleBuffers)
      loadAtoms(scale, sfa, group ? groupRowTile : atomOf(m0), tm, 0, Value());
    for (auto [index, entry] : llvm::enumerate(rhsScaleBuffers))
      loadAtoms(entry.first, entry.second, atomOf(n0), tn,
                packed ? static_cast<int64_t>(index) *
                             llvm::divideCeil(tn, atomRows)
                       : 0,
                group);
  }

  /// One MMA per carried accumulator (one for a packed rhs) of this K
  /// step's tiles; returns the updated accumulators.
  SmallVector<Value> multiply(ArrayRef<Value> accs) {
    SmallVector<Value> products;
    for (size_t i = 0; i < (packed ? 1 : numAccs); ++i) {
      auto [lhs, rhs] = operands(i);
      Value lhsScale, rhsScale;
      if (scaleBlock) {
        auto [sa, sb] = scales(i);
        lhsScale = lhsScaleBuffers.lookup(sa);
        rhsScale = rhsScaleBuffers.lookup(sb);
      }
      products.push_back(
          cta::MmaOp::create(
              rewriter, contractLoc, carried[i], lhsBuffers.lookup(lhs),
              Value(), Value(), rhsBuffers.lookup(rhs), Value(), accs[i],
              Value(), lhsScale, rhsScale, Value(), Value(),
              /*transpose_b=*/rhsKMajor.lookup(rhs),
              scaleBlock ? rewriter.getI64IntegerAttr(scaleBlock) : nullptr,
              /*cta_pair=*/pair)
              .getResult());
    }
    return products;
  }

  /// The K step `k0` of products with f32 block scales (which share their
  /// lhs: checkProducts): each carried accumulator's MMA into a fresh one,
  /// then added to it scaled by each row's lhs scale of this K block and the
  /// column's rhs scale (one per tile where the tile's columns lie in one
  /// block of rhs_scale_rows rows: tile-select-schedule; a packed
  /// accumulator's columns take their own product's), as DeepSeek's fp8
  /// GEMMs promote each K block's product: acc += p * (sa[row] * sb[col]).
  SmallVector<Value> multiplyAndScale(Value k0, ArrayRef<Value> accs) {
    auto index = [&](int64_t v) {
      return arith::ConstantIndexOp::create(rewriter, contractLoc, v)
          .getResult();
    };
    Type f32 = rewriter.getF32Type();
    Value kBlock =
        arith::DivUIOp::create(rewriter, contractLoc, k0, index(scaleBlock));
    auto rowsType = cta::FragType::get(ctx, {tm}, f32, cta::FragLayout::rows);
    Value sa = cta::ReadVectorOp::create(rewriter, contractLoc, rowsType,
                                         programArg(scales(0).first),
                                         ValueRange{m0, kBlock});
    // Product i's rhs scales: one per column (rhs_scale_rows = 1: a cols
    // vector; such products are not packed), or one for the whole tile (a
    // splat); a grouped rhs's scales are its group's ([E, .., ..]).
    auto rhsScaleOf = [&](size_t i) -> Value {
      SmallVector<Value, 3> indices;
      if (group)
        indices.push_back(group);
      Value rhsScale = programArg(scales(i).second);
      if (rhsScaleRows == 1) {
        indices.append({n0, kBlock});
        return cta::ReadVectorOp::create(
            rewriter, contractLoc,
            cta::FragType::get(ctx, {tn}, f32, cta::FragLayout::cols),
            rhsScale, indices);
      }
      indices.append({arith::DivUIOp::create(rewriter, contractLoc, n0,
                                             index(rhsScaleRows)),
                      kBlock});
      Value tileScale = cta::ReadScalarOp::create(rewriter, contractLoc, f32,
                                                  rhsScale, indices);
      return cta::SplatOp::create(rewriter, contractLoc, rowsType, tileScale);
    };
    SmallVector<Value> results;
    for (size_t c = 0; c < carried.size(); ++c) {
      // The products this accumulator holds: every one when packed.
      SmallVector<size_t> products;
      if (packed)
        llvm::append_range(products, llvm::seq<size_t>(0, numAccs));
      else
        products.push_back(c);
      SmallVector<Value> inputs = {accs[c], Value(), sa};
      for (size_t i : products)
        inputs.push_back(rhsScaleOf(i));
      // (The scales are read before the MMA is issued, so that their loads
      // are in flight while it runs.)
      auto type = llvm::cast<cta::AccType>(carried[c]);
      auto [lhs, rhs] = operands(products.front());
      Value zero = cta::AccZeroOp::create(rewriter, contractLoc, type);
      Value fresh = arith::ConstantOp::create(rewriter, contractLoc,
                                              rewriter.getBoolAttr(false));
      inputs[1] =
          cta::MmaOp::create(rewriter, contractLoc, type,
                             lhsBuffers.lookup(lhs), Value(), Value(),
                             rhsBuffers.lookup(rhs), Value(), zero, fresh,
                             Value(), Value(), Value(), Value(),
                             /*transpose_b=*/true, nullptr,
                             /*cta_pair=*/false)
              .getResult();
      auto map =
          cta::FragMapOp::create(rewriter, contractLoc, type, inputs);
      OpBuilder::InsertionGuard guard(rewriter);
      Block *body = rewriter.createBlock(&map.getBody());
      body->addArgument(rewriter.getIndexType(), contractLoc);
      Value column = body->addArgument(rewriter.getIndexType(), contractLoc);
      Value sum = body->addArgument(f32, contractLoc);
      Value part = body->addArgument(f32, contractLoc);
      Value rowScale = body->addArgument(f32, contractLoc);
      SmallVector<Value> rhsScales;
      for (size_t i = 0; i < products.size(); ++i)
        rhsScales.push_back(body->addArgument(f32, contractLoc));
      // A packed accumulator's product j holds columns [j tn, (j+1) tn).
      Value colScale = rhsScales.front();
      for (size_t j = 1; j < rhsScales.size(); ++j) {
        Value past = arith::CmpIOp::create(
            rewriter, contractLoc, arith::CmpIPredicate::uge, column,
            index(static_cast<int64_t>(j) * tn));
        colScale = arith::SelectOp::create(rewriter, contractLoc, past,
                                           rhsScales[j], colScale);
      }
      Value scale =
          arith::MulFOp::create(rewriter, contractLoc, rowScale, colScale);
      cta::YieldOp::create(
          rewriter, contractLoc,
          ValueRange{math::FmaOp::create(rewriter, contractLoc, part, scale,
                                         sum)});
      results.push_back(map.getResult());
    }
    return results;
  }

  //===--------------------------------------------------------------------===//
  // 6. The stream-K join
  //===--------------------------------------------------------------------===//

  /// Joins this tile part's `sums` with its tile's other part and opens the
  /// `scf.if` the stores go under (only the part that completes its tile
  /// stores); returns the joined sums, the rewriter inside `complete`.
  SmallVector<Value> joinStreamKParts(ArrayRef<Value> sums,
                                      scf::IfOp &complete) {
    auto join = cta::StreamKJoinOp::create(rewriter, contractLoc, carried,
                                           rewriter.getI1Type(), sums, partial,
                                           kBegin, kEnd, k);
    complete = scf::IfOp::create(rewriter, contractLoc, join.getComplete(),
                                 /*withElseRegion=*/false);
    rewriter.setInsertionPointToStart(complete.thenBlock());
    return llvm::to_vector_of<Value>(join.getSums());
  }

  //===--------------------------------------------------------------------===//
  // 7. The stores
  //===--------------------------------------------------------------------===//

  /// One store per returned value (an output returned twice is stored
  /// twice), each with the part of the epilogue that computes it and only
  /// the accumulators (`sums`, one per product) and inputs that part reads.
  void buildStores(ArrayRef<Value> sums) {
    auto ret =
        llvm::cast<tile::ReturnOp>(kernel.getBody().front().getTerminator());
    for (auto [result, output] : llvm::enumerate(ret.getValues())) {
      if (auto reduce = output.getDefiningOp<tile::ReduceOp>())
        buildProductReduction(result, reduce, sums);
      else
        buildStore(result, llvm::cast<OpResult>(output), sums);
    }
  }

  /// The kernel's `result`-th result, a reduction of a contraction output
  /// over its rows or columns (checkProductReduction): the output's
  /// elements computed in registers, each row (column) reduced over the
  /// tile, and the tiles combined atomically into the result, which the
  /// runtime initializes (the manifest param's `init`). Columns past N of an
  /// edge tile are the identity of a row reduction; rows past M are left
  /// out of a column reduction by cta.combine_cols.
  void buildProductReduction(unsigned result, tile::ReduceOp reduce,
                             ArrayRef<Value> sums) {
    Block &source = contract.getEpilogue().front();
    Value yielded;
    llvm::SetVector<Operation *> sliceOps;
    SmallVector<BlockArgument> used =
        epilogueSlice(contract, llvm::cast<OpResult>(reduce.getInput()),
                      yielded, sliceOps);
    // (An element that reads no accumulator still maps over the tile.)
    if (used.empty())
      used.push_back(source.getArgument(0));
    SmallVector<Value> values;
    for (BlockArgument arg : used)
      values.push_back(sums[arg.getArgNumber()]);
    Type f32 = rewriter.getF32Type();
    auto accType = llvm::cast<cta::AccType>(values.front().getType());
    int64_t rows = accType.getShape()[0];
    bool rowReduction = tile::reducesRows(reduce);
    Value columnsLeft = arith::SubIOp::create(rewriter, contractLoc, n, n0);
    bool sum = reduce.getKind() == tile::ReduceKind::sum;
    auto map = cta::FragMapOp::create(
        rewriter, contractLoc,
        cta::FragType::get(ctx, accType.getShape(), f32, cta::FragLayout::acc),
        values);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Block *body = rewriter.createBlock(&map.getBody());
      Type index = rewriter.getIndexType();
      body->addArgument(index, contractLoc);
      Value column = body->addArgument(index, contractLoc);
      IRMapping mapping;
      for (BlockArgument arg : used)
        mapping.map(arg, body->addArgument(arg.getType(), arg.getLoc()));
      cloneEpilogueSlice(source, sliceOps, mapping);
      cloneOuterConstant(source, yielded, mapping);
      Value element = mapping.lookupOrDefault(yielded);
      if (!element.getType().isF32())
        element = arith::ExtFOp::create(rewriter, contractLoc, f32, element);
      if (rowReduction) {
        // Columns past N (an edge tile's) hold no element of the product.
        Value inside =
            arith::CmpIOp::create(rewriter, contractLoc,
                                  arith::CmpIPredicate::ult, column,
                                  columnsLeft);
        Value identity = arith::ConstantOp::create(
            rewriter, contractLoc,
            rewriter.getF32FloatAttr(
                sum ? 0.0f : -std::numeric_limits<float>::infinity()));
        element = arith::SelectOp::create(rewriter, contractLoc, inside,
                                          element, identity);
      }
      cta::YieldOp::create(rewriter, contractLoc, ValueRange{element});
    }
    cta::ReduceKind kind = sum ? cta::ReduceKind::sum : cta::ReduceKind::max;
    Value dest = signature.resultArg(kernel, result);
    // A batched product's leading indices, then the tile's first row
    // (column) along the result's last axis.
    SmallVector<Value, 5> indices(batch.begin(), batch.end());
    indices.push_back(rowReduction ? m0 : n0);
    if (!rowReduction) {
      cta::CombineColsOp::create(rewriter, contractLoc, kind, map, m0, m,
                                 dest, indices);
      return;
    }
    Value reduced = cta::ReduceRowsOp::create(
        rewriter, contractLoc,
        cta::FragType::get(ctx, {rows}, f32, cta::FragLayout::rows), kind, map);
    cta::StoreRowsOp::create(rewriter, contractLoc, reduced, dest, indices,
                             /*row_limit=*/Value(),
                             cta::ReduceKindAttr::get(ctx, kind));
  }

  /// The store of the kernel's `result`-th result, contraction output
  /// `output`.
  void buildStore(unsigned result, OpResult output, ArrayRef<Value> sums) {
    Block &source = contract.getEpilogue().front();
    auto yield = llvm::cast<tile::YieldOp>(source.getTerminator());
    // Epilogue inputs (rank <= 2) vary along the tile's [M, N] axes at
    // most: a batched product's broadcast over its leading ones.
    SmallVector<std::string> outDims = tile::getDimExprs(
        llvm::cast<RankedTensorType>(contract.getOutputs()[0].getType()));
    outDims.erase(outDims.begin(), outDims.end() - 2);
    Value yielded;
    llvm::SetVector<Operation *> sliceOps;
    SmallVector<BlockArgument> used =
        epilogueSlice(contract, output, yielded, sliceOps);
    // A store needs a value to define its tile: keep the first
    // accumulator when the output reads none.
    if (used.empty() || used.front().getArgNumber() >= numAccs)
      used.insert(used.begin(), source.getArgument(0));
    SmallVector<Value> values, inputs;
    SmallVector<Attribute> kinds;
    for (BlockArgument arg : used) {
      if (arg.getArgNumber() < numAccs) {
        values.push_back(sums[arg.getArgNumber()]);
        continue;
      }
      Value input = contract.getEpilogueInputs()[arg.getArgNumber() - numAccs];
      SmallVector<std::string> dims =
          tile::getDimExprs(llvm::cast<RankedTensorType>(input.getType()));
      cta::InputKind kind = inputKind(dims, outDims);
      // A per-group tensor is read at the tile's group (one walk tile lies
      // in one group).
      if (auto perGroup = input.getDefiningOp<tile::PerGroupOp>()) {
        input = perGroup.getInput();
        bool perCol = kind == cta::InputKind::per_col ||
                      kind == cta::InputKind::tile;
        kind = perCol ? cta::InputKind::per_group_col
                      : cta::InputKind::per_group;
      }
      inputs.push_back(programArg(input));
      kinds.push_back(cta::InputKindAttr::get(ctx, kind));
    }
    Type outType =
        llvm::cast<RankedTensorType>(output.getType()).getElementType();
    bool readsGroup = llvm::any_of(kinds, [](Attribute kind) {
      return cta::readsByGroup(llvm::cast<cta::InputKindAttr>(kind).getValue());
    });
    SmallVector<Value, 5> storeIndices(batch.begin(), batch.end());
    storeIndices.append({m0, n0});
    auto store = cta::StoreOp::create(
        rewriter, contractLoc, values, inputs, rewriter.getArrayAttr(kinds),
        signature.resultArg(kernel, result), storeIndices,
        /*row_limit=*/groupEnd, readsGroup ? group : Value(),
        staging.lookup(outType), /*staging_slot=*/Value());
    Block *epilogue = rewriter.createBlock(&store.getEpilogue());
    IRMapping mapping;
    for (BlockArgument arg : used)
      mapping.map(arg, epilogue->addArgument(arg.getType(), arg.getLoc()));
    cloneEpilogueSlice(source, sliceOps, mapping);
    // A yielded constant from outside the epilogue moves in as well.
    cloneOuterConstant(source, yielded, mapping);
    cta::YieldOp::create(rewriter, yield.getLoc(),
                         mapping.lookupOrDefault(yielded));
    rewriter.setInsertionPointAfter(store);
  }

  /// Clones the ops of `source` in `sliceOps`, in block order, at the
  /// rewriter.
  void cloneEpilogueSlice(Block &source,
                          const llvm::SetVector<Operation *> &sliceOps,
                          IRMapping &mapping) {
    for (Operation &op : source.without_terminator()) {
      if (!sliceOps.contains(&op))
        continue;
      // Constants the epilogue uses from outside (e.g. hoisted by a
      // canonicalization) move in with it: the kernel body goes away.
      for (Value operand : op.getOperands())
        cloneOuterConstant(source, operand, mapping);
      rewriter.clone(op, mapping);
    }
  }

  /// Clones the definition of `value` when it is a constant defined outside
  /// the epilogue `source` and not cloned yet.
  void cloneOuterConstant(Block &source, Value value, IRMapping &mapping) {
    if (Operation *def = value.getDefiningOp())
      if (!source.getParent()->isAncestor(def->getParentRegion()) &&
          def->hasTrait<OpTrait::ConstantLike>() && !mapping.contains(value))
        rewriter.clone(*def, mapping);
  }

  PatternRewriter &rewriter;
  MLIRContext *ctx;
  tile::KernelOp kernel;
  tile::ContractOp contract;
  tile::ScheduleAttr schedule;
  target::Chip chip;
  const target::ChipInfo &chipInfo;
  /// The kernel's location (program, buffers, block arguments) and the
  /// contraction's (the walk, the K loop and what runs in them).
  Location loc, contractLoc;
  size_t numAccs;
  static constexpr int64_t atomRows = target::scaleFactorAtomRows;

  // 1. The signature.
  ProgramSignature signature{ctx};
  cta::ProgramOp program;
  Block *entry = nullptr;
  Value m, n, k;

  // 2. The tiling: this CTA's tile_m (half the tile in a CTA pair), tile_n,
  // tile_k and the rhs rows it holds.
  int64_t tm = 0, tn = 0, tk = 0, rhsRows = 0;
  bool pair = false, packed = false, streamK = false;
  /// Per rhs: whether it is stored [N, K] (read transposed, K-major); else
  /// [K, N], read MN-major, its tiles tk x rhsRows.
  llvm::DenseMap<Value, bool> rhsKMajor;
  /// K elements per block scale (0: not block-scaled) and scale-factor atoms
  /// along K per stage; whether the scales are applied in software (fp8
  /// with f32 scales, no atoms), and the rhs scales' blocks of rows.
  int64_t scaleBlock = 0, kAtoms = 0, rhsScaleRows = 1;
  bool softwareScaled = false;
  cta::AccType accType;
  SmallVector<Type> carried;

  // 3. Buffers, keyed by kernel argument (staging by element type).
  llvm::MapVector<Value, Value> lhsBuffers, rhsBuffers;
  llvm::MapVector<Value, Value> lhsScaleBuffers, rhsScaleBuffers;
  llvm::MapVector<Type, Value> staging;

  // 4. The walk and its block arguments (a grouped walk's group and the
  // group's end row, which stores do not cross).
  cta::TileLoopOp loop;
  Value m0, n0, kBegin, kEnd, partial, group, groupEnd, groupRowTile;
  /// A batched contraction's leading extents (the output's) and this tile's
  /// index along each.
  SmallVector<Value> batchExtents, batch;
};

struct KernelToProgram : public OpRewritePattern<tile::KernelOp> {
  KernelToProgram(MLIRContext *ctx, target::Chip chip)
      : OpRewritePattern(ctx), chip(chip) {}

  LogicalResult matchAndRewrite(tile::KernelOp kernel,
                                PatternRewriter &rewriter) const override {
    if (tile::AttentionOp attention = findAttention(kernel))
      buildAttentionProgram(rewriter, kernel, attention, chip);
    else
      ProgramBuilder(rewriter, kernel, chip).build();
    return success();
  }

  target::Chip chip;
};

struct ConvertTileToCtaPass
    : public kiln::impl::ConvertTileToCtaBase<ConvertTileToCtaPass> {
  using Base::Base;
  void runOnOperation() override {
    std::optional<target::Chip> target = target::parseChip(chip);
    if (!target) {
      getOperation().emitError()
          << "convert-tile-to-cta: unknown chip '" << chip << "'; expected "
          << target::knownChipNames();
      return signalPassFailure();
    }
    bool ok = true;
    for (tile::KernelOp kernel : getOperation().getOps<tile::KernelOp>())
      ok &= succeeded(checkTileToCtaSupport(kernel, *target));
    if (!ok)
      return signalPassFailure();
    // Applied once per kernel, without the greedy driver: its folding would
    // first hoist constants out of the epilogue regions being moved.
    RewritePatternSet patterns(&getContext());
    populateTileToCtaConversionPatterns(patterns, *target);
    FrozenRewritePatternSet frozen(std::move(patterns));
    SmallVector<tile::KernelOp> kernels(
        getOperation().getOps<tile::KernelOp>());
    for (tile::KernelOp kernel : kernels)
      if (failed(applyOpPatternsGreedily(
              ArrayRef<Operation *>{kernel}, frozen,
              GreedyRewriteConfig()
                  .setStrictness(GreedyRewriteStrictness::ExistingOps)
                  .enableFolding(false)
                  .enableConstantCSE(false))))
        return signalPassFailure();
  }
};

} // namespace

void kiln::populateTileToCtaConversionPatterns(RewritePatternSet &patterns,
                                               target::Chip chip) {
  patterns.add<KernelToProgram>(patterns.getContext(), chip);
}
