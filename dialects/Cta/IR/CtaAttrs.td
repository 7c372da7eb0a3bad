//===- CtaAttrs.td - attributes of the cta dialect ------------------------===//

#ifndef KILN_CTA_ATTRS_TD
#define KILN_CTA_ATTRS_TD

include "dialects/Cta/IR/CtaDialect.td"

//===----------------------------------------------------------------------===//
// Shared-memory layout
//===----------------------------------------------------------------------===//

// The value is compiler/Target's SwizzleMode itself: the one definition of
// the swizzles that the TMA boxes, MMA descriptors and address math use, so
// the IR cannot name a swizzle the target does not know.
def Cta_SwizzleAttr : Cta_Attr<"Swizzle", "swizzle"> {
  let summary = "how 16-byte chunks of a buffer row are permuted";
  let description = [{
    `128B`, `64B`, `32B`: the 16-byte chunk index within each 128/64/32-byte
    row segment is XORed with the row index modulo 8, so that the eight rows
    of a core matrix fall in different banks. The same choice configures the
    TMA box that fills the buffer and the MMA descriptors that read it.
  }];
  let parameters = (ins AttrParameter<"::kiln::target::SwizzleMode",
                          "none, 32B, 64B or 128B">:$mode);
  let assemblyFormat = "`<` custom<SwizzleMode>($mode) `>`";
}

//===----------------------------------------------------------------------===//
// Register fragments
//===----------------------------------------------------------------------===//

def Cta_FragAcc : I32EnumAttrCase<"acc", 0>;
def Cta_FragLhs : I32EnumAttrCase<"lhs", 1>;
def Cta_FragRows : I32EnumAttrCase<"rows", 2>;
def Cta_FragCols : I32EnumAttrCase<"cols", 3>;

def Cta_FragLayout : I32EnumAttr<"FragLayout",
    "how a register fragment's elements are spread over the threads",
    [Cta_FragAcc, Cta_FragLhs, Cta_FragRows, Cta_FragCols]> {
  let cppNamespace = "::kiln::cta";
  let genSpecializedAttr = 0;
}

