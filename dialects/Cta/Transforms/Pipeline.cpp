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

#include "compiler/Target/Chip.h"
#include "dialects/Cta/Transforms/Passes.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::cta {
#define GEN_PASS_DEF_CTAPIPELINE
#include "dialects/Cta/Transforms/Passes.h.inc"
} // namespace kiln::cta

using namespace mlir;
using namespace kiln::cta;

namespace {

constexpr int64_t kWarpsPerWarpgroup = kiln::target::warpsPerWarpgroup;

/// The type of a value of `type` once `consumers` math warpgroups split the
/// tile's rows: accumulators and register fragments keep 1/consumers of
/// their rows; column vectors, buffers and scalars are shared.
Type sliceRows(Type type, int64_t consumers) {
  if (auto acc = llvm::dyn_cast<AccType>(type))
    return AccType::get(type.getContext(),
                        {acc.getShape()[0] / consumers, acc.getShape()[1]},
                        acc.getElementType());
  if (auto frag = llvm::dyn_cast<FragType>(type)) {
    if (frag.getLayout() == FragLayout::cols)
      return type;
    SmallVector<int64_t> shape(frag.getShape());
    shape[0] /= consumers;
    return FragType::get(type.getContext(), shape, frag.getElementType(),
                         frag.getLayout());
  }
  return type;
}

/// Whether `type` holds rows of the tile (and so is split across math
/// warpgroups).
bool hasTileRows(Type type) {
  if (auto frag = llvm::dyn_cast<FragType>(type))
    return frag.getLayout() != FragLayout::cols;
  return llvm::isa<AccType>(type);
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
    } else if (llvm::isa<StoreOp, scf::IfOp>(op)) {
      // Stores, also those a stream-K walk runs only for complete tiles.
      op.walk([&](StoreOp store) { body.stores.push_back(store); });
    } else if (llvm::isa<LoadOp, MmaOp>(op)) {
      return op.emitError(
          "cta-pipeline: copies and MMAs must be inside the cta.mainloop");
    }
  }
  if (!body.mainloop)
    return std::optional<TileBody>();
  if (body.loop.getWalk() != WalkKind::static_ &&
      body.loop.getWalk() != WalkKind::stream_k)
    return body.loop.emitError()
           << "cta-pipeline: not implemented yet: a "
           << stringifyWalkKind(body.loop.getWalk()) << " tile walk";
  return std::optional<TileBody>(body);
}

/// Creates a tile loop like `loop` carrying one ring position, and returns
/// its body builder positioned at the start and the mapping of its origins.
TileLoopOp cloneTileLoop(OpBuilder &builder, TileLoopOp loop,
                         Value initialPosition, IRMapping &mapping) {
  auto clone = TileLoopOp::create(builder, loop.getLoc(), loop.getWalk(),
                                  loop.getExtents(), loop.getTileSizes(),
                                  ValueRange{initialPosition});
  clone->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  clone.setPersistent(loop.getPersistent());
  clone.setGroupM(loop.getGroupM());
  if (loop.getCluster())
    clone.setCluster(*loop.getCluster());
  for (unsigned i = 0, e = loop.getNumCoordinates(); i < e; ++i)
    mapping.map(loop.getBody().getArgument(i), clone.getBody().getArgument(i));
  return clone;
}

/// Clones the ops of the tile body before the K loop that compute no tile
/// values (index arithmetic) so that both roles see them; ops that make
/// tile values (zero accumulators, splats) belong to the math role alone.
void cloneTileArithmetic(OpBuilder &builder, TileBody &body,
                         IRMapping &mapping) {
  for (Operation &op : llvm::make_range(body.loop.getBody().front().begin(),
                                        Block::iterator(body.mainloop)))
    if (llvm::none_of(op.getResultTypes(), hasTileRows) &&
        llvm::none_of(op.getResultTypes(),
                      [](Type type) { return llvm::isa<FragType>(type); }))
      builder.clone(op, mapping);
}

