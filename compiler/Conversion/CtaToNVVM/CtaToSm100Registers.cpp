//===- CtaToSm100Registers.cpp - register and tensor-memory tiles (sm_100a) ===//
//
// What a warpgroup of an sm_100a program computes on itself, between the
// MMA warp's tensor-memory results: attention's softmax, a GEMM epilogue's
// row reductions.
//
// Register tiles. A 128-row tile in registers has the layout tcgen05.ld
// `.32x32b` reads tensor memory into: thread t of the warpgroup holds row t
// (warp w reads lanes [32 w, +32), target::tmemLaneBaseForWarp), one
// register per column. So an `acc` fragment of C f32 columns is C registers
// of one row, a `rows` vector is one register, a row reduction needs no
// shuffles, and an accumulator read by a register op is one tcgen05.ld of
// the thread's row (then tcgen05.wait::ld).
//
// Tensor-memory tiles (`cta.tmem_alloc`) lower to their first column;
// `cta.tmem_acc` is the accumulator in those columns, `cta.tmem_store`
// writes a thread's row with tcgen05.st (16-bit elements packed in pairs,
// target::tmemColumnsOf), `cta.tmem_update` rewrites it in place 32 columns
// at a time. A ring stage a warpgroup fills this way is committed by
// waiting for the stores, fencing, synchronizing the warpgroup and one
// thread's arrival on the full barrier (`cta.stage_commit`).
//
// Nothing here has run on a Blackwell GPU (docs/architecture.md, "What
// stands behind sm_100a").
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/Tcgen05Values.h"
#include "compiler/Conversion/CtaToNVVM/TileStore.h"
#include "compiler/Target/TensorMemory.h"
#include "compiler/Target/WarpReduce.h"

#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tcgen05;

