//===- TileAttrs.cpp - attributes of the tile dialect ---------------------===//

#include "dialects/Tile/IR/TileDialect.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "compiler/Target/Chip.h"
#include "compiler/Target/Swizzle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tile;

#include "dialects/Tile/IR/TileEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DimExprAttr: #tile.dim<"cdiv(K,128)">
//===----------------------------------------------------------------------===//

DimExprAttr DimExprAttr::get(MLIRContext *ctx, const kiln::DimExpr &expr) {
  return get(ctx, expr.kind, StringAttr::get(ctx, expr.name), expr.value);
}

kiln::DimExpr DimExprAttr::getExpr() const {
  return kiln::DimExpr::make(getKind(), getName().str(), getValue());
}

std::optional<int64_t> DimExprAttr::getConstant() const {
  if (getKind() != kiln::DimExpr::Kind::Const)
    return std::nullopt;
  return getValue();
}

/// The attribute for `text` in the shared parser's syntax; on failure,
/// reports the parser's message at `loc`.
static DimExprAttr parseDimExprText(AsmParser &parser, SMLoc loc,
                                    StringRef text) {
  // The shared parser skips spaces (manifests may be hand-written); in IR
  // they would merge tokens ("M K" reading as MK), so they are refused here.
  if (llvm::any_of(text, [](char c) { return llvm::isSpace(c); })) {
    parser.emitError(loc, "invalid dim expression '")
        << text << "': spaces are not allowed";
    return {};
  }
  kiln::DimExpr expr;
  std::string error;
  if (!kiln::DimExpr::parse(text.str(), expr, error)) {
    parser.emitError(loc, error);
    return {};
  }
  return DimExprAttr::get(parser.getContext(), expr);
}

Attribute DimExprAttr::parse(AsmParser &parser, Type) {
  std::string text;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess() || parser.parseString(&text) || parser.parseGreater())
    return {};
  return parseDimExprText(parser, loc, text);
}

void DimExprAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << str() << "\">";
}

LogicalResult DimExprAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  kiln::DimExpr::Kind kind, StringAttr name,
                                  int64_t value) {
  using Kind = kiln::DimExpr::Kind;
  if (value < 0)
    return emitError() << "a dim expression's integer must be non-negative, "
                          "got "
                       << value;
  if (kind == Kind::Const && !name.getValue().empty())
    return emitError() << "a constant dim has no name";
  if (kind == Kind::Const)
    return success();
  if (!kiln::isDimName(name.getValue()))
    return emitError() << "'" << name.getValue() << "' is not a dim name";
  if (kind == Kind::CeilDiv && value == 0)
    return emitError() << "cdiv by zero";
  return success();
}

//===----------------------------------------------------------------------===//
// DimsAttr: #tile.dims<M, K>, #tile.dims<E+1>, #tile.dims<cdiv(K, 128), 64>
//===----------------------------------------------------------------------===//

/// Reads one dim expression's tokens back into the shared parser's text
/// (`cdiv(K, 128)` -> `cdiv(K,128)`); the shared parser then decides whether
/// it is one.
static ParseResult parseDimTokens(AsmParser &parser, std::string &out) {
  uint64_t value = 0;
  OptionalParseResult intResult = parser.parseOptionalInteger(value);
  if (intResult.has_value()) {
    if (failed(*intResult))
      return failure();
    out = std::to_string(value);
    return success();
  }
  std::string name;
  if (parser.parseKeywordOrString(&name))
    return parser.emitError(parser.getCurrentLocation(),
                            "expected a dim expression (NAME, INT, NAME+INT, "
                            "NAME-INT, NAME*INT or cdiv(NAME,INT))");
  if (name == "cdiv") {
    std::string num;
    uint64_t den;
    if (parser.parseLParen() || parseDimTokens(parser, num) ||
        parser.parseComma() || parser.parseInteger(den) || parser.parseRParen())
      return failure();
    out = "cdiv(" + num + "," + std::to_string(den) + ")";
    return success();
  }
  out = name;
  char op = succeeded(parser.parseOptionalPlus())    ? '+'
            : succeeded(parser.parseOptionalMinus()) ? '-'
            : succeeded(parser.parseOptionalStar())  ? '*'
                                                     : 0;
  if (!op)
    return success();
  uint64_t rhs;
  if (parser.parseInteger(rhs))
    return failure();
  out += std::string(1, op) + std::to_string(rhs);
  return success();
}

