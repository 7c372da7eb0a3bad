//===- TileDialect.td - the tile dialect and its base classes -------------===//
//
// The `tile` dialect says *what* a kernel computes, on whole tensors with value
// semantics. Shapes are builtin ranked tensors whose encoding attribute
// (#tile.dims) names each extent symbolically, so verifiers can check that the
// `K` of one operand is the `K` of the other even though both are dynamic.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_TILE_DIALECT_TD
#define KILN_TILE_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Tile_Dialect : Dialect {
  let name = "tile";
  let cppNamespace = "::kiln::tile";
  let summary = "What a Kiln kernel computes: whole-tensor ops with symbolic dims";
  let description = [{
    The `tile` dialect is the first IR of a Kiln kernel. A `tile.kernel` takes
    tensors and returns tensors; its body is a DAG of contractions
    (`tile.matmul`, `tile.scaled_matmul`, `tile.grouped_matmul`), elementwise
    maps (`tile.map`), reductions, softmax and masks. Fusion passes rewrite
    these into `tile.contract` (one K loop, several accumulators, an epilogue
    region), which `convert-tile-to-cta` tiles onto thread blocks, and
    attention into one `tile.attention`.

    Tensor types are builtin `tensor<...>` with a `#tile.dims<...>` encoding
    naming each extent: `tensor<?x?xbf16, #tile.dims<M, K>>`.
  }];
  let useDefaultAttributePrinterParser = 1;
  // `tile.param` on a kernel's arguments and results is a #tile.param, and
  // no other `tile.*` attribute exists there.
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the attributes (defined next to their storage in TileAttrs.cpp).
    void registerAttributes();
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::math::MathDialect"];
}

class Tile_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tile_Dialect, mnemonic, traits>;

class Tile_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Tile_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // KILN_TILE_DIALECT_TD
