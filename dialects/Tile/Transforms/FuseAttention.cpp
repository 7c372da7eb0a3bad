//===- FuseAttention.cpp - attention written as math becomes one op -------===//
//
// The frontend writes attention as the math reads: a product of q and k^T,
// elementwise score modifiers, masks, a softmax and a product with v. Lowered
// op by op, that chain materializes the [.., S, T] score matrix, which
// FlashAttention never does: it computes the scores block by block in
// registers. Replacing the chain by one tile.attention removes the score
// matrix from the program, so no later stage can write it to memory. A chain
// that does not fit the op stays as it is, with a remark at its softmax that
// says why (convert-tile-to-cta then refuses the pieces).
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/IR/TileShapes.h"
#include "dialects/Tile/Transforms/Passes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/SetVector.h"

namespace kiln::tile {
#define GEN_PASS_DEF_TILEFUSEATTENTION
#include "dialects/Tile/Transforms/Passes.h.inc"
} // namespace kiln::tile

using namespace mlir;
using namespace kiln::tile;

namespace {

/// The ops of one attention chain. The score modifiers and masks are listed
/// from the softmax backwards (the order they are found and erased in).
struct AttentionChain {
  Operation *scores = nullptr; // q @ k^T, or a tile.segmented_matmul
  Value q, k;                  // its operands
  Value qOffsets, kOffsets;    // segmented: the sequences' offsets
  SmallVector<Operation *> modifiers; // tile.map / tile.score_mod
  SmallVector<MaskOp> masks;
  SoftmaxOp softmax;
  MapOp roundP;     // optional: P rounded to v's type
  MatmulOp product; // P @ v
  MapOp roundO;     // optional: the output converted to its type
  ReduceOp lse;     // optional: logsumexp of the softmax's input
  MapOp roundLse;   // optional: the log-sum-exp converted to its type
};

/// "" if `value` has one use (besides `alsoFused`, a user the fused op
/// takes in too), else why a chain through it cannot fuse (`what` names the
/// value; `next`, if known, is the chain's own user).
std::string whyNotOnlyUse(Value value, StringRef what,
                          Operation *next = nullptr,
                          Operation *alsoFused = nullptr) {
  auto users = llvm::make_filter_range(
      value.getUsers(), [&](Operation *user) { return user != alsoFused; });
  if (llvm::hasSingleElement(users))
    return "";
  Operation *other = nullptr;
  for (Operation *user : users) {
    if (llvm::isa<ReturnOp>(user))
      return (what + " are also returned").str();
    if (user != next || !other)
      other = user;
  }
  if (!other)
    return (what + " are not used").str();
  return (what + " are also read by '" + other->getName().getStringRef() + "'")
      .str();
}

int64_t getRank(Value value) {
  return llvm::cast<RankedTensorType>(value.getType()).getRank();
}

/// Whether `region` reads a value defined outside it other than a constant
/// (which the fused op copies into its own region).
bool capturesNonConstant(Region &region) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region, captured);
  return llvm::any_of(captured, [](Value value) {
    Operation *def = value.getDefiningOp();
    return !def || !def->hasTrait<OpTrait::ConstantLike>();
  });
}

/// Whether `map` only converts its one input to another element type (or
/// passes it through): a rounding the fused op does by itself.
bool isConversion(MapOp map) {
  if (map.getInputs().size() != 1)
    return false;
  auto in = llvm::cast<RankedTensorType>(map.getInputs()[0].getType());
  auto out = llvm::cast<RankedTensorType>(map.getResult().getType());
  if (getDimExprs(in) != getDimExprs(out))
    return false;
  Block &body = map.getBody().front();
  Value arg = body.getArgument(0);
  Value yielded = llvm::cast<YieldOp>(body.getTerminator()).getValues()[0];
  if (yielded == arg)
    return true;
  Operation *cast = yielded.getDefiningOp();
  return cast && &body.front() == cast &&
         llvm::isa<arith::TruncFOp, arith::ExtFOp>(cast) &&
         cast->getOperand(0) == arg;
}

/// "" if `map` is an elementwise score modifier: it reads only the scores
/// (and constants) and keeps them f32 of the same shape; else why not.
std::string whyNotScoreMap(MapOp map) {
  if (map.getInputs().size() != 1)
    return "the scores are combined with another tensor in a 'tile.map' "
           "(only the score, i, j and constants can modify a score)";
  if (map.getResult().getType() != map.getInputs()[0].getType())
    return "a 'tile.map' changes the scores' type or shape; tile.attention "
           "keeps them f32";
  if (capturesNonConstant(map.getBody()))
    return "a 'tile.map' of the scores reads a value from outside its region";
  return "";
}

