//===- TileToCta.cpp - tile a contraction kernel onto thread blocks -------===//
//
// The tile -> cta step fixes the kernel's ABI (global tensors as strided
// memrefs, symbolic dims as index arguments) and spells out what one CTA does
// per output tile: copy operand tiles into shared memory, multiply them into
// an accumulator over the K loop, and store the tile through the epilogue.
// Everything about overlap (stages, warp roles) is left to cta-pipeline.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/TileToCta/TileToCta.h"
#include "compiler/Conversion/Passes.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "dialects/Tile/IR/TileShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/FormatVariadic.h"

namespace kiln {
#define GEN_PASS_DEF_CONVERTTILETOCTA
#include "compiler/Conversion/Passes.h.inc"
} // namespace kiln

using namespace mlir;
using namespace kiln;

namespace {

bool isSupportedOperand(Type type) { return type.isBF16() || type.isF16(); }
bool isSupportedResult(Type type) {
  return type.isBF16() || type.isF16() || type.isF32();
}

/// The names that dim expressions refer to, in order of first appearance.
void collectDimNames(StringRef expr, llvm::MapVector<StringRef, Value> &names) {
  StringRef name = expr;
  name.consume_front("cdiv(");
  name = name.take_while([](char c) { return llvm::isAlnum(c) || c == '_'; });
  if (!name.empty() && !llvm::isDigit(name[0]))
    names.insert({name, Value()});
}

InFlightDiagnostic notImplemented(Operation *op, const Twine &what) {
  return op->emitError() << "convert-tile-to-cta: not implemented yet: "
                         << what;
}

} // namespace

LogicalResult kiln::checkTileToCtaSupport(tile::KernelOp kernel,
                                          StringRef chip) {
  tile::ContractOp contract;
  for (Operation &op : kernel.getBody().front()) {
    if (auto candidate = llvm::dyn_cast<tile::ContractOp>(op)) {
      if (contract)
        return notImplemented(
            &op, "several contractions in one kernel (a dual GEMM such as SwiGLU "
                 "needs sibling fusion into one tile.contract)");
      contract = candidate;
      continue;
    }
    // Constants canonicalization hoisted out of an epilogue move back in.
    if (llvm::isa<tile::ReturnOp>(op) || op.hasTrait<OpTrait::ConstantLike>())
      continue;
    if (llvm::isa<tile::SoftmaxOp, tile::MaskOp, tile::ScoreModOp>(op))
      return notImplemented(&op, "attention ('" + op.getName().getStringRef() +
                                     "') is not lowered to the cta dialect");
    if (llvm::isa<tile::GroupedMatmulOp>(op))
      return notImplemented(&op, "grouped (mixture-of-experts) matmul");
    if (llvm::isa<tile::ScaledMatmulOp>(op))
      return notImplemented(&op, "block-scaled matmul");
    if (llvm::isa<tile::MatmulOp>(op))
      return notImplemented(
          &op, "batched matmul (rank > 2), or a matmul not fused by "
               "tile-fuse-epilogues");
    return notImplemented(&op, "'" + op.getName().getStringRef() +
                                   "' outside a contraction epilogue");
  }
  if (!contract)
    return notImplemented(kernel, "a kernel without a contraction");
  if (kernel.getNumResults() != 1)
    return notImplemented(kernel, "kernels with several outputs");
  auto ret =
      llvm::cast<tile::ReturnOp>(kernel.getBody().front().getTerminator());
  if (ret.getValues()[0] != contract.getResult())
    return notImplemented(ret,
                          "an output that is not the contraction's result");
  if (!contract.getSchedule())
    return contract.emitError(
        "convert-tile-to-cta: the contraction has no schedule; run "
        "tile-select-schedule first");
  if (chip != "sm_90a" && chip != "sm_100a")
    return contract.emitError() << "convert-tile-to-cta: unknown chip '" << chip
                                << "'; expected sm_90a or sm_100a";
  if (chip == "sm_100a")
    return notImplemented(contract, "code generation for sm_100a (tcgen05 + tensor memory)");
  if (contract.getContractions().size() != 1)
    return notImplemented(
        contract, "dual GEMM: " + Twine(contract.getContractions().size()) +
                      " accumulators in one contraction");
  if (!contract.getEpilogueInputs().empty())
    return notImplemented(contract, "epilogue inputs (bias, residual)");
  auto mma = llvm::cast<tile::MmaAttr>(contract.getContractions()[0]);
  if (mma.getTransposeA())
    return notImplemented(contract, "a transposed lhs (stored [K, M])");
  if (!mma.getTransposeB())
    return notImplemented(
        contract, "an rhs stored [K, N]; store it [N, K] and write b^T");
  for (Value input : contract.getInputs()) {
    if (!llvm::isa<BlockArgument>(input))
      return notImplemented(contract,
                            "contraction operands computed inside the kernel");
    Type element =
        llvm::cast<RankedTensorType>(input.getType()).getElementType();
    if (!isSupportedOperand(element))
      return notImplemented(contract, Twine("operands of type ") +
                                          llvm::formatv("{0}", element).str() +
                                          " (bf16 and f16 are supported)");
  }
  Type out = llvm::cast<RankedTensorType>(contract.getResult().getType())
                 .getElementType();
  if (!isSupportedResult(out))
    return notImplemented(contract, Twine("an output of type ") +
                                        llvm::formatv("{0}", out).str());
  for (StringAttr dim : contract.getMNK())
    if (!tile::getConstantDim(dim.getValue()) &&
        !llvm::all_of(dim.getValue(),
                      [](char c) { return llvm::isAlnum(c) || c == '_'; }))
      return notImplemented(contract,
                            "a contraction extent given by the expression '" +
                                dim.getValue() + "'");
  return success();
}

