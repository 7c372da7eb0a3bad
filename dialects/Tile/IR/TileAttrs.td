//===- TileAttrs.td - attributes of the tile dialect ----------------------===//

#ifndef KILN_TILE_ATTRS_TD
#define KILN_TILE_ATTRS_TD

include "dialects/Tile/IR/TileDialect.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/TensorEncoding.td"

def Tile_DimExprAttr : Tile_Attr<"DimExpr", "dim"> {
  let summary = "one symbolic extent: a structured dim expression";
  let description = [{
    A constant (`128`), a name bound at launch (`M`), a name with a constant
    offset or factor (`E+1`, `M-1`, `H*2`) or a ceiling division
    (`cdiv(K,128)`). The fields are those of `kiln::DimExpr`
    (runtime/DimExpr.h), the one definition the manifest and the runtime
    use; the text form is parsed by its parser, so the compiler accepts
    exactly the extents the runtime can evaluate. Usually seen inside
    `#tile.dims`; alone it prints quoted:

    ```mlir
    #tile.dim<"cdiv(K,128)">
    ```
  }];
  let parameters = (ins "::kiln::DimExpr::Kind":$kind, "::mlir::StringAttr":$name,
                        "int64_t":$value);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    static DimExprAttr get(::mlir::MLIRContext *ctx, const ::kiln::DimExpr &expr);
    /// The expression as the shared C++ value.
    ::kiln::DimExpr getExpr() const;
    /// The canonical spelling (`cdiv(K,128)`), the manifest's.
    std::string str() const { return getExpr().str(); }
    /// The value of a constant extent.
    std::optional<int64_t> getConstant() const;
  }];
}

