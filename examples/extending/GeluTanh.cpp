//===- GeluTanh.cpp - example fusion plugin: GELU, tanh approximation -----===//
//
// Kiln's `gelu(x)` is torch's default, exact GELU:
//
//   x/2 * (1 + erf(x / sqrt(2)))
//
// Many models were trained with torch's `gelu(x, approximate='tanh')`
// (GPT-2, Gemma, ... `gelu_pytorch_tanh` in Hugging Face configs):
//
//   x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x^3)))
//
// and their reference implementations compute that form; the two differ by
// up to 4.7e-4 (at x = -2.7). This plugin rewrites the first into the second
// wherever the frontend's exact GELU appears in a `tile.contract` epilogue or
// a `tile.map` region, so such a model's `.kiln` source keeps writing
// `gelu(...)` and the kernel computes what the model was trained with.
//
// It registers at the AfterBuiltinFusions stage: by then Kiln has moved each
// activation into its contraction's epilogue, so the pattern sees every region
// in its final form. (On sm_90a the rewritten epilogue also comes out shorter:
// libdevice's tanhf is less code than its erff.)
//
// Build: the main build makes build/lib/libKilnExampleFusion.so; this file's
// CMakeLists.txt also builds it on its own against a built Kiln. Use:
//
//   kiln compile mlp.kiln --load-pass-plugin=build/lib/libKilnExampleFusion.so
//
// The plugin links no Kiln library: the registry and the tile ops it names
// are resolved from the `kiln` or `kiln-opt` executable that loads it.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/IR/TileOps.h"
#include "dialects/Tile/Transforms/FusionPatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Tools/Plugins/PassPlugin.h"

#include <cmath>

using namespace mlir;

namespace {

/// sqrt(2 / pi), the tanh approximation's scale.
constexpr double kSqrt2OverPi = 0.7978845608028654;
/// The cubic term's coefficient (Hendrycks and Gimpel, 2016).
constexpr double kCubic = 0.044715;

/// Whether `value` is a float constant equal to `expected` rounded to the
/// constant's type, which is how the frontend writes its constants.
bool isFloatConstant(Value value, double expected) {
  FloatAttr attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return false;
  llvm::APFloat want(expected);
  bool losesInfo = false;
  want.convert(attr.getValue().getSemantics(),
               llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return attr.getValue().bitwiseIsEqual(want);
}

/// If `value` is `other <op> c` or `c <op> other` for the constant `c`,
/// returns `other`. Both orders, because canonicalization moves constants to
/// the right and the frontend sometimes writes them on the left.
template <typename OpTy> Value matchConstantOperand(Value value, double c) {
  auto op = value.getDefiningOp<OpTy>();
  if (!op)
    return {};
  if (isFloatConstant(op.getRhs(), c))
    return op.getLhs();
  if (isFloatConstant(op.getLhs(), c))
    return op.getRhs();
  return {};
}

/// If `half * onePlus` is the exact GELU of some `x`, returns `x`:
///   half    = x * 0.5
///   onePlus = 1 + erf(x * (1/sqrt 2))
Value matchExactGelu(Value half, Value onePlus) {
  Value x = matchConstantOperand<arith::MulFOp>(half, 0.5);
  Value erfResult = matchConstantOperand<arith::AddFOp>(onePlus, 1.0);
  if (!x || !erfResult)
    return {};
  auto erf = erfResult.getDefiningOp<math::ErfOp>();
  if (!erf ||
      matchConstantOperand<arith::MulFOp>(erf.getOperand(), M_SQRT1_2) != x)
    return {};
  return x;
}

/// Rewrites the exact GELU rooted at its last multiplication into the tanh
/// approximation. The old erf chain becomes dead and the driver erases it.
struct ExactGeluToTanh : OpRewritePattern<arith::MulFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::MulFOp root,
                                PatternRewriter &rewriter) const override {
    // Only the scalar code of tile regions: other arith code (index math,
    // anything a later stage builds) is not the frontend's GELU.
    if (!isa<kiln::tile::MapOp, kiln::tile::ContractOp>(root->getParentOp()))
      return rewriter.notifyMatchFailure(root, "not in a tile region");
    Value x = matchExactGelu(root.getLhs(), root.getRhs());
    if (!x)
      x = matchExactGelu(root.getRhs(), root.getLhs());
    if (!x || !isa<FloatType>(x.getType()))
      return rewriter.notifyMatchFailure(root, "not an exact GELU");

    // x/2 * (1 + tanh(sqrt(2/pi) * x * (1 + 0.044715 x^2))), which is the
    // usual form with x + 0.044715 x^3 factored to save a multiplication.
    Location loc = root.getLoc();
    Type type = x.getType();
    auto constant = [&](double v) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getFloatAttr(type, v));
    };
    Value square = arith::MulFOp::create(rewriter, loc, x, x);
    Value scaledSquare =
        arith::MulFOp::create(rewriter, loc, constant(kCubic), square);
    Value factor =
        arith::AddFOp::create(rewriter, loc, constant(1.0), scaledSquare);
    Value inner = arith::MulFOp::create(rewriter, loc, x, factor);
    Value scaled =
        arith::MulFOp::create(rewriter, loc, constant(kSqrt2OverPi), inner);
    Value tanh = math::TanhOp::create(rewriter, loc, scaled);
    Value onePlus = arith::AddFOp::create(rewriter, loc, constant(1.0), tanh);
    Value half = arith::MulFOp::create(rewriter, loc, x, constant(0.5));
    Value gelu = arith::MulFOp::create(rewriter, loc, half, onePlus);
    rewriter.replaceOp(root, gelu);
    return success();
  }
};

void populateGeluTanhPatterns(RewritePatternSet &patterns) {
  patterns.add<ExactGeluToTanh>(patterns.getContext());
}

} // namespace

/// The entry point `--load-pass-plugin` looks up. Registration only records
/// the pattern set; the pipeline's `tile-apply-fusion-plugins{stage=after}`
/// applies it.
extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "KilnExampleFusion", "1", [] {
            kiln::tile::registerFusionPatterns(
                "gelu-tanh", kiln::tile::FusionStage::AfterBuiltinFusions,
                populateGeluTanhPatterns);
          }};
}
