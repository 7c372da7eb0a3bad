//===- CtaOps.cpp - operations of the cta dialect -------------------------===//

#include "dialects/Cta/IR/CtaOps.h"
#include "dialects/Tile/IR/FunctionOpParser.h"

#include "compiler/Target/Chip.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

#include <cmath>

using namespace mlir;
using namespace kiln::cta;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Checks that `block`'s arguments are `leading` followed by `carried`.
static LogicalResult verifyBlockArgs(Operation *op, Block &block,
                                     TypeRange leading, TypeRange carried) {
  SmallVector<Type> expected(leading.begin(), leading.end());
  expected.append(carried.begin(), carried.end());
  if (block.getArgumentTypes() != TypeRange(expected)) {
    InFlightDiagnostic diag = op->emitOpError() << "body arguments must be (";
    llvm::interleaveComma(expected, diag);
    return diag << ")";
  }
  return success();
}

/// Checks that the region's yield carries `types`.
static LogicalResult verifyYield(Operation *op, Region &region,
                                 TypeRange types) {
  Block &block = region.front();
  auto yield =
      block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
  if (!yield)
    return op->emitOpError() << "body must end in cta.yield";
  if (yield.getValues().getTypes() != types)
    return op->emitOpError() << "body yields " << yield.getValues().size()
                             << " values that do not match the carried types";
  return success();
}

/// A buffer with stages must be indexed by a slot, one without must not; a
/// constant slot must name one of the stages.
static LogicalResult verifySlot(Operation *op, StringRef what, BufferType type,
                                Value slot) {
  if ((type.getStages() > 1) != static_cast<bool>(slot))
    return op->emitOpError()
           << what
           << (slot ? " has one stage and takes no slot"
                    : " has several stages and needs a [slot]");
  APInt constant;
  if (slot && matchPattern(slot, m_ConstantInt(&constant)) &&
      (constant.isNegative() || constant.sge(type.getStages())))
    return op->emitOpError() << what << " slot " << constant.getSExtValue()
                             << " is out of range: the ring has "
                             << type.getStages() << " stages";
  return success();
}

/// `inputs(%bias per_col, %r tile : memref<?xbf16>, memref<?x?xbf16>) ->`,
/// or just `->`: a store's epilogue inputs, each with the kind it is read
/// as, and the arrow before its destination.
static ParseResult
parseEpilogueInputs(OpAsmParser &parser,
                    SmallVectorImpl<OpAsmParser::UnresolvedOperand> &inputs,
                    SmallVectorImpl<Type> &types, ArrayAttr &kinds) {
  SmallVector<Attribute> kindAttrs;
  if (succeeded(parser.parseOptionalKeyword("inputs"))) {
    auto parseOne = [&]() -> ParseResult {
      std::string keyword;
      SMLoc loc;
      if (parser.parseOperand(inputs.emplace_back()) ||
          (loc = parser.getCurrentLocation(),
           parser.parseKeywordOrString(&keyword)))
        return failure();
      std::optional<InputKind> kind = symbolizeInputKind(keyword);
      if (!kind)
        return parser.emitError(loc, "unknown epilogue input kind '")
               << keyword << "'; expected scalar, per_row, per_col or tile";
      kindAttrs.push_back(InputKindAttr::get(parser.getContext(), *kind));
      return success();
    };
    if (parser.parseLParen() || parser.parseCommaSeparatedList(parseOne) ||
        parser.parseColonTypeList(types) || parser.parseRParen())
      return failure();
  }
  kinds = parser.getBuilder().getArrayAttr(kindAttrs);
  return parser.parseArrow();
}

static void printEpilogueInputs(OpAsmPrinter &printer, Operation *,
                                OperandRange inputs, TypeRange types,
                                ArrayAttr kinds) {
  if (inputs.empty()) {
    printer << "->";
    return;
  }
  printer << "inputs(";
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (index)
      printer << ", ";
    printer << input << " ";
    if (auto kind = llvm::dyn_cast<InputKindAttr>(kinds[index]))
      printer << stringifyInputKind(kind.getValue());
    else
      printer << kinds[index];
  }
  printer << " : ";
  llvm::interleaveComma(types, printer);
  printer << ") ->";
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

ParseResult ProgramOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFunctionLikeOp<ProgramOp>(parser, result);
}

