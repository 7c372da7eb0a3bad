//===- ProgramSignature.h - the ABI of a cta.program from a kernel -*- C++ -*-===//
//
// Every kernel kind's conversion (contractions, attention) gives its program
// the same ABI, the one the manifest describes: the kernel's tensors (inputs,
// then outputs) as row-major strided memrefs with their #cta.param, then one
// index argument per symbolic dim, in order of first appearance. This class
// collects the tensors, creates the program with the kernel's typed
// attributes and its entry block, and answers dims as index values.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_TILETOCTA_PROGRAMSIGNATURE_H
#define KILN_COMPILER_CONVERSION_TILETOCTA_PROGRAMSIGNATURE_H

#include "compiler/Target/Chip.h"
#include "dialects/Cta/IR/CtaOps.h"
#include "dialects/Tile/IR/TileOps.h"

#include "llvm/ADT/MapVector.h"

namespace kiln {

class ProgramSignature {
public:
  explicit ProgramSignature(mlir::MLIRContext *ctx) : ctx(ctx) {}

  /// Appends one tensor argument: a strided memref with a unit inner
  /// stride, its #cta.param (shape `layout` when given, else the tensor's
  /// own), and each dim the shape names, in order of first appearance.
  void addTensor(mlir::RankedTensorType type, tile::ParamAttr param,
                 llvm::ArrayRef<tile::DimExprAttr> layout = {});

  /// Appends the dim arguments, creates the program before `kernel` (its
  /// name, variant_of and tile_cost, and `chip`) with its entry block, and
  /// binds each dim to its argument. The rewriter's insertion point is left
  /// before `kernel`.
  cta::ProgramOp create(mlir::OpBuilder &builder, tile::KernelOp kernel,
                        target::Chip chip);

  /// The extent `dim` (a constant, a name, or an expression of one name:
  /// `K*2`, `M+1`, `cdiv(K,128)`) as an index value, its arithmetic built at
  /// the builder's insertion point; null for a name the program lacks.
  mlir::Value dimValue(mlir::OpBuilder &builder, mlir::Location loc,
                       llvm::StringRef dim) const;

  /// The program argument of kernel argument `value`.
  mlir::Value programArg(mlir::Value value) const;
  /// The program argument of the kernel's result `index`.
  mlir::Value resultArg(tile::KernelOp kernel, unsigned index) const;

  mlir::Block *entry = nullptr;

private:
  mlir::MLIRContext *ctx;
  llvm::SmallVector<mlir::Type> argTypes;
  llvm::SmallVector<mlir::NamedAttrList> argAttrs;
  /// Each symbolic dim and, once the entry block exists, its argument.
  llvm::MapVector<llvm::StringRef, mlir::Value> dims;
};

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_TILETOCTA_PROGRAMSIGNATURE_H
