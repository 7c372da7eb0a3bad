//===- TileOps.cpp - operations of the tile dialect -----------------------===//
//
// Verifiers check every shape and dtype rule symbolically (via #tile.dims) and
// name the offending extents, so a malformed tile program is rejected here with
// the same clarity as in the frontend.
//
//===----------------------------------------------------------------------===//

#include "dialects/Tile/IR/TileOps.h"
#include "dialects/Tile/IR/FunctionOpParser.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "compiler/Target/Chip.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace kiln::tile;

//===----------------------------------------------------------------------===//
// Shared verification helpers
//===----------------------------------------------------------------------===//

namespace {
/// The logical [rows, cols] of a matmul operand's last two axes, after an
/// optional transpose, plus its leading (batch) axes.
struct MatrixDims {
  SmallVector<std::string> batch;
  std::string rows, cols;
};
} // namespace

static MatrixDims getMatrixDims(Value value, bool transposed) {
  SmallVector<std::string> dims =
      getDimExprs(llvm::cast<RankedTensorType>(value.getType()));
  MatrixDims result;
  result.batch.assign(dims.begin(), dims.end() - 2);
  result.rows = dims[dims.size() - 2];
  result.cols = dims.back();
  if (transposed)
    std::swap(result.rows, result.cols);
  return result;
}

static int64_t getRank(Value value) {
  return llvm::cast<RankedTensorType>(value.getType()).getRank();
}

static Type getElementType(Value value) {
  return llvm::cast<RankedTensorType>(value.getType()).getElementType();
}

static bool isFp8(Type type) {
  return llvm::isa<Float8E4M3FNType, Float8E5M2Type>(type);
}
static bool isFp4(Type type) { return llvm::isa<Float4E2M1FNType>(type); }

/// Checks that the two operands of a product may be multiplied by one MMA:
/// the same 16-bit type, 8-bit floats (e4m3/e5m2 may mix), or f32 with f32.
static LogicalResult verifyOperandTypes(Operation *op, Type lhs, Type rhs) {
  if (lhs == rhs || (isFp8(lhs) && isFp8(rhs)))
    return success();
  return op->emitOpError() << "operand element types differ: " << lhs << " and "
                           << rhs << "; both must match (8-bit floats may mix)";
}

