//===- CtaToNVVMCommon.cpp - cta lowering patterns every chip shares ------===//
//
// What a thread block does the same way on sm_90a and sm_100a: the program
// becomes the kernel's body; buffers are 1024-byte-aligned slices of the
// dynamic shared-memory window; a ring is a pair of mbarriers per stage
// driven by the parity protocol; a producer fills stages with TMA copies
// (multicast within a cluster); the tile walk is a loop over the CTA's tiles
// in grouped raster order; warp roles are branches on the warp index with
// their register budgets. Where accumulators live, how MMAs consume a stage
// and how accumulators reach memory differ by chip (CtaToSm90.cpp,
// CtaToSm100.cpp).
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"
#include "compiler/Conversion/CtaToNVVM/TileStore.h"

#include "llvm/ADT/TypeSwitch.h"

#include <limits>

using namespace mlir;
using namespace kiln;

void Emitter::initBarrierPairs(Value ring, int64_t stages,
                               int64_t fullArrivals, int64_t emptyArrivals) {
  // Each value is named before it is used: C++ leaves the order of a call's
  // arguments to the compiler, and gcc- and clang-built Kiln must emit the
  // same IR.
  ifThen(isThread(0), [&] {
    Value empties = i32(emptyArrivals);
    for (int64_t s = 0; s < stages; ++s) {
      Value fulls = i32(fullArrivals);
      Value full = barrier(ring, i32(s), stages, false);
      NVVM::MBarrierInitOp::create(b, loc, full, fulls, Value());
      Value empty = barrier(ring, i32(s), stages, true);
      NVVM::MBarrierInitOp::create(b, loc, empty, empties, Value());
    }
    NVVM::FenceMbarrierInitOp::create(b, loc);
  });
}

Value Emitter::inlineAsm(Type result, ValueRange operands, StringRef text,
                         StringRef constraints) {
  return LLVM::InlineAsmOp::create(
             b, loc, result, operands, text, constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::tailcallkind::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}

Value Emitter::warpgroupLaneHere() {
  Value read = inlineAsm(i32Type(), ValueRange{}, "mov.u32 $0, %tid.x;", "=r");
  Value threads = i32(kWarpgroupThreads);
  return urem(read, threads);
}

Value Emitter::opaque(Value v) {
  bool wide = v.getType().isInteger(64);
  return inlineAsm(v.getType(), ValueRange{v},
                   wide ? "mov.b64 $0, $1;" : "mov.b32 $0, $1;",
                   wide ? "=l,l" : "=r,r");
}

void kiln::inlineRegionWithoutTerminator(ConversionPatternRewriter &rewriter,
                                         Region &region, Operation *before,
                                         ValueRange args) {
  Block &block = region.front();
  Operation *terminator = block.getTerminator();
  rewriter.inlineBlockBefore(&block, before, args);
  rewriter.eraseOp(terminator);
}

void kiln::addCommonTypeConversions(TypeConverter &converter) {
  converter.addConversion([](Type type) { return type; });
  converter.addConversion([](cta::BufferType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 3);
  });
  converter.addConversion([](cta::RingType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 3);
  });
  converter.addConversion([](MemRefType type) -> Type {
    return LLVM::LLVMPointerType::get(type.getContext(), 1);
  });
}

Value kiln::combineTree(Emitter &e, cta::ReduceKind kind,
                        SmallVector<Value> values) {
  bool max = kind == cta::ReduceKind::max;
  auto combine = [&](Value a, Value b) -> Value {
    return max ? arith::MaximumFOp::create(e.b, e.loc, a, b).getResult()
               : arith::AddFOp::create(e.b, e.loc, a, b).getResult();
  };
  while (values.size() > 1) {
    SmallVector<Value> next;
    for (size_t k = 0; k + 1 < values.size(); k += 2)
      next.push_back(combine(values[k], values[k + 1]));
    if (values.size() % 2)
      next.push_back(values.back());
    values = std::move(next);
  }
  return values.front();
}

Value kiln::reductionIdentity(Emitter &e, cta::ReduceKind kind) {
  return arith::ConstantOp::create(
      e.b, e.loc,
      e.b.getF32FloatAttr(kind == cta::ReduceKind::max
                              ? -std::numeric_limits<float>::infinity()
                              : 0.0f));
}

SmallVector<Value> kiln::reduceScatterLanes(Emitter &e, cta::ReduceKind kind,
                                            SmallVector<Value> values,
                                            ArrayRef<unsigned> masks,
                                            Value lane) {
  Value all = e.i32(-1), clamp = e.i32(0x1f);
  for (unsigned mask : masks) {
    size_t half = values.size() / 2;
    // A lane whose bit is set keeps the upper half.
    Value upper = e.cmp(arith::CmpIPredicate::ne, e.andI(lane, e.i32(mask)),
                        e.i32(0));
    SmallVector<Value> kept;
    for (size_t j = 0; j < half; ++j) {
      Value keep = arith::SelectOp::create(e.b, e.loc, upper,
                                           values[half + j], values[j]);
      Value send = arith::SelectOp::create(e.b, e.loc, upper, values[j],
                                           values[half + j]);
      Value got = NVVM::ShflOp::create(e.b, e.loc, send.getType(), all, send,
                                       e.i32(mask), clamp,
                                       NVVM::ShflKind::bfly, UnitAttr());
      kept.push_back(combineTree(e, kind, {keep, got}));
    }
    values = std::move(kept);
  }
  return values;
}

Value kiln::reduceScatterFirst(Emitter &e, Value lane, ArrayRef<unsigned> masks,
                               unsigned count) {
  // target::reduceScatterFirst with the lane in a register.
  Value first = e.i32(0);
  for (unsigned mask : masks) {
    count /= 2;
    Value set = e.cmp(arith::CmpIPredicate::ne, e.andI(lane, e.i32(mask)),
                      e.i32(0));
    first = e.add(first, arith::SelectOp::create(e.b, e.loc, set,
                                                 e.i32(count), e.i32(0)));
  }
  return first;
}

namespace {

/// The program's body becomes the kernel's: global tensors are replaced by
/// their base pointers (null where the kernel only reaches them through
/// tensor maps) and dims by the i32 parameters.
struct ProgramLowering : public AbiPattern<cta::ProgramOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::ProgramOp program, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(program);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(program);
    Block *entry = &kernel.getBody().front();
    rewriter.setInsertionPointToEnd(entry);
    Emitter e(rewriter, program.getLoc());
    SmallVector<Value> args;
    for (BlockArgument arg : program.getBody().getArguments()) {
      unsigned index = arg.getArgNumber();
      if (llvm::isa<MemRefType>(arg.getType())) {
        auto pointer = abi.pointerArgs.find(index);
        args.push_back(pointer != abi.pointerArgs.end()
                           ? Value(kernel.getArgument(pointer->second.pointer))
                           : LLVM::ZeroOp::create(
                                 rewriter, program.getLoc(),
                                 LLVM::LLVMPointerType::get(getContext(), 1)));
      } else {
        args.push_back(
            e.toIndex(kernel.getArgument(abi.dimArgs.lookup(index))));
      }
    }
    rewriter.inlineBlockBefore(&program.getBody().front(), entry, entry->end(),
                               args);
    rewriter.eraseOp(program);
    return success();
  }
};

struct ReturnLowering : public OpConversionPattern<cta::ReturnOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ReturnOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::ReturnOp>(op, ValueRange{});
    return success();
  }
};

/// A cta.yield that ended up in an scf loop or branch becomes scf.yield.
struct YieldLowering : public OpConversionPattern<cta::YieldOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::YieldOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (!llvm::isa<scf::ForOp, scf::IfOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "not inside an scf op");
    rewriter.replaceOpWithNewOp<scf::YieldOp>(op, adaptor.getValues());
    return success();
  }
};

struct AllocLowering : public OpConversionPattern<cta::AllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::AllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, e.bytePtr(e.smemBase(), *op.getSmemOffset()));
    return success();
  }
};

/// Whether this CTA leads its CTA pair (the even rank of the cluster).
static Value isPairLeader(Emitter &e) {
  Value rank = NVVM::ClusterId::create(e.b, e.loc, e.i32Type());
  return e.eq(e.urem(rank, e.i32(target::ctaPairSize)), e.i32(0));
}

/// Initializes the ring's barriers (one thread); cta.warp_specialize
/// publishes them to the CTA (and its cluster) before any role uses them.
struct RingLowering : public AbiPattern<cta::RingOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::RingOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Emitter e(rewriter, op.getLoc());
    Value ring = e.bytePtr(e.smemBase(), *op.getSmemOffset());
    int64_t stages = op.getRing().getType().getStages();
    // Each CTA's MMA commit releases the stage in every CTA of the cluster;
    // in a CTA pair only the pair's leader commits.
    e.initBarrierPairs(ring, stages, 1,
                       op.getConsumers() *
                           (abi.ctaPair ? 1 : op.getClusterSize()));
    rewriter.replaceOp(op, ring);
    return success();
  }
};

