//===- SelectSchedule.cpp - choose how each contraction is tiled ----------===//
//
// The schedule decides the CTA tile, the depth of the shared-memory ring, the
// cluster shape and the warp roles. Defaults follow what fast Hopper GEMMs use
// (128x256 tiles, two math warpgroups, a 2x1 cluster sharing the weight
// tile); user hints override them; every result is checked against the
// chip's budgets so that an impossible hint is an error here, with the
// numbers, rather than a ptxas failure or a launch error later.
//
//===----------------------------------------------------------------------===//

#include "compiler/Target/BlockScaleLayout.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/MLIR/ElementTypes.h"
#include "compiler/Target/Swizzle.h"
#include "compiler/Target/TensorMemory.h"
#include "dialects/Tile/Transforms/AttentionSchedule.h"
#include "dialects/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

namespace kiln::tile {
#define GEN_PASS_DEF_TILESELECTSCHEDULE
#include "dialects/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

using kiln::target::ChipInfo;

/// Stage-ring depths a schedule may use.
constexpr int64_t kMaxStages = kiln::target::maxPipelineStages;

int64_t bytesOf(Type type) { return (type.getIntOrFloatBitWidth() + 7) / 8; }

std::string kib(int64_t bytes) {
  return bytes % 1024 == 0 ? std::to_string(bytes / 1024) + " KiB"
                           : llvm::formatv("{0:F1} KiB", bytes / 1024.0).str();
}

struct Schedule {
  /// tileN = 0: the widest the accumulator budget allows (at most 256).
  int64_t tileM = 128, tileN = 0, tileK = 64, stages = 0, clusterM = 2,
          clusterN = 1, consumers = 2, groupM = 8;
  bool persistent = true;
  /// Spread the last tiles' K steps over every SM (sm_90a, persistent).
  bool streamK = false;
  /// Accumulator sets in tensor memory (sm_100a): 2 lets the epilogue of one
  /// tile overlap the MMAs of the next; 0 = as many as fit, at most 2.
  int64_t accStages = 0;
  /// sm_90a: each of the two math warpgroups owns a whole tile and they
  /// take turns with the tensor cores, so one's epilogue overlaps the
  /// other's MMAs.
  bool pingpong = false;
  /// Split a partial last wave's tiles into two K halves run at once by two
  /// clusters (sm_90a, persistent; deterministic: two partial sums).
  bool splitK = false;
  /// Whether the walk splits some tiles' K steps (either way).
  bool splitsK() const { return streamK || splitK; }
  /// "stream_k" or "split_k": the way of splitting K a diagnostic names.
  StringRef splitName() const { return streamK ? "stream_k" : "split_k"; }
};

/// Applies the kernel's `@schedule(...)` hints; returns the hinted keys.
llvm::SmallSet<StringRef, 8> applyHints(HintsAttr hints, Schedule &s) {
  llvm::SmallSet<StringRef, 8> pinned;
  if (!hints)
    return pinned;
  for (StringRef name : hints.getGivenNames())
    pinned.insert(name);
  if (ArrayRef<int64_t> tile = hints.getTile(); !tile.empty()) {
    s.tileM = tile[0];
    s.tileN = tile[1];
    if (tile.size() > 2)
      s.tileK = tile[2];
  }
  if (ArrayRef<int64_t> cluster = hints.getCluster(); !cluster.empty()) {
    s.clusterM = cluster[0];
    s.clusterN = cluster.size() > 1 ? cluster[1] : 1;
  }
  s.persistent = hints.getPersistent().value_or(s.persistent);
  s.streamK = hints.getStreamK().value_or(s.streamK);
  s.stages = hints.getStages().value_or(s.stages);
  s.consumers = hints.getConsumers().value_or(s.consumers);
  s.groupM = hints.getGroupM().value_or(s.groupM);
  s.accStages = hints.getAccStages().value_or(s.accStages);
  s.pingpong = hints.getPingpong().value_or(s.pingpong);
  s.splitK = hints.getSplitK().value_or(s.splitK);
  return pinned;
}

/// Relative throughput of one SM by the width of rhs columns one lhs tile
/// meets per K step, measured on an H200 with the sm_90a kernels (bf16,
/// 4096^3): narrower tiles re-read the lhs more often. A dual GEMM's shared
/// lhs meets both rhs tiles, so its width is the sum of theirs.
double tileEfficiency(int64_t width, int64_t accumulators) {
  // A single product's 7/8-wide tile (128x224) runs at 0.96-0.99x the
  // 128x256 tile's rate per element on an H100 (docs/performance.md, "a
  // 7/8-wide tile for single products"); a dual GEMM's 128x112 keeps the
  // 128-255 figure.
  if (width == 224 && accumulators == 1)
    return 0.97;
  // Its 3/4-wide tile (128x192) runs at ~0.86x (0.855 and 0.876 from pinned
  // A/Bs at 8192 x 2304 x 4096 and 4096 x 2304 x 4096 on an H100,
  // docs/performance.md, "a 3/4-wide tile for single products").
  if (width == 192 && accumulators == 1)
    return 0.86;
  return width >= 256 ? 1.0 : width >= 128 ? 0.9 : 0.67;
}

/// The same under ping-pong, where one warpgroup's epilogue overlaps the
/// other's MMAs: a 128x128 ping-pong tile took 0.517x the time of a 128x256
/// cooperative one at 4096^3 on an H100 (docs/performance.md, "Ping-pong").
double pingpongTileEfficiency(int64_t width) {
  return width >= 256 ? 1.0 : width >= 128 ? 0.967 : 0.67;
}

/// A schedule that fits, with the numbers that explain it.
struct Plan {
  Schedule schedule;
  int64_t stageBytes = 0, stagingBytes = 0, accRegs = 0, rowsPerConsumer = 0;
  /// Tensor-memory columns (sm_100a): accumulators plus each stage's block
  /// scales.
  int64_t tmemColumns = 0;
  /// Relative time of one tile (the cost model that chooses between variants).
  double tileCost = 0;
  /// Relative time added once per launch: under ping-pong every tile's
  /// epilogue but the last overlaps the next tile's MMAs.
  double tailCost = 0;
};

/// The overrides that make a variant of a kernel: a narrower tile, and
/// optionally another cluster.
struct TileVariant {
  int64_t tileN = 64;
  std::optional<int64_t> clusterM;
  bool pingpong = false;
  /// 0: the default's tile_m.
  int64_t tileM = 0;
  /// The K step in 128-byte swizzle rows of the operand type.
  int64_t kAtoms = 1;
};

/// The variants an unpinned sm_90a kernel ships besides its default tile of
/// `defaultTileN` columns per accumulator, for `numAccs` accumulators:
/// - 128x64 without a cluster: more CTAs for problems that would not fill
///   the GPU with the default tile;
/// - for one product, 128x128 without a cluster: between the two, for
///   problems the default fills with one partial wave and 128x64 with two
///   (512 x 4096 x 14336: 0.60x cuBLAS with 128x64, 0.95x with 128x128; at
///   one row tile, M <= 128, where the default's 2x1 clusters leave half
///   their CTAs without rows: 128 x 28672 x 8192 0.93x -> 1.02x; measured
///   on an H100 with L2 flushed, docs/performance.md);
/// - for one product, 128x128 ping-pong on the default's clusters: each
///   math warpgroup owns every second tile, so one's epilogue overlaps the
///   other's MMAs; for problems whose default tiles fill a partial last
///   wave that twice as many tiles fill better (1024 x 14336 x 4096 in
///   graph replays: 0.83x cuBLAS with 128x256 tiles, 0.95x ping-pong;
///   docs/performance.md, "ping-pong");
/// - 64x64 and 64x32 ping-pong tiles without a cluster, two 128-byte
///   swizzle rows per K step: for decode shapes (M <= 128),
///   whose time is the weight stream, the 64-row lhs tile leaves shared
///   memory for 6-8 stages of the weight tile (96 KiB in flight per SM
///   where 128x64 has 64), and the 64x32 tile spreads 4096 columns over
///   128 CTAs (1 x 4096 x 4096: 0.94x cuBLAS with 128x64, 1.04x with 64x64,
///   1.07x with 64x32; a SwiGLU at 64 x 4096 x 4096 1.14x -> 1.26x
///   torch's merged-weight GEMM and activation; docs/performance.md,
///   "Decode tiles"); the two warpgroups take the CTA's tiles in turn;
/// - for one product, a 7/8-wide tile (128x224, its epilogue through two
///   112-column staging blocks) on the default's clusters: 1024 x 14336 x
///   4096 and 512 x 28672 x 8192, whose 128x256 tiles fill 3.4 waves, fill
///   3.9 with it (0.88x -> 0.96-0.98x cuBLAS);
/// - for one product, a 3/4-wide tile (128x192) on the default's clusters:
///   where N is a multiple of 192 and not of 256, the default's tiles can
///   fill a small last wave that 4/3 as many fill well (4096 x 2304 x 4096:
///   2.2 waves of 128x256 tiles, 2.9 of 128x192; the runtime chose 128x128
///   ping-pong there, 0.87x cuBLAS; the 192-wide tile 0.93-1.01x);
/// - for several accumulators (a dual GEMM's 128x128), a 7/8-wide tile
///   (128x112): when the default tiles fill just over a whole number of
///   waves, 8/7 as many narrower tiles fill them better (SwiGLU at
///   256x14336: 224 tiles are 1.7 waves of 132 SMs, 256 tiles 1.94).
/// The runtime picks per launch by the manifest's cost rule.
SmallVector<TileVariant> tileVariants(int64_t defaultTileN, int64_t numAccs) {
  SmallVector<TileVariant> variants = {{64, 1}};
  if (numAccs == 1) {
    variants.push_back({128, 1});
    variants.push_back({128, std::nullopt, /*pingpong=*/true});
    variants.push_back({defaultTileN * 7 / 8 / 16 * 16, std::nullopt});
    if (defaultTileN >= 256)
      variants.push_back({defaultTileN * 3 / 4 / 16 * 16, std::nullopt});
  } else {
    variants.push_back({defaultTileN * 7 / 8 / 16 * 16, std::nullopt});
  }
  variants.push_back({64, 1, /*pingpong=*/true, /*tileM=*/64, /*kAtoms=*/2});
  variants.push_back({32, 1, /*pingpong=*/true, /*tileM=*/64, /*kAtoms=*/2});
  return variants;
}

/// Chooses the schedule of one contraction on one chip and checks it against
/// the chip's budgets. The steps run in this order, each on what the earlier
/// ones decided; the first rule a step finds broken ends the plan, with its
/// message in error():
///   1. the chip's defaults, then the hints and the variant over them;
///   2. whether the tile is a CTA pair's, and each CTA's share of it;
///   3. block scales only where the tensor cores apply them;
///   4. tile_n, unless pinned: the widest whose accumulators fit;
///   5. the shapes the MMA, the epilogue, the cluster and stream-K can run;
///   6. the accumulators: registers or tensor-memory columns, CTA pairs;
///   7. the bytes of one stage and of the epilogue's staging;
///   8. the stage count that shared (and tensor) memory allows;
///   9. the accumulator sets in tensor memory.
/// What the steps share lives in the members.
class SchedulePlanner {
public:
  SchedulePlanner(ContractOp contract, const ChipInfo &budget,
                  std::optional<TileVariant> variant, HintsAttr hints)
      : contract(contract), budget(budget), variant(variant), hints(hints),
        numAccs(contract.getContractions().size()),
        grouped(contract.getGroups() != nullptr),
        batched(llvm::cast<RankedTensorType>(contract.getOutputs()[0].getType())
                    .getRank() > 2),
        mmaRows(budget.mmaRowsPerInstruction),
        scaleBlock(llvm::cast<MmaAttr>(contract.getContractions()[0])
                       .getScaleBlock()) {
    Type operandType =
        llvm::cast<RankedTensorType>(contract.getInputs()[0].getType())
            .getElementType();
    operandBits = operandType.getIntOrFloatBitWidth();
    auto first = llvm::cast<MmaAttr>(contract.getContractions()[0]);
    if (first.isBlockScaled()) {
      Type scaleType = llvm::cast<RankedTensorType>(
                           contract.getInputs()[first.getLhsScale()].getType())
                           .getElementType();
      softwareScaled =
          kiln::target::isSoftwareBlockScaled(operandType, scaleType);
      rhsScaleRows = first.getRhsScaleRows();
    }
    // Outputs of one element type share a staging buffer; one that only a
    // row reduction reads is reduced in registers, never staged.
    for (Value output : contract.getOutputs())
      if (isStoredOutput(output))
        outputTypes.insert(
            llvm::cast<RankedTensorType>(output.getType()).getElementType());
    // Operand tiles one stage holds: each distinct lhs is tile_m rows, each
    // distinct rhs tile_n rows, all tile_k wide.
    for (Attribute attr : contract.getContractions()) {
      auto mma = llvm::cast<MmaAttr>(attr);
      lhsOperands.insert(mma.getLhs());
      rhsOperands.insert(mma.getRhs());
      rhsMNMajor |= !mma.getTransposeB();
    }
  }

