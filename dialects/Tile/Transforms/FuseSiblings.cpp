//===- FuseSiblings.cpp - run contractions that share a K loop as one -----===//
//
// Two products of one activation (SwiGLU's `x @ w1^T` and `x @ w2^T`) read
// the same lhs tile at every K step. Run separately, each re-reads it and
// the first writes an [M, N] intermediate that the second reads back. Fused
// into one tile.contract with two accumulators, the kernel loads the shared
// tile once per stage, issues both MMA chains, and combines the accumulators
// in registers: no intermediate ever reaches memory.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/IR/TileShapes.h"
#include "dialects/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEFUSESIBLINGS
#include "dialects/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// The (M, N, K) dims and operand element type of a contraction, the facts
/// two contractions must share to run in one K loop over one output tile.
struct LoopShape {
  std::string m, n, k;
  Type operand;
};

LoopShape getLoopShape(ContractOp contract) {
  SmallVector<StringAttr, 3> mnk = contract.getMNK();
  auto mma = llvm::cast<MmaAttr>(contract.getContractions()[0]);
  Type operand =
      llvm::cast<RankedTensorType>(contract.getInputs()[mma.getLhs()].getType())
          .getElementType();
  return {mnk[0].str(), mnk[1].str(), mnk[2].str(), operand};
}

/// Why `a` and `b` cannot share one K loop and output tile, or "" if they
/// can.
std::string whyNotFusable(ContractOp a, ContractOp b) {
  if (a.getSchedule() || b.getSchedule())
    return "one of them is already scheduled";
  for (ContractOp contract : {a, b})
    for (Attribute attr : contract.getContractions())
      if (llvm::cast<MmaAttr>(attr).getTransposeA())
        return "a transposed lhs is not supported in a fused loop";
  LoopShape sa = getLoopShape(a), sb = getLoopShape(b);
  if (!dimsAgree(sa.k, sb.k))
    return "their K differs (" + sa.k + " and " + sb.k + ")";
  if (sa.m != sb.m || sa.n != sb.n)
    return "their outputs differ ([" + sa.m + ", " + sa.n + "] and [" + sb.m +
           ", " + sb.n + "])";
  if (sa.operand != sb.operand)
    return "their operand types differ";
  auto scaleBlock = [](ContractOp contract) {
    return llvm::cast<MmaAttr>(contract.getContractions()[0]).getScaleBlock();
  };
  if (scaleBlock(a) != scaleBlock(b))
    return "their block scales differ";
  if (a.getGroups() != b.getGroups())
    return a.getGroups() && b.getGroups()
               ? "they are grouped by different offsets"
               : "one is grouped (mixture of experts) and the other is not";
  return "";
}

/// Whether `a` and `b` read a common tensor (what makes the fusion pay: it
/// is loaded once per stage instead of twice).
bool shareAnOperand(ContractOp a, ContractOp b) {
  return llvm::any_of(a.getInputs(), [&](Value input) {
    return llvm::is_contained(b.getInputs(), input);
  });
}

/// The position of `value` in `set`.
unsigned indexOf(const llvm::SetVector<Value> &set, Value value) {
  return std::distance(set.begin(), llvm::find(set, value));
}