ParseResult kiln::tile::parseDimList(AsmParser &parser,
                                     AsmParser::Delimiter delimiter,
                                     SmallVectorImpl<DimExprAttr> &dims) {
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    std::string text;
    if (parseDimTokens(parser, text))
      return failure();
    DimExprAttr dim = parseDimExprText(parser, loc, text);
    if (!dim)
      return failure();
    dims.push_back(dim);
    return success();
  };
  return parser.parseCommaSeparatedList(delimiter, parseOne);
}

void kiln::tile::printDimList(AsmPrinter &printer, ArrayRef<DimExprAttr> dims) {
  llvm::interleaveComma(dims, printer, [&](DimExprAttr dim) {
    // cdiv(X,N) prints with a space after the comma so that it re-parses as
    // one call; everything else prints in the canonical spelling.
    if (dim.getKind() == kiln::DimExpr::Kind::CeilDiv)
      printer << "cdiv(" << dim.getName().getValue() << ", " << dim.getValue()
              << ")";
    else
      printer << dim.str();
  });
}

Attribute DimsAttr::parse(AsmParser &parser, Type) {
  SmallVector<DimExprAttr> dims;
  if (parseDimList(parser, AsmParser::Delimiter::LessGreater, dims))
    return {};
  return DimsAttr::get(parser.getContext(), dims);
}

void DimsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  printDimList(printer, getDims());
  printer << ">";
}