/// The ops of a K step the producer runs: its copies and what their
/// operands are computed from (not the MMAs or register math).
llvm::SetVector<Operation *> producerSlice(Block &step) {
  llvm::SetVector<Operation *> slice;
  SmallVector<Operation *> worklist;
  for (LoadOp load : step.getOps<LoadOp>())
    worklist.push_back(load);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (op->getBlock() != &step || !slice.insert(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
  }
  return slice;
}

LogicalResult pipeline(ProgramOp program) {
  FailureOr<std::optional<TileBody>> matched = matchTileBody(program);
  if (failed(matched))
    return failure();
  if (!*matched)
    return success(); // Nothing sequential to pipeline.
  TileBody &body = **matched;
  ScheduleAttr schedule = program.getSchedule();
  if (!schedule)
    return program.emitError("cta-pipeline: the program has no cta.schedule");
  const kiln::target::ChipInfo *chip =
      kiln::target::lookupChip(program.getChip());
  if (!chip)
    return program.emitError()
           << "cta-pipeline: unknown chip '" << program.getChip()
           << "' (cta.chip); expected " << kiln::target::knownChipNames();
  int64_t stages = schedule.getStages();
  int64_t consumers = schedule.getMathWarpgroups();
  int64_t clusterSize =
      program.getClusterShape().first * program.getClusterShape().second;
  // Output rows are the next-to-last tiled axis (a stream-K walk's last
  // axis is K).
  ArrayRef<int64_t> tileSizes = body.loop.getTileSizes();
  int64_t tileRows =
      tileSizes[body.loop.getWalk() == WalkKind::stream_k ? 0
                                                          : tileSizes.size() - 2];
  if (tileRows % consumers != 0)
    return body.loop.emitError()
           << "cta-pipeline: " << tileRows << " tile rows do not split across "
           << consumers << " math warpgroups";
  unsigned consumerRegs =
      kiln::target::warpSpecializedConsumerRegisters(*chip, 1, consumers);
  if (consumerRegs == 0)
    return program.emitError() << "cta-pipeline: " << consumers
                               << " math warpgroups leave no registers";
  MainloopOp mainloop = body.mainloop;
  Location loc = mainloop.getLoc();

  // Every buffer the mainloop fills becomes a ring of stages.
  for (LoadOp load : mainloop.getBody().getOps<LoadOp>()) {
    TypedValue<BufferType> buffer = load.getBuffer();
    if (buffer.getType().getStages() == 1)
      buffer.setType(buffer.getType().withStages(stages));
  }
  // Each consumer stages its own row slice of the output (stores of one
  // element type share a staging buffer).
  llvm::SetVector<Value> stagingBuffers;
  for (StoreOp store : body.stores) {
    if (!store.getStaging())
      continue;
    if (store.getStaging().getType().getShape()[0] % consumers != 0)
      return store.emitError(
          "cta-pipeline: staging rows do not split across consumers");
    stagingBuffers.insert(store.getStaging());
  }
  for (Value buffer : stagingBuffers) {
    auto staging = llvm::cast<BufferType>(buffer.getType());
    buffer.setType(BufferType::get(
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
  MLIRContext *ctx = program.getContext();
  auto roles = WarpSpecializeOp::create(
      builder, loc,
      builder.getArrayAttr(
          {RoleAttr::get(ctx, RoleKind::producer, kWarpsPerWarpgroup,
                         chip->producerRegisters),
           RoleAttr::get(ctx, RoleKind::math, kWarpsPerWarpgroup * consumers,
                         consumerRegs)}),
      /*bodiesCount=*/2);

  auto kIterations = [&](OpBuilder &b, IRMapping &mapping) -> Value {
    Value extent = mapping.lookupOrDefault(mainloop.getExtent());
    return arith::CeilDivUIOp::create(b, loc, extent, step);
  };
  Block &mainBody = mainloop.getBody().front();

  // Producer: walk the tiles, filling one stage per K step.
  {
    Block *block = builder.createBlock(&roles.getBodies()[0]);
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
    llvm::SetVector<Operation *> copies = producerSlice(mainBody);
    for (Operation &op : mainBody.without_terminator()) {
      if (!copies.contains(&op))
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
    Block *block = builder.createBlock(&roles.getBodies()[1]);
    builder.setInsertionPointToStart(block);
    IRMapping mapping;
    TileLoopOp loop = cloneTileLoop(builder, body.loop, zero, mapping);
    OpBuilder inner = OpBuilder::atBlockBegin(&loop.getBody().front());
    cloneTileArithmetic(inner, body, mapping);
    Value count = kIterations(inner, mapping);
    Value warpgroup =
        WarpgroupIndexOp::create(inner, loc, inner.getIndexType());
    int64_t rowsPerConsumer = tileRows / consumers;
    Value row = arith::MulIOp::create(
        inner, loc, warpgroup,
        arith::ConstantIndexOp::create(inner, loc, rowsPerConsumer));

    // The carried values' initial values, each warpgroup's row slice.
    for (Operation &op : llvm::make_range(body.loop.getBody().front().begin(),
                                          Block::iterator(mainloop))) {
      if (llvm::none_of(op.getResultTypes(), hasTileRows))
        continue;
      Operation *clone = inner.clone(op, mapping);
      for (OpResult result : clone->getResults())
        result.setType(sliceRows(result.getType(), consumers));
    }
    SmallVector<Value> inits;
    SmallVector<Type> carriedTypes;
    for (Value init : mainloop.getInits()) {
      inits.push_back(mapping.lookupOrDefault(init));
      carriedTypes.push_back(inits.back().getType());
    }
    auto consume =
        ConsumeOp::create(inner, loc, inner.getIndexType(), carriedTypes, ring,
                          loop.getIterArgs()[0], count, inits);
    Block *stage = inner.createBlock(&consume.getBody());
    Value kb = stage->addArgument(inner.getIndexType(), loc);
    Value slot = stage->addArgument(inner.getIndexType(), loc);
    for (auto [arg, type] :
         llvm::zip(mainBody.getArguments().drop_front(), carriedTypes))
      mapping.map(arg, stage->addArgument(type, loc));
    inner.setInsertionPointToStart(stage);
    if (!mainBody.getArgument(0).use_empty())
      mapping.map(mainBody.getArgument(0),
                  arith::MulIOp::create(inner, loc, kb, step));
    for (Operation &op : mainBody) {
      if (llvm::isa<LoadOp>(op))
        continue;
      Operation *clone = inner.clone(op, mapping);
      for (OpResult result : clone->getResults())
        result.setType(sliceRows(result.getType(), consumers));
      if (auto mma = llvm::dyn_cast<MmaOp>(clone)) {
        if (llvm::isa<BufferType>(mma.getLhs().getType())) {
          mma.getLhsSlotMutable().assign(slot);
          mma.getLhsRowMutable().assign(row);
        }
        mma.getRhsSlotMutable().assign(slot);
        // Scale-factor atoms are filled with their operands, stage by stage.
        if (mma.getLhsScale()) {
          mma.getLhsScaleSlotMutable().assign(slot);
          mma.getRhsScaleSlotMutable().assign(slot);
        }
      }
    }
    inner.setInsertionPointAfter(consume);
    for (auto [result, accResult] :
         llvm::zip(mainloop.getResults(), consume.getResults()))
      mapping.map(result, accResult);
    // What the tile does with the results: register math on the warpgroup's
    // rows, and stores of them.
    for (Operation &op : llvm::make_range(
             std::next(Block::iterator(mainloop)),
             body.loop.getBody().front().without_terminator().end())) {
      Operation *clone = inner.clone(op, mapping);
      clone->walk([&](Operation *nested) {
        for (OpResult result : nested->getResults())
          result.setType(sliceRows(result.getType(), consumers));
        auto store = llvm::dyn_cast<StoreOp>(nested);
        if (!store)
          return;
        // The slice's rows start `row` below the tile origin.
        OpBuilder before(store);
        store.getIndicesMutable()[0].assign(arith::AddIOp::create(
            before, loc, store.getIndices()[0], row));
        if (store.getStaging() && consumers > 1)
          store.getStagingSlotMutable().assign(warpgroup);
      });
    }
    YieldOp::create(inner, loc, consume.getNextPosition());
    builder.setInsertionPointAfter(loop);
    YieldOp::create(builder, loc);
  }

  body.loop.erase();
  program->setAttr("cta.block",
                   builder.getDenseI64ArrayAttr(
                       {chip->threadsPerWarpgroup * (1 + consumers), 1, 1}));
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