/// "" if `operand` (k or v) has q's rank and each of its batch axes is q's
/// or 1, as tile.attention needs; else why not. The products' verifier lets
/// either side broadcast, but the op's output has q's batch axes, so q must
/// not be the one of extent 1.
std::string whyNotQueryBatch(Value q, Value operand, StringRef name) {
  if (getRank(operand) != getRank(q))
    return (name + " has rank " + std::to_string(getRank(operand)) +
            " and q rank " + std::to_string(getRank(q)) +
            "; tile.attention needs one rank")
        .str();
  SmallVector<std::string> qDims = getDimExprs(
      llvm::cast<RankedTensorType>(q.getType()));
  SmallVector<std::string> dims = getDimExprs(
      llvm::cast<RankedTensorType>(operand.getType()));
  for (size_t axis = 0; axis + 2 < qDims.size(); ++axis)
    if (dims[axis] != "1" && !dimsAgree(dims[axis], qDims[axis]))
      return (name + " has extent '" + dims[axis] + "' where q has '" +
              qDims[axis] + "' (axis " + std::to_string(axis) +
              "); tile.attention broadcasts only k and v (a size-1 axis of "
              "theirs), not q")
          .str();
  return "";
}

/// The log-sum-exp over the last axis of the softmax's input, if one reads
/// it (the softmax's log normalizer, a second output of the fused op), and
/// its conversion to the type it is returned as.
void matchLogSumExp(AttentionChain &chain) {
  Value scores = chain.softmax.getInput();
  for (Operation *user : scores.getUsers()) {
    auto reduce = llvm::dyn_cast<ReduceOp>(user);
    if (reduce && reduce.getKind() == ReduceKind::logsumexp &&
        reduce.getAxisAttr().getInt() == getRank(scores) - 1) {
      chain.lse = reduce;
      break;
    }
  }
  if (!chain.lse || !chain.lse.getResult().hasOneUse())
    return;
  if (auto map = llvm::dyn_cast<MapOp>(*chain.lse.getResult().getUsers().begin()))
    if (isConversion(map)) {
      Type element = llvm::cast<RankedTensorType>(map.getResult().getType())
                         .getElementType();
      if (element.isBF16() || element.isF16() || element.isF32())
        chain.roundLse = map;
    }
}

/// Walks back from the softmax to the product q @ k^T. "" once `chain` holds
/// the masks, the modifiers and that product; else why the chain stops.
std::string matchScores(AttentionChain &chain) {
  Value current = chain.softmax.getInput();
  Operation *next = chain.softmax;
  // The softmax's input may also be read by its log-sum-exp.
  Operation *lse = chain.lse;
  while (auto mask = current.getDefiningOp<MaskOp>()) {
    if (std::string why =
            whyNotOnlyUse(current, "the masked scores", next, lse);
        !why.empty())
      return why;
    lse = nullptr;
    if (!mask.getPredicate().empty() &&
        capturesNonConstant(mask.getPredicate()))
      return "a mask's predicate reads a value from outside its region";
    chain.masks.push_back(mask);
    current = mask.getScores();
    next = mask;
  }
  while (true) {
    Operation *def = current.getDefiningOp();
    if (!def)
      return "the scores are a kernel argument, not a product q @ k^T";
    if (llvm::isa<MaskOp>(def))
      return "a score modifier follows a mask; tile.attention modifies the "
             "scores before it masks them";
    StringRef what =
        llvm::isa<MatmulOp>(def) ? "the scores" : "the modified scores";
    if (std::string why = whyNotOnlyUse(current, what, next, lse);
        !why.empty())
      return why;
    lse = nullptr;
    next = def;
    if (auto map = llvm::dyn_cast<MapOp>(def)) {
      if (std::string why = whyNotScoreMap(map); !why.empty())
        return why;
      chain.modifiers.push_back(map);
      current = map.getInputs()[0];
      continue;
    }
    if (auto modifier = llvm::dyn_cast<ScoreModOp>(def)) {
      if (capturesNonConstant(modifier.getBody()))
        return "a score modifier reads a value from outside its region";
      chain.modifiers.push_back(modifier);
      current = modifier.getScores();
      continue;
    }
    if (auto scores = llvm::dyn_cast<MatmulOp>(def)) {
      if (scores.getTransposeA())
        return "q is read transposed (q^T); tile.attention reads q as "
               "[.., S, D]";
      if (!scores.getTransposeB())
        return "k is not read transposed: the scores are not q @ k^T with k "
               "[.., T, D]";
      chain.scores = scores;
      chain.q = scores.getLhs();
      chain.k = scores.getRhs();
      break;
    }
    // Varlen attention's scores: grouped(q, cu_q) @ grouped(k, cu_k)^T.
    if (auto scores = llvm::dyn_cast<SegmentedMatmulOp>(def)) {
      chain.scores = scores;
      chain.q = scores.getLhs();
      chain.k = scores.getRhs();
      chain.qOffsets = scores.getLhsOffsets();
      chain.kOffsets = scores.getRhsOffsets();
      break;
    }
    return ("the scores come from '" + def->getName().getStringRef() +
            "', not from a product q @ k^T")
        .str();
  }
  int64_t rank = getRank(chain.q);
  if (rank < 3 || rank > 5)
    return "q has rank " + std::to_string(rank) +
           "; tile.attention takes rank 3 to 5 (batch or head axes, then "
           "[S, D])";
  return whyNotQueryBatch(chain.q, chain.k, "k");
}