void ProgramOp::print(OpAsmPrinter &p) {
  function_interface_impl::printFunctionOp(
      p, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

std::pair<int64_t, int64_t> ProgramOp::getClusterShape() {
  if (DenseI64ArrayAttr cluster = getClusterAttr())
    if (cluster.size() == 2)
      return {cluster[0], cluster[1]};
  return {1, 1};
}

ParamAttr ProgramOp::getParam(unsigned i) {
  return getArgAttrOfType<ParamAttr>(i, kParamAttrName);
}

DimAttr ProgramOp::getDim(unsigned i) {
  return getArgAttrOfType<DimAttr>(i, kDimAttrName);
}

std::optional<unsigned> ProgramOp::findDimArgument(StringRef name) {
  for (unsigned i = 0, e = getNumArguments(); i < e; ++i)
    if (DimAttr dim = getDim(i); dim && dim.getName().getValue() == name)
      return i;
  return std::nullopt;
}

LogicalResult ProgramOp::verify() {
  if (!getResultTypes().empty())
    return emitOpError() << "returns nothing; outputs are memref arguments";
  llvm::StringSet<> dimNames;
  for (auto [index, type] : llvm::enumerate(getArgumentTypes())) {
    if (auto memref = llvm::dyn_cast<MemRefType>(type)) {
      ParamAttr param = getParam(index);
      if (!param)
        return emitOpError()
               << "tensor argument #" << index << " needs a cta.param";
      // The manifest copies the shape; the runtime checks it against the
      // rank, so a mismatch would only show at launch.
      if (static_cast<int64_t>(param.getShape().size()) != memref.getRank())
        return emitOpError()
               << "tensor argument #" << index << ": its cta.param has "
               << param.getShape().size() << " dim expressions but its memref "
               << "has rank " << memref.getRank();
      for (int64_t extent : memref.getShape())
        if (!ShapedType::isDynamic(extent) &&
            extent > target::maxKernelIndex)
          return emitOpError()
                 << "tensor argument #" << index << " has extent " << extent
                 << "; kernels index with 32-bit coordinates (at most "
                 << target::maxKernelIndex << ")";
    } else if (llvm::isa<IndexType>(type)) {
      DimAttr dim = getDim(index);
      if (!dim)
        return emitOpError()
               << "index argument #" << index << " needs a cta.dim";
      if (!dimNames.insert(dim.getName().getValue()).second)
        return emitOpError() << "index argument #" << index << ": dim '"
                             << dim.getName().getValue()
                             << "' is already an argument";
    } else {
      return emitOpError() << "argument #" << index
                           << " must be a memref or an index, got " << type;
    }
  }
  // Bounds of the launch: each factor before the product, so that it cannot
  // overflow.
  const int64_t maxCluster = target::maxClusterSizeNonPortable;
  if (DenseI64ArrayAttr cluster = getClusterAttr())
    if (cluster.size() != 2 || cluster[0] < 1 || cluster[1] < 1 ||
        cluster[0] > maxCluster || cluster[1] > maxCluster ||
        cluster[0] * cluster[1] > maxCluster)
      return emitOpError() << "cluster must be two positive extents of at "
                              "most "
                           << maxCluster << " CTAs in all";
  if (DenseI64ArrayAttr block = getBlockAttr()) {
    const int64_t maxThreads = target::maxThreadsPerBlock;
    if (block.size() != 3 ||
        llvm::any_of(block.asArrayRef(),
                     [&](int64_t n) { return n < 1 || n > maxThreads; }) ||
        block[0] * block[1] * block[2] > maxThreads)
      return emitOpError() << "block must be three positive extents of at "
                              "most "
                           << maxThreads << " threads in all, got " << block;
  }
  if (FloatAttr cost = getTileCostAttr())
    // The runtime compares variants by it; NaN compares false both ways.
    if (!std::isfinite(cost.getValueAsDouble()) ||
        cost.getValueAsDouble() <= 0)
      return emitOpError() << "tile_cost must be a positive finite float, "
                              "got "
                           << cost;
  if (FloatAttr cost = getTailCostAttr())
    if (!std::isfinite(cost.getValueAsDouble()) ||
        cost.getValueAsDouble() < 0)
      return emitOpError() << "tail_cost must be a finite float >= 0, got "
                           << cost;
  return success();
}

LogicalResult
ProgramOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  // A variant is folded into its primary's manifest and shares its
  // parameters: the primary must exist in this module.
  FlatSymbolRefAttr name = getVariantOfAttr();
  if (!name)
    return success();
  auto primary = symbolTable.lookupNearestSymbolFrom<ProgramOp>(*this, name);
  if (!primary)
    return emitOpError() << "variant_of names '" << name.getValue()
                         << "', which is not a cta.program of this module";
  if (primary == *this || primary.getVariantOfAttr())
    return emitOpError() << "variant_of must name a primary program, "
                            "not a variant: '"
                         << name.getValue() << "'";
  if (primary.getFunctionType() != getFunctionType())
    return emitOpError() << "is a variant of '" << name.getValue()
                         << "' but its signature differs: "
                         << getFunctionType() << " vs "
                         << primary.getFunctionType();
  return success();
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

void TileLoopOp::build(OpBuilder &builder, OperationState &state, WalkKind walk,
                       ValueRange extents, ArrayRef<int64_t> tileSizes,
                       ValueRange inits) {
  build(builder, state, walk, Value(), Value(), extents, tileSizes, inits);
}

void TileLoopOp::build(OpBuilder &builder, OperationState &state, WalkKind walk,
                       Value offsets, Value groups, ValueRange extents,
                       ArrayRef<int64_t> tileSizes, ValueRange inits) {
  if (offsets)
    state.addOperands(offsets);
  if (groups)
    state.addOperands(groups);
  state.addOperands(extents);
  state.addOperands(inits);
  state.addAttribute(getWalkAttrName(state.name),
                     WalkKindAttr::get(builder.getContext(), walk));
  state.addAttribute(getTileSizesAttrName(state.name),
                     builder.getDenseI64ArrayAttr(tileSizes));
  state.addAttribute(
      getOperandSegmentSizesAttrName(state.name),
      builder.getDenseI32ArrayAttr({offsets ? 1 : 0, groups ? 1 : 0,
                                    static_cast<int32_t>(extents.size()), 0,
                                    static_cast<int32_t>(inits.size())}));
  state.addTypes(inits.getTypes());
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (unsigned i = 0, e = numCoordinates(walk, extents.size()); i < e; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  for (Value init : inits)
    block->addArgument(init.getType(), init.getLoc());
}

void TileLoopOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  static const char *const planar[] = {"m0", "n0"};
  static const char *const streamK[] = {"m0", "n0", "k_begin", "k_end",
                                        "partial"};
  unsigned coordinates = getNumCoordinates();
  size_t extents = getExtents().size();
  for (auto [index, arg] : llvm::enumerate(region.getArguments())) {
    if (index >= coordinates)
      setNameFn(arg, "carried");
    else if (getWalk() == WalkKind::grouped)
      // (group, batch..., m0, n0, m_end, row_tile)
      setNameFn(arg, index == 0                ? "group"
                     : index + 1 == coordinates ? "row_tile"
                     : index + 2 == coordinates ? "m_end"
                     : index + 2 >= extents + 1 ? planar[index + 1 - extents]
                                                : "batch");
    else if (getWalk() == WalkKind::stream_k)
      setNameFn(arg, streamK[index]);
    else if (index + 2 >= extents)
      setNameFn(arg, planar[index + 2 - extents]);
    else
      setNameFn(arg, "batch");
  }
}

/// The trailing attribute dictionary of an op with properties: inherent
/// attributes of the wrong kind (`group_m = "x"`) are errors here, as in a
/// generated parser, before they can reach the verifier as null properties.
template <typename OpT>
static ParseResult parseTrailingAttrs(OpAsmParser &parser,
                                      OperationState &result) {
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDict(result.attributes))
    return failure();
  return OpT::verifyInherentAttrs(result.name, result.attributes, [&]() {
    return parser.emitError(loc)
           << "'" << result.name.getStringRef() << "' op ";
  });
}

/// Parses a region straight into the op's state: if anything after it fails
/// (the attribute dictionary), MLIR frees the state's regions only after
/// dropping every use between them, while a generated parser's local region
/// would be freed with its values still used outside it.
static ParseResult parseOwnedRegion(OpAsmParser &parser, OperationState &result,
                                    bool implicitTerminator) {
  Region *body = result.addRegion();
  if (parser.parseRegion(*body))
    return failure();
  if (implicitTerminator)
    TileLoopOp::ensureTerminator(*body, parser.getBuilder(), result.location);
  return success();
}

/// `(` `iter_args` `(` operands `:` types `)` `)`?
static ParseResult
parseIterArgs(OpAsmParser &parser,
              SmallVectorImpl<OpAsmParser::UnresolvedOperand> &inits,
              SmallVectorImpl<Type> &types) {
  if (failed(parser.parseOptionalKeyword("iter_args")))
    return success();
  return failure(parser.parseLParen() || parser.parseOperandList(inits) ||
                 parser.parseColon() || parser.parseTypeList(types) ||
                 parser.parseRParen());
}

static void printIterArgs(OpAsmPrinter &p, OperandRange inits) {
  if (inits.empty())
    return;
  p << " iter_args(" << inits << " : " << inits.getTypes() << ")";
}

ParseResult TileLoopOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  Properties &props = result.getOrAddProperties<Properties>();
  StringRef walkName;
  SMLoc walkLoc = parser.getCurrentLocation();
  std::optional<WalkKind> walk;
  if (succeeded(parser.parseOptionalKeyword(&walkName)))
    walk = symbolizeWalkKind(walkName);
  if (!walk)
    return parser.emitError(walkLoc, "expected the tile walk: static, "
                                     "batched, grouped or stream_k");
  props.walk = WalkKindAttr::get(b.getContext(), *walk);

  SmallVector<OpAsmParser::UnresolvedOperand, 1> offsets, groups;
  SmallVector<Type, 1> offsetsTypes;
  if (succeeded(parser.parseOptionalKeyword("offsets"))) {
    OpAsmParser::UnresolvedOperand offset, group;
    Type offsetType;
    if (parser.parseLParen() || parser.parseOperand(offset) ||
        parser.parseColon() || parser.parseType(offsetType) ||
        parser.parseComma() || parser.parseOperand(group) ||
        parser.parseRParen())
      return failure();
    offsets.push_back(offset);
    offsetsTypes.push_back(offsetType);
    groups.push_back(group);
  }
  SmallVector<OpAsmParser::UnresolvedOperand, 4> extents, inits;
  SmallVector<Type, 4> initsTypes, resultTypes;
  DenseI64ArrayAttr tileSizes;
  if (parser.parseLParen() || parser.parseOperandList(extents) ||
      parser.parseRParen() || parser.parseKeyword("tile") ||
      parser.parseCustomAttributeWithFallback(tileSizes, Type{}))
    return failure();
  props.tile_sizes = tileSizes;
  SmallVector<OpAsmParser::UnresolvedOperand, 1> band;
  if (succeeded(parser.parseOptionalKeyword("band"))) {
    OpAsmParser::UnresolvedOperand n;
    if (parser.parseLParen() || parser.parseOperand(n) || parser.parseRParen())
      return failure();
    band.push_back(n);
  }
  if (parseIterArgs(parser, inits, initsTypes))
    return failure();
  if (succeeded(parser.parseOptionalArrow()) &&
      (parser.parseLParen() || parser.parseTypeList(resultTypes) ||
       parser.parseRParen()))
    return failure();
  if (parseOwnedRegion(parser, result, /*implicitTerminator=*/true) ||
      parseTrailingAttrs<TileLoopOp>(parser, result))
    return failure();
  llvm::copy(ArrayRef<int32_t>({static_cast<int32_t>(offsets.size()),
                                static_cast<int32_t>(groups.size()),
                                static_cast<int32_t>(extents.size()),
                                static_cast<int32_t>(band.size()),
                                static_cast<int32_t>(inits.size())}),
             props.operandSegmentSizes.begin());
  result.addTypes(resultTypes);
  Type index = b.getIndexType();
  return failure(
      parser.resolveOperands(offsets, offsetsTypes, parser.getNameLoc(),
                             result.operands) ||
      parser.resolveOperands(groups, index, result.operands) ||
      parser.resolveOperands(extents, index, result.operands) ||
      parser.resolveOperands(band, index, result.operands) ||
      parser.resolveOperands(inits, initsTypes, parser.getNameLoc(),
                             result.operands));
}

void TileLoopOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyWalkKind(getWalk());
  if (getOffsets())
    p << " offsets(" << getOffsets() << " : " << getOffsets().getType()
      << ", " << getGroups() << ")";
  p << " (" << getExtents() << ") tile ";
  p.printStrippedAttrOrType(getTileSizesAttr());
  if (getBand())
    p << " band(" << getBand() << ")";
  printIterArgs(p, getInits());
  if (!getResults().empty())
    p << " -> (" << getResults().getTypes() << ")";
  p << ' ';
  Operation *term = getBody().empty() ? nullptr : getBody().front().getTerminator();
  bool printTerminator = !term || !term->getAttrDictionary().empty() ||
                         term->getNumOperands() != 0 || term->getNumResults() != 0;
  p.printRegion(getBody(), /*printEntryBlockArgs=*/true, printTerminator);
  SmallVector<StringRef, 4> elided = {"operandSegmentSizes", "walk",
                                      "tile_sizes"};
  if (!getPersistent())
    elided.push_back("persistent");
  if (!getLongestFirst())
    elided.push_back("longest_first");
  if (!getHalves())
    elided.push_back("halves");
  if (getGroupM() == 1)
    elided.push_back("group_m");
  p.printOptionalAttrDict((*this)->getAttrs(), elided);
}

LogicalResult TileLoopOp::verify() {
  size_t axes = getExtents().size();
  if (getTileSizes().size() != axes)
    return emitOpError() << "needs one tile size per extent, got "
                         << getTileSizes().size() << " for " << axes;
  if (llvm::any_of(getTileSizes(), [](int64_t size) { return size <= 0; }))
    return emitOpError() << "tile sizes must be positive";
  bool grouped = getWalk() == WalkKind::grouped;
  if (grouped != static_cast<bool>(getOffsets()) ||
      grouped != static_cast<bool>(getGroups()))
    return emitOpError() << (grouped ? "a grouped walk needs offsets and a "
                                       "group count"
                                     : "only a grouped walk takes offsets");
  switch (getWalk()) {
  case WalkKind::static_:
    if (axes != 2)
      return emitOpError() << "a static walk tiles 2 axes, got " << axes;
    break;
  case WalkKind::grouped:
    if (axes < 2)
      return emitOpError() << "a grouped walk tiles rows and columns after "
                              "any batch axes: needs at least 2 extents, got "
                           << axes;
    break;
  case WalkKind::stream_k:
    if (axes != 3)
      return emitOpError() << "a stream_k walk tiles M, N and K: needs 3 "
                              "extents, got "
                           << axes;
    if (!getPersistent())
      return emitOpError() << "a stream_k walk is persistent: its clusters "
                              "share tiles, so all must run at once";
    break;
  case WalkKind::batched:
    if (axes < 3)
      return emitOpError()
             << "a batched walk has leading batch axes: needs at least 3 "
                "extents, got "
             << axes;
    // A grid has three axes: more tile axes need the persistent launch
    // rule, which counts every axis's tiles into one.
    if (axes > 3 && !getPersistent())
      return emitOpError() << "a batched walk over " << axes
                           << " axes is persistent (a grid has 3 axes)";
    break;
  }
  if (getBand() && !getLongestFirst())
    return emitOpError() << "band orders the units of a longest_first walk";
  if (getHalves() && getWalk() != WalkKind::stream_k)
    return emitOpError() << "halves splits the partial last wave of a "
                            "stream_k walk; this walk is "
                         << stringifyWalkKind(getWalk());
  if (getLongestFirst() && getWalk() != WalkKind::batched)
    return emitOpError() << "longest_first orders the row tiles of a batched "
                            "walk; this walk is "
                         << stringifyWalkKind(getWalk());
  if (grouped) {
    auto offsets = llvm::cast<MemRefType>(getOffsets().getType());
    if (offsets.getRank() != 1 || !offsets.getElementType().isInteger(32))
      return emitOpError() << "offsets must be a rank-1 i32 tensor, got "
                           << offsets;
  }
  // The generated getter is unsigned; -1 must not read as 2^64 - 1.
  int64_t groupM = getGroupMAttr().getInt();
  if (groupM < 1 || groupM > target::maxKernelIndex)
    return emitOpError() << "group_m must be at least 1 and at most "
                         << target::maxKernelIndex
                         << " (the lowering's tile arithmetic is 32-bit), got "
                         << groupM;
  if (auto cluster = getCluster())
    if (cluster->size() != 2 || (*cluster)[0] < 1 ||
        (*cluster)[0] > target::maxClusterSizeNonPortable ||
        (*cluster)[1] != 1)
      return emitOpError()
             << "cluster must be [n, 1]: CTAs of a cluster share tile columns";
  if (getResults().getTypes() != getInits().getTypes())
    return emitOpError() << "results must match the carried values";
  if (getWalk() == WalkKind::stream_k && failed(verifyStreamKStores()))
    return failure();
  SmallVector<Type> coordinates(getNumCoordinates(),
                                IndexType::get(getContext()));
  if (failed(verifyBlockArgs(*this, getBody().front(), coordinates,
                             getInits().getTypes())))
    return failure();
  return verifyYield(*this, getBody(), getInits().getTypes());
}

