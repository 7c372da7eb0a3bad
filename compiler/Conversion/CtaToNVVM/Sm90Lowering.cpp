//===- Sm90Lowering.cpp - cta programs to sm_90a NVVM ---------------------===//
//
// Walks a pipelined cta.program in order and emits the same structure with
// Hopper instructions: the tile walk becomes an scf.for over the CTA's tiles,
// a ring becomes mbarrier pairs driven by the parity protocol (producer waits
// `empty` with the inverted phase, consumers wait `full`), copies become TMA,
// MMAs become wgmma on shared-memory descriptors, and stores go registers ->
// stmatrix -> swizzled staging -> TMA store. Values of cta types map to their
// lowered form (buffers and rings to shared-memory pointers, accumulators to
// the wgmma fragment struct); all other ops are cloned.
//
// Layout rule used throughout (cta-assign-layouts): a buffer is a row of
// column blocks `span` bytes wide; block j holds all rows, row r at r * span
// within it, 16-byte chunks XOR-swizzled by the row. Buffers and blocks start
// on 1024-byte boundaries, so every descriptor keeps base_offset 0.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/Sm90Lowering.h"
#include "compiler/Target/WgmmaDescriptor.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;

namespace {

constexpr int64_t kWarpgroupThreads = 128;
/// Suspend-time hint of mbarrier.try_wait, in nanoseconds.
constexpr int64_t kWaitTicks = 10000000;
/// Rows of one wgmma instruction.
constexpr int64_t kMmaRows = 64;

int64_t bitsOf(Type type) { return type.getIntOrFloatBitWidth(); }

/// Width in bytes of one column block of `type` (its swizzle span, or the
/// whole row without a swizzle).
int64_t spanBytes(cta::BufferType type) {
  if (type.getSwizzle() &&
      type.getSwizzle().getValue() != cta::SwizzleKind::none)
    return static_cast<int64_t>(type.getSwizzle().getValue());
  return type.getShape()[1] * bitsOf(type.getElementType()) / 8;
}

class Sm90Lowering {
public:
  Sm90Lowering(cta::ProgramOp program, const KernelABI &abi,
               LLVM::LLVMFuncOp func, LLVM::GlobalOp smem)
      : program(program), abi(abi), func(func), smem(smem),
        b(program.getContext()), loc(program.getLoc()) {}

