//===- FuseEpilogues.cpp - fold elementwise consumers into contractions ---===//
//
// A contraction's result is usually consumed by elementwise code (a cast to
// the output dtype, an activation, a bias add). Fusing that code into the
// contraction's epilogue means the f32 accumulator never goes to memory: the
// kernel writes each output element once, in its final dtype.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/IR/TileShapes.h"
#include "dialects/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEFUSEEPILOGUES
#include "dialects/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// Replaces the product `matmul` (one f32 result) by a `tile.contract` of
/// `inputs` (grouped by `groups` when set) with one accumulator `mma` and an
/// identity epilogue.
void replaceByContract(Operation *matmul, ValueRange inputs, Value groups,
                       MmaAttr mma) {
  OpBuilder builder(matmul);
  Location loc = matmul->getLoc();
  auto contract = ContractOp::create(
      builder, loc, matmul->getResultTypes(), inputs, ValueRange{}, groups,
      builder.getArrayAttr({mma}), /*schedule=*/nullptr);
  Block *body = builder.createBlock(&contract.getEpilogue());
  Value acc = body->addArgument(builder.getF32Type(), loc);
  YieldOp::create(builder, loc, acc);
  matmul->getResult(0).replaceAllUsesWith(contract.getOutputs()[0]);
  matmul->erase();
}

/// How a contraction's #tile.mma records scale blocks: K elements per scale
/// and the rhs scales' blocks of rows.
struct ScaleBlocks {
  int64_t alongK = 0, rhsRows = 1;
};

/// The scale blocks of a product whose lhs has one scale per row and `b` K
/// elements and whose rhs one per `r` rows and the same `b` (r = 1: NVFP4,
/// MXFP8, per-row fp8 scales; r = 128: the 128x128 weight blocks of fp8
/// GEMMs); none for other blocks.
std::optional<ScaleBlocks> scaleBlocksAlongK(ArrayRef<int64_t> lhsBlock,
                                             ArrayRef<int64_t> rhsBlock) {
  if (lhsBlock.size() != 2 || rhsBlock.size() != 2 || lhsBlock[0] != 1 ||
      lhsBlock[1] != rhsBlock[1])
    return std::nullopt;
  return ScaleBlocks{lhsBlock[1], rhsBlock[0]};
}

/// A `tile.matmul` becomes a contraction, batched ones (leading axes that
/// broadcast, result rank up to 5) too.
void wrapMatmul(MatmulOp matmul) {
  auto result = llvm::cast<RankedTensorType>(matmul.getResult().getType());
  if (result.getRank() > 5)
    return;
  replaceByContract(matmul, {matmul.getLhs(), matmul.getRhs()}, Value(),
                    MmaAttr::get(matmul.getContext(), 0, 1,
                                 matmul.getTransposeA(),
                                 matmul.getTransposeB()));
}

/// A block-scaled product with scales along K becomes a contraction that
/// names its scale tensors, also one whose rhs scales cover blocks of rows
/// (the 128x128 weight blocks of fp8 GEMMs: `rhs_scale_rows`); other scale
/// blocks stay as they are.
void wrapScaledMatmul(ScaledMatmulOp matmul) {
  std::optional<ScaleBlocks> blocks =
      scaleBlocksAlongK(matmul.getLhsBlock(), matmul.getRhsBlock());
  if (!blocks || !matmul.getTransposeB())
    return;
  replaceByContract(matmul,
                    {matmul.getLhs(), matmul.getRhs(), matmul.getLhsScale(),
                     matmul.getRhsScale()},
                    Value(),
                    MmaAttr::get(matmul.getContext(), 0, 1,
                                 /*transpose_a=*/false, /*transpose_b=*/true,
                                 2, 3, blocks->alongK, blocks->rhsRows));
}

/// A `tile.grouped_matmul` (mixture of experts) becomes a grouped
/// contraction; block-scaled experts with the scale blocks wrapScaledMatmul
/// takes.
void wrapGroupedMatmul(GroupedMatmulOp matmul) {
  MLIRContext *ctx = matmul.getContext();
  if (!matmul.getLhsScale()) {
    replaceByContract(matmul, {matmul.getLhs(), matmul.getRhs()},
                      matmul.getOffsets(),
                      MmaAttr::get(ctx, 0, 1, /*transpose_a=*/false,
                                   matmul.getTransposeB()));
    return;
  }
  std::optional<ScaleBlocks> blocks =
      scaleBlocksAlongK(*matmul.getLhsBlock(), *matmul.getRhsBlock());
  if (!blocks)
    return;
  replaceByContract(matmul,
                    {matmul.getLhs(), matmul.getRhs(), matmul.getLhsScale(),
                     matmul.getRhsScale()},
                    matmul.getOffsets(),
                    MmaAttr::get(ctx, 0, 1, /*transpose_a=*/false,
                                 /*transpose_b=*/true, 2, 3, blocks->alongK,
                                 blocks->rhsRows));
}