  /// The schedule with the numbers that explain it, or failure with error()
  /// saying which rule it breaks.
  FailureOr<Plan> run() {
    applyDefaultsAndHints();
    chooseCtaPair();
    if (failed(checkBlockScaleSupport()))
      return failure();
    chooseTileN();
    if (failed(checkShape()) || failed(checkAccumulators()) ||
        failed(sizeSharedMemory()) || failed(fitStages()) ||
        failed(chooseAccStages()))
      return failure();
    return result();
  }

  /// Why run() failed.
  const std::string &error() const { return message; }

private:
  /// The chip's defaults, then the hints and the variant over them, then
  /// where stream-K is on by default.
  void applyDefaultsAndHints() {
    // One K step fills one 128-byte swizzle atom per operand row.
    s.tileK = kiln::target::maxSwizzleSpanBytes * 8 / operandBits;
    if (budget.tensorMemoryColumns) {
      s.consumers = 1;
      s.clusterM = 1;
    }
    if (grouped)
      s.clusterM = 1;
    // Software block scales: one K step per scale block, so that each step's
    // product is scaled once.
    if (softwareScaled)
      s.tileK = scaleBlock;
    pinned = applyHints(hints, s);
    if (variant) {
      s.tileN = variant->tileN;
      if (variant->tileM)
        s.tileM = variant->tileM;
      s.tileK *= variant->kAtoms;
      if (variant->clusterM && !pinned.contains("cluster"))
        s.clusterM = *variant->clusterM;
      s.pingpong = variant->pingpong;
    }
    // Stream-K (split a small last wave's K steps) by default only where it
    // measured faster (docs/performance.md, "Stream-K tail"): the widest
    // tile of a dual GEMM on sm_90a. Where nothing is split its code still
    // costs ~1% (4% in the 128x112 variant), and for a single product the
    // join costs nearly what the split saves; a hint turns it on anywhere
    // persistent. Tensor-memory accumulators cannot take part yet.
    if (!pinned.contains("stream_k") && !s.splitK)
      s.streamK = s.persistent && budget.streamK && !variant && !s.pingpong &&
                  contract.getContractions().size() > 1 && !grouped &&
                  !batched && !softwareScaled;
  }