/// A part of a tile holds partial sums: a store in a stream-K walk must
/// write what a cta.stream_k_join returned (directly or split into column
/// groups), under the join's completion flag, or it would write a part's
/// partial sums as the result.
LogicalResult TileLoopOp::verifyStreamKStores() {
  auto joinOf = [](Value value) -> StreamKJoinOp {
    if (auto split = value.getDefiningOp<SplitColsOp>())
      value = split.getInput();
    return value.getDefiningOp<StreamKJoinOp>();
  };
  WalkResult result = getBody().walk([&](StoreOp store) -> WalkResult {
    StreamKJoinOp join;
    for (Value value : store.getValues()) {
      StreamKJoinOp from = joinOf(value);
      if (!from || (join && from != join)) {
        store.emitOpError() << "in a stream_k walk must store the sums of one "
                               "cta.stream_k_join (a tile part holds partial "
                               "sums)";
        return WalkResult::interrupt();
      }
      join = from;
    }
    bool guarded = false;
    for (Operation *parent = store->getParentOp(); parent && parent != *this;
         parent = parent->getParentOp())
      if (auto branch = llvm::dyn_cast<scf::IfOp>(parent))
        guarded |= branch.getCondition() == join.getComplete() &&
                   branch.getThenRegion().isAncestor(store->getParentRegion());
    if (!guarded) {
      store.emitOpError() << "in a stream_k walk must run only when its "
                             "cta.stream_k_join completes the tile (inside "
                             "scf.if on its completion flag)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

void MainloopOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setNameFn) {
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index == 0 ? "k0" : "carried");
}

ParseResult MainloopOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  OpAsmParser::UnresolvedOperand extent;
  IntegerAttr step;
  SmallVector<OpAsmParser::UnresolvedOperand, 4> inits;
  SmallVector<Type, 4> initsTypes, resultTypes;
  if (parser.parseOperand(extent) || parser.parseKeyword("step") ||
      parser.parseCustomAttributeWithFallback(step, b.getIntegerType(64)))
    return failure();
  result.getOrAddProperties<Properties>().step = step;
  if (parseIterArgs(parser, inits, initsTypes))
    return failure();
  if (succeeded(parser.parseOptionalArrow()) &&
      parser.parseTypeList(resultTypes))
    return failure();
  if (parseOwnedRegion(parser, result, /*implicitTerminator=*/false) ||
      parseTrailingAttrs<MainloopOp>(parser, result))
    return failure();
  result.addTypes(resultTypes);
  return failure(
      parser.resolveOperand(extent, b.getIndexType(), result.operands) ||
      parser.resolveOperands(inits, initsTypes, parser.getNameLoc(),
                             result.operands));
}

void MainloopOp::print(OpAsmPrinter &p) {
  p << ' ' << getExtent() << " step ";
  p.printAttributeWithoutType(getStepAttr());
  printIterArgs(p, getInits());
  if (!getResults().empty())
    p << " -> " << getResults().getTypes();
  p << ' ';
  p.printRegion(getBody());
  p.printOptionalAttrDict((*this)->getAttrs(), {"step"});
}

LogicalResult MainloopOp::verify() {
  int64_t step = getStepAttr().getInt();
  if (step <= 0 || step > target::maxKernelIndex)
    return emitOpError() << "step must be positive and at most "
                         << target::maxKernelIndex << ", got " << step;
  if (getResults().getTypes() != getInits().getTypes())
    return emitOpError() << "results must match the carried values";
  if (failed(verifyBlockArgs(*this, getBody().front(),
                             {IndexType::get(getContext())},
                             getInits().getTypes())))
    return failure();
  return verifyYield(*this, getBody(), getInits().getTypes());
}

//===----------------------------------------------------------------------===//
// Data movement and MMAs
//===----------------------------------------------------------------------===//

LogicalResult LoadOp::verify() {
  auto source = llvm::cast<MemRefType>(getSource().getType());
  BufferType buffer = getBuffer().getType();
  if (static_cast<int64_t>(getIndices().size()) != source.getRank())
    return emitOpError() << "needs " << source.getRank() << " indices, got "
                         << getIndices().size();
  if (source.getRank() < 2 || source.getRank() > 5)
    return emitOpError()
           << "copies 2-D tiles of a source of rank 2 to 5, got rank "
           << source.getRank();
  if (source.getElementType() != buffer.getElementType())
    return emitOpError() << "source elements " << source.getElementType()
                         << " differ from buffer elements "
                         << buffer.getElementType();
  int64_t multicast = getMulticastAttr().getInt();
  if (multicast < 1 || multicast > target::maxClusterSizeNonPortable)
    return emitOpError() << "multicast must be 1 to "
                         << target::maxClusterSizeNonPortable << ", got "
                         << multicast;
  if (getCtaPair() && multicast > 1)
    return emitOpError() << "a CTA pair's copy lands in its own CTA only; it "
                            "cannot also be multicast";
  if (auto rows = getDstRows()) {
    if (rows->size() != 2 || (*rows)[0] < 0 || (*rows)[0] >= (*rows)[1] ||
        (*rows)[1] > buffer.getShape()[0])
      return emitOpError() << "dst_rows must be [begin, end] within the "
                           << buffer.getShape()[0] << " buffer rows";
  }
  if (getRowExtent() && (getMulticast() > 1 || getDstRows()))
    return emitOpError() << "rows_within reads a tile of whole buffer rows "
                            "from one copy; it cannot be multicast or fill "
                            "dst_rows";
  auto [begin, end] = getFilledRows();
  if ((end - begin) % getMulticast() != 0)
    return emitOpError() << "multicast " << getMulticast()
                         << " does not divide the " << end - begin
                         << " rows copied";
  return verifySlot(*this, "buffer", buffer, getSlot());
}

std::pair<int64_t, int64_t> LoadOp::getFilledRows() {
  if (auto rows = getDstRows())
    return {(*rows)[0], (*rows)[1]};
  return {0, getBuffer().getType().getShape()[0]};
}

LogicalResult StreamKJoinOp::verify() {
  if (getAccs().empty())
    return emitOpError() << "needs at least one accumulator";
  if (getSums().getTypes() != getAccs().getTypes())
    return emitOpError() << "results must match the accumulators";
  auto loop = (*this)->getParentOfType<TileLoopOp>();
  if (!loop || loop.getWalk() != WalkKind::stream_k)
    return emitOpError() << "must be inside a stream_k cta.tile_loop";
  return success();
}

LogicalResult SplitColsOp::verify() {
  AccType input = getInput().getType();
  if (getParts().empty() || input.getShape()[1] % getParts().size() != 0)
    return emitOpError() << "splits " << input.getShape()[1]
                         << " columns into equal groups, not "
                         << getParts().size();
  int64_t width = input.getShape()[1] / getParts().size();
  for (Value part : getParts()) {
    auto type = llvm::cast<AccType>(part.getType());
    if (type.getShape()[0] != input.getShape()[0] ||
        type.getShape()[1] != width ||
        type.getElementType() != input.getElementType())
      return emitOpError() << "each part is "
                           << AccType::get(getContext(),
                                           {input.getShape()[0], width},
                                           input.getElementType());
  }
  return success();
}

/// The 2-D shape and element type of an accumulator or `acc` fragment.
static std::optional<std::pair<ArrayRef<int64_t>, Type>> getTileOf(Type type) {
  if (auto acc = llvm::dyn_cast<AccType>(type))
    return std::make_pair(acc.getShape(), acc.getElementType());
  if (auto frag = llvm::dyn_cast<FragType>(type))
    if (frag.getLayout() == FragLayout::acc)
      return std::make_pair(frag.getShape(), frag.getElementType());
  return std::nullopt;
}

LogicalResult MmaOp::verify() {
  BufferType rhs = getRhs().getType();
  AccType acc = getAcc().getType();
  if (failed(verifySlot(*this, "rhs", rhs, getRhsSlot())))
    return failure();
  int64_t lhsRows, k;
  Type lhsElement;
  if (auto lhs = llvm::dyn_cast<BufferType>(getLhs().getType())) {
    if (failed(verifySlot(*this, "lhs", lhs, getLhsSlot())))
      return failure();
    lhsRows = lhs.getShape()[0];
    k = lhs.getShape()[1];
    lhsElement = lhs.getElementType();
    if (acc.getShape()[0] > lhsRows ||
        (acc.getShape()[0] < lhsRows && !getLhsRow()))
      return emitOpError() << "accumulator rows (" << acc.getShape()[0]
                           << ") must equal lhs rows (" << lhsRows
                           << ") or select a slice with 'rows'";
  } else if (auto tile = llvm::dyn_cast<TmemType>(getLhs().getType())) {
    if (getLhsSlot() || getLhsRow())
      return emitOpError() << "a tensor-memory lhs takes no slot or rows";
    lhsRows = tile.getShape()[0];
    k = tile.getShape()[1];
    lhsElement = tile.getElementType();
    if (acc.getShape()[0] != lhsRows)
      return emitOpError() << "accumulator rows (" << acc.getShape()[0]
                           << ") must equal the tensor-memory lhs rows ("
                           << lhsRows << ")";
  } else {
    auto frag = llvm::cast<FragType>(getLhs().getType());
    if (frag.getLayout() != FragLayout::lhs)
      return emitOpError() << "a register lhs must be in the lhs layout, got "
                           << stringifyFragLayout(frag.getLayout());
    if (getLhsSlot() || getLhsRow())
      return emitOpError() << "a register lhs takes no slot or rows";
    lhsRows = frag.getShape()[0];
    k = frag.getShape()[1];
    lhsElement = frag.getElementType();
    if (acc.getShape()[0] != lhsRows)
      return emitOpError() << "accumulator rows (" << acc.getShape()[0]
                           << ") must equal the register lhs rows (" << lhsRows
                           << ")";
  }
  // One element type for both operands, except that the fp8 formats mix
  // (e4m3 x e5m2: wgmma and tcgen05.mma kind::f8f6f4 take each side's own).
  auto fp8 = [](Type t) {
    return llvm::isa<Float8E4M3FNType, Float8E5M2Type>(t);
  };
  if (lhsElement != rhs.getElementType() &&
      !(fp8(lhsElement) && fp8(rhs.getElementType())))
    return emitOpError() << "lhs elements " << lhsElement
                         << " differ from rhs elements "
                         << rhs.getElementType();
  int64_t rhsK = getTransposeB() ? rhs.getShape()[1] : rhs.getShape()[0];
  int64_t n = getTransposeB() ? rhs.getShape()[0] : rhs.getShape()[1];
  if (k != rhsK)
    return emitOpError() << "contraction extents differ: K=" << k
                         << " in lhs, K=" << rhsK << " in rhs";
  // A CTA pair's rhs is this CTA's half of the MMA's columns.
  int64_t columns = getCtaPair() ? 2 * n : n;
  if (getCtaPair() && (!llvm::isa<BufferType>(getLhs().getType()) ||
                       !getTransposeB()))
    return emitOpError() << "a CTA pair's MMA reads both operands K-major "
                            "from shared memory (a buffer lhs, transpose_b)";
  if (acc.getShape()[1] != columns)
    return emitOpError() << "accumulator has " << acc.getShape().back()
                         << " columns but rhs provides " << columns
                         << (getCtaPair() ? " (twice its rows: a CTA pair)"
                                          : "");
  if (failed(verifyAsync()))
    return failure();
  return verifyScales(lhsRows, k, n);
}

LogicalResult MmaOp::verifyAsync() {
  if (!getAsync())
    return success();
  if (getInStage())
    return emitOpError() << "is either part of its stage's batch "
                            "('in_stage') or asynchronous ('async'), not both";
  Value result = getResult();
  if (!result.hasOneUse() || !llvm::isa<MmaWaitOp>(*result.getUsers().begin()))
    return emitOpError() << "an asynchronous MMA's result is read by one "
                            "cta.mma_wait and nothing else";
  return success();
}

LogicalResult MmaOp::verifyScales(int64_t lhsRows, int64_t k, int64_t n) {
  if (!getLhsScale() && !getRhsScale()) {
    if (getScaleBlock() || getLhsScaleSlot())
      return emitOpError() << "scale_block and scale_slots need scales";
    return success();
  }
  if (!getLhsScale() || !getRhsScale())
    return emitOpError() << "block-scaled MMAs need scales for both operands";
  std::optional<int64_t> block = getScaleBlock();
  if (!block || (*block != 16 && *block != 32))
    return emitOpError() << "scale_block must be 16 or 32 K elements";
  if (!getTransposeB())
    return emitOpError() << "block-scaled operands are read K-major "
                            "(transpose_b)";
  if (k % (4 * *block) != 0)
    return emitOpError() << "K = " << k << " is not a whole number of "
                         << 4 * *block << "-element scale-factor atoms";
  for (auto [what, scale, slot, rows] :
       {std::tuple<StringRef, Value, Value, int64_t>{
            "lhs_scale", getLhsScale(), getLhsScaleSlot(), lhsRows},
        {"rhs_scale", getRhsScale(), getRhsScaleSlot(), n}}) {
    auto buffer = llvm::cast<BufferType>(scale.getType());
    if (failed(verifySlot(*this, what, buffer, slot)))
      return failure();
    int64_t atoms = (rows + 127) / 128 * (k / (4 * *block));
    if (buffer.getShape()[1] != 16 ||
        buffer.getElementType().getIntOrFloatBitWidth() != 8 ||
        buffer.getShape()[0] != atoms * 32)
      return emitOpError() << what << " must hold " << atoms
                           << " scale-factor atoms as a " << atoms * 32
                           << "x16 buffer of 8-bit scales, got "
                           << buffer.getShape()[0] << "x"
                           << buffer.getShape()[1] << "x"
                           << buffer.getElementType();
  }
  return success();
}

ArrayRef<int64_t> StoreOp::getTileShape() {
  return getTileOf(getValues()[0].getType())->first;
}

LogicalResult StoreOp::verify() {
  auto dest = llvm::cast<MemRefType>(getDest().getType());
  if (getValues().empty())
    return emitOpError() << "needs at least one value to store";
  if (static_cast<int64_t>(getIndices().size()) != dest.getRank() ||
      dest.getRank() < 2 || dest.getRank() > 5)
    return emitOpError() << "stores 2-D tiles with one index per axis of a "
                            "destination of rank 2 to 5 (a tensor map's)";
  std::optional<std::pair<ArrayRef<int64_t>, Type>> tile =
      getTileOf(getValues()[0].getType());
  SmallVector<Type> elements;
  for (Value value : getValues()) {
    std::optional<std::pair<ArrayRef<int64_t>, Type>> each =
        getTileOf(value.getType());
    if (!each)
      return emitOpError() << "stores accumulators or acc fragments, got "
                           << value.getType();
    if (each->first.size() != 2 || each->first != tile->first)
      return emitOpError() << "stored values must have one 2-D shape";
    elements.push_back(each->second);
  }
  if (getInputs().size() != getInputKinds().size())
    return emitOpError() << "needs one kind per epilogue input, got "
                         << getInputKinds().size() << " for "
                         << getInputs().size();
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    auto type = llvm::cast<MemRefType>(input.getType());
    InputKind kind = getInputKind(index);
    bool ok = type.getRank() == 2 ||
              (type.getRank() == 1 &&
               (kind == InputKind::per_col || kind == InputKind::scalar));
    if (!ok)
      return emitOpError() << "epilogue input #" << index << " of rank "
                           << type.getRank() << " cannot be read "
                           << stringifyInputKind(kind);
    if (readsByGroup(kind) && !getGroup())
      return emitOpError() << "epilogue input #" << index << " is read "
                           << stringifyInputKind(kind)
                           << ", which needs the tile's group";
    elements.push_back(type.getElementType());
  }
  if (getGroup() && llvm::none_of(getInputKinds(), [](Attribute kind) {
        return readsByGroup(llvm::cast<InputKindAttr>(kind).getValue());
      }))
    return emitOpError() << "has a group but no epilogue input read "
                            "per_group or per_group_col";
  if (getStaging()) {
    BufferType staging = getStaging().getType();
    if (staging.getElementType() != dest.getElementType())
      return emitOpError() << "staging elements " << staging.getElementType()
                           << " differ from destination elements "
                           << dest.getElementType();
    if (failed(verifySlot(*this, "staging", staging, getStagingSlot())))
      return failure();
  }
  Block &block = getEpilogue().front();
  if (block.getArgumentTypes() != TypeRange(elements))
    return emitOpError() << "epilogue takes one element per stored value, "
                            "then one per epilogue input";
  return verifyYield(*this, getEpilogue(), {dest.getElementType()});
}