namespace {

/// Rows of a register tile: a warpgroup's threads, one row each.
constexpr int64_t kRows = target::tmemLanes;
/// Columns per tcgen05.ld / tcgen05.st of a thread's row (`.32x32b.x32`):
/// the update of a tensor-memory tile holds this many values at a time.
constexpr int64_t kColumnsPerAccess = 32;

/// The registers of a row-per-thread tile: `columns` f32 values (an `acc`
/// fragment) or one (a `rows` vector).
struct RowTile {
  bool vector = false;
  int64_t columns = 1;
};

/// Why `type` is not a register value sm_100a lowers, if it is not.
std::optional<std::string> rowTileError(Type type) {
  auto frag = llvm::dyn_cast<cta::FragType>(type);
  if (!frag)
    return std::nullopt;
  if (frag.getLayout() == cta::FragLayout::lhs)
    return describe("a ", type,
                    " on sm_100a: tcgen05.mma reads its left operand from "
                    "shared or tensor memory (write it with cta.tmem_store)");
  if (frag.getLayout() == cta::FragLayout::cols)
    return describe("not implemented yet on sm_100a: a ", type,
                    " (register tiles hold rows: one per thread)");
  if (frag.getShape()[0] != kRows)
    return describe("a ", frag.getShape()[0], "-row ", type,
                    "; on sm_100a register tiles have one row per thread "
                    "of a warpgroup (", kRows, ")");
  if (!frag.getElementType().isF32())
    return describe("not implemented yet on sm_100a: register tiles of ",
                    frag.getElementType());
  return std::nullopt;
}

RowTile rowTileOf(Type type) {
  if (auto acc = llvm::dyn_cast<cta::AccType>(type))
    return {false, acc.getShape()[1]};
  auto frag = llvm::cast<cta::FragType>(type);
  if (frag.getLayout() == cta::FragLayout::rows)
    return {true, 1};
  return {false, frag.getShape()[1]};
}

Type loweredRowTile(cta::FragType type) {
  Type f32 = Float32Type::get(type.getContext());
  if (type.getLayout() == cta::FragLayout::rows)
    return f32;
  return LLVM::LLVMStructType::getLiteral(
      type.getContext(), SmallVector<Type>(type.getShape()[1], f32));
}

/// The TMEM address of this thread's row of the columns at `address`.
Value rowAddress(Emitter &e, Value address) {
  return e.add(address, warpLaneOffset(e, e.warpgroupLane()));
}

/// Columns [first, first + columns) of this thread's row of an accumulator
/// in tensor memory, as f32 values: tcgen05.ld of 32 columns at a time,
/// then one wait. An accumulator no MMA has written reads as zeros.
SmallVector<Value> readAccColumns(Emitter &e, Value acc, Value first,
                                  int64_t columns) {
  Value address = e.add(rowAddress(e, accAddress(e, acc)), first);
  Value written = accWritten(e, acc);
  SmallVector<Value> loads;
  for (int64_t at = 0; at < columns; at += kColumnsPerAccess) {
    int64_t count = std::min(kColumnsPerAccess, columns - at);
    loads.push_back(loadTmemColumns(e, e.add(address, e.i32(at)), count));
  }
  NVVM::Tcgen05WaitOp::create(e.b, e.loc, NVVM::Tcgen05WaitKind::LOAD);
  Value zero = arith::ConstantOp::create(e.b, e.loc, e.b.getF32FloatAttr(0));
  SmallVector<Value> values;
  for (int64_t column = 0; column < columns; ++column) {
    Value raw = LLVM::ExtractElementOp::create(
        e.b, e.loc, loads[column / kColumnsPerAccess],
        e.i32(column % kColumnsPerAccess));
    Value f = LLVM::BitcastOp::create(e.b, e.loc, e.b.getF32Type(), raw);
    values.push_back(arith::SelectOp::create(e.b, e.loc, written, f, zero));
  }
  return values;
}

/// This thread's whole row of an accumulator in tensor memory.
SmallVector<Value> readAccRow(Emitter &e, Value acc, int64_t columns) {
  return readAccColumns(e, acc, e.i32(0), columns);
}

/// The thread's values of a register operand: an accumulator's row (read
/// from tensor memory), an acc fragment's registers, a rows vector's one.
SmallVector<Value> rowValues(Emitter &e, Type ctaType, Value lowered) {
  RowTile tile = rowTileOf(ctaType);
  if (llvm::isa<cta::AccType>(ctaType))
    return readAccRow(e, lowered, tile.columns);
  if (tile.vector)
    return {lowered};
  SmallVector<Value> values;
  for (int64_t i = 0; i < tile.columns; ++i)
    values.push_back(LLVM::ExtractValueOp::create(e.b, e.loc, lowered, i));
  return values;
}

/// The lowered register value of `type` holding `values`.
Value buildRowTile(Emitter &e, cta::FragType type, ArrayRef<Value> values) {
  if (type.getLayout() == cta::FragLayout::rows)
    return values.front();
  Value tile = LLVM::UndefOp::create(e.b, e.loc, loweredRowTile(type));
  for (auto [i, value] : llvm::enumerate(values))
    tile = LLVM::InsertValueOp::create(e.b, e.loc, tile, value, i);
  return tile;
}

/// Clones `body` (a cta.yield-terminated region of element computations)
/// with its arguments bound to `args`; returns the yielded value.
Value inlineElement(ConversionPatternRewriter &rewriter, Block &body,
                    ArrayRef<Value> args) {
  IRMapping mapping;
  mapping.map(body.getArguments(), args);
  for (Operation &inner : body.without_terminator())
    rewriter.clone(inner, mapping);
  return mapping.lookupOrDefault(
      llvm::cast<cta::YieldOp>(body.getTerminator()).getValues()[0]);
}

struct SplatLowering : public OpConversionPattern<cta::SplatOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::SplatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    auto type = llvm::cast<cta::FragType>(op.getResult().getType());
    RowTile tile = rowTileOf(type);
    SmallVector<Value> values(tile.columns, adaptor.getValue());
    rewriter.replaceOp(op, buildRowTile(e, type, values));
    return success();
  }
};

/// The body once per register of the result: the element's row (the
/// thread's) and column, then each input's element there (a rows vector's
/// one value for every column).
struct FragMapLowering : public OpConversionPattern<cta::FragMapOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::FragMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    auto type = llvm::cast<cta::FragType>(op.getResult().getType());
    RowTile result = rowTileOf(type);
    SmallVector<SmallVector<Value>> inputs;
    for (auto [input, lowered] :
         llvm::zip(op.getInputs(), adaptor.getInputs()))
      inputs.push_back(rowValues(e, input.getType(), lowered));
    Block &body = op.getBody().front();
    Value row = e.toIndex(e.warpgroupLane());
    SmallVector<Value> values;
    for (int64_t column = 0; column < result.columns; ++column) {
      SmallVector<Value> args = {row, e.index(column)};
      for (const SmallVector<Value> &input : inputs)
        args.push_back(input.size() == 1 ? input.front() : input[column]);
      values.push_back(inlineElement(rewriter, body, args));
    }
    rewriter.replaceOp(op, buildRowTile(e, type, values));
    return success();
  }
};