  /// Whether the tile is a CTA pair's, and so the rows each CTA owns.
  void chooseCtaPair() {
    // CTA pairs (sm_100a, tcgen05 cta_group::2): a 256-row tile computed by
    // the two CTAs of a 2x1 cluster with one MMA the even CTA issues. Each
    // CTA still owns 128 rows of the output but holds only half of the rhs
    // tile, so a 128x256 CTA tile reads a third fewer operand bytes from
    // shared memory per MMA (64 instead of 96 bytes per tensor-core clock
    // on a B200: the budget the TMA writes and the epilogue share). By
    // default for a single dense product (the plain GEMM); block scales are
    // not paired yet, a dual GEMM keeps its two sets of accumulators, and a
    // pair's MMA reads its rhs K-major (not an rhs stored [K, N]).
    if (budget.tensorMemoryColumns && !pinned.contains("tile") &&
        numAccs == 1 && scaleBlock == 0 && !grouped && !batched &&
        !rhsMNMajor)
      s.tileM = kiln::target::ctaPairSize * mmaRows;
    pair = budget.tensorMemoryColumns &&
           s.tileM == kiln::target::ctaPairSize * mmaRows;
    if (pair && !pinned.contains("cluster"))
      s.clusterM = kiln::target::ctaPairSize;
    // A CTA's own rows (the rhs rows it holds: rhsRowsPerCta).
    ctaRows = pair ? s.tileM / kiln::target::ctaPairSize : s.tileM;
    // Ping-pong: each math warpgroup owns all of its tile's rows.
    rowsPerConsumer = s.pingpong ? ctaRows
                      : s.consumers > 0 ? ctaRows / s.consumers
                                        : 0;
  }

  /// Only sm_100a's tensor cores apply block scales.
  LogicalResult checkBlockScaleSupport() {
    if (softwareScaled && budget.tensorMemoryColumns)
      return fail("not implemented yet: fp8 with f32 block scales on " +
                  Twine(budget.name) +
                  " (they lower on sm_90a, each K block's product scaled in "
                  "registers; " + Twine(budget.name) +
                  "'s block-scaled MMA takes MXFP8: e4m3 with ue8m0 scales "
                  "per 1x32)");
    if (scaleBlock > 0 && !softwareScaled && !budget.tensorMemoryColumns)
      return fail("block-scaled products (NVFP4, MXFP8) need sm_100a's "
                  "tcgen05 block-scaled MMA; " +
                  Twine(budget.name) + " has none");
    return success();
  }

  /// tile_n, unless hinted or set by the variant.
  void chooseTileN() {
    // Unless pinned, the widest tile whose accumulators fit: 128x256 for one
    // product, 128x128 for a dual GEMM's two. With tensor memory, first the
    // widest whose accumulators fit twice, so that a tile's epilogue
    // overlaps the next tile's MMAs (a dual GEMM: 2 x 128x128 twice rather
    // than 2 x 128x256 once, which would also leave room for only 2 stages
    // of 80 KiB); then the widest that fits once.
    if (s.tileN == 0) {
      s.tileN = 64;
      int64_t mostSets = budget.tensorMemoryColumns ? 2 : 1;
      int64_t leastSets = 1;
      if (pinned.contains("acc_stages"))
        mostSets = leastSets = std::clamp<int64_t>(s.accStages, 1, 2);
      bool found = false;
      for (int64_t sets = mostSets; sets >= leastSets && !found; --sets)
        for (int64_t candidate : {256, 128})
          if (accumulatorsFit(candidate, sets) &&
              (!softwareScaled || rhsScaleRows == 1 ||
               rhsScaleRows % candidate == 0)) {
            s.tileN = candidate;
            found = true;
            break;
          }
    }
  }