/// Checks that the extents `got` (of `what`) agree with `expected`, naming the
/// first axis that does not.
static LogicalResult verifyDims(Operation *op, StringRef what,
                                ArrayRef<std::string> got,
                                ArrayRef<std::string> expected) {
  if (got.size() != expected.size())
    return op->emitOpError()
           << what << " has rank " << got.size() << ", expected "
           << expected.size() << " (" << formatDims(expected) << ")";
  for (auto [axis, pair] : llvm::enumerate(llvm::zip(got, expected)))
    if (!dimsAgree(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError()
             << what << " is " << formatDims(got) << ", expected "
             << formatDims(expected) << " (axis " << axis << ")";
  return success();
}

/// Numpy broadcasting of `input` against `result`: axes align at the right and
/// an input extent must equal the result's or be the constant 1.
static LogicalResult verifyBroadcast(Operation *op, StringRef what,
                                     ArrayRef<std::string> input,
                                     ArrayRef<std::string> result) {
  if (input.size() > result.size())
    return op->emitOpError()
           << "cannot broadcast " << what << " " << formatDims(input) << " to "
           << formatDims(result) << ": rank " << input.size() << " > "
           << result.size();
  size_t offset = result.size() - input.size();
  for (auto [axis, dim] : llvm::enumerate(input))
    if (dim != "1" && !dimsAgree(dim, result[offset + axis]))
      return op->emitOpError()
             << "cannot broadcast " << what << " " << formatDims(input)
             << " to " << formatDims(result) << ": extent '" << dim << "' vs '"
             << result[offset + axis] << "'";
  return success();
}

/// Checks a scalar region: its arguments have `argTypes` and it yields one
/// value of `resultType`.
static LogicalResult verifyScalarRegion(Operation *op, Region &region,
                                        StringRef what, TypeRange argTypes,
                                        TypeRange resultTypes) {
  if (region.empty())
    return op->emitOpError() << "needs a " << what << " region";
  Block &block = region.front();
  if (block.getNumArguments() != argTypes.size())
    return op->emitOpError()
           << what << " region takes " << block.getNumArguments()
           << " arguments, expected " << argTypes.size();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(block.getArgumentTypes(), argTypes)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return op->emitOpError()
             << what << " region argument #" << index << " is "
             << std::get<0>(pair) << ", expected " << std::get<1>(pair);
  auto yield =
      block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << what << " region must end in tile.yield";
  if (yield.getValues().getTypes() != resultTypes) {
    InFlightDiagnostic diag = op->emitOpError() << what << " region must yield ";
    if (resultTypes.size() == 1)
      return diag << "one " << resultTypes[0];
    diag << "(";
    llvm::interleaveComma(resultTypes, diag);
    return diag << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

ParseResult KernelOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFunctionLikeOp<KernelOp>(parser, result);
}

void KernelOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

// A tensor without a `tile.param` (hand-written IR) is an input or an output
// named by its position, as the manifest needs a name for every tensor.
ParamAttr KernelOp::getArgParam(unsigned i) {
  if (auto param = getArgAttrOfType<ParamAttr>(i, kParamAttrName))
    return param;
  return ParamAttr::get(getContext(), "arg" + std::to_string(i),
                        ParamKind::input);
}

ParamAttr KernelOp::getResultParam(unsigned i) {
  if (auto param = getResultAttrOfType<ParamAttr>(i, kParamAttrName))
    return param;
  return ParamAttr::get(getContext(), "out" + std::to_string(i),
                        ParamKind::output);
}

StringRef KernelOp::getArgName(unsigned i) {
  return getArgParam(i).getName().getValue();
}

StringRef KernelOp::getResultName(unsigned i) {
  return getResultParam(i).getName().getValue();
}

/// A constant extent of a kernel tensor beyond what the lowering indexes
/// (32-bit coordinates), or nullopt. The frontend refuses those; IR written
/// by hand reached the manifest writer with them.
static std::optional<int64_t> findOversizedExtent(RankedTensorType type) {
  for (int64_t extent : type.getShape())
    if (!ShapedType::isDynamic(extent) &&
        extent > kiln::target::maxKernelIndex)
      return extent;
  return std::nullopt;
}

LogicalResult KernelOp::verify() {
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    auto tensor = llvm::dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return emitOpError() << "argument #" << index
                           << " must be a ranked tensor, got " << type;
    if (std::optional<int64_t> extent = findOversizedExtent(tensor))
      return emitOpError() << "argument #" << index << " has extent "
                           << *extent << "; kernels index with 32-bit "
                           << "coordinates (at most "
                           << kiln::target::maxKernelIndex << ")";
  }
  for (auto [index, type] : llvm::enumerate(getResultTypes())) {
    auto tensor = llvm::dyn_cast<RankedTensorType>(type);
    if (!tensor)
      return emitOpError() << "result #" << index
                           << " must be a ranked tensor, got " << type;
    if (std::optional<int64_t> extent = findOversizedExtent(tensor))
      return emitOpError() << "result #" << index << " has extent " << *extent
                           << "; kernels index with 32-bit coordinates (at "
                           << "most " << kiln::target::maxKernelIndex << ")";
  }
  if (getBody().empty())
    return emitOpError() << "must have a body";

  // Every tensor says what it is to the caller; scale tensors follow the
  // data they scale.
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i) {
    ParamAttr param = getArgParam(i);
    if (param.getKind() == ParamKind::output)
      return emitOpError() << "argument #" << i
                           << " is an input or a scale, not an output";
    if (param.getKind() != ParamKind::scale)
      continue;
    bool found = false;
    for (unsigned j = 0; j < i; ++j)
      found |= getArgName(j) == param.getScaleOf().getValue() &&
               getArgParam(j).getKind() == ParamKind::input;
    if (!found)
      return emitOpError() << "scale argument #" << i << " scales '"
                           << param.getScaleOf().getValue()
                           << "', which is not an earlier input";
  }
  for (unsigned i = 0, e = getNumResults(); i < e; ++i)
    if (getResultParam(i).getKind() != ParamKind::output)
      return emitOpError() << "result #" << i << " is an output, not an "
                           << stringifyParamKind(getResultParam(i).getKind());
  if (FloatAttr cost = getTileCostAttr())
    // Variants are ranked by it; NaN compares false both ways.
    if (!std::isfinite(cost.getValueAsDouble()) ||
        cost.getValueAsDouble() <= 0)
      return emitOpError() << "tile_cost must be a positive finite float, got "
                           << cost;
  if (FloatAttr cost = getTailCostAttr())
    if (!std::isfinite(cost.getValueAsDouble()) ||
        cost.getValueAsDouble() < 0)
      return emitOpError() << "tail_cost must be a finite float >= 0, got "
                           << cost;
  return success();
}

LogicalResult
KernelOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // A variant is another compilation of a kernel of the same module: the
  // manifest folds it into that kernel's, whose parameters it must share.
  FlatSymbolRefAttr name = getVariantOfAttr();
  if (!name)
    return success();
  auto primary = symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, name);
  if (!primary)
    return emitOpError() << "variant_of names '" << name.getValue()
                         << "', which is not a tile.kernel of this module";
  if (primary == *this || primary.getVariantOfAttr())
    return emitOpError() << "variant_of must name a primary kernel, not "
                            "a variant: '"
                         << name.getValue() << "'";
  if (primary.getFunctionType() != getFunctionType())
    return emitOpError() << "is a variant of '" << name.getValue()
                         << "' but its signature differs: "
                         << getFunctionType() << " vs "
                         << primary.getFunctionType();
  return success();
}

