//===- TileOps.td - operations of the tile dialect ------------------------===//

#ifndef KILN_TILE_OPS_TD
#define KILN_TILE_OPS_TD

include "dialects/Tile/IR/TileDialect.td"
include "dialects/Tile/IR/TileAttrs.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/CommonTypeConstraints.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Tile_MmaElement : AnyTypeOf<[BF16, F16, F32, F8E4M3FN, F8E5M2, F4E2M1FN],
                                 "bf16, f16, f32, e4m3, e5m2 or e2m1">;
def Tile_ScaleElement : AnyTypeOf<[F32, F8E4M3FN, F8E8M0FNU], "f32, e4m3 or ue8m0">;
def Tile_Tensor : RankedTensorOf<[AnyType]>;
def Tile_MmaTensor : RankedTensorOf<[Tile_MmaElement]>;
def Tile_ScaleTensor : RankedTensorOf<[Tile_ScaleElement]>;
def Tile_FloatTensor : RankedTensorOf<[AnyFloat]>;
def Tile_F32Tensor : RankedTensorOf<[F32]>;
def Tile_OffsetsTensor : RankedTensorOf<[I32]>;

//===----------------------------------------------------------------------===//
// Kernel structure
//===----------------------------------------------------------------------===//

def Tile_KernelOp : Tile_Op<"kernel", [
    FunctionOpInterface, IsolatedFromAbove, Symbol, SingleBlock,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a Kiln kernel: tensors in, tensors out";
  let description = [{
    The unit of compilation. Arguments are the kernel's input tensors (a
    block-scaled input contributes its data tensor and then its scale tensor);
    results are its outputs. Each argument and result carries a `tile.param`
    (`#tile.param`: its source name and kind; without one, an argument is an
    input named `arg<i>` and a result an output `out<i>`). The kernel's own
    attributes:

    - `hints`: the user's `@schedule(...)` hints (`#tile.hints`);
    - `tile_cost`: the relative time one CTA takes for one tile, set by
      `tile-select-schedule`; the runtime ranks a kernel's variants by it;
    - `tail_cost`: a relative time added once per launch (a ping-pong
      kernel's last epilogue, which no next tile hides), in `tile_cost`'s
      unit;
    - `variant_of`: the kernel this one is another compilation of (a variant
      with another tile), which must be a kernel of the module with the same
      signature;
    - `tmem_columns`: tensor-memory columns the schedule uses (sm_100a).

    ```mlir
    tile.kernel @matmul(%a: tensor<?x?xbf16, #tile.dims<M, K>> {tile.param = #tile.param<"a", input>},
                        %b: tensor<?x?xbf16, #tile.dims<N, K>> {tile.param = #tile.param<"b", input>})
        -> (tensor<?x?xbf16, #tile.dims<M, N>> {tile.param = #tile.param<"c", output>}) {
      %0 = tile.matmul %a, %b {transpose_b} : tensor<?x?xbf16, #tile.dims<M, K>>,
          tensor<?x?xbf16, #tile.dims<N, K>> -> tensor<?x?xf32, #tile.dims<M, N>>
      ...
      tile.return %1 : tensor<?x?xbf16, #tile.dims<M, N>>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<Tile_HintsAttr>:$hints,
                       OptionalAttr<F64Attr>:$tile_cost,
                       OptionalAttr<F64Attr>:$tail_cost,
                       OptionalAttr<FlatSymbolRefAttr>:$variant_of,
                       OptionalAttr<I64Attr>:$tmem_columns);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let builders = [
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::FunctionType":$type), [{
      $_state.addAttribute(getSymNameAttrName($_state.name),
                           $_builder.getStringAttr(name));
      $_state.addAttribute(getFunctionTypeAttrName($_state.name),
                           ::mlir::TypeAttr::get(type));
      $_state.addRegion();
    }]>
  ];
  let extraClassDeclaration = [{
    /// FunctionOpInterface hooks.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// The `tile.param` of argument `i`; without one, an input named
    /// `arg<i>` (hand-written IR may leave it out).
    ParamAttr getArgParam(unsigned i);
    /// The `tile.param` of result `i`; without one, an output `out<i>`.
    ParamAttr getResultParam(unsigned i);
    /// The source name of argument `i`.
    ::llvm::StringRef getArgName(unsigned i);
    /// The source name of result `i`.
    ::llvm::StringRef getResultName(unsigned i);
    /// The attribute name of a kernel tensor's `#tile.param`.
    static constexpr ::llvm::StringLiteral kParamAttrName = "tile.param";
  }];
}