/// Each role runs in its range of warps: a branch on the warp index, the
/// role's register budget (setmaxnreg), and for a producer one elected
/// thread. Roles that issue bulk stores wait for them before their warps
/// exit (the copies read shared memory).
struct WarpSpecializeLowering : public AbiPattern<cta::WarpSpecializeOp> {
  WarpSpecializeLowering(TypeConverter &converter, MLIRContext *ctx,
                         const KernelABIs &abis, const CtaResources &resources)
      : AbiPattern(converter, ctx, abis), resources(resources) {}
  CtaResources resources;

  LogicalResult
  matchAndRewrite(cta::WarpSpecializeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    bool clustered = abi.clusterSize > 1;
    auto syncAll = [&] {
      if (clustered) {
        NVVM::ClusterArriveOp::create(rewriter, loc, /*aligned=*/nullptr);
        NVVM::ClusterWaitOp::create(rewriter, loc, /*aligned=*/nullptr);
      } else {
        NVVM::Barrier0Op::create(rewriter, loc);
      }
    };
    if (resources.acquire)
      resources.acquire(e, abi);
    syncAll();
    // (Operands are named before use throughout: see Emitter::isThread.)
    Value warpThreads = e.i32(target::threadsPerWarp);
    Value warp = e.udiv(e.threadId(), warpThreads);
    const SmallVector<bool> &stores = abi.roleStores.lookup(op);
    for (unsigned i = 0; i < op.getRoles().size(); ++i) {
      cta::RoleAttr role = op.getRole(i);
      int64_t first = op.getFirstWarp(i);
      Value beforeEnd = e.ult(warp, e.i32(first + role.getWarps()));
      Value fromBegin = e.cmp(arith::CmpIPredicate::uge, warp, e.i32(first));
      Value inRole = arith::AndIOp::create(rewriter, loc, fromBegin, beforeEnd);
      auto branch = scf::IfOp::create(rewriter, loc, inRole,
                                      /*withElseRegion=*/false);
      OpBuilder::InsertionGuard guard(rewriter);
      Operation *end = branch.getThenRegion().front().getTerminator();
      rewriter.setInsertionPoint(end);
      if (role.getRegs() != 0)
        NVVM::SetMaxRegisterOp::create(
            rewriter, loc, role.getRegs(),
            role.getKind() == cta::RoleKind::producer
                ? NVVM::SetMaxRegisterAction::decrease
                : NVVM::SetMaxRegisterAction::increase);
      Operation *bodyEnd = end;
      if (role.getKind() == cta::RoleKind::producer ||
          role.getKind() == cta::RoleKind::mma) {
        // One thread issues the role's asynchronous copies or MMAs; in a
        // CTA pair the leader's MMA thread issues them for both CTAs.
        Value leader = e.isThread(first * 32);
        if (abi.ctaPair && role.getKind() == cta::RoleKind::mma)
          leader = e.andI(leader, isPairLeader(e));
        auto single = scf::IfOp::create(rewriter, loc, leader,
                                        /*withElseRegion=*/false);
        bodyEnd = single.getThenRegion().front().getTerminator();
      }
      inlineRegionWithoutTerminator(rewriter, op.getBodies()[i], bodyEnd, {});
      if (i < stores.size() && stores[i]) {
        rewriter.setInsertionPoint(end);
        Value zero = e.i32(0);
        e.ifThen(e.eq(e.warpgroupLane(), zero), [&] {
          NVVM::CpAsyncBulkWaitGroupOp::create(rewriter, loc, 0,
                                               /*read=*/nullptr);
        });
      }
    }
    if (resources.release)
      resources.release(e, abi);
    // Peers may still multicast into, or arrive on, this CTA's shared
    // memory.
    if (clustered)
      syncAll();
    rewriter.eraseOp(op);
    return success();
  }
};

/// The CTA's rank in its cluster (%cluster_ctarank).
struct ClusterRankLowering : public OpConversionPattern<cta::ClusterRankOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ClusterRankOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, e.toIndex(NVVM::ClusterId::create(rewriter, op.getLoc(),
                                              e.i32Type())));
    return success();
  }
};

struct WarpgroupIndexLowering : public OpConversionPattern<cta::WarpgroupIndexOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::WarpgroupIndexOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> first = op.getFirstWarpgroup();
    if (!first)
      return rewriter.notifyMatchFailure(op, "outside a warp role");
    Emitter e(rewriter, op.getLoc());
    Value threads = e.i32(kWarpgroupThreads);
    Value warpgroup = e.udiv(e.threadId(), threads);
    Value firstOfRole = e.i32(*first);
    rewriter.replaceOp(op, e.toIndex(e.sub(warpgroup, firstOfRole)));
    return success();
  }
};

/// An scf.for over [`lower`, `upper`) by `step` (i32 values) carrying
/// `inits`, its body empty and the builder at its start: the loop of a tile
/// walk, whose body the walk's block is inlined into.
static scf::ForOp walkLoop(ConversionPatternRewriter &rewriter, Emitter &e,
                           Value lower, Value upper, Value step,
                           ValueRange inits) {
  auto loop = scf::ForOp::create(rewriter, e.loc, e.toIndex(lower),
                                 e.toIndex(upper), e.toIndex(step), inits);
  Block *body = loop.getBody();
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  rewriter.setInsertionPointToStart(body);
  return loop;
}

/// Where this CTA's walk over cluster tiles starts, how far it steps, and
/// its rank in its cluster: cluster tile `first`, `first + stride`, ... of a
/// walk whose clusters are `clusterM` CTAs along x (one CTA each when 1;
/// with `gridZ`, over a grid's z axis too).
struct ClusterWalk {
  Value first, stride, rank;
};
static ClusterWalk clusterWalk(ConversionPatternRewriter &rewriter,
                               Emitter &e, int64_t clusterM,
                               bool gridZ = false) {
  Location loc = e.loc;
  Type i32 = e.i32Type();
  if (clusterM > 1) {
    Value gridClusters = NVVM::ClusterDimXOp::create(rewriter, loc, i32);
    Value first = e.add(
        NVVM::ClusterIdXOp::create(rewriter, loc, i32),
        e.mul(NVVM::ClusterIdYOp::create(rewriter, loc, i32), gridClusters));
    Value stride =
        e.mul(gridClusters, NVVM::ClusterDimYOp::create(rewriter, loc, i32));
    return {first, stride, NVVM::ClusterId::create(rewriter, loc, i32)};
  }
  Value gridX = NVVM::GridDimXOp::create(rewriter, loc, i32);
  Value first = e.add(NVVM::BlockIdXOp::create(rewriter, loc, i32),
                      e.mul(NVVM::BlockIdYOp::create(rewriter, loc, i32), gridX));
  Value stride = e.mul(gridX, NVVM::GridDimYOp::create(rewriter, loc, i32));
  if (gridZ) {
    first = e.add(first,
                  e.mul(NVVM::BlockIdZOp::create(rewriter, loc, i32), stride));
    stride = e.mul(stride, NVVM::GridDimZOp::create(rewriter, loc, i32));
  }
  return {first, stride, e.i32(0)};
}

/// The origin (m0, n0) of cluster tile `t` (i32) of a `clusterRows` x
/// `tilesN` raster of cluster tiles (`clusterM` row tiles of `tileM` each,
/// this CTA the `rank`-th), visited in bands of `groupM` cluster rows,
/// column by column.
static std::pair<Value, Value> rasterOrigin(Emitter &e, Value t,
                                            Value clusterRows, Value tilesN,
                                            int64_t groupM, int64_t clusterM,
                                            Value rank, int64_t tileM,
                                            int64_t tileN) {
  Value group = e.i32(groupM);
  Value groupSize = e.mul(group, tilesN);
  Value firstRow = e.mul(e.udiv(t, groupSize), group);
  Value rowsInGroup = e.minU(e.sub(clusterRows, firstRow), group);
  Value inGroup = e.urem(t, groupSize);
  Value clusterRow = e.add(firstRow, e.urem(inGroup, rowsInGroup));
  Value column = e.udiv(inGroup, rowsInGroup);
  Value m0 =
      e.mul(e.add(e.mul(clusterRow, e.i32(clusterM)), rank), e.i32(tileM));
  Value n0 = e.mul(column, e.i32(tileN));
  return {m0, n0};
}