LogicalResult ReturnOp::verify() {
  auto kernel = (*this)->getParentOfType<KernelOp>();
  ArrayRef<Type> expected = kernel.getResultTypes();
  if (getValues().size() != expected.size())
    return emitOpError() << "returns " << getValues().size()
                         << " values but the kernel has " << expected.size()
                         << " outputs";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getValues().getTypes(), expected)))
    if (std::get<0>(pair) != std::get<1>(pair))
      return emitOpError() << "output #" << index << " has type "
                           << std::get<0>(pair) << " but the kernel declares "
                           << std::get<1>(pair);
  return success();
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

/// Shared by matmul-like ops: rank >= 2, K agrees, result is batch x [M, N].
static LogicalResult verifyProduct(Operation *op, Value lhs, Value rhs,
                                   bool transposeA, bool transposeB,
                                   Value result) {
  if (getRank(lhs) < 2 || getRank(rhs) < 2)
    return op->emitOpError() << "operands must have rank >= 2, got ranks "
                             << getRank(lhs) << " and " << getRank(rhs);
  if (failed(verifyOperandTypes(op, getElementType(lhs), getElementType(rhs))))
    return failure();
  MatrixDims a = getMatrixDims(lhs, transposeA);
  MatrixDims b = getMatrixDims(rhs, transposeB);
  if (!dimsAgree(a.cols, b.rows))
    return op->emitOpError() << "contraction dims differ: K=" << a.cols
                             << " from lhs, K=" << b.rows << " from rhs";
  // Batch axes broadcast like elementwise operands: each result extent is
  // the operands' extent that is not 1 (aligned at the right), and both
  // broadcast to it (the frontend's numpy rule: [1, B] with [2, B] gives
  // [2, B]).
  const SmallVector<std::string> &longer =
      a.batch.size() >= b.batch.size() ? a.batch : b.batch;
  const SmallVector<std::string> &shorter =
      a.batch.size() >= b.batch.size() ? b.batch : a.batch;
  SmallVector<std::string> batch(longer.begin(), longer.end());
  size_t offset = longer.size() - shorter.size();
  for (auto [axis, dim] : llvm::enumerate(shorter))
    if (batch[offset + axis] == "1")
      batch[offset + axis] = dim;
  if (failed(verifyBroadcast(op, "lhs batch", a.batch, batch)) ||
      failed(verifyBroadcast(op, "rhs batch", b.batch, batch)))
    return failure();
  batch.push_back(a.rows);
  batch.push_back(b.cols);
  return verifyDims(op, "result",
                    getDimExprs(llvm::cast<RankedTensorType>(result.getType())),
                    batch);
}

LogicalResult MatmulOp::verify() {
  return verifyProduct(*this, getLhs(), getRhs(), getTransposeA(),
                       getTransposeB(), getResult());
}

/// That `scale` holds one entry per `block` of `data`'s last two axes (its
/// leading axes as `data`'s: a grouped rhs's scales per group).
static LogicalResult verifyScaleDims(Operation *op, StringRef what, Value data,
                                     Value scale, ArrayRef<int64_t> block) {
  SmallVector<std::string> expected =
      getDimExprs(llvm::cast<RankedTensorType>(data.getType()));
  size_t rank = expected.size();
  expected[rank - 2] = getScaleDim(expected[rank - 2], block[0]);
  expected[rank - 1] = getScaleDim(expected[rank - 1], block[1]);
  return verifyDims(op, what,
                    getDimExprs(llvm::cast<RankedTensorType>(scale.getType())),
                    expected);
}