  LogicalResult run();

private:
  //===--- scalar and pointer helpers -------------------------------------===//
  Type i32Type() { return b.getI32Type(); }
  Value i32(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 32); }
  Value i64(int64_t v) { return arith::ConstantIntOp::create(b, loc, v, 64); }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, i32Type(), index);
  }
  Value toIndex(Value v) {
    return arith::IndexCastUIOp::create(b, loc, b.getIndexType(), v);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value udiv(Value x, Value y) { return arith::DivUIOp::create(b, loc, x, y); }
  Value urem(Value x, Value y) { return arith::RemUIOp::create(b, loc, x, y); }
  Value ceilDiv(Value x, Value y) {
    return arith::CeilDivUIOp::create(b, loc, x, y);
  }
  Value andI(Value x, Value y) { return arith::AndIOp::create(b, loc, x, y); }
  Value xorI(Value x, Value y) { return arith::XOrIOp::create(b, loc, x, y); }
  Value shl(Value x, Value y) { return arith::ShLIOp::create(b, loc, x, y); }
  Value lshr(Value x, Value y) { return arith::ShRUIOp::create(b, loc, x, y); }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value cmp(arith::CmpIPredicate p, Value x, Value y) {
    return arith::CmpIOp::create(b, loc, p, x, y);
  }
  Value eq(Value x, Value y) { return cmp(arith::CmpIPredicate::eq, x, y); }

  /// `base + offset` bytes, for shared (3) or global (1) pointers.
  Value bytePtr(Value base, Value offset) {
    return LLVM::GEPOp::create(b, loc, base.getType(), b.getI8Type(), base,
                               ValueRange{offset});
  }
  Value bytePtr(Value base, int64_t offset) {
    return offset == 0 ? base : bytePtr(base, i32(offset));
  }
  /// The shared-window address of a pointer, as i32.
  Value smemAddress(Value ptr) {
    Value wide = LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), ptr);
    return arith::TruncIOp::create(b, loc, i32Type(), wide);
  }

  /// `full[slot]` or `empty[slot]` of a ring.
  Value barrier(Value ring, Value slot, int64_t stages, bool empty) {
    Value index = empty ? add(slot, i32(stages)) : slot;
    return bytePtr(ring, mul(index, i32(8)));
  }
  void wait(Value bar, Value parity) {
    NVVM::MBarrierTryWaitParityOp::create(b, loc, bar, parity, i32(kWaitTicks));
  }

  /// Runs `then` under `cond` (an scf.if without results).
  template <typename Fn> void ifThen(Value cond, Fn then) {
    auto op = scf::IfOp::create(b, loc, cond, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&op.getThenRegion().front());
    then();
  }

  //===--- accumulators ---------------------------------------------------===//
  // An accumulator of R rows is R/64 wgmma fragments. With one fragment it
  // lowers to that fragment's struct; with several, to a struct of them, so
  // that each wgmma takes and returns a whole fragment (extracting single
  // registers between wgmmas would make ptxas serialize them, C7514).
  int64_t fragments(cta::AccType type) { return type.getShape()[0] / kMmaRows; }
  Type fragmentStruct(cta::AccType type) {
    return LLVM::LLVMStructType::getLiteral(
        b.getContext(),
        SmallVector<Type>(type.getShape()[1] / 2, b.getF32Type()));
  }
  Type accStruct(cta::AccType type) {
    if (fragments(type) == 1)
      return fragmentStruct(type);
    return LLVM::LLVMStructType::getLiteral(
        b.getContext(),
        SmallVector<Type>(fragments(type), fragmentStruct(type)));
  }
  Value getFragment(Value acc, cta::AccType type, int64_t m) {
    if (fragments(type) == 1)
      return acc;
    return LLVM::ExtractValueOp::create(b, loc, acc, m);
  }
  Value setFragment(Value acc, cta::AccType type, Value fragment, int64_t m) {
    if (fragments(type) == 1)
      return fragment;
    return LLVM::InsertValueOp::create(b, loc, acc, fragment, m);
  }
  /// Register `i` of fragment `m`.
  Value getElement(Value acc, cta::AccType type, int64_t m, int64_t i) {
    if (fragments(type) == 1)
      return LLVM::ExtractValueOp::create(b, loc, acc, i);
    return LLVM::ExtractValueOp::create(b, loc, acc, ArrayRef<int64_t>{m, i});
  }
  /// Zeros, written by one `mov` per register. A zero aggregate would let
  /// LLVM copy one zeroed register into the others, and ptxas serializes the
  /// wgmma pipeline (C7514) when non-wgmma instructions read accumulator
  /// registers, which those copies do.
  Value zeroAcc(cta::AccType type) {
    Value acc = LLVM::UndefOp::create(b, loc, accStruct(type));
    for (int64_t m = 0; m < fragments(type); ++m) {
      auto structType = llvm::cast<LLVM::LLVMStructType>(fragmentStruct(type));
      int64_t regs = structType.getBody().size();
      std::string text, constraints;
      for (int64_t i = 0; i < regs; ++i) {
        text += "mov.b32 $" + std::to_string(i) + ", 0;\n";
        constraints += (i ? ",=f" : "=f");
      }
      auto zeros = LLVM::InlineAsmOp::create(
          b, loc, structType, ValueRange{}, text, constraints,
          /*has_side_effects=*/true,
          /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          ArrayAttr());
      acc = setFragment(acc, type, zeros.getResult(0), m);
    }
    return acc;
  }

  /// Pins an accumulator's registers at this point of the program: an empty
  /// side-effecting inline asm that takes and returns every register. LLVM
  /// sees the wgmma results as ordinary values and would otherwise move
  /// their first reads above the wgmma.wait_group that makes them valid (or
  /// the zero-initialization below the wgmma.fence that publishes it).
  Value fenceAccumulator(Value acc, cta::AccType type) {
    for (int64_t m = 0; m < fragments(type); ++m) {
      Value fragment = getFragment(acc, type, m);
      auto structType = llvm::cast<LLVM::LLVMStructType>(fragment.getType());
      int64_t regs = structType.getBody().size();
      SmallVector<Value> operands;
      std::string constraints;
      for (int64_t i = 0; i < regs; ++i) {
        operands.push_back(LLVM::ExtractValueOp::create(b, loc, fragment, i));
        constraints += (i ? ",=f" : "=f");
      }
      for (int64_t i = 0; i < regs; ++i)
        constraints += "," + std::to_string(i);
      auto pinned = LLVM::InlineAsmOp::create(
          b, loc, structType, operands, /*asm_string=*/"", constraints,
          /*has_side_effects=*/true, /*is_align_stack=*/false,
          LLVM::tailcallkind::TailCallKind::None,
          LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
          /*operand_attrs=*/ArrayAttr());
      acc = setFragment(acc, type, pinned.getResult(0), m);
    }
    return acc;
  }

  //===--- lowering -------------------------------------------------------===//
  LogicalResult lowerBlock(Block &block);
  FailureOr<SmallVector<Value>> lowerRegion(Region &region, ValueRange args);
  LogicalResult lowerOp(Operation &op);
  LogicalResult lowerAlloc(cta::AllocOp op);
  LogicalResult lowerRing(cta::RingOp op);
  LogicalResult lowerWarpSpecialize(cta::WarpSpecializeOp op);
  LogicalResult lowerTileLoop(cta::TileLoopOp op);
  LogicalResult lowerProduce(cta::ProduceOp op);
  LogicalResult lowerLoad(cta::LoadOp op);
  LogicalResult lowerConsume(cta::ConsumeOp op);
  LogicalResult lowerMma(cta::MmaOp op);
  LogicalResult lowerStore(cta::StoreOp op);
  void release(Value ring, Value slot, int64_t stages, int64_t clusterSize);
  FailureOr<Value> extentOf(Value memref, unsigned axis);
  FailureOr<SmallVector<Value>> applyEpilogue(cta::StoreOp op, ValueRange accs);
  void storeTileThroughStaging(cta::StoreOp op, ArrayRef<Value> values,
                               Value row0, Value col0);
  LogicalResult storeTileDirect(cta::StoreOp op, ArrayRef<Value> values,
                                Value row0, Value col0);

  cta::ProgramOp program;
  const KernelABI &abi;
  LLVM::LLVMFuncOp func;
  LLVM::GlobalOp smem;
  OpBuilder b;
  Location loc;
  IRMapping map;
  Value smemBase, tid;
  /// Index of the executing warpgroup within its role (i32); set while a
  /// role's region is emitted.
  Value roleWarpgroup;
  /// Whether the consumer role's region is being emitted (stores need its
  /// whole warpgroups; the producer runs on one thread).
  bool inConsumerRole = false;
};

LogicalResult Sm90Lowering::run() {
  Block *entry = func.addEntryBlock(b);
  b.setInsertionPointToStart(entry);
  smemBase = LLVM::AddressOfOp::create(b, loc, smem);
  tid = NVVM::ThreadIdXOp::create(b, loc, i32Type());
  Block &body = program.getBody().front();
  for (auto [programArg, entryArg] : abi.dimArgs)
    map.map(body.getArgument(programArg), toIndex(func.getArgument(entryArg)));

  // Fetch every tensor map into the descriptor cache before first use.
  ifThen(eq(tid, i32(0)), [&] {
    for (unsigned i = 0; i < abi.tensorMaps.size(); ++i)
      NVVM::PrefetchOp::create(b, loc, /*cacheLevel=*/nullptr,
                               /*evictPriority=*/nullptr, func.getArgument(i),
                               /*predicate=*/Value(),
                               /*tensormap=*/true, /*uniform=*/false,
                               /*in_param_space=*/true);
  });
  if (failed(lowerBlock(body)))
    return failure();
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  return success();
}