namespace {

struct KernelToProgram : public OpRewritePattern<tile::KernelOp> {
  KernelToProgram(MLIRContext *ctx, StringRef chip)
      : OpRewritePattern(ctx), chip(chip.str()) {}

  LogicalResult matchAndRewrite(tile::KernelOp kernel,
                                PatternRewriter &rewriter) const override {
    MLIRContext *ctx = getContext();
    Location loc = kernel.getLoc();
    auto contract = *kernel.getBody().getOps<tile::ContractOp>().begin();
    auto schedule = *contract.getSchedule();
    auto mma = llvm::cast<tile::MmaAttr>(contract.getContractions()[0]);

    // The ABI: tensors (inputs, then outputs) as row-major strided memrefs,
    // then each symbolic dim as an index.
    SmallVector<Type> argTypes;
    SmallVector<NamedAttrList> argAttrs;
    llvm::MapVector<StringRef, Value> dims;
    auto addTensor = [&](RankedTensorType type, DictionaryAttr sourceAttrs,
                         StringRef role) {
      SmallVector<int64_t> shape(type.getRank(), ShapedType::kDynamic);
      SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
      strides.back() = 1;
      argTypes.push_back(
          MemRefType::get(shape, type.getElementType(),
                          StridedLayoutAttr::get(ctx, 0, strides)));
      NamedAttrList attrs;
      SmallVector<Attribute> shapeAttr;
      for (const std::string &dim : tile::getDimExprs(type)) {
        shapeAttr.push_back(StringAttr::get(ctx, dim));
        collectDimNames(llvm::cast<StringAttr>(shapeAttr.back()).getValue(),
                        dims);
      }
      // Every tensor needs a name in the manifest; unnamed ones (possible in
      // hand-written tile IR) get their position.
      attrs.set("cta.param",
                StringAttr::get(ctx, (role == "output" ? "out" : "arg") +
                                         Twine(argTypes.size() - 1)));
      if (sourceAttrs)
        for (NamedAttribute attr : sourceAttrs) {
          StringRef name = attr.getName().getValue();
          if (name == "tile.name")
            attrs.set("cta.param", attr.getValue());
          else if (name == "tile.scale_of")
            attrs.set("cta.scale_of", attr.getValue());
          else if (name == "tile.block")
            attrs.set("cta.block", attr.getValue());
        }
      attrs.set("cta.role", StringAttr::get(ctx, role));
      attrs.set("cta.shape", ArrayAttr::get(ctx, shapeAttr));
      argAttrs.push_back(attrs);
    };
    for (unsigned i = 0; i < kernel.getNumArguments(); ++i) {
      auto role = kernel.getArgAttrOfType<StringAttr>(i, "tile.role");
      addTensor(llvm::cast<RankedTensorType>(kernel.getArgumentTypes()[i]),
                kernel.getArgAttrDict(i), role ? role.getValue() : "input");
    }
    for (unsigned i = 0; i < kernel.getNumResults(); ++i)
      addTensor(llvm::cast<RankedTensorType>(kernel.getResultTypes()[i]),
                kernel.getResultAttrDict(i), "output");
    unsigned numTensors = argTypes.size();
    for (auto &entry : dims) {
      argTypes.push_back(rewriter.getIndexType());
      NamedAttrList attrs;
      attrs.set("cta.dim", StringAttr::get(ctx, entry.first));
      argAttrs.push_back(attrs);
    }

    rewriter.setInsertionPoint(kernel);
    auto program =
        cta::ProgramOp::create(rewriter, loc, kernel.getSymName(),
                               rewriter.getFunctionType(argTypes, {}),
                               /*arg_attrs=*/nullptr, /*res_attrs=*/nullptr);
    SmallVector<DictionaryAttr> argDicts;
    for (NamedAttrList &attrs : argAttrs)
      argDicts.push_back(attrs.getDictionary(ctx));
    program.setAllArgAttrs(argDicts);
    program->setAttr("cta.chip", rewriter.getStringAttr(chip));
    // Variants of one kernel (tile-select-schedule) launch as one manifest.
    if (auto of = kernel->getAttrOfType<StringAttr>("tile.variant_of"))
      program->setAttr("cta.variant_of", of);
    if (auto cost = kernel->getAttrOfType<FloatAttr>("tile.tile_cost"))
      program->setAttr("cta.tile_cost", cost);
    program->setAttr("cta.schedule", schedule);
    program->setAttr("cta.cluster",
                     rewriter.getDenseI64ArrayAttr(
                         {schedule.getClusterM(), schedule.getClusterN()}));
    Block *entry = rewriter.createBlock(&program.getBody());
    for (Type type : argTypes)
      entry->addArgument(type, loc);
    for (auto [index, entryDim] : llvm::enumerate(dims))
      entryDim.second = entry->getArgument(numTensors + index);

    rewriter.setInsertionPointToStart(entry);
    auto dimValue = [&](StringAttr dim) -> Value {
      if (std::optional<int64_t> constant =
              tile::getConstantDim(dim.getValue()))
        return arith::ConstantIndexOp::create(rewriter, loc, *constant);
      return dims.lookup(dim.getValue());
    };
    SmallVector<StringAttr, 3> mnk = contract.getMNK();
    Value m = dimValue(mnk[0]), n = dimValue(mnk[1]), k = dimValue(mnk[2]);
    auto argIndex = [](Value value) {
      return llvm::cast<BlockArgument>(value).getArgNumber();
    };
    Value a = entry->getArgument(argIndex(contract.getInputs()[mma.getLhs()]));
    Value b = entry->getArgument(argIndex(contract.getInputs()[mma.getRhs()]));
    Value c = entry->getArgument(kernel.getNumArguments());

    Type operandType = llvm::cast<MemRefType>(a.getType()).getElementType();
    Type outType = llvm::cast<MemRefType>(c.getType()).getElementType();
    int64_t tm = schedule.getTileM(), tn = schedule.getTileN(),
            tk = schedule.getTileK();
    auto buffer = [&](int64_t rows, int64_t cols, Type element) {
      return cta::AllocOp::create(
                 rewriter, loc,
                 cta::BufferType::get(ctx, {rows, cols}, element, 1, nullptr))
          .getBuffer();
    };
    Value sa = buffer(tm, tk, operandType);
    Value sb = buffer(tn, tk, operandType);
    // The epilogue streams the tile out through two 128-byte column blocks.
    int64_t stagingColumns =
        std::min<int64_t>(tn, 2 * 128 * 8 / outType.getIntOrFloatBitWidth());
    Value sc = buffer(tm, stagingColumns, outType);
    auto accType = cta::AccType::get(ctx, {tm, tn}, rewriter.getF32Type());

    auto loop =
        cta::TileLoopOp::create(rewriter, loc, m, n, {tm, tn}, ValueRange{});
    loop.setPersistent(schedule.getPersistent());
    loop.setGroupM(schedule.getGroupM());
    loop.setCluster(
        ArrayRef<int64_t>{schedule.getClusterM(), schedule.getClusterN()});
    rewriter.setInsertionPointToStart(&loop.getBody().front());
    Value m0 = loop.getTileOrigin(0), n0 = loop.getTileOrigin(1);
    Value zero = cta::AccZeroOp::create(rewriter, loc, accType);
    auto mainloop = cta::MainloopOp::create(rewriter, loc, TypeRange{accType},
                                            k, tk, ValueRange{zero});
    Block *kBody = rewriter.createBlock(&mainloop.getBody());
    Value k0 = kBody->addArgument(rewriter.getIndexType(), loc);
    Value acc = kBody->addArgument(accType, loc);
    cta::LoadOp::create(rewriter, loc, a, ValueRange{m0, k0}, sa, Value(),
                        Value(), 1);
    // The CTAs of a cluster share n0, so they share the rhs tile.
    cta::LoadOp::create(rewriter, loc, b, ValueRange{n0, k0}, sb, Value(),
                        Value(), schedule.getClusterM());
    auto product =
        cta::MmaOp::create(rewriter, loc, accType, sa, Value(), Value(), sb,
                           Value(), acc, /*transpose_b=*/true);
    cta::YieldOp::create(rewriter, loc, product.getResult());

    rewriter.setInsertionPointAfter(mainloop);
    auto store = cta::StoreOp::create(rewriter, loc, mainloop.getResults(), c,
                                      ValueRange{m0, n0}, sc, Value());
    Block *epilogue = rewriter.createBlock(&store.getEpilogue());
    IRMapping mapping;
    Block &source = contract.getEpilogue().front();
    for (BlockArgument arg : source.getArguments())
      mapping.map(arg, epilogue->addArgument(arg.getType(), arg.getLoc()));
    for (Operation &op : source.without_terminator()) {
      // Constants the epilogue uses from outside (e.g. hoisted by a
      // canonicalization) move in with it: the kernel body goes away.
      for (Value operand : op.getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (!source.getParent()->isAncestor(def->getParentRegion()) &&
              def->hasTrait<OpTrait::ConstantLike>() &&
              !mapping.contains(operand))
            rewriter.clone(*def, mapping);
      rewriter.clone(op, mapping);
    }
    auto yield = llvm::cast<tile::YieldOp>(source.getTerminator());
    cta::YieldOp::create(rewriter, yield.getLoc(),
                         mapping.lookup(yield.getValues()[0]));
    rewriter.setInsertionPointAfter(store);
    cta::YieldOp::create(rewriter, loc);

    rewriter.setInsertionPointToEnd(entry);
    cta::ReturnOp::create(rewriter, loc);
    rewriter.eraseOp(kernel);
    return success();
  }

  std::string chip;
};

struct ConvertTileToCtaPass
    : public kiln::impl::ConvertTileToCtaBase<ConvertTileToCtaPass> {
  using Base::Base;
  void runOnOperation() override {
    bool ok = true;
    for (tile::KernelOp kernel : getOperation().getOps<tile::KernelOp>())
      ok &= succeeded(checkTileToCtaSupport(kernel, chip));
    if (!ok)
      return signalPassFailure();
    // Applied once per kernel, without the greedy driver: its folding would
    // first hoist constants out of the epilogue regions being moved.
    RewritePatternSet patterns(&getContext());
    populateTileToCtaConversionPatterns(patterns, chip);
    FrozenRewritePatternSet frozen(std::move(patterns));
    SmallVector<tile::KernelOp> kernels(
        getOperation().getOps<tile::KernelOp>());
    for (tile::KernelOp kernel : kernels)
      if (failed(applyOpPatternsGreedily(
              ArrayRef<Operation *>{kernel}, frozen,
              GreedyRewriteConfig()
                  .setStrictness(GreedyRewriteStrictness::ExistingOps)
                  .enableFolding(false)
                  .enableConstantCSE(false))))
        return signalPassFailure();
  }
};

} // namespace

void kiln::populateTileToCtaConversionPatterns(RewritePatternSet &patterns,
                                               StringRef chip) {
  patterns.add<KernelToProgram>(patterns.getContext(), chip);
}