/// The thread's row times its factor, in a branch it skips when the factor
/// is 1 (a register fragment: the thread holds its whole row).
struct ScaleRowsLowering : public OpConversionPattern<cta::ScaleRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ScaleRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    auto type = llvm::cast<cta::FragType>(op.getResult().getType());
    Value input = adaptor.getInput(), factor = adaptor.getFactors();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getF32FloatAttr(1.0f));
    Value moved = arith::CmpFOp::create(rewriter, loc,
                                        arith::CmpFPredicate::UNE, factor, one);
    auto branch = scf::IfOp::create(rewriter, loc, TypeRange{input.getType()},
                                    moved, /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPointToStart(&branch.getThenRegion().front());
    SmallVector<Value> values;
    for (Value x : rowValues(e, type, input))
      values.push_back(arith::MulFOp::create(rewriter, loc, x, factor));
    scf::YieldOp::create(rewriter, loc, buildRowTile(e, type, values));
    rewriter.setInsertionPointToStart(&branch.getElseRegion().front());
    scf::YieldOp::create(rewriter, loc, input);
    rewriter.replaceOp(op, branch.getResult(0));
    return success();
  }
};

/// A row's max or sum over the thread's own registers: the thread holds
/// the whole row.
struct ReduceRowsLowering : public OpConversionPattern<cta::ReduceRowsOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::ReduceRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(
        op, combineTree(e, op.getKind(),
                       rowValues(e, op.getInput().getType(),
                                 adaptor.getInput())));
    return success();
  }
};

/// Whether `op` is an element map that reads accumulators in tensor memory
/// (one at least) and row vectors only, used once, by an op of type `User`:
/// one that can be evaluated 32 columns of the thread's row at a time.
template <typename User>
LogicalResult matchMappedAccChunks(cta::FragMapOp op,
                                   ConversionPatternRewriter &rewriter) {
  if (!op->hasOneUse())
    return rewriter.notifyMatchFailure(op, "the map has other uses");
  if (!llvm::isa<User>(*op->user_begin()))
    return rewriter.notifyMatchFailure(op, "not the user this pattern takes");
  if (llvm::none_of(op.getInputs().getTypes(), [](Type type) {
        return llvm::isa<cta::AccType>(type);
      }))
    return rewriter.notifyMatchFailure(op, "reads no accumulator");
  for (Type type : op.getInputs().getTypes())
    if (!llvm::isa<cta::AccType>(type) && !rowTileOf(type).vector)
      return rewriter.notifyMatchFailure(op, "reads a register tile");
  return success();
}

/// The elements of `map` (matchMappedAccChunks) in columns [first, first +
/// count) of the thread's row: its accumulators' columns read from tensor
/// memory, the body inlined per column.
SmallVector<Value> mapAccChunk(ConversionPatternRewriter &rewriter,
                               Emitter &at, cta::FragMapOp map,
                               ValueRange loweredInputs, Value first,
                               int64_t count) {
  SmallVector<SmallVector<Value>> inputs;
  for (auto [input, lowered] : llvm::zip(map.getInputs(), loweredInputs))
    inputs.push_back(llvm::isa<cta::AccType>(input.getType())
                         ? readAccColumns(at, lowered, first, count)
                         : SmallVector<Value>{lowered});
  Block &body = map.getBody().front();
  Value row = at.toIndex(at.warpgroupLane());
  SmallVector<Value> values;
  for (int64_t column = 0; column < count; ++column) {
    SmallVector<Value> args = {row, at.toIndex(at.add(first, at.i32(column)))};
    for (const SmallVector<Value> &input : inputs)
      args.push_back(input.size() == 1 ? input.front() : input[column]);
    values.push_back(inlineElement(rewriter, body, args));
  }
  return values;
}