LogicalResult Sm90Lowering::lowerBlock(Block &block) {
  for (Operation &op : block.without_terminator())
    if (failed(lowerOp(op)))
      return failure();
  return success();
}

FailureOr<SmallVector<Value>> Sm90Lowering::lowerRegion(Region &region,
                                                        ValueRange args) {
  Block &block = region.front();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    map.map(arg, value);
  if (failed(lowerBlock(block)))
    return failure();
  SmallVector<Value> results;
  if (auto yield = llvm::dyn_cast<cta::YieldOp>(block.getTerminator()))
    for (Value value : yield.getValues())
      results.push_back(map.lookup(value));
  return results;
}

LogicalResult Sm90Lowering::lowerOp(Operation &op) {
  loc = op.getLoc();
  return llvm::TypeSwitch<Operation *, LogicalResult>(&op)
      .Case([&](cta::AllocOp alloc) { return lowerAlloc(alloc); })
      .Case([&](cta::RingOp ring) { return lowerRing(ring); })
      .Case([&](cta::WarpSpecializeOp roles) {
        return lowerWarpSpecialize(roles);
      })
      .Case([&](cta::TileLoopOp loop) { return lowerTileLoop(loop); })
      .Case([&](cta::ProduceOp produce) { return lowerProduce(produce); })
      .Case([&](cta::LoadOp load) { return lowerLoad(load); })
      .Case([&](cta::ConsumeOp consume) { return lowerConsume(consume); })
      .Case([&](cta::MmaOp mma) { return lowerMma(mma); })
      .Case([&](cta::StoreOp store) { return lowerStore(store); })
      .Case([&](cta::AccZeroOp zero) {
        map.map(zero.getAcc(), zeroAcc(zero.getAcc().getType()));
        return success();
      })
      .Case([&](cta::WarpgroupIndexOp index) -> LogicalResult {
        if (!roleWarpgroup)
          return index.emitError(
              "convert-cta-to-nvvm: cta.warpgroup_index outside a warp role");
        map.map(index.getIndex(), toIndex(roleWarpgroup));
        return success();
      })
      .Case([&](cta::MainloopOp mainloop) -> LogicalResult {
        return mainloop.emitError(
            "convert-cta-to-nvvm: the K loop is not pipelined; run "
            "cta-pipeline first");
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (llvm::isa<cta::CtaDialect>(other->getDialect()))
          return other->emitError(
              "convert-cta-to-nvvm: no sm_90a lowering for this op here");
        for (Value operand : other->getOperands())
          if (llvm::isa<MemRefType>(operand.getType()))
            return other->emitError(
                "convert-cta-to-nvvm: global tensors are only read by "
                "cta.load and written by cta.store");
        b.clone(*other, map);
        return success();
      });
}

LogicalResult Sm90Lowering::lowerAlloc(cta::AllocOp op) {
  map.map(op.getBuffer(), bytePtr(smemBase, abi.smemOffset.lookup(op)));
  return success();
}

LogicalResult Sm90Lowering::lowerRing(cta::RingOp op) {
  Value ring = bytePtr(smemBase, abi.smemOffset.lookup(op));
  map.map(op.getRing(), ring);
  int64_t stages = op.getRing().getType().getStages();
  // One thread initializes; cta.warp_specialize publishes the barriers to
  // the CTA (and its cluster) before any role touches them.
  ifThen(eq(tid, i32(0)), [&] {
    Value releasers = i32(op.getConsumers() * op.getClusterSize());
    for (int64_t s = 0; s < stages; ++s) {
      NVVM::MBarrierInitOp::create(b, loc, barrier(ring, i32(s), stages, false),
                                   i32(1), Value());
      NVVM::MBarrierInitOp::create(b, loc, barrier(ring, i32(s), stages, true),
                                   releasers, Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  });
  return success();
}

LogicalResult Sm90Lowering::lowerWarpSpecialize(cta::WarpSpecializeOp op) {
  bool clustered = abi.clusterSize > 1;
  auto syncAll = [&] {
    if (clustered) {
      NVVM::ClusterArriveOp::create(b, loc, /*aligned=*/nullptr);
      NVVM::ClusterWaitOp::create(b, loc, /*aligned=*/nullptr);
    } else {
      NVVM::Barrier0Op::create(b, loc);
    }
  };
  syncAll();
  Value warpgroup = udiv(tid, i32(kWarpgroupThreads));
  auto roles =
      scf::IfOp::create(b, loc, eq(warpgroup, i32(0)), /*withElseRegion=*/true);
  {
    // Producer: one thread issues every copy; the warpgroup gives its
    // registers to the math warpgroups.
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&roles.getThenRegion().front());
    NVVM::SetMaxRegisterOp::create(b, loc, op.getProducerRegs(),
                                   NVVM::SetMaxRegisterAction::decrease);
    LogicalResult result = success();
    ifThen(eq(tid, i32(0)), [&] {
      roleWarpgroup = i32(0);
      result = lowerRegion(op.getProducer(), {});
    });
    if (failed(result))
      return failure();
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&roles.getElseRegion().front());
    NVVM::SetMaxRegisterOp::create(b, loc, op.getConsumerRegs(),
                                   NVVM::SetMaxRegisterAction::increase);
    roleWarpgroup = sub(warpgroup, i32(1));
    inConsumerRole = true;
    if (failed(lowerRegion(op.getConsumers(), {})))
      return failure();
    // Bulk stores read shared memory asynchronously: finish them before the
    // CTA (and its shared memory) goes away.
    ifThen(eq(urem(tid, i32(kWarpgroupThreads)), i32(0)), [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, 0, /*read=*/nullptr);
    });
  }
  roleWarpgroup = Value();
  inConsumerRole = false;
  // Peers may still multicast into, or arrive on, this CTA's shared memory.
  if (clustered)
    syncAll();
  return success();
}