LogicalResult ScaledMatmulOp::verify() {
  for (Value operand : {getLhs(), getRhs()})
    if (getRank(operand) != 2)
      return emitOpError()
             << "block-scaled operands must have rank 2, got rank "
             << getRank(operand);
  for (Value operand : {getLhs(), getRhs()})
    if (!isFp8(getElementType(operand)) && !isFp4(getElementType(operand)))
      return emitOpError() << "block-scaled operands must be fp8 or fp4, got "
                           << getElementType(operand);
  if (isFp4(getElementType(getLhs())) != isFp4(getElementType(getRhs())))
    return emitOpError() << "cannot mix fp4 and fp8 operands";
  for (auto [name, block] :
       {std::pair<StringRef, ArrayRef<int64_t>>{"lhs_block", getLhsBlock()},
        {"rhs_block", getRhsBlock()}})
    if (block.size() != 2 || block[0] < 1 || block[1] < 1)
      return emitOpError() << name << " must be two positive extents";

  // Each scale tensor has one entry per block of its operand's stored axes.
  if (failed(verifyScaleDims(*this, "lhs_scale", getLhs(), getLhsScale(),
                             getLhsBlock())) ||
      failed(verifyScaleDims(*this, "rhs_scale", getRhs(), getRhsScale(),
                             getRhsBlock())))
    return failure();
  return verifyProduct(*this, getLhs(), getRhs(), false, getTransposeB(),
                       getResult());
}

/// That `offsets` has one entry more than the groups of `rhs` (its leading
/// axis `E`): `[E+1]`.
static LogicalResult verifyGroupOffsets(Operation *op, Value rhs,
                                        Value offsets) {
  std::string experts =
      getDimExprs(llvm::cast<RankedTensorType>(rhs.getType()))[0];
  std::string expectedOffsets =
      experts == kUnknownDim    ? kUnknownDim.str()
      : getConstantDim(experts) ? std::to_string(*getConstantDim(experts) + 1)
                                : experts + "+1";
  return verifyDims(
      op, "offsets",
      getDimExprs(llvm::cast<RankedTensorType>(offsets.getType())),
      {expectedOffsets});
}

LogicalResult GroupedMatmulOp::verify() {
  if (getRank(getLhs()) != 2 || getRank(getRhs()) != 3 ||
      getRank(getOffsets()) != 1)
    return emitOpError() << "expects lhs [T, K], rhs [E, "
                         << (getTransposeB() ? "N, K" : "K, N")
                         << "] and offsets [E+1]; got ranks "
                         << getRank(getLhs()) << ", " << getRank(getRhs())
                         << ", " << getRank(getOffsets());
  if (failed(verifyOperandTypes(*this, getElementType(getLhs()),
                                getElementType(getRhs()))))
    return failure();
  if (bool(getLhsScale()) != bool(getRhsScale()) ||
      bool(getLhsScale()) != bool(getLhsBlock()) ||
      bool(getLhsBlock()) != bool(getRhsBlock()))
    return emitOpError() << "block scales need both scale tensors and both "
                            "blocks, or none of them";
  if (getLhsScale()) {
    if (!getTransposeB())
      return emitOpError() << "block-scaled experts are read K-major: rhs "
                              "[E, N, K] with transpose_b";
    // One scale per block of each operand's last two axes.
    for (auto [what, data, scale, block] :
         {std::tuple<StringRef, Value, Value, ArrayRef<int64_t>>{
              "lhs_scale", getLhs(), getLhsScale(), *getLhsBlock()},
          {"rhs_scale", getRhs(), getRhsScale(), *getRhsBlock()}}) {
      if (block.size() != 2 || block[0] < 1 || block[1] < 1)
        return emitOpError() << what << "'s block must be two positive extents";
      if (failed(verifyScaleDims(*this, what, data, scale, block)))
        return failure();
    }
  }
  if (failed(verifyGroupOffsets(*this, getRhs(), getOffsets())))
    return failure();
  MatrixDims x = getMatrixDims(getLhs(), false);
  MatrixDims b = getMatrixDims(getRhs(), getTransposeB());
  if (!dimsAgree(x.cols, b.rows))
    return emitOpError() << "contraction dims differ: K=" << x.cols
                         << " from lhs, K=" << b.rows << " from rhs";
  return verifyDims(
      *this, "result",
      getDimExprs(llvm::cast<RankedTensorType>(getResult().getType())),
      {x.rows, b.cols});
}

