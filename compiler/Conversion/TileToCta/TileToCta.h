//===- TileToCta.h - tile dialect to cta dialect ----------------*- C++ -*-===//

#ifndef KILN_COMPILER_CONVERSION_TILETOCTA_TILETOCTA_H
#define KILN_COMPILER_CONVERSION_TILETOCTA_TILETOCTA_H

#include "compiler/Target/Chip.h"
#include "dialects/Tile/IR/TileOps.h"
#include "mlir/IR/PatternMatch.h"

namespace kiln {

/// Checks that `kernel` is a shape this conversion can tile, and reports
/// anything that is not implemented yet at the op that needs it.
mlir::LogicalResult checkTileToCtaSupport(tile::KernelOp kernel,
                                          target::Chip chip);

/// Patterns turning each supported `tile.kernel` into a `cta.program`.
void populateTileToCtaConversionPatterns(mlir::RewritePatternSet &patterns,
                                         target::Chip chip);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_TILETOCTA_TILETOCTA_H
