//===- DimExpr.h - Symbolic extents: one parser for compiler and runtime -*- C++ -*-===//
//
// A tensor's extents are dim expressions: `128`, `M`, `M+1`, `M-1`, `M*2`,
// `cdiv(M,128)`. The frontend writes them, the tile dialect carries them
// (#tile.dims holds them as structured attributes built by this parser), the
// manifest records them and the runtime evaluates them against the caller's
// tensors. This is their one definition: plain C++ (no MLIR, no JSON, no
// exceptions), so the compiler and the standalone runtime share it.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_RUNTIME_DIMEXPR_H
#define KILN_RUNTIME_DIMEXPR_H

#include <cstdint>
#include <string>
#include <string_view>

namespace kiln {

/// Whether `s` is a dim name: a letter or `_`, then letters, digits, `_`.
bool isDimName(std::string_view s);

/// One extent in a shape: `128`, `M`, `M+1`, `M-1`, `M*2` or `cdiv(M,128)`. At
/// most one dim name appears, so evaluation needs only that name's value.
struct DimExpr {
  enum class Kind : uint8_t { Const, Name, Add, Sub, Mul, CeilDiv };
  Kind kind = Kind::Const;
  /// The dim name; empty for `Const`.
  std::string name;
  /// The constant of `Const`, or the integer operand of the other non-`Name`
  /// kinds.
  int64_t value = 0;

  static DimExpr constant(int64_t v) { return {Kind::Const, "", v}; }
  static DimExpr dim(std::string n) { return {Kind::Name, std::move(n), 0}; }
  static DimExpr make(Kind k, std::string n, int64_t v) {
    return {k, std::move(n), v};
  }

  /// Parses the manifest spelling (spaces are ignored). Fails with a message on
  /// anything else, on negative constants and on `cdiv` by a non-positive
  /// integer.
  static bool parse(std::string_view text, DimExpr &out, std::string &error);
  /// The canonical manifest spelling, e.g. `cdiv(K,128)`; `parse(str())` gives
  /// back `*this`.
  std::string str() const;
  /// True for a bare name, the form that binds a dim first.
  bool isPlainName() const { return kind == Kind::Name; }
  /// True for a name plus or minus a constant (`B+1`): it binds its dim
  /// (extent - 1) where no bare occurrence does (the offsets `i32[B+1]` of
  /// packed sequences, the only tensor that names B).
  bool isShiftedName() const { return kind == Kind::Add || kind == Kind::Sub; }
  /// True for a name times a constant (`K*2`): it binds its dim (extent / 2)
  /// where neither a bare nor a shifted occurrence does; an extent that is
  /// not a multiple then fails the shape check (K*2 = 6 for an extent of 7).
  bool isScaledName() const { return kind == Kind::Mul && value > 0; }
  /// The dim value an extent of a plain, shifted or scaled name gives.
  int64_t invert(int64_t extent) const {
    return kind == Kind::Add   ? extent - value
           : kind == Kind::Sub ? extent + value
           : kind == Kind::Mul && value > 0 ? extent / value
                                            : extent;
  }
  /// Evaluates the expression with its name bound to `nameValue` (ignored for
  /// `Const`). Fails on int64 overflow; the result may be negative (`M-4` with
  /// M = 2): callers reject that.
  bool evaluate(int64_t nameValue, int64_t &out) const;

  bool operator==(const DimExpr &o) const {
    return kind == o.kind && name == o.name && value == o.value;
  }
  bool operator!=(const DimExpr &o) const { return !(*this == o); }
};

} // namespace kiln

#endif // KILN_RUNTIME_DIMEXPR_H
