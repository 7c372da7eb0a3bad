//===- TileStore.h - what every chip's cta.store lowering shares -*- C++ -*-===//
//
// A `cta.store` writes a tile through staging blocks in shared memory: one
// block per swizzle span of columns (one TMA box), taken from a small ring of
// such blocks. How a thread gets its accumulator elements into a block is a
// chip fact (wgmma fragments and stmatrix on sm_90a, tcgen05.ld rows on
// sm_100a); everything around that is the same on both and lives here:
// the destination's extents, reading epilogue inputs at an element's row and
// column, cloning the epilogue region, the swizzled byte offset inside a
// block, and moving a staged block to global memory (a TMA store; 16-byte
// stores masked by row below a row limit inside the tile; or plain masked
// stores when the runtime could not encode the tensor map).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_TILESTORE_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_TILESTORE_H

#include "compiler/Conversion/CtaToNVVM/LoweringUtils.h"

namespace kiln {

/// Width in bytes of one column block of `type` (its swizzle span, or the
/// whole row without a swizzle).
int64_t columnBlockBytes(cta::BufferType type);

/// The checks every chip's store lowering relies on, reported at the store:
/// it runs in a math or epilogue role, its tile streams through whole
/// staging blocks, and the destination's extents are known.
mlir::LogicalResult checkStoreStaging(cta::StoreOp store);

/// That every extent of `dest` (a program argument `op` writes, or reads
/// with plain loads: `what` names it) is a dim or a constant, so that
/// accesses can be clipped to it; else an error at `op`.
mlir::LogicalResult checkDestExtentsKnown(mlir::Operation *op,
                                          mlir::Value dest,
                                          llvm::StringRef what = "destination");

/// The i64 element offset of `indices` (i32, one per leading axis of a
/// tensor addressed with plain loads and stores, outermost first) along
/// those axes' strides.
mlir::Value leadingOffset(Emitter &e, mlir::LLVM::LLVMFuncOp kernel,
                          const PointerArgs &args, mlir::ValueRange indices);

/// One f32 element of program tensor `source` (read with plain loads) at
/// `indices` (i32, one per axis), each clamped to its axis's last position,
/// through the read-only cache; fails when an extent is unknown. The
/// tensor must not be empty.
mlir::FailureOr<mlir::Value> readF32Clamped(Emitter &e, const KernelABI &abi,
                                            mlir::LLVM::LLVMFuncOp kernel,
                                            mlir::Value source,
                                            llvm::ArrayRef<mlir::Value> indices);

/// Extent `axis` of program tensor `arg` as an i32 value: a constant or
/// the entry's dim parameter; fails when the ABI has neither.
mlir::FailureOr<mlir::Value> tensorExtent(Emitter &e, const KernelABI &abi,
                                          mlir::LLVM::LLVMFuncOp kernel,
                                          unsigned arg, unsigned axis);

/// Where a vector along a tensor's last axis goes: one value per tile row
/// (cta.store_rows) or per tile column (cta.combine_cols). The
/// destination's pointer and element type, the element offset of its
/// leading axes, the position no store reaches (the last extent, or a row
/// limit below it) and how a value combines with the element there. Each
/// chip decides which thread writes which position.
struct VectorDestination {
  mlir::Value pointer, outer, limit;
  mlir::Type element;
  /// none (a plain store), sum or max.
  std::optional<cta::ReduceKind> combine;
  /// Writes `value` (f32) at `position` (i32) when it is below the limit
  /// (and `when`, if given, holds): converted to the element type and
  /// stored, or with `combine` added (maxed) into the f32 element with a
  /// relaxed device-scope atomic.
  void store(Emitter &e, mlir::Value position, mlir::Value value,
             mlir::Value when = {}) const;
};
/// A cta.store_rows' rows.
mlir::FailureOr<VectorDestination>
rowsDestination(Emitter &e, cta::StoreRowsOp op, mlir::ValueRange indices,
                mlir::Value rowLimit, const KernelABI &abi,
                mlir::LLVM::LLVMFuncOp kernel);
/// A cta.combine_cols' columns, at its (converted) `indices`.
mlir::FailureOr<VectorDestination>
columnsDestination(Emitter &e, cta::CombineColsOp op, mlir::ValueRange indices,
                   const KernelABI &abi, mlir::LLVM::LLVMFuncOp kernel);

/// The chip-neutral half of one cta.store's lowering, for the warpgroup
/// that stores the tile. Construct it at the store, call `prepare()`, then
/// per staging block: `beginBlock`, write the block (the chip's part),
/// `endBlock`.
class TileStore {
public:
  TileStore(Emitter &e, cta::StoreOp op, mlir::ValueRange indices,
            mlir::Value rowLimit, mlir::Value group, mlir::Value staging,
            mlir::Value stagingSlot, const KernelABI &abi,
            mlir::LLVM::LLVMFuncOp kernel);