LogicalResult
DimsAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                         function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getDims().size())
    return emitError() << "#tile.dims names " << getDims().size()
                       << " extents but the tensor has rank " << shape.size();
  for (auto [axis, size] : llvm::enumerate(shape)) {
    std::optional<int64_t> constant = getDims()[axis].getConstant();
    if (ShapedType::isDynamic(size) == constant.has_value() ||
        (constant && *constant != size))
      return emitError()
             << "axis " << axis << " has static size "
             << (ShapedType::isDynamic(size) ? std::string("?")
                                             : std::to_string(size))
             << " but #tile.dims says '" << getDims()[axis].str()
             << "'; constant dims must be static and symbolic dims dynamic";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

int64_t ScheduleAttr::stagingColumns(int64_t tileN, int64_t elementBits) {
  int64_t cap = 2 * kiln::target::maxSwizzleSpanBytes * 8 / elementBits;
  if (tileN <= cap || tileN % cap == 0)
    return std::min(tileN, cap);
  // A wider tile of 16-bit outputs the cap does not divide streams through
  // two equal blocks where half the tile fits (a 128x224 tile: two
  // 112-column blocks, each staged as a dual GEMM's 128x112 tile is, which
  // the GPU tests run); otherwise the planner refuses the width.
  int64_t half = tileN / 2;
  if (elementBits == 16 && tileN % 2 == 0 && half <= cap &&
      half % kiln::target::mmaCommonNMultiple == 0)
    return half;
  return cap;
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t tileM, int64_t tileN, int64_t tileK,
                                   int64_t stages, int64_t clusterM,
                                   int64_t clusterN, int64_t consumers,
                                   bool persistent, int64_t groupM,
                                   bool streamK, int64_t accStages,
                                   bool pingpong, bool splitK) {
  // Upper bounds are those of the lowering: its tile arithmetic is 32-bit,
  // a cluster holds at most maxClusterSizeNonPortable CTAs, and #cta.schedule
  // takes at most maxIrStages stages. Each factor is bounded before the
  // cluster's product is taken, so that it cannot overflow.
  constexpr int64_t kMaxStages = kiln::target::maxIrStages;
  const int64_t maxIndex = kiln::target::maxKernelIndex;
  const int64_t maxCluster = kiln::target::maxClusterSizeNonPortable;
  if (tileM <= 0 || tileN <= 0 || tileK <= 0)
    return emitError() << "tile sizes must be positive, got " << tileM << "x"
                       << tileN << "x" << tileK;
  if (tileM > maxIndex || tileN > maxIndex || tileK > maxIndex)
    return emitError() << "tile sizes must be at most " << maxIndex
                       << " (the lowering's tile arithmetic is 32-bit), got "
                       << tileM << "x" << tileN << "x" << tileK;
  if (stages < 1)
    return emitError() << "stages must be at least 1, got " << stages;
  if (stages > kMaxStages)
    return emitError() << "stages must be at most " << kMaxStages << ", got "
                       << stages;
  if (clusterM < 1 || clusterN < 1)
    return emitError() << "cluster dims must be at least 1, got " << clusterM
                       << "x" << clusterN;
  if (clusterM > maxCluster || clusterN > maxCluster ||
      clusterM * clusterN > maxCluster)
    return emitError() << "a cluster holds at most " << maxCluster
                       << " CTAs, got " << clusterM << "x" << clusterN;
  if (!pingpong && (consumers < 1 || tileM % consumers != 0))
    return emitError() << "consumers (" << consumers << ") must divide tile_m ("
                       << tileM << ")";
  if (pingpong && consumers != 2)
    return emitError() << "pingpong takes turns between 2 math warpgroups, "
                          "got consumers = "
                       << consumers;
  if (pingpong && streamK)
    return emitError() << "pingpong and stream_k do not combine";
  if (pingpong && splitK)
    return emitError() << "pingpong and split_k do not combine";
  if (streamK && splitK)
    return emitError() << "stream_k and split_k are two ways to fill a "
                          "partial last wave: choose one";
  if (groupM < 1)
    return emitError() << "group_m must be at least 1, got " << groupM;
  if (groupM > maxIndex)
    return emitError() << "group_m must be at most " << maxIndex
                       << " (the lowering's tile arithmetic is 32-bit), got "
                       << groupM;
  if (streamK && !persistent)
    return emitError() << "stream_k needs persistent = true";
  if (splitK && !persistent)
    return emitError() << "split_k needs persistent = true";
  if (accStages < 1 || accStages > 2)
    return emitError() << "acc_stages must be 1 or 2, got " << accStages;
  return success();
}

//===----------------------------------------------------------------------===//
// ParamAttr: #tile.param<"a.scale", scale, of = "a", block = [1, 16]>
//===----------------------------------------------------------------------===//

ParseResult kiln::tile::parseParamKind(AsmParser &parser, ParamKind &kind) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef word;
  if (parser.parseKeyword(&word))
    return failure();
  std::optional<ParamKind> parsed = symbolizeParamKind(word);
  if (!parsed)
    return parser.emitError(loc) << "expected input, output or scale, got '"
                                 << word << "'";
  kind = *parsed;
  return success();
}

ParseResult kiln::tile::parseParamTail(AsmParser &parser, StringAttr &scaleOf,
                                       SmallVectorImpl<int64_t> &block) {
  while (succeeded(parser.parseOptionalComma())) {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "of") {
      std::string name;
      if (parser.parseString(&name))
        return failure();
      scaleOf = parser.getBuilder().getStringAttr(name);
    } else if (key == "block") {
      if (parser.parseCommaSeparatedList(
              AsmParser::Delimiter::Square, [&]() -> ParseResult {
                int64_t value;
                if (parser.parseInteger(value))
                  return failure();
                block.push_back(value);
                return success();
              }))
        return failure();
    } else {
      return parser.emitError(loc)
             << "unknown field '" << key << "'; expected of or block";
    }
  }
  return success();
}

void kiln::tile::printParamTail(AsmPrinter &printer, StringAttr scaleOf,
                                ArrayRef<int64_t> block) {
  if (scaleOf)
    printer << ", of = " << scaleOf;
  if (!block.empty()) {
    printer << ", block = [";
    llvm::interleaveComma(block, printer);
    printer << "]";
  }
}

