//===- TileAttrs.cpp - attributes of the tile dialect ---------------------===//

#include "dialects/Tile/IR/TileDialect.h"
#include "dialects/Tile/IR/TileShapes.h"
#include "compiler/Target/Swizzle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln::tile;

#define GET_ATTRDEF_CLASSES
#include "dialects/Tile/IR/TileAttrs.cpp.inc"

void TileDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Tile/IR/TileAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// DimsAttr: #tile.dims<M, K>, #tile.dims<E+1>, #tile.dims<cdiv(K,128), 64>
//===----------------------------------------------------------------------===//

/// Parses one dim expression as its canonical, space-free spelling.
static ParseResult parseDimExpr(AsmParser &parser, std::string &out) {
  SMLoc loc = parser.getCurrentLocation();
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
    return parser.emitError(loc,
                            "expected a dim expression (NAME, INT, NAME+INT, "
                            "NAME-INT, NAME*INT or cdiv(NAME,INT))");
  if (name == "cdiv") {
    std::string num;
    uint64_t den;
    if (parser.parseLParen() || parseDimExpr(parser, num) ||
        parser.parseComma() || parser.parseInteger(den) || parser.parseRParen())
      return failure();
    out = "cdiv(" + num + "," + std::to_string(den) + ")";
  } else {
    out = name;
    for (auto [token, symbol] : {std::pair{"+", '+'}, {"-", '-'}, {"*", '*'}}) {
      bool present = false;
      if (symbol == '+')
        present = succeeded(parser.parseOptionalPlus());
      else if (symbol == '-')
        present = succeeded(parser.parseOptionalMinus());
      else
        present = succeeded(parser.parseOptionalStar());
      if (!present)
        continue;
      uint64_t rhs;
      if (parser.parseInteger(rhs))
        return failure();
      out += std::string(1, symbol) + std::to_string(rhs);
      break;
    }
  }
  if (!isValidDimExpr(out))
    return parser.emitError(loc, "invalid dim expression '") << out << "'";
  return success();
}

Attribute DimsAttr::parse(AsmParser &parser, Type) {
  SmallVector<StringAttr> dims;
  auto parseOne = [&]() -> ParseResult {
    std::string dim;
    if (parseDimExpr(parser, dim))
      return failure();
    dims.push_back(parser.getBuilder().getStringAttr(dim));
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::LessGreater,
                                     parseOne))
    return {};
  return DimsAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), dims);
}

void DimsAttr::print(AsmPrinter &printer) const {
  printer << "<";
  llvm::interleaveComma(getDims(), printer, [&](StringAttr dim) {
    StringRef text = dim.getValue();
    // cdiv(X,N) prints with a space after the comma so that it re-parses as
    // one call; everything else prints as written.
    if (text.consume_front("cdiv(")) {
      auto [num, den] = text.drop_back().split(',');
      printer << "cdiv(" << num << ", " << den << ")";
    } else {
      printer << text;
    }
  });
  printer << ">";
}

LogicalResult DimsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<StringAttr> dims) {
  for (StringAttr dim : dims)
    if (!isValidDimExpr(dim.getValue()))
      return emitError() << "invalid dim expression '" << dim.getValue() << "'";
  return success();
}

LogicalResult
DimsAttr::verifyEncoding(ArrayRef<int64_t> shape, Type,
                         function_ref<InFlightDiagnostic()> emitError) const {
  if (shape.size() != getDims().size())
    return emitError() << "#tile.dims names " << getDims().size()
                       << " extents but the tensor has rank " << shape.size();
  for (auto [axis, size] : llvm::enumerate(shape)) {
    std::optional<int64_t> constant =
        getConstantDim(getDims()[axis].getValue());
    if (ShapedType::isDynamic(size) == constant.has_value() ||
        (constant && *constant != size))
      return emitError()
             << "axis " << axis << " has static size "
             << (ShapedType::isDynamic(size) ? std::string("?")
                                             : std::to_string(size))
             << " but #tile.dims says '" << getDims()[axis].getValue()
             << "'; constant dims must be static and symbolic dims dynamic";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ScheduleAttr
//===----------------------------------------------------------------------===//

int64_t ScheduleAttr::stagingColumns(int64_t tileN, int64_t elementBits) {
  return std::min<int64_t>(
      tileN, 2 * kiln::target::maxSwizzleSpanBytes * 8 / elementBits);
}

LogicalResult ScheduleAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                   int64_t tileM, int64_t tileN, int64_t tileK,
                                   int64_t stages, int64_t clusterM,
                                   int64_t clusterN, int64_t consumers, bool,
                                   int64_t groupM) {
  if (tileM <= 0 || tileN <= 0 || tileK <= 0)
    return emitError() << "tile sizes must be positive, got " << tileM << "x"
                       << tileN << "x" << tileK;
  if (stages < 1)
    return emitError() << "stages must be at least 1, got " << stages;
  if (clusterM < 1 || clusterN < 1)
    return emitError() << "cluster dims must be at least 1, got " << clusterM
                       << "x" << clusterN;
  if (consumers < 1 || tileM % consumers != 0)
    return emitError() << "consumers (" << consumers << ") must divide tile_m ("
                       << tileM << ")";
  if (groupM < 1)
    return emitError() << "group_m must be at least 1, got " << groupM;
  return success();
}