  /// Shapes the MMA and the epilogue can run, clusters the lowering builds,
  /// and where stream-K can run.
  LogicalResult checkShape() {
    int64_t atomK = kiln::target::maxSwizzleSpanBytes * 8 / operandBits;
    if (s.consumers < 1 || s.consumers > kiln::target::maxConsumerWarpgroups)
      return fail("consumers must be 1 or 2, got " + Twine(s.consumers));
    // With a single math warpgroup ptxas serializes the wgmma pipeline
    // (C7514) in the code we generate today; refuse rather than run slowly.
    if (!budget.tensorMemoryColumns && s.consumers != 2)
      return fail("consumers = " + Twine(s.consumers) +
                  " is not supported on " + budget.name +
                  " yet (use 2 math warpgroups)");
    if (s.pingpong) {
      if (budget.tensorMemoryColumns)
        return fail("pingpong is an sm_90a schedule: on " +
                    Twine(budget.name) +
                    " the MMA warp and two accumulator sets already overlap "
                    "a tile's epilogue with the next tile's MMAs "
                    "(acc_stages = 2)");
      if (s.splitsK())
        return fail("pingpong and " + s.splitName() +
                    " do not combine (a part of a split tile is shared by "
                    "both math warpgroups)");
      if (s.tileM % mmaRows != 0)
        return fail("tile_m = " + Twine(s.tileM) + " must be a multiple of " +
                    Twine(mmaRows) + " (each ping-pong warpgroup's " +
                    Twine(mmaRows) + "-row MMAs)");
    } else if (ctaRows % (s.consumers * mmaRows) != 0)
      return fail(
          (pair ? "each CTA's " + Twine(ctaRows) +
                      " rows of the CTA pair's tile_m = " + Twine(s.tileM)
                : "tile_m = " + Twine(s.tileM)) +
          " must be a multiple of " + Twine(s.consumers * mmaRows) + " (" +
          Twine(s.consumers) + " consumer warpgroups x " + Twine(mmaRows) +
          "-row MMAs)");
    if (s.tileN % 16 != 0 || s.tileN > budget.mmaMaxN)
      return fail("tile_n = " + Twine(s.tileN) +
                  " must be a multiple of 16 no larger than " +
                  Twine(budget.mmaMaxN) + " (the MMA's N limit)");
    if (s.tileK % atomK != 0)
      return fail("tile_k = " + Twine(s.tileK) + " must be a multiple of " +
                  Twine(atomK) + " (one 128-byte swizzle row of " +
                  Twine(operandBits) + "-bit elements)");
    if (s.clusterN != 1)
      return fail("cluster = [" + Twine(s.clusterM) + ", " + Twine(s.clusterN) +
                  "] is not supported: CTAs of a cluster must share tile "
                  "columns (use [n, 1])");
    if (s.clusterM < 1 || !llvm::isPowerOf2_64(s.clusterM) ||
        s.clusterM > kiln::target::maxClusterM)
      return fail("cluster = [" + Twine(s.clusterM) +
                  ", 1]: the cluster size must be 1, 2 or 4");
    if (s.clusterM > 1 && (s.tileN / s.clusterM) % 8 != 0)
      return fail("tile_n = " + Twine(s.tileN) + " cannot be split into " +
                  Twine(s.clusterM) +
                  " multicast slices of whole 8-row swizzle groups");
    if (s.groupM < 1)
      return fail("group_m must be at least 1");
    if (softwareScaled) {
      if (s.tileK != scaleBlock)
        return fail("tile_k = " + Twine(s.tileK) + " must equal the scale "
                    "block along K (" + Twine(scaleBlock) +
                    "): each K step's product is scaled once");
      if (rhsScaleRows > 1 && rhsScaleRows % s.tileN != 0)
        return fail("tile_n = " + Twine(s.tileN) + " must divide the rhs "
                    "scale block's " + Twine(rhsScaleRows) +
                    " rows: a tile's columns share one weight scale per K "
                    "step");
      if (s.splitsK())
        return fail(s.splitName() + " is not implemented yet for fp8 with "
                    "f32 block scales");
    }
    if (s.streamK && s.splitK)
      return fail("stream_k and split_k are two ways to fill a partial last "
                  "wave: choose one");
    if (s.splitsK() && !s.persistent)
      return fail(s.splitName() + " needs a persistent schedule: the "
                  "clusters that share a tile must run at the same time");
    if (grouped) {
      if (pair)
        return fail("tile_m = " + Twine(s.tileM) +
                    ": a CTA pair is not implemented yet for a grouped "
                    "(mixture-of-experts) contraction (use 128)");
      // The grouped walk's CTAs scan the offsets forward as they go
      // (cta.tile_loop grouped): each must walk many tiles.
      if (!s.persistent)
        return fail("a grouped (mixture-of-experts) contraction needs a "
                    "persistent schedule: its tiles are found by scanning "
                    "the offsets on the device");
      if (s.clusterM != 1)
        return fail("cluster = [" + Twine(s.clusterM) +
                    ", 1]: the row tiles of a grouped contraction may belong "
                    "to different groups, which share no rhs tile (use [1, 1])");
      if (s.splitsK())
        return fail(s.splitName() + " is not implemented yet for a grouped "
                    "(mixture-of-experts) contraction");
    }
    if (batched) {
      if (pair)
        return fail("tile_m = " + Twine(s.tileM) +
                    ": a CTA pair is not implemented yet for a batched "
                    "contraction (use 128)");
      if (s.clusterM != 1 && !s.persistent)
        return fail("cluster = [" + Twine(s.clusterM) +
                    ", 1] needs a persistent schedule for a batched "
                    "contraction (a grid of one CTA per tile spreads its "
                    "batch axes over the grid's axes)");
      if (s.splitsK())
        return fail(s.splitName() + " is not implemented yet for a batched "
                    "contraction");
    }
    if (s.splitsK() && !budget.streamK)
      return fail(s.splitName() + " is not implemented yet on " +
                  Twine(budget.name) +
                  " (partial tiles of tensor-memory accumulators)");
    return success();
  }

