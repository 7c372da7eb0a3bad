//===- TileStore.cpp - what every chip's cta.store lowering shares --------===//

#include "compiler/Conversion/CtaToNVVM/TileStore.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/TensorMapRules.h"

#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace kiln;

int64_t kiln::columnBlockBytes(cta::BufferType type) {
  if (type.getSwizzleMode() != target::SwizzleMode::None)
    return target::swizzleSpanBytes(type.getSwizzleMode());
  return type.getShape()[1] * type.getElementType().getIntOrFloatBitWidth() /
         8;
}

LogicalResult kiln::checkStoreStaging(cta::StoreOp store) {
  auto roles = store->getParentOfType<cta::WarpSpecializeOp>();
  std::optional<cta::RoleKind> role;
  if (roles)
    for (auto [index, body] : llvm::enumerate(roles.getBodies()))
      if (body.isAncestor(store->getParentRegion()))
        role = roles.getRole(index).getKind();
  if (role != cta::RoleKind::math && role != cta::RoleKind::epilogue)
    return store.emitError()
           << "convert-cta-to-nvvm: stores run in a math or epilogue role; "
           << (role ? "this one is in a " +
                          cta::stringifyRoleKind(*role).str() + " role"
                    : std::string("this one is outside the warp roles"));
  ArrayRef<int64_t> tile = store.getTileShape();
  if (tile[1] % 16 != 0)
    return store.emitError("convert-cta-to-nvvm: stored tiles must be "
                           "multiples of 64x16");
  if (!store.getStaging())
    return store.emitError("convert-cta-to-nvvm: stores need a staging "
                           "buffer");
  // The tile goes out in whole staging blocks of one swizzle span.
  cta::BufferType staging = store.getStaging().getType();
  int64_t blockColumns = columnBlockBytes(staging) * 8 /
                         staging.getElementType().getIntOrFloatBitWidth();
  if (staging.getShape()[0] != tile[0] || tile[1] % blockColumns != 0)
    return store.emitError()
           << "convert-cta-to-nvvm: a " << tile[0] << "x" << tile[1]
           << " tile cannot be staged through " << staging.getShape()[0] << "x"
           << staging.getShape()[1] << " buffer blocks of " << blockColumns
           << " columns";
  // Edge tiles are clipped to the destination's extents.
  return checkDestExtentsKnown(store, store.getDest());
}

LogicalResult kiln::checkDestExtentsKnown(Operation *op, Value dest,
                                          StringRef what) {
  auto arg = llvm::dyn_cast<BlockArgument>(dest);
  auto program = op->getParentOfType<cta::ProgramOp>();
  // (Other destinations are reported by the ABI analysis.)
  bool planned =
      arg && program && arg.getOwner() == &program.getBody().front();
  cta::ParamAttr param =
      planned ? program.getParam(arg.getArgNumber()) : cta::ParamAttr();
  auto known = [&](tile::DimExprAttr dim) {
    return findExtent(program, dim).known();
  };
  if (planned && (!param || !llvm::all_of(param.getShape(), known)))
    return op->emitError() << "convert-cta-to-nvvm: the " << what
                           << "'s extents are unknown (each must be a dim, a "
                              "dim plus a constant, or a constant)";
  return success();
}

Value kiln::leadingOffset(Emitter &e, LLVM::LLVMFuncOp kernel,
                          const PointerArgs &args, ValueRange indices) {
  OpBuilder &b = e.b;
  Type i64 = b.getI64Type();
  Value offset = e.i64(0);
  for (auto [axis, index] : llvm::enumerate(indices))
    offset = arith::AddIOp::create(
        b, e.loc, offset,
        arith::MulIOp::create(b, e.loc,
                              arith::ExtUIOp::create(b, e.loc, i64, index),
                              kernel.getArgument(args.strides[axis])));
  return offset;
}

