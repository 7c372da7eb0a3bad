//===- AttentionToCta.h - an attention kernel onto thread blocks -*- C++ -*-===//

#ifndef KILN_COMPILER_CONVERSION_TILETOCTA_ATTENTIONTOCTA_H
#define KILN_COMPILER_CONVERSION_TILETOCTA_ATTENTIONTOCTA_H

#include "compiler/Target/Chip.h"
#include "dialects/Tile/IR/TileOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {

/// Checks that `kernel`, whose body holds `attention`, is an attention
/// kernel this conversion builds on `chip`; reports what is not implemented
/// yet at the op that needs it.
mlir::LogicalResult checkAttentionSupport(tile::KernelOp kernel,
                                          tile::AttentionOp attention,
                                          target::Chip chip);

/// Replaces `kernel` (checked by checkAttentionSupport) by its warp-
/// specialized cta.program.
void buildAttentionProgram(mlir::PatternRewriter &rewriter,
                           tile::KernelOp kernel, tile::AttentionOp attention,
                           target::Chip chip);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_TILETOCTA_ATTENTIONTOCTA_H
