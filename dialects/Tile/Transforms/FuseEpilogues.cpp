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

/// The block size along K of scales that run along K only (one scale per row
/// and `b` K elements on both operands: NVFP4, MXFP8), else 0 (the 128x128
/// weight blocks of fp8 GEMMs).
int64_t scaleBlockAlongK(ArrayRef<int64_t> lhsBlock,
                         ArrayRef<int64_t> rhsBlock) {
  return lhsBlock.size() == 2 && lhsBlock[0] == 1 && lhsBlock == rhsBlock
             ? lhsBlock[1]
             : 0;
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
  ArrayRef<int64_t> lhsBlock = matmul.getLhsBlock();
  ArrayRef<int64_t> rhsBlock = matmul.getRhsBlock();
  int64_t block = scaleBlockAlongK(lhsBlock, rhsBlock);
  int64_t rhsRows = 1;
  if (!block && lhsBlock.size() == 2 && rhsBlock.size() == 2 &&
      lhsBlock[0] == 1 && lhsBlock[1] == rhsBlock[1]) {
    block = lhsBlock[1];
    rhsRows = rhsBlock[0];
  }
  if (!block || !matmul.getTransposeB())
    return;
  replaceByContract(matmul,
                    {matmul.getLhs(), matmul.getRhs(), matmul.getLhsScale(),
                     matmul.getRhsScale()},
                    Value(),
                    MmaAttr::get(matmul.getContext(), 0, 1,
                                 /*transpose_a=*/false, /*transpose_b=*/true,
                                 2, 3, block, rhsRows));
}

/// A `tile.grouped_matmul` (mixture of experts) becomes a grouped
/// contraction; block-scaled experts only with scales along K, as
/// wrapScaledMatmul.
void wrapGroupedMatmul(GroupedMatmulOp matmul) {
  MLIRContext *ctx = matmul.getContext();
  if (!matmul.getLhsScale()) {
    replaceByContract(matmul, {matmul.getLhs(), matmul.getRhs()},
                      matmul.getOffsets(),
                      MmaAttr::get(ctx, 0, 1, /*transpose_a=*/false,
                                   matmul.getTransposeB()));
    return;
  }
  int64_t block = scaleBlockAlongK(*matmul.getLhsBlock(), *matmul.getRhsBlock());
  if (!block)
    return;
  replaceByContract(matmul,
                    {matmul.getLhs(), matmul.getRhs(), matmul.getLhsScale(),
                     matmul.getRhsScale()},
                    matmul.getOffsets(),
                    MmaAttr::get(ctx, 0, 1, /*transpose_a=*/false,
                                 /*transpose_b=*/true, 2, 3, block));
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