def Cta_FragLayoutAttr : EnumAttr<Cta_Dialect, Cta_FragLayout, "frag_layout"> {
  let summary = "the thread ownership of a register fragment";
  let description = [{
    - `acc`: the MMA accumulator layout of the chip (each thread owns the
      elements the MMA instruction writes to its registers);
    - `lhs`: the layout in which the MMA reads its left operand from
      registers (attention's `P @ V`);
    - `rows`: one value per row of an `acc` fragment, held by every thread
      that owns elements of that row (row maxima and sums);
    - `cols`: one value per column of an `acc` fragment, held by every
      thread that owns elements of that column.

    Which registers those are is a fact of the chip (`compiler/Target`); the
    IR only promises that fragments of one layout line up element for
    element.
  }];
  let assemblyFormat = "`<` $value `>`";
}

//===----------------------------------------------------------------------===//
// Tile walks, warp roles, epilogue inputs, reductions
//===----------------------------------------------------------------------===//

def Cta_WalkStatic : I32EnumAttrCase<"static_", 0, "static">;
def Cta_WalkBatched : I32EnumAttrCase<"batched", 1>;
def Cta_WalkGrouped : I32EnumAttrCase<"grouped", 2>;
def Cta_WalkStreamK : I32EnumAttrCase<"stream_k", 3>;

def Cta_WalkKind : I32EnumAttr<"WalkKind", "how a tile loop enumerates tiles",
    [Cta_WalkStatic, Cta_WalkBatched, Cta_WalkGrouped, Cta_WalkStreamK]> {
  let cppNamespace = "::kiln::cta";
}

def Cta_RoleProducer : I32EnumAttrCase<"producer", 0>;
def Cta_RoleMath : I32EnumAttrCase<"math", 1>;
def Cta_RoleMma : I32EnumAttrCase<"mma", 2>;
def Cta_RoleEpilogue : I32EnumAttrCase<"epilogue", 3>;

def Cta_RoleKind : I32EnumAttr<"RoleKind", "what a group of warps does",
    [Cta_RoleProducer, Cta_RoleMath, Cta_RoleMma, Cta_RoleEpilogue]> {
  let cppNamespace = "::kiln::cta";
  let genSpecializedAttr = 0;
}

def Cta_RoleAttr : Cta_Attr<"Role", "role"> {
  let summary = "one warp role of a cta.warp_specialize";
  let description = [{
    `kind` says what the role's warps do and so how its region runs:

    - `producer`: one elected thread issues the role's copies;
    - `math`: whole warpgroups own accumulators, run MMAs and epilogues
      (sm_90a's consumers);
    - `mma`: one thread issues MMAs whose accumulators live in tensor memory
      (sm_100a);
    - `epilogue`: whole warpgroups read accumulators and store them.

    `warps` is the role's size; `regs` (0: unchanged) the registers per
    thread the role resizes to (setmaxnreg on sm_90a), which needs whole
    warpgroups.

    ```mlir
    #cta.role<producer, warps = 4, regs = 40>
    ```
  }];
  let parameters = (ins EnumParameter<Cta_RoleKind>:$kind, "int64_t":$warps,
                        DefaultValuedParameter<"int64_t", "0">:$regs);
  let assemblyFormat = "`<` $kind `,` `warps` `=` $warps (`,` `regs` `=` $regs^)? `>`";
  let genVerifyDecl = 1;
}

def Cta_InputScalar : I32EnumAttrCase<"scalar", 0>;
def Cta_InputPerRow : I32EnumAttrCase<"per_row", 1>;
def Cta_InputPerCol : I32EnumAttrCase<"per_col", 2>;
def Cta_InputTile : I32EnumAttrCase<"tile", 3>;
def Cta_InputPerGroup : I32EnumAttrCase<"per_group", 4>;
def Cta_InputPerGroupCol : I32EnumAttrCase<"per_group_col", 5>;

def Cta_InputKind : I32EnumAttr<"InputKind",
    "how an epilogue input is indexed by the output element",
    [Cta_InputScalar, Cta_InputPerRow, Cta_InputPerCol, Cta_InputTile,
     Cta_InputPerGroup, Cta_InputPerGroupCol]> {
  let cppNamespace = "::kiln::cta";
}

def Cta_ReduceMax : I32EnumAttrCase<"max", 0>;
def Cta_ReduceSum : I32EnumAttrCase<"sum", 1>;

def Cta_ReduceKind : I32EnumAttr<"ReduceKind", "a row reduction",
    [Cta_ReduceMax, Cta_ReduceSum]> {
  let cppNamespace = "::kiln::cta";
}

def Cta_TurnWait : I32EnumAttrCase<"wait", 0>;
def Cta_TurnPass : I32EnumAttrCase<"pass", 1>;
def Cta_TurnStart : I32EnumAttrCase<"start", 2>;

def Cta_TurnKind : I32EnumAttr<"TurnKind", "a step of the math warpgroups' MMA turns",
    [Cta_TurnWait, Cta_TurnPass, Cta_TurnStart]> {
  let cppNamespace = "::kiln::cta";
}

//===----------------------------------------------------------------------===//
// The program boundary
//===----------------------------------------------------------------------===//

// The value is compiler/Target's Chip itself, whose ChipInfo says what the
// chip can do: the IR names the chip, the lowering asks the description.
def Cta_ChipAttr : Cta_Attr<"Chip", "chip"> {
  let summary = "the chip a program is lowered for";
  let description = [{
    ```mlir
    #cta.chip<sm_90a>
    #cta.chip<sm_100a>
    ```
  }];
  let parameters = (ins AttrParameter<"::kiln::target::Chip",
                          "sm_90a or sm_100a">:$chip);
  let assemblyFormat = "`<` custom<ChipName>($chip) `>`";
  let extraClassDeclaration = [{
    /// What the chip can do (compiler/Target/Chip.h).
    const ::kiln::target::ChipInfo &getInfo() const {
      return ::kiln::target::getChipInfo(getChip());
    }
  }];
}

def Cta_ParamAttr : Cta_Attr<"Param", "param"> {
  let summary = "a global tensor of the program, as the manifest describes it";
  let description = [{
    On each memref argument of a `cta.program` (attribute `cta.param`): the
    tensor's source name, its kind (`input`, `output`, `scale`, as
    `#tile.param`), one dim expression per axis (the manifest's shape: names
    bound at launch, constants, `E+1`, `cdiv(K,16)`), and for a scale tensor
    the tensor it scales and its block.

    ```mlir
    #cta.param<"a", input, [M, K]>
    #cta.param<"a.scale", scale, [cdiv(M, 128), cdiv(K, 64), 32, 16], of = "a", block = [1, 16]>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name,
                        "::kiln::tile::ParamKind":$kind,
                        ArrayRefParameter<"::kiln::tile::DimExprAttr">:$shape,
                        OptionalParameter<"::mlir::StringAttr">:$scale_of,
                        OptionalArrayRefParameter<"int64_t">:$block);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

def Cta_DimAttr : Cta_Attr<"Dim", "dim"> {
  let summary = "a symbolic extent the program takes as an index argument";
  let description = [{
    On each `index` argument of a `cta.program` (attribute `cta.dim`): the
    dim's name, which the tensors' shapes use and the launch binds.

    ```mlir
    %M: index {cta.dim = #cta.dim<M>}
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// The program's schedule
//===----------------------------------------------------------------------===//

def Cta_ScheduleAttr : Cta_Attr<"Schedule", "schedule"> {
  let summary = "how the program overlaps copies and math";
  let description = [{
    What `convert-tile-to-cta` decided and the `cta` passes need, in `cta`
    terms (no `cta` pass reads `#tile.*`):

    - `stages`: depth of the shared-memory ring that `cta-pipeline` builds;
    - `math_warpgroups`: warpgroups that split the tile's accumulator rows;
    - `acc_stages`: tensor-memory accumulator sets handed from the MMA warp
      to the epilogue warps (sm_100a; 2 overlaps a tile's epilogue with the
      next tile's MMAs; omitted when 1);
    - `pingpong`: each math warpgroup owns a whole tile (every second tile
      of the CTA's walk) instead of a slice of every tile's rows, and the
      two take turns issuing their K loops' MMAs, so one's epilogue overlaps
      the other's MMAs (sm_90a; omitted when false).

    ```mlir
    #cta.schedule<stages = 4, math_warpgroups = 2>
    #cta.schedule<stages = 4, math_warpgroups = 1, acc_stages = 2>
    #cta.schedule<stages = 5, math_warpgroups = 2, pingpong = true>
    ```
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$math_warpgroups,
                        DefaultValuedParameter<"int64_t", "1">:$acc_stages,
                        DefaultValuedParameter<"bool", "false">:$pingpong);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
}

#endif // KILN_CTA_ATTRS_TD