/// That each batch axis of `what` (`got`) is that of `of` (`batch`) or 1:
/// keys and values broadcast along the query heads they serve.
LogicalResult PerGroupOp::verify() {
  if (getRank(getInput()) != 2 || getRank(getOffsets()) != 1 ||
      getRank(getResult()) != 2)
    return emitOpError() << "expects input [E, X], offsets [E+1] and a result "
                            "[T, X]; got ranks "
                         << getRank(getInput()) << ", " << getRank(getOffsets())
                         << ", " << getRank(getResult());
  if (getElementType(getInput()) != getElementType(getResult()))
    return emitOpError() << "result element type "
                         << getElementType(getResult())
                         << " differs from the input's "
                         << getElementType(getInput());
  if (failed(verifyGroupOffsets(*this, getInput(), getOffsets())))
    return failure();
  std::string columns =
      getDimExprs(llvm::cast<RankedTensorType>(getInput().getType()))[1];
  std::string rows =
      getDimExprs(llvm::cast<RankedTensorType>(getResult().getType()))[0];
  return verifyDims(*this, "result",
                    getDimExprs(llvm::cast<RankedTensorType>(getResult().getType())),
                    {rows, columns});
}

static LogicalResult verifyBroadcastBatch(Operation *op, StringRef what,
                                          ArrayRef<std::string> got,
                                          StringRef of,
                                          ArrayRef<std::string> batch) {
  for (auto [axis, pair] : llvm::enumerate(llvm::zip(got, batch)))
    if (std::get<0>(pair) != "1" &&
        !dimsAgree(std::get<0>(pair), std::get<1>(pair)))
      return op->emitOpError()
             << what << " batch axes " << formatDims(got) << " must be " << of
             << "'s " << formatDims(batch) << " or 1 (axis " << axis << ")";
  return success();
}

/// That `offsets` are `i32[X]` with one extent for both.
static LogicalResult verifySegmentOffsets(Operation *op, Value first,
                                          Value second) {
  SmallVector<std::string> a =
      getDimExprs(llvm::cast<RankedTensorType>(first.getType()));
  SmallVector<std::string> b =
      getDimExprs(llvm::cast<RankedTensorType>(second.getType()));
  if (a.size() != 1 || b.size() != 1)
    return op->emitOpError() << "segment offsets are i32[B+1], got ranks "
                             << a.size() << " and " << b.size();
  if (!dimsAgree(a[0], b[0]))
    return op->emitOpError() << "segment offsets differ in extent: " << a[0]
                             << " and " << b[0];
  return success();
}

LogicalResult SegmentedMatmulOp::verify() {
  int64_t rank = getRank(getLhs());
  if (rank < 2 || getRank(getRhs()) != rank)
    return emitOpError() << "lhs and rhs must have one rank of at least 2, "
                            "got "
                         << rank << " and " << getRank(getRhs());
  if (failed(verifyOperandTypes(*this, getElementType(getLhs()),
                                getElementType(getRhs()))) ||
      failed(verifySegmentOffsets(*this, getLhsOffsets(), getRhsOffsets())))
    return failure();
  MatrixDims q = getMatrixDims(getLhs(), /*transposed=*/false);
  MatrixDims k = getMatrixDims(getRhs(), /*transposed=*/false);
  if (!dimsAgree(q.cols, k.cols))
    return emitOpError() << "contraction dims differ: D=" << q.cols
                         << " from lhs, D=" << k.cols << " from rhs";
  if (failed(verifyBroadcastBatch(*this, "rhs", k.batch, "lhs", q.batch)))
    return failure();
  SmallVector<std::string> expected(q.batch);
  expected.push_back(q.rows);
  expected.push_back(k.rows);
  return verifyDims(
      *this, "result",
      getDimExprs(llvm::cast<RankedTensorType>(getResult().getType())),
      expected);
}

SmallVector<StringAttr, 3> ContractOp::getMNK() {
  auto mma = llvm::cast<MmaAttr>(getContractions()[0]);
  MatrixDims a = getMatrixDims(getInputs()[mma.getLhs()], mma.getTransposeA());
  MatrixDims b = getMatrixDims(getInputs()[mma.getRhs()], mma.getTransposeB());
  Builder builder(getContext());
  return {builder.getStringAttr(a.rows), builder.getStringAttr(b.cols),
          builder.getStringAttr(a.cols)};
}