/// A loop over the `whole` 32-column chunks of a row whose trip count the
/// compilers do not see (unrolled, ptxas issued every chunk's tcgen05.ld
/// first and spilled), carrying `init` (may be empty); `chunk` builds one
/// chunk's body from its first column (i32) and the carried values and
/// returns the next ones. Returns the loop's results.
SmallVector<Value> loopOverChunks(
    ConversionPatternRewriter &rewriter, Emitter &e, int64_t whole,
    ValueRange init,
    llvm::function_ref<SmallVector<Value>(Emitter &, Value, ValueRange)>
        chunk) {
  Location loc = e.loc;
  auto loop = scf::ForOp::create(rewriter, loc, e.index(0),
                                 e.toIndex(e.opaque(e.i32(whole))),
                                 e.index(1), init);
  OpBuilder::InsertionGuard guard(rewriter);
  // (Without carried values the builder adds an empty scf.yield.)
  if (!loop.getBody()->empty())
    rewriter.eraseOp(loop.getBody()->getTerminator());
  rewriter.setInsertionPointToStart(loop.getBody());
  Emitter in(rewriter, loc);
  Value first =
      in.mul(in.toI32(loop.getInductionVar()), in.i32(kColumnsPerAccess));
  scf::YieldOp::create(rewriter, loc,
                       chunk(in, first, loop.getRegionIterArgs()));
  return SmallVector<Value>(loop.getResults());
}

/// A row reduction of an element map that reads accumulators in tensor
/// memory and nothing else is used for (a GEMM epilogue's
/// `r = sum(f(y), axis = -1)`): a loop over 32-column chunks, each read,
/// mapped, reduced and combined with the running value, so that a thread
/// never holds its whole row (a 128x256 tile's 256 registers spilled 640
/// bytes). Replaces the map and the reduction.
struct ReduceMappedAccRowsLowering
    : public OpConversionPattern<cta::FragMapOp> {
  ReduceMappedAccRowsLowering(const TypeConverter &converter,
                              MLIRContext *ctx)
      : OpConversionPattern(converter, ctx, /*benefit=*/2) {}
  LogicalResult
  matchAndRewrite(cta::FragMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(matchMappedAccChunks<cta::ReduceRowsOp>(op, rewriter)))
      return failure();
    auto reduce = llvm::cast<cta::ReduceRowsOp>(*op->user_begin());
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    int64_t columns = rowTileOf(op.getResult().getType()).columns;
    // Chunk `first` (i32) of `count` columns combined with `running`.
    auto chunk = [&](Emitter &at, Value first, int64_t count, Value running) {
      SmallVector<Value> values =
          mapAccChunk(rewriter, at, op, adaptor.getInputs(), first, count);
      values.push_back(running);
      return combineTree(at, reduce.getKind(), std::move(values));
    };
    bool max = reduce.getKind() == cta::ReduceKind::max;
    Value running = arith::ConstantOp::create(
        rewriter, loc,
        rewriter.getF32FloatAttr(max ? -std::numeric_limits<float>::infinity()
                                     : -0.0f)); // identities: x + -0 = x
    int64_t whole = columns / kColumnsPerAccess;
    if (whole > 0)
      running = loopOverChunks(
          rewriter, e, whole, running,
          [&](Emitter &in, Value first, ValueRange carried) {
            // The chunk's columns depend on the running value (once it is
            // NaN, which every later chunk keeps, any columns do), so ptxas
            // cannot issue every chunk's tcgen05.ld up front.
            Value nan = arith::CmpFOp::create(rewriter, loc,
                                              arith::CmpFPredicate::UNO,
                                              carried[0], carried[0]);
            first =
                arith::SelectOp::create(rewriter, loc, nan, in.i32(0), first);
            return SmallVector<Value>{
                chunk(in, first, kColumnsPerAccess, carried[0])};
          })[0];
    if (int64_t rest = columns % kColumnsPerAccess)
      running = chunk(e, e.i32(whole * kColumnsPerAccess), rest, running);
    rewriter.replaceOp(reduce, running);
    rewriter.eraseOp(op);
    return success();
  }
};

/// Where a cta.combine_cols puts the thread's columns: its destination,
/// whether the thread's row (the warpgroup lane below the tile's first row)
/// lies below the row limit, and the tile's first column (i32).
struct ColumnCombine {
  cta::ReduceKind kind;
  VectorDestination dest;
  Value rowInside, col0;

  /// For `op`, whose index operands have been converted to `row`,
  /// `rowLimit` and `indices`; fails when the destination's extents are not
  /// known.
  static FailureOr<ColumnCombine> prepare(Emitter &e, cta::CombineColsOp op,
                                          Value row, Value rowLimit,
                                          ValueRange indices,
                                          const KernelABIs &abis) {
    FailureOr<VectorDestination> dest = columnsDestination(
        e, op, indices, abis.of(op), abis.kernelOf(op));
    if (failed(dest))
      return failure();
    Value inside =
        e.ult(e.add(e.toI32(row), e.warpgroupLane()), e.toI32(rowLimit));
    return ColumnCombine{op.getKind(), *dest, inside,
                         e.toI32(indices.back())};
  }

