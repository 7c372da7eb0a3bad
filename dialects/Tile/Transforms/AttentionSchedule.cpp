//===- AttentionSchedule.cpp - how an attention op is tiled ---------------===//
//
// FlashAttention-3's shape on sm_90a: two math warpgroups of 64 query rows
// each (128 per CTA; three, 192 rows, at head dim 64 without masks),
// two-stage rings of key and value tiles filled by a producer warpgroup,
// one CTA per SM walking (batch, head, query block) units, 128 keys per
// step (96 at head dim 64 without masks, 64 above 128). On sm_100a one
// softmax warpgroup of 128 query rows, its scores, P and O in tensor
// memory, 128 keys per step (64 above head dim 128). Head dims are
// multiples of 64 (one 128-byte swizzle span of 16-bit elements per column
// block) up to the MMA's widest N, 256.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/Transforms/AttentionSchedule.h"

#include "compiler/Target/TensorMemory.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "llvm/ADT/Twine.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::tile;

namespace {

constexpr int64_t kRowsPerWarpgroup = target::mmaMinRows;
constexpr int64_t kMathWarpgroups = 2;
/// At head dim 64 the MMAs of a key block take half the time while its
/// softmax takes the same: a third warpgroup keeps the tensor cores busy
/// while two compute exponentials (FlashAttention-3 uses 192 query rows
/// there too). Its scores are 96 keys wide so that the 64 x 64 output, the
/// scores and the previous block's P fit the 160 registers each of three
/// math warpgroups gets (128 keys spill); measured 1.14x at 4k non-causal
/// on an H200 (docs/performance.md); causal too since its bounds stopped
/// spilling (1.09x at 4 x 4096 on an H100). Mask regions and packed
/// sequences keep two warpgroups.
constexpr int64_t kNarrowHeadDim = 64;
constexpr int64_t kNarrowMathWarpgroups = 3;
constexpr int64_t kNarrowKeyTile = 96;
/// Above head dim 128 the 64 x dv output takes 128 registers of a math
/// thread: 64 keys per step keep the scores and the previous block's P
/// beside it in 240 (they spilled 116 bytes until the direct-store
/// fallback stopped holding its addresses through the kernel). Measured
/// against 32 keys on an H100, 4 x 4096, 16 heads: 1.30x non-causal, 1.23x
/// causal; 80 keys do not fit shared memory with two stages.
constexpr int64_t kWideHeadDim = 128;
constexpr int64_t kWideKeyTile = 64;
constexpr int64_t kKeyTile = 128;
constexpr int64_t kStages = 2;
/// The head-dim granule: one column block of 16-bit elements.
constexpr int64_t kHeadDimMultiple = 64;

/// sm_100a (tensor memory): one softmax warpgroup of 128 query rows (one
/// tcgen05.mma M), S = Q Kᵀ in two accumulator sets so that the MMA warp
/// computes the next block's scores while the softmax reads these, O and P
/// in tensor memory beside them. Above head dim 128 a key block of 64 keeps
/// Q, two stages of K and V and the output staging in shared memory (128
/// keys: 320 KiB), and its scores and P in tensor memory next to the
/// 256-column O.
constexpr int64_t kTensorMemoryQueryRows = target::tmemLanes;
constexpr int64_t kTensorMemoryWideKeyTile = 64;
constexpr int64_t kScoreSets = 2;

/// The tcgen05 schedule: tile_m 128 (one warpgroup), tile_n keys per step,
/// two score sets (acc_stages).
/// Its tensor memory (attentionTensorMemoryColumns) is at most 256 + 32 +
/// 2 x 64 = 416 of sm_100a's 512 columns; cta-allocate-resources reports a
/// program beyond a chip's.
ScheduleAttr planTensorMemorySchedule(AttentionOp op, int64_t d, int64_t dv) {
  int64_t tileN = std::max(d, dv) > kWideHeadDim ? kTensorMemoryWideKeyTile
                                                 : kKeyTile;
  return ScheduleAttr::get(op.getContext(), kTensorMemoryQueryRows, tileN, d,
                           kStages, /*clusterM=*/1, /*clusterN=*/1,
                           /*consumers=*/1, /*persistent=*/true, /*groupM=*/1,
                           /*streamK=*/false, kScoreSets,
                           /*pingpong=*/false, /*splitK=*/false);
}

} // namespace

int64_t kiln::tile::attentionTensorMemoryColumns(AttentionOp op,
                                                ScheduleAttr schedule) {
  auto columns = [](Type element, int64_t elements) -> int64_t {
    return *target::tmemColumnsOf(element.getIntOrFloatBitWidth(),
                                  static_cast<uint32_t>(elements));
  };
  Type f32 = Float32Type::get(op.getContext());
  int64_t tileN = schedule.getTileN();
  return columns(f32, attentionHeadDims(op)->second) +
         columns(op.getPType(), tileN) +
         schedule.getAccStages() * columns(f32, tileN);
}

std::optional<std::pair<int64_t, int64_t>>
kiln::tile::attentionHeadDims(AttentionOp op) {
  auto lastDim = [](Value value) {
    return getConstantDim(
        getDimExprs(llvm::cast<RankedTensorType>(value.getType())).back());
  };
  std::optional<int64_t> d = lastDim(op.getQ()), dv = lastDim(op.getV());
  if (!d || !dv)
    return std::nullopt;
  return std::make_pair(*d, *dv);
}

FailureOr<ScheduleAttr>
kiln::tile::planAttentionSchedule(AttentionOp op, const target::ChipInfo &chip,
                                  std::string &error) {
  auto fail = [&](const Twine &why) {
    error = why.str();
    return failure();
  };
  std::optional<std::pair<int64_t, int64_t>> dims = attentionHeadDims(op);
  if (!dims)
    return fail("the head dims of q, k and v must be constants");
  auto [d, dv] = *dims;
  int64_t widest = static_cast<int64_t>(chip.mmaMaxN);
  for (int64_t dim : {d, dv})
    if (dim <= 0 || dim % kHeadDimMultiple != 0 || dim > widest)
      return fail("head dim " + Twine(dim) + " cannot be tiled: head dims "
                  "are multiples of " + Twine(kHeadDimMultiple) +
                  " up to " + Twine(widest));
  if (chip.hasTensorMemory())
    return planTensorMemorySchedule(op, d, dv);
  // What this fixes fits sm_90a's budgets for head dims up to 128: per
  // math thread 128 registers of output and score fragments (64 x (dv +
  // tileN) f32 over a warpgroup) next to the previous block's P, and at
  // most 224 KiB of shared memory (two stages each of Q, K and V, and each
  // math warpgroup's 64 x dv output staging, at head dim 128).
  // (Packed sequences mask the keys past each sequence's end: masks too.)
  bool narrow = std::max(d, dv) <= kNarrowHeadDim && op.getMask().empty() &&
                !op.getQOffsets();
  int64_t tileN = narrow                           ? kNarrowKeyTile
                 : std::max(d, dv) > kWideHeadDim ? kWideKeyTile
                                                  : kKeyTile;
  int64_t warpgroups = narrow ? kNarrowMathWarpgroups : kMathWarpgroups;
  int64_t tileM = kRowsPerWarpgroup * warpgroups;
  return ScheduleAttr::get(op.getContext(), tileM, tileN, d, kStages,
                           /*clusterM=*/1, /*clusterN=*/1, warpgroups,
                           /*persistent=*/true, /*groupM=*/1,
                           /*streamK=*/false, /*accStages=*/1,
                           /*pingpong=*/false, /*splitK=*/false);
}
