//===- Pipeline.cpp - multi-stage ring and warp specialization ------------===//
//
// A sequential K loop leaves the tensor cores idle while tiles are copied.
// This pass splits the work of each tile between roles that overlap: one
// producer keeps `stages` copies in flight, and on sm_90a consumer
// warpgroups run MMAs on whichever stage is ready, each owning a slice of the
// accumulator rows. On sm_100a (tensor-memory accumulators) one MMA warp
// runs the K loops into accumulator sets that an epilogue warpgroup stores,
// so a tile's epilogue overlaps the next tile's MMAs. A ping-pong schedule
// (sm_90a) gets the same overlap from registers: each math warpgroup owns
// every second tile and the two take turns with the tensor cores. Every role
// walks the same tiles in the same order, so ring positions simply continue
// from tile to tile.
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
  return std::optional<TileBody>(body);
}

/// Creates a tile loop like `loop` carrying ring positions, and maps the
/// origins of `loop` to its own.
TileLoopOp cloneTileLoop(OpBuilder &builder, TileLoopOp loop,
                         ValueRange initialPositions, IRMapping &mapping) {
  auto clone = TileLoopOp::create(builder, loop.getLoc(), loop.getWalk(),
                                  loop.getOffsets(), loop.getGroups(),
                                  loop.getExtents(), loop.getTileSizes(),
                                  initialPositions);
  clone->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  // Every inherent attribute of the walk (persistent, group_m, cluster,
  // halves, ...) carries over; only the operands differ (the carried
  // values are the ring positions).
  auto segments = clone.getProperties().operandSegmentSizes;
  clone.getProperties() = loop.getProperties();
  clone.getProperties().operandSegmentSizes = segments;
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

/// What both role layouts build from: the matched tile body, the operand
/// ring, and the K loop's step.
struct Pipeliner {
  ProgramOp program;
  TileBody &body;
  MainloopOp mainloop;
  Value ring, zero, step;
  Location loc;

  Block &mainBody() { return mainloop.getBody().front(); }

  Value kIterations(OpBuilder &b, IRMapping &mapping) {
    Value extent = mapping.lookupOrDefault(mainloop.getExtent());
    return arith::CeilDivUIOp::create(b, loc, extent, step);
  }

  /// A role's walk of the tiles: the tile loop carrying `positions`, a
  /// builder at the start of its body, the tile's index arithmetic and K
  /// step count.
  struct RoleTile {
    TileLoopOp loop;
    OpBuilder inner;
    IRMapping mapping;
    Value count;
  };
  RoleTile beginRoleTile(OpBuilder &builder, Region &region,
                         ValueRange positions) {
    builder.setInsertionPointToStart(builder.createBlock(&region));
    return beginRoleTile(builder, positions);
  }
  /// The same, at the builder's insertion point in the role's block.
  RoleTile beginRoleTile(OpBuilder &builder, ValueRange positions) {
    IRMapping mapping;
    TileLoopOp loop = cloneTileLoop(builder, body.loop, positions, mapping);
    OpBuilder inner = OpBuilder::atBlockBegin(&loop.getBody().front());
    cloneTileArithmetic(inner, body, mapping);
    Value count = kIterations(inner, mapping);
    return RoleTile{loop, inner, std::move(mapping), count};
  }

  /// Producer: walk the tiles, filling one stage per K step.
  void buildProducer(OpBuilder &builder, Region &region) {
    RoleTile tile = beginRoleTile(builder, region, zero);
    auto &[loop, inner, mapping, count] = tile;
    auto produce = ProduceOp::create(inner, loc, builder.getIndexType(), ring,
                                     loop.getIterArgs()[0], count);
    Block *stage = inner.createBlock(&produce.getBody());
    Value kb = stage->addArgument(inner.getIndexType(), loc);
    Value slot = stage->addArgument(inner.getIndexType(), loc);
    inner.setInsertionPointToStart(stage);
    mapping.map(mainBody().getArgument(0),
                arith::MulIOp::create(inner, loc, kb, step));
    llvm::SetVector<Operation *> copies = producerSlice(mainBody());
    for (Operation &op : mainBody().without_terminator()) {
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

  /// A cta.consume of the ring running the K step's MMAs and register math
  /// (not its copies) on `inits`, with each value's rows sliced for
  /// `consumers` warpgroups; `row` (when set) is the warpgroup's first lhs
  /// row.
  ConsumeOp buildConsume(OpBuilder &inner, IRMapping &mapping, Value position,
                         Value count, ValueRange inits, int64_t consumers,
                         Value row) {
    SmallVector<Type> carriedTypes(inits.getTypes());
    auto consume = ConsumeOp::create(inner, loc, inner.getIndexType(),
                                     carriedTypes, ring, position, count,
                                     inits);
    OpBuilder::InsertionGuard guard(inner);
    Block *stage = inner.createBlock(&consume.getBody());
    Value kb = stage->addArgument(inner.getIndexType(), loc);
    Value slot = stage->addArgument(inner.getIndexType(), loc);
    for (auto [arg, type] :
         llvm::zip(mainBody().getArguments().drop_front(), carriedTypes))
      mapping.map(arg, stage->addArgument(type, loc));
    inner.setInsertionPointToStart(stage);
    if (!mainBody().getArgument(0).use_empty())
      mapping.map(mainBody().getArgument(0),
                  arith::MulIOp::create(inner, loc, kb, step));
    for (Operation &op : mainBody()) {
      if (llvm::isa<LoadOp>(op))
        continue;
      Operation *clone = inner.clone(op, mapping);
      for (OpResult result : clone->getResults())
        result.setType(sliceRows(result.getType(), consumers));
      // A rows vector read from memory starts at the warpgroup's first row
      // (its row index is the second to last); a cols vector is shared.
      if (auto rows = llvm::dyn_cast<ReadVectorOp>(clone);
          rows && row &&
          rows.getResult().getType().getLayout() == FragLayout::rows) {
        unsigned rowIndex = rows.getIndices().size() - 2;
        OpBuilder before(rows);
        rows.getIndicesMutable()[rowIndex].assign(arith::AddIOp::create(
            before, loc, rows.getIndices()[rowIndex], row));
      }
      if (auto mma = llvm::dyn_cast<MmaOp>(clone)) {
        if (llvm::isa<BufferType>(mma.getLhs().getType())) {
          mma.getLhsSlotMutable().assign(slot);
          if (row)
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
    return consume;
  }

  /// One tile's K loop for a math warpgroup at `b`: the carried values'
  /// initial values (the warpgroup's rows of them when `consumers` split the
  /// tile), `beforeLoop`, then the cta.consume from ring `position` with its
  /// results mapped to the mainloop's; leaves `b` after the consume.
  ConsumeOp buildTileLoop(OpBuilder &b, IRMapping &mapping, Value position,
                          Value count, int64_t consumers, Value row,
                          llvm::function_ref<void()> beforeLoop) {
    for (Operation &op : llvm::make_range(body.loop.getBody().front().begin(),
                                          Block::iterator(mainloop))) {
      if (llvm::none_of(op.getResultTypes(), hasTileRows))
        continue;
      Operation *clone = b.clone(op, mapping);
      for (OpResult result : clone->getResults())
        result.setType(sliceRows(result.getType(), consumers));
    }
    SmallVector<Value> inits;
    for (Value init : mainloop.getInits())
      inits.push_back(mapping.lookupOrDefault(init));
    beforeLoop();
    ConsumeOp consume =
        buildConsume(b, mapping, position, count, inits, consumers, row);
    b.setInsertionPointAfter(consume);
    for (auto [result, accResult] :
         llvm::zip(mainloop.getResults(), consume.getResults()))
      mapping.map(result, accResult);
    return consume;
  }

  /// sm_90a: math warpgroups each multiply their row slice of the tile and
  /// store it.
  void buildMathRole(OpBuilder &builder, Region &region, int64_t consumers,
                     int64_t tileRows) {
    RoleTile tile = beginRoleTile(builder, region, zero);
    auto &[loop, inner, mapping, count] = tile;
    Value warpgroup =
        WarpgroupIndexOp::create(inner, loc, inner.getIndexType());
    int64_t rowsPerConsumer = tileRows / consumers;
    Value row = arith::MulIOp::create(
        inner, loc, warpgroup,
        arith::ConstantIndexOp::create(inner, loc, rowsPerConsumer));

    ConsumeOp consume = buildTileLoop(inner, mapping, loop.getIterArgs()[0],
                                      count, consumers, row, [] {});
    // What the tile does with the results: register math on the warpgroup's
    // rows, and stores of them.
    cloneTileEnd(inner, mapping, [&](Operation *op) {
      // The slice's rows start `row` below the tile origin: a store's row
      // index is the second to last (a batched store's leading indices come
      // first), a row vector's its last, a column reduction's its `row`.
      OpBuilder before(op);
      if (auto cols = llvm::dyn_cast<CombineColsOp>(op)) {
        cols.getRowMutable().assign(
            arith::AddIOp::create(before, loc, cols.getRow(), row));
        return;
      }
      if (auto rows = llvm::dyn_cast<StoreRowsOp>(op)) {
        unsigned last = rows.getIndices().size() - 1;
        rows.getIndicesMutable()[last].assign(arith::AddIOp::create(
            before, loc, rows.getIndices()[last], row));
        return;
      }
      auto store = llvm::cast<StoreOp>(op);
      unsigned rowIndex = store.getIndices().size() - 2;
      store.getIndicesMutable()[rowIndex].assign(arith::AddIOp::create(
          before, loc, store.getIndices()[rowIndex], row));
      if (store.getStaging() && consumers > 1)
        store.getStagingSlotMutable().assign(warpgroup);
    }, consumers);
    YieldOp::create(inner, loc, consume.getNextPosition());
    builder.setInsertionPointAfter(loop);
    YieldOp::create(builder, loc);
  }

  /// sm_90a ping-pong: the math warpgroups take the CTA's tiles in turn
  /// (warpgroup w the tiles i with i mod 2 = w), each multiplying and
  /// storing all of its tile's rows. A warpgroup waits for its turn before
  /// its K loop and hands the turn on after it, so its epilogue runs while
  /// the other warpgroup's MMAs do (CUTLASS's "pingpong" kernels). Both walk
  /// every tile, stepping the ring position past the other's K steps.
  void buildPingPongMathRole(OpBuilder &builder, Region &region,
                             int64_t consumers) {
    builder.setInsertionPointToStart(builder.createBlock(&region));
    Value warpgroup =
        WarpgroupIndexOp::create(builder, loc, builder.getIndexType());
    auto turn = [&](OpBuilder &b, TurnKind kind) {
      MmaTurnOp::create(b, loc, TurnKindAttr::get(b.getContext(), kind),
                        warpgroup, b.getI64IntegerAttr(consumers));
    };
    turn(builder, TurnKind::start);
    RoleTile tile = beginRoleTile(builder, {zero, zero});
    auto &[loop, inner, mapping, count] = tile;
    Value position = loop.getIterArgs()[0];
    Value index = loop.getIterArgs()[1];
    Value owner = arith::RemUIOp::create(
        inner, loc, index, arith::ConstantIndexOp::create(inner, loc, consumers));
    Value mine = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::eq,
                                       owner, warpgroup);
    auto ifMine = scf::IfOp::create(inner, loc, mine, /*withElseRegion=*/false);
    {
      OpBuilder then = ifMine.getThenBodyBuilder();
      // All of the tile's rows are this warpgroup's.
      buildTileLoop(then, mapping, position, count, /*consumers=*/1, Value(),
                    [&] { turn(then, TurnKind::wait); });
      turn(then, TurnKind::pass);
      cloneTileEnd(then, mapping, [&](Operation *op) {
        if (auto store = llvm::dyn_cast<StoreOp>(op); store && store.getStaging())
          store.getStagingSlotMutable().assign(warpgroup);
      }, /*consumers=*/1);
    }
    inner.setInsertionPointAfter(ifMine);
    Value next = arith::AddIOp::create(inner, loc, position, count);
    Value nextIndex = arith::AddIOp::create(
        inner, loc, index, arith::ConstantIndexOp::create(inner, loc, 1));
    YieldOp::create(inner, loc, ValueRange{next, nextIndex});
    builder.setInsertionPointAfter(loop);
    YieldOp::create(builder, loc);
  }

  /// Clones what the tile does after its K loop (register math, stores),
  /// calling `onStore` on each cloned cta.store, cta.store_rows and
  /// cta.combine_cols.
  void cloneTileEnd(OpBuilder &inner, IRMapping &mapping,
                    llvm::function_ref<void(Operation *)> onStore,
                    int64_t consumers) {
    for (Operation &op : llvm::make_range(
             std::next(Block::iterator(mainloop)),
             body.loop.getBody().front().without_terminator().end())) {
      Operation *clone = inner.clone(op, mapping);
      clone->walk([&](Operation *nested) {
        for (OpResult result : nested->getResults())
          result.setType(sliceRows(result.getType(), consumers));
        if (llvm::isa<StoreOp, StoreRowsOp, CombineColsOp>(nested))
          onStore(nested);
      });
    }
  }

  /// sm_100a: one thread of the MMA warp runs every tile's K loop into a
  /// free accumulator set and hands it over without waiting; the epilogue
  /// warpgroup reads each set as it becomes full, stores the tile and frees
  /// the set. With two sets the epilogue of tile i overlaps the MMAs of
  /// tile i + 1.
  void buildMmaAndEpilogueRoles(OpBuilder &builder, Region &epilogueRegion,
                                Region &mmaRegion, Value accRing, Value one) {
    {
      RoleTile tile = beginRoleTile(builder, mmaRegion, {zero, zero});
      auto &[loop, inner, mapping, count] = tile;
      Value accPosition = loop.getIterArgs()[1];
      auto acquire = AccAcquireOp::create(inner, loc,
                                          mainloop.getResultTypes(), accRing,
                                          accPosition);
      ConsumeOp consume =
          buildConsume(inner, mapping, loop.getIterArgs()[0], count,
                       acquire.getAccs(), /*consumers=*/1, Value());
      inner.setInsertionPointAfter(consume);
      AccCommitOp::create(inner, loc, accRing, accPosition,
                          consume.getResults());
      Value next = arith::AddIOp::create(inner, loc, accPosition, one);
      YieldOp::create(inner, loc, ValueRange{consume.getNextPosition(), next});
      builder.setInsertionPointAfter(loop);
      YieldOp::create(builder, loc);
    }
    {
      RoleTile tile = beginRoleTile(builder, epilogueRegion, {zero});
      auto &[loop, inner, mapping, count] = tile;
      Value accPosition = loop.getIterArgs()[0];
      Value filled = arith::CmpIOp::create(inner, loc, arith::CmpIPredicate::ugt,
                                           count, zero);
      auto wait = AccWaitOp::create(inner, loc, mainloop.getResultTypes(),
                                    accRing, accPosition, filled);
      for (auto [result, acc] : llvm::zip(mainloop.getResults(), wait.getAccs()))
        mapping.map(result, acc);
      cloneTileEnd(inner, mapping, [](Operation *) {}, /*consumers=*/1);
      AccReleaseOp::create(inner, loc, accRing, accPosition);
      Value next = arith::AddIOp::create(inner, loc, accPosition, one);
      YieldOp::create(inner, loc, next);
      builder.setInsertionPointAfter(loop);
      YieldOp::create(builder, loc);
    }
  }
};

/// On sm_100a the K loop carries accumulators only, each zeroed by a
/// cta.acc_zero of the tile (an accumulator set of the ring starts zeroed).
LogicalResult checkTensorMemoryLoop(MainloopOp mainloop) {
  for (Value init : mainloop.getInits())
    if (!init.getDefiningOp<AccZeroOp>())
      return mainloop.emitError()
             << "cta-pipeline: not implemented yet with tensor-memory "
                "accumulators: a K loop carrying "
             << init.getType() << " (only accumulators zeroed per tile)";
  return success();
}

LogicalResult pipeline(ProgramOp program) {
  FailureOr<std::optional<TileBody>> matched = matchTileBody(program);
  if (failed(matched))
    return failure();
  if (!*matched)
    return success(); // Nothing sequential to pipeline.
  TileBody &body = **matched;
  ScheduleAttr schedule = program.getScheduleAttr();
  if (!schedule)
    return program.emitError("cta-pipeline: the program has no schedule");
  if (!program.getChipAttr())
    return program.emitError("cta-pipeline: the program names no chip");
  const kiln::target::ChipInfo *chip = &program.getChipAttr().getInfo();
  int64_t stages = schedule.getStages();
  // A buffer of one stage takes no slot (BufferType), so a ring of one
  // would leave the copies without their slot.
  if (stages < kiln::target::minPipelineStages)
    return program.emitError()
           << "cta-pipeline: stages = " << stages << ": a pipeline needs "
           << kiln::target::minPipelineStages << " stages at least";
  int64_t consumers = schedule.getMathWarpgroups();
  int64_t clusterSize =
      program.getClusterShape().first * program.getClusterShape().second;
  bool tensorMemory = chip->tensorMemoryColumns > 0;
  // Output rows are the next-to-last tiled axis (a stream-K walk's last
  // axis is K).
  ArrayRef<int64_t> tileSizes = body.loop.getTileSizes();
  int64_t tileRows =
      tileSizes[body.loop.getWalk() == WalkKind::stream_k ? 0
                                                          : tileSizes.size() - 2];
  if (schedule.getPingpong() &&
      (tensorMemory || body.loop.getWalk() == WalkKind::stream_k))
    return program.emitError()
           << "cta-pipeline: pingpong needs register accumulators (sm_90a) "
              "and a walk of whole tiles (not stream_k)";
  if (!schedule.getPingpong() && tileRows % consumers != 0)
    return body.loop.emitError()
           << "cta-pipeline: " << tileRows << " tile rows do not split across "
           << consumers << " math warpgroups";
  unsigned consumerRegs =
      kiln::target::warpSpecializedConsumerRegisters(*chip, 1, consumers);
  if (consumerRegs == 0)
    return program.emitError() << "cta-pipeline: " << consumers
                               << " math warpgroups leave no registers";
  if (tensorMemory && consumers != 1)
    return program.emitError()
           << "cta-pipeline: " << chip->name << " reads a tile's tensor-memory "
           << "accumulators with one epilogue warpgroup; the schedule has "
           << "math_warpgroups = " << consumers;
  if (!tensorMemory && schedule.getAccStages() != 1)
    return program.emitError()
           << "cta-pipeline: acc_stages = " << schedule.getAccStages()
           << " needs tensor-memory accumulators; " << chip->name
           << " keeps them in registers";
  MainloopOp mainloop = body.mainloop;
  if (tensorMemory && failed(checkTensorMemoryLoop(mainloop)))
    return failure();
  Location loc = mainloop.getLoc();

  // Every buffer the mainloop fills becomes a ring of stages.
  for (LoadOp load : mainloop.getBody().getOps<LoadOp>()) {
    TypedValue<BufferType> buffer = load.getBuffer();
    if (buffer.getType().getStages() == 1)
      buffer.setType(buffer.getType().withStages(stages));
  }
  // Each consumer stages its own row slice of the output (stores of one
  // element type share a staging buffer); under ping-pong its own tile.
  llvm::SetVector<Value> stagingBuffers;
  for (StoreOp store : body.stores) {
    if (!store.getStaging())
      continue;
    if (!schedule.getPingpong() &&
        store.getStaging().getType().getShape()[0] % consumers != 0)
      return store.emitError(
          "cta-pipeline: staging rows do not split across consumers");
    stagingBuffers.insert(store.getStaging());
  }
  for (Value buffer : stagingBuffers) {
    auto staging = llvm::cast<BufferType>(buffer.getType());
    int64_t rows = schedule.getPingpong() ? staging.getShape()[0]
                                          : staging.getShape()[0] / consumers;
    buffer.setType(BufferType::get(program.getContext(),
                                   {rows, staging.getShape()[1]},
                                   staging.getElementType(), consumers,
                                   staging.getSwizzle()));
  }

  OpBuilder builder(body.loop);
  MLIRContext *ctx = program.getContext();
  // Under ping-pong one warpgroup reads each stage.
  auto ring = RingOp::create(builder, loc, RingType::get(ctx, stages),
                             schedule.getPingpong() ? 1 : consumers,
                             clusterSize);
  Pipeliner pipeliner{program,
                      body,
                      mainloop,
                      ring,
                      arith::ConstantIndexOp::create(builder, loc, 0),
                      arith::ConstantIndexOp::create(builder, loc,
                                                     mainloop.getStep()),
                      loc};
  int64_t threads;
  if (tensorMemory) {
    // The epilogue warpgroup comes first so that its warps are warpgroup 0:
    // warp w reads tensor-memory lanes [32 (w % 4), +32).
    SmallVector<AccType> accs;
    for (Type type : mainloop.getResultTypes())
      accs.push_back(llvm::cast<AccType>(type));
    Value one = arith::ConstantIndexOp::create(builder, loc, 1);
    auto accRing = AccRingOp::create(
        builder, loc, AccRingType::get(ctx, schedule.getAccStages(), accs),
        /*consumers=*/1);
    auto roles = WarpSpecializeOp::create(
        builder, loc,
        builder.getArrayAttr(
            {RoleAttr::get(ctx, RoleKind::epilogue, kWarpsPerWarpgroup, 0),
             RoleAttr::get(ctx, RoleKind::producer, 1, 0),
             RoleAttr::get(ctx, RoleKind::mma, 1, 0)}),
        /*bodiesCount=*/3);
    pipeliner.buildProducer(builder, roles.getBodies()[1]);
    pipeliner.buildMmaAndEpilogueRoles(builder, roles.getBodies()[0],
                                       roles.getBodies()[2], accRing, one);
    threads = roles.getTotalWarps() * kiln::target::threadsPerWarp;
  } else {
    auto roles = WarpSpecializeOp::create(
        builder, loc,
        builder.getArrayAttr(
            {RoleAttr::get(ctx, RoleKind::producer, kWarpsPerWarpgroup,
                           chip->producerRegisters),
             RoleAttr::get(ctx, RoleKind::math, kWarpsPerWarpgroup * consumers,
                           consumerRegs)}),
        /*bodiesCount=*/2);
    pipeliner.buildProducer(builder, roles.getBodies()[0]);
    if (schedule.getPingpong())
      pipeliner.buildPingPongMathRole(builder, roles.getBodies()[1],
                                      consumers);
    else
      pipeliner.buildMathRole(builder, roles.getBodies()[1], consumers,
                              tileRows);
    threads = chip->threadsPerWarpgroup * (1 + consumers);
  }

  body.loop.erase();
  program.setBlockAttr(builder.getDenseI64ArrayAttr({threads, 1, 1}));
  return success();
}

struct CtaPipelinePass
    : public kiln::cta::impl::CtaPipelineBase<CtaPipelinePass> {
  void runOnOperation() override {
    if (failed(pipeline(getOperation())))
      signalPassFailure();
  }
};

} // namespace