  /// `values`, the thread's elements of up to 32 columns of its row from
  /// column `first` (i32) of the tile, combined per column: the row's values
  /// as the identity where the row lies past the limit, the warp's 32 rows
  /// reduce-scattered (tmemColumnReductionShuffleMasks), lane l adding
  /// (maxing) column l's value with a relaxed atomic.
  void chunk(Emitter &e, ArrayRef<Value> values, Value first) const {
    Value identity = reductionIdentity(e, kind);
    SmallVector<Value> lanes;
    for (Value value : values)
      lanes.push_back(
          arith::SelectOp::create(e.b, e.loc, rowInside, value, identity));
    lanes.resize(kColumnsPerAccess, identity);
    ArrayRef<unsigned> masks(target::tmemColumnReductionShuffleMasks);
    Value lane = e.warpgroupLane();
    SmallVector<Value> combined =
        reduceScatterLanes(e, kind, std::move(lanes), masks, lane);
    Value column = reduceScatterFirst(e, lane, masks, kColumnsPerAccess);
    Value real = e.ult(column, e.i32(static_cast<int64_t>(values.size())));
    dest.store(e, e.add(col0, e.add(first, column)), combined.front(), real);
  }
};

/// Each column's max or sum of a register tile (each thread holds its row),
/// combined into the destination 32 columns at a time (ColumnCombine):
/// four atomics per column of a 128-row tile, one per warp.
struct CombineColsLowering : public AbiPattern<cta::CombineColsOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::CombineColsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    FailureOr<ColumnCombine> combine =
        ColumnCombine::prepare(e, op, adaptor.getRow(), adaptor.getRowLimit(),
                               adaptor.getIndices(), abis);
    if (failed(combine))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    SmallVector<Value> values =
        rowValues(e, op.getValue().getType(), adaptor.getValue());
    for (size_t first = 0; first < values.size(); first += kColumnsPerAccess)
      combine->chunk(e,
                     ArrayRef<Value>(values).slice(
                         first, std::min<size_t>(kColumnsPerAccess,
                                                 values.size() - first)),
                     e.i32(static_cast<int64_t>(first)));
    rewriter.eraseOp(op);
    return success();
  }
};

/// A column reduction of an element map that reads accumulators in tensor
/// memory and nothing else is used for (a GEMM epilogue's
/// `c = sum(f(y), axis = -2)`): a loop over 32-column chunks, each read,
/// mapped and combined into the destination (ColumnCombine), so that a
/// thread never holds its whole row. Replaces the map and the
/// cta.combine_cols.
struct CombineMappedAccColsLowering
    : public OpConversionPattern<cta::FragMapOp> {
  CombineMappedAccColsLowering(const TypeConverter &converter,
                               MLIRContext *ctx, const KernelABIs &abis)
      : OpConversionPattern(converter, ctx, /*benefit=*/2), abis(abis) {}
  LogicalResult
  matchAndRewrite(cta::FragMapOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    if (failed(matchMappedAccChunks<cta::CombineColsOp>(op, rewriter)))
      return failure();
    auto cols = llvm::cast<cta::CombineColsOp>(*op->user_begin());
    Emitter e(rewriter, op.getLoc());
    // (The combine's index operands are defined before the map.)
    SmallVector<Value> indices;
    for (Value index : cols.getIndices())
      indices.push_back(rewriter.getRemappedValue(index));
    FailureOr<ColumnCombine> combine = ColumnCombine::prepare(
        e, cols, rewriter.getRemappedValue(cols.getRow()),
        rewriter.getRemappedValue(cols.getRowLimit()), indices, abis);
    if (failed(combine))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    int64_t columns = rowTileOf(op.getResult().getType()).columns;
    auto chunk = [&](Emitter &at, Value first, int64_t count) {
      combine->chunk(at,
                     mapAccChunk(rewriter, at, op, adaptor.getInputs(), first,
                                 count),
                     first);
    };
    int64_t whole = columns / kColumnsPerAccess;
    if (whole > 0)
      loopOverChunks(rewriter, e, whole, ValueRange(),
                     [&](Emitter &in, Value first, ValueRange) {
                       chunk(in, first, kColumnsPerAccess);
                       return SmallVector<Value>();
                     });
    if (int64_t rest = columns % kColumnsPerAccess)
      chunk(e, e.i32(whole * kColumnsPerAccess), rest);
    rewriter.eraseOp(cols);
    rewriter.eraseOp(op);
    return success();
  }

  const KernelABIs &abis;
};