//===----------------------------------------------------------------------===//
// Register fragments
//===----------------------------------------------------------------------===//

LogicalResult SplatOp::verify() {
  if (getValue().getType() != getResult().getType().getElementType())
    return emitOpError() << "splats a " << getValue().getType()
                         << " into a fragment of "
                         << getResult().getType().getElementType();
  return success();
}

void FragMapOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index == 0 ? "row" : index == 1 ? "col" : "x");
}

LogicalResult FragMapOp::verify() {
  Type index = IndexType::get(getContext());
  SmallVector<Type> args = {index, index};
  // A map over row (or column) vectors yields one: the running maxima and
  // sums of an online softmax.
  if (auto vector = llvm::dyn_cast<FragType>(getResult().getType());
      vector && (vector.getLayout() == FragLayout::rows ||
                 vector.getLayout() == FragLayout::cols)) {
    for (Value input : getInputs()) {
      auto frag = llvm::dyn_cast<FragType>(input.getType());
      if (!frag || frag.getLayout() != vector.getLayout() ||
          frag.getShape() != vector.getShape())
        return emitOpError() << "a map yielding " << vector
                             << " reads vectors of that layout and shape";
      args.push_back(frag.getElementType());
    }
    if (getBody().front().getArgumentTypes() != TypeRange(args))
      return emitOpError()
             << "body takes (row, col) then one element per input";
    return verifyYield(*this, getBody(), {vector.getElementType()});
  }
  std::optional<std::pair<ArrayRef<int64_t>, Type>> result =
      getTileOf(getResult().getType());
  if (!result || result->first.size() != 2)
    return emitOpError() << "yields an accumulator, an acc fragment or a row "
                            "or column vector";
  ArrayRef<int64_t> shape = result->first;
  for (Value input : getInputs()) {
    if (std::optional<std::pair<ArrayRef<int64_t>, Type>> tile =
            getTileOf(input.getType())) {
      if (tile->first != shape)
        return emitOpError() << "inputs must have the result's shape";
      args.push_back(tile->second);
      continue;
    }
    auto frag = llvm::cast<FragType>(input.getType());
    bool rows = frag.getLayout() == FragLayout::rows;
    bool cols = frag.getLayout() == FragLayout::cols;
    if (!(rows && frag.getShape() == ArrayRef<int64_t>{shape[0]}) &&
        !(cols && frag.getShape() == ArrayRef<int64_t>{shape[1]}))
      return emitOpError() << "input " << frag
                           << " is neither the result's tile nor one of its "
                              "row or column vectors";
    args.push_back(frag.getElementType());
  }
  if (getBody().front().getArgumentTypes() != TypeRange(args))
    return emitOpError() << "body takes (row, col) then one element per input";
  return verifyYield(*this, getBody(), {result->second});
}