/// The static and stream-K tile walks. Cluster c walks cluster tiles c,
/// c + #clusters, ...; a cluster tile is `cluster[0]` vertically adjacent
/// CTA tiles sharing n0. Persistent grids have at most one CTA per SM;
/// one-tile-per-CTA grids have one cluster per cluster tile, so the same
/// loop runs once (kept as a loop: ptxas pipelines wgmma inside it, see
/// C7514). Cluster tiles are visited in bands of `group_m` cluster rows,
/// column by column, so CTAs running at the same time reuse each other's
/// operand tiles in L2.
///
/// Stream-K, T cluster tiles of kt K steps on G clusters: when T is not a
/// multiple of G, the last (T mod G) + G tiles would leave SMs idle in a
/// partial last wave. Their K steps are split instead into G equal
/// contiguous runs, one per cluster, walked after the whole tiles (which
/// are walked as above). A run is at least kt steps long, so a tile is
/// split at most once: its first part is the last unit of cluster c, its
/// second part the first unit of cluster c + 1, and slot c of the workspace
/// carries the second part's sums to the first (cta.stream_k_join).
///
/// Stream-K in halves (`halves`, split-K of a partial last wave): the last
/// T mod G tiles, when there are at most G / 2 of them, are cut into two K
/// halves; clusters 2i and 2i + 1 take the halves of the i-th after their
/// whole tiles, so all halves run at the same time: clusters that read the
/// same operand tiles read the same K steps together, as in a wave of whole
/// tiles, and L2 keeps serving them (runs start at a different K step on
/// every cluster). Slot i of the workspace is where the halves meet.
struct TileLoopLowering : public OpConversionPattern<cta::TileLoopOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::TileLoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    bool streamK = op.getWalk() == cta::WalkKind::stream_k;
    if (op.getWalk() != cta::WalkKind::static_ && !streamK)
      return rewriter.notifyMatchFailure(op, "only static and stream-K walks");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    int64_t tileM = op.getTileSizes()[0], tileN = op.getTileSizes()[1];
    int64_t clusterM = op.getCluster() ? (*op.getCluster())[0] : 1;
    Value m = e.toI32(adaptor.getExtents()[0]);
    Value n = e.toI32(adaptor.getExtents()[1]);
    Value tilesM = e.ceilDiv(m, e.i32(tileM));
    Value tilesN = e.ceilDiv(n, e.i32(tileN));
    Value clusterRows = e.ceilDiv(tilesM, e.i32(clusterM));
    Value total = e.mul(clusterRows, tilesN);
    Type i32 = e.i32Type();
    auto [first, stride, rank] = clusterWalk(rewriter, e, clusterM);

    Type i64 = rewriter.getI64Type();
    auto wide = [&](Value v) -> Value {
      return arith::ExtUIOp::create(rewriter, loc, i64, v);
    };
    auto narrow = [&](Value v) -> Value {
      return arith::TruncIOp::create(rewriter, loc, i32, v);
    };
    auto select = [&](Value c, Value a, Value b) -> Value {
      return arith::SelectOp::create(rewriter, loc, c, a, b);
    };
    // Static: units are tiles first, first + stride, ... < total.
    Value lower = first, upper = total, step = stride;
    // Stream-K: units are this cluster's whole tiles, then the parts of its
    // run (K steps in 64-bit: a run spans up to 2 * #clusters tiles).
    Value kSteps, wholeTiles, wholeCount, runBegin, runEnd, kt64, runTile0,
        runTileLast;
    // This cluster's whole tiles among the first `whole`: first, first +
    // stride, ...
    // (Structured bindings are captured through copies: C++17.)
    auto countWhole = [&, c = first, g = stride](Value whole) {
      Value ahead = e.sub(whole, c);
      Value lastOffset = e.sub(ahead, e.i32(1));
      Value count = e.add(e.udiv(lastOffset, g), e.i32(1));
      Value any = e.ult(c, whole);
      return select(any, count, e.i32(0));
    };
    bool halves = streamK && op.getHalves();
    Value halfSteps, upperHalf, halfSlot;
    if (streamK)
      kSteps = e.ceilDiv(e.toI32(adaptor.getExtents()[2]),
                         e.i32(op.getTileSizes()[2]));
    if (halves) {
      // Split when the partial last wave's tiles fit two clusters each and
      // the half round saved outweighs the join (kt - kt / 2 > join steps).
      // (One op per statement: the IR's order does not depend on the C++
      // compiler's order of evaluating arguments.)
      Value rem = e.urem(total, stride);
      Value hasTail = e.cmp(arith::CmpIPredicate::ne, rem, e.i32(0));
      // Two clusters per split tile (so the manifest's rule says
      // target::streamKHalvesMaxTailPercent = 50).
      Value halvesTaken = e.mul(rem, e.i32(2));
      Value fits = e.cmp(arith::CmpIPredicate::ule, halvesTaken, stride);
      halfSteps = e.udiv(kSteps, e.i32(2));
      Value saved = e.sub(kSteps, halfSteps);
      Value joinPays = e.cmp(arith::CmpIPredicate::ugt, saved,
                             e.i32(target::streamKJoinSteps));
      Value split = e.andI(e.andI(hasTail, fits), joinPays);
      Value tail = select(split, rem, e.i32(0));
      wholeTiles = e.sub(total, tail);
      wholeCount = countWhole(wholeTiles);
      Value hasHalf = e.andI(split, e.ult(first, halvesTaken));
      Value halfUnits = arith::ExtUIOp::create(rewriter, loc, i32, hasHalf);
      lower = e.i32(0);
      upper = e.add(wholeCount, halfUnits);
      step = e.i32(1);
      Value parity = e.urem(first, e.i32(2));
      upperHalf = e.eq(parity, e.i32(1));
      halfSlot = e.udiv(first, e.i32(2));
    } else if (streamK) {
      // Split when there is at least one full wave and a partial last one
      // of at most target::streamKMaxTailPercent of a wave, and the rounds
      // the split saves outweigh the join: kt * (G - rem) > join * G (a
      // join is a fixed time: tiles of few K steps are left whole).
      Value rem = e.urem(total, stride);
      Value smallTail =
          e.cmp(arith::CmpIPredicate::ule, e.mul(wide(rem), wide(e.i32(100))),
                e.mul(wide(stride), wide(e.i32(target::streamKMaxTailPercent))));
      Value joinPays = e.cmp(
          arith::CmpIPredicate::ugt,
          e.mul(wide(kSteps), wide(e.sub(stride, rem))),
          e.mul(wide(stride), wide(e.i32(target::streamKJoinSteps))));
      Value split = e.andI(
          e.andI(e.andI(e.cmp(arith::CmpIPredicate::ne, rem, e.i32(0)),
                        smallTail),
                 e.cmp(arith::CmpIPredicate::uge, total, stride)),
          joinPays);
      Value runTiles = select(split, e.add(rem, stride), e.i32(0));
      wholeTiles = e.sub(total, runTiles);
      wholeCount = countWhole(wholeTiles);
      Value steps = e.mul(wide(runTiles), wide(kSteps));
      Value c = wide(first), g = wide(stride), one = wide(e.i32(1));
      runBegin = e.udiv(e.mul(c, steps), g);
      runEnd = e.udiv(e.mul(e.add(c, one), steps), g);
      Value nonEmpty = e.ult(runBegin, runEnd);
      // (The divisor stays nonzero; an empty run has no parts.)
      kt64 = select(nonEmpty, wide(kSteps), one);
      runTile0 = e.udiv(runBegin, kt64);
      runTileLast = e.udiv(e.sub(select(nonEmpty, runEnd, one), one), kt64);
      Value parts = select(
          nonEmpty, narrow(e.add(e.sub(runTileLast, runTile0), one)),
          e.i32(0));
      lower = e.i32(0);
      upper = e.add(wholeCount, parts);
      step = e.i32(1);
    }
    scf::ForOp loop =
        walkLoop(rewriter, e, lower, upper, step, adaptor.getInits());
    Block *body = loop.getBody();
    Value t = e.toI32(loop.getInductionVar());
    SmallVector<Value> kArgs;
    // A part's K range [kb, ke) in steps as elements (the last step may
    // end past K), and its workspace slot.
    auto partArgs = [&](Value kb, Value ke, Value slot) {
      Value tileK = e.index(op.getTileSizes()[2]);
      Value kBegin = e.mul(e.toIndex(kb), tileK);
      Value kEndSteps = e.mul(e.toIndex(ke), tileK);
      Value kEnd = e.minU(kEndSteps, adaptor.getExtents()[2]);
      return SmallVector<Value>{kBegin, kEnd, e.toIndex(slot)};
    };
    if (halves) {
      // Whole tiles first, then this cluster's half (the lower half's part
      // starts at K step 0, as a first part does; the upper half's after).
      Value isWhole = e.ult(t, wholeCount);
      Value zero = e.i32(0);
      Value halfBegin = select(upperHalf, halfSteps, zero);
      Value kb = select(isWhole, zero, halfBegin);
      Value halfEnd = select(upperHalf, kSteps, halfSteps);
      Value ke = select(isWhole, kSteps, halfEnd);
      Value offset = e.mul(t, stride);
      Value wholeTile = e.add(first, offset);
      Value halfTile = e.add(wholeTiles, halfSlot);
      t = select(isWhole, wholeTile, halfTile);
      kArgs = partArgs(kb, ke, halfSlot);
    } else if (streamK) {
      Value u = t;
      Value isWhole = e.ult(u, wholeCount);
      Value isPart = e.cmp(arith::CmpIPredicate::uge, u, wholeCount);
      Value runTile = e.add(runTile0, wide(e.sub(u, wholeCount)));
      t = select(isWhole, e.add(first, e.mul(u, stride)),
                 e.add(wholeTiles, narrow(runTile)));
      Value one = wide(e.i32(1));
      Value kb = select(
          e.andI(isPart, e.eq(runTile, runTile0)),
          narrow(e.urem(runBegin, kt64)), e.i32(0));
      Value ke = select(
          e.andI(isPart, e.eq(runTile, runTileLast)),
          narrow(e.add(e.urem(e.sub(runEnd, one), kt64), one)), kSteps);
      // A second part (it starts inside its tile) meets the first part in
      // the previous cluster's slot.
      Value partial = select(e.cmp(arith::CmpIPredicate::ne, kb, e.i32(0)),
                             e.sub(first, e.i32(1)), first);
      kArgs = partArgs(kb, ke, partial);
    }
    auto [m0, n0] = rasterOrigin(e, t, clusterRows, tilesN, op.getGroupM(),
                                 clusterM, rank, tileM, tileN);
    SmallVector<Value> args = {e.toIndex(m0), e.toIndex(n0)};
    llvm::append_range(args, kArgs);
    llvm::append_range(args, loop.getRegionIterArgs());
    rewriter.inlineBlockBefore(&op.getBody().front(), body, body->end(), args);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// The loop over units [0, `total`) that this CTA takes: every stride-th