  /// One accumulator set fits (registers or tensor-memory columns), and a
  /// CTA pair's tile is one the pair can compute.
  LogicalResult checkAccumulators() {
    accRegs = accRegsFor(s.tileN);
    if (!budget.tensorMemoryColumns && !accumulatorsFit(s.tileN))
      return fail("a " + Twine(rowsPerConsumer) + "x" + Twine(s.tileN) +
                  " accumulator" +
                  (numAccs > 1 ? " x" + Twine(numAccs) : Twine("")) +
                  " per warpgroup needs " + Twine(accRegs) +
                  " registers per thread; at most " +
                  Twine(budget.accumulatorRegisterBudget) + " fit");
    // One CTA's tcgen05 MMA covers 128 rows, a CTA pair's 256.
    if (budget.tensorMemoryColumns && ctaRows != mmaRows)
      return fail("tile_m = " + Twine(s.tileM) + " must be " + Twine(mmaRows) +
                  " (one CTA's tcgen05 MMA) or " +
                  Twine(kiln::target::ctaPairSize * mmaRows) +
                  " (a CTA pair's)");
    if (pair && (s.clusterM != kiln::target::ctaPairSize || s.clusterN != 1))
      return fail("a CTA pair (tile_m = " + Twine(s.tileM) +
                  ") runs in clusters of [2, 1], not [" + Twine(s.clusterM) +
                  ", " + Twine(s.clusterN) + "]");
    if (pair && rhsMNMajor)
      return fail("tile_m = " + Twine(s.tileM) +
                  ": a CTA pair's MMA reads its rhs K-major, but an rhs is "
                  "stored [K, N] (use 128, or store it [N, K] and write "
                  "b^T)");
    if (pair && scaleBlock)
      return fail("CTA pairs (tile_m = " + Twine(s.tileM) +
                  ") with block-scaled operands are not implemented yet");
    if (pair && s.tileN % (kiln::target::ctaPairSize * 16) != 0)
      return fail("tile_n = " + Twine(s.tileN) +
                  " must be a multiple of 32 for a CTA pair (each CTA holds "
                  "half of the rhs rows, a multiple of 16)");
    int64_t tmemCols = tmemColumnsFor(s.tileN, 2);
    if (budget.tensorMemoryColumns && !accumulatorsFit(s.tileN))
      return fail(Twine(scaleBlock ? "accumulators and 2 stages of block "
                                     "scales"
                                   : "accumulators") +
                  " need " + Twine(tmemCols) + " tensor-memory columns; " +
                  Twine(budget.tensorMemoryColumns) + " exist");
    return success();
  }

  /// Shared memory: the bytes of one stage of the ring, and of the epilogue
  /// staging tiles, which tile_n must stream through.
  LogicalResult sizeSharedMemory() {
    stageBytes =
        (static_cast<int64_t>(lhsOperands.size()) * ctaRows +
         static_cast<int64_t>(rhsOperands.size()) * rhsRowsPerCta(s.tileN)) *
            s.tileK * operandBits / 8 +
        scaleAtoms(s.tileN) * kiln::target::scaleFactorAtomBytes;
    // The epilogue stages two 128-byte column blocks of the tile at a time,
    // per output element type.
    // A tile wider than that streams through it block by block, so its width
    // must be a whole number of blocks.
    for (Type type : outputTypes) {
      int64_t outBytes = bytesOf(type);
      int64_t columns = ScheduleAttr::stagingColumns(s.tileN, 8 * outBytes);
      if (s.tileN % columns != 0)
        return fail("tile_n = " + Twine(s.tileN) + " does not stream through " +
                    "the epilogue's staging blocks of " + Twine(columns) +
                    " columns of " + Twine(8 * outBytes) +
                    "-bit outputs (use a multiple of " + Twine(columns) +
                    ", at most " + Twine(columns) +
                    (outBytes == 2 ? Twine(", or twice a multiple of 16 no "
                                           "wider than that")
                                   : Twine("")) +
                    ")");
      // Ping-pong: each math warpgroup stages its own tile.
      stagingBytes +=
          (s.pingpong ? s.consumers : 1) * ctaRows * columns * outBytes;
    }
    return success();
  }

  /// The stages that fit next to the staging (unless pinned, as many as fit
  /// up to kMaxStages), at least the 2 a pipeline needs.
  LogicalResult fitStages() {
    int64_t smemBytes = budget.smemPerBlockOptIn;
    int64_t available = smemBytes - stagingBytes - budget.smemReserve;
    int64_t fit = std::max<int64_t>(0, available / stageBytes);
    // Each stage's block scales also take tensor-memory columns.
    if (int64_t perStage =
            scaleAtoms(s.tileN) * kiln::target::scaleFactorAtomTmemColumns)
      fit = std::min<int64_t>(
          fit, (static_cast<int64_t>(budget.tensorMemoryColumns) -
                s.tileN * numAccs) /
                   perStage);
    if (!pinned.contains("stages"))
      s.stages = std::min(fit, kMaxStages);
    if (pinned.contains("stages") &&
        (s.stages < kiln::target::minPipelineStages || s.stages > kMaxStages))
      return fail("stages = " + Twine(s.stages) + ": a pipeline needs " +
                  Twine(kiln::target::minPipelineStages) + " to " +
                  Twine(kMaxStages) + " stages");
    if (s.stages < kiln::target::minPipelineStages || s.stages > fit)
      return fail(
          Twine(s.stages) + " stages of " + kib(stageBytes) + " plus " +
          kib(stagingBytes) + " of epilogue staging need " +
          kib(s.stages * stageBytes + stagingBytes + budget.smemReserve) +
          "; " + kib(smemBytes) + " exist, so " + Twine(fit) +
          " stages fit (a pipeline needs 2 to " + Twine(kMaxStages) + ")");
    return success();
  }

  /// The accumulator sets in tensor memory; registers hold only one.
  LogicalResult chooseAccStages() {
    // Accumulator sets (sm_100a): a second set lets the MMA warp start the
    // next tile while the epilogue still reads this one, where the columns
    // allow it (the default 128x256 matmul and 2 x 128x128 dual GEMM fill
    // the 512 columns with two sets; block scales usually leave room for
    // one).
    int64_t accColumns = s.tileN * numAccs;
    if (budget.tensorMemoryColumns) {
      int64_t scaleColumns = tmemColumnsFor(s.tileN, s.stages) - accColumns;
      int64_t sets =
          (static_cast<int64_t>(budget.tensorMemoryColumns) - scaleColumns) /
          accColumns;
      if (!pinned.contains("acc_stages"))
        s.accStages = std::clamp<int64_t>(sets, 1, 2);
      if (s.accStages < 1 || s.accStages > 2)
        return fail("acc_stages = " + Twine(s.accStages) + " must be 1 or 2");
      if (s.accStages > sets)
        return fail(Twine(s.accStages) + " accumulator sets of " +
                    Twine(accColumns) + " columns" +
                    (scaleColumns ? " plus " + Twine(scaleColumns) +
                                        " columns of block scales"
                                  : Twine("")) +
                    " need " + Twine(s.accStages * accColumns + scaleColumns) +
                    " tensor-memory columns; " +
                    Twine(budget.tensorMemoryColumns) + " exist");
    } else if (pinned.contains("acc_stages") && s.accStages != 1) {
      return fail("acc_stages = " + Twine(s.accStages) +
                  " needs tensor-memory accumulators (sm_100a); " +
                  Twine(budget.name) + " keeps accumulators in registers");
    }
    return success();
  }