/// Ops that run only in warp roles of the given kinds (turns in math
/// warpgroups; explicit stage waits in math warpgroups or an MMA warp; the
/// writes that fill a stage in math or epilogue warpgroups).
static LogicalResult verifyInRole(Operation *op,
                                  ArrayRef<RoleKind> kinds) {
  std::string names;
  for (auto [i, kind] : llvm::enumerate(kinds))
    names += (i == 0 ? "" : " or ") + stringifyRoleKind(kind).str();
  auto role = op->getParentOfType<WarpSpecializeOp>();
  if (!role)
    return op->emitOpError() << "runs in " << (kinds.front() == RoleKind::math
                                                   ? "a "
                                                   : "an ")
                             << names << " role of cta.warp_specialize";
  for (unsigned i = 0; i < role.getBodies().size(); ++i)
    if (role.getBodies()[i].isAncestor(op->getParentRegion()) &&
        !llvm::is_contained(kinds, role.getRole(i).getKind()))
      return op->emitOpError()
             << "runs in " << (kinds.front() == RoleKind::math ? "a " : "an ")
             << names << " role, not a "
             << stringifyRoleKind(role.getRole(i).getKind()) << " role";
  return success();
}

static LogicalResult verifyInMathRole(Operation *op) {
  return verifyInRole(op, {RoleKind::math});
}

/// Waiting for and releasing ring stages: math warpgroups (sm_90a) and the
/// MMA warp (sm_100a).
static LogicalResult verifyStageConsumer(Operation *op) {
  return verifyInRole(op, {RoleKind::math, RoleKind::mma});
}

/// Filling ring stages with a warpgroup's writes; tensor-memory tiles each
/// thread reads and writes by rows.
static LogicalResult verifyInWarpgroupRole(Operation *op) {
  return verifyInRole(op, {RoleKind::math, RoleKind::epilogue});
}

LogicalResult MmaTurnOp::verify() {
  // The generated getter is unsigned; a negative count must not wrap.
  int64_t warpgroups = getWarpgroupsAttr().getInt();
  int64_t most = target::namedBarriers - target::mmaTurnBarrierBase;
  if (warpgroups < 2 || warpgroups > most)
    return emitOpError() << "takes turns among 2 to " << most
                         << " math warpgroups, got " << warpgroups;
  return verifyInMathRole(*this);
}

LogicalResult StageWaitOp::verify() { return verifyStageConsumer(*this); }

LogicalResult ReadIndexOp::verify() {
  auto source = llvm::cast<MemRefType>(getSource().getType());
  if (source.getRank() != 1 || !source.getElementType().isInteger(32))
    return emitOpError() << "reads a rank-1 i32 tensor, got " << source;
  return success();
}

/// The check both global f32 reads share: an f32 source, one index per
/// axis.
static LogicalResult verifyF32Read(Operation *op, Value source,
                                   ValueRange indices, int64_t minRank) {
  auto type = llvm::cast<MemRefType>(source.getType());
  if (!type.getElementType().isF32())
    return op->emitOpError() << "reads f32 elements, not "
                             << type.getElementType();
  if (type.getRank() < minRank)
    return op->emitOpError() << "reads a tensor of rank " << minRank
                             << " or more, got " << type;
  if (static_cast<int64_t>(indices.size()) != type.getRank())
    return op->emitOpError() << "takes one index per axis of the source ("
                             << type.getRank() << "), got " << indices.size();
  return success();
}

LogicalResult ReadVectorOp::verify() {
  FragType result = getResult().getType();
  if ((result.getLayout() != FragLayout::rows &&
       result.getLayout() != FragLayout::cols) ||
      !result.getElementType().isF32())
    return emitOpError() << "reads a rows or cols vector of f32, got "
                         << result;
  return verifyF32Read(*this, getSource(), getIndices(), 2);
}