LogicalResult ContractOp::verifyContractionScales(size_t index, MmaAttr mma) {
  if (mma.getScaleBlock() == 0) {
    if (mma.getLhsScale() != -1 || mma.getRhsScale() != -1)
      return emitOpError() << "contraction #" << index
                           << " names scales but has no scale_block";
    return success();
  }
  if (mma.getScaleBlock() < 1)
    return emitOpError() << "contraction #" << index
                         << ": scale_block must be positive";
  if (mma.getRhsScaleRows() < 1)
    return emitOpError() << "contraction #" << index
                         << ": rhs_scale_rows must be positive";
  if (mma.getTransposeA() || !mma.getTransposeB())
    return emitOpError() << "contraction #" << index
                         << ": block-scaled operands are read K-major (lhs "
                            "[M, K], rhs [N, K] with transpose_b)";
  for (auto [what, data, scale] :
       {std::tuple<StringRef, unsigned, int64_t>{"lhs_scale", mma.getLhs(),
                                                 mma.getLhsScale()},
        {"rhs_scale", mma.getRhs(), mma.getRhsScale()}}) {
    if (scale < 0 || scale >= static_cast<int64_t>(getInputs().size()))
      return emitOpError() << "contraction #" << index << ": " << what
                           << " names no operand";
    // One scale per `scale_block` elements along K (the last axis) of each
    // row, or of each block of `rhs_scale_rows` rhs rows (a grouped rhs
    // [E, N, K] has scales [E, N, K/block]).
    SmallVector<std::string> dataDims =
        getDimExprs(llvm::cast<RankedTensorType>(getInputs()[data].getType()));
    SmallVector<std::string> expected(dataDims.begin(), dataDims.end() - 1);
    int64_t rows = what == "rhs_scale" ? mma.getRhsScaleRows() : 1;
    if (rows > 1)
      expected.back() = getScaleDim(expected.back(), rows);
    expected.push_back(getScaleDim(dataDims.back(), mma.getScaleBlock()));
    if (failed(verifyDims(*this, what,
                          getDimExprs(llvm::cast<RankedTensorType>(
                              getInputs()[scale].getType())),
                          expected)))
      return failure();
  }
  return success();
}

LogicalResult ContractOp::verify() {
  if (getContractions().empty())
    return emitOpError() << "needs at least one contraction";
  if (getOutputs().empty())
    return emitOpError() << "needs at least one output";
  auto resultType = llvm::cast<RankedTensorType>(getOutputs()[0].getType());
  // [batch..., M, N]: a batched product has up to three leading axes; a
  // grouped one has none.
  int64_t maxRank = getGroups() ? 2 : 5;
  if (resultType.getRank() < 2 || resultType.getRank() > maxRank)
    return emitOpError() << "result must have rank 2"
                         << (maxRank > 2 ? " to 5" : "") << ", got rank "
                         << resultType.getRank();
  SmallVector<Type> outputElements;
  for (Value output : getOutputs()) {
    auto type = llvm::cast<RankedTensorType>(output.getType());
    if (getDimExprs(type) != getDimExprs(resultType))
      return emitOpError() << "outputs must share the tile's dims";
    outputElements.push_back(type.getElementType());
  }
  SmallVector<std::string> resultDims = getDimExprs(resultType);
  std::optional<std::string> sharedK;
  for (auto [index, attr] : llvm::enumerate(getContractions())) {
    auto mma = llvm::cast<MmaAttr>(attr);
    if (mma.getLhs() >= getInputs().size() ||
        mma.getRhs() >= getInputs().size())
      return emitOpError() << "contraction #" << index << " names operand "
                           << std::max(mma.getLhs(), mma.getRhs())
                           << " but there are only " << getInputs().size();
    Value lhs = getInputs()[mma.getLhs()], rhs = getInputs()[mma.getRhs()];
    if (getGroups()) {
      // Grouped: rhs[e] multiplies group e's rows of the lhs.
      if (getRank(lhs) != 2 || getRank(rhs) != 3 || getRank(getGroups()) != 1)
        return emitOpError()
               << "contraction #" << index
               << ": grouped operands are lhs [T, K], rhs [E, N, K] and "
                  "groups [E+1]; got ranks "
               << getRank(lhs) << ", " << getRank(rhs) << ", "
               << getRank(getGroups());
      if (failed(verifyGroupOffsets(*this, rhs, getGroups())))
        return failure();
    } else if (getRank(lhs) < 2 || getRank(rhs) < 2) {
      return emitOpError() << "contraction #" << index
                           << " operands must have rank >= 2";
    }
    if (failed(verifyOperandTypes(*this, getElementType(lhs),
                                  getElementType(rhs))))
      return failure();
    MatrixDims a = getMatrixDims(lhs, mma.getTransposeA());
    MatrixDims b = getMatrixDims(rhs, mma.getTransposeB());
    if (!dimsAgree(a.cols, b.rows))
      return emitOpError() << "contraction #" << index
                           << ": contraction dims differ: K=" << a.cols
                           << " from lhs, K=" << b.rows << " from rhs";
    if (sharedK && !dimsAgree(*sharedK, a.cols))
      return emitOpError() << "contraction #" << index << " has K=" << a.cols
                           << " but contraction #0 has K=" << *sharedK
                           << "; fused contractions share one K loop";
    sharedK = a.cols;
    // Batch axes: each operand's broadcast to the result's (a grouped rhs's
    // leading axis is its groups).
    SmallVector<std::string> expected(resultDims.begin(), resultDims.end() - 2);
    if (!getGroups() &&
        (failed(verifyBroadcast(*this, "lhs batch", a.batch, expected)) ||
         failed(verifyBroadcast(*this, "rhs batch", b.batch, expected))))
      return failure();
    expected.append({a.rows, b.cols});
    if (failed(verifyDims(*this, "result", resultDims, expected)))
      return failure();
    if (failed(verifyContractionScales(index, mma)))
      return failure();
  }
  SmallVector<Type> argTypes(getContractions().size(),
                             Float32Type::get(getContext()));
  for (auto [index, input] : llvm::enumerate(getEpilogueInputs())) {
    std::string what = "epilogue input #" + std::to_string(index);
    if (failed(verifyBroadcast(
            *this, what,
            getDimExprs(llvm::cast<RankedTensorType>(input.getType())),
            resultDims)))
      return failure();
    argTypes.push_back(getElementType(input));
  }
  return verifyScalarRegion(*this, getEpilogue(), "epilogue", argTypes,
                            outputElements);
}