LogicalResult Sm90Lowering::lowerTileLoop(cta::TileLoopOp op) {
  int64_t tileM = op.getTileSizes()[0], tileN = op.getTileSizes()[1];
  int64_t clusterM = op.getCluster() ? (*op.getCluster())[0] : 1;
  Value m = toI32(map.lookup(op.getExtentM())),
        n = toI32(map.lookup(op.getExtentN()));
  SmallVector<Value> inits;
  for (Value init : op.getInits())
    inits.push_back(map.lookup(init));

  // Cluster c walks cluster tiles c, c + #clusters, ...; a cluster tile is
  // `clusterM` vertically adjacent CTA tiles sharing n0. Persistent grids
  // have at most one CTA per SM; one-tile-per-CTA grids have one cluster per
  // cluster tile, so the same loop runs once (kept as a loop: ptxas
  // pipelines wgmma inside it, see C7514).
  Value tilesM = ceilDiv(m, i32(tileM)), tilesN = ceilDiv(n, i32(tileN));
  Value clusterRows = ceilDiv(tilesM, i32(clusterM));
  Value total = mul(clusterRows, tilesN);
  Value first, stride, rank;
  if (clusterM > 1) {
    Value gridClusters = NVVM::ClusterDimXOp::create(b, loc, i32Type());
    first =
        add(NVVM::ClusterIdXOp::create(b, loc, i32Type()),
            mul(NVVM::ClusterIdYOp::create(b, loc, i32Type()), gridClusters));
    stride = mul(gridClusters, NVVM::ClusterDimYOp::create(b, loc, i32Type()));
    rank = NVVM::ClusterId::create(b, loc, i32Type());
  } else {
    Value gridX = NVVM::GridDimXOp::create(b, loc, i32Type());
    first = add(NVVM::BlockIdXOp::create(b, loc, i32Type()),
                mul(NVVM::BlockIdYOp::create(b, loc, i32Type()), gridX));
    stride = mul(gridX, NVVM::GridDimYOp::create(b, loc, i32Type()));
    rank = i32(0);
  }
  auto loop = scf::ForOp::create(b, loc, toIndex(first), toIndex(total),
                                 toIndex(stride), inits);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  if (!loop.getBody()->empty() &&
      loop.getBody()->back().hasTrait<OpTrait::IsTerminator>())
    b.setInsertionPoint(loop.getBody()->getTerminator());

  // Grouped raster: bands of `group_m` cluster rows, walked column by column,
  // so concurrently running CTAs reuse each other's operand tiles in L2.
  Value t = toI32(loop.getInductionVar());
  Value groupM = i32(op.getGroupM());
  Value groupSize = mul(groupM, tilesN);
  Value firstRow = mul(udiv(t, groupSize), groupM);
  Value rowsInGroup = minU(sub(clusterRows, firstRow), groupM);
  Value inGroup = urem(t, groupSize);
  Value clusterRow = add(firstRow, urem(inGroup, rowsInGroup));
  Value column = udiv(inGroup, rowsInGroup);
  Value m0 = mul(add(mul(clusterRow, i32(clusterM)), rank), i32(tileM));
  Value n0 = mul(column, i32(tileN));
  SmallVector<Value> args = {toIndex(m0), toIndex(n0)};
  args.append(loop.getRegionIterArgs().begin(), loop.getRegionIterArgs().end());
  FailureOr<SmallVector<Value>> results = lowerRegion(op.getBody(), args);
  if (failed(results))
    return failure();
  if (loop.getBody()->empty() ||
      !loop.getBody()->back().hasTrait<OpTrait::IsTerminator>())
    scf::YieldOp::create(b, loc, *results);
  for (auto [result, value] : llvm::zip(op.getResults(), loop.getResults()))
    map.map(result, value);
  return success();
}

LogicalResult Sm90Lowering::lowerProduce(cta::ProduceOp op) {
  Value ring = map.lookup(op.getRing());
  int64_t stages = op.getRing().getType().getStages();
  Value position = toI32(map.lookup(op.getPosition()));
  Value count = map.lookup(op.getCount());
  // Every copy into a stage lands in full in this CTA (multicast slices from
  // peers included), so the stage's transaction count is its bytes.
  int64_t txBytes = 0;
  for (cta::LoadOp load : op.getBody().getOps<cta::LoadOp>())
    txBytes += load.getBuffer().getType().getStageBytes();

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, count, one);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(loop.getBody()->getTerminator());
    Value kb = loop.getInductionVar();
    Value iteration = add(position, toI32(kb));
    Value slot = urem(iteration, i32(stages));
    Value phase = andI(udiv(iteration, i32(stages)), i32(1));
    wait(barrier(ring, slot, stages, /*empty=*/true), xorI(phase, i32(1)));
    NVVM::MBarrierArriveExpectTxOp::create(
        b, loc, /*res=*/Type(), barrier(ring, slot, stages, false),
        i32(txBytes), NVVM::MemScopeKind::CTA, false, Value());
    if (failed(lowerRegion(op.getBody(), {kb, toIndex(slot)})))
      return failure();
  }
  map.map(op.getNextPosition(), toIndex(add(position, toI32(count))));
  return success();
}