LogicalResult ReadScalarOp::verify() {
  return verifyF32Read(*this, getSource(), getIndices(), 1);
}

LogicalResult StoreRowsOp::verify() {
  FragType value = getValue().getType();
  if (value.getLayout() != FragLayout::rows || !value.getElementType().isF32())
    return emitOpError() << "stores a rows vector of f32, got " << value;
  auto dest = llvm::cast<MemRefType>(getDest().getType());
  Type element = dest.getElementType();
  if (!element.isF32() && !element.isBF16() && !element.isF16())
    return emitOpError() << "writes f32, bf16 or f16 elements, not "
                         << element;
  if (static_cast<int64_t>(getIndices().size()) != dest.getRank())
    return emitOpError() << "takes one index per axis of the destination ("
                         << dest.getRank() << "), got "
                         << getIndices().size();
  if (getCombine() && !element.isF32())
    return emitOpError() << "combines into f32 elements only (an atomic "
                            "read-modify-write per row), not "
                         << element;
  // Before cta-pipeline a tile's stores sit in its walk (a GEMM's row
  // reduction); once roles exist, in a math or epilogue role.
  if (!(*this)->getParentOfType<WarpSpecializeOp>() &&
      (*this)->getParentOfType<TileLoopOp>())
    return success();
  return verifyInWarpgroupRole(*this);
}

LogicalResult CombineColsOp::verify() {
  FragType value = getValue().getType();
  if (value.getLayout() != FragLayout::acc || value.getShape().size() != 2 ||
      !value.getElementType().isF32())
    return emitOpError() << "reduces the columns of an f32 acc fragment, got "
                         << value;
  auto dest = llvm::cast<MemRefType>(getDest().getType());
  if (!dest.getElementType().isF32())
    return emitOpError() << "combines into f32 elements only (an atomic "
                            "read-modify-write per column), not "
                         << dest.getElementType();
  if (static_cast<int64_t>(getIndices().size()) != dest.getRank())
    return emitOpError() << "takes one index per axis of the destination ("
                         << dest.getRank() << "), got "
                         << getIndices().size();
  // Where cta.store_rows may be: in a tile walk before cta-pipeline, in a
  // math or epilogue role after it.
  if (!(*this)->getParentOfType<WarpSpecializeOp>() &&
      (*this)->getParentOfType<TileLoopOp>())
    return success();
  return verifyInWarpgroupRole(*this);
}

LogicalResult StageReleaseOp::verify() { return verifyStageConsumer(*this); }

LogicalResult StageAcquireOp::verify() { return verifyInWarpgroupRole(*this); }

LogicalResult StageCommitOp::verify() { return verifyInWarpgroupRole(*this); }

//===----------------------------------------------------------------------===//
// Tensor-memory tiles
//===----------------------------------------------------------------------===//

LogicalResult TmemAccOp::verify() {
  TmemType tile = getTile().getType();
  AccType acc = getAcc().getType();
  if (!tile.getElementType().isF32() || acc.getShape() != tile.getShape() ||
      acc.getElementType() != tile.getElementType())
    return emitOpError() << "the accumulator of " << tile << " is "
                         << AccType::get(getContext(), tile.getShape(),
                                         tile.getElementType())
                         << (tile.getElementType().isF32()
                                 ? ""
                                 : " (accumulators hold f32)");
  return success();
}

LogicalResult TmemStoreOp::verify() {
  FragType value = getValue().getType();
  TmemType tile = getTile().getType();
  if (value.getLayout() != FragLayout::acc || !value.getElementType().isF32() ||
      value.getShape() != tile.getShape())
    return emitOpError() << "writes an f32 acc fragment of the tile's shape "
                         << FragType::get(getContext(), tile.getShape(),
                                          Float32Type::get(getContext()),
                                          FragLayout::acc)
                         << ", got " << value;
  return verifyInWarpgroupRole(*this);
}

LogicalResult TmemUpdateOp::verify() {
  TmemType tile = getTile().getType();
  if (!tile.getElementType().isF32())
    return emitOpError() << "updates f32 tiles, not " << tile;
  Type index = IndexType::get(getContext());
  SmallVector<Type> args = {index, index, tile.getElementType()};
  for (Value input : getInputs()) {
    auto frag = llvm::cast<FragType>(input.getType());
    if (frag.getLayout() != FragLayout::rows ||
        frag.getShape() != ArrayRef<int64_t>{tile.getShape()[0]})
      return emitOpError() << "inputs are rows vectors of the tile's "
                           << tile.getShape()[0] << " rows, got " << frag;
    args.push_back(frag.getElementType());
  }
  if (getBody().front().getArgumentTypes() != TypeRange(args))
    return emitOpError()
           << "body takes (row, col, element) then one element per input";
  if (failed(verifyYield(*this, getBody(), {tile.getElementType()})))
    return failure();
  return verifyInWarpgroupRole(*this);
}

void TmemUpdateOp::getAsmBlockArgumentNames(Region &region,
                                            OpAsmSetValueNameFn setNameFn) {
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index == 0 ? "row" : index == 1 ? "col" : "x");
}

LogicalResult MmaWaitOp::verify() {
  auto mma = getPending().getDefiningOp<MmaOp>();
  if (!mma || !mma.getAsync())
    return emitOpError() << "waits for the result of an asynchronous "
                            "cta.mma ('async')";
  if (mma->getBlock() != (*this)->getBlock() ||
      !mma->isBeforeInBlock(*this))
    return emitOpError() << "must follow its asynchronous MMA in the same "
                            "block";
  int64_t issued = 0;
  for (Operation *op = mma->getNextNode(); op != getOperation();
       op = op->getNextNode())
    if (auto later = llvm::dyn_cast<MmaOp>(op); later && later.getAsync())
      ++issued;
  // (The generated getter is unsigned; a negative count must not wrap.)
  if (getLaterAttr().getInt() != issued)
    return emitOpError() << "'later' must count the asynchronous MMAs "
                            "issued between the MMA and this wait ("
                         << issued << "), got " << getLaterAttr().getInt();
  return success();
}

LogicalResult ReduceRowsOp::verify() {
  std::optional<std::pair<ArrayRef<int64_t>, Type>> tile =
      getTileOf(getInput().getType());
  if (!tile || tile->first.size() != 2)
    return emitOpError() << "reduces an accumulator or an acc fragment";
  FragType result = getResult().getType();
  if (result.getLayout() != FragLayout::rows ||
      result.getShape() != ArrayRef<int64_t>{tile->first[0]} ||
      result.getElementType() != tile->second)
    return emitOpError() << "yields one " << tile->second << " per input row: "
                         << FragType::get(getContext(), {tile->first[0]},
                                          tile->second, FragLayout::rows);
  return success();
}

LogicalResult ScaleRowsOp::verify() {
  std::optional<std::pair<ArrayRef<int64_t>, Type>> tile =
      getTileOf(getInput().getType());
  if (!tile || tile->first.size() != 2 || !tile->second.isF32())
    return emitOpError() << "scales an f32 accumulator or acc fragment";
  FragType factors = getFactors().getType();
  if (factors.getLayout() != FragLayout::rows ||
      factors.getShape() != ArrayRef<int64_t>{tile->first[0]} ||
      !factors.getElementType().isF32())
    return emitOpError() << "takes one f32 factor per input row: "
                         << FragType::get(getContext(), {tile->first[0]},
                                          tile->second, FragLayout::rows);
  return success();
}