def Tile_DimsAttr : Tile_Attr<"Dims", "dims",
    [DeclareAttrInterfaceMethods<VerifiableTensorEncoding>]> {
  let summary = "symbolic extents of a tensor, used as its encoding";
  let description = [{
    One dim expression per axis: a name bound at launch (`M`), a constant
    (`128`), a name with a constant offset or factor (`E+1`, `H*2`), or a
    ceiling division (`cdiv(K,128)`, the extent of a block-scale tensor).
    Two axes with the same expression have the same extent.

    ```mlir
    tensor<?x?xbf16, #tile.dims<M, K>>
    tensor<?xi32, #tile.dims<E+1>>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"DimExprAttr", "dim expressions">:$dims);
  let hasCustomAssemblyFormat = 1;
}

//===----------------------------------------------------------------------===//
// The kernel boundary
//===----------------------------------------------------------------------===//

def Tile_ParamInput : I32EnumAttrCase<"input", 0>;
def Tile_ParamOutput : I32EnumAttrCase<"output", 1>;
def Tile_ParamScale : I32EnumAttrCase<"scale", 2>;

// Shared with the cta dialect's #cta.param and the manifest's param roles.
def Tile_ParamKind : I32EnumAttr<"ParamKind",
    "what a kernel tensor is to its caller",
    [Tile_ParamInput, Tile_ParamOutput, Tile_ParamScale]> {
  let cppNamespace = "::kiln::tile";
  let genSpecializedAttr = 0;
}

def Tile_ParamAttr : Tile_Attr<"Param", "param"> {
  let summary = "a kernel tensor as the caller sees it";
  let description = [{
    On each argument and result of a `tile.kernel` (attribute `tile.param`):
    the tensor's source name and whether it is an input, an output or the
    block-scale tensor of an input (`of` names that input, `block` is the
    `rows x K` block one scale covers).

    ```mlir
    #tile.param<"a", input>
    #tile.param<"a.scale", scale, of = "a", block = [1, 16]>
    #tile.param<"c", output>
    ```
  }];
  let parameters = (ins "::mlir::StringAttr":$name,
                        EnumParameter<Tile_ParamKind>:$kind,
                        OptionalParameter<"::mlir::StringAttr">:$scale_of,
                        OptionalArrayRefParameter<"int64_t">:$block);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$name, "ParamKind":$kind), [{
      return $_get($_ctxt, ::mlir::StringAttr::get($_ctxt, name), kind,
                   ::mlir::StringAttr(), ::llvm::ArrayRef<int64_t>());
    }]>
  ];
}

def Tile_HintsAttr : Tile_Attr<"Hints", "hints"> {
  let summary = "the user's @schedule(...) hints";
  let description = [{
    What `@schedule(...)` pinned, on a `tile.kernel` (its `hints`);
    `tile-select-schedule` chooses the rest. Each field is optional and
    checked as the frontend checks the hint: `tile = [BM, BN]` or
    `[BM, BN, BK]`, `cluster = [CM, CN]`, `stages`, `consumers`, `group_m`
    and `acc_stages` positive, `persistent`, `stream_k`, `pingpong` and
    `split_k` flags.

    ```mlir
    #tile.hints<tile = [128, 128, 64], stages = 3, persistent = false>
    ```
  }];
  let parameters = (ins OptionalArrayRefParameter<"int64_t">:$tile,
                        OptionalParameter<"std::optional<int64_t>">:$stages,
                        OptionalArrayRefParameter<"int64_t">:$cluster,
                        OptionalParameter<"std::optional<int64_t>">:$consumers,
                        OptionalParameter<"std::optional<bool>">:$persistent,
                        OptionalParameter<"std::optional<int64_t>">:$group_m,
                        OptionalParameter<"std::optional<bool>">:$stream_k,
                        OptionalParameter<"std::optional<int64_t>">:$acc_stages,
                        OptionalParameter<"std::optional<bool>">:$pingpong,
                        OptionalParameter<"std::optional<bool>">:$split_k);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The names of the hints given, in the language's spelling.
    ::llvm::SmallVector<::llvm::StringRef> getGivenNames() const;
  }];
}

def Tile_ScheduleAttr : Tile_Attr<"Schedule", "schedule"> {
  let summary = "how a contraction is mapped onto thread blocks";
  let description = [{
    Chosen by `tile-select-schedule` (or pinned by `@schedule(...)` hints) and
    consumed by `convert-tile-to-cta`:

    - `tile_m` x `tile_n` x `tile_k`: the CTA tile and the K step of one stage;
    - `stages`: depth of the shared-memory ring;
    - `cluster_m` x `cluster_n`: CTAs per cluster (operands shared across the
      cluster are multicast);
    - `consumers`: math warpgroups (each owns `tile_m / consumers` rows);
    - `persistent`: one CTA per SM walking tiles, vs one CTA per tile;
    - `group_m`: tiles per raster group along M (L2 reuse);
    - `stream_k`: the last tiles' K steps are spread over every SM (a
      persistent walk only; omitted when false);
    - `acc_stages`: accumulators in flight between the MMAs and the epilogue
      (sm_100a: 2 lets the epilogue of one tile overlap the next tile's
      MMAs; omitted when 1);
    - `pingpong`: each of the two math warpgroups owns a whole tile, and
      they take turns (sm_90a): one's epilogue overlaps the other's MMAs
      (omitted when false);
    - `split_k`: the tiles of a partial last wave (every tile, when there
      are at most half as many as clusters) are split into two K halves run
      at the same time by two clusters and summed in a fixed order (a
      persistent walk only; omitted when false).

    ```mlir
    #tile.schedule<tile_m = 128, tile_n = 256, tile_k = 64, stages = 4,
                   cluster_m = 2, cluster_n = 1, consumers = 2,
                   persistent = true, group_m = 8>
    ```
  }];
  let parameters = (ins "int64_t":$tile_m, "int64_t":$tile_n, "int64_t":$tile_k,
                        "int64_t":$stages, "int64_t":$cluster_m, "int64_t":$cluster_n,
                        "int64_t":$consumers, "bool":$persistent, "int64_t":$group_m,
                        DefaultValuedParameter<"bool", "false">:$stream_k,
                        DefaultValuedParameter<"int64_t", "1">:$acc_stages,
                        DefaultValuedParameter<"bool", "false">:$pingpong,
                        DefaultValuedParameter<"bool", "false">:$split_k);
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Columns of the epilogue's staging buffer for output elements of
    /// `elementBits` bits: the tile's width, capped at two 128-byte swizzle
    /// spans (wider tiles stream through it block by block).
    /// tile-select-schedule budgets shared memory with it and
    /// convert-tile-to-cta allocates it, so the two cannot disagree.
    static int64_t stagingColumns(int64_t tileN, int64_t elementBits);
    int64_t getStagingColumns(int64_t elementBits) const {
      return stagingColumns(getTileN(), elementBits);
    }
  }];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

def Tile_ReduceSum : I32EnumAttrCase<"sum", 0>;
def Tile_ReduceMax : I32EnumAttrCase<"max", 1>;
def Tile_ReduceLogSumExp : I32EnumAttrCase<"logsumexp", 2>;

def Tile_ReduceKind : I32EnumAttr<"ReduceKind", "what a tile.reduce computes",
    [Tile_ReduceSum, Tile_ReduceMax, Tile_ReduceLogSumExp]> {
  let cppNamespace = "::kiln::tile";
  let genSpecializedAttr = 0;
}

def Tile_ReduceKindAttr : EnumAttr<Tile_Dialect, Tile_ReduceKind,
                                   "reduce_kind"> {
  let summary = "the reduction of a tile.reduce";
  let description = [{
    - `sum`, `max`: as named (`max` propagates NaN);
    - `logsumexp`: `log(sum(exp(x)))`, computed without overflow
      (`m + log(sum(exp(x - m)))` with `m` the maximum); `-inf` when every
      element is `-inf` (attention's masked rows), as `torch.logsumexp`.

    In a `tile.reduce` it is written bare: `tile.reduce sum %x axis = 1`.
  }];
}

//===----------------------------------------------------------------------===//
// Attention
//===----------------------------------------------------------------------===//

def Tile_AttentionMaskNone : I32EnumAttrCase<"none", 0>;
def Tile_AttentionMaskCausal : I32EnumAttrCase<"causal", 1>;

def Tile_AttentionMask : I32EnumAttr<"AttentionMask",
    "the mask a tile.attention applies by itself",
    [Tile_AttentionMaskNone, Tile_AttentionMaskCausal]> {
  let cppNamespace = "::kiln::tile";
  let genSpecializedAttr = 0;
}

def Tile_AttentionMaskAttr : EnumAttr<Tile_Dialect, Tile_AttentionMask,
                                      "attention_mask"> {
  let summary = "the built-in mask of a tile.attention";
  let description = [{
    - `none`: no built-in mask (a predicate region may still mask);
    - `causal`: query row `i` keeps key column `j <= i`, top-left aligned
      as `torch.nn.functional.scaled_dot_product_attention(is_causal=True)`.

    In a `tile.attention` it is written bare: `mask_kind = causal`.
  }];
}

#endif // KILN_TILE_ATTRS_TD