/// Walks forward from the softmax to the product P @ v. "" once `chain`
/// holds it (and the roundings around it); else why the chain stops.
std::string matchOutput(AttentionChain &chain) {
  Value p = chain.softmax.getResult();
  if (std::string why = whyNotOnlyUse(p, "the probabilities"); !why.empty())
    return why;
  Operation *user = *p.getUsers().begin();
  if (auto map = llvm::dyn_cast<MapOp>(user)) {
    if (!isConversion(map))
      return "the probabilities are changed by a 'tile.map' before the "
             "product with v (only a rounding to v's type fuses)";
    chain.roundP = map;
    p = map.getResult();
    if (std::string why = whyNotOnlyUse(p, "the rounded probabilities");
        !why.empty())
      return why;
    user = *p.getUsers().begin();
  }
  auto product = llvm::dyn_cast<MatmulOp>(user);
  if (!product)
    return ("the probabilities are read by '" + user->getName().getStringRef() +
            "', not by a product with v")
        .str();
  if (product.getRhs() == p)
    return "the second product contracts the probabilities over the query "
           "axis S (they are its rhs), not over the key axis T";
  if (product.getTransposeA())
    return "the second product reads the probabilities transposed (p^T), "
           "contracting over the query axis S, not over the key axis T";
  if (product.getTransposeB())
    return "v is read transposed (v^T); tile.attention reads v as "
           "[.., T, Dv]";
  if (std::string why =
          whyNotQueryBatch(chain.q, product.getRhs(), "v");
      !why.empty())
    return why;
  chain.product = product;
  // The output's conversion to its type is part of the op; any other use
  // of the f32 result reads the op's f32 result.
  Value o = product.getResult();
  if (o.hasOneUse())
    if (auto map = llvm::dyn_cast<MapOp>(*o.getUsers().begin()))
      if (isConversion(map)) {
        Type element = llvm::cast<RankedTensorType>(map.getResult().getType())
                           .getElementType();
        if (element.isBF16() || element.isF16() || element.isF32())
          chain.roundO = map;
      }
  return "";
}

/// "" unless the log-sum-exp is read before the product with v, where the
/// fused op is built; else why not.
std::string whyNotLogSumExpAfter(AttentionChain &chain) {
  if (!chain.lse)
    return "";
  Value lse =
      chain.roundLse ? chain.roundLse.getResult() : chain.lse.getResult();
  for (Operation *user : lse.getUsers())
    if (user->isBeforeInBlock(chain.product))
      return "the log-sum-exp is read before the product with v, where "
             "tile.attention computes both";
  return "";
}

/// Copies the constants `region` reads from outside into the block being
/// built (adding them to `outer`), then its ops with `mapping` (block
/// arguments already mapped); returns the value it yields.
Value inlineRegion(OpBuilder &builder, Region &region, IRMapping &mapping,
                   llvm::SetVector<Operation *> &outer) {
  llvm::SetVector<Value> captured;
  getUsedValuesDefinedAbove(region, captured);
  for (Value value : captured) {
    outer.insert(value.getDefiningOp());
    mapping.map(value, builder.clone(*value.getDefiningOp())->getResult(0));
  }
  Block &body = region.front();
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  return mapping.lookupOrDefault(
      llvm::cast<YieldOp>(body.getTerminator()).getValues()[0]);
}

