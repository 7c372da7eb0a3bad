//===- ApplyFusionPlugins.cpp - run the fusion patterns plugins registered ===//
//
// A plugin's patterns are code Kiln has never seen, so this pass keeps each
// plugin's effect separate and attributable: one greedy run per plugin, only
// its patterns (no folding or region simplification that would blur what it
// changed), a bound on the rewrites so that a pattern which keeps matching its
// own output fails instead of hanging, and a verification after each plugin
// so that broken IR is reported against the plugin that produced it rather
// than against whichever Kiln pass meets it next.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/Transforms/Passes.h"

#include "mlir/IR/Verifier.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEAPPLYFUSIONPLUGINS
#include "dialects/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// A fusion rewrites an op a handful of times at most; far more than that
/// means a pattern keeps succeeding on its own output (A -> B -> A), which the
/// greedy driver would otherwise repeat forever within one sweep.
constexpr int64_t kMaxRewritesPerOp = 64;

/// Remembers where the last rewrite happened, so that a plugin that does not
/// converge is reported at the op it keeps rewriting.
struct LastRewrite : public RewriterBase::Listener {
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    record(op);
  }
  void notifyOperationModified(Operation *op) override { record(op); }
  void notifyOperationReplaced(Operation *op, ValueRange) override {
    record(op);
  }
  void record(Operation *op) { loc = op->getLoc(); }

  std::optional<Location> loc;
};

struct PluginPatterns {
  std::string name;
  FrozenRewritePatternSet patterns;
};

struct TileApplyFusionPluginsPass
    : public kiln::tile::impl::TileApplyFusionPluginsBase<
          TileApplyFusionPluginsPass> {
  using TileApplyFusionPluginsBase::TileApplyFusionPluginsBase;

  LogicalResult initialize(MLIRContext *context) override {
    plugins.clear();
    for (const RegisteredFusionPatterns &entry :
         getRegisteredFusionPatterns(stage)) {
      RewritePatternSet patterns(context);
      entry.populate(patterns);
      plugins.push_back(
          {entry.name, FrozenRewritePatternSet(std::move(patterns))});
    }
    return success();
  }

  void runOnOperation() override {
    if (plugins.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    ModuleOp module = getOperation();
    bool anyChanged = false;
    for (const PluginPatterns &plugin : plugins) {
      int64_t numOps = 0;
      module->walk([&](Operation *) { ++numOps; });
      LastRewrite lastRewrite;
      GreedyRewriteConfig config;
      config.enableFolding(false)
          .enableConstantCSE(false)
          .setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled)
          .setMaxNumRewrites(kMaxRewritesPerOp * numOps)
          .setListener(&lastRewrite);
      bool changed = false;
      if (failed(applyPatternsGreedily(module, plugin.patterns, config,
                                       &changed))) {
        emitError(lastRewrite.loc.value_or(module.getLoc()))
            << "fusion plugin '" << plugin.name
            << "' did not converge at stage '" << stringifyFusionStage(stage)
            << "': its patterns keep rewriting this op";
        return signalPassFailure();
      }
      if (!changed)
        continue;
      anyChanged = true;
      if (failed(verify(module))) {
        module.emitError() << "fusion plugin '" << plugin.name
                           << "' produced invalid IR at stage '"
                           << stringifyFusionStage(stage) << "'";
        return signalPassFailure();
      }
    }
    if (!anyChanged)
      markAllAnalysesPreserved();
  }

  std::vector<PluginPatterns> plugins;
};

} // namespace
