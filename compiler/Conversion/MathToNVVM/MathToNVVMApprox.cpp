//===- MathToNVVMApprox.cpp - math functions as approximate instructions --===//
//
// libdevice's expansions are accurate to an ulp or two but long, and an
// epilogue repeats them for every accumulator element of a thread; the
// hardware's approximations are one instruction. See Passes.td for which
// functions and why their accuracy suffices.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/Passes.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTMATHTONVVMAPPROX
#include "compiler/Conversion/Passes.h.inc"
} // namespace kiln

using namespace mlir;

namespace {

/// Replaces the f32 function `op` of one operand by the one PTX instruction
/// `instruction` (inline assembly without side effects: CSE and DCE treat it
/// as the pure function it is).
LogicalResult replaceWithApprox(PatternRewriter &rewriter, Operation *op,
                                StringRef instruction) {
  auto approx = LLVM::InlineAsmOp::create(
      rewriter, op->getLoc(), op->getResultTypes()[0],
      ValueRange{op->getOperand(0)}, (instruction + " $0, $1;").str(), "=f,f",
      /*has_side_effects=*/false, /*is_align_stack=*/false,
      LLVM::tailcallkind::TailCallKind::None,
      LLVM::AsmDialectAttr::get(rewriter.getContext(),
                                LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  rewriter.replaceOp(op, approx.getResult(0));
  return success();
}

/// `math.tanh` on f32 -> `tanh.approx.f32` (sm_75 and later; every chip
/// Kiln targets).
struct TanhToApprox : OpRewritePattern<math::TanhOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::TanhOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has tanh.approx");
    return replaceWithApprox(rewriter, op, "tanh.approx.f32");
  }
};

/// `math.exp2` on f32 marked `afn` -> `ex2.approx.ftz.f32`: one MUFU.EX2.
/// Without `ftz` ptxas wraps the MUFU in a range check and two multiplies
/// to produce subnormal results, which a softmax (its only user: the
/// attention lowering marks its exponentials `afn`) rounds to zero anyway.
struct Exp2ToApprox : OpRewritePattern<math::Exp2Op> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(math::Exp2Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only f32 has ex2.approx");
    if (!arith::bitEnumContainsAll(op.getFastmath(),
                                   arith::FastMathFlags::afn))
      return rewriter.notifyMatchFailure(op, "not marked afn");
    return replaceWithApprox(rewriter, op, "ex2.approx.ftz.f32");
  }
};

struct ConvertMathToNVVMApprox
    : kiln::impl::ConvertMathToNVVMApproxBase<ConvertMathToNVVMApprox> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<TanhToApprox, Exp2ToApprox>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