/// Replaces `chain` by one tile.attention at the location of q @ k^T (where
/// the language wrote the attention's first product).
void fuse(AttentionChain &chain) {
  Operation *scores = chain.scores;
  MatmulOp product = chain.product;
  Location loc = scores->getLoc();
  MLIRContext *ctx = scores->getContext();
  OpBuilder builder(product);
  Value result = chain.roundO ? chain.roundO.getResult() : product.getResult();
  Value lse;
  if (chain.lse)
    lse = chain.roundLse ? chain.roundLse.getResult() : chain.lse.getResult();
  bool causal =
      llvm::any_of(chain.masks, [](MaskOp mask) { return mask.getCausal(); });
  Type pType =
      llvm::cast<RankedTensorType>(product.getLhs().getType()).getElementType();
  auto attention = AttentionOp::create(
      builder, loc, result.getType(), lse ? lse.getType() : Type(),
      chain.q, chain.k, product.getRhs(), chain.qOffsets, chain.kOffsets,
      AttentionMaskAttr::get(ctx, causal ? AttentionMask::causal
                                         : AttentionMask::none),
      TypeAttr::get(pType), /*schedule=*/ScheduleAttr());

  Type f32 = builder.getF32Type();
  Type index = builder.getIndexType();
  // Constants the regions read from outside; copied in, and erased once
  // nothing else reads them.
  llvm::SetVector<Operation *> outer;
  if (!chain.modifiers.empty()) {
    OpBuilder::InsertionGuard guard(builder);
    Block *block = builder.createBlock(&attention.getScore(), {},
                                       {f32, index, index}, {loc, loc, loc});
    Value score = block->getArgument(0);
    for (Operation *op : llvm::reverse(chain.modifiers)) {
      IRMapping mapping;
      Region *region;
      if (auto map = llvm::dyn_cast<MapOp>(op)) {
        region = &map.getBody();
        mapping.map(region->getArgument(0), score);
      } else {
        region = &llvm::cast<ScoreModOp>(op).getBody();
        for (auto [from, to] :
             llvm::zip(region->getArguments(), block->getArguments()))
          mapping.map(from, to);
        mapping.map(region->getArgument(0), score);
      }
      score = inlineRegion(builder, *region, mapping, outer);
    }
    YieldOp::create(builder, loc, score);
  }

  if (llvm::any_of(chain.masks,
                   [](MaskOp mask) { return !mask.getPredicate().empty(); })) {
    OpBuilder::InsertionGuard guard(builder);
    Block *block = builder.createBlock(&attention.getMask(), {}, {index, index},
                                       {loc, loc});
    Value keep;
    for (MaskOp mask : llvm::reverse(chain.masks)) {
      if (mask.getPredicate().empty())
        continue;
      IRMapping mapping;
      for (auto [from, to] :
           llvm::zip(mask.getPredicate().getArguments(), block->getArguments()))
        mapping.map(from, to);
      Value kept = inlineRegion(builder, mask.getPredicate(), mapping, outer);
      keep = keep ? arith::AndIOp::create(builder, mask.getLoc(), keep, kept)
                        .getResult()
                  : kept;
    }
    YieldOp::create(builder, loc, keep);
  }

  result.replaceAllUsesWith(attention.getResult());
  if (lse)
    lse.replaceAllUsesWith(attention.getLse());
  // Each op's only user is the next one, so erase from the end.
  if (chain.roundLse)
    chain.roundLse.erase();
  if (chain.lse)
    chain.lse.erase();
  if (chain.roundO)
    chain.roundO.erase();
  product.erase();
  if (chain.roundP)
    chain.roundP.erase();
  chain.softmax.erase();
  for (MaskOp mask : chain.masks)
    mask.erase();
  for (Operation *op : chain.modifiers)
    op->erase();
  scores->erase();
  for (Operation *constant : outer)
    if (constant->use_empty())
      constant->erase();
}

struct TileFuseAttentionPass
    : public kiln::tile::impl::TileFuseAttentionBase<TileFuseAttentionPass> {
  void runOnOperation() override {
    SmallVector<SoftmaxOp> softmaxes;
    getOperation().walk([&](SoftmaxOp op) { softmaxes.push_back(op); });
    for (SoftmaxOp softmax : softmaxes) {
      // A softmax whose result reaches no product is not attention.
      if (!feedsProduct(softmax))
        continue;
      AttentionChain chain;
      chain.softmax = softmax;
      matchLogSumExp(chain);
      std::string why = matchScores(chain);
      if (why.empty())
        why = matchOutput(chain);
      if (why.empty())
        why = whyNotLogSumExpAfter(chain);
      if (!why.empty()) {
        softmax.emitRemark() << "not fused into tile.attention: " << why;
        continue;
      }
      fuse(chain);
    }
  }
};

} // namespace