FailureOr<Value> kiln::tensorExtent(Emitter &e, const KernelABI &abi,
                                    LLVM::LLVMFuncOp kernel, unsigned arg,
                                    unsigned axis) {
  auto extents = abi.extents.find(arg);
  if (extents == abi.extents.end() || axis >= extents->second.size())
    return failure();
  const ExtentArg &extent = extents->second[axis];
  if (extent.constant)
    return e.i32(*extent.constant);
  if (extent.dimParam && extent.divisor > 1)
    return e.ceilDiv(kernel.getArgument(*extent.dimParam),
                     e.i32(extent.divisor));
  if (extent.dimParam && extent.offset == 0)
    return Value(kernel.getArgument(*extent.dimParam));
  if (extent.dimParam)
    return e.add(kernel.getArgument(*extent.dimParam), e.i32(extent.offset));
  return failure();
}

FailureOr<Value> kiln::readF32Clamped(Emitter &e, const KernelABI &abi,
                                      LLVM::LLVMFuncOp kernel, Value source,
                                      ArrayRef<Value> indices) {
  unsigned arg = llvm::cast<BlockArgument>(source).getArgNumber();
  const PointerArgs &args = abi.pointerArgs.lookup(arg);
  SmallVector<Value> clamped;
  for (auto [axis, index] : llvm::enumerate(indices)) {
    FailureOr<Value> extent =
        tensorExtent(e, abi, kernel, arg, static_cast<unsigned>(axis));
    if (failed(extent))
      return failure();
    clamped.push_back(e.minU(index, e.sub(*extent, e.i32(1))));
  }
  Value offset = arith::AddIOp::create(
      e.b, e.loc,
      leadingOffset(e, kernel, args, ArrayRef<Value>(clamped).drop_back()),
      arith::ExtUIOp::create(e.b, e.loc, e.b.getI64Type(), clamped.back()));
  Value pointer = kernel.getArgument(args.pointer);
  Type f32 = e.b.getF32Type();
  Value address = LLVM::GEPOp::create(e.b, e.loc, pointer.getType(), f32,
                                      pointer, ValueRange{offset});
  return Value(LLVM::LoadOp::create(e.b, e.loc, f32, address, /*alignment=*/4,
                                    /*isVolatile=*/false,
                                    /*isNonTemporal=*/false,
                                    /*isInvariant=*/true));
}

static unsigned argNumber(Value memref) {
  return llvm::cast<BlockArgument>(memref).getArgNumber();
}

TileStore::TileStore(Emitter &e, cta::StoreOp op, ValueRange indices,
                     Value rowLimit, Value group, Value staging,
                     Value stagingSlot, const KernelABI &abi,
                     LLVM::LLVMFuncOp kernel)
    : e(e), op(op), abi(abi), kernel(kernel), rowLimit(rowLimit) {
  if (group)
    this->group = e.toI32(group);
  ArrayRef<int64_t> tile = op.getTileShape();
  cta::BufferType stagingType = op.getStaging().getType();
  element = stagingType.getElementType();
  rows = tile[0];
  columns = tile[1];
  span = columnBlockBytes(stagingType);
  elementBytes = element.getIntOrFloatBitWidth() / 8;
  swizzleMask = target::swizzleXorMask(stagingType.getSwizzleMode());
  blockColumns = span / elementBytes;
  tileBlocks = columns / blockColumns;
  ringBlocks = stagingType.getShape()[1] / blockColumns;
  blockBytes = rows * span;
  dest = argNumber(op.getDest());

  const StoreArgs &args = abi.storeArgs.lookup(op);
  size_t rank = indices.size();
  row0 = e.toI32(indices[rank - 2]);
  col0 = e.toI32(indices[rank - 1]);
  for (Value index : indices.drop_back(2))
    outer.push_back(e.toI32(index));
  lane = e.warpgroupLane();
  leader = e.eq(lane, e.i32(0));
  tmaOk = e.cmp(arith::CmpIPredicate::ne, kernel.getArgument(args.tmaOk),
                e.i32(0));
  mapEncoded = tmaOk;
  tensorMap = kernel.getArgument(args.tensorMap);
  Value slot = stagingSlot ? e.toI32(stagingSlot) : e.i32(0);
  base = e.bytePtr(staging, e.mul(slot, e.i32(stagingType.getStageBytes())));
}

FailureOr<Value> TileStore::extent(unsigned arg, unsigned axis) {
  return tensorExtent(e, abi, kernel, arg, axis);
}

