//===- AttentionSchedule.h - how an attention op is tiled -------*- C++ -*-===//
//
// The schedule of a `tile.attention`: tile_m query rows per CTA (64 per math
// warpgroup), tile_n keys per step of the key/value loop, tile_k the head
// dim, the depth of the key/value ring. tile-select-schedule chooses it,
// checked against the chip's budgets, and convert-tile-to-cta builds the
// kernel from it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TILE_TRANSFORMS_ATTENTIONSCHEDULE_H
#define KILN_DIALECTS_TILE_TRANSFORMS_ATTENTIONSCHEDULE_H

#include "compiler/Target/Chip.h"
#include "dialects/Tile/IR/TileOps.h"

#include <string>

namespace kiln::tile {

/// The head dims (of q/k, and of v) of `op`, or nullopt where one is not a
/// constant.
std::optional<std::pair<int64_t, int64_t>> attentionHeadDims(AttentionOp op);

/// The tensor-memory columns of an attention kernel on a chip that has
/// tensor memory: O (f32, `dv` columns), P (its 16-bit type, two per
/// column: target::tmemColumnsOf) and the schedule's score sets
/// (`acc_stages` of `tile_n` f32 columns).
int64_t attentionTensorMemoryColumns(AttentionOp op, ScheduleAttr schedule);

/// The schedule of `op` on `chip`; on failure `error` says which budget or
/// rule no schedule meets.
mlir::FailureOr<ScheduleAttr>
planAttentionSchedule(AttentionOp op, const target::ChipInfo &chip,
                      std::string &error);

} // namespace kiln::tile

#endif // KILN_DIALECTS_TILE_TRANSFORMS_ATTENTIONSCHEDULE_H
