//===- AllocateResources.cpp - decide each program's on-chip resources ---===//
//
// Everything about a program's shared memory, tensor memory and warp roles
// that the lowering used to decide in side tables is decided here and
// written into the IR, where --emit=cta shows it and lit tests check it:
//
// - shared memory: each buffer at a 1024-byte boundary (swizzle atoms and
//   TMA boxes then start on a pattern boundary, so MMA descriptors keep
//   base_offset 0), then each barrier ring (`smem_offset`); the program's
//   total (`smem_bytes`);
// - tensor memory (chips that have it): each accumulator, tensor-memory
//   tile and accumulator ring, then each block-scale buffer's region, one slice per ring stage
//   (`tmem_column`); the program's allocation (`tmem_columns`, a power of two)
//   and the shared-memory slot tcgen05.alloc writes its address to
//   (`tmem_slot`);
// - role facts: the first warpgroup of the role a cta.warpgroup_index runs
//   in (`first_warpgroup`), MMAs that are a pipelined stage's batch
//   (`in_stage`), ops a single elected thread issues (`one_thread`: in a
//   producer or mma role: MMAs, K loops, commits and stage releases), stores in an epilogue role (`in_epilogue_role`).
//
// The pass recomputes all of it, so it may run again on edited IR.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/BlockScaleLayout.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/TensorMemory.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "dialects/Cta/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

namespace kiln::cta {
#define GEN_PASS_DEF_CTAALLOCATERESOURCES
#include "dialects/Cta/Transforms/Passes.h.inc"
} // namespace kiln::cta

using namespace mlir;
using namespace kiln;
using namespace kiln::cta;