  /// The plan of a schedule every step accepted, with its cost.
  Plan result() const {
    Plan plan;
    plan.schedule = s;
    int64_t accColumns = s.tileN * numAccs;
    plan.stageBytes = stageBytes;
    plan.stagingBytes = stagingBytes;
    if (budget.tensorMemoryColumns)
      plan.tmemColumns =
          tmemColumnsFor(s.tileN, s.stages) + (s.accStages - 1) * accColumns;
    plan.accRegs = accRegs;
    plan.rowsPerConsumer = rowsPerConsumer;
    int64_t width = s.tileN * static_cast<int64_t>(rhsOperands.size());
    double elements = static_cast<double>(ctaRows * s.tileN * numAccs);
    // The epilogue overlap counts for ping-pong tiles of two MMA row blocks
    // (128x128, where it was measured); 64-row ones, the decode variants,
    // are costed like cooperative tiles of their width: their shapes wait
    // on the weight stream, and costed as overlapped a 64x64 SwiGLU tile
    // won where it ran 0.86x the 128x112 one (256 x 14336 x 4096).
    bool overlapped = s.pingpong && ctaRows >= 2 * mmaRows;
    plan.tileCost = elements / (overlapped ? pingpongTileEfficiency(width)
                                           : tileEfficiency(width, numAccs));
    // The last tile's epilogue is not hidden: a walk of one tile per CTA
    // costs what the cooperative schedule's does.
    if (overlapped)
      plan.tailCost = elements / tileEfficiency(width, numAccs) - plan.tileCost;
    return plan;
  }

  /// Records why the schedule does not fit.
  LogicalResult fail(const Twine &why) {
    message = why.str();
    return failure();
  }

  /// The rhs rows a CTA holds of a `tileN`-row rhs tile: half in a CTA pair.
  int64_t rhsRowsPerCta(int64_t tileN) const {
    return pair ? tileN / kiln::target::ctaPairSize : tileN;
  }

  /// Block scales (NVFP4, MXFP8): each scaled operand's stage also holds
  /// its scale-factor atoms (128 rows x 4 blocks of scale_block K elements,
  /// 512 bytes), copied to 4 tensor-memory columns each, per stage. The
  /// atoms of one stage for a `tileN`-wide tile.
  int64_t scaleAtoms(int64_t tileN) const {
    // (Software block scales are read by the math threads, not staged.)
    if (scaleBlock == 0 || softwareScaled)
      return 0;
    int64_t atomRows = kiln::target::scaleFactorAtomRows;
    int64_t kAtoms =
        s.tileK / (kiln::target::scaleFactorAtomKBlocks * scaleBlock);
    return (static_cast<int64_t>(lhsOperands.size()) *
                llvm::divideCeil(s.tileM, atomRows) +
            static_cast<int64_t>(rhsOperands.size()) *
                llvm::divideCeil(tileN, atomRows)) *
           kAtoms;
  }

  /// Tensor-memory columns of one accumulator set plus `stages` stages of
  /// block scales.
  int64_t tmemColumnsFor(int64_t tileN, int64_t stages) const {
    return tileN * numAccs + stages * scaleAtoms(tileN) *
                                 kiln::target::scaleFactorAtomTmemColumns;
  }

  // Accumulators: registers of the math threads (sm_90a) or tensor-memory
  // columns (sm_100a), for every accumulator of the contraction.

  /// Accumulator registers per math thread for a `tileN`-wide tile; twice
  /// that with software block scales (each K step's product beside the
  /// running sum).
  int64_t accRegsFor(int64_t tileN) const {
    return rowsPerConsumer / mmaRows * (tileN / 2) * numAccs *
           (softwareScaled ? 2 : 1);
  }

  /// Whether `sets` accumulator sets (sm_100a: in flight between the MMA
  /// warp and the epilogue) fit next to 2 stages of block scales. Scale
  /// columns assume the fewest stages a pipeline has (2); the stage count is
  /// capped by what is left (fitStages).
  bool accumulatorsFit(int64_t tileN, int64_t sets = 1) const {
    if (budget.tensorMemoryColumns)
      return tmemColumnsFor(tileN, 2) + (sets - 1) * tileN * numAccs <=
             static_cast<int64_t>(budget.tensorMemoryColumns);
    return accRegsFor(tileN) <= budget.accumulatorRegisterBudget;
  }

  /// What the steps start from, and what the contraction fixes.
  ContractOp contract;
  const ChipInfo &budget;
  std::optional<TileVariant> variant;
  HintsAttr hints;
  int64_t numAccs;
  /// A grouped (mixture-of-experts) contraction: adjacent row tiles may
  /// belong to different groups, so they share no rhs tile.
  bool grouped;
  /// A batched contraction (leading axes): each batch entry's tiles are
  /// walked like a static walk's, the entries one after the other.
  bool batched;
  /// An rhs stored [K, N] (no transpose_b), read MN-major.
  bool rhsMNMajor = false;
  int64_t mmaRows, scaleBlock;
  /// fp8 with f32 block scales (isSoftwareBlockScaled): applied in
  /// registers per K step; the rhs scales' blocks of rows.
  bool softwareScaled = false;
  int64_t rhsScaleRows = 1;
  int64_t operandBits = 0;
  llvm::SmallSetVector<Type, 2> outputTypes;
  llvm::SmallSet<unsigned, 4> lhsOperands, rhsOperands;