/// unit from its linear block index over the whole grid (a `tiles` launch
/// spreads the first three axes' counts over x, y and z), carrying `inits`;
/// the builder is left at the start of its empty body.
static scf::ForOp unitLoop(ConversionPatternRewriter &rewriter, Emitter &e,
                           Value total, ValueRange inits) {
  Location loc = e.loc;
  Type i32 = e.i32Type();
  Value gridX = NVVM::GridDimXOp::create(rewriter, loc, i32);
  Value gridXY = e.mul(gridX, NVVM::GridDimYOp::create(rewriter, loc, i32));
  Value first = e.add(
      e.add(NVVM::BlockIdXOp::create(rewriter, loc, i32),
            e.mul(NVVM::BlockIdYOp::create(rewriter, loc, i32), gridX)),
      e.mul(NVVM::BlockIdZOp::create(rewriter, loc, i32), gridXY));
  Value stride = e.mul(gridXY, NVVM::GridDimZOp::create(rewriter, loc, i32));
  return walkLoop(rewriter, e, first, total, stride, inits);
}

/// A batched walk (attention): one unit per (leading index..., row tile,
/// column tile) of extents E_0..E_n-1 in tiles t_0..t_n-1, walked by the
/// CTAs of the grid in order of their linear block index, each taking every
/// stride-th unit; row tiles run backwards. By default the tile axes vary
/// fastest, so the CTAs running at once share the operands of few batch
/// entries in L2 (non-causal attention at 1k-16k keys: 1.05-1.2x over
/// leading axes fastest). `longest_first` makes the row tiles vary slowest:
/// under a causal mask the last row tiles see the most keys, so every wave
/// takes units of about equal length, longest first (with row tiles
/// fastest, a stride near a multiple of the row tiles per head gave some
/// CTAs three times the work of others: causal 16k ran at 262 TFLOP/s
/// instead of 354 on an H100).
struct BatchedTileLoopLowering
    : public OpConversionPattern<cta::TileLoopOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::TileLoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getWalk() != cta::WalkKind::batched)
      return rewriter.notifyMatchFailure(op, "only batched walks");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    SmallVector<Value> counts;
    Value total = e.i32(1);
    for (auto [extent, tile] :
         llvm::zip(adaptor.getExtents(), op.getTileSizes())) {
      counts.push_back(e.ceilDiv(e.toI32(extent), e.i32(tile)));
      total = e.mul(total, counts.back());
    }
    int64_t clusterM = op.getCluster() ? (*op.getCluster())[0] : 1;
    if (!op.getLongestFirst() && (op.getGroupM() > 1 || clusterM > 1))
      return rasterWalk(op, adaptor, rewriter, e, counts, clusterM);
    scf::ForOp loop = unitLoop(rewriter, e, total, adaptor.getInits());
    Block *body = loop.getBody();
    Value rest = e.toI32(loop.getInductionVar());
    size_t axes = counts.size();
    SmallVector<Value> args(axes);
    size_t rowAxis = axes - 2;
    if (Value band = adaptor.getBand()) {
      // Bands of n leading entries, one after the other: within band b the
      // row tiles vary slowest (longest first in the last band and every
      // second one before it, shortest first in the others), the band's
      // entries faster, the column tiles fastest; the last band may hold
      // fewer entries.
      Value columns = counts[axes - 1];
      args[axes - 1] = e.toIndex(
          e.mul(e.urem(rest, columns), e.i32(op.getTileSizes()[axes - 1])));
      rest = e.udiv(rest, columns);
      Value entries = e.i32(1);
      for (size_t axis = 0; axis < rowAxis; ++axis)
        entries = e.mul(entries, counts[axis]);
      Value rows = counts[rowAxis];
      // Bands of equal size, at most `band` entries: a short last band
      // would leave most CTAs idle at its end (grouped-query attention at
      // 16 x 1024 ran 0.94x with bands of 400 and 112 entries). (Through
      // opaque copies: the band's arithmetic is redone per unit, not hoisted
      // into registers live across the walk, where attention's math
      // warpgroups have none to spare.)
      Value all = e.opaque(entries);
      Value most = e.minU(arith::MaxUIOp::create(
                              rewriter, loc, e.opaque(e.toI32(band)), e.i32(1)),
                          all);
      Value n = e.ceilDiv(all, e.ceilDiv(all, most));
      Value bandUnits = e.mul(n, rows);
      Value b = e.udiv(rest, bandUnits);
      Value bandFirst = e.mul(b, n);
      Value size = e.minU(n, e.sub(all, bandFirst));
      Value within = e.sub(rest, e.mul(b, bandUnits));
      Value step = e.udiv(within, size);
      Value entry = e.add(bandFirst, e.urem(within, size));
      // The last band runs longest first, so that the walk ends with its
      // shortest units (ending on the longest left one 128-block unit
      // running after the others at 16k: causal 0.56x the non-causal time).
      Value bands = e.ceilDiv(all, n);
      Value one = e.i32(1);
      Value fromLast = e.sub(e.sub(bands, one), b);
      Value parity = e.andI(fromLast, one);
      Value zero = e.i32(0);
      Value even = e.eq(parity, zero);
      Value row = arith::SelectOp::create(
          rewriter, loc, even, e.sub(e.sub(rows, e.i32(1)), step), step);
      args[rowAxis] = e.toIndex(e.mul(row, e.i32(op.getTileSizes()[rowAxis])));
      for (size_t axis = rowAxis; axis-- > 0;) {
        Value index = axis == 0 ? entry : e.urem(entry, counts[axis]);
        entry = e.udiv(entry, counts[axis]);
        args[axis] = e.toIndex(e.mul(index, e.i32(op.getTileSizes()[axis])));
      }
    } else {
      // Fastest first: the column tiles, then (longest first) the leading
      // axes innermost first and the row tiles, or the row tiles and the
      // leading axes. The last axis takes the remaining quotient.
      SmallVector<size_t> order = {axes - 1};
      if (!op.getLongestFirst())
        order.push_back(rowAxis);
      for (size_t axis = rowAxis; axis-- > 0;)
        order.push_back(axis);
      if (op.getLongestFirst())
        order.push_back(rowAxis);
      for (auto [position, axis] : llvm::enumerate(order)) {
        Value index = rest;
        if (position + 1 < order.size()) {
          index = e.urem(rest, counts[axis]);
          rest = e.udiv(rest, counts[axis]);
        }
        if (axis == rowAxis)
          index = e.sub(e.sub(counts[axis], e.i32(1)), index);
        args[axis] = e.toIndex(e.mul(index, e.i32(op.getTileSizes()[axis])));
      }
    }
    llvm::append_range(args, loop.getRegionIterArgs());
    rewriter.inlineBlockBefore(&op.getBody().front(), body, body->end(), args);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }

private:
  /// A batched matmul's walk (`group_m` or clusters): each batch entry's
  /// tiles as a static walk's (bands of `group_m` cluster rows, column by
  /// column; `cluster[0]` adjacent row tiles per cluster, sharing n0), the
  /// entries one after the other, so CTAs running at once share operand
  /// tiles of one entry in L2 and a cluster can multicast its rhs tile.
  LogicalResult rasterWalk(cta::TileLoopOp op, OpAdaptor adaptor,
                           ConversionPatternRewriter &rewriter, Emitter &e,
                           ArrayRef<Value> counts, int64_t clusterM) const {
    size_t axes = counts.size(), rowAxis = axes - 2;
    Value entries = e.i32(1);
    for (size_t axis = 0; axis < rowAxis; ++axis)
      entries = e.mul(entries, counts[axis]);
    Value tilesN = counts[axes - 1];
    Value clusterRows = e.ceilDiv(counts[rowAxis], e.i32(clusterM));
    Value perEntry = e.mul(clusterRows, tilesN);
    Value total = e.mul(entries, perEntry);
    // (A one-unit-per-CTA grid spreads the first three axes' counts over
    // x, y and z; the walk takes them as one linear index, like unitLoop.)
    auto [first, stride, rank] =
        clusterWalk(rewriter, e, clusterM, /*gridZ=*/clusterM == 1);
    scf::ForOp loop =
        walkLoop(rewriter, e, first, total, stride, adaptor.getInits());
    Block *body = loop.getBody();
    Value t = e.toI32(loop.getInductionVar());
    Value entry = e.udiv(t, perEntry);
    auto [m0, n0] = rasterOrigin(e, e.urem(t, perEntry), clusterRows, tilesN,
                                 op.getGroupM(), clusterM, rank,
                                 op.getTileSizes()[rowAxis],
                                 op.getTileSizes()[axes - 1]);
    SmallVector<Value> args(axes);
    for (size_t axis = rowAxis; axis-- > 0;) {
      Value index = axis == 0 ? entry : e.urem(entry, counts[axis]);
      entry = e.udiv(entry, counts[axis]);
      args[axis] = e.toIndex(e.mul(index, e.i32(op.getTileSizes()[axis])));
    }
    args[rowAxis] = e.toIndex(m0);
    args[axes - 1] = e.toIndex(n0);
    llvm::append_range(args, loop.getRegionIterArgs());
    rewriter.inlineBlockBefore(&op.getBody().front(), body, body->end(), args);
    rewriter.replaceOp(op, loop.getResults());
    return success();
  }
};

/// Element `index` (i32) of the rank-1 i32 program tensor `source`, read
/// through the non-coherent cache (the kernel does not write it): an index
/// past the tensor reads its last element (an empty tensor reads 0), a
/// negative element reads 0.
static Value readOffset(Emitter &e, const KernelABI &abi,
                        LLVM::LLVMFuncOp kernel, Value source, Value index) {
  unsigned arg = llvm::cast<BlockArgument>(source).getArgNumber();
  Value pointer = kernel.getArgument(abi.pointerArgs.lookup(arg).pointer);
  FailureOr<Value> extent = tensorExtent(e, abi, kernel, arg, 0);
  Value last = e.sub(*extent, e.i32(1));
  Value at = e.minU(index, last);
  Type i32 = e.i32Type();
  Value address = LLVM::GEPOp::create(
      e.b, e.loc, pointer.getType(), i32, pointer,
      ValueRange{arith::ExtUIOp::create(e.b, e.loc, e.b.getI64Type(), at)});
  Value value = LLVM::LoadOp::create(e.b, e.loc, i32, address, /*alignment=*/4,
                                     /*isVolatile=*/false,
                                     /*isNonTemporal=*/false,
                                     /*isInvariant=*/true);
  Value empty = e.eq(*extent, e.i32(0));
  value = arith::SelectOp::create(e.b, e.loc, empty, e.i32(0), value);
  return arith::MaxSIOp::create(e.b, e.loc, value, e.i32(0));
}

/// cta.read_index: readOffset.
struct ReadIndexLowering : public AbiPattern<cta::ReadIndexOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::ReadIndexOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    Value value = readOffset(e, abis.of(op), abis.kernelOf(op), op.getSource(),
                             e.toI32(adaptor.getIndex()));
    rewriter.replaceOp(op, e.toIndex(value));
    return success();
  }
};

/// cta.read_scalar: one clamped load (readF32Clamped), the same in every
/// thread.
struct ReadScalarLowering : public AbiPattern<cta::ReadScalarOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::ReadScalarOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    FailureOr<Value> value =
        readF32Clamped(e, abis.of(op), abis.kernelOf(op), op.getSource(),
                       e.toI32(adaptor.getIndices()));
    if (failed(value))
      return rewriter.notifyMatchFailure(op, "unknown source extents");
    rewriter.replaceOp(op, *value);
    return success();
  }
};