/// The contraction whose outputs `map` reads element by element, if fusing
/// `map` into its epilogue is legal: every input of `map` that a
/// contraction produces comes from that one contraction, in the same block,
/// and `map` computes a tensor of the contraction's tile.
ContractOp getFusableProducer(MapOp map) {
  ContractOp producer;
  for (Value input : map.getInputs()) {
    auto contract = input.getDefiningOp<ContractOp>();
    if (!contract)
      continue;
    if (producer && producer != contract)
      return {};
    producer = contract;
  }
  if (!producer || producer->getBlock() != map->getBlock())
    return {};
  // The fused op goes where the contraction is when the map's other inputs
  // already exist there; otherwise where the map is, which needs every
  // other reader of the contraction's outputs to come after the map.
  bool atProducer = llvm::all_of(map.getInputs(), [&](Value input) {
    Operation *def = input.getDefiningOp();
    return !def || def == producer || def->isBeforeInBlock(producer);
  });
  if (!atProducer)
    for (Value output : producer.getOutputs())
      for (Operation *user : output.getUsers())
        if (user != map && !map->isBeforeInBlock(user))
          return {};
  auto resultType = llvm::cast<RankedTensorType>(map.getResult().getType());
  if (getDimExprs(resultType) != getDimExprs(llvm::cast<RankedTensorType>(
                                     producer.getOutputs()[0].getType())))
    return {};
  return producer;
}

/// Builds `contract` followed by `map` as one contraction: the map's value
/// becomes an output, computed in the epilogue from the contraction's
/// per-element values; the contraction's outputs that other ops still read
/// stay outputs; the map's other inputs become epilogue inputs.
void fuse(ContractOp contract, MapOp map) {
  // Built at the contraction when the map's other inputs dominate it (every
  // reader of its outputs then comes after), else at the map
  // (getFusableProducer checked that this is legal).
  bool atProducer = llvm::all_of(map.getInputs(), [&](Value input) {
    Operation *def = input.getDefiningOp();
    return !def || def == contract || def->isBeforeInBlock(contract);
  });
  OpBuilder builder(atProducer ? contract.getOperation() : map.getOperation());
  SmallVector<Value> epilogueInputs(contract.getEpilogueInputs());
  for (Value input : map.getInputs())
    if (input.getDefiningOp() != contract &&
        !llvm::is_contained(epilogueInputs, input))
      epilogueInputs.push_back(input);
  SmallVector<unsigned> kept;
  SmallVector<Type> outputTypes;
  for (auto [index, output] : llvm::enumerate(contract.getOutputs()))
    if (llvm::any_of(output.getUsers(),
                     [&](Operation *user) { return user != map; })) {
      kept.push_back(index);
      outputTypes.push_back(output.getType());
    }
  outputTypes.push_back(map.getResult().getType());

  auto fused = ContractOp::create(
      builder, map.getLoc(), outputTypes, contract.getInputs(), epilogueInputs,
      contract.getGroups(), contract.getContractions(),
      contract.getScheduleAttr());
  Block *body = builder.createBlock(&fused.getEpilogue());
  Block &oldEpilogue = contract.getEpilogue().front();
  Block &mapBody = map.getBody().front();

  // The fused epilogue takes the accumulators and old epilogue inputs, then
  // the map's other inputs, in the order they were appended above.
  IRMapping mapping;
  for (BlockArgument arg : oldEpilogue.getArguments())
    mapping.map(arg, body->addArgument(arg.getType(), arg.getLoc()));
  size_t numAccs = contract.getContractions().size();
  for (Value input :
       ArrayRef(epilogueInputs).drop_front(contract.getEpilogueInputs().size()))
    body->addArgument(
        llvm::cast<RankedTensorType>(input.getType()).getElementType(),
        map.getLoc());
  auto argOf = [&](Value input) {
    return body->getArgument(
        numAccs + (llvm::find(epilogueInputs, input) - epilogueInputs.begin()));
  };

  for (Operation &op : oldEpilogue.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> produced;
  for (Value value :
       llvm::cast<YieldOp>(oldEpilogue.getTerminator()).getValues())
    produced.push_back(mapping.lookupOrDefault(value));
  for (auto [input, arg] : llvm::zip(map.getInputs(), mapBody.getArguments())) {
    if (input.getDefiningOp() == contract)
      mapping.map(arg, produced[llvm::cast<OpResult>(input).getResultNumber()]);
    else
      mapping.map(arg, argOf(input));
  }
  for (Operation &op : mapBody.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> yielded;
  for (unsigned index : kept)
    yielded.push_back(produced[index]);
  yielded.push_back(mapping.lookupOrDefault(
      llvm::cast<YieldOp>(mapBody.getTerminator()).getValues()[0]));
  YieldOp::create(builder, map.getLoc(), yielded);

  for (auto [position, index] : llvm::enumerate(kept))
    contract.getOutputs()[index].replaceAllUsesWith(
        fused.getOutputs()[position]);
  map.getResult().replaceAllUsesWith(fused.getOutputs().back());
  map.erase();
  contract.erase();
}

struct TileFuseEpiloguesPass
    : public kiln::tile::impl::TileFuseEpiloguesBase<TileFuseEpiloguesPass> {
  void runOnOperation() override {
    SmallVector<MatmulOp> matmuls;
    getOperation().walk([&](MatmulOp op) { matmuls.push_back(op); });
    for (MatmulOp matmul : matmuls)
      wrapMatmul(matmul);
    SmallVector<ScaledMatmulOp> scaled;
    getOperation().walk([&](ScaledMatmulOp op) { scaled.push_back(op); });
    for (ScaledMatmulOp matmul : scaled)
      wrapScaledMatmul(matmul);
    SmallVector<GroupedMatmulOp> grouped;
    getOperation().walk([&](GroupedMatmulOp op) { grouped.push_back(op); });
    for (GroupedMatmulOp matmul : grouped)
      wrapGroupedMatmul(matmul);

    // Fuse to a fixed point: each fusion can expose the next consumer.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<MapOp> maps;
      getOperation().walk([&](MapOp op) { maps.push_back(op); });
      for (MapOp map : maps) {
        if (ContractOp contract = getFusableProducer(map)) {
          fuse(contract, map);
          changed = true;
          break;
        }
      }
    }
  }
};

} // namespace