LogicalResult Sm90Lowering::lowerLoad(cta::LoadOp op) {
  if (!op.getSignal())
    return op.emitError(
        "convert-cta-to-nvvm: a copy outside cta.produce has no barrier");
  const TensorMapPlan &plan = abi.tensorMaps[abi.loadMap.lookup(op)];
  Value map_ = func.getArgument(abi.loadMap.lookup(op));
  cta::BufferType buffer = op.getBuffer().getType();
  int64_t stages = op.getSignal().getType().getStages();
  Value slot = op.getSlot() ? toI32(map.lookup(op.getSlot())) : i32(0);
  Value stage = bytePtr(map.lookup(op.getBuffer()),
                        mul(slot, i32(buffer.getStageBytes())));
  Value bar = barrier(map.lookup(op.getSignal()), slot, stages, false);
  Value row = toI32(map.lookup(op.getIndices()[0]));
  Value col = toI32(map.lookup(op.getIndices()[1]));
  int64_t rows = buffer.getShape()[0];
  int64_t span = spanBytes(buffer);
  int64_t boxInner = plan.boxes.box[0];

  int64_t cs = op.getMulticast();
  Value mask, sliceOffset, sliceRow;
  if (cs > 1) {
    // Each CTA of the cluster copies 1/cs of the rows and multicasts them.
    Value rank = NVVM::ClusterId::create(b, loc, i32Type());
    int64_t sliceRows = rows / cs;
    sliceOffset = mul(rank, i32(sliceRows * span));
    sliceRow = add(row, mul(rank, i32(sliceRows)));
    mask = arith::ConstantIntOp::create(b, loc, (1 << cs) - 1, 16);
  }
  for (uint32_t j = 0; j < plan.boxes.boxCount; ++j) {
    Value dst = bytePtr(stage, j * rows * span);
    SmallVector<Value> coords = {add(col, i32(j * boxInner)),
                                 cs > 1 ? sliceRow : row};
    if (cs == 1) {
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, dst, map_, coords, bar, ValueRange{}, Value(), Value(),
          NVVM::TMALoadMode::TILE, /*isCTAOnly=*/true, nullptr, Value());
    } else {
      Value local = bytePtr(dst, sliceOffset);
      Value cluster = LLVM::AddrSpaceCastOp::create(
          b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), local);
      NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
          b, loc, cluster, map_, coords, bar, ValueRange{}, mask, Value(),
          NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, nullptr, Value());
    }
  }
  return success();
}

void Sm90Lowering::release(Value ring, Value slot, int64_t stages,
                           int64_t clusterSize) {
  Value lane = urem(tid, i32(kWarpgroupThreads));
  Value empty = barrier(ring, slot, stages, true);
  if (clusterSize == 1) {
    ifThen(eq(lane, i32(0)), [&] {
      NVVM::MBarrierArriveOp::create(b, loc, Type(), empty, Value(),
                                     NVVM::MemScopeKind::CTA, false);
    });
    return;
  }
  // Thread r of the warpgroup releases the stage in cluster CTA r: every
  // CTA's producer multicasts into this CTA's copy of the stage.
  ifThen(cmp(arith::CmpIPredicate::ult, lane, i32(clusterSize)), [&] {
    Value remote = NVVM::MapaOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext(), 7), empty, lane);
    // .release.cta like a local arrive: the stage was read by wgmma, whose
    // completion wgmma.wait_group already established; a cluster-scope
    // release would add a GPU-wide memory barrier to every K step.
    NVVM::MBarrierArriveOp::create(b, loc, Type(), remote, Value(),
                                   NVVM::MemScopeKind::CTA, false);
  });
}

LogicalResult Sm90Lowering::lowerConsume(cta::ConsumeOp op) {
  Value ring = map.lookup(op.getRing());
  int64_t stages = op.getRing().getType().getStages();
  auto ringOp = op.getRing().getDefiningOp<cta::RingOp>();
  int64_t clusterSize = ringOp ? ringOp.getClusterSize() : 1;
  Value position = toI32(map.lookup(op.getPosition()));
  Value count = map.lookup(op.getCount());
  SmallVector<Value> inits;
  for (Value init : op.getInits())
    inits.push_back(map.lookup(init));

  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(b, loc, zero, count, one, inits);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value kb = loop.getInductionVar();
    Value iteration = add(position, toI32(kb));
    Value slot = urem(iteration, i32(stages));
    Value phase = andI(udiv(iteration, i32(stages)), i32(1));
    wait(barrier(ring, slot, stages, /*empty=*/false), phase);
    SmallVector<Value> args = {kb, toIndex(slot)};
    args.append(loop.getRegionIterArgs().begin(),
                loop.getRegionIterArgs().end());
    FailureOr<SmallVector<Value>> results = lowerRegion(op.getBody(), args);
    if (failed(results))
      return failure();
    // Keep one batch of MMAs in flight: once the previous stage's batch has
    // completed, that stage can be refilled.
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
    ifThen(cmp(arith::CmpIPredicate::ugt, toI32(kb), i32(0)), [&] {
      Value previous = urem(sub(iteration, i32(1)), i32(stages));
      release(ring, previous, stages, clusterSize);
    });
    scf::YieldOp::create(b, loc, *results);
  }
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  SmallVector<Value> finals;
  for (auto [result, type] :
       llvm::zip(loop.getResults(), op.getInits().getTypes()))
    finals.push_back(fenceAccumulator(result, llvm::cast<cta::AccType>(type)));
  Value count32 = toI32(count);
  ifThen(cmp(arith::CmpIPredicate::ugt, count32, i32(0)), [&] {
    Value last = urem(sub(add(position, count32), i32(1)), i32(stages));
    release(ring, last, stages, clusterSize);
  });
  map.map(op.getNextPosition(), toIndex(add(position, count32)));
  for (auto [result, value] : llvm::zip(op.getResults(), finals))
    map.map(result, value);
  return success();
}

