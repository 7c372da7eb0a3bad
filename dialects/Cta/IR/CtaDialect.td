//===- CtaDialect.td - the cta dialect and its base classes ---------------===//
//
// The `cta` dialect says *how* one thread block (CTA) computes its tiles:
// shared-memory buffers with layouts, async tile copies, warpgroup MMAs on
// accumulators, epilogue stores, and - after `cta-pipeline` - a multi-stage
// ring of buffers shared by a producer role and consumer roles. It is
// target-neutral where it can be; only `convert-cta-to-nvvm{chip=...}` knows
// whether a copy is TMA and an MMA is wgmma or tcgen05.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_CTA_DIALECT_TD
#define KILN_CTA_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Cta_Dialect : Dialect {
  let name = "cta";
  let cppNamespace = "::kiln::cta";
  let summary = "How one thread block computes its tiles";
  let description = [{
    A `cta.program` is one kernel. Its body allocates shared-memory buffers
    (`cta.alloc`), walks output tiles (`cta.tile_loop`), runs a K loop
    (`cta.mainloop`) of async copies (`cta.load`) and MMAs (`cta.mma`) into
    accumulators, and stores each tile through an epilogue region
    (`cta.store`). `cta-assign-layouts` chooses each buffer's swizzle;
    `cta-pipeline` turns the K loop into a ring of stages (`cta.ring`) filled
    by a producer (`cta.produce`) and drained by consumers (`cta.consume`)
    running in separate warp roles (`cta.warp_specialize`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  // `cta.param` on a program's memref arguments and `cta.dim` on its index
  // arguments are typed; no other `cta.*` argument attribute exists.
  let hasRegionArgAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Registers the types and attributes (defined next to their storage).
    void registerTypes();
    void registerAttributes();
  }];
  // #cta.param's shapes are #tile.dim expressions.
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect",
                           "::kiln::tile::TileDialect"];
}

class Cta_Op<string mnemonic, list<Trait> traits = []>
    : Op<Cta_Dialect, mnemonic, traits>;

class Cta_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Cta_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

class Cta_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<Cta_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

#endif // KILN_CTA_DIALECT_TD