/// A tensor-memory tile is its first column; uses add the allocation's base.
struct TmemAllocLowering : public OpConversionPattern<cta::TmemAllocOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::TmemAllocOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    std::optional<int64_t> column = op.getTmemColumn();
    if (!column)
      return rewriter.notifyMatchFailure(op, "no tensor-memory columns");
    Emitter e(rewriter, op.getLoc());
    rewriter.replaceOp(op, e.i32(*column));
    return success();
  }
};

/// The accumulator in a tile's columns, holding data. The fence orders this
/// thread's tensor-memory accesses after the thread synchronization (a
/// ring's barrier) that handed the tile over.
struct TmemAccLowering : public AbiPattern<cta::TmemAccOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::TmemAccOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value address = e.add(tmemBase(e, abis.of(op)), adaptor.getTile());
    rewriter.replaceOp(op, makeAcc(e, address, boolConstant(e, true)));
    return success();
  }
};

/// The 32-bit words of a row of `values` in a tile of `element`: the f32
/// bits, or pairs rounded to a 16-bit type and packed (the lower column in
/// the low half).
SmallVector<Value> packRow(Emitter &e, ArrayRef<Value> values, Type element) {
  SmallVector<Value> words;
  if (element.isF32()) {
    for (Value value : values)
      words.push_back(
          LLVM::BitcastOp::create(e.b, e.loc, e.i32Type(), value));
    return words;
  }
  auto pair = VectorType::get({2}, element);
  for (size_t i = 0; i + 1 < values.size(); i += 2) {
    Value v = LLVM::UndefOp::create(e.b, e.loc, pair);
    for (int64_t half = 0; half < 2; ++half)
      v = LLVM::InsertElementOp::create(
          e.b, e.loc, v,
          arith::TruncFOp::create(e.b, e.loc, element, values[i + half]),
          e.i32(half));
    words.push_back(LLVM::BitcastOp::create(e.b, e.loc, e.i32Type(), v));
  }
  return words;
}

/// Writes `words` (32-bit columns of the thread's row) from `address`
/// with tcgen05.st `.32x32b`, 32 columns per instruction.
void writeRow(Emitter &e, Value address, ArrayRef<Value> words) {
  for (size_t first = 0; first < words.size(); first += kColumnsPerAccess) {
    size_t count =
        std::min<size_t>(kColumnsPerAccess, words.size() - first);
    auto type = VectorType::get({static_cast<int64_t>(count)}, e.i32Type());
    Value vector = LLVM::UndefOp::create(e.b, e.loc, type);
    for (size_t i = 0; i < count; ++i)
      vector = LLVM::InsertElementOp::create(e.b, e.loc, vector,
                                             words[first + i],
                                             e.i32(static_cast<int64_t>(i)));
    NVVM::Tcgen05StOp::create(
        e.b, e.loc, /*unpack=*/false, NVVM::Tcgen05LdStShape::SHAPE_32X32B,
        tmemPointer(e, e.add(address, e.i32(static_cast<int64_t>(first)))),
        vector, Value());
  }
}

/// Each thread writes its row; cta.stage_commit waits for the stores
/// before the stage is handed on. The fence orders the writes after the
/// thread synchronization that handed the tile over (the wait of
/// cta.stage_acquire: the MMAs that read it have completed), as the PTX
/// ISA asks of tensor-memory accesses after a thread sync.
struct TmemStoreLowering : public AbiPattern<cta::TmemStoreOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::TmemStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    SmallVector<Value> values =
        rowValues(e, op.getValue().getType(), adaptor.getValue());
    fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value address = rowAddress(
        e, e.add(tmemBase(e, abis.of(op)), adaptor.getTile()));
    writeRow(e, address,
             packRow(e, values, op.getTile().getType().getElementType()));
    rewriter.eraseOp(op);
    return success();
  }
};

