//===- CtaAttrs.cpp - the cta dialect's program-boundary attributes -------===//
//
// The attributes' storage and registration, and the program boundary's:
// #cta.chip, #cta.param and #cta.dim, what a cta.program is lowered for and
// the tensors and dims its launch passes. (Other attributes' verifiers live
// with the types they describe in CtaTypes.cpp.)
//
//===----------------------------------------------------------------------===//

#include "dialects/Cta/IR/CtaDialect.h"
#include "dialects/Cta/IR/CtaOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace kiln;
using namespace kiln::cta;

#define GET_ATTRDEF_CLASSES
#include "dialects/Cta/IR/CtaAttrs.cpp.inc"

void CtaDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/Cta/IR/CtaAttrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #cta.chip<sm_90a>
//===----------------------------------------------------------------------===//

ParseResult kiln::cta::parseChipName(AsmParser &parser, target::Chip &chip) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseKeyword(&name))
    return failure();
  std::optional<target::Chip> parsed = target::parseChip(name);
  if (!parsed)
    return parser.emitError(loc) << "unknown chip '" << name << "'; expected "
                                 << target::knownChipNames();
  chip = *parsed;
  return success();
}

void kiln::cta::printChipName(AsmPrinter &printer, target::Chip chip) {
  printer << target::chipName(chip);
}

//===----------------------------------------------------------------------===//
// #cta.param<"a", input, [M, K]>
//===----------------------------------------------------------------------===//

Attribute ParamAttr::parse(AsmParser &parser, Type) {
  std::string name;
  tile::ParamKind kind;
  SmallVector<tile::DimExprAttr> shape;
  StringAttr scaleOf;
  SmallVector<int64_t> block;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseComma() ||
      tile::parseParamKind(parser, kind) || parser.parseComma() ||
      tile::parseDimList(parser, AsmParser::Delimiter::Square, shape) ||
      tile::parseParamTail(parser, scaleOf, block) || parser.parseGreater())
    return {};
  return parser.getChecked<ParamAttr>(parser.getContext(),
                                      parser.getBuilder().getStringAttr(name),
                                      kind, shape, scaleOf, block);
}

void ParamAttr::print(AsmPrinter &printer) const {
  printer << "<" << getName() << ", " << tile::stringifyParamKind(getKind())
          << ", [";
  tile::printDimList(printer, getShape());
  printer << "]";
  tile::printParamTail(printer, getScaleOf(), getBlock());
  printer << ">";
}

LogicalResult ParamAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                StringAttr name, tile::ParamKind kind,
                                ArrayRef<tile::DimExprAttr> shape,
                                StringAttr scaleOf, ArrayRef<int64_t> block) {
  // The same rules as #tile.param's, which this one is made from.
  if (failed(tile::ParamAttr::verify(emitError, name, kind, scaleOf, block)))
    return failure();
  if (shape.empty())
    return emitError() << "a tensor's shape has at least one axis";
  if (llvm::any_of(shape, [](tile::DimExprAttr dim) { return !dim; }))
    return emitError() << "a shape's axes are dim expressions";
  return success();
}

//===----------------------------------------------------------------------===//
// #cta.dim<M>
//===----------------------------------------------------------------------===//

Attribute DimAttr::parse(AsmParser &parser, Type) {
  std::string name;
  if (parser.parseLess() || parser.parseKeywordOrString(&name) ||
      parser.parseGreater())
    return {};
  return parser.getChecked<DimAttr>(parser.getContext(),
                                    parser.getBuilder().getStringAttr(name));
}

void DimAttr::print(AsmPrinter &printer) const {
  printer << "<" << getName().getValue() << ">";
}

LogicalResult DimAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                              StringAttr name) {
  if (!name || !isDimName(name.getValue()))
    return emitError() << "'" << (name ? name.getValue() : StringRef())
                       << "' is not a dim name (a letter or '_', then "
                          "letters, digits and '_')";
  return success();
}

//===----------------------------------------------------------------------===//
// Program argument attributes
//===----------------------------------------------------------------------===//

LogicalResult CtaDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == ProgramOp::kParamAttrName) {
    if (!llvm::isa<ParamAttr>(attr.getValue()))
      return op->emitOpError() << "argument #" << argIndex << ": " << name
                               << " must be a #cta.param, got "
                               << attr.getValue();
    return success();
  }
  if (name == ProgramOp::kDimAttrName) {
    if (!llvm::isa<DimAttr>(attr.getValue()))
      return op->emitOpError() << "argument #" << argIndex << ": " << name
                               << " must be a #cta.dim, got "
                               << attr.getValue();
    return success();
  }
  return op->emitOpError() << "argument #" << argIndex
                           << ": unknown cta attribute '" << name
                           << "'; expected " << ProgramOp::kParamAttrName
                           << " or " << ProgramOp::kDimAttrName;
}
