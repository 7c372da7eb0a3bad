//===- TestFusionPlugin.cpp - a fusion plugin for the lit tests -----------===//
//
// Drives tile-apply-fusion-plugins through what a real plugin cannot be
// relied on to do: report which IR each stage sees, never converge, and
// produce IR that does not verify. Each behaviour is switched on by an
// attribute in the test input, so the plugin changes nothing else.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/IR/TileOps.h"
#include "dialects/Tile/Transforms/FusionPatterns.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

using namespace mlir;
using namespace kiln::tile;

namespace {

/// `tile.kernel` with `test.<stage>`: records the names of the ops in its body
/// as `test.<stage>_saw`, showing what the stage runs on.
struct RecordStage : OpRewritePattern<KernelOp> {
  RecordStage(MLIRContext *context, StringRef stage)
      : OpRewritePattern(context), stage(stage) {}

  LogicalResult matchAndRewrite(KernelOp kernel,
                                PatternRewriter &rewriter) const override {
    std::string marker = ("test." + stage).str();
    if (!kernel->hasAttr(marker))
      return failure();
    SmallVector<Attribute> names;
    for (Operation &op : kernel.getBody().front())
      names.push_back(rewriter.getStringAttr(op.getName().getStringRef()));
    rewriter.modifyOpInPlace(kernel, [&] {
      kernel->removeAttr(marker);
      kernel->setAttr(marker + "_saw", rewriter.getArrayAttr(names));
    });
    return success();
  }

  StringRef stage;
};

/// Any op with `test.diverge`: flips the attribute forever.
struct Diverge : RewritePattern {
  Diverge(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    auto flag = op->getAttrOfType<BoolAttr>("test.diverge");
    if (!flag)
      return failure();
    rewriter.modifyOpInPlace(op, [&] {
      op->setAttr("test.diverge", rewriter.getBoolAttr(!flag.getValue()));
    });
    return success();
  }
};

/// `tile.map` with `test.break`: gives the map a result element type its
/// region does not yield.
struct Break : OpRewritePattern<MapOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MapOp map,
                                PatternRewriter &rewriter) const override {
    if (!map->hasAttr("test.break"))
      return failure();
    auto type = cast<RankedTensorType>(map.getResult().getType());
    rewriter.modifyOpInPlace(map, [&] {
      map->removeAttr("test.break");
      map.getResult().setType(type.clone(rewriter.getF64Type()));
    });
    return success();
  }
};

void populateBefore(RewritePatternSet &patterns) {
  patterns.add<RecordStage>(patterns.getContext(), "before");
  patterns.add<Diverge, Break>(patterns.getContext());
}

void populateAfter(RewritePatternSet &patterns) {
  patterns.add<RecordStage>(patterns.getContext(), "after");
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "KilnTestFusionPlugin", "1", [] {
            registerFusionPatterns("test-before",
                                   FusionStage::BeforeBuiltinFusions,
                                   populateBefore);
            registerFusionPatterns(
                "test-after", FusionStage::AfterBuiltinFusions, populateAfter);
          }};
}