Attribute ParamAttr::parse(AsmParser &parser, Type) {
  std::string name;
  ParamKind kind;
  StringAttr scaleOf;
  SmallVector<int64_t> block;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseComma() ||
      parseParamKind(parser, kind) || parseParamTail(parser, scaleOf, block) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<ParamAttr>(
      parser.getContext(), parser.getBuilder().getStringAttr(name), kind,
      scaleOf, block);
}

void ParamAttr::print(AsmPrinter &printer) const {
  printer << "<" << getName() << ", " << stringifyParamKind(getKind());
  printParamTail(printer, getScaleOf(), getBlock());
  printer << ">";
}

LogicalResult ParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringAttr name, ParamKind kind,
                                StringAttr scaleOf, ArrayRef<int64_t> block) {
  if (!name || name.getValue().empty())
    return emitError() << "a kernel tensor needs a name";
  bool scale = kind == ParamKind::scale;
  if (scale != static_cast<bool>(scaleOf) || scale != !block.empty())
    return emitError() << "a scale tensor, and only one, names the tensor it "
                          "scales (of = ...) and its block (block = [rows, K])";
  if (scale && (block.size() != 2 ||
                llvm::any_of(block, [](int64_t b) { return b < 1; })))
    return emitError() << "a scale block is two positive extents [rows, K]";
  return success();
}

//===----------------------------------------------------------------------===//
// HintsAttr: #tile.hints<tile = [128, 128, 64], stages = 3>
//===----------------------------------------------------------------------===//

Attribute HintsAttr::parse(AsmParser &parser, Type) {
  SmallVector<int64_t> tile, cluster;
  std::optional<int64_t> stages, consumers, groupM, accStages;
  std::optional<bool> persistent, streamK, pingpong, splitK;
  llvm::StringSet<> seen;
  auto parseList = [&](SmallVector<int64_t> &out) -> ParseResult {
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          int64_t value;
          if (parser.parseInteger(value))
            return failure();
          out.push_back(value);
          return success();
        });
  };
  auto parseFlag = [&](std::optional<bool> &out) -> ParseResult {
    StringRef word;
    if (parser.parseKeyword(&word))
      return failure();
    if (word != "true" && word != "false")
      return parser.emitError(parser.getCurrentLocation(),
                              "expected true or false");
    out = word == "true";
    return success();
  };
  auto parseInt = [&](std::optional<int64_t> &out) -> ParseResult {
    int64_t value;
    if (parser.parseInteger(value))
      return failure();
    out = value;
    return success();
  };
  if (parser.parseLess())
    return {};
  if (failed(parser.parseOptionalGreater())) {
    do {
      SMLoc loc = parser.getCurrentLocation();
      StringRef key;
      if (parser.parseKeyword(&key) || parser.parseEqual())
        return {};
      if (!seen.insert(key).second) {
        parser.emitError(loc) << "hint '" << key << "' given twice";
        return {};
      }
      ParseResult result = failure();
      if (key == "tile")
        result = parseList(tile);
      else if (key == "cluster")
        result = parseList(cluster);
      else if (key == "stages")
        result = parseInt(stages);
      else if (key == "consumers")
        result = parseInt(consumers);
      else if (key == "group_m")
        result = parseInt(groupM);
      else if (key == "acc_stages")
        result = parseInt(accStages);
      else if (key == "persistent")
        result = parseFlag(persistent);
      else if (key == "stream_k")
        result = parseFlag(streamK);
      else if (key == "pingpong")
        result = parseFlag(pingpong);
      else if (key == "split_k")
        result = parseFlag(splitK);
      else
        parser.emitError(loc)
            << "unknown schedule hint '" << key
            << "'; expected tile, stages, cluster, consumers, persistent, "
               "group_m, stream_k, acc_stages, pingpong or split_k";
      if (failed(result))
        return {};
    } while (succeeded(parser.parseOptionalComma()));
    if (parser.parseGreater())
      return {};
  }
  return parser.getChecked<HintsAttr>(parser.getContext(), tile, stages,
                                      cluster, consumers, persistent, groupM,
                                      streamK, accStages, pingpong, splitK);
}