LogicalResult Sm90Lowering::lowerMma(cta::MmaOp op) {
  cta::BufferType lhs = op.getLhs().getType(), rhs = op.getRhs().getType();
  cta::AccType accType = op.getAcc().getType();
  std::optional<target::ElementType> element =
      toTargetElement(lhs.getElementType());
  NVVM::WGMMATypes wgmmaType;
  if (lhs.getElementType().isBF16())
    wgmmaType = NVVM::WGMMATypes::bf16;
  else if (lhs.getElementType().isF16())
    wgmmaType = NVVM::WGMMATypes::f16;
  else
    return op.emitError() << "convert-cta-to-nvvm: no sm_90a MMA for "
                          << lhs.getElementType() << " operands yet";
  if (lhs.getElementType() != rhs.getElementType())
    return op.emitError("convert-cta-to-nvvm: mixed operand types");
  if (!op.getTransposeB())
    return op.emitError(
        "convert-cta-to-nvvm: rhs must be K-major (transpose_b)");
  int64_t n = accType.getShape()[1];
  target::ValueOrError<target::WgmmaInstructionShape> shape =
      target::wgmmaInstructionShape(*element, target::ElementType::F32, n);
  if (!shape)
    return op.emitError() << "convert-cta-to-nvvm: " << shape.error();
  target::SwizzleMode swizzleA = toTargetSwizzle(lhs.getSwizzle());
  target::SwizzleMode swizzleB = toTargetSwizzle(rhs.getSwizzle());
  target::ValueOrError<uint64_t> hiA = target::wgmmaDescriptorHighBits(
      target::OperandMajor::K, swizzleA, lhs.getShape()[0]);
  target::ValueOrError<uint64_t> hiB = target::wgmmaDescriptorHighBits(
      target::OperandMajor::K, swizzleB, rhs.getShape()[0]);
  if (!hiA || !hiB)
    return op.emitError() << "convert-cta-to-nvvm: "
                          << (hiA ? hiB.error() : hiA.error());

  // Descriptors of this stage's tiles; the warpgroup's rows start `lhs_row`
  // rows into every column block of the lhs.
  Value slotA = op.getLhsSlot() ? toI32(map.lookup(op.getLhsSlot())) : i32(0);
  Value slotB = op.getRhsSlot() ? toI32(map.lookup(op.getRhsSlot())) : i32(0);
  Value rowA = op.getLhsRow() ? toI32(map.lookup(op.getLhsRow())) : i32(0);
  Value addrA = add(smemAddress(map.lookup(op.getLhs())),
                    add(mul(slotA, i32(lhs.getStageBytes())),
                        mul(rowA, i32(spanBytes(lhs)))));
  Value addrB = add(smemAddress(map.lookup(op.getRhs())),
                    mul(slotB, i32(rhs.getStageBytes())));
  auto descriptor = [&](Value addr, uint64_t hi) {
    Value wide = arith::ExtUIOp::create(b, loc, b.getI64Type(), addr);
    Value start =
        andI(lshr(wide, i64(4)), i64(target::descriptorStartAddressMask));
    return arith::OrIOp::create(b, loc, start, i64(static_cast<int64_t>(hi)))
        .getResult();
  };
  Value descA = descriptor(addrA, *hiA), descB = descriptor(addrB, *hiB);

  Value acc = map.lookup(op.getAcc());
  int64_t mBlocks = fragments(accType);
  int64_t kSteps = lhs.getShape()[1] / shape->k;
  auto mmaShape =
      NVVM::MMAShapeAttr::get(b.getContext(), shape->m, shape->n, shape->k);
  acc = fenceAccumulator(acc, accType);
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t k = 0; k < kSteps; ++k) {
    target::ValueOrError<uint64_t> stepA = target::wgmmaKStepDescriptorDelta(
        target::OperandMajor::K, swizzleA, *element, lhs.getShape()[0], k);
    target::ValueOrError<uint64_t> stepB = target::wgmmaKStepDescriptorDelta(
        target::OperandMajor::K, swizzleB, *element, rhs.getShape()[0], k);
    if (!stepA || !stepB)
      return op.emitError() << "convert-cta-to-nvvm: "
                            << (stepA ? stepB.error() : stepA.error());
    Value dB = add(descB, i64(*stepB));
    for (int64_t mb = 0; mb < mBlocks; ++mb) {
      target::ValueOrError<uint64_t> blockA = target::wgmmaMNDescriptorDelta(
          target::OperandMajor::K, swizzleA, *element, lhs.getShape()[0],
          mb * kMmaRows);
      if (!blockA)
        return op.emitError() << "convert-cta-to-nvvm: " << blockA.error();
      Value dA = add(descA, i64(*stepA + *blockA));
      Value fragment = getFragment(acc, accType, mb);
      Value result = NVVM::WgmmaMmaAsyncOp::create(
          b, loc, fragment.getType(), fragment, dA, dB, mmaShape, wgmmaType,
          wgmmaType, NVVM::WGMMATypes::f32, NVVM::WGMMAScaleOut::one,
          NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one,
          NVVM::MMALayout::row, NVVM::MMALayout::col, nullptr);
      acc = setFragment(acc, accType, result, mb);
    }
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  map.map(op.getResult(), acc);
  return success();
}

FailureOr<Value> Sm90Lowering::extentOf(Value memref, unsigned axis) {
  auto arg = llvm::cast<BlockArgument>(memref);
  auto shape =
      program.getArgAttrOfType<ArrayAttr>(arg.getArgNumber(), "cta.shape");
  if (!shape || axis >= shape.size())
    return failure();
  StringRef dim = llvm::cast<StringAttr>(shape[axis]).getValue();
  int64_t constant;
  if (!dim.getAsInteger(10, constant))
    return i32(constant);
  for (unsigned i = 0; i < program.getNumArguments(); ++i)
    if (auto name = program.getArgAttrOfType<StringAttr>(i, "cta.dim"))
      if (name.getValue() == dim)
        return toI32(map.lookup(program.getBody().getArgument(i)));
  return failure();
}

