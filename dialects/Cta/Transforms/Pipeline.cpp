//===- Pipeline.cpp - multi-stage ring and warp specialization ------------===//
//
// A sequential K loop leaves the tensor cores idle while tiles are copied.
// This pass splits the work of each tile between roles that overlap: one
// producer warpgroup keeps `stages` copies in flight, and consumer
// warpgroups run MMAs on whichever stage is ready, each owning a slice of the
// accumulator rows. Both roles walk the same tiles in the same order, so the
// ring position simply continues from tile to tile.
//
//===----------------------------------------------------------------------===//

#include "dialects/Cta/Transforms/Passes.h"
#include "dialects/Tile/IR/TileDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace kiln::cta {
#define GEN_PASS_DEF_CTAPIPELINE
#include "dialects/Cta/Transforms/Passes.h.inc"
} // namespace kiln::cta

using namespace mlir;
using namespace kiln::cta;

namespace {

constexpr int64_t kThreadsPerWarpgroup = 128;
constexpr int64_t kRegisterFile = 65536;
/// The producer only computes addresses and issues copies.
constexpr int64_t kProducerRegs = 40;

/// Registers per math thread once the producer has given its share back,
/// rounded down to setmaxnreg's granularity of 8.
int64_t consumerRegisters(int64_t consumers) {
  int64_t regs = (kRegisterFile - kThreadsPerWarpgroup * kProducerRegs) /
                 (kThreadsPerWarpgroup * consumers);
  return std::min<int64_t>(regs / 8 * 8, 240);
}

/// The pieces of a tile loop body that this pass knows how to pipeline.
struct TileBody {
  TileLoopOp loop;
  MainloopOp mainloop;
  SmallVector<StoreOp> stores;
};

/// The tile body to pipeline; std::nullopt when the program has nothing
/// sequential to pipeline; failure (already reported) when it has one that
/// this pass cannot handle.
FailureOr<std::optional<TileBody>> matchTileBody(ProgramOp program) {
  TileBody body;
  for (Operation &op : program.getBody().front()) {
    if (auto loop = llvm::dyn_cast<TileLoopOp>(op)) {
      if (body.loop)
        return program.emitError(
            "cta-pipeline: expected one cta.tile_loop, found several");
      body.loop = loop;
    }
  }
  if (!body.loop)
    return std::optional<TileBody>();
  for (Operation &op : body.loop.getBody().front()) {
    if (auto mainloop = llvm::dyn_cast<MainloopOp>(op)) {
      if (body.mainloop)
        return op.emitError(
            "cta-pipeline: one cta.mainloop per tile is supported");
      body.mainloop = mainloop;
    } else if (auto store = llvm::dyn_cast<StoreOp>(op)) {
      body.stores.push_back(store);
    } else if (llvm::isa<LoadOp, MmaOp>(op)) {
      return op.emitError(
          "cta-pipeline: copies and MMAs must be inside the cta.mainloop");
    }
  }
  if (!body.mainloop)
    return std::optional<TileBody>();
  return std::optional<TileBody>(body);
}

/// Creates a tile loop like `loop` carrying one ring position, and returns
/// its body builder positioned at the start and the mapping of its origins.
TileLoopOp cloneTileLoop(OpBuilder &builder, TileLoopOp loop,
                         Value initialPosition, IRMapping &mapping) {
  auto clone = TileLoopOp::create(builder, loop.getLoc(), loop.getExtentM(),
                                  loop.getExtentN(), loop.getTileSizes(),
                                  ValueRange{initialPosition});
  clone->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  clone.setPersistent(loop.getPersistent());
  clone.setGroupM(loop.getGroupM());
  if (loop.getCluster())
    clone.setCluster(*loop.getCluster());
  mapping.map(loop.getTileOrigin(0), clone.getTileOrigin(0));
  mapping.map(loop.getTileOrigin(1), clone.getTileOrigin(1));
  return clone;
}

/// Clones the ops of the tile body that are not the mainloop or a store
/// (index arithmetic) so that both roles see them.
void cloneTileArithmetic(OpBuilder &builder, TileBody &body,
                         IRMapping &mapping) {
  for (Operation &op : body.loop.getBody().front().without_terminator())
    if (!llvm::isa<MainloopOp, StoreOp, AccZeroOp>(op))
      builder.clone(op, mapping);
}

LogicalResult pipeline(ProgramOp program) {
  FailureOr<std::optional<TileBody>> matched = matchTileBody(program);
  if (failed(matched))
    return failure();
  if (!*matched)
    return success(); // Nothing sequential to pipeline.
  TileBody &body = **matched;
  auto schedule =
      program->getAttrOfType<kiln::tile::ScheduleAttr>("cta.schedule");
  if (!schedule)
    return program.emitError("cta-pipeline: the program has no cta.schedule");
  int64_t stages = schedule.getStages();
  int64_t consumers = schedule.getConsumers();
  int64_t clusterSize = schedule.getClusterM() * schedule.getClusterN();
  MainloopOp mainloop = body.mainloop;
  Location loc = mainloop.getLoc();

  // Every buffer the mainloop fills becomes a ring of stages.
  for (LoadOp load : mainloop.getBody().getOps<LoadOp>()) {
    TypedValue<BufferType> buffer = load.getBuffer();
    if (buffer.getType().getStages() == 1)
      buffer.setType(buffer.getType().withStages(stages));
  }
  // Each consumer stages its own row slice of the output.
  for (StoreOp store : body.stores) {
    if (!store.getStaging())
      continue;
    BufferType staging = store.getStaging().getType();
    if (staging.getShape()[0] % consumers != 0)
      return store.emitError(
          "cta-pipeline: staging rows do not split across consumers");
    store.getStaging().setType(BufferType::get(
        program.getContext(),
        {staging.getShape()[0] / consumers, staging.getShape()[1]},
        staging.getElementType(), consumers, staging.getSwizzle()));
  }

  OpBuilder builder(body.loop);
  auto ring =
      RingOp::create(builder, loc, RingType::get(builder.getContext(), stages),
                     consumers, clusterSize);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value step = arith::ConstantIndexOp::create(builder, loc, mainloop.getStep());
  auto roles = WarpSpecializeOp::create(builder, loc, consumers, kProducerRegs,
                                        consumerRegisters(consumers));

  auto kIterations = [&](OpBuilder &b, IRMapping &mapping) -> Value {
    Value extent = mapping.lookupOrDefault(mainloop.getExtent());
    return arith::CeilDivUIOp::create(b, loc, extent, step);
  };
  Block &mainBody = mainloop.getBody().front();

  // Producer: walk the tiles, filling one stage per K step.
  {
    Block *block = builder.createBlock(&roles.getProducer());
    builder.setInsertionPointToStart(block);
    IRMapping mapping;
    TileLoopOp loop = cloneTileLoop(builder, body.loop, zero, mapping);
    OpBuilder inner = OpBuilder::atBlockBegin(&loop.getBody().front());
    cloneTileArithmetic(inner, body, mapping);
    Value count = kIterations(inner, mapping);
    auto produce = ProduceOp::create(inner, loc, builder.getIndexType(), ring,
                                     loop.getIterArgs()[0], count);
    Block *stage = inner.createBlock(&produce.getBody());
    Value kb = stage->addArgument(inner.getIndexType(), loc);
    Value slot = stage->addArgument(inner.getIndexType(), loc);
    inner.setInsertionPointToStart(stage);
    mapping.map(mainBody.getArgument(0),
                arith::MulIOp::create(inner, loc, kb, step));
    for (Operation &op : mainBody.without_terminator()) {
      if (llvm::isa<MmaOp>(op))
        continue;
      Operation *clone = inner.clone(op, mapping);
      if (auto load = llvm::dyn_cast<LoadOp>(clone)) {
        load.getSlotMutable().assign(slot);
        load.getSignalMutable().assign(ring);
      }
    }
    YieldOp::create(inner, loc);
    inner.setInsertionPointAfter(produce);
    YieldOp::create(inner, loc, produce.getNextPosition());
    builder.setInsertionPointAfter(loop);
    YieldOp::create(builder, loc);
  }

  // Consumers: the same tiles; each warpgroup multiplies its row slice and
  // stores it.
  {
    Block *block = builder.createBlock(&roles.getConsumers());
    builder.setInsertionPointToStart(block);
    IRMapping mapping;
    TileLoopOp loop = cloneTileLoop(builder, body.loop, zero, mapping);
    OpBuilder inner = OpBuilder::atBlockBegin(&loop.getBody().front());
    cloneTileArithmetic(inner, body, mapping);
    Value count = kIterations(inner, mapping);
    Value warpgroup =
        WarpgroupIndexOp::create(inner, loc, inner.getIndexType());
    int64_t rowsPerConsumer = schedule.getTileM() / consumers;
    Value row = arith::MulIOp::create(
        inner, loc, warpgroup,
        arith::ConstantIndexOp::create(inner, loc, rowsPerConsumer));

    SmallVector<Value> inits;
    SmallVector<Type> accTypes;
    for (Value init : mainloop.getInits()) {
      auto type = llvm::cast<AccType>(init.getType());
      auto slice = AccType::get(program.getContext(),
                                {rowsPerConsumer, type.getShape()[1]},
                                type.getElementType());
      accTypes.push_back(slice);
      inits.push_back(AccZeroOp::create(inner, loc, slice));
    }
    auto consume = ConsumeOp::create(inner, loc, inner.getIndexType(), accTypes,
                                     ring, loop.getIterArgs()[0], count, inits);
    Block *stage = inner.createBlock(&consume.getBody());
    Value kb = stage->addArgument(inner.getIndexType(), loc);
    Value slot = stage->addArgument(inner.getIndexType(), loc);
    for (auto [arg, type] :
         llvm::zip(mainBody.getArguments().drop_front(), accTypes))
      mapping.map(arg, stage->addArgument(type, loc));
    inner.setInsertionPointToStart(stage);
    mapping.map(mainBody.getArgument(0),
                arith::MulIOp::create(inner, loc, kb, step));
    for (Operation &op : mainBody) {
      if (llvm::isa<LoadOp>(op))
        continue;
      Operation *clone = inner.clone(op, mapping);
      if (auto mma = llvm::dyn_cast<MmaOp>(clone)) {
        mma.getLhsSlotMutable().assign(slot);
        mma.getRhsSlotMutable().assign(slot);
        mma.getLhsRowMutable().assign(row);
        mma.getResult().setType(mma.getAcc().getType());
      }
    }
    inner.setInsertionPointAfter(consume);
    for (auto [result, accResult] :
         llvm::zip(mainloop.getResults(), consume.getResults()))
      mapping.map(result, accResult);
    for (StoreOp store : body.stores) {
      // The slice's rows start `row` below the tile origin.
      Value sliceRow = arith::AddIOp::create(
          inner, loc, mapping.lookupOrDefault(store.getIndices()[0]), row);
      auto clone = llvm::cast<StoreOp>(inner.clone(*store, mapping));
      clone.getIndicesMutable()[0].assign(sliceRow);
      if (clone.getStaging() && consumers > 1)
        clone.getStagingSlotMutable().assign(warpgroup);
    }
    YieldOp::create(inner, loc, consume.getNextPosition());
    builder.setInsertionPointAfter(loop);
    YieldOp::create(builder, loc);
  }

  body.loop.erase();
  program->setAttr("cta.block",
                   builder.getDenseI64ArrayAttr(
                       {kThreadsPerWarpgroup * (1 + consumers), 1, 1}));
  return success();
}

struct CtaPipelinePass
    : public kiln::cta::impl::CtaPipelineBase<CtaPipelinePass> {
  void runOnOperation() override {
    for (ProgramOp program : getOperation().getOps<ProgramOp>())
      if (failed(pipeline(program)))
        return signalPassFailure();
  }
};

} // namespace