/// A grouped walk: units (virtual row tile r, leading index..., column
/// tile) of R = cdiv(T, tm) + E virtual row tiles, r varying slowest, walked
/// by the persistent CTAs in order of their linear block index, each taking
/// every stride-th unit. Group e has cdiv(max(offsets[e+1] - offsets[e],
/// 0), tm) row tiles, numbered on from those of the groups before it; as r
/// never decreases along a CTA's units, each CTA carries the group it
/// reached and the row tiles before it, and scans forward from there
/// (every group's offsets are read once per CTA, not once per unit). A unit
/// past the last group's tiles runs nothing.
///
/// With `group_m` > 1 (and no leading axes: a grouped GEMM) each group's
/// units go in bands of min(its row tiles, group_m) rows, the row varying
/// fastest inside a band, so that the CTAs running at once read a few tall
/// columns of the group's rhs tiles, which then stay in L2 for the band's
/// other rows (a large group's weight does not fit in L2: 8 groups of 4096
/// rows, 1.04-1.1x). A unit's row slot in row-major order (unit / column
/// tiles) lies in its group, so the carried scan goes to it and the band
/// gives the row and column inside the group.
struct GroupedTileLoopLowering : public AbiPattern<cta::TileLoopOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::TileLoopOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (op.getWalk() != cta::WalkKind::grouped)
      return rewriter.notifyMatchFailure(op, "only grouped walks");
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    Type i32 = e.i32Type();
    ValueRange extents = adaptor.getExtents();
    ArrayRef<int64_t> tiles = op.getTileSizes();
    size_t axes = extents.size(), rowAxis = axes - 2;
    int64_t tileM = tiles[rowAxis];
    Value groups = e.toI32(adaptor.getGroups());
    Value offsets = op.getOffsets();
    SmallVector<Value> counts;
    for (auto [extent, tile] : llvm::zip(extents, tiles))
      counts.push_back(e.ceilDiv(e.toI32(extent), e.i32(tile)));
    counts[rowAxis] = e.add(counts[rowAxis], groups);
    Value total = e.i32(1);
    for (Value count : counts)
      total = e.mul(total, count);
    // Carried: the loop's values, then the scan's group and the row tiles
    // of the groups before it.
    SmallVector<Value> inits(adaptor.getInits());
    inits.push_back(e.i32(0));
    inits.push_back(e.i32(0));
    scf::ForOp loop = unitLoop(rewriter, e, total, inits);
    size_t carried = adaptor.getInits().size();
    ValueRange iterArgs = loop.getRegionIterArgs();
    Value rest = e.toI32(loop.getInductionVar());
    SmallVector<Value> args(axes);
    bool banded = op.getGroupM() > 1 && rowAxis == 0;
    // Banded: the unit's row slot in row-major order (every virtual row has
    // counts[1] units), which lies in the unit's group; the row and column
    // come from the group's bands (below, once its row tiles are known).
    Value r = banded ? e.udiv(rest, counts[1]) : Value();
    if (!banded) {
      // Fastest first: the column tiles, the leading axes innermost first,
      // then the virtual row tile.
      args[axes - 1] = e.toIndex(
          e.mul(e.urem(rest, counts[axes - 1]), e.i32(tiles[axes - 1])));
      rest = e.udiv(rest, counts[axes - 1]);
      for (size_t axis = rowAxis; axis-- > 0;) {
        args[axis] = e.toIndex(e.mul(e.urem(rest, counts[axis]),
                                     e.i32(tiles[axis])));
        rest = e.udiv(rest, counts[axis]);
      }
      r = rest;
    }
    auto tilesOf = [&](Value group) {
      Value begin = readOffset(e, abi, kernel, offsets, group);
      Value end = readOffset(e, abi, kernel, offsets, e.add(group, e.i32(1)));
      Value rows = arith::MaxSIOp::create(rewriter, loc, e.sub(end, begin),
                                          e.i32(0));
      return std::make_tuple(begin, end, e.ceilDiv(rows, e.i32(tileM)));
    };
    // From scan state (group g, row tiles before it), on past every group
    // that ends at or before row tile `target`; returns the state there. A
    // walk that whole warps run looks at 32 groups per step: lane l reads
    // group g + l, an inclusive sum over the lanes gives each group's end,
    // and the lanes whose group ends by the target (a prefix of the lanes:
    // ends never decrease) are skipped at once. A walk one thread runs (a
    // producer's or MMA warp's elected thread) looks at one group per step.
    int64_t lanes = abi.singleThreadWalks.contains(op)
                        ? 1
                        : static_cast<int64_t>(target::threadsPerWarp);
    Value lane = lanes > 1 ? NVVM::LaneIdOp::create(rewriter, loc, i32)
                           : e.i32(0);
    Value allLanes = e.i32(-1);
    auto shuffle = [&](NVVM::ShflKind kind, Value value, Value offset,
                       int64_t clamp) {
      return NVVM::ShflOp::create(rewriter, loc, i32, allLanes, value, offset,
                                  e.i32(clamp), kind, UnitAttr())
          .getResult();
    };
    auto scanTo = [&](Value g0, Value prefix0, Value target) {
      auto scan = scf::WhileOp::create(rewriter, loc, TypeRange{i32, i32},
                                       ValueRange{g0, prefix0});
      OpBuilder::InsertionGuard guard(rewriter);
      Block *before = rewriter.createBlock(&scan.getBefore(), {}, {i32, i32},
                                           {loc, loc});
      Value g = before->getArgument(0), prefix = before->getArgument(1);
      Value mine = e.add(g, lane);
      Value inside = e.ult(mine, groups);
      // (readOffset clamps the index: a lane past the groups reads a valid
      // entry, then counts no tiles.)
      Value tiles = arith::SelectOp::create(rewriter, loc, inside,
                                            std::get<2>(tilesOf(mine)),
                                            e.i32(0));
      Value sum = tiles;
      for (int64_t delta = 1; delta < lanes; delta *= 2) {
        Value below = shuffle(NVVM::ShflKind::up, sum, e.i32(delta), 0);
        sum = e.add(sum, arith::SelectOp::create(
                             rewriter, loc,
                             e.cmp(arith::CmpIPredicate::uge, lane,
                                   e.i32(delta)),
                             below, e.i32(0)));
      }
      Value end = e.add(prefix, sum);
      Value skip =
          e.andI(inside, e.cmp(arith::CmpIPredicate::ule, end, target));
      Value skipped, lastEnd = end;
      if (lanes > 1) {
        Value ballot = NVVM::VoteSyncOp::create(
            rewriter, loc, i32, allLanes, skip, NVVM::VoteSyncKind::ballot);
        skipped = LLVM::CtPopOp::create(rewriter, loc, i32, ballot);
        lastEnd = shuffle(
            NVVM::ShflKind::idx, end,
            e.sub(arith::MaxSIOp::create(rewriter, loc, skipped, e.i32(1)),
                  e.i32(1)),
            lanes - 1);
      } else {
        skipped = arith::ExtUIOp::create(rewriter, loc, i32, skip);
      }
      Value nextPrefix = arith::SelectOp::create(
          rewriter, loc, e.eq(skipped, e.i32(0)), prefix, lastEnd);
      Value nextG = e.add(g, skipped);
      // Every lane's group skipped: the next ones may end by the target too.
      Value more = e.eq(skipped, e.i32(lanes));
      scf::ConditionOp::create(rewriter, loc, more,
                               ValueRange{nextG, nextPrefix});
      Block *after = rewriter.createBlock(&scan.getAfter(), {}, {i32, i32},
                                          {loc, loc});
      scf::YieldOp::create(rewriter, loc,
                           ValueRange{after->getArgument(0),
                                      after->getArgument(1)});
      return std::make_pair(scan.getResult(0), scan.getResult(1));
    };
    // The carried state: at the unit's row (banded: its row slot, in the
    // same group).
    auto [carriedG, carriedPrefix] =
        scanTo(iterArgs[carried], iterArgs[carried + 1], r);
    Value g = carriedG, prefix = carriedPrefix;
    // The unit's group, if r falls inside one.
    auto unit = scf::IfOp::create(rewriter, loc, loop.getResultTypes(),
                                  e.ult(g, groups), /*withElseRegion=*/true);
    {
      OpBuilder::InsertionGuard guard(rewriter);
      rewriter.setInsertionPointToStart(&unit.getElseRegion().front());
      SmallVector<Value> same(iterArgs.take_front(carried));
      same.push_back(carriedG);
      same.push_back(carriedPrefix);
      scf::YieldOp::create(rewriter, loc, same);
    }
    rewriter.setInsertionPointToStart(&unit.getThenRegion().front());
    auto [begin, end, groupTiles] = tilesOf(g);
    if (banded) {
      // Group g's units, row-major from unit prefix * counts[1], go in bands
      // of min(its row tiles, group_m) rows, the row fastest inside a band
      // (the last band may be shorter): the CTAs running at once read a few
      // tall columns of g's rhs tiles, which stay in L2 for the band's other
      // rows. A band never spans groups, whose rhs tiles share nothing.
      Value columns = counts[1];
      Value height = e.minU(groupTiles, e.i32(op.getGroupM()));
      Value local = e.sub(rest, e.mul(prefix, columns));
      Value bandFirst =
          e.mul(e.udiv(local, e.mul(height, columns)), height);
      Value rowsInBand = e.minU(e.sub(groupTiles, bandFirst), height);
      Value inBand = e.sub(local, e.mul(bandFirst, columns));
      r = e.add(prefix, e.add(bandFirst, e.urem(inBand, rowsInBand)));
      // (Operands named first: gcc and clang build call arguments in
      // different orders.)
      Value column = e.udiv(inBand, rowsInBand);
      args[1] = e.toIndex(e.mul(column, e.i32(tiles[1])));
    }
    args[rowAxis] =
        e.toIndex(e.add(begin, e.mul(e.sub(r, prefix), e.i32(tileM))));
    SmallVector<Value> bodyArgs = {e.toIndex(g)};
    llvm::append_range(bodyArgs, args);
    bodyArgs.push_back(e.toIndex(end));
    // The tile's index among all groups' row tiles: r itself (group g's
    // tiles are numbered on from those before it).
    bodyArgs.push_back(e.toIndex(r));
    llvm::append_range(bodyArgs, iterArgs.take_front(carried));
    // The walk's cta.yield ends the unit's branch; the scan state goes out
    // next to its values.
    Block &walkBody = op.getBody().front();
    auto yield = llvm::cast<cta::YieldOp>(walkBody.getTerminator());
    rewriter.setInsertionPoint(yield);
    SmallVector<Value> yielded(yield.getValues());
    yielded.push_back(carriedG);
    yielded.push_back(carriedPrefix);
    rewriter.modifyOpInPlace(yield,
                             [&] { yield->setOperands(yielded); });
    Block *thenBlock = &unit.getThenRegion().front();
    rewriter.inlineBlockBefore(&walkBody, thenBlock, thenBlock->end(),
                               bodyArgs);
    rewriter.setInsertionPointAfter(unit);
    scf::YieldOp::create(rewriter, loc, unit.getResults());
    rewriter.replaceOp(op, loop.getResults().take_front(carried));
    return success();
  }
};