def Tile_ReturnOp : Tile_Op<"return", [Pure, HasParent<"KernelOp">, Terminator, ReturnLike]> {
  let summary = "the kernel's outputs";
  let arguments = (ins Variadic<Tile_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 1;
}

def Tile_YieldOp : Tile_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["MapOp", "MaskOp", "ScoreModOp", "ContractOp", "AttentionOp"]>]> {
  let summary = "the scalar result of an elementwise region";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "$values attr-dict `:` type($values)";
}

//===----------------------------------------------------------------------===//
// Contractions
//===----------------------------------------------------------------------===//

def Tile_MatmulOp : Tile_Op<"matmul", [Pure]> {
  let summary = "matrix product with f32 accumulation";
  let description = [{
    `lhs @ rhs` over the last two axes; leading (batch) axes broadcast.
    `transpose_a` / `transpose_b` read an operand with its last two axes
    swapped, which changes only how it is loaded (`b^T` in the language: B
    stored `[N, K]` as nn.Linear weights are). The result is f32.
  }];
  let arguments = (ins Tile_MmaTensor:$lhs, Tile_MmaTensor:$rhs,
                       UnitAttr:$transpose_a, UnitAttr:$transpose_b);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_ScaledMatmulOp : Tile_Op<"scaled_matmul", [Pure]> {
  let summary = "matrix product of block-scaled operands";
  let description = [{
    Each operand comes with a scale tensor holding one scale per
    `lhs_block` / `rhs_block` block of its two axes (e.g. fp8 activations
    with one f32 per 1x128, weights with one per 128x128; NVFP4 with one
    e4m3 per 1x16; MXFP8 with one ue8m0 per 1x32). The product is
    `sum_k (lhs[m,k] * lhs_scale[m/bm, k/bk]) * (rhs[k,n] * rhs_scale[...])`
    in f32.
  }];
  let arguments = (ins Tile_MmaTensor:$lhs, Tile_ScaleTensor:$lhs_scale,
                       Tile_MmaTensor:$rhs, Tile_ScaleTensor:$rhs_scale,
                       DenseI64ArrayAttr:$lhs_block, DenseI64ArrayAttr:$rhs_block,
                       UnitAttr:$transpose_b);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $lhs_scale `,` $rhs `,` $rhs_scale attr-dict `:`
    type($lhs) `,` type($lhs_scale) `,` type($rhs) `,` type($rhs_scale) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_GroupedMatmulOp : Tile_Op<"grouped_matmul", [Pure, AttrSizedOperandSegments]> {
  let summary = "per-group matrix product (mixture of experts)";
  let description = [{
    `lhs` is `[T, K]`, `rhs` is `[E, K, N]` (`[E, N, K]` with `transpose_b`),
    `offsets` is `i32[E+1]`: rows `offsets[e] .. offsets[e+1]` of `lhs`
    multiply `rhs[e]`. The result is `[T, N]` in f32.

    Block-scaled operands (MXFP8, NVFP4 experts) come with their scale
    tensors, one scale per `lhs_block` / `rhs_block` block of the last two
    axes (`rhs` is then `[E, N, K]`, its scales `[E, N / bn, K / bk]`):

    ```mlir
    %y = tile.grouped_matmul %x, %w, %offsets scales(%xs, %ws : ...)
        {lhs_block = array<i64: 1, 32>, rhs_block = array<i64: 1, 32>, transpose_b} : ...
    ```
  }];
  let arguments = (ins Tile_MmaTensor:$lhs, Tile_MmaTensor:$rhs,
                       Tile_OffsetsTensor:$offsets,
                       Optional<Tile_ScaleTensor>:$lhs_scale,
                       Optional<Tile_ScaleTensor>:$rhs_scale,
                       UnitAttr:$transpose_b,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_block,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_block);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $offsets
    (`scales` `(` $lhs_scale^ `,` $rhs_scale `:` type($lhs_scale) `,` type($rhs_scale) `)`)?
    attr-dict `:` type($lhs) `,` type($rhs) `,` type($offsets) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_PerGroupOp : Tile_Op<"per_group", [Pure]> {
  let summary = "one row of a per-group tensor for each row of its group";
  let description = [{
    `input` is `[E, X]` (one row per group, `X` a column extent or 1),
    `offsets` is `i32[E+1]`: row `t` of the `[T, X]` result is
    `input[e]` for the group `e` with `offsets[e] <= t < offsets[e+1]`
    (a mixture of experts' per-expert bias or scale). It lowers only as an
    epilogue input of a grouped contraction with the same offsets, whose
    store reads `input` at the tile's group.

    ```mlir
    %bt = tile.per_group %b, %offsets : tensor<?x?xbf16, #tile.dims<E, N>>,
        tensor<?xi32, #tile.dims<E+1>> -> tensor<?x?xbf16, #tile.dims<T, N>>
    ```
  }];
  let arguments = (ins Tile_Tensor:$input, Tile_OffsetsTensor:$offsets);
  let results = (outs Tile_Tensor:$result);
  let assemblyFormat = [{
    $input `,` $offsets attr-dict `:` type($input) `,` type($offsets) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_SegmentedMatmulOp : Tile_Op<"segmented_matmul", [Pure]> {
  let summary = "products within paired row segments (varlen attention's scores)";
  let description = [{
    `lhs` is `[.., S, D]`, `rhs` `[.., T, D]` (read transposed), the offsets
    `i32[B+1]` each: segment `b` is rows `lhs_offsets[b] .. lhs_offsets[b+1]`
    of `lhs` and rows `rhs_offsets[b] .. rhs_offsets[b+1]` of `rhs` (packed
    variable-length sequences). The result `[.., S, T]` (f32) holds
    `lhs[i] . rhs[j]` where `i` and `j` lie in the same segment; every other
    pair is masked (`-inf`, as `tile.mask` drops), so a softmax over it sees
    only its own sequence's keys, and a row of `lhs` outside every segment
    has no score. Masks and score modifiers of these scores see the indices
    within the segment (`i - lhs_offsets[b]`, `j - rhs_offsets[b]`): `causal`
    is causal per sequence. Leading axes of `rhs` are `lhs`'s or 1.

    ```mlir
    %s = tile.segmented_matmul %q, %k segments(%cu_q, %cu_k)
        : tensor<?x?x128xbf16, #tile.dims<H, S, 128>>, tensor<?x?x128xbf16, #tile.dims<H, T, 128>>,
          tensor<?xi32, #tile.dims<B+1>>, tensor<?xi32, #tile.dims<B+1>>
        -> tensor<?x?x?xf32, #tile.dims<H, S, T>>
    ```
  }];
  let arguments = (ins Tile_MmaTensor:$lhs, Tile_MmaTensor:$rhs,
                       Tile_OffsetsTensor:$lhs_offsets,
                       Tile_OffsetsTensor:$rhs_offsets);
  let results = (outs Tile_F32Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `segments` `(` $lhs_offsets `,` $rhs_offsets `)` attr-dict
    `:` type($lhs) `,` type($rhs) `,` type($lhs_offsets) `,` type($rhs_offsets)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_MmaAttr : Tile_Attr<"Mma", "mma"> {
  let summary = "one accumulator of a tile.contract";
  let description = [{
    Which operands of the `tile.contract` this accumulator multiplies
    (`lhs`, `rhs` index its `inputs`) and how each is read. Block-scaled
    operands (NVFP4, MXFP8; fp8 with f32 scales) also name their scale
    tensors (`lhs_scale`, `rhs_scale`: `[rows, cdiv(K, scale_block)]`, one
    scale per row and `scale_block` K elements; the rhs's rows in blocks of
    `rhs_scale_rows`, `[cdiv(N, rhs_scale_rows), cdiv(K, scale_block)]`, as
    DeepSeek's 128x128 weight blocks); -1 and 0 when the product is not
    scaled.
  }];
  let parameters = (ins "unsigned":$lhs, "unsigned":$rhs,
                        "bool":$transpose_a, "bool":$transpose_b,
                        DefaultValuedParameter<"int64_t", "-1">:$lhs_scale,
                        DefaultValuedParameter<"int64_t", "-1">:$rhs_scale,
                        DefaultValuedParameter<"int64_t", "0">:$scale_block,
                        DefaultValuedParameter<"int64_t", "1">:$rhs_scale_rows);
  let assemblyFormat = "`<` struct(params) `>`";
  let builders = [
    AttrBuilder<(ins "unsigned":$lhs, "unsigned":$rhs, "bool":$transpose_a,
                     "bool":$transpose_b), [{
      return $_get($_ctxt, lhs, rhs, transpose_a, transpose_b, -1, -1, 0, 1);
    }]>,
    AttrBuilder<(ins "unsigned":$lhs, "unsigned":$rhs, "bool":$transpose_a,
                     "bool":$transpose_b, "int64_t":$lhs_scale,
                     "int64_t":$rhs_scale, "int64_t":$scale_block), [{
      return $_get($_ctxt, lhs, rhs, transpose_a, transpose_b, lhs_scale,
                   rhs_scale, scale_block, 1);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Whether the operands carry block scales.
    bool isBlockScaled() const { return getScaleBlock() > 0; }
  }];
}

def Tile_ContractOp : Tile_Op<"contract", [AttrSizedOperandSegments]> {
  let summary = "one K loop, several accumulators, a fused epilogue";
  let description = [{
    The fused form of one or more contractions that share their output tile
    and K loop. Each entry of `contractions` defines an f32 accumulator
    `acc_i = inputs[lhs] @ inputs[rhs]`. The epilogue region receives the
    accumulators' elements, then one element of each `epilogue_inputs`
    tensor (broadcast to the output shape), and yields one element per
    output (all outputs share the tile's `[M, N]` dims).

    A plain matmul with a bf16 output:
    ```mlir
    %c = tile.contract (%a, %b : tensor<?x?xbf16, #tile.dims<M, K>>,
                                 tensor<?x?xbf16, #tile.dims<N, K>>)
        [#tile.mma<lhs = 0, rhs = 1, transpose_a = false, transpose_b = true>]
        -> tensor<?x?xbf16, #tile.dims<M, N>> {
    ^bb0(%acc: f32):
      %t = arith.truncf %acc : f32 to bf16
      tile.yield %t : bf16
    }
    ```
    A SwiGLU dual GEMM has two entries sharing `lhs = 0`; two products of
    one `x` written to two outputs yield two values.

    With `groups(%offsets)` (`i32[E+1]`, mixture of experts) the products
    are grouped: every rhs is `[E, N, K]` (read transposed) and rows
    `offsets[e] .. offsets[e+1]` of the `[T, K]` lhs multiply `rhs[e]`
    (`tile.grouped_matmul`); the outputs are `[T, N]`, rows outside every
    group unwritten.
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs,
                       Variadic<Tile_Tensor>:$epilogue_inputs,
                       Optional<Tile_OffsetsTensor>:$groups,
                       TypedArrayAttrBase<Tile_MmaAttr, "contractions">:$contractions,
                       OptionalAttr<Tile_ScheduleAttr>:$schedule);
  let results = (outs Variadic<Tile_Tensor>:$outputs);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    `(` $inputs `:` type($inputs) `)`
    (`groups` `(` $groups^ `:` type($groups) `)`)?
    (`epilogue_inputs` `(` $epilogue_inputs^ `:` type($epilogue_inputs) `)`)?
    $contractions attr-dict `->` type($outputs) $epilogue
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The (M, N, K) dim expressions shared by every accumulator.
    ::llvm::SmallVector<::mlir::StringAttr, 3> getMNK();
    /// The scale rules of contraction `index` (part of the verifier).
    ::mlir::LogicalResult verifyContractionScales(size_t index,
                                                  ::kiln::tile::MmaAttr mma);
  }];
}

//===----------------------------------------------------------------------===//
// Elementwise, reductions, attention pieces
//===----------------------------------------------------------------------===//

def Tile_MapOp : Tile_Op<"map", [Pure]> {
  let summary = "elementwise computation with broadcasting";
  let description = [{
    Applies the region to each element of the result. Inputs broadcast
    numpy-style: axes align at the right and an input extent must equal the
    result's or be the constant 1. The region takes one scalar per input
    (its element type) and yields the result's element type; it may use any
    `arith` or `math` op.

    ```mlir
    %y = tile.map %x, %bias : tensor<?x?xf32, #tile.dims<M, N>>, tensor<?xbf16, #tile.dims<N>>
        -> tensor<?x?xf32, #tile.dims<M, N>> {
    ^bb0(%u: f32, %v: bf16):
      %w = arith.extf %v : bf16 to f32
      %s = arith.addf %u, %w : f32
      tile.yield %s : f32
    }
    ```
  }];
  let arguments = (ins Variadic<Tile_Tensor>:$inputs);
  let results = (outs Tile_Tensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($result) $body";
  let hasVerifier = 1;
}

def Tile_ReduceOp : Tile_Op<"reduce", [Pure]> {
  let summary = "sum, max or log-sum-exp along one axis";
  let description = [{
    Reduces `input` along `axis`, which the result drops; the element type
    stays the input's. `logsumexp` of attention's masked scores is the
    softmax's log normalizer, a second output `tile-fuse-attention` folds
    into the attention op.

    ```mlir
    %r = tile.reduce sum %x axis = 1
        : tensor<?x?xf32, #tile.dims<M, N>> -> tensor<?xf32, #tile.dims<M>>
    ```
  }];
  let arguments = (ins Tile_FloatTensor:$input,
                       Tile_ReduceKindAttr:$kind, I64Attr:$axis);
  let results = (outs Tile_FloatTensor:$result);
  let assemblyFormat = [{
    $kind $input `axis` `=` $axis attr-dict `:` type($input) `->` type($result)
  }];
  let hasVerifier = 1;
}

def Tile_SoftmaxOp : Tile_Op<"softmax", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "softmax over the last axis";
  let arguments = (ins Tile_FloatTensor:$input);
  let results = (outs Tile_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def Tile_MaskOp : Tile_Op<"mask", [Pure, AllTypesMatch<["scores", "result"]>]> {
  let summary = "set masked-out scores to -inf";
  let description = [{
    Keeps score `[..., i, j]` (query row `i`, key column `j`) when the
    predicate holds and replaces it with `-inf` otherwise. Either `causal`
    (keep `j <= i`) or a predicate region `(%i: index, %j: index) -> i1`.
  }];
  let arguments = (ins Tile_FloatTensor:$scores, UnitAttr:$causal);
  let results = (outs Tile_FloatTensor:$result);
  let regions = (region AnyRegion:$predicate);
  let assemblyFormat = "$scores (`causal` $causal^)? attr-dict `:` type($scores) $predicate";
  let hasVerifier = 1;
}

def Tile_ScoreModOp : Tile_Op<"score_mod", [Pure, AllTypesMatch<["scores", "result"]>]> {
  let summary = "rewrite each attention score from its value and indices";
  let description = [{
    The region `(%x: elem, %i: index, %j: index) -> elem` computes the new
    score from the old one, the query index `i` and the key index `j`
    (ALiBi, soft-capping, relative biases).
  }];
  let arguments = (ins Tile_FloatTensor:$scores);
  let results = (outs Tile_FloatTensor:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$scores attr-dict `:` type($scores) $body";
  let hasVerifier = 1;
}

def Tile_AttentionTensor : RankedTensorOf<[BF16, F16, F32]>;

def Tile_AttentionOp : Tile_Op<"attention", [Pure, IsolatedFromAbove, AttrSizedOperandSegments]> {
  let summary = "softmax(mask(score(q @ k^T))) @ v, without the score matrix";
  let description = [{
    Attention as one op, so the `[.., S, T]` score matrix is never a tensor
    of the program (`tile-fuse-attention` builds it from the chain of
    products, maps, masks and softmax the frontend emits). For query row `i`
    and key column `j` of each batch and head:

    ```
    s[i, j] = score(sum_d q[i, d] * k[j, d], i, j)        (f32)
    s[i, j] = -inf where the mask drops (i, j)
    p[i, :] = p_type(softmax(s[i, :]))
    o[i, :] = sum_j p[i, j] * v[j, :]                     (f32, then o's type)
    lse[i]  = log(sum_j exp(s[i, j]))                     (optional; f32, then its type)
    ```

    - `q` is `[.., S, D]`, `k` `[.., T, D]`, `v` `[.., T, Dv]`, `o`
      `[.., S, Dv]`, of rank 3 to 5. The leading (batch, head) axes of `k`
      and `v` are `q`'s, or 1 where one key/value head serves several query
      heads (grouped-query attention: `k` `[B, 1, T, D]` with `q`
      `[B, H, S, D]`).
    - `mask_kind`: `causal` keeps `j <= i` (top-left aligned), `none` keeps
      everything but what the `mask` region drops.
    - `p_type`: the type the probabilities are rounded to before the second
      product (that of `v`, as FlashAttention does).
    - `q_offsets`, `k_offsets` (optional, `i32[B+1]` each): packed
      variable-length sequences (`tile.segmented_matmul`): query rows
      `q_offsets[b] ..` attend to key rows `k_offsets[b] ..` only, the
      masks and score modifiers see indices within the sequence, and rows
      outside every sequence are not written.
    - `lse` (optional result, `[.., S]`): each row's log-sum-exp of the
      masked scores, the softmax's log normalizer (FlashAttention's
      `softmax_lse`, which a backward pass or a split-key combine reads);
      `-inf` for a row every key is masked from.
    - `score` region `(%s: f32, %i: index, %j: index) -> f32`: the score
      modifiers in order (scaling, soft-capping, ALiBi); empty for none.
    - `mask` region `(%i: index, %j: index) -> i1`: keep `(i, j)` where it
      yields true; empty when `mask_kind` says everything.

    Both regions are isolated from above: constants live inside them.

    `schedule` (set by `tile-select-schedule`): `tile_m` query rows per CTA,
    `tile_n` keys per step of the key/value loop, `tile_k` the head dim,
    `stages` the depth of the key/value ring, `consumers` math warpgroups.

    ```mlir
    %o = tile.attention %q, %k, %v mask_kind = causal, p_type = bf16
        : tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>,
          tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>,
          tensor<?x?x?x128xbf16, #tile.dims<B, H, T, 128>>
        -> tensor<?x?x?x128xbf16, #tile.dims<B, H, S, 128>>
        score {
    ^bb0(%s: f32, %i: index, %j: index):
      %c = arith.constant 0.0883883461 : f32
      %x = arith.mulf %s, %c : f32
      tile.yield %x : f32
    }
    ```
  }];
  let arguments = (ins Tile_MmaTensor:$q, Tile_MmaTensor:$k, Tile_MmaTensor:$v,
                       Optional<Tile_OffsetsTensor>:$q_offsets,
                       Optional<Tile_OffsetsTensor>:$k_offsets,
                       Tile_AttentionMaskAttr:$mask_kind,
                       TypeAttr:$p_type,
                       OptionalAttr<Tile_ScheduleAttr>:$schedule);
  let results = (outs Tile_AttentionTensor:$result,
                      Optional<Tile_AttentionTensor>:$lse);
  let regions = (region AnyRegion:$score, AnyRegion:$mask);
  let assemblyFormat = [{
    $q `,` $k `,` $v (`segments` `(` $q_offsets^ `,` $k_offsets `:`
    type($q_offsets) `,` type($k_offsets) `)`)? `mask_kind` `=` `` $mask_kind
    `,` `p_type` `=` $p_type attr-dict `:` type($q) `,` type($k) `,` type($v)
    `->` type($result) (`,` `lse` type($lse)^)? (`score` $score^)?
    (`mask` $mask^)?
  }];
  let hasVerifier = 1;
}

#endif // KILN_TILE_OPS_TD