/// Each thread rewrites its row 32 columns at a time (load, wait, the body
/// per element, store), so at most 32 values of the tile are in registers;
/// the last wait::st makes the tile's new values what later reads see. The
/// first fence orders the accesses after the thread sync that handed the
/// tile over, as for cta.tmem_store.
struct TmemUpdateLowering : public AbiPattern<cta::TmemUpdateOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::TmemUpdateOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Emitter e(rewriter, loc);
    int64_t columns = op.getTile().getType().getShape()[1];
    fence(e, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
    Value address = rowAddress(
        e, e.add(tmemBase(e, abis.of(op)), adaptor.getTile()));
    Value row = e.toIndex(e.warpgroupLane());
    Block &body = op.getBody().front();
    for (int64_t first = 0; first < columns; first += kColumnsPerAccess) {
      int64_t count = std::min(kColumnsPerAccess, columns - first);
      Value at = e.add(address, e.i32(first));
      Value loaded = loadTmemColumns(e, at, count);
      NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::LOAD);
      SmallVector<Value> results;
      for (int64_t i = 0; i < count; ++i) {
        Value raw =
            LLVM::ExtractElementOp::create(rewriter, loc, loaded, e.i32(i));
        SmallVector<Value> args = {
            row, e.index(first + i),
            LLVM::BitcastOp::create(rewriter, loc, rewriter.getF32Type(),
                                    raw)};
        llvm::append_range(args, adaptor.getInputs());
        results.push_back(inlineElement(rewriter, body, args));
      }
      writeRow(e, at, packRow(e, results, rewriter.getF32Type()));
    }
    NVVM::Tcgen05WaitOp::create(rewriter, loc, NVVM::Tcgen05WaitKind::STORE);
    rewriter.eraseOp(op);
    return success();
  }
};

/// The warpgroup's writes into the stage are complete (each thread's
/// tcgen05.st waited for and fenced before the warpgroup's barrier); one
/// thread then arrives on the stage's full barrier (count 1), after which
/// the consumer fences after its wait and reads.
struct StageCommitLowering : public OpConversionPattern<cta::StageCommitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(cta::StageCommitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    int64_t stages = op.getRing().getType().getStages();
    NVVM::Tcgen05WaitOp::create(rewriter, op.getLoc(),
                                NVVM::Tcgen05WaitKind::STORE);
    fence(e, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
    Value barrier = e.warpgroupBarrierId();
    Value threads = e.i32(kWarpgroupThreads);
    NVVM::BarrierOp::create(rewriter, op.getLoc(), Type(), barrier, threads,
                            nullptr, Value());
    Value slot = e.ringSlot(e.toI32(adaptor.getPosition()), stages);
    Value lane = e.warpgroupLane();
    Value zero = e.i32(0);
    e.ifThen(e.eq(lane, zero), [&] {
      NVVM::MBarrierArriveOp::create(
          rewriter, op.getLoc(), Type(),
          e.barrier(adaptor.getRing(), slot, stages, /*empty=*/false),
          Value(), NVVM::MemScopeKind::CTA, false);
    });
    rewriter.eraseOp(op);
    return success();
  }
};

/// A rows vector read from memory: each thread loads its row's value,
/// clamped into the tensor like every index (readF32Clamped). (A cols
/// vector is no register tile here: checkRegisterOp reports it.)
struct ReadVectorLowering : public AbiPattern<cta::ReadVectorOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::ReadVectorOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    SmallVector<Value> indices = e.toI32(adaptor.getIndices());
    size_t rowAxis = indices.size() - 2;
    indices[rowAxis] = e.add(indices[rowAxis], e.warpgroupLane());
    FailureOr<Value> value = readF32Clamped(e, abis.of(op), abis.kernelOf(op),
                                            op.getSource(), indices);
    if (failed(value))
      return rewriter.notifyMatchFailure(op, "unknown source extents");
    rewriter.replaceOp(op, *value);
    return success();
  }
};

/// Each thread writes its row's value (clipped like every rows store).
struct StoreRowsLowering : public AbiPattern<cta::StoreRowsOp> {
  using AbiPattern::AbiPattern;
  LogicalResult
  matchAndRewrite(cta::StoreRowsOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Emitter e(rewriter, op.getLoc());
    FailureOr<VectorDestination> dest = rowsDestination(
        e, op, adaptor.getIndices(), adaptor.getRowLimit(), abis.of(op),
        abis.kernelOf(op));
    if (failed(dest))
      return rewriter.notifyMatchFailure(op, "unknown destination extents");
    Value first = e.toI32(adaptor.getIndices().back());
    Value row = e.add(first, e.warpgroupLane());
    dest->store(e, row, adaptor.getValue());
    rewriter.eraseOp(op);
    return success();
  }
};

} // namespace