/// For each K step: wait until the stage is empty (the first pass through
/// the ring passes at once: a fresh barrier's phase 1 counts as complete),
/// post the stage's transaction bytes on its full barrier, then issue the
/// copies. Every copy into a stage lands in full in this CTA (multicast
/// slices from peers included), so the count is the stage's bytes; a CTA
/// pair's leader counts both CTAs' bytes.
struct ProduceLowering : public AbiPattern<cta::ProduceOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::ProduceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    Value ring = adaptor.getRing();
    int64_t stages = op.getRing().getType().getStages();
    Value position = e.toI32(adaptor.getPosition());
    // The stage's bytes: every copy's rows; a copy that reads only the rows
    // its tensor has (rows_within) counts min(rows, extent) of them, as its
    // clamped tensor map copies (the same rule as the runtime's).
    int64_t fixedBytes = 0;
    struct ClampedCopy {
      int64_t rowBytes, rows;
      Value extent;
    };
    SmallVector<ClampedCopy> clamped;
    for (cta::LoadOp load : op.getBody().getOps<cta::LoadOp>()) {
      cta::BufferType buffer = load.getBuffer().getType();
      auto [begin, end] = load.getFilledRows();
      int64_t rowBytes = buffer.getStageBytes() / buffer.getShape()[0];
      if (Value extent = load.getRowExtent())
        clamped.push_back({rowBytes, end - begin, extent});
      else
        fixedBytes += rowBytes * (end - begin);
    }
    // Computed once, before the K loop (the extents are the program's).
    Value txBytes = e.i32(fixedBytes);
    for (const ClampedCopy &copy : clamped) {
      Value extent = rewriter.getRemappedValue(copy.extent);
      Value rows = e.minU(e.toI32(extent), e.i32(copy.rows));
      txBytes = e.add(txBytes, e.mul(rows, e.i32(copy.rowBytes)));
    }
    auto loop = scf::ForOp::create(rewriter, loc, e.index(0),
                                   adaptor.getCount(), e.index(1));
    {
      OpBuilder::InsertionGuard guard(rewriter);
      Operation *end = loop.getBody()->getTerminator();
      rewriter.setInsertionPoint(end);
      Value kb = loop.getInductionVar();
      Value iteration = e.add(position, e.toI32(kb));
      Value slot = e.waitEmpty(ring, iteration, stages);
      auto expect = [&](Value bytes) {
        NVVM::MBarrierArriveExpectTxOp::create(
            rewriter, loc, /*res=*/Type(),
            e.barrier(ring, slot, stages, false), bytes,
            NVVM::MemScopeKind::CTA, false, Value());
      };
      // In a CTA pair both CTAs' copies complete on the leader's full
      // barrier, which expects them all; the odd CTA's producer only
      // copies.
      if (abi.ctaPair)
        e.ifThen(isPairLeader(e),
                 [&] { expect(e.mul(txBytes, e.i32(target::ctaPairSize))); });
      else
        expect(txBytes);
      inlineRegionWithoutTerminator(rewriter, op.getBody(), end,
                                    {kb, e.toIndex(slot)});
    }
    rewriter.replaceOp(op,
                       e.toIndex(e.add(position, e.toI32(adaptor.getCount()))));
    return success();
  }
};

/// Waits until the stage at the ring position is full (its phase's parity
/// from the position, as in a cta.consume step); the slot is the position
/// modulo the stages.
struct StageWaitLowering : public OpConversionPattern<cta::StageWaitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::StageWaitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    Value slot = e.waitFull(adaptor.getRing(), e.toI32(adaptor.getPosition()),
                            op.getRing().getType().getStages());
    rewriter.replaceOp(op, e.toIndex(slot));
    return success();
  }
};

/// Waits until the stage at the ring position is empty, with the producer
/// side's parity (the first pass through the ring passes at once), as
/// cta.produce does before its copies; the slot is the position modulo the
/// stages.
struct StageAcquireLowering : public OpConversionPattern<cta::StageAcquireOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::StageAcquireOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    Value slot = e.waitEmpty(adaptor.getRing(), e.toI32(adaptor.getPosition()),
                             op.getRing().getType().getStages());
    rewriter.replaceOp(op, e.toIndex(slot));
    return success();
  }
};

/// A tile copy as TMA: one box per swizzle-span column block of the buffer.
/// With multicast, each CTA of the cluster copies 1/cs of the rows and the
/// copy lands in every CTA's buffer.
struct LoadLowering : public AbiPattern<cta::LoadOp> {
  using AbiPattern::AbiPattern;

  LogicalResult
  matchAndRewrite(cta::LoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    const KernelABI &abi = abis.of(op);
    LLVM::LLVMFuncOp kernel = abis.kernelOf(op);
    if (!op.getSignal())
      return rewriter.notifyMatchFailure(op, "a copy outside cta.produce");
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    unsigned mapIndex = abi.loadMap.lookup(op);
    const TensorMapPlan &plan = abi.tensorMaps[mapIndex];
    Value tensorMap = kernel.getArgument(mapIndex);
    cta::BufferType buffer = op.getBuffer().getType();
    int64_t stages = op.getSignal().getType().getStages();
    Value slot = op.getSlot() ? e.toI32(adaptor.getSlot()) : e.i32(0);
    Value stage = e.bytePtr(adaptor.getBuffer(),
                            e.mul(slot, e.i32(buffer.getStageBytes())));
    Value bar = e.barrier(adaptor.getSignal(), slot, stages, false);
    // The tile spans the last two axes; TMA coordinates are innermost
    // first, so the outer indices follow the row, reversed.
    ValueRange indices = adaptor.getIndices();
    size_t rank = indices.size();
    Value row = e.toI32(indices[rank - 2]);
    Value col = e.toI32(indices[rank - 1]);
    SmallVector<Value> outer;
    for (size_t axis = rank - 2; axis-- > 0;)
      outer.push_back(e.toI32(indices[axis]));
    // Column block j holds every row of the buffer; this copy fills rows
    // [firstRow, endRow) of each.
    int64_t rows = buffer.getShape()[0];
    auto [firstRow, endRow] = op.getFilledRows();
    int64_t span = target::swizzleSpanBytes(plan.boxes.swizzle);
    if (plan.boxes.swizzle == target::SwizzleMode::None)
      span = buffer.getShape()[1] *
             buffer.getElementType().getIntOrFloatBitWidth() / 8;
    int64_t boxInner = plan.boxes.box[0];

    int64_t cs = op.getMulticast();
    Value mask, sliceOffset, sliceRow;
    if (cs > 1) {
      Value rank = NVVM::ClusterId::create(rewriter, loc, e.i32Type());
      int64_t sliceRows = (endRow - firstRow) / cs;
      sliceOffset = e.mul(rank, e.i32(sliceRows * span));
      sliceRow = e.add(row, e.mul(rank, e.i32(sliceRows)));
      mask = arith::ConstantIntOp::create(rewriter, loc, (1 << cs) - 1, 16);
    }
    // A CTA pair's copy completes on the leader's full barrier.
    if (op.getCtaPair()) {
      Type i32 = e.i32Type();
      Value address = LLVM::PtrToIntOp::create(rewriter, loc, i32, bar);
      address = e.andI(address, e.i32(static_cast<int32_t>(
                                    target::ctaPairLeaderAddressMask)));
      bar = LLVM::IntToPtrOp::create(
          rewriter, loc, LLVM::LLVMPointerType::get(getContext(), 3), address);
    }
    for (uint32_t j = 0; j < plan.boxes.boxCount; ++j) {
      Value dst = e.bytePtr(stage, (j * rows + firstRow) * span);
      SmallVector<Value> coords = {e.add(col, e.i32(j * boxInner)),
                                   cs > 1 ? sliceRow : row};
      llvm::append_range(coords, outer);
      if (op.getCtaPair()) {
        Value cluster = LLVM::AddrSpaceCastOp::create(
            rewriter, loc, LLVM::LLVMPointerType::get(getContext(), 7), dst);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            rewriter, loc, cluster, tensorMap, coords, bar, ValueRange{},
            Value(), Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false,
            NVVM::CTAGroupKindAttr::get(getContext(),
                                        NVVM::CTAGroupKind::CTA_2),
            Value());
      } else if (cs == 1) {
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            rewriter, loc, dst, tensorMap, coords, bar, ValueRange{}, Value(),
            Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/true, nullptr,
            Value());
      } else {
        Value local = e.bytePtr(dst, sliceOffset);
        Value cluster = LLVM::AddrSpaceCastOp::create(
            rewriter, loc, LLVM::LLVMPointerType::get(getContext(), 7), local);
        NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
            rewriter, loc, cluster, tensorMap, coords, bar, ValueRange{}, mask,
            Value(), NVVM::TMALoadMode::TILE, /*isCTAOnly=*/false, nullptr,
            Value());
      }
    }
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void kiln::populateCtaToNVVMCommonPatterns(TypeConverter &converter,
                                           RewritePatternSet &patterns,
                                           const KernelABIs &abis,
                                           const CtaResources &resources) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ProgramLowering, LoadLowering, RingLowering, ProduceLowering,
               GroupedTileLoopLowering, ReadIndexLowering,
               ReadScalarLowering>(converter, ctx,
                                                           abis);
  patterns.add<WarpSpecializeLowering>(converter, ctx, abis, resources);
  patterns.add<ReturnLowering, YieldLowering, TileLoopLowering,
               BatchedTileLoopLowering, ClusterRankLowering, AllocLowering,
               WarpgroupIndexLowering, StageWaitLowering,
               StageAcquireLowering>(converter, ctx);
}