  /// Reads the destination's extents; fails when the ABI has none.
  mlir::LogicalResult prepare();

  /// Tile rows and columns, columns per staging block, blocks per tile and
  /// per staging ring, bytes per element.
  int64_t rows, columns, blockColumns, tileBlocks, ringBlocks, elementBytes;
  /// The staged element type.
  mlir::Type element;
  /// The tile's first row and column in the destination (its last two
  /// axes), and their extents; the row no store reaches (extentM, or the
  /// row limit below it).
  mlir::Value row0, col0, extentM, extentN, rowEnd;
  /// Its index along each leading axis of a destination of rank > 2 (one
  /// element per axis: a batch, a head), outermost first.
  llvm::SmallVector<mlir::Value, 3> outer;
  /// The thread's lane in the storing warpgroup.
  mlir::Value lane;

  /// Byte offset of (row, byte column) inside one swizzled staging block.
  mlir::Value swizzled(mlir::Value row, mlir::Value colBytes);
  /// The epilogue of one element: `values` are the stored values' elements,
  /// epilogue input `i` is read (once per distinct row/column key, until the
  /// next `beginBlock`) at `row`/`col` of the destination, given as offsets
  /// from the tile's origin (i32 values) plus constant `rowKey`/`colKey`
  /// offsets that identify them.
  mlir::Value epilogue(mlir::ArrayRef<mlir::Value> values, mlir::Value laneRow, int64_t rowKey,
                 mlir::Value laneCol, int64_t colKey);
  /// Waits until staging block `block` of the ring may be written again and
  /// returns its address.
  mlir::Value beginBlock(int64_t block);
  /// Publishes the written block to the async proxy and copies it out.
  void endBlock(mlir::Value buffer, int64_t block);
  /// A barrier over the storing warpgroup (named barrier 1 + its index).
  void syncWarpgroup();

private:
  mlir::Value loadInput(unsigned index, mlir::Value row, mlir::Value col);
  mlir::FailureOr<mlir::Value> extent(unsigned arg, unsigned axis);
  /// The destination's element offset of the tile's leading indices, and
  /// the address of element (row, col) there, for plain stores.
  mlir::Value destOuterOffset();
  mlir::Value destAddress(mlir::Value outerOffset, mlir::Value row,
                          mlir::Value col);
  /// Copies the staged element at `source` to destination (row, col).
  void copyElement(mlir::Value source, mlir::Value outerOffset,
                   mlir::Value row, mlir::Value col);
  void copyOutDirect(mlir::Value buffer, int64_t block);
  void copyOutChunks(mlir::Value buffer, int64_t block);

  Emitter &e;
  cta::StoreOp op;
  const KernelABI &abi;
  mlir::LLVM::LLVMFuncOp kernel;
  mlir::Value base, tensorMap, tmaOk, leader, rowLimit;
  /// Whether the runtime encoded the destination's tensor map (its base and
  /// strides 16-byte aligned), before a row limit inside the tile turns the
  /// bulk copy off.
  mlir::Value mapEncoded;
  /// The tile's group (i32), and the group count (leading extent) of each
  /// input read per group, by input index.
  mlir::Value group;
  llvm::DenseMap<unsigned, mlir::Value> groupCounts;
  int64_t span, swizzleMask, blockBytes;
  unsigned dest;
  llvm::DenseMap<std::tuple<unsigned, int64_t, int64_t>, mlir::Value> loaded;
};

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_TILESTORE_H
