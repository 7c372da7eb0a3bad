//===- SemaSchedule.cpp - @schedule(...) hints ----------------------------===//
//
// Hints pin choices tile-select-schedule would otherwise make. They are
// checked here against what every supported chip's MMA can do, so a bad hint
// is reported at its source rather than deep in the lowering.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/Suggest.h"

#include "compiler/Target/Chip.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"

using namespace kiln;
using namespace kiln::ast;
using mlir::failure;
using mlir::LogicalResult;
using mlir::success;

namespace {

// A hint is checked before the chip is known, so against what every chip's
// MMA accepts.
constexpr int64_t kMaxTileM = target::maxTileM;
constexpr int64_t kMaxTileN = target::maxTileN;
constexpr int64_t kMmaM = target::mmaMinRows;
constexpr int64_t kMmaN = target::mmaCommonNMultiple;
constexpr int64_t kMmaKBytes = target::mmaKBytes;

enum class HintKind { Int, Bool, List };

struct HintSpec {
  llvm::StringLiteral key;
  HintKind kind;
  llvm::StringLiteral form; // how the value is written, for messages
};

constexpr HintSpec kHints[] = {
    {"tile", HintKind::List, "a list [BM, BN, BK]"},
    {"stages", HintKind::Int, "an integer"},
    {"cluster", HintKind::List, "a list [CM, CN]"},
    {"consumers", HintKind::Int, "an integer"},
    {"persistent", HintKind::Bool, "true or false"},
    {"group_m", HintKind::Int, "an integer"},
    {"stream_k", HintKind::Bool, "true or false"},
    {"acc_stages", HintKind::Int, "an integer"},
    {"pingpong", HintKind::Bool, "true or false"},
    {"split_k", HintKind::Bool, "true or false"},
};

llvm::StringRef describeValue(ScheduleItem::Kind kind) {
  switch (kind) {
  case ScheduleItem::Kind::Int:
    return "an integer";
  case ScheduleItem::Kind::Bool:
    return "a boolean";
  case ScheduleItem::Kind::List:
    return "a list";
  }
  return "a value";
}

bool matches(HintKind want, ScheduleItem::Kind have) {
  return (want == HintKind::Int && have == ScheduleItem::Kind::Int) ||
         (want == HintKind::Bool && have == ScheduleItem::Kind::Bool) ||
         (want == HintKind::List && have == ScheduleItem::Kind::List);
}

LogicalResult checkTile(const ScheduleItem &item, const ContractionInfo &info,
                        const SourceLocator &locator) {
  if (item.list.size() != 3)
    return locator.emitError(item.valueLoc)
           << "'tile' takes 3 extents [BM, BN, BK], got " << item.list.size();
  static const char *const names[] = {"BM", "BN", "BK"};
  for (unsigned i = 0; i < 3; ++i)
    if (item.list[i] < 1)
      return locator.emitError(item.listLocs[i])
             << "tile " << names[i] << "=" << item.list[i]
             << " must be positive";
  int64_t bm = item.list[0], bn = item.list[1], bk = item.list[2];
  if (bm % kMmaM != 0)
    return locator.emitError(item.listLocs[0])
           << "tile BM=" << bm << " is not a multiple of " << kMmaM
           << ", the M of one warpgroup MMA";
  if (bm > kMaxTileM)
    return locator.emitError(item.listLocs[0])
           << "tile BM=" << bm << " exceeds " << kMaxTileM
           << ", the most rows one CTA's consumer warpgroups hold";
  if (bn % kMmaN != 0)
    return locator.emitError(item.listLocs[1])
           << "tile BN=" << bn << " is not a multiple of " << kMmaN
           << ", the N step of the MMA";
  if (bn > kMaxTileN)
    return locator.emitError(item.listLocs[1])
           << "tile BN=" << bn << " exceeds " << kMaxTileN
           << ", the widest MMA";
  // One pipeline stage holds at least the lhs and one rhs tile, BK wide;
  // BK is bounded first so that the product cannot overflow.
  int64_t bits = info.any ? getBitWidth(info.narrowest) : 4;
  int64_t smem = target::largestSmemPerBlockOptIn();
  if (bk > target::maxKernelIndex ||
      (bm + bn) * bk * bits / 8 > smem)
    return locator.emitError(item.listLocs[2])
           << "tile BK=" << bk << " is too deep: one pipeline stage of a "
           << bm << "x" << bn << " tile would need more than the " << smem
           << " bytes of shared memory a CTA has";
  if (!info.any)
    return success();
  int64_t mmaK = kMmaKBytes * 8 / getBitWidth(info.narrowest);
  if (bk % mmaK != 0)
    return locator.emitError(item.listLocs[2])
           << "tile BK=" << bk << " is not a multiple of " << mmaK
           << ", the K of one " << getDTypeName(info.narrowest) << " MMA";
  if (info.scaleBlockK && bk % *info.scaleBlockK != 0 &&
      *info.scaleBlockK % bk != 0)
    return locator.emitError(item.listLocs[2])
           << "tile BK=" << bk << " must divide or be a multiple of the "
           << "scale block along K (" << *info.scaleBlockK << ")";
  return success();
}

LogicalResult checkCluster(const ScheduleItem &item,
                           const SourceLocator &locator) {
  if (item.list.size() != 2)
    return locator.emitError(item.valueLoc)
           << "'cluster' takes 2 extents [CM, CN], got " << item.list.size();
  // The CTAs of a cluster multicast one rhs tile: they share tile columns
  // and stack along M.
  int64_t cm = item.list[0], cn = item.list[1];
  if (cm < 1 || !llvm::isPowerOf2_64(cm) || cm > target::maxClusterM)
    return locator.emitError(item.listLocs[0])
           << "cluster CM=" << cm << " must be 1, 2 or " << target::maxClusterM
           << " (the CTAs along M that share one multicast rhs tile)";
  if (cn != 1)
    return locator.emitError(item.listLocs[1])
           << "cluster CN=" << cn
           << " must be 1: the CTAs of a cluster share tile columns (write ["
           << cm << ", 1])";
  return success();
}

LogicalResult checkRange(const ScheduleItem &item, int64_t lo, int64_t hi,
                         const SourceLocator &locator,
                         llvm::StringRef why = "") {
  if (item.intValue >= lo && item.intValue <= hi)
    return success();
  auto diag = locator.emitError(item.valueLoc);
  diag << "'" << item.key << "' must be ";
  diag << "between " << lo << " and " << hi;
  return diag << ", got " << item.intValue << why;
}

} // namespace