LogicalResult ConvertOp::verify() {
  std::optional<std::pair<ArrayRef<int64_t>, Type>> tile =
      getTileOf(getInput().getType());
  if (!tile || tile->first.size() != 2 || !tile->second.isF32())
    return emitOpError() << "converts an f32 accumulator or acc fragment";
  FragType result = getResult().getType();
  if (result.getLayout() != FragLayout::lhs ||
      result.getShape() != tile->first ||
      !(result.getElementType().isBF16() || result.getElementType().isF16()))
    return emitOpError() << "yields a bf16 or f16 fragment of the same shape "
                            "in the lhs layout";
  return success();
}

//===----------------------------------------------------------------------===//
// Pipelining and warp specialization
//===----------------------------------------------------------------------===//

LogicalResult RingOp::verify() {
  // Signed reads: the generated getters are unsigned. The empty barrier
  // counts consumers * cluster_size arrivals, one per thread at most.
  int64_t consumers = getConsumersAttr().getInt();
  int64_t clusterSize = getClusterSizeAttr().getInt();
  if (consumers < 1 || consumers > target::maxThreadsPerBlock ||
      clusterSize < 1 || clusterSize > target::maxClusterSizeNonPortable)
    return emitOpError() << "needs 1 to " << target::maxThreadsPerBlock
                         << " consumers and a cluster of 1 to "
                         << target::maxClusterSizeNonPortable << " CTAs, got "
                         << consumers << " and " << clusterSize;
  return success();
}

ParseResult WarpSpecializeOp::parse(OpAsmParser &parser,
                                    OperationState &result) {
  SmallVector<Attribute> roles;
  while (true) {
    Attribute role;
    OptionalParseResult parsed = parser.parseOptionalAttribute(role);
    if (!parsed.has_value())
      break;
    if (failed(*parsed))
      return failure();
    if (!llvm::isa<RoleAttr>(role))
      return parser.emitError(parser.getCurrentLocation(),
                              "expected a #cta.role, got ")
             << role;
    roles.push_back(role);
    Region *body = result.addRegion();
    if (parser.parseRegion(*body))
      return failure();
    if (body->empty())
      body->emplaceBlock();
    Block &block = body->front();
    if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>()) {
      OpBuilder builder(parser.getContext());
      builder.setInsertionPointToEnd(&block);
      YieldOp::create(builder, result.location);
    }
  }
  result.addAttribute(getRolesAttrName(result.name),
                      parser.getBuilder().getArrayAttr(roles));
  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void WarpSpecializeOp::print(OpAsmPrinter &p) {
  for (auto [role, body] : llvm::zip(getRoles(), getBodies())) {
    p.printNewline();
    p << "  ";
    p.printAttribute(role);
    p << " ";
    p.printRegion(body, /*printEntryBlockArgs=*/false,
                  /*printBlockTerminators=*/false);
  }
  p.printOptionalAttrDictWithKeyword((*this)->getAttrs(), {getRolesAttrName()});
}

int64_t WarpSpecializeOp::getFirstWarp(unsigned i) {
  int64_t first = 0;
  for (unsigned r = 0; r < i; ++r)
    first += getRole(r).getWarps();
  return first;
}

int64_t WarpSpecializeOp::getTotalWarps() {
  return getFirstWarp(getRoles().size());
}

LogicalResult WarpSpecializeOp::verify() {
  if (getRoles().empty())
    return emitOpError() << "needs at least one role";
  if (getRoles().size() != getBodies().size())
    return emitOpError() << "needs one region per role, got "
                         << getBodies().size() << " for " << getRoles().size();
  for (unsigned i = 0; i < getRoles().size(); ++i) {
    RoleAttr role = getRole(i);
    bool wholeWarpgroups = role.getRegs() != 0 ||
                           role.getKind() == RoleKind::math ||
                           role.getKind() == RoleKind::epilogue;
    if (wholeWarpgroups && getFirstWarp(i) % 4 != 0)
      return emitOpError()
             << "role #" << i
             << " runs on whole warpgroups (it resizes registers or owns "
                "accumulators), so it must start on a warpgroup; it starts "
                "at warp "
             << getFirstWarp(i);
    Block &block = getBodies()[i].front();
    auto yield =
        block.empty() ? YieldOp() : llvm::dyn_cast<YieldOp>(block.back());
    if (!yield || !yield.getValues().empty())
      return emitOpError() << "role regions end in a cta.yield of nothing";
  }
  if (getTotalWarps() > 32)
    return emitOpError() << "roles have " << getTotalWarps()
                         << " warps; a CTA has at most 32";
  return success();
}

void ProduceOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  setNameFn(region.getArgument(0), "kb");
  setNameFn(region.getArgument(1), "slot");
}

/// A constant negative ring count: the loop would wrap its unsigned trip
/// count and spin (a hung GPU), so it is refused where it is written.
static LogicalResult verifyRingCount(Operation *op, Value count) {
  APInt value;
  if (matchPattern(count, m_ConstantInt(&value)) && value.isNegative())
    return op->emitOpError() << "count must not be negative, got "
                             << value.getSExtValue();
  return success();
}

LogicalResult ProduceOp::verify() {
  if (failed(verifyRingCount(*this, getCount())))
    return failure();
  Type index = IndexType::get(getContext());
  return verifyBlockArgs(*this, getBody().front(), {index, index}, {});
}

void ConsumeOp::getAsmBlockArgumentNames(Region &region,
                                         OpAsmSetValueNameFn setNameFn) {
  for (auto [index, arg] : llvm::enumerate(region.getArguments()))
    setNameFn(arg, index == 0 ? "kb" : index == 1 ? "slot" : "carried");
}

LogicalResult ConsumeOp::verify() {
  if (failed(verifyRingCount(*this, getCount())))
    return failure();
  if (getResults().getTypes() != getInits().getTypes())
    return emitOpError() << "results must match the carried values";
  Type index = IndexType::get(getContext());
  if (failed(verifyBlockArgs(*this, getBody().front(), {index, index},
                             getInits().getTypes())))
    return failure();
  return verifyYield(*this, getBody(), getInits().getTypes());
}

//===----------------------------------------------------------------------===//
// Accumulator hand-off
//===----------------------------------------------------------------------===//

LogicalResult AccRingOp::verify() {
  int64_t consumers = getConsumersAttr().getInt();
  if (consumers < 1 || consumers > 4)
    return emitOpError() << "needs 1 to 4 consumer warpgroups, got "
                         << consumers;
  return success();
}

/// The accumulators an op of an accumulator ring takes or returns are the
/// ring's, in order.
static LogicalResult verifyRingAccs(Operation *op, AccRingType ring,
                                    TypeRange types, StringRef what) {
  if (types.size() != ring.getAccs().size() ||
      !llvm::equal(types, ring.getAccs()))
    return op->emitOpError() << what << " must be the ring's accumulators ("
                             << ring << "), got " << types.size()
                             << " value(s)";
  return success();
}

LogicalResult AccAcquireOp::verify() {
  return verifyRingAccs(*this, getRing().getType(), getAccs().getTypes(),
                        "results");
}

LogicalResult AccCommitOp::verify() {
  return verifyRingAccs(*this, getRing().getType(), getAccs().getTypes(),
                        "operands");
}

LogicalResult AccWaitOp::verify() {
  return verifyRingAccs(*this, getRing().getType(), getAccs().getTypes(),
                        "results");
}

#define GET_OP_CLASSES
#include "dialects/Cta/IR/CtaOps.cpp.inc"