LogicalResult TileStore::prepare() {
  unsigned rank = outer.size() + 2;
  FailureOr<Value> m = extent(dest, rank - 2), n = extent(dest, rank - 1);
  if (failed(m) || failed(n))
    return failure();
  extentM = *m;
  extentN = *n;
  rowEnd = extentM;
  for (auto [index, input] : llvm::enumerate(op.getInputs())) {
    if (!cta::readsByGroup(op.getInputKind(index)))
      continue;
    FailureOr<Value> count = extent(argNumber(input), 0);
    if (failed(count))
      return failure();
    groupCounts[index] = *count;
  }
  // A row limit (a group's end) inside the tile: the bulk copy, which
  // clips only at the tensor's end, would write the rows past it, so the
  // block goes out with plain stores below it.
  if (rowLimit) {
    Value limit = e.toI32(rowLimit);
    rowEnd = e.minU(extentM, limit);
    tmaOk = e.andI(tmaOk, e.cmp(arith::CmpIPredicate::ule,
                                e.add(row0, e.i32(rows)), limit));
  }
  return success();
}

Value TileStore::swizzled(Value row, Value colBytes) {
  Value offset = e.add(e.mul(row, e.i32(span)), colBytes);
  if (swizzleMask == 0)
    return offset;
  Value phase = e.andI(e.lshr(offset, e.i32(target::swizzleRowShift)),
                       e.i32(swizzleMask));
  return e.xorI(offset, e.shl(phase, e.i32(target::swizzleChunkShift)));
}

void TileStore::syncWarpgroup() {
  NVVM::BarrierOp::create(e.b, e.loc, Type(), e.warpgroupBarrierId(),
                          e.i32(kWarpgroupThreads), nullptr, Value());
}

/// Loads element (row, col) of epilogue input `index` (a program tensor read
/// as its kind), or zero outside the destination's extents.
Value TileStore::loadInput(unsigned index, Value row, Value col) {
  Value input = op.getInputs()[index];
  cta::InputKind kind = op.getInputKind(index);
  auto type = llvm::cast<MemRefType>(input.getType());
  Type inputElement = type.getElementType();
  const PointerArgs &args = abi.pointerArgs.lookup(argNumber(input));
  bool byRow = cta::readsByRow(kind), byCol = cta::readsByCol(kind);
  OpBuilder &b = e.b;
  Value inside = arith::ConstantIntOp::create(b, e.loc, 1, 1);
  Type i64 = b.getI64Type();
  Value offset = e.i64(0);
  // Outside the destination the element reads as zero. The load itself is
  // not branched around: its row and column are clamped into the tensor
  // (which has an element: a tile was walked) and the value selected away,
  // so that a block's input loads are independent and issue back to back
  // instead of one guarded branch at a time.
  auto clamp = [&](Value index, Value extent) {
    return arith::MinUIOp::create(b, e.loc, index, e.sub(extent, e.i32(1)))
        .getResult();
  };
  if (byRow) {
    inside = e.andI(inside, e.ult(row, extentM));
    // A [M, 1] or [M, N] input: rows are its first axis.
    Value stride = kernel.getArgument(args.strides[0]);
    offset = arith::MulIOp::create(
        b, e.loc,
        arith::ExtUIOp::create(b, e.loc, i64, clamp(row, extentM)), stride);
  }
  if (cta::readsByGroup(kind)) {
    // Row `group` of a [E, 1] or [E, N] tensor (the walk's group is below
    // E; the clamp keeps a tensor bound with fewer rows in bounds).
    Value stride = kernel.getArgument(args.strides[0]);
    Value row = clamp(group, groupCounts.lookup(index));
    offset = arith::MulIOp::create(
        b, e.loc, arith::ExtUIOp::create(b, e.loc, i64, row), stride);
  }
  if (byCol) {
    inside = e.andI(inside, e.ult(col, extentN));
    offset = arith::AddIOp::create(
        b, e.loc, offset,
        arith::ExtUIOp::create(b, e.loc, i64, clamp(col, extentN)));
  }
  Value pointer = kernel.getArgument(args.pointer);
  Value address = LLVM::GEPOp::create(b, e.loc, pointer.getType(),
                                      inputElement, pointer, ValueRange{offset});
  Value value = LLVM::LoadOp::create(b, e.loc, inputElement, address);
  return arith::SelectOp::create(
      b, e.loc, inside, value,
      arith::ConstantOp::create(b, e.loc, b.getZeroAttr(inputElement)));
}