  /// The schedule being built.
  Schedule s;
  /// The hint keys the user gave: left as they are.
  llvm::SmallSet<StringRef, 8> pinned;
  /// A CTA pair's tile (sm_100a); the rows one CTA owns, and each math or
  /// epilogue warpgroup of it.
  bool pair = false;
  int64_t ctaRows = 0, rowsPerConsumer = 0;
  /// The numbers result() reports, as the checks computed them.
  int64_t accRegs = 0, stageBytes = 0, stagingBytes = 0;
  std::string message;
};

struct TileSelectSchedulePass
    : public kiln::tile::impl::TileSelectScheduleBase<TileSelectSchedulePass> {
  using Base::Base;

  void runOnOperation() override {
    const ChipInfo *chipInfo = kiln::target::lookupChip(chip);
    if (!chipInfo) {
      getOperation().emitError() << "unknown chip '" << chip << "'; expected "
                                 << kiln::target::knownChipNames();
      return signalPassFailure();
    }
    SmallVector<KernelOp> kernels(getOperation().getOps<KernelOp>());
    for (KernelOp kernel : kernels)
      if (failed(scheduleKernel(kernel, *chipInfo)))
        return signalPassFailure();
  }

  LogicalResult scheduleKernel(KernelOp kernel, const ChipInfo &budget) {
    for (AttentionOp attention : kernel.getBody().getOps<AttentionOp>())
      if (failed(scheduleAttention(kernel, attention, budget)))
        return failure();
    SmallVector<ContractOp> contracts(kernel.getBody().getOps<ContractOp>());
    bool allScheduled = true;
    for (ContractOp contract : contracts) {
      if (ScheduleAttr existing = contract.getScheduleAttr()) {
        // Kept as it is, once it is known to lower on this chip.
        std::string error;
        if (failed(planSchedule(contract, budget, std::nullopt,
                                scheduleAsHints(existing), error)))
          return contract.emitError()
                 << "schedule for " << budget.name << ": " << error;
        continue;
      }
      allScheduled = false;
      if (failed(checkBlockScales(contract)))
        return failure();
      std::string error;
      FailureOr<Plan> plan =
          planSchedule(contract, budget, std::nullopt, error);
      if (failed(plan))
        return contract.emitError()
               << "schedule for " << budget.name << ": " << error;
      apply(contract, budget, *plan);
    }
    if (allScheduled || contracts.size() != 1 || kernel.getVariantOfAttr())
      return success();

    // Unless the user pinned the tile, also build variants of the kernel with
    // narrower tiles; the runtime picks, per launch, the one that finishes
    // sooner.
    HintsAttr hints = kernel.getHintsAttr();
    // A grouped walk's tile count depends on the offsets on the device,
    // which the runtime's cost rule cannot see: one schedule. A batched
    // walk's tiles are its entries' (the cost rule counts the batch axes).
    if (!budget.tileVariants || (hints && !hints.getTile().empty()) ||
        contracts[0].getGroups())
      return success();
    int64_t defaultTileN = contracts[0].getSchedule()->getTileN();
    OpBuilder builder(kernel);
    builder.setInsertionPointAfter(kernel);
    for (const TileVariant &override : tileVariants(
             defaultTileN, contracts[0].getContractions().size())) {
      std::string error;
      FailureOr<Plan> plan =
          planSchedule(contracts[0], budget, override, error);
      // The default schedule alone serves the shapes this variant is for
      // when no such tile fits or the default is already that narrow.
      if (failed(plan) || plan->schedule.tileN >= defaultTileN)
        continue;
      addVariant(kernel, builder, budget, *plan);
    }
    return success();
  }

  /// An attention op's schedule (AttentionSchedule.h). Its tiles follow
  /// from the head dims alone: a kernel's tile hints, made for
  /// contractions, are refused rather than ignored.
  static LogicalResult scheduleAttention(KernelOp kernel, AttentionOp attention,
                                         const ChipInfo &budget) {
    if (HintsAttr hints = kernel.getHintsAttr();
        hints && !hints.getGivenNames().empty())
      return attention.emitError()
             << "not implemented yet: schedule hints on an attention kernel "
                "(the schedule follows from the head dims)";
    std::string error;
    FailureOr<ScheduleAttr> schedule =
        planAttentionSchedule(attention, budget, error);
    if (failed(schedule))
      return attention.emitError()
             << "schedule for " << budget.name << ": " << error;
    attention.setScheduleAttr(*schedule);
    if (budget.hasTensorMemory())
      kernel.setTmemColumnsAttr(IntegerAttr::get(
          IntegerType::get(kernel.getContext(), 64),
          attentionTensorMemoryColumns(attention, *schedule)));
    return success();
  }

  /// Block scales the tensor cores do not apply (f32 per 128 K elements)
  /// would need the scaling in software, which no lowering does yet: a
  /// located "not implemented yet" on either chip, not a budget error here
  /// or an MMA verifier's message later.
  static LogicalResult checkBlockScales(ContractOp contract) {
    for (Attribute attr : contract.getContractions()) {
      auto mma = llvm::cast<MmaAttr>(attr);
      if (!mma.isBlockScaled())
        continue;
      for (auto [data, scale] : {std::pair(mma.getLhs(), mma.getLhsScale()),
                                 std::pair(mma.getRhs(), mma.getRhsScale())}) {
        auto elementOf = [&](int64_t input) {
          return llvm::cast<RankedTensorType>(
                     contract.getInputs()[input].getType())
              .getElementType();
        };
        Type dataType = elementOf(data);
        Type scaleType = elementOf(scale);
        if (kiln::target::isMmaBlockScaled(dataType, scaleType,
                                           mma.getScaleBlock()) &&
            mma.getRhsScaleRows() == 1)
          continue;
        // fp8 with f32 scales: scaled in registers per K step (sm_90a).
        if (kiln::target::isSoftwareBlockScaled(dataType, scaleType))
          continue;
        if (mma.getRhsScaleRows() > 1)
          return contract.emitError()
                 << "tile-select-schedule: not implemented yet: "
                 << kiln::target::getElementTypeName(dataType) << " data with "
                 << kiln::target::getElementTypeName(scaleType)
                 << " scales per block of " << mma.getRhsScaleRows()
                 << " weight rows (the tensor cores take one scale per row; "
                    "blocks of rows take f32 scales on fp8 data, applied in "
                    "software on sm_90a)";
        return contract.emitError()
               << "tile-select-schedule: not implemented yet: "
               << kiln::target::getElementTypeName(dataType) << " data with "
               << kiln::target::getElementTypeName(scaleType)
               << " scales per " << mma.getScaleBlock()
               << " K elements; the tensor cores scale blocks as MXFP8 or "
                  "MXFP4 (ue8m0 per 32) and NVFP4 (e2m1 with e4m3 per 16), on "
                  "sm_100a, and fp8 takes f32 scales in software (sm_90a)";
      }
    }
    return success();
  }

  /// A clone of `kernel` with `plan`'s schedule, named after its tile and
  /// marked a variant of the kernel; `builder` inserts it (and moves
  /// past it, so variants follow the kernel in the order they are made).
  void addVariant(KernelOp kernel, OpBuilder &builder, const ChipInfo &budget,
                  const Plan &plan) {
    auto variant = llvm::cast<KernelOp>(builder.clone(*kernel));
    builder.setInsertionPointAfter(variant);
    const Schedule &v = plan.schedule;
    std::string name = (kernel.getSymName() + "_" + Twine(v.tileM) + "x" +
                        Twine(v.tileN) + (v.pingpong ? "pp" : ""))
                           .str();
    // Keep the name unique next to the user's own kernels.
    std::string unique = name;
    for (int suffix = 1; SymbolTable::lookupSymbolIn(getOperation(), unique);
         ++suffix)
      unique = name + "_" + std::to_string(suffix);
    variant.setSymName(unique);
    variant.setVariantOfAttr(FlatSymbolRefAttr::get(kernel.getSymNameAttr()));
    apply(*variant.getBody().getOps<ContractOp>().begin(), budget, plan);
  }

  /// Records `plan` on the contraction (and its cost on the kernel) and
  /// explains it in a remark.
  void apply(ContractOp contract, const ChipInfo &budget, const Plan &plan) {
    const Schedule &s = plan.schedule;
    bool pair = budget.tensorMemoryColumns &&
                s.tileM == kiln::target::ctaPairSize *
                               static_cast<int64_t>(budget.mmaRowsPerInstruction);
    MLIRContext *ctx = contract.getContext();
    contract.setScheduleAttr(
        ScheduleAttr::get(ctx, s.tileM, s.tileN, s.tileK, s.stages, s.clusterM,
                          s.clusterN, s.consumers, s.persistent, s.groupM,
                          s.streamK, std::max<int64_t>(s.accStages, 1),
                          s.pingpong, s.splitK));
    if (auto kernel = contract->getParentOfType<KernelOp>()) {
      kernel.setTileCostAttr(FloatAttr::get(Float64Type::get(ctx), plan.tileCost));
      if (plan.tailCost > 0)
        kernel.setTailCostAttr(
            FloatAttr::get(Float64Type::get(ctx), plan.tailCost));
      if (plan.tmemColumns)
        kernel.setTmemColumnsAttr(IntegerAttr::get(IntegerType::get(ctx, 64), plan.tmemColumns));
    }
    contract.emitRemark()
        << "schedule for " << budget.name << ": tile " << s.tileM << "x"
        << s.tileN << "x" << s.tileK << ", " << s.stages << " stages of "
        << kib(plan.stageBytes) << " + " << kib(plan.stagingBytes)
        << " epilogue staging = "
        << kib(s.stages * plan.stageBytes + plan.stagingBytes) << " of "
        << kib(budget.smemPerBlockOptIn) << " shared memory; "
        << (budget.tensorMemoryColumns ? "MMA warp + " : "") << s.consumers
        << (budget.tensorMemoryColumns ? " epilogue" : " math")
        << " warpgroup(s) x " << plan.rowsPerConsumer << " rows ("
        << (budget.tensorMemoryColumns
                ? Twine(plan.tmemColumns) + " tensor-memory columns"
                : Twine(plan.accRegs) + " accumulator registers/thread")
        << "); cluster " << s.clusterM << "x" << s.clusterN
        << (s.clusterM <= 1 ? ""
            : pair ? " (CTA pair: one 256-row MMA, each CTA holds half of "
                     "the rhs tile)"
                   : " (rhs tile multicast)")
        << "; "
        << (s.persistent ? "persistent" : "one CTA per tile") << ", group_m "
        << s.groupM << (s.streamK ? ", stream-K tail" : "")
        << (s.splitK ? ", split-K tail (a partial last wave's tiles in two K "
                       "halves)"
                     : "")
        << (s.pingpong ? ", ping-pong (each math warpgroup owns a tile; "
                         "one's epilogue overlaps the other's MMAs)"
                       : "")

        << (s.accStages > 1 ? ", " + Twine(s.accStages) +
                                  " accumulator sets (epilogue overlaps "
                                  "the next tile's MMAs)"
                            : Twine(""));
  }

  /// The kernel's `@schedule(...)` hints, if any.
  static HintsAttr kernelHints(ContractOp contract) {
    auto kernel = contract->getParentOfType<KernelOp>();
    return kernel ? kernel.getHintsAttr() : HintsAttr();
  }

  /// A schedule already on the contraction (IR printed by --emit=tile and
  /// read back, or written by hand) as hints pinning all of it, so that it
  /// meets the same rules as one this pass chooses.
  static HintsAttr scheduleAsHints(ScheduleAttr schedule) {
    return HintsAttr::get(
        schedule.getContext(),
        {schedule.getTileM(), schedule.getTileN(), schedule.getTileK()},
        schedule.getStages(), {schedule.getClusterM(), schedule.getClusterN()},
        schedule.getConsumers(), schedule.getPersistent(),
        schedule.getGroupM(), schedule.getStreamK(), schedule.getAccStages(),
        schedule.getPingpong(), schedule.getSplitK());
  }

  FailureOr<Plan> planSchedule(ContractOp contract, const ChipInfo &budget,
                               std::optional<TileVariant> variant,
                               std::string &error) {
    return planSchedule(contract, budget, variant, kernelHints(contract),
                        error);
  }

  /// The schedule of `contract` on `budget`'s chip (see SchedulePlanner), or
  /// failure with `error` saying which rule it breaks.
  FailureOr<Plan> planSchedule(ContractOp contract, const ChipInfo &budget,
                               std::optional<TileVariant> variant,
                               HintsAttr hints, std::string &error) {
    SchedulePlanner planner(contract, budget, variant, hints);
    FailureOr<Plan> plan = planner.run();
    if (failed(plan))
      error = planner.error();
    return plan;
  }
};

} // namespace
