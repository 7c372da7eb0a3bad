//===- FusionPatterns.h - fusion patterns added from outside Kiln -*- C++
//-*-===//
//
// The API a fusion plugin uses: a shared library, loaded with
// `--load-pass-plugin=<path>` by `kiln compile` or `kiln-opt`, registers
// rewrite patterns on the `tile` dialect here, and the pass
// `tile-apply-fusion-plugins` applies them at their stage of the compile
// pipeline. docs/extending.md walks through a complete plugin
// (examples/extending/).
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TILE_TRANSFORMS_FUSIONPATTERNS_H
#define KILN_DIALECTS_TILE_TRANSFORMS_FUSIONPATTERNS_H

#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace kiln::tile {

/// When registered patterns run relative to Kiln's own fusions.
enum class FusionStage {
  /// On the frontend's tile IR: `tile.matmul`, `tile.map`, ... as written.
  BeforeBuiltinFusions,
  /// On fused tile IR (`tile.contract` with epilogue regions), before the
  /// schedule is chosen.
  AfterBuiltinFusions,
};

/// "before" or "after": the spelling of the pass option.
llvm::StringRef stringifyFusionStage(FusionStage stage);

/// Adds a plugin's patterns to `patterns`. Called once per pass instance
/// (when its pass manager initializes), possibly from several threads at once
/// for different pass managers, so it must not modify global state.
using PopulateFusionPatterns = void (*)(mlir::RewritePatternSet &patterns);

/// Registers `populate` to run at `stage`. Meant to be called from a plugin's
/// `mlirGetPassPluginInfo` callback, before any pass manager runs. `name`
/// identifies the plugin in diagnostics. Registering the same name, stage and
/// function again does nothing, so a plugin loaded twice runs once.
void registerFusionPatterns(llvm::StringRef name, FusionStage stage,
                            PopulateFusionPatterns populate);

/// One registration.
struct RegisteredFusionPatterns {
  std::string name;
  PopulateFusionPatterns populate;
};

/// The registrations for `stage`, in the order they were made (so plugins run
/// in the order they were loaded).
std::vector<RegisteredFusionPatterns>
getRegisteredFusionPatterns(FusionStage stage);

} // namespace kiln::tile

#endif // KILN_DIALECTS_TILE_TRANSFORMS_FUSIONPATTERNS_H