Value TileStore::epilogue(ArrayRef<Value> values, Value laneRow,
                          int64_t rowKey, Value laneCol, int64_t colKey) {
  Block &body = op.getEpilogue().front();
  IRMapping mapping;
  for (auto [arg, value] : llvm::zip(body.getArguments(), values))
    mapping.map(arg, value);
  for (unsigned in = 0; in < op.getInputs().size(); ++in) {
    cta::InputKind kind = op.getInputKind(in);
    bool byRow = cta::readsByRow(kind), byCol = cta::readsByCol(kind);
    auto key = std::make_tuple(in, byRow ? rowKey : -1, byCol ? colKey : -1);
    Value value = loaded.lookup(key);
    if (!value) {
      Value row = byRow ? e.add(laneRow, e.i32(rowKey)) : e.i32(0);
      Value col = byCol ? e.add(laneCol, e.i32(colKey)) : e.i32(0);
      value = loaded[key] = loadInput(in, row, col);
    }
    mapping.map(body.getArgument(values.size() + in), value);
  }
  for (Operation &inner : body.without_terminator())
    e.b.clone(inner, mapping);
  return mapping.lookupOrDefault(
      llvm::cast<cta::YieldOp>(body.getTerminator()).getValues()[0]);
}

Value TileStore::beginBlock(int64_t block) {
  // Inputs are read once per block: keeping them live across blocks would
  // hold registers next to the accumulators.
  loaded.clear();
  Value buffer = e.bytePtr(base, (block % ringBlocks) * blockBytes);
  // The bulk store that last read this ring slot must be done reading. The
  // first block of a store waits for every earlier store: the previous store
  // (of this tile or the last) may have ended on any slot. (Direct copies
  // finished before the barrier in endBlock.)
  e.ifThen(leader, [&] {
    NVVM::CpAsyncBulkWaitGroupOp::create(
        e.b, e.loc, block == 0 ? 0 : ringBlocks - 1, e.b.getUnitAttr());
  });
  syncWarpgroup();
  return buffer;
}

Value TileStore::destOuterOffset() {
  return leadingOffset(e, kernel, abi.pointerArgs.lookup(dest), outer);
}

Value TileStore::destAddress(Value outerOffset, Value row, Value col) {
  OpBuilder &b = e.b;
  const PointerArgs &pointerArgs = abi.pointerArgs.lookup(dest);
  Value pointer = kernel.getArgument(pointerArgs.pointer);
  Value stride = kernel.getArgument(pointerArgs.strides[outer.size()]);
  Type i64 = b.getI64Type();
  Value at = arith::AddIOp::create(
      b, e.loc,
      arith::MulIOp::create(
          b, e.loc, arith::ExtUIOp::create(b, e.loc, i64, row), stride),
      arith::ExtUIOp::create(b, e.loc, i64, col));
  at = arith::AddIOp::create(b, e.loc, at, outerOffset);
  return LLVM::GEPOp::create(b, e.loc, pointer.getType(), element, pointer,
                             ValueRange{at});
}

void TileStore::copyElement(Value source, Value outerOffset, Value row,
                            Value col) {
  Value value = LLVM::LoadOp::create(e.b, e.loc, element, source);
  LLVM::StoreOp::create(e.b, e.loc, value, destAddress(outerOffset, row, col));
}

/// Copies one staged block to global memory without a tensor map: every
/// thread of the warpgroup moves elements (consecutive threads along a row,
/// so the stores coalesce), masked to the tensor.
void TileStore::copyOutDirect(Value buffer, int64_t block) {
  int64_t elements = rows * blockColumns;
  // The leading axes' part of every element's offset.
  Value outerOffset = destOuterOffset();
  // (The lane read here: LLVM would otherwise compute every element's
  // swizzled address at the kernel's entry, for this rarely taken path, and
  // keep them live through the whole kernel: 29 spilled registers in the
  // sm_100a attention kernel, whose softmax holds a 128-column row.)
  Value here = e.warpgroupLaneHere();
  for (int64_t k = 0; k < elements / kWarpgroupThreads; ++k) {
    Value index = e.add(e.i32(k * kWarpgroupThreads), here);
    Value r = e.udiv(index, e.i32(blockColumns));
    Value c = e.urem(index, e.i32(blockColumns));
    Value row = e.add(row0, r);
    Value col = e.add(col0, e.add(c, e.i32(block * blockColumns)));
    Value inside = e.andI(e.ult(row, rowEnd), e.ult(col, extentN));
    e.ifThen(inside, [&] {
      Value offset = swizzled(r, e.mul(c, e.i32(elementBytes)));
      copyElement(e.bytePtr(buffer, offset), outerOffset, row, col);
    });
  }
}