namespace {

/// Alignment of every shared-memory buffer: a 128-byte swizzle's whole
/// 8-row pattern.
constexpr int64_t kBufferAlignment = target::swizzleAtomAlignment;

/// The dynamic shared-memory window is sized in these units.
constexpr int64_t kSmemGranule = 128;

LogicalResult allocateSharedMemory(ProgramOp program, int64_t &bytes) {
  Builder b(program.getContext());
  Block &body = program.getBody().front();
  int64_t offset = 0;
  for (AllocOp alloc : body.getOps<AllocOp>()) {
    offset = llvm::alignTo(offset, kBufferAlignment);
    alloc.setSmemOffsetAttr(b.getI64IntegerAttr(offset));
    offset += alloc.getBuffer().getType().getTotalBytes();
  }
  // Barrier rings: a full and an empty mbarrier per stage.
  auto barriers = [&](Operation *op, int64_t stages) {
    offset = llvm::alignTo(offset, target::mbarrierBytes);
    op->setAttr("smem_offset", b.getI64IntegerAttr(offset));
    offset += 2 * target::mbarrierBytes * stages;
  };
  for (RingOp ring : body.getOps<RingOp>())
    barriers(ring, ring.getRing().getType().getStages());
  for (AccRingOp ring : body.getOps<AccRingOp>())
    barriers(ring, ring.getRing().getType().getStages());
  bytes = llvm::alignTo(offset, kSmemGranule);
  return success();
}

/// Scale-factor atoms (32 rows of 16 bytes) of a block-scale buffer.
int64_t scaleAtoms(BufferType buffer) {
  return buffer.getShape()[0] / target::scaleFactorAtomBufferRows;
}

LogicalResult allocateTensorMemory(ProgramOp program,
                                   const target::ChipInfo &chip,
                                   int64_t &smemBytes) {
  Builder b(program.getContext());
  int64_t columns = 0;
  program.walk([&](AccZeroOp zero) {
    zero.setTmemColumnAttr(b.getI64IntegerAttr(columns));
    columns += zero.getAcc().getType().getShape()[1];
  });
  // Tensor-memory tiles the roles share.
  for (TmemAllocOp tile :
       program.getBody().front().getOps<TmemAllocOp>()) {
    tile.setTmemColumnAttr(b.getI64IntegerAttr(columns));
    columns += tile.getTile().getType().getColumns();
  }
  // An accumulator ring: its sets one after the other.
  program.walk([&](AccRingOp ring) {
    ring.setTmemColumnAttr(b.getI64IntegerAttr(columns));
    AccRingType type = ring.getRing().getType();
    columns += type.getStages() * type.getSetColumns();
  });
  // Block scales: a region per scale buffer, one slice per ring stage (the
  // copies of a stage may be in flight while the previous stage's MMAs
  // still read theirs).
  llvm::SmallPtrSet<Operation *, 4> scaled;
  WalkResult walk = program.walk([&](MmaOp mma) {
    for (Value scale : {mma.getLhsScale(), mma.getRhsScale()}) {
      if (!scale)
        continue;
      auto alloc = scale.getDefiningOp<AllocOp>();
      if (!alloc) {
        mma.emitError("cta-allocate-resources: block scales must come from a "
                      "cta.alloc");
        return WalkResult::interrupt();
      }
      if (!scaled.insert(alloc).second)
        continue;
      BufferType type = alloc.getBuffer().getType();
      alloc.setTmemColumnAttr(b.getI64IntegerAttr(columns));
      columns += type.getStages() * scaleAtoms(type) *
                 target::scaleFactorAtomTmemColumns;
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  program.removeTmemColumnsAttr();
  program.removeTmemSlotAttr();
  if (columns == 0)
    return success();
  target::ValueOrError<uint32_t> allocation =
      target::tmemAllocationColumns(static_cast<uint32_t>(
          std::min<int64_t>(columns, std::numeric_limits<uint32_t>::max())));
  if (!allocation)
    return program.emitError()
           << "cta-allocate-resources: the accumulators, tensor-memory tiles and "
              "block scales need "
           << columns << " tensor-memory columns; " << chip.tensorMemoryColumns
           << " exist (" << allocation.error() << ")";
  program.setTmemColumnsAttr(b.getI64IntegerAttr(*allocation));
  // The slot tcgen05.alloc writes the base address to, after everything
  // else in shared memory.
  program.setTmemSlotAttr(b.getI64IntegerAttr(smemBytes));
  smemBytes = llvm::alignTo(smemBytes + 4, kSmemGranule);
  return success();
}

/// Facts about ops that depend on the warp role they run in, which their
/// lowering can no longer see once the roles have been lowered.
void recordRoleFacts(ProgramOp program) {
  Builder b(program.getContext());
  // MMAs directly in a consume step form that stage's asynchronous batch.
  program.walk([&](MmaOp mma) {
    mma.setInStage(llvm::isa_and_nonnull<ConsumeOp>(mma->getParentOp()));
  });
  program.walk([&](WarpSpecializeOp roles) {
    for (auto [index, region] : llvm::enumerate(roles.getBodies())) {
      RoleAttr role = roles.getRole(index);
      int64_t firstWarpgroup =
          roles.getFirstWarp(index) / target::warpsPerWarpgroup;
      // A producer's or an MMA warp's body runs in one elected thread.
      bool oneThread = role.getKind() == RoleKind::producer ||
                       role.getKind() == RoleKind::mma;
      bool epilogue = role.getKind() == RoleKind::epilogue;
      region.walk([&](Operation *op) {
        if (auto index = llvm::dyn_cast<WarpgroupIndexOp>(op))
          index.setFirstWarpgroupAttr(b.getI64IntegerAttr(firstWarpgroup));
        else if (auto mma = llvm::dyn_cast<MmaOp>(op))
          mma.setOneThread(oneThread);
        else if (auto consume = llvm::dyn_cast<ConsumeOp>(op))
          consume.setOneThread(oneThread);
        else if (auto commit = llvm::dyn_cast<AccCommitOp>(op))
          commit.setOneThread(oneThread);
        else if (auto release = llvm::dyn_cast<StageReleaseOp>(op))
          release.setOneThread(oneThread);
        else if (auto store = llvm::dyn_cast<StoreOp>(op))
          store.setInEpilogueRole(epilogue);
      });
    }
  });
}

struct CtaAllocateResourcesPass
    : public kiln::cta::impl::CtaAllocateResourcesBase<
          CtaAllocateResourcesPass> {
  void runOnOperation() override {
    ProgramOp program = getOperation();
    int64_t smemBytes = 0;
    if (failed(allocateSharedMemory(program, smemBytes)))
      return signalPassFailure();
    if (ChipAttr chip = program.getChipAttr();
        chip && chip.getInfo().hasTensorMemory() &&
        failed(allocateTensorMemory(program, chip.getInfo(), smemBytes)))
      return signalPassFailure();
    if (ChipAttr chip = program.getChipAttr();
        chip && smemBytes > chip.getInfo().smemPerBlockOptIn) {
      program.emitError()
          << "cta-allocate-resources: the program needs " << smemBytes
          << " bytes of shared memory; " << target::chipName(chip.getChip())
          << " has " << chip.getInfo().smemPerBlockOptIn;
      return signalPassFailure();
    }
    program.setSmemBytesAttr(
        Builder(program.getContext()).getI64IntegerAttr(smemBytes));
    recordRoleFacts(program);
  }
};

} // namespace