FailureOr<SmallVector<Value>> Sm90Lowering::applyEpilogue(cta::StoreOp op,
                                                          ValueRange accs) {
  Block &epilogue = op.getEpilogue().front();
  auto accType = llvm::cast<cta::AccType>(op.getAccs()[0].getType());
  int64_t perFragment = accType.getShape()[1] / 2;
  // Values the epilogue uses from outside (constants hoisted by
  // canonicalization) are already lowered; every element reuses them.
  SmallVector<Value> outside;
  epilogue.walk([&](Operation *inner) {
    for (Value operand : inner->getOperands())
      if (!op.getEpilogue().isAncestor(operand.getParentRegion()) &&
          !llvm::is_contained(outside, operand))
        outside.push_back(operand);
  });
  SmallVector<Value> values;
  for (int64_t i = 0, e = fragments(accType) * perFragment; i < e; ++i) {
    IRMapping element;
    for (Value value : outside) {
      if (!map.contains(value))
        return op.emitError("convert-cta-to-nvvm: the epilogue uses a value "
                            "that was not lowered");
      element.map(value, map.lookup(value));
    }
    for (auto [arg, acc] : llvm::zip(epilogue.getArguments(), accs))
      element.map(arg,
                  getElement(acc, accType, i / perFragment, i % perFragment));
    for (Operation &inner : epilogue.without_terminator()) {
      if (inner.getNumRegions() != 0)
        return inner.emitError(
            "convert-cta-to-nvvm: epilogue ops must be scalar");
      b.clone(inner, element);
    }
    values.push_back(element.lookup(
        llvm::cast<cta::YieldOp>(epilogue.getTerminator()).getValues()[0]));
  }
  return values;
}

void Sm90Lowering::storeTileThroughStaging(cta::StoreOp op,
                                           ArrayRef<Value> values, Value row0,
                                           Value col0) {
  const StoreArgs &args = abi.storeArgs.lookup(op);
  const TensorMapPlan &plan = abi.tensorMaps[args.tensorMap];
  cta::BufferType staging = op.getStaging().getType();
  auto accType = llvm::cast<cta::AccType>(op.getAccs()[0].getType());
  int64_t rows = accType.getShape()[0], n = accType.getShape()[1];
  int64_t span = spanBytes(staging);
  int64_t elementBytes = bitsOf(staging.getElementType()) / 8;
  int64_t swizzleMask = span / 16 - 1;
  // The tile is stored one column block (one TMA box) at a time through a
  // ring of the staging buffer's blocks, so staging needs only a couple of
  // blocks of shared memory while earlier blocks are still being copied out.
  int64_t blockColumns = span / elementBytes;
  int64_t tileBlocks = n / blockColumns;
  int64_t ringBlocks = staging.getShape()[1] / blockColumns;
  int64_t blockBytes = rows * span;
  Value lane = urem(tid, i32(kWarpgroupThreads));
  Value warp = udiv(lane, i32(32)), l = urem(lane, i32(32));
  Value leader = eq(lane, i32(0));
  Value barrierId = add(roleWarpgroup, i32(1));
  auto syncWarpgroup = [&] {
    NVVM::BarrierOp::create(b, loc, Type(), barrierId, i32(kWarpgroupThreads),
                            nullptr, Value());
  };
  Value slot =
      op.getStagingSlot() ? toI32(map.lookup(op.getStagingSlot())) : i32(0);
  Value base = bytePtr(map.lookup(op.getStaging()),
                       mul(slot, i32(staging.getStageBytes())));
  Value tensorMap = func.getArgument(args.tensorMap);

  // Byte offset of (row, byte column) inside one swizzled staging block.
  auto swizzled = [&](Value row, Value colBytes) {
    Value offset = add(mul(row, i32(span)), colBytes);
    if (swizzleMask == 0)
      return offset;
    Value phase = andI(lshr(offset, i32(7)), i32(swizzleMask));
    return xorI(offset, shl(phase, i32(4)));
  };
  auto pack = [&](Value lo, Value hi) -> Value {
    Value pair = LLVM::UndefOp::create(
        b, loc, VectorType::get({2}, staging.getElementType()));
    pair = LLVM::InsertElementOp::create(b, loc, pair, lo, i32(0));
    pair = LLVM::InsertElementOp::create(b, loc, pair, hi, i32(1));
    return pair;
  };

  int64_t fragments = rows / kMmaRows;
  int64_t perFragment = n / 2;
  // stmatrix.x4 lane addressing (16x16 block): row 16w + 8((l/8)%2) + l%8,
  // column 8 * (l/16); 32-bit outputs store fragment pairs directly.
  Value stRow =
      add(mul(warp, i32(16)),
          add(mul(urem(udiv(l, i32(8)), i32(2)), i32(8)), urem(l, i32(8))));
  Value stColBytes = mul(udiv(l, i32(16)), i32(8 * elementBytes));
  Value pairRow = add(mul(warp, i32(16)), udiv(l, i32(4)));
  Value pairColBytes = mul(urem(l, i32(4)), i32(2 * elementBytes));

  for (int64_t block = 0; block < tileBlocks; ++block) {
    Value buffer = bytePtr(base, (block % ringBlocks) * blockBytes);
    // The bulk store that last read this ring slot must be done reading.
    ifThen(leader, [&] {
      NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, ringBlocks - 1,
                                           b.getUnitAttr());
    });
    syncWarpgroup();
    for (int64_t m = 0; m < fragments; ++m) {
      if (elementBytes == 2) {
        Value row = add(stRow, i32(m * kMmaRows));
        for (int64_t jj = 0; jj < blockColumns / 16; ++jj) {
          int64_t column =
              block * blockColumns + 16 * jj; // first column of the 16x16
          int64_t first = m * perFragment + column / 2; // its first packed pair
          SmallVector<Value> regs;
          for (int64_t q = 0; q < 4; ++q)
            regs.push_back(LLVM::BitcastOp::create(
                b, loc, i32Type(),
                pack(values[first + 2 * q], values[first + 2 * q + 1])));
          Value offset =
              swizzled(row, add(i32(16 * jj * elementBytes), stColBytes));
          NVVM::StMatrixOp::create(
              b, loc, bytePtr(buffer, offset), regs, NVVM::MMALayout::row,
              NVVM::LdStMatrixShapeAttr::get(b.getContext(), 8, 8),
              NVVM::LdStMatrixEltType::B16);
        }
      } else {
        for (int64_t c8 = 0; c8 < blockColumns / 8; ++c8) {
          int64_t column = block * blockColumns + 8 * c8;
          for (int64_t half = 0; half < 2; ++half) {
            int64_t i = (column / 8) * 4 +
                        2 * half; // fragment register of (r0 + 8*half, col)
            Value row = add(pairRow, i32(m * kMmaRows + 8 * half));
            Value offset =
                swizzled(row, add(i32(8 * c8 * elementBytes), pairColBytes));
            LLVM::StoreOp::create(b, loc,
                                  pack(values[m * perFragment + i],
                                       values[m * perFragment + i + 1]),
                                  bytePtr(buffer, offset), /*alignment=*/8);
          }
        }
      }
    }
    // Generic-proxy writes must be visible to the bulk copy (async proxy).
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    syncWarpgroup();
    ifThen(leader, [&] {
      SmallVector<Value> coords = {add(col0, i32(block * plan.boxes.box[0])),
                                   row0};
      NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
          b, loc, tensorMap, buffer, coords, Value(), NVVM::TMAStoreMode::TILE,
          Value());
      NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    });
  }
}