void TileStore::endBlock(Value buffer, int64_t block) {
  OpBuilder &b = e.b;
  const TensorMapPlan &plan = abi.tensorMaps[abi.storeArgs.lookup(op).tensorMap];
  // Generic-proxy writes must be visible to the bulk copy (async proxy).
  NVVM::FenceProxyOp::create(
      b, e.loc, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  syncWarpgroup();
  // One bulk copy per block, or, when the runtime could not encode the
  // destination's tensor map (rows not 16-byte aligned), plain stores.
  auto copyOut = scf::IfOp::create(b, e.loc, tmaOk, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&copyOut.getThenRegion().front());
  e.ifThen(leader, [&] {
    // Innermost first: the column, the row, then the leading axes.
    SmallVector<Value> coords = {e.add(col0, e.i32(block * plan.boxes.box[0])),
                                 row0};
    coords.append(outer.rbegin(), outer.rend());
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, e.loc, tensorMap, buffer, coords, Value(), NVVM::TMAStoreMode::TILE,
        Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b, e.loc);
  });
  b.setInsertionPointToStart(&copyOut.getElseRegion().front());
  if (!rowLimit) {
    copyOutDirect(buffer, block);
    return;
  }
  // Below a row limit (a group's last tile, on every group of a grouped
  // GEMM) the copy is the common case, not the fallback: 16-byte pieces
  // where the map's alignment allows them, one element each otherwise.
  auto chunked = scf::IfOp::create(b, e.loc, mapEncoded,
                                   /*withElseRegion=*/true);
  b.setInsertionPointToStart(&chunked.getThenRegion().front());
  copyOutChunks(buffer, block);
  b.setInsertionPointToStart(&chunked.getElseRegion().front());
  copyOutDirect(buffer, block);
}

/// Copies one staged block to global memory in 16-byte pieces (a swizzle
/// moves whole 16-byte chunks, so each piece is contiguous in the block
/// too): consecutive threads along a row, a row's pieces written or not as
/// one (below `rowEnd`), the last piece of a row that ends inside it
/// element by element. Only where the runtime encoded the destination's
/// tensor map: its base and strides are then 16-byte aligned, and a
/// piece's column a multiple of its elements.
void TileStore::copyOutChunks(Value buffer, int64_t block) {
  OpBuilder &b = e.b;
  Value outerOffset = destOuterOffset();
  // A piece is one swizzle chunk (contiguous in the staging block), and the
  // encoded map's alignment makes it one aligned vector store in global
  // memory.
  constexpr int64_t pieceBytes = target::swizzleChunkBytes;
  static_assert(pieceBytes <= target::tmaGlobalAlignBytes,
                "a piece is aligned only up to the map's alignment");
  int64_t pieceElements = pieceBytes / elementBytes;
  int64_t rowPieces = span / pieceBytes;
  int64_t pieces = rows * rowPieces;
  auto vector = VectorType::get({pieceBytes / 4}, b.getI32Type());
  Value here = e.warpgroupLaneHere();
  for (int64_t k = 0; k * kWarpgroupThreads < pieces; ++k) {
    Value index = e.add(e.i32(k * kWarpgroupThreads), here);
    Value r = e.udiv(index, e.i32(rowPieces));
    Value p = e.urem(index, e.i32(rowPieces));
    Value row = e.add(row0, r);
    Value col = e.add(col0, e.add(e.mul(p, e.i32(pieceElements)),
                                  e.i32(block * blockColumns)));
    Value live = e.ult(row, rowEnd);
    if ((k + 1) * kWarpgroupThreads > pieces)
      live = e.andI(live, e.ult(index, e.i32(pieces)));
    Value whole = e.cmp(arith::CmpIPredicate::ule,
                        e.add(col, e.i32(pieceElements)), extentN);
    Value source = e.bytePtr(buffer, swizzled(r, e.mul(p, e.i32(pieceBytes))));
    auto piece = scf::IfOp::create(b, e.loc, e.andI(live, whole),
                                   /*withElseRegion=*/true);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(&piece.getThenRegion().front());
    Value value = LLVM::LoadOp::create(b, e.loc, vector, source, pieceBytes);
    LLVM::StoreOp::create(b, e.loc, value, destAddress(outerOffset, row, col),
                          pieceBytes);
    // The row's last piece, cut by the tensor's last column.
    b.setInsertionPointToStart(&piece.getElseRegion().front());
    e.ifThen(e.andI(live, e.ult(col, extentN)), [&] {
      for (int64_t l = 0; l < pieceElements; ++l) {
        Value c = e.add(col, e.i32(l));
        e.ifThen(e.ult(c, extentN), [&] {
          copyElement(e.bytePtr(source, l * elementBytes), outerOffset, row,
                      c);
        });
      }
    });
  }
}

