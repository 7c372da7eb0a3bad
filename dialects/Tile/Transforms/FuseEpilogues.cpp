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

/// Replaces a rank-2 `tile.matmul` by a `tile.contract` with an identity
/// epilogue; batched products are left for later stages.
void wrapMatmul(MatmulOp matmul) {
  auto lhs = llvm::cast<RankedTensorType>(matmul.getLhs().getType());
  auto rhs = llvm::cast<RankedTensorType>(matmul.getRhs().getType());
  if (lhs.getRank() != 2 || rhs.getRank() != 2)
    return;
  OpBuilder builder(matmul);
  MLIRContext *ctx = matmul.getContext();
  auto mma =
      MmaAttr::get(ctx, 0, 1, matmul.getTransposeA(), matmul.getTransposeB());
  auto contract =
      ContractOp::create(builder, matmul.getLoc(), matmul.getType(),
                         ValueRange{matmul.getLhs(), matmul.getRhs()},
                         ValueRange{}, builder.getArrayAttr({mma}),
                         /*schedule=*/nullptr);
  Block *body = builder.createBlock(&contract.getEpilogue());
  Value acc = body->addArgument(builder.getF32Type(), matmul.getLoc());
  YieldOp::create(builder, matmul.getLoc(), acc);
  matmul.replaceAllUsesWith(contract.getResult());
  matmul.erase();
}

/// The single tile.map that consumes `contract` elementwise at its own shape,
/// if fusing it is legal.
MapOp getFusableConsumer(ContractOp contract) {
  Value result = contract.getResult();
  if (!result.hasOneUse())
    return {};
  auto map = llvm::dyn_cast<MapOp>(*result.getUsers().begin());
  if (!map || map->getBlock() != contract->getBlock())
    return {};
  auto resultType = llvm::cast<RankedTensorType>(map.getResult().getType());
  if (getDimExprs(resultType) !=
      getDimExprs(llvm::cast<RankedTensorType>(result.getType())))
    return {};
  return map;
}

/// Builds `contract` followed by `map` as one contraction.
void fuse(ContractOp contract, MapOp map) {
  // Built at the map: the contraction's operands dominate it, and so do the
  // map's other inputs.
  OpBuilder builder(map);
  SmallVector<Value> epilogueInputs(contract.getEpilogueInputs());
  for (Value input : map.getInputs())
    if (input != contract.getResult())
      epilogueInputs.push_back(input);

  auto fused = ContractOp::create(
      builder, map.getLoc(), map.getResult().getType(), contract.getInputs(),
      epilogueInputs, contract.getContractions(), contract.getScheduleAttr());
  Block *body = builder.createBlock(&fused.getEpilogue());
  Block &oldEpilogue = contract.getEpilogue().front();
  Block &mapBody = map.getBody().front();

  // The fused epilogue takes the accumulators and old epilogue inputs, then
  // the map's other inputs, in the order they were appended above.
  IRMapping mapping;
  for (BlockArgument arg : oldEpilogue.getArguments())
    mapping.map(arg, body->addArgument(arg.getType(), arg.getLoc()));
  for (auto [input, arg] : llvm::zip(map.getInputs(), mapBody.getArguments()))
    if (input != contract.getResult())
      mapping.map(arg, body->addArgument(arg.getType(), arg.getLoc()));

  for (Operation &op : oldEpilogue.without_terminator())
    builder.clone(op, mapping);
  Value produced = mapping.lookupOrDefault(
      llvm::cast<YieldOp>(oldEpilogue.getTerminator()).getValues()[0]);
  for (auto [input, arg] : llvm::zip(map.getInputs(), mapBody.getArguments()))
    if (input == contract.getResult())
      mapping.map(arg, produced);
  for (Operation &op : mapBody)
    builder.clone(op, mapping);

  map.getResult().replaceAllUsesWith(fused.getResult());
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

    // Fuse to a fixed point: each fusion can expose the next consumer.
    bool changed = true;
    while (changed) {
      changed = false;
      SmallVector<ContractOp> contracts;
      getOperation().walk([&](ContractOp op) { contracts.push_back(op); });
      for (ContractOp contract : contracts) {
        if (MapOp map = getFusableConsumer(contract)) {
          fuse(contract, map);
          changed = true;
        }
      }
    }
  }
};

} // namespace