//===----------------------------------------------------------------------===//
// Elementwise, reductions, attention pieces
//===----------------------------------------------------------------------===//

LogicalResult MapOp::verify() {
  if (getInputs().empty())
    return emitOpError() << "needs at least one input";
  auto resultType = llvm::cast<RankedTensorType>(getResult().getType());
  SmallVector<std::string> resultDims = getDimExprs(resultType);
  SmallVector<Type> argTypes;
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    std::string what = "input #" + std::to_string(index);
    if (failed(verifyBroadcast(
            *this, what,
            getDimExprs(llvm::cast<RankedTensorType>(input.getType())),
            resultDims)))
      return failure();
    argTypes.push_back(getElementType(input));
  }
  return verifyScalarRegion(*this, getBody(), "body", argTypes,
                            resultType.getElementType());
}

LogicalResult ReduceOp::verify() {
  int64_t rank = getRank(getInput());
  int64_t axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError() << "axis " << axis << " is out of range for rank "
                         << rank;
  if (getElementType(getInput()) != getElementType(getResult()))
    return emitOpError() << "result element type must match the input's";
  SmallVector<std::string> expected =
      getDimExprs(llvm::cast<RankedTensorType>(getInput().getType()));
  expected.erase(expected.begin() + axis);
  return verifyDims(
      *this, "result",
      getDimExprs(llvm::cast<RankedTensorType>(getResult().getType())),
      expected);
}

LogicalResult SoftmaxOp::verify() {
  if (getRank(getInput()) < 1)
    return emitOpError() << "needs a tensor of rank >= 1";
  return success();
}

LogicalResult MaskOp::verify() {
  if (getRank(getScores()) < 2)
    return emitOpError()
           << "masks apply to score matrices of rank >= 2, got rank "
           << getRank(getScores());
  bool hasPredicate = !getPredicate().empty();
  if (getCausal() == hasPredicate)
    return emitOpError()
           << "needs exactly one of 'causal' or a predicate region";
  if (!hasPredicate)
    return success();
  Type index = IndexType::get(getContext());
  return verifyScalarRegion(*this, getPredicate(), "predicate", {index, index},
                            IntegerType::get(getContext(), 1));
}

LogicalResult ScoreModOp::verify() {
  if (getRank(getScores()) < 2)
    return emitOpError()
           << "score modifiers apply to score matrices of rank >= 2, got rank "
           << getRank(getScores());
  Type element = getElementType(getScores());
  Type index = IndexType::get(getContext());
  return verifyScalarRegion(*this, getBody(), "body", {element, index, index},
                            element);
}

bool kiln::tile::reducesRows(ReduceOp reduce) {
  auto type = llvm::cast<RankedTensorType>(reduce.getInput().getType());
  return static_cast<int64_t>(reduce.getAxis()) == type.getRank() - 1;
}