/// The destination of a vector store into program tensor `dest`: its
/// pointer, the offset of `leading` (one index per axis before the last)
/// and its last extent as the limit, or `limit` (index) where it is lower.
static FailureOr<VectorDestination>
vectorDestination(Emitter &e, Value destValue, ValueRange leading,
                  Value limit, const KernelABI &abi,
                  LLVM::LLVMFuncOp kernel) {
  unsigned dest = llvm::cast<BlockArgument>(destValue).getArgNumber();
  auto destType = llvm::cast<MemRefType>(destValue.getType());
  FailureOr<Value> extent =
      tensorExtent(e, abi, kernel, dest, destType.getRank() - 1);
  if (failed(extent))
    return failure();
  VectorDestination vector;
  vector.limit = *extent;
  if (limit)
    vector.limit = e.minU(vector.limit, e.toI32(limit));
  const PointerArgs &args = abi.pointerArgs.lookup(dest);
  vector.pointer = kernel.getArgument(args.pointer);
  SmallVector<Value> indices;
  for (Value index : leading)
    indices.push_back(e.toI32(index));
  vector.outer = leadingOffset(e, kernel, args, indices);
  vector.element = destType.getElementType();
  return vector;
}

FailureOr<VectorDestination>
kiln::rowsDestination(Emitter &e, cta::StoreRowsOp op, ValueRange indices,
                      Value rowLimit, const KernelABI &abi,
                      LLVM::LLVMFuncOp kernel) {
  FailureOr<VectorDestination> rows = vectorDestination(
      e, op.getDest(), indices.drop_back(), rowLimit, abi, kernel);
  if (failed(rows))
    return failure();
  rows->combine = op.getCombine();
  return rows;
}

FailureOr<VectorDestination>
kiln::columnsDestination(Emitter &e, cta::CombineColsOp op,
                         ValueRange indices, const KernelABI &abi,
                         LLVM::LLVMFuncOp kernel) {
  FailureOr<VectorDestination> cols = vectorDestination(
      e, op.getDest(), indices.drop_back(), Value(), abi, kernel);
  if (failed(cols))
    return failure();
  cols->combine = op.getKind();
  return cols;
}

void VectorDestination::store(Emitter &e, Value position, Value value,
                              Value when) const {
  if (!combine && !element.isF32())
    value = arith::TruncFOp::create(e.b, e.loc, element, value);
  Value inside = e.ult(position, limit);
  e.ifThen(when ? e.andI(when, inside) : inside, [&] {
    Value at = arith::AddIOp::create(
        e.b, e.loc, outer,
        arith::ExtUIOp::create(e.b, e.loc, e.b.getI64Type(), position));
    Value address = LLVM::GEPOp::create(e.b, e.loc, pointer.getType(),
                                        element, pointer, ValueRange{at});
    if (!combine) {
      LLVM::StoreOp::create(e.b, e.loc, value, address);
      return;
    }
    LLVM::AtomicRMWOp::create(e.b, e.loc,
                              *combine == cta::ReduceKind::sum
                                  ? LLVM::AtomicBinOp::fadd
                                  : LLVM::AtomicBinOp::fmax,
                              address, value, LLVM::AtomicOrdering::monotonic,
                              "device");
  });
}