/// Builds one contraction computing what `first` and `second` compute. With
/// `feeds` set, `first`'s single output is one of `second`'s epilogue inputs
/// and is computed in registers instead; otherwise the two are independent
/// and the fused op has the outputs of both.
ContractOp buildFused(ContractOp first, ContractOp second, bool feeds) {
  OpBuilder builder(second);
  MLIRContext *ctx = first.getContext();
  Value fedValue = feeds ? first.getOutputs()[0] : Value();

  // Operands: the union of both, remapped per accumulator.
  llvm::SetVector<Value> inputs;
  SmallVector<Attribute> contractions;
  for (ContractOp contract : {first, second}) {
    for (Attribute attr : contract.getContractions()) {
      auto mma = llvm::cast<MmaAttr>(attr);
      Value lhs = contract.getInputs()[mma.getLhs()];
      Value rhs = contract.getInputs()[mma.getRhs()];
      inputs.insert(lhs);
      inputs.insert(rhs);
      int64_t lhsScale = -1, rhsScale = -1;
      if (mma.isBlockScaled()) {
        Value sa = contract.getInputs()[mma.getLhsScale()];
        Value sb = contract.getInputs()[mma.getRhsScale()];
        inputs.insert(sa);
        inputs.insert(sb);
        lhsScale = indexOf(inputs, sa);
        rhsScale = indexOf(inputs, sb);
      }
      contractions.push_back(MmaAttr::get(
          ctx, indexOf(inputs, lhs), indexOf(inputs, rhs), mma.getTransposeA(),
          mma.getTransposeB(), lhsScale, rhsScale, mma.getScaleBlock(),
          mma.getRhsScaleRows()));
    }
  }
  llvm::SetVector<Value> epilogueInputs;
  for (ContractOp contract : {first, second})
    for (Value input : contract.getEpilogueInputs())
      if (input != fedValue)
        epilogueInputs.insert(input);

  SmallVector<Type> outputs;
  if (!feeds)
    llvm::append_range(outputs, first.getOutputs().getTypes());
  llvm::append_range(outputs, second.getOutputs().getTypes());
  auto fused = ContractOp::create(
      builder, second.getLoc(), outputs, inputs.getArrayRef(),
      epilogueInputs.getArrayRef(), first.getGroups(),
      builder.getArrayAttr(contractions), /*schedule=*/nullptr);

  // Epilogue: every accumulator, then every epilogue input.
  Block *body = builder.createBlock(&fused.getEpilogue());
  Location loc = second.getLoc();
  SmallVector<Value> accs;
  for (size_t i = 0; i < contractions.size(); ++i)
    accs.push_back(body->addArgument(builder.getF32Type(), loc));
  SmallVector<Value> inputArgs;
  for (Value input : epilogueInputs)
    inputArgs.push_back(body->addArgument(
        llvm::cast<RankedTensorType>(input.getType()).getElementType(), loc));

  // Clones `contract`'s epilogue with its accumulators starting at
  // `firstAcc`; returns what it yields.
  auto inlineEpilogue = [&](ContractOp contract, size_t firstAcc,
                            Value fed) -> SmallVector<Value> {
    Block &source = contract.getEpilogue().front();
    IRMapping mapping;
    size_t numAccs = contract.getContractions().size();
    for (size_t i = 0; i < numAccs; ++i)
      mapping.map(source.getArgument(i), accs[firstAcc + i]);
    for (auto [index, input] : llvm::enumerate(contract.getEpilogueInputs())) {
      BlockArgument arg = source.getArgument(numAccs + index);
      if (input == fedValue)
        mapping.map(arg, fed);
      else
        mapping.map(arg, inputArgs[indexOf(epilogueInputs, input)]);
    }
    for (Operation &op : source.without_terminator())
      builder.clone(op, mapping);
    SmallVector<Value> results;
    for (Value value : llvm::cast<YieldOp>(source.getTerminator()).getValues())
      results.push_back(mapping.lookupOrDefault(value));
    return results;
  };
  SmallVector<Value> firstValues = inlineEpilogue(first, 0, Value());
  SmallVector<Value> yielded;
  if (!feeds)
    yielded = firstValues;
  llvm::append_range(yielded,
                     inlineEpilogue(second, first.getContractions().size(),
                                    feeds ? firstValues[0] : Value()));
  YieldOp::create(builder, loc, yielded);
  return fused;
}

/// Fuses one pair of contractions in `kernel`; returns whether it did.
bool fuseOnePair(KernelOp kernel) {
  SmallVector<ContractOp> contracts(kernel.getBody().getOps<ContractOp>());
  for (auto [i, first] : llvm::enumerate(contracts)) {
    for (ContractOp second : ArrayRef(contracts).drop_front(i + 1)) {
      bool feeds =
          first.getOutputs().size() == 1 &&
          llvm::is_contained(second.getEpilogueInputs(), first.getOutputs()[0]);
      bool independent = llvm::none_of(
          first->getUsers(), [&](Operation *op) { return op == second; });
      if (!feeds && !(independent && shareAnOperand(first, second)))
        continue;
      std::string why = whyNotFusable(first, second);
      if (why.empty() && feeds && !first.getOutputs()[0].hasOneUse())
        why = "the first one's result is also used elsewhere";
      if (why.empty() && !feeds)
        for (Operation *user : first->getUsers())
          if (!second->isBeforeInBlock(user))
            why = "the first one's result is used before the second one";
      if (!why.empty()) {
        second.emitRemark() << "not fused with the contraction at "
                            << first.getLoc() << ": " << why;
        continue;
      }
      ContractOp fused = buildFused(first, second, feeds);
      unsigned next = 0;
      if (!feeds)
        for (Value output : first.getOutputs())
          output.replaceAllUsesWith(fused.getOutputs()[next++]);
      for (Value output : second.getOutputs())
        output.replaceAllUsesWith(fused.getOutputs()[next++]);
      second.erase();
      first.erase();
      return true;
    }
  }
  return false;
}

struct TileFuseSiblingsPass
    : public kiln::tile::impl::TileFuseSiblingsBase<TileFuseSiblingsPass> {
  void runOnOperation() override {
    while (fuseOnePair(getOperation())) {
    }
  }
};

} // namespace