bool kiln::tile::isProductReduction(ReduceOp reduce) {
  if (!reduce.getInput().getDefiningOp<ContractOp>() ||
      (reduce.getKind() != ReduceKind::sum &&
       reduce.getKind() != ReduceKind::max))
    return false;
  auto type = llvm::cast<RankedTensorType>(reduce.getInput().getType());
  if (static_cast<int64_t>(reduce.getAxis()) + 2 < type.getRank())
    return false;
  return llvm::all_of(reduce.getResult().getUsers(),
                      [](Operation *user) { return llvm::isa<ReturnOp>(user); });
}

bool kiln::tile::isStoredOutput(Value output) {
  return output.use_empty() ||
         llvm::any_of(output.getUsers(), [](Operation *user) {
           return llvm::isa<ReturnOp>(user);
         });
}

bool kiln::tile::feedsProduct(Operation *op) {
  SmallVector<Operation *> work(op->getUsers().begin(), op->getUsers().end());
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!work.empty()) {
    Operation *current = work.pop_back_val();
    if (!seen.insert(current).second)
      continue;
    if (llvm::isa<MatmulOp, ContractOp, ScaledMatmulOp>(current))
      return true;
    llvm::append_range(work, current->getUsers());
  }
  return false;
}

//===----------------------------------------------------------------------===//
// AttentionOp
//===----------------------------------------------------------------------===//

/// Checks that the leading axes `got` of `what` are q's `batch`, axis by
/// axis, or the constant 1 (one key/value head for several query heads).

LogicalResult AttentionOp::verify() {
  int64_t rank = getRank(getQ());
  if (rank < 3 || rank > 5 || getRank(getK()) != rank ||
      getRank(getV()) != rank)
    return emitOpError() << "q, k and v must have one rank from 3 to 5, got "
                         << rank << ", " << getRank(getK()) << " and "
                         << getRank(getV());
  if (failed(verifyOperandTypes(*this, getElementType(getQ()),
                                getElementType(getK()))))
    return failure();
  MatrixDims q = getMatrixDims(getQ(), /*transposed=*/false);
  MatrixDims k = getMatrixDims(getK(), /*transposed=*/false);
  MatrixDims v = getMatrixDims(getV(), /*transposed=*/false);
  if (!dimsAgree(q.cols, k.cols))
    return emitOpError() << "head dims differ: D=" << q.cols
                         << " from q, D=" << k.cols << " from k";
  if (!dimsAgree(k.rows, v.rows))
    return emitOpError() << "key lengths differ: T=" << k.rows
                         << " from k, T=" << v.rows << " from v";
  if (failed(verifyBroadcastBatch(*this, "k", k.batch, "q", q.batch)) ||
      failed(verifyBroadcastBatch(*this, "v", v.batch, "q", q.batch)))
    return failure();
  if (bool(getQOffsets()) != bool(getKOffsets()))
    return emitOpError() << "takes segment offsets for q and k, or neither";
  if (getQOffsets() &&
      failed(verifySegmentOffsets(*this, getQOffsets(), getKOffsets())))
    return failure();
  SmallVector<std::string> expected(q.batch);
  expected.push_back(q.rows);
  expected.push_back(v.cols);
  if (failed(verifyDims(
          *this, "result",
          getDimExprs(llvm::cast<RankedTensorType>(getResult().getType())),
          expected)))
    return failure();
  // The log-sum-exp: one value per query row.
  expected.pop_back();
  if (getLse() &&
      failed(verifyDims(
          *this, "lse",
          getDimExprs(llvm::cast<RankedTensorType>(getLse().getType())),
          expected)))
    return failure();

  Type pType = getPType();
  if (!llvm::isa<FloatType>(pType))
    return emitOpError() << "p_type must be a float type, got " << pType;
  Type vType = getElementType(getV());
  if (pType != vType && !(isFp8(pType) && isFp8(vType)))
    return emitOpError() << "p_type " << pType << " differs from v's element "
                         << "type " << vType
                         << "; the second product multiplies the two";

  Builder builder(getContext());
  Type index = builder.getIndexType();
  Type f32 = builder.getF32Type();
  if (!getScore().empty() &&
      failed(verifyScalarRegion(*this, getScore(), "score", {f32, index, index},
                                f32)))
    return failure();
  if (!getMask().empty() &&
      failed(verifyScalarRegion(*this, getMask(), "mask", {index, index},
                                builder.getI1Type())))
    return failure();
  return success();
}

#define GET_OP_CLASSES
#include "dialects/Tile/IR/TileOps.cpp.inc"
