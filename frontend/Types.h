//===- Types.h - element types and shapes of .kiln values -------*- C++ -*-===//
//
// The frontend's own view of types, independent of MLIR types so that the
// parser, Sema and the AST printer build no IR. Dims are kept in the canonical
// spelling of the tile dialect's #tile.dims encoding ("M", "128", "E+1",
// "cdiv(K,128)"), so the dialect's helpers (tile::getConstantDim,
// tile::formatDims) apply to them: two extents are the same exactly when
// their spellings are.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_FRONTEND_TYPES_H
#define KILN_FRONTEND_TYPES_H

#include "compiler/Target/ElementType.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace kiln {

/// Element types. `I1` is the type of comparisons, `Index` that of the
/// indices a mask or score-modifier lambda receives; neither can be declared.
enum class ElemType { BF16, F16, F32, I32, E4M3, E5M2, E2M1, UE8M0, I1, Index };

/// The storage type of a declarable dtype in compiler/Target's element-type
/// table (which owns the names and widths); nullopt for I1 and Index.
std::optional<target::ElementType> getStorageType(ElemType type);
/// The source spelling of a dtype ("bf16", "e4m3", ...).
llvm::StringRef getDTypeName(ElemType type);
/// Plain (non-shorthand) dtype names; nullopt for anything else.
std::optional<ElemType> parsePlainDType(llvm::StringRef name);
/// Bits per element (index counts as 64).
unsigned getBitWidth(ElemType type);
bool isFloat(ElemType type);
/// 8- and 4-bit floats, which only matmuls and casts may read.
bool isNarrowFloat(ElemType type);

/// One scale per `rows x cols` block of the last two axes.
struct BlockScale {
  ElemType dtype = ElemType::F32;
  int64_t rows = 1;
  int64_t cols = 1;
};

/// The resolved type of a declared tensor (a parameter or an output).
struct TensorType {
  ElemType dtype = ElemType::F32;
  llvm::SmallVector<std::string, 4> shape;
  std::optional<BlockScale> scale;
};

/// "bf16[M, K]", with " scaled(f32, 1x128)" for block-scaled tensors.
std::string formatType(const TensorType &type);

/// A number as messages show it: "3", "0.5", "inf".
std::string formatNumber(double value, bool isInteger);

/// The type Sema infers for an expression.
struct ValueType {
  enum class Kind {
    Invalid, ///< an error was reported; suppresses follow-on errors
    Tensor,  ///< a whole tensor
    Scalar,  ///< one element (inside a lambda)
    Number,  ///< a literal, folded; takes the type of what it combines with
  };
  Kind kind = Kind::Invalid;
  ElemType dtype = ElemType::F32;
  llvm::SmallVector<std::string, 4> shape;
  double number = 0;
  bool isInteger = false;

  static ValueType invalid() { return {}; }
  static ValueType tensor(ElemType dtype, llvm::ArrayRef<std::string> shape) {
    ValueType t;
    t.kind = Kind::Tensor;
    t.dtype = dtype;
    t.shape.assign(shape.begin(), shape.end());
    return t;
  }
  static ValueType scalar(ElemType dtype) {
    ValueType t;
    t.kind = Kind::Scalar;
    t.dtype = dtype;
    return t;
  }
  static ValueType literal(double value, bool isInteger) {
    ValueType t;
    t.kind = Kind::Number;
    t.number = value;
    t.isInteger = isInteger;
    return t;
  }

  bool isInvalid() const { return kind == Kind::Invalid; }
  bool isTensor() const { return kind == Kind::Tensor; }
  bool isScalar() const { return kind == Kind::Scalar; }
  bool isNumber() const { return kind == Kind::Number; }
  /// "bf16[M, N]", "f32", "number 0.5".
  std::string str() const;
};

} // namespace kiln

#endif // KILN_FRONTEND_TYPES_H