void HintsAttr::print(AsmPrinter &printer) const {
  SmallVector<std::string> items;
  auto list = [](ArrayRef<int64_t> values) {
    std::string text = "[";
    for (auto [index, value] : llvm::enumerate(values))
      text += (index ? ", " : "") + std::to_string(value);
    return text + "]";
  };
  if (!getTile().empty())
    items.push_back("tile = " + list(getTile()));
  if (getStages())
    items.push_back("stages = " + std::to_string(*getStages()));
  if (!getCluster().empty())
    items.push_back("cluster = " + list(getCluster()));
  if (getConsumers())
    items.push_back("consumers = " + std::to_string(*getConsumers()));
  if (getPersistent())
    items.push_back(std::string("persistent = ") +
                    (*getPersistent() ? "true" : "false"));
  if (getGroupM())
    items.push_back("group_m = " + std::to_string(*getGroupM()));
  if (getStreamK())
    items.push_back(std::string("stream_k = ") +
                    (*getStreamK() ? "true" : "false"));
  if (getAccStages())
    items.push_back("acc_stages = " + std::to_string(*getAccStages()));
  if (getPingpong())
    items.push_back(std::string("pingpong = ") +
                    (*getPingpong() ? "true" : "false"));
  if (getSplitK())
    items.push_back(std::string("split_k = ") +
                    (*getSplitK() ? "true" : "false"));
  printer << "<" << llvm::join(items, ", ") << ">";
}

SmallVector<StringRef> HintsAttr::getGivenNames() const {
  SmallVector<StringRef> names;
  if (!getTile().empty())
    names.push_back("tile");
  if (getStages())
    names.push_back("stages");
  if (!getCluster().empty())
    names.push_back("cluster");
  if (getConsumers())
    names.push_back("consumers");
  if (getPersistent())
    names.push_back("persistent");
  if (getGroupM())
    names.push_back("group_m");
  if (getStreamK())
    names.push_back("stream_k");
  if (getAccStages())
    names.push_back("acc_stages");
  if (getPingpong())
    names.push_back("pingpong");
  if (getSplitK())
    names.push_back("split_k");
  return names;
}

LogicalResult HintsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                ArrayRef<int64_t> tile,
                                std::optional<int64_t> stages,
                                ArrayRef<int64_t> cluster,
                                std::optional<int64_t> consumers,
                                std::optional<bool> persistent,
                                std::optional<int64_t> groupM,
                                std::optional<bool> streamK,
                                std::optional<int64_t> accStages,
                                std::optional<bool> pingpong,
                                std::optional<bool> splitK) {
  // Every number must also fit the lowering's 32-bit tile arithmetic, or
  // tile-select-schedule would copy it into a #tile.schedule it truncates.
  auto inRange = [](int64_t v) {
    return v > 0 && v <= kiln::target::maxKernelIndex;
  };
  auto badList = [&](StringRef key, ArrayRef<int64_t> values, size_t minSize,
                     size_t maxSize) {
    return !values.empty() &&
           (values.size() < minSize || values.size() > maxSize ||
            !llvm::all_of(values, inRange));
  };
  if (badList("tile", tile, 2, 3))
    return emitError() << "schedule hint 'tile' takes 2 or 3 extents in [1, "
                       << kiln::target::maxKernelIndex << "]";
  if (badList("cluster", cluster, 1, 2))
    return emitError() << "schedule hint 'cluster' takes 1 or 2 extents in [1, "
                       << kiln::target::maxKernelIndex << "]";
  for (auto [key, value] :
       {std::pair<StringRef, std::optional<int64_t>>{"stages", stages},
        {"consumers", consumers},
        {"group_m", groupM},
        {"acc_stages", accStages}})
    if (value && !inRange(*value))
      return emitError() << "schedule hint '" << key << "' must be in [1, "
                         << kiln::target::maxKernelIndex << "], got "
                         << *value;
  return success();
}