LogicalResult kiln::checkSchedule(const Schedule &schedule,
                                  const ContractionInfo &info,
                                  const SourceLocator &locator) {
  llvm::StringMap<const ScheduleItem *> seen;
  const ScheduleItem *tile = nullptr;
  const ScheduleItem *consumers = nullptr;
  bool ok = true;
  for (const ScheduleItem &item : schedule.items) {
    const HintSpec *spec = nullptr;
    for (const HintSpec &candidate : kHints)
      if (candidate.key == item.key)
        spec = &candidate;
    if (!spec) {
      llvm::SmallVector<llvm::StringRef> keys;
      for (const HintSpec &candidate : kHints)
        keys.push_back(candidate.key);
      std::string hint = didYouMean(item.key, keys);
      if (hint.empty())
        hint = "; expected one of " + llvm::join(keys, ", ");
      locator.emitError(item.keyLoc)
          << "unknown schedule hint '" << item.key << "'" << hint;
      ok = false;
      continue;
    }
    auto [it, inserted] = seen.try_emplace(item.key, &item);
    if (!inserted) {
      auto diag = locator.emitError(item.keyLoc);
      diag << "schedule hint '" << item.key << "' is given twice";
      diag.attachNote(locator.getLoc(it->second->keyLoc)) << "first given here";
      ok = false;
      continue;
    }
    if (!matches(spec->kind, item.kind)) {
      locator.emitError(item.valueLoc)
          << "'" << item.key << "' takes " << spec->form << ", got "
          << describeValue(item.kind);
      ok = false;
      continue;
    }
    LogicalResult result = success();
    if (item.key == "tile") {
      result = checkTile(item, info, locator);
      tile = &item;
    } else if (item.key == "cluster") {
      result = checkCluster(item, locator);
    } else if (item.key == "stages") {
      result = checkRange(item, target::minPipelineStages,
                          target::maxPipelineStages, locator,
                          " (a pipeline fills one stage while the MMAs read "
                          "another)");
    } else if (item.key == "consumers") {
      result = checkRange(item, 1, target::maxConsumerWarpgroups, locator,
                          " (sm_90a runs 2 math warpgroups; sm_100a 1 or 2 "
                          "epilogue warpgroups)");
      consumers = &item;
    } else if (item.key == "acc_stages") {
      // Tensor-memory accumulator sets (sm_100a): one, or two to overlap
      // the epilogue with the next tile's MMAs.
      result = checkRange(item, 1, 2, locator);
    } else if (item.key == "group_m") {
      // It becomes a constant of the kernel's 32-bit grid arithmetic.
      result = checkRange(item, 1, target::maxKernelIndex, locator,
                          " (the kernel's tile arithmetic is 32-bit)");
    }
    ok &= succeeded(result);
  }
  if (!ok)
    return failure();

  // Each consumer warpgroup owns BM / consumers rows, a multiple of the MMA M.
  if (tile && consumers) {
    int64_t bm = tile->list[0], n = consumers->intValue;
    if (bm % (n * kMmaM) != 0)
      return locator.emitError(consumers->valueLoc)
             << "consumers=" << n << " cannot split tile BM=" << bm
             << " into multiples of " << kMmaM << " rows";
  }
  return success();
}