LogicalResult Sm90Lowering::storeTileDirect(cta::StoreOp op,
                                            ArrayRef<Value> values, Value row0,
                                            Value col0) {
  const StoreArgs &args = abi.storeArgs.lookup(op);
  FailureOr<Value> extentM = extentOf(op.getDest(), 0),
                   extentN = extentOf(op.getDest(), 1);
  if (failed(extentM) || failed(extentN))
    return op.emitError(
        "convert-cta-to-nvvm: the destination's extents are unknown");
  auto accType = llvm::cast<cta::AccType>(op.getAccs()[0].getType());
  int64_t n = accType.getShape()[1];
  Type element =
      llvm::cast<MemRefType>(op.getDest().getType()).getElementType();
  Value pointer = func.getArgument(args.pointer);
  Value stride = func.getArgument(args.rowStride);
  Value lane = urem(tid, i32(kWarpgroupThreads));
  Value warp = udiv(lane, i32(32)), l = urem(lane, i32(32));
  Value laneRow = add(row0, add(mul(warp, i32(16)), udiv(l, i32(4))));
  Value laneCol = add(col0, mul(urem(l, i32(4)), i32(2)));
  int64_t perBlock = n / 2;
  for (int64_t mb = 0; mb < accType.getShape()[0] / kMmaRows; ++mb) {
    for (int64_t i = 0; i < perBlock; ++i) {
      Value row = add(laneRow, i32(mb * kMmaRows + 8 * ((i / 2) % 2)));
      Value col = add(laneCol, i32(8 * (i / 4) + (i % 2)));
      Value inside = arith::AndIOp::create(
          b, loc, cmp(arith::CmpIPredicate::ult, row, *extentM),
          cmp(arith::CmpIPredicate::ult, col, *extentN));
      Value value = values[mb * perBlock + i];
      ifThen(inside, [&] {
        Value wideRow = arith::ExtUIOp::create(b, loc, b.getI64Type(), row);
        Value wideCol = arith::ExtUIOp::create(b, loc, b.getI64Type(), col);
        Value index = arith::AddIOp::create(
            b, loc, arith::MulIOp::create(b, loc, wideRow, stride), wideCol);
        Value address = LLVM::GEPOp::create(b, loc, pointer.getType(), element,
                                            pointer, ValueRange{index});
        LLVM::StoreOp::create(b, loc, value, address);
      });
    }
  }
  return success();
}

LogicalResult Sm90Lowering::lowerStore(cta::StoreOp op) {
  if (!inConsumerRole)
    return op.emitError("convert-cta-to-nvvm: stores run in the consumer role");
  if (!abi.storeArgs.count(op))
    return op.emitError(
        "convert-cta-to-nvvm: a store without planned arguments");
  auto accType = llvm::cast<cta::AccType>(op.getAccs()[0].getType());
  if (accType.getShape()[0] % kMmaRows != 0 || accType.getShape()[1] % 16 != 0)
    return op.emitError(
        "convert-cta-to-nvvm: stored tiles must be multiples of 64x16");
  SmallVector<Value> accs;
  for (Value acc : op.getAccs())
    accs.push_back(map.lookup(acc));
  FailureOr<SmallVector<Value>> values = applyEpilogue(op, accs);
  if (failed(values))
    return failure();
  Value row0 = toI32(map.lookup(op.getIndices()[0]));
  Value col0 = toI32(map.lookup(op.getIndices()[1]));

  // A bulk store needs a tensor map, which the runtime can only encode for
  // 16-byte-aligned rows; otherwise write the fragment directly.
  const StoreArgs &args = abi.storeArgs.lookup(op);
  Value tmaOk = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      func.getArgument(args.tmaOk), i32(0));
  auto branch = scf::IfOp::create(b, loc, tmaOk, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  storeTileThroughStaging(op, *values, row0, col0);
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  return storeTileDirect(op, *values, row0, col0);
}

} // namespace

LogicalResult kiln::lowerProgramToSm90(cta::ProgramOp program,
                                       const KernelABI &abi,
                                       LLVM::LLVMFuncOp func,
                                       LLVM::GlobalOp smem) {
  return Sm90Lowering(program, abi, func, smem).run();
}
