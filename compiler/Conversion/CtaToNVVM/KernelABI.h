//===- KernelABI.h - the launch ABI of a lowered cta.program ----*- C++ -*-===//
//
// Before a program is lowered, everything the host must know to launch it,
// and everything a lowering pattern must know about the program as a whole,
// is decided in one analysis: which tensor maps exist (one per distinct
// global tensor, box and swizzle), the order and type of the entry's
// parameters, the grid rule and the stream-K workspace. The same decisions
// produce the manifest, so the cubin and its manifest cannot disagree.
// Shared and tensor memory and the facts about an op's warp role were
// decided before, by cta-allocate-resources, and are read from the IR.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_KERNELABI_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_KERNELABI_H

#include "compiler/Target/TensorMapRules.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "runtime/Manifest.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace kiln {

/// One TMA descriptor of the kernel and how its boxes fill a buffer.
struct TensorMapPlan {
  /// The program argument (a memref) it describes.
  unsigned programArg = 0;
  target::TmaBoxPlan boxes;
};

/// Entry parameters of one `cta.store` that may fall back to plain stores.
struct StoreArgs {
  unsigned tensorMap = 0; ///< entry param of the destination's tensor map
  unsigned tmaOk = 0;     ///< i32: 1 when the tensor map could be encoded
};

/// One extent of a global tensor: a constant, an i32 dim parameter plus a
/// constant (`E+1`), or neither (an expression such as `K*2`, which plain
/// accesses do not take).
struct ExtentArg {
  std::optional<int64_t> constant;
  std::optional<unsigned> dimParam;
  int64_t offset = 0;
  /// `cdiv(dim, divisor)` where above 1 (a block-scale tensor's extent).
  int64_t divisor = 1;
};

/// What a program's entry passes for one global tensor that the kernel
/// addresses with plain loads or stores (store destinations, epilogue
/// inputs).
struct PointerArgs {
  unsigned pointer = 0; ///< !llvm.ptr<1>: the tensor's base address
  /// i64 element strides of every axis but the last (which is 1).
  llvm::SmallVector<unsigned, 2> strides;
};

/// Where the two parts of a tile that a stream-K walk split exchange their
/// accumulators (`cta.stream_k_join`), for region `r = partial * clusterSize
/// + rank`: its warpgroups' arrival counters, 16 bytes each, at
/// `r * kWorkspaceCounterStride` in the workspace's counter area
/// (runtime/Manifest.h), and after that area, at `r * regionBytes()`, the
/// sums of part 0 (the tile's first K steps) then of part 1, each `floats`
/// f32 per thread of the role as float4s (float4 `j` of thread `t` at
/// `(j * threads + t) * 16`, so each float4 store is coalesced).
struct StreamKJoinPlan {
  int64_t firstWarpgroup = 0; ///< of the role it runs in
  int64_t threads = 0;        ///< threads of that role
  int64_t floats = 0;         ///< accumulator registers per thread
  int64_t partBytes() const { return threads * floats * 4; }
  int64_t regionBytes() const { return 2 * partBytes(); }
};

struct KernelABI {
  /// Tensor maps, which are also the first entry parameters, in order.
  llvm::SmallVector<TensorMapPlan> tensorMaps;
  /// For each cta.load: the entry parameter of its tensor map.
  llvm::DenseMap<mlir::Operation *, unsigned> loadMap;
  /// For each cta.store: its tensor-map parameters.
  llvm::DenseMap<mlir::Operation *, StoreArgs> storeArgs;
  /// For each program memref argument read or written with plain memory
  /// operations: its pointer and stride parameters.
  llvm::DenseMap<unsigned, PointerArgs> pointerArgs;
  /// For each program memref argument: its extents, outermost first.
  llvm::DenseMap<unsigned, llvm::SmallVector<ExtentArg, 4>> extents;
  /// For each program `index` argument (a dim): its i32 entry parameter.
  llvm::DenseMap<unsigned, unsigned> dimArgs;
  /// The entry's parameter types, in order.
  llvm::SmallVector<mlir::Type> entryTypes;
  /// Dynamic shared memory in bytes (the program's `smem_bytes`).
  int64_t smemBytes = 0;
  /// Tensor memory (the program's `tmem_columns`, `tmem_slot`): the columns
  /// tcgen05.alloc asks for (0: none) and the shared-memory offset of the
  /// slot it writes their address to.
  int64_t tmemColumns = 0;
  int64_t tmemSlot = 0;
  /// Threads per CTA and CTAs per cluster (along x).
  int64_t blockThreads = 0;
  int64_t clusterSize = 1;
  /// Whether the program's MMAs span CTA pairs (`cta.mma {cta_pair}`,
  /// sm_100a): the even CTA of each 2x1 cluster issues them for both.
  bool ctaPair = false;

  /// For each cta.warp_specialize: whether role `i` issues bulk (TMA)
  /// stores, which must complete before its warps exit.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<bool>> roleStores;
  /// Tile walks one thread runs (those of producer and MMA roles, which an
  /// elected thread runs); every other walk runs in whole warps.
  llvm::DenseSet<mlir::Operation *> singleThreadWalks;
  /// For each cta.stream_k_join: its workspace layout.
  llvm::DenseMap<mlir::Operation *, StreamKJoinPlan> streamKJoins;
  /// Entry parameter of the stream-K workspace (when streamKJoins is not
  /// empty): a global pointer to `launch.workspacePerCta` bytes per CTA of
  /// the grid, zero before the launch and left zero after it.
  unsigned workspaceArg = 0;

  /// What the runtime needs; `cubin` and `source` are left to the driver.
  Manifest manifest;
};

/// The ABI and kernel function of every program convert-cta-to-nvvm lowers.
/// The patterns are built once per pass, not per program, and find the
/// program an op belongs to here: by the enclosing cta.program before the
/// program's body has moved into its kernel, by the kernel function after
/// (a kernel has its program's name).
class KernelABIs {
public:
  /// Records `abi` for the program (and kernel) named `abi.manifest.entry`.
  void add(KernelABI abi, mlir::LLVM::LLVMFuncOp kernel);
  void clear() { entries.clear(); }

  /// The ABI of the program `op` belongs to; it must have been added.
  const KernelABI &of(mlir::Operation *op) const { return entryOf(op).abi; }
  /// The kernel function of the program `op` belongs to.
  mlir::LLVM::LLVMFuncOp kernelOf(mlir::Operation *op) const {
    return entryOf(op).kernel;
  }

private:
  struct Entry {
    KernelABI abi;
    mlir::LLVM::LLVMFuncOp kernel;
  };
  const Entry &entryOf(mlir::Operation *op) const;
  llvm::StringMap<Entry> entries;
};

/// Decides the ABI of `program`; reports unsupported shapes at the op.
mlir::FailureOr<KernelABI> planKernelABI(cta::ProgramOp program);

/// Where `program` gets extent `dim` (an axis of a tensor's `#cta.param`):
/// its constant value, or the index of the program argument (`cta.dim`) that
/// carries it plus a constant (`E+1`: E's argument, offset 1) or divided by
/// one, rounding up (`cdiv(K, 128)`); neither for an expression such as
/// `K*2`.
struct ExtentSource {
  std::optional<int64_t> constant;
  std::optional<unsigned> dimArgument;
  int64_t offset = 0;
  int64_t divisor = 1;
  bool known() const { return constant || dimArgument; }
};
ExtentSource findExtent(cta::ProgramOp program, tile::DimExprAttr dim);


} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_KERNELABI_H