void kiln::tcgen05::addRegisterConversions(TypeConverter &converter) {
  converter.addConversion([](cta::FragType type) -> std::optional<Type> {
    if (rowTileError(type))
      return std::nullopt;
    return loweredRowTile(type);
  });
  converter.addConversion([](cta::TmemType type) -> Type {
    return IntegerType::get(type.getContext(), 32);
  });
}

std::optional<LogicalResult> kiln::tcgen05::checkRegisterOp(Operation *op) {
  auto fail = [&](const Twine &why) -> std::optional<LogicalResult> {
    return LogicalResult(op->emitError() << "convert-cta-to-nvvm: " << why);
  };
  auto checkTypes = [&]() -> std::optional<LogicalResult> {
    SmallVector<Type> types(op->getOperandTypes());
    llvm::append_range(types, op->getResultTypes());
    for (Type type : types) {
      if (std::optional<std::string> error = rowTileError(type))
        return fail(*error);
      if (auto acc = llvm::dyn_cast<cta::AccType>(type);
          acc && acc.getShape()[0] != kRows)
        return fail(describe("a ", acc.getShape()[0], "-row ", type,
                             "; on sm_100a an accumulator has one row per "
                             "tensor-memory lane (", kRows, ")"));
    }
    return LogicalResult(success());
  };
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      .Case<cta::SplatOp, cta::ReduceRowsOp>(
          [&](Operation *) { return checkTypes(); })
      .Case([&](cta::FragMapOp map) -> std::optional<LogicalResult> {
        if (llvm::isa<cta::AccType>(map.getResult().getType()))
          return fail("a cta.frag_map yielding an accumulator on sm_100a, "
                      "whose accumulators live in tensor memory: change one "
                      "in place with cta.tmem_update");
        return checkTypes();
      })
      .Case([&](cta::ScaleRowsOp scale) -> std::optional<LogicalResult> {
        if (llvm::isa<cta::AccType>(scale.getInput().getType()))
          return fail("a cta.scale_rows of an accumulator on sm_100a, whose "
                      "accumulators live in tensor memory: change one in "
                      "place with cta.tmem_update");
        return checkTypes();
      })
      .Case([&](cta::ConvertOp) -> std::optional<LogicalResult> {
        return fail("cta.convert rounds into the MMA's register operand, "
                    "which sm_100a does not have: write the tile to tensor "
                    "memory with cta.tmem_store");
      })
      .Case<cta::TmemAllocOp, cta::TmemAccOp, cta::TmemStoreOp,
            cta::TmemUpdateOp, cta::StageCommitOp>(
          [&](Operation *) { return checkTypes(); })
      .Case([&](cta::StoreRowsOp rows) -> std::optional<LogicalResult> {
        if (std::optional<LogicalResult> types = checkTypes();
            failed(*types))
          return types;
        return LogicalResult(checkDestExtentsKnown(op, rows.getDest()));
      })
      .Case([&](cta::ReadVectorOp rows) -> std::optional<LogicalResult> {
        if (std::optional<LogicalResult> types = checkTypes();
            failed(*types))
          return types;
        return LogicalResult(
            checkDestExtentsKnown(op, rows.getSource(), "source"));
      })
      .Case([&](cta::CombineColsOp cols) -> std::optional<LogicalResult> {
        if (std::optional<LogicalResult> types = checkTypes();
            failed(*types))
          return types;
        return LogicalResult(checkDestExtentsKnown(op, cols.getDest()));
      })
      .Default([](Operation *) { return std::nullopt; });
}

void kiln::tcgen05::populateRegisterPatterns(TypeConverter &converter,
                                             RewritePatternSet &patterns,
                                             const KernelABIs &abis) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<SplatLowering, FragMapLowering, ReduceRowsLowering,
               ScaleRowsLowering, ReduceMappedAccRowsLowering,
               TmemAllocLowering, StageCommitLowering>(converter, ctx);
  patterns.add<TmemAccLowering, TmemStoreLowering, TmemUpdateLowering,
               StoreRowsLowering, ReadVectorLowering, CombineColsLowering,
               CombineMappedAccColsLowering>(converter, ctx, abis);
}
