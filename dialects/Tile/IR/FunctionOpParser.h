//===- FunctionOpParser.h - tile.kernel and cta.program syntax -*- C++ -*-===//
//
// Both dialects' kernel ops (tile.kernel, cta.program) are function ops with
// the same custom syntax; this is their one parser.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_DIALECTS_TILE_IR_FUNCTIONOPPARSER_H
#define KILN_DIALECTS_TILE_IR_FUNCTIONOPPARSER_H

#include "mlir/Interfaces/FunctionImplementation.h"

namespace kiln {

/// Parses a function op of type `OpT`. Inherent attributes of the wrong kind
/// (`chip = "sm_90a"`, `variant_of = 3`) are errors here, as in a generated
/// parser; they would otherwise be dropped silently.
template <typename OpT>
mlir::ParseResult parseFunctionLikeOp(mlir::OpAsmParser &parser,
                                      mlir::OperationState &result) {
  auto buildType = [](mlir::Builder &builder, llvm::ArrayRef<mlir::Type> args,
                      llvm::ArrayRef<mlir::Type> results,
                      mlir::function_interface_impl::VariadicFlag,
                      std::string &) {
    return builder.getFunctionType(args, results);
  };
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (mlir::function_interface_impl::parseFunctionOp(
          parser, result, /*allowVariadic=*/false,
          OpT::getFunctionTypeAttrName(result.name), buildType,
          OpT::getArgAttrsAttrName(result.name),
          OpT::getResAttrsAttrName(result.name)))
    return mlir::failure();
  return OpT::verifyInherentAttrs(result.name, result.attributes,
                                  [&]() { return parser.emitError(loc); });
}

} // namespace kiln

#endif // KILN_DIALECTS_TILE_IR_FUNCTIONOPPARSER_H