scf::ForOp kiln::lowerConsumeLoop(ConversionPatternRewriter &rewriter,
                                  cta::ConsumeOp op, Value ring,
                                  Value position, Value count,
                                  ValueRange inits,
                                  const ConsumeStepHooks &hooks) {
  Location loc = op.getLoc();
  Emitter e(rewriter, loc);
  int64_t stages = op.getRing().getType().getStages();
  auto loop =
      scf::ForOp::create(rewriter, loc, e.index(0), count, e.index(1), inits);
  Block *body = loop.getBody();
  if (!body->empty())
    rewriter.eraseOp(body->getTerminator());
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(body);
  Value kb = loop.getInductionVar();
  Value iteration = e.add(position, e.toI32(kb));
  Value slot = e.waitFull(ring, iteration, stages);
  SmallVector<Value> args = {kb, e.toIndex(slot)};
  if (hooks.beforeBody)
    llvm::append_range(args, hooks.beforeBody(e, loop.getRegionIterArgs()));
  else
    llvm::append_range(args, loop.getRegionIterArgs());
  Block &source = op.getBody().front();
  Operation *yield = source.getTerminator();
  rewriter.inlineBlockBefore(&source, body, body->end(), args);
  rewriter.setInsertionPoint(yield);
  if (hooks.afterBody)
    hooks.afterBody(e, kb, iteration, slot);
  return loop;
}

MmaOperandAddresses kiln::mmaOperandAddresses(Emitter &e, cta::MmaOp op,
                                              cta::MmaOp::Adaptor adaptor) {
  cta::BufferType rhs = op.getRhs().getType();
  Value slotB = op.getRhsSlot() ? e.toI32(adaptor.getRhsSlot()) : e.i32(0);
  MmaOperandAddresses addresses;
  if (auto lhs = llvm::dyn_cast<cta::BufferType>(op.getLhs().getType())) {
    Value slotA = op.getLhsSlot() ? e.toI32(adaptor.getLhsSlot()) : e.i32(0);
    Value rowA = op.getLhsRow() ? e.toI32(adaptor.getLhsRow()) : e.i32(0);
    addresses.lhs = e.add(e.smemAddress(adaptor.getLhs()),
                          e.add(e.mul(slotA, e.i32(lhs.getStageBytes())),
                                e.mul(rowA, e.i32(columnBlockBytes(lhs)))));
  }
  addresses.rhs = e.add(e.smemAddress(adaptor.getRhs()),
                        e.mul(slotB, e.i32(rhs.getStageBytes())));
  return addresses;
}

LogicalResult kiln::checkLoweredAlike(Operation *op, target::Chip chip) {
  auto notYet = [&](const Twine &what) {
    return op->emitError() << "convert-cta-to-nvvm: not implemented yet on "
                           << target::chipName(chip) << ": " << what;
  };
  // The CTAs a ring's releases and a multicast copy reach are the
  // program's cluster: the lowering arrives on (or copies into) every CTA of
  // it, so the counts the IR states must agree with it.
  auto clusterSize = [&]() -> int64_t {
    auto program = op->getParentOfType<cta::ProgramOp>();
    if (!program)
      return 1;
    auto [m, n] = program.getClusterShape();
    return m * n;
  };
  // Both chips' MMAs accumulate in f32 (wgmma registers, tcgen05 tensor
  // memory), and the lowering reads accumulators as f32: another element
  // type would reach the epilogue's arithmetic with values of the wrong type.
  // Reported where such an accumulator is made.
  for (Type type : op->getResultTypes())
    if (auto acc = llvm::dyn_cast<cta::AccType>(type))
      if (!acc.getElementType().isF32())
        return op->emitError()
               << "convert-cta-to-nvvm: an accumulator of "
               << acc.getElementType() << " elements; the MMAs of "
               << target::chipName(chip) << " accumulate in f32";
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<cta::ProgramOp, cta::ReturnOp, cta::YieldOp, cta::AllocOp,
            cta::WarpSpecializeOp, cta::ProduceOp, cta::ConsumeOp,
            cta::SplitColsOp, cta::AccZeroOp, cta::MmaOp,
            cta::ClusterRankOp, cta::StageWaitOp, cta::StageReleaseOp,
            cta::StageAcquireOp, cta::MmaWaitOp>(
          [](Operation *) { return success(); })
      .Case([&](cta::RingOp ring) -> LogicalResult {
        if (static_cast<int64_t>(ring.getClusterSize()) != clusterSize())
          return op->emitError()
                 << "convert-cta-to-nvvm: the ring is released by "
                 << ring.getClusterSize() << " CTA(s) but the program runs in "
                 << "clusters of " << clusterSize()
                 << "; cluster_size must equal the cluster's CTAs";
        return success();
      })
      .Case([&](cta::WarpgroupIndexOp) -> LogicalResult {
        if (!op->getParentOfType<cta::WarpSpecializeOp>())
          return op->emitError("convert-cta-to-nvvm: cta.warpgroup_index "
                               "outside a warp role");
        return success();
      })
      .Case<cta::AccRingOp, cta::AccAcquireOp, cta::AccCommitOp,
            cta::AccWaitOp, cta::AccReleaseOp>([&](Operation *) {
        // (sm_100a checks these itself before the shared checks.)
        return op->emitError()
               << "convert-cta-to-nvvm: '" << op->getName()
               << "' hands tensor-memory accumulators between warp roles; "
               << target::chipName(chip) << " has no tensor memory (sm_100a has)";
      })
      .Case<cta::TmemAllocOp, cta::TmemAccOp, cta::TmemStoreOp,
            cta::TmemUpdateOp>([&](Operation *) {
        return op->emitError()
               << "convert-cta-to-nvvm: '" << op->getName()
               << "' names a tensor-memory tile; " << target::chipName(chip)
               << " has no tensor memory (sm_100a has)";
      })
      .Case([&](cta::MainloopOp) -> LogicalResult {
        return op->emitError("convert-cta-to-nvvm: the K loop is not "
                             "pipelined; run cta-pipeline first");
      })
      .Case([&](cta::ReadIndexOp read) -> LogicalResult {
        return checkDestExtentsKnown(op, read.getSource(), "offsets");
      })
      .Case<cta::ReadScalarOp, cta::ReadVectorOp>([&](Operation *) {
        return checkDestExtentsKnown(op, op->getOperand(0), "source");
      })
      .Case([&](cta::TileLoopOp loop) -> LogicalResult {
        if (loop.getWalk() == cta::WalkKind::grouped) {
          if (!loop.getPersistent())
            return notYet("a grouped tile walk that is not persistent (its "
                          "units depend on offsets on the device)");
          return checkDestExtentsKnown(op, loop.getOffsets(), "offsets");
        }
        // (A batched walk's clusters take neighbouring row tiles in its
        // raster order only, and all of its units only when persistent: a
        // one-unit-per-CTA grid spreads the leading axes over x.)
        if (loop.getWalk() == cta::WalkKind::batched && loop.getCluster() &&
            (*loop.getCluster())[0] > 1 &&
            (loop.getLongestFirst() || !loop.getPersistent()))
          return notYet("a batched tile walk in clusters of several CTAs "
                        "that is longest_first or not persistent");
        return success();
      })
      .Case([&](cta::StreamKJoinOp) -> LogicalResult {
        if (!op->getParentOfType<cta::WarpSpecializeOp>())
          return op->emitError("convert-cta-to-nvvm: cta.stream_k_join "
                               "outside a warp role");
        return success();
      })
      .Case([&](cta::LoadOp load) -> LogicalResult {
        if (!load.getSignal())
          return op->emitError("convert-cta-to-nvvm: a copy outside "
                               "cta.produce has no barrier");
        if (load.getMulticast() > 1 &&
            static_cast<int64_t>(load.getMulticast()) != clusterSize())
          return op->emitError()
                 << "convert-cta-to-nvvm: a copy multicast to "
                 << load.getMulticast() << " CTAs in clusters of "
                 << clusterSize()
                 << "; multicast copies reach the whole cluster";
        return success();
      })
      .Case([&](cta::StoreOp store) -> LogicalResult {
        for (Value value : store.getValues())
          if (!llvm::isa<cta::AccType>(value.getType()))
            return notYet("storing a register fragment");
        return checkStoreStaging(store);
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (llvm::isa<cta::CtaDialect>(other->getDialect()))
          return notYet("'" + other->getName().getStringRef() + "'");
        for (Value operand : other->getOperands())
          if (llvm::isa<MemRefType>(operand.getType()))
            return other->emitError(
                "convert-cta-to-nvvm: global tensors are only read by "
                "cta.load and cta.store");
        return success();
      });
}
