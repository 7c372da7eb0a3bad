//===- CtaOps.td - operations of the cta dialect --------------------------===//

#ifndef KILN_CTA_OPS_TD
#define KILN_CTA_OPS_TD

include "dialects/Cta/IR/CtaDialect.td"
include "dialects/Cta/IR/CtaTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

def Cta_ProgramOp : Cta_Op<"program", [
    FunctionOpInterface, IsolatedFromAbove, Symbol, SingleBlock,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "one kernel: what each thread block runs";
  let description = [{
    Arguments are global tensors (`memref`, with a `cta.param =
    #cta.param<...>`: the source name, kind and shape the manifest records)
    and symbolic dims (`index`, with a `cta.dim = #cta.dim<M>`). The
    program's own attributes:

    - `chip`: the target (`#cta.chip<sm_90a>`, `#cta.chip<sm_100a>`);
    - `schedule`: a `#cta.schedule` (ring depth, math warpgroups);
    - `cluster`: CTAs per cluster (`array<i64: 2, 1>`), default 1x1;
    - `block`: threads per CTA, set by `cta-pipeline`;
    - `tile_cost`: the relative time of one tile, by which the runtime ranks
      a kernel's variants; `tail_cost`: a relative time added once per
      launch (a ping-pong program's last epilogue);
    - `variant_of`: the program this one is another compilation of (its
      manifest holds this one as a variant);
    - `smem_bytes`, `tmem_columns`, `tmem_slot`: set by
      `cta-allocate-resources`, the dynamic shared memory the program uses,
      its tensor-memory allocation (sm_100a) and the shared-memory offset of
      the slot `tcgen05.alloc` writes the allocation's address to.

    ```mlir
    cta.program @matmul(%a: memref<?x?xbf16> {cta.param = #cta.param<"a", input, [M, K]>},
                        %M: index {cta.dim = #cta.dim<M>})
        attributes {chip = #cta.chip<sm_90a>} {
      ...
      cta.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs,
                       OptionalAttr<Cta_ChipAttr>:$chip,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster,
                       OptionalAttr<DenseI64ArrayAttr>:$block,
                       OptionalAttr<Cta_ScheduleAttr>:$schedule,
                       OptionalAttr<F64Attr>:$tile_cost,
                       OptionalAttr<F64Attr>:$tail_cost,
                       OptionalAttr<FlatSymbolRefAttr>:$variant_of,
                       OptionalAttr<I64Attr>:$smem_bytes,
                       OptionalAttr<I64Attr>:$tmem_columns,
                       OptionalAttr<I64Attr>:$tmem_slot);
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
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// CTAs per cluster along (M, N); {1, 1} when unset.
    std::pair<int64_t, int64_t> getClusterShape();
    /// The `cta.param` of argument `i`, or null (an index argument).
    ParamAttr getParam(unsigned i);
    /// The `cta.dim` of argument `i`, or null (a memref argument).
    DimAttr getDim(unsigned i);
    /// The index argument that carries dim `name`, if any.
    std::optional<unsigned> findDimArgument(::llvm::StringRef name);
    /// The attribute names of a program argument's #cta.param and #cta.dim.
    static constexpr ::llvm::StringLiteral kParamAttrName = "cta.param";
    static constexpr ::llvm::StringLiteral kDimAttrName = "cta.dim";
  }];
}

def Cta_ReturnOp : Cta_Op<"return", [Pure, HasParent<"ProgramOp">, Terminator, ReturnLike]> {
  let summary = "end of a cta.program";
  let assemblyFormat = "attr-dict";
}


def Cta_YieldOp : Cta_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["TileLoopOp", "MainloopOp", "StoreOp", "WarpSpecializeOp",
                 "ProduceOp", "ConsumeOp", "FragMapOp", "TmemUpdateOp"]>]> {
  let summary = "values carried out of a cta region";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Cta_AllocOp : Cta_Op<"alloc", [HasParent<"ProgramOp">]> {
  let summary = "a shared-memory buffer for the lifetime of the program";
  // Set by cta-allocate-resources: the buffer's byte offset in dynamic
  // shared memory, and for block scales on sm_100a their first
  // tensor-memory column.
  let arguments = (ins OptionalAttr<I64Attr>:$smem_offset,
                       OptionalAttr<I64Attr>:$tmem_column);
  let results = (outs Cta_BufferType:$buffer);
  let builders = [OpBuilder<(ins "::mlir::Type":$buffer), [{
    build($_builder, $_state, buffer, ::mlir::IntegerAttr(), ::mlir::IntegerAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($buffer)";
}

//===----------------------------------------------------------------------===//
// Tile walks and K loops
//===----------------------------------------------------------------------===//

def Cta_TileLoopOp : Cta_Op<"tile_loop", [
    AttrSizedOperandSegments, SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "walk the output tiles assigned to this thread block";
  let description = [{
    Enumerates tiles of an iteration space and runs the body once per tile
    this CTA owns; the body receives the tile's coordinates, then the
    loop-carried values (any types). Three walks:

    - `static (%M, %N) tile [tm, tn]`: the `tm x tn` tiles of an `M x N`
      output; the body gets each tile's origin `(%m0, %n0)` in elements.
    - `batched (%B, ..., %M, %N) tile [1, ..., tm, tn]`: the same over
      leading batch axes (attention's batch x heads, tiled by 1); the body
      gets one coordinate per axis.
    - `grouped offsets(%offsets : memref<?xi32>, %E) (%B, ..., %T, %N) tile
      [1, ..., tm, tn]`: the row segments `offsets[e] .. offsets[e+1]` of a
      `T x N` output (after any leading batch axes), each tiled separately
      (mixture of experts, packed variable-length sequences); the body gets
      `(%e, %b..., %m0, %n0, %m_end, %row_tile)`: the group, the tile
      origin, the group's end row, which stores must not cross, and the
      tile's index among the row tiles of all groups in order (group e's
      first tile follows the last of group e - 1: where per-group padded
      block scales of its rows start). Persistent CTAs take
      the units in order of a virtual row tile (at most `cdiv(T, tm) + E`
      of them), scanning the offsets forward as they go; a negative
      segment length counts as empty, and rows past `cdiv(T, tm) + E` tiles
      (offsets that are not monotone within `[0, T]`) are not visited.

    - `stream_k (%M, %N, %K) tile [tm, tn, tk]`: the tiles of a static walk,
      persistent, where the last tiles' K steps (`tk` elements each) are
      spread evenly over every cluster so that no SM idles in a partial
      last wave. A cluster first takes whole tiles round-robin, then one
      contiguous run of K steps of the remaining tiles; a tile whose run
      two clusters share is done in two parts. The body gets
      `(%m0, %n0, %k_begin, %k_end, %partial)`: the K range of this part
      (in elements; `[0, K)` for a whole tile) and the workspace slot that
      the two parts of a shared tile meet in (`cta.stream_k_join`).
      With `halves` (split-K of a partial last wave) the clusters do not
      take runs: the tiles of the partial last wave (every tile, when there
      are at most half as many tiles as clusters) are each cut into two K
      halves that clusters 2i and 2i + 1 take at the same time, after the
      whole tiles; slot i is where the halves of the i-th such tile meet.

    Attributes: `persistent` (each CTA walks tiles `cta, cta + grid, ...`
    with at most one CTA per SM; otherwise one CTA per tile); `group_m`
    (tiles are visited in bands of `group_m` tile rows so that CTAs running
    together share operand tiles in L2); `cluster` (the CTAs of a cluster
    take `cluster[0]` adjacent tile rows with the same column, so an operand
    tile they share can be multicast); `longest_first` (a batched walk
    only: the row tiles vary slowest and backwards, so each wave takes units
    of about equal length under a causal mask, the longest first; otherwise
    the row tiles of one batch entry vary fastest, backwards, and the CTAs
    running at once share its operands in L2). `band(%n)` (with
    `longest_first`): the flattened leading index is cut into bands of equal
    size, at most `n` entries, walked one after the other, each band's row tiles longest
    first in the last band and every second band before it, shortest first
    in the others (a snake, so that a CTA taking every stride-th unit
    alternates long and short units and the walk ends on short ones), so
    the units running at once read the operands of `n` batch entries, which
    then stay in L2 (causal attention's keys and values). `halves` (a
    `stream_k` walk only): the partial last wave's tiles are split into two
    K halves instead of runs (above).

    ```mlir
    %end = cta.tile_loop static (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      ...
      cta.yield %next : index
    } {persistent, group_m = 8 : i64}
    ```
  }];
  let arguments = (ins Cta_WalkKind:$walk, Optional<AnyMemRef>:$offsets,
                       Optional<Index>:$groups, Variadic<Index>:$extents,
                       DenseI64ArrayAttr:$tile_sizes, Optional<Index>:$band,
                       Variadic<AnyType>:$inits,
                       UnitAttr:$persistent, DefaultValuedAttr<I64Attr, "1">:$group_m,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster, UnitAttr:$longest_first,
                       UnitAttr:$halves);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  // The declarative form of this syntax, which CtaOps.cpp parses by hand:
  //   $walk (`offsets` `(` $offsets^ `:` type($offsets) `,` $groups `)`)? `(` $extents `)`
  //   `tile` $tile_sizes (`band` `(` $band^ `)`)? (`iter_args` `(` $inits^ `:` type($inits) `)`)?
  //   (`->` `(` type($results)^ `)`)? $body attr-dict
  // A generated parser keeps the region in a local until the end, so a bad
  // attribute after it would free the region while a value defined in it may
  // already have uses elsewhere (kiln-fuzz-ir; docs/testing.md).
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Body arguments before the carried values: one coordinate per axis,
    /// plus the group, its end row and the tile's row-tile index for a
    /// grouped walk.
    unsigned getNumCoordinates() {
      return numCoordinates(getWalk(), getExtents().size());
    }
    /// Body arguments before the carried values of a `walk` over `extents`
    /// axes: a grouped walk adds the group, its end row and the row tile, a
    /// stream-K walk turns its K axis into a range and a partial-tile slot.
    static unsigned numCoordinates(::kiln::cta::WalkKind walk, unsigned extents) {
      return extents + (walk == ::kiln::cta::WalkKind::grouped    ? 3
                        : walk == ::kiln::cta::WalkKind::stream_k ? 2
                                                                  : 0);
    }
    /// A grouped walk's group, the group's end row (stores stop there) and
    /// the tile's row-tile index over all groups (group e's tiles follow
    /// those of the groups before it: per-group padded block scales).
    ::mlir::BlockArgument getGroup() { return getBody().getArgument(0); }
    ::mlir::BlockArgument getGroupEnd() {
      return getBody().getArgument(getNumCoordinates() - 2);
    }
    ::mlir::BlockArgument getGroupRowTile() {
      return getBody().getArgument(getNumCoordinates() - 1);
    }
    /// The origin of the tile along `axis` (0 = the first extent).
    ::mlir::BlockArgument getTileOrigin(unsigned axis) {
      unsigned first = getWalk() == ::kiln::cta::WalkKind::grouped ? 1 : 0;
      return getBody().getArgument(first + axis);
    }
    /// The loop-carried arguments of the body.
    ::mlir::Block::BlockArgListType getIterArgs() {
      return getBody().front().getArguments().drop_front(getNumCoordinates());
    }
    /// Stores in a stream-K walk write joined sums of complete tiles only.
    ::llvm::LogicalResult verifyStreamKStores();
  }];
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::kiln::cta::WalkKind":$walk, "::mlir::ValueRange":$extents,
                                 "::llvm::ArrayRef<int64_t>":$tileSizes,
                                 "::mlir::ValueRange":$inits)>,
                   // A grouped walk: its offsets and group count too.
                   OpBuilder<(ins "::kiln::cta::WalkKind":$walk, "::mlir::Value":$offsets,
                                 "::mlir::Value":$groups, "::mlir::ValueRange":$extents,
                                 "::llvm::ArrayRef<int64_t>":$tileSizes,
                                 "::mlir::ValueRange":$inits)>];
}

def Cta_MainloopOp : Cta_Op<"mainloop", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "a K loop of a tile, before pipelining";
  let description = [{
    Runs the body for `k0 = 0, step, 2*step, ... < extent`, carrying values
    of any type (accumulators, and for attention the running row maxima and
    sums). Copies in the body complete before the ops that read their
    buffers (the body is sequential); `cta-pipeline` replaces this op with a
    producer/consumer ring that overlaps them.

    ```mlir
    %acc = cta.mainloop %K step 64 iter_args(%zero : !cta.acc<128x256xf32>)
        -> !cta.acc<128x256xf32> {
    ^bb0(%k0: index, %acc: !cta.acc<128x256xf32>):
      cta.load %a[%m0, %k0] -> %sa : memref<?x?xbf16> -> !cta.buffer<128x64xbf16>
      cta.load %b[%n0, %k0] -> %sb : memref<?x?xbf16> -> !cta.buffer<256x64xbf16>
      %next = cta.mma %sa, %sb, %acc {transpose_b}
          : !cta.buffer<128x64xbf16>, !cta.buffer<256x64xbf16>, !cta.acc<128x256xf32>
      cta.yield %next : !cta.acc<128x256xf32>
    }
    ```
  }];
  let arguments = (ins Index:$extent, I64Attr:$step, Variadic<AnyType>:$inits);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  // Parsed by hand, as cta.tile_loop, for the same reason:
  //   $extent `step` $step (`iter_args` `(` $inits^ `:` type($inits) `)`)?
  //   (`->` type($results)^)? $body attr-dict
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement and MMAs
//===----------------------------------------------------------------------===//

def Cta_LoadOp : Cta_Op<"load", [AttrSizedOperandSegments]> {
  let summary = "asynchronously copy a global tile into a shared buffer";
  let description = [{
    Copies the `rows x cols` tile of `source` whose origin is `indices` (one
    per axis of `source`) into `buffer` (stage `slot` of a ring). The tile
    spans the last two axes; a rank-N source contributes one element along
    each leading axis (attention's `q[b, h, s0:s0+128, :]`). Elements
    outside the tensor read as zero, so edge tiles need no special case.
    `multicast` > 1 means this tile is the same for that many CTAs of the
    cluster (along M), which then share one copy. Inside a `cta.produce`,
    `signal` names the ring whose `full[slot]` barrier the copy completes.
    `dst_rows = [begin, end]` fills only those rows of the buffer (a dual
    GEMM's two weight tiles side by side in one MMA operand); by default the
    copy fills every row. `cta_pair` marks a copy that feeds a CTA pair's MMA
    (`cta.mma {cta_pair}`, sm_100a): it lands in this CTA's buffer like any
    other but completes on the pair leader's `full[slot]`, which counts both
    CTAs' bytes.

    `rows_within %extent` (the source's extent along its row axis, the
    second-to-last): the copy reads only the rows the tensor has, at most
    `extent` of the buffer's rows, and leaves the buffer's other rows as they
    were, instead of filling them with zeros. For operand tiles whose rows
    past the tensor's end are never stored (a GEMM's lhs when M is smaller
    than the tile): TMA's zero fill of out-of-bounds rows is slow (a
    1 x 4096 x 4096 GEMM ran at 40% of the bandwidth of a 128-row one with
    the same weights, docs/performance.md), and an MMA's output row reads
    only its own lhs row, so the stale rows reach only accumulator rows that
    no store writes. The tensor map's box is clamped the same way
    (`clamp_rows` in the manifest), so the copy completes exactly the bytes
    the stage expects.
  }];
  let extraClassDeclaration = [{
    /// The buffer rows this copy fills: [begin, end).
    std::pair<int64_t, int64_t> getFilledRows();
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices, Cta_BufferType:$buffer,
                       Optional<Index>:$slot, Optional<Cta_RingType>:$signal,
                       Optional<Index>:$row_extent,
                       DefaultValuedAttr<I64Attr, "1">:$multicast,
                       OptionalAttr<DenseI64ArrayAttr>:$dst_rows,
                       UnitAttr:$cta_pair);
  let assemblyFormat = [{
    $source `[` $indices `]` `->` $buffer (`[` $slot^ `]`)? (`signal` $signal^)?
    (`rows_within` $row_extent^)? attr-dict `:`
    type($source) `->` type($buffer) (`,` type($signal)^)?
  }];
  let hasVerifier = 1;
}

def Cta_AccZeroOp : Cta_Op<"acc_zero", [Pure]> {
  let summary = "an accumulator of zeros";
  // Set by cta-allocate-resources on sm_100a: the accumulator's first
  // tensor-memory column.
  let arguments = (ins OptionalAttr<I64Attr>:$tmem_column);
  let results = (outs Cta_AccType:$acc);
  let builders = [OpBuilder<(ins "::mlir::Type":$acc), [{
    build($_builder, $_state, acc, ::mlir::IntegerAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($acc)";
}

def Cta_TmemAllocOp : Cta_Op<"tmem_alloc", [HasParent<"ProgramOp">]> {
  let summary = "a tile in tensor memory for the program's lifetime";
  let description = [{
    A tensor-memory tile (sm_100a) that the program's warp roles name,
    placed by `cta-allocate-resources` (`tmem_column`: its first column)
    next to the accumulators and accumulator rings.

    ```mlir
    %o = cta.tmem_alloc : !cta.tmem<128x128xf32>
    %p = cta.tmem_alloc : !cta.tmem<128x128xbf16>
    ```
  }];
  let arguments = (ins OptionalAttr<I64Attr>:$tmem_column);
  let results = (outs Cta_TmemType:$tile);
  let builders = [OpBuilder<(ins "::mlir::Type":$tile), [{
    build($_builder, $_state, tile, ::mlir::IntegerAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($tile)";
}

def Cta_TmemAccOp : Cta_Op<"tmem_acc", [Pure]> {
  let summary = "the accumulator a tensor-memory tile holds";
  let description = [{
    The columns of an f32 tensor-memory tile as an accumulator that holds
    data: a `cta.mma` into it adds to what they hold unless its `accumulate`
    is false, and a `cta.store` of it reads them. The roles that name the
    tile order these accesses with their rings (attention: the MMA warp
    accumulates O += P V; the softmax warpgroup stores O once the last one
    has completed).

    ```mlir
    %acc = cta.tmem_acc %o : !cta.tmem<128x128xf32> -> !cta.acc<128x128xf32>
    ```
  }];
  let arguments = (ins Cta_TmemType:$tile);
  let results = (outs Cta_AccType:$acc);
  let assemblyFormat = "$tile attr-dict `:` type($tile) `->` type($acc)";
  let hasVerifier = 1;
}

def Cta_TmemStoreOp : Cta_Op<"tmem_store"> {
  let summary = "write a register tile into a tensor-memory tile";
  let description = [{
    Writes an f32 `acc` fragment of the tile's shape into the tile, rounded
    to nearest even to the tile's element type: attention's P, which the
    MMA warp then reads as its left operand. Each thread of the executing
    warpgroup writes the rows it holds. Other roles see the writes once the
    stage they fill is committed (`cta.stage_commit`).

    ```mlir
    cta.tmem_store %pf -> %p : !cta.frag<128x128xf32, acc>, !cta.tmem<128x128xbf16>
    ```
  }];
  let arguments = (ins Cta_FragType:$value, Cta_TmemType:$tile);
  let assemblyFormat = "$value `->` $tile attr-dict `:` type($value) `,` type($tile)";
  let hasVerifier = 1;
}

def Cta_TmemUpdateOp : Cta_Op<"tmem_update", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "compute a tensor-memory tile's elements in place";
  let description = [{
    Replaces each element of an f32 tensor-memory tile with the region's
    result, computed from the element's row and column (`index`), its value
    and one element of each `rows` vector input. Each thread of the
    executing warpgroup updates the rows it holds, a few columns at a time,
    so the tile never sits in registers whole: attention rescales its
    output by each row's correction factor and divides it by the row sums
    before the store.

    ```mlir
    cta.tmem_update %o inputs(%alpha : !cta.frag<128xf32, rows>) : !cta.tmem<128x128xf32> {
    ^bb0(%row: index, %col: index, %x: f32, %a: f32):
      %y = arith.mulf %x, %a : f32
      cta.yield %y : f32
    }
    ```
  }];
  let arguments = (ins Cta_TmemType:$tile, Variadic<Cta_FragType>:$inputs);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $tile (`inputs` `(` $inputs^ `:` type($inputs) `)`)? attr-dict `:` type($tile) $body
  }];
  let hasVerifier = 1;
}

def Cta_MmaOp : Cta_Op<"mma", [AttrSizedOperandSegments, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc (+)= lhs x rhs";
  let description = [{
    `lhs` is an `M x K` shared-memory buffer (the accumulator's rows start
    at `lhs_row` within it when given), a register fragment in the `lhs`
    layout (attention's `P` on sm_90a) or a tensor-memory tile (attention's
    `P` on sm_100a: `tcgen05.mma` reads A from tensor memory); `rhs` is an
    `N x K` buffer with `transpose_b`
    (`K x N` without). `accumulate` (default true) chooses `acc + lhs x rhs`
    or `lhs x rhs`. Issued by the warpgroup(s) that own `acc`.

    Block-scaled operands (NVFP4, MXFP8) carry `scales`: one buffer per
    operand of scale-factor atoms, each 32 x 16 bytes (128 rows x 4 blocks
    of `scale_block` K elements, byte `16 (r % 32) + 4 (r / 32) + kb`), the
    atoms of one 128-row group along K first, then the next row group:
    `ceil(rows / 128) * K / (4 * scale_block) * 32` rows of 16 bytes.
    `scale_slots` select their ring stages.

    Inside a `cta.consume`, the MMAs of one stage form one asynchronous
    batch that stays in flight until the next stage (the stage is released
    when its batch completes); elsewhere an MMA completes before anything
    reads its result, unless it is `async`: then it is issued and left in
    flight, and its result is read through the `cta.mma_wait` that follows
    it in the block (attention issues the next block's S = Q Kᵀ and this
    block's O += P V, then computes the softmax while O's MMA runs).

    `cta_pair` (sm_100a, `tcgen05.mma.cta_group::2`): the two CTAs of a
    cluster pair compute one MMA of twice the rows. Each CTA holds its own
    `lhs` rows and half of the `rhs` rows (the even CTA the first half), and
    owns its rows of the accumulator over all `2 x rhs rows` columns; the
    even CTA of the pair issues the MMA for both.

    ```mlir
    %s = cta.mma %sq rows %r, %sk[%slot], %zero {transpose_b}
        : !cta.buffer<128x128xbf16>, !cta.buffer<128x128xbf16, stages = 2>, !cta.acc<64x128xf32>
    %o = cta.mma %p, %sv[%slot], %acc accumulate %started
        : !cta.frag<64x128xbf16, lhs>, !cta.buffer<128x128xbf16, stages = 2>, !cta.acc<64x128xf32>
    %n = cta.mma %sa[%slot], %sb[%slot], %acc scales(%sfa, %sfb) scale_slots(%slot, %slot)
        {transpose_b, scale_block = 16 : i64}
        : !cta.buffer<128x256xf4E2M1FN, stages = 2>, !cta.buffer<256x256xf4E2M1FN, stages = 2>,
          !cta.acc<128x256xf32>, !cta.buffer<128x16xf8E4M3FN, stages = 2>, !cta.buffer<256x16xf8E4M3FN, stages = 2>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Cta_BufferType, Cta_FragType, Cta_TmemType]>:$lhs, Optional<Index>:$lhs_slot,
                       Optional<Index>:$lhs_row, Cta_BufferType:$rhs, Optional<Index>:$rhs_slot,
                       Cta_AccType:$acc, Optional<I1>:$accumulate,
                       Optional<Cta_BufferType>:$lhs_scale, Optional<Cta_BufferType>:$rhs_scale,
                       Optional<Index>:$lhs_scale_slot, Optional<Index>:$rhs_scale_slot,
                       UnitAttr:$transpose_b, OptionalAttr<I64Attr>:$scale_block,
                       UnitAttr:$cta_pair, UnitAttr:$in_stage, UnitAttr:$one_thread,
                       UnitAttr:$async);
  let results = (outs Cta_AccType:$result);
  let assemblyFormat = [{
    $lhs (`[` $lhs_slot^ `]`)? (`rows` $lhs_row^)? `,` $rhs (`[` $rhs_slot^ `]`)? `,` $acc
    (`accumulate` $accumulate^)?
    (`scales` `(` $lhs_scale^ `,` $rhs_scale `)`)?
    (`scale_slots` `(` $lhs_scale_slot^ `,` $rhs_scale_slot `)`)?
    attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
    (`,` type($lhs_scale)^ `,` type($rhs_scale))?
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The block-scale rules (part of the verifier).
    ::mlir::LogicalResult verifyScales(int64_t lhsRows, int64_t k, int64_t n);
    /// The rules of `async` (part of the verifier).
    ::mlir::LogicalResult verifyAsync();
  }];
}

def Cta_StoreOp : Cta_Op<"store", [AttrSizedOperandSegments]> {
  let summary = "apply the epilogue and store a tile";
  let description = [{
    Computes each output element with the epilogue region and writes the
    `rows x cols` tile at `indices` of `dest` (the last two axes; one index
    per axis), clipped to the tensor and, with `row_limit`, to rows below it
    (a grouped walk's group end).

    The region takes one element of each of `values` (accumulators or `acc`
    fragments of the tile's shape), then one element of each epilogue
    `inputs` tensor, read as `input_kinds` says: `scalar` (one value),
    `per_row` (one per output row: a `[M, 1]` scale), `per_col` (one per
    output column: a `[N]` or `[1, N]` bias) or `tile` (the element at the
    same position: a `[M, N]` residual); in a grouped walk also
    `per_group` (row `group` of an `[E, 1]` tensor: a per-expert scale) and
    `per_group_col` (row `group`, the output's column, of an `[E, N]`
    tensor: a per-expert bias), with the tile's `group`. It yields the
    destination element.

    With a `staging` buffer the tile goes through shared memory and bulk
    copies (TMA stores); the lowering falls back to direct stores when the
    destination cannot take a bulk copy (rows not 16-byte aligned).

    ```mlir
    cta.store %acc inputs(%bias per_col : memref<?xbf16>) -> %c[%m0, %n0] staging %sc[%wg]
        : !cta.acc<64x256xf32> -> memref<?x?xbf16>, !cta.buffer<64x128xbf16, stages = 2> {
    ^bb0(%x: f32, %b: bf16):
      %bf = arith.extf %b : bf16 to f32
      %y = arith.addf %x, %bf : f32
      %t = arith.truncf %y : f32 to bf16
      cta.yield %t : bf16
    }
    ```
  }];
  let arguments = (ins Variadic<AnyTypeOf<[Cta_AccType, Cta_FragType]>>:$values,
                       Variadic<AnyMemRef>:$inputs,
                       DefaultValuedAttr<TypedArrayAttrBase<Cta_InputKind, "epilogue input kinds">, "{}">:$input_kinds,
                       AnyMemRef:$dest, Variadic<Index>:$indices, Optional<Index>:$row_limit,
                       Optional<Index>:$group,
                       Optional<Cta_BufferType>:$staging, Optional<Index>:$staging_slot,
                       UnitAttr:$in_epilogue_role);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    $values custom<EpilogueInputs>($inputs, type($inputs), $input_kinds) $dest `[` $indices `]`
    (`row_limit` $row_limit^)? (`group` $group^)? (`staging` $staging^ (`[` $staging_slot^ `]`)?)? attr-dict
    `:` type($values) `->` type($dest) (`,` type($staging)^)? $epilogue
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The kind of epilogue input `i`.
    ::kiln::cta::InputKind getInputKind(unsigned i) {
      return ::llvm::cast<::kiln::cta::InputKindAttr>(getInputKinds()[i]).getValue();
    }
    /// The tile's shape: that of the first stored value.
    ::llvm::ArrayRef<int64_t> getTileShape();
  }];
}

def Cta_ReadIndexOp : Cta_Op<"read_index", [Pure]> {
  let summary = "one i32 element of a global tensor, as an index";
  let description = [{
    Reads `source[index]` (a rank-1 i32 tensor the kernel does not write:
    the offsets of packed sequences or expert groups) as an index. A
    negative element reads as 0, and an index past the tensor reads its
    last element, so that no offset sends a later access outside memory.

    ```mlir
    %k0 = cta.read_index %cu_k[%e] : memref<?xi32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Index:$index);
  let results = (outs Index:$result);
  let assemblyFormat = "$source `[` $index `]` attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Cta_ReadVectorOp : Cta_Op<"read_vector", [Pure]> {
  let summary = "a rows or cols vector read from a global f32 tensor";
  let description = [{
    A `rows` (or `cols`) vector whose value for tile row (column) j is the
    element of `source` at `indices` with j added to the second to last
    (one index per axis: a batched tensor's leading ones, the tile's first
    row or column, then the last axis's): an fp8 GEMM's per-row scales of
    one K block, `a.scale[m0 + r, k0 / 128]` for the tile's rows or
    `b.scale[n0 + c, k0 / 128]` for its columns. Each index is clamped into
    the tensor, so no read leaves it (a row past the tensor reads its last
    row: the accumulator rows it scales are not stored). Plain loads through
    the read-only cache; in a math role (or a K loop before `cta-pipeline`,
    which offsets a rows vector's row per warpgroup): on sm_90a each thread
    loads its two rows per 64-row fragment, or its C/4 columns.

    ```mlir
    %sa = cta.read_vector %a_scale[%m0, %kb] : memref<?x?xf32> -> !cta.frag<64xf32, rows>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices);
  let results = (outs Cta_FragType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` type($source) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def Cta_ReadScalarOp : Cta_Op<"read_scalar", [Pure]> {
  let summary = "one element of a global f32 tensor";
  let description = [{
    The f32 element of `source` at `indices` (one per axis), each clamped
    into the tensor: an fp8 GEMM's weight scale of one 128x128 block, the
    same for every thread of the tile.

    ```mlir
    %sb = cta.read_scalar %b_scale[%nb, %kb] : memref<?x?xf32>
    ```
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices);
  let results = (outs F32:$result);
  let assemblyFormat = "$source `[` $indices `]` attr-dict `:` type($source)";
  let hasVerifier = 1;
}

def Cta_StoreRowsOp : Cta_Op<"store_rows", [AttrSizedOperandSegments]> {
  let summary = "store one value per tile row";
  let description = [{
    Writes the `rows` vector `value` (one f32 per row of the executing
    warpgroup's tile: attention's log-sum-exp) along the last axis of `dest`
    from `indices` (one per axis; the last is the tile's first row),
    converted to `dest`'s element type. Rows at or past the destination's
    last extent, and with `row_limit` at or past that row, are not written.
    Runs in a math or epilogue role; on sm_90a one thread of each quad
    (which holds its rows' values) writes them with plain stores, on
    sm_100a each thread its own row.

    ```mlir
    cta.store_rows %lse -> %out[%b, %h, %s0] : !cta.frag<64xf32, rows> -> memref<?x?x?xf32>
    ```

    With `combine sum` or `combine max` each value is added to (or maxed
    into) the f32 element already there with an atomic read-modify-write,
    so that the tiles of one row band (a GEMM's column tiles) accumulate a
    row reduction of the whole product (`r = sum(y, axis = -1)`); the
    destination starts at 0 or -inf, which the runtime writes before each
    launch (the manifest param's `init`).
  }];
  let arguments = (ins Cta_FragType:$value, AnyMemRef:$dest,
                       Variadic<Index>:$indices, Optional<Index>:$row_limit,
                       OptionalAttr<Cta_ReduceKind>:$combine);
  let assemblyFormat = [{
    $value `->` $dest `[` $indices `]` (`row_limit` $row_limit^)?
    (`combine` $combine^)? attr-dict `:` qualified(type($value)) `->` type($dest)
  }];
  let hasVerifier = 1;
}

def Cta_CombineColsOp : Cta_Op<"combine_cols"> {
  let summary = "combine each column's reduction of a tile into a vector";
  let description = [{
    Reduces each column of `value`, an f32 `acc` fragment of the executing
    warpgroup's rows of a tile whose first row is row `row` of the product,
    with `kind`, leaving out rows at or past `row_limit` (the product's M),
    and combines column j's result into the f32 element of `dest` at
    `indices` with `j` added to the last (one index per axis: a batched
    product's leading ones, then the tile's first column) with a relaxed
    device-scope atomic add (or maximum), so that the row tiles of one
    column band accumulate a column reduction of the whole product
    (`c = sum(y, axis = -2)`). Columns at or past the destination's last
    extent are not written. The destination starts at 0 or -inf, which the
    runtime writes before each launch (the manifest param's `init`).

    A column's elements are spread over all warps of the warpgroup, so the
    reduction is not a register value (as `cta.reduce_rows`' is): each warp
    combines its own rows. On sm_90a the thread folds its registers of each
    column, the eight lanes that hold the same columns reduce-scatter them
    with xor-shuffles, and each lane combines the columns it ends with; on
    sm_100a each warp's 32 rows of tensor memory the same way, 32 columns
    at a time.

    ```mlir
    cta.combine_cols sum %v rows [%m0, %M) -> %c[%n0]
        : !cta.frag<64x256xf32, acc> -> memref<?xf32>
    ```
  }];
  let arguments = (ins Cta_ReduceKind:$kind, Cta_FragType:$value,
                       Index:$row, Index:$row_limit, AnyMemRef:$dest,
                       Variadic<Index>:$indices);
  let assemblyFormat = [{
    $kind $value `rows` `[` $row `,` $row_limit `)` `->` $dest `[` $indices `]`
    attr-dict `:` qualified(type($value)) `->` type($dest)
  }];
  let hasVerifier = 1;
}

def Cta_SplitColsOp : Cta_Op<"split_cols", [Pure]> {
  let summary = "an accumulator's column groups as separate accumulators";
  let description = [{
    Splits an accumulator into equal groups of columns, in order. Sibling
    products whose right operands were loaded side by side into one buffer
    run as one wide MMA (one `m64n256` wgmma chain for two 128-column
    products); the epilogue then reads each product as its own accumulator.

    ```mlir
    %gate, %up = cta.split_cols %acc : !cta.acc<64x256xf32>
        -> !cta.acc<64x128xf32>, !cta.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Cta_AccType:$input);
  let results = (outs Variadic<Cta_AccType>:$parts);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($parts)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Register fragments
//===----------------------------------------------------------------------===//

def Cta_StreamKJoinOp : Cta_Op<"stream_k_join"> {
  let summary = "join the two parts of a tile that a stream-K walk split";
  let description = [{
    Inside a `stream_k` tile walk, after the K loop of one part of a tile
    (`[%k_begin, %k_end)` of `K`): a whole tile (`[0, K)`) passes its
    accumulators through and is complete. The later part of a split tile
    (`k_begin > 0`), which its cluster runs first, writes its accumulators
    to workspace slot `%partial` and is not complete: its epilogue must not
    run. The first part (`k_begin = 0`, `k_end < K`), which its cluster
    runs last, waits for that slot, adds it to its accumulators and is
    complete. Each math thread exchanges its own registers with the thread
    of the same index in the other cluster, so the workspace needs no layout
    beyond the accumulator's.

    ```mlir
    %sum, %complete = cta.stream_k_join %acc partial %slot k [%kb, %ke) of %K
        : !cta.acc<64x256xf32>
    scf.if %complete { cta.store ... }
    ```
  }];
  let arguments = (ins Variadic<Cta_AccType>:$accs, Index:$partial,
                       Index:$k_begin, Index:$k_end, Index:$k_extent);
  let results = (outs Variadic<Cta_AccType>:$sums, I1:$complete);
  let assemblyFormat = [{
    $accs `partial` $partial `k` `[` $k_begin `,` $k_end `)` `of` $k_extent
    attr-dict `:` type($accs) `->` type($sums)
  }];
  let hasVerifier = 1;
}

def Cta_SplatOp : Cta_Op<"splat", [Pure]> {
  let summary = "a fragment with every element equal to a scalar";
  let arguments = (ins AnyType:$value);
  let results = (outs Cta_FragType:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Cta_FragMapOp : Cta_Op<"frag_map", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "elementwise computation over fragments and accumulators";
  let description = [{
    Computes each element of the result from the element's row and column
    (in the tile, as `index`) and one element of each input. Inputs are
    accumulators or `acc` fragments of the result's shape, or `rows` /
    `cols` vectors of it, which broadcast along the other axis. The result
    is an `acc` fragment or, where the value must stay an MMA accumulator
    (attention rescales its output in place), an accumulator. A map whose
    inputs and result are all `rows` (or `cols`) vectors of one shape
    computes a vector (the column, or row, index is then 0).

    ```mlir
    %p = cta.frag_map %s, %m : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>
        -> !cta.frag<64x128xf32, acc> {
    ^bb0(%i: index, %j: index, %x: f32, %max: f32):
      %d = arith.subf %x, %max : f32
      %e = math.exp2 %d : f32
      cta.yield %e : f32
    }
    ```
  }];
  let arguments = (ins Variadic<AnyTypeOf<[Cta_AccType, Cta_FragType]>>:$inputs);
  let results = (outs AnyTypeOf<[Cta_AccType, Cta_FragType]>:$result);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs) `->` type($result) $body";
  let hasVerifier = 1;
}

def Cta_ReduceRowsOp : Cta_Op<"reduce_rows", [Pure]> {
  let summary = "reduce each row of a tile to one value";
  let description = [{
    The `max` or `sum` of each row of an accumulator or `acc` fragment, as a
    `rows` vector (attention's running maxima and sums). On sm_90a each
    thread combines its own elements, then its quad with shuffles.

    ```mlir
    %m = cta.reduce_rows max %s : !cta.acc<64x128xf32> -> !cta.frag<64xf32, rows>
    ```
  }];
  let arguments = (ins Cta_ReduceKind:$kind, AnyTypeOf<[Cta_AccType, Cta_FragType]>:$input);
  let results = (outs Cta_FragType:$result);
  let assemblyFormat = "$kind $input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def Cta_ScaleRowsOp : Cta_Op<"scale_rows", [Pure,
    AllTypesMatch<["input", "result"]>]> {
  let summary = "each row of a tile times its own factor, skipped where it is 1";
  let description = [{
    Multiplies every element of row `i` of an f32 accumulator or `acc`
    fragment by `factors[i]` (attention rescaling its output when a row's
    running maximum moves). A factor of exactly 1 leaves its row unchanged,
    and the lowering uses that: on sm_90a a thread whose rows all have
    factor 1 branches around its multiplies, so an online softmax that
    keeps its maxima until they move far (most key blocks) pays nothing
    for the rescale. An accumulator stays one, in the same registers.

    ```mlir
    %o2 = cta.scale_rows %o by %alpha : !cta.acc<64x128xf32>, !cta.frag<64xf32, rows>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Cta_AccType, Cta_FragType]>:$input,
                       Cta_FragType:$factors);
  let results = (outs AnyTypeOf<[Cta_AccType, Cta_FragType]>:$result);
  let assemblyFormat = [{
    $input `by` $factors attr-dict `:` type($input) `,` type($factors)
  }];
  let hasVerifier = 1;
}

def Cta_ConvertOp : Cta_Op<"convert", [Pure]> {
  let summary = "an accumulator as the MMA's register left operand";
  let description = [{
    Rounds an f32 accumulator or `acc` fragment to a 16-bit type in the
    `lhs` layout, so that it can be the left operand of the next MMA
    (attention's `P = softmax(S)` feeding `P @ V`). On sm_90a the two
    layouts hold the same elements in the same threads: the conversion is a
    rounding with no data movement.

    ```mlir
    %p16 = cta.convert %p : !cta.frag<64x128xf32, acc> -> !cta.frag<64x128xbf16, lhs>
    ```
  }];
  let arguments = (ins AnyTypeOf<[Cta_AccType, Cta_FragType]>:$input);
  let results = (outs Cta_FragType:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Pipelining and warp specialization (produced by cta-pipeline)
//===----------------------------------------------------------------------===//

def Cta_RingOp : Cta_Op<"ring", [HasParent<"ProgramOp">]> {
  let summary = "full/empty barriers for a ring of buffer stages";
  let description = [{
    Stage `s` is free once `consumers` consumer warpgroups in each of the
    `cluster_size` CTAs that share its copies have released it, and full
    once all copies into it have landed.
  }];
  let arguments = (ins I64Attr:$consumers, DefaultValuedAttr<I64Attr, "1">:$cluster_size,
                       OptionalAttr<I64Attr>:$smem_offset);
  let results = (outs Cta_RingType:$ring);
  let builders = [OpBuilder<(ins "::mlir::Type":$ring, "int64_t":$consumers,
                                "int64_t":$cluster_size), [{
    build($_builder, $_state, ring, consumers, cluster_size, ::mlir::IntegerAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($ring)";
  let hasVerifier = 1;
}

def Cta_WarpSpecializeOp : Cta_Op<"warp_specialize", [RecursiveMemoryEffects]> {
  let summary = "run different code in different warps";
  let description = [{
    Splits the CTA's warps into `roles` (each a `#cta.role`: what the warps
    do, how many, the registers per thread they resize to), taken in order
    from warp 0; the i-th region is what the i-th role runs. The CTA has
    exactly the roles' warps. sm_90a's warp-specialized GEMM:

    ```mlir
    cta.warp_specialize
      #cta.role<producer, warps = 4, regs = 40> {
        ...copies...
      }
      #cta.role<math, warps = 8, regs = 232> {
        ...MMAs and stores; cta.warpgroup_index is 0 or 1...
      }
    ```
  }];
  let arguments = (ins TypedArrayAttrBase<Cta_RoleAttr, "warp roles">:$roles);
  let regions = (region VariadicRegion<SizedRegion<1>>:$bodies);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The role of region `i`.
    ::kiln::cta::RoleAttr getRole(unsigned i) {
      return ::llvm::cast<::kiln::cta::RoleAttr>(getRoles()[i]);
    }
    /// The first warp of role `i`.
    int64_t getFirstWarp(unsigned i);
    /// Warps of all roles.
    int64_t getTotalWarps();
  }];
}

def Cta_ClusterRankOp : Cta_Op<"cluster_rank", [Pure]> {
  let summary = "this CTA's rank in its cluster";
  let description = [{
    0 to (cluster CTAs - 1), along M first (the order of `cta.cluster`). A
    CTA pair's odd CTA uses it to load its half of the shared rhs tile.
  }];
  let results = (outs Index:$rank);
  let assemblyFormat = "attr-dict `:` type($rank)";
}

def Cta_MmaTurnOp : Cta_Op<"mma_turn"> {
  let summary = "math warpgroups take turns issuing MMAs (ping-pong)";
  let description = [{
    The math warpgroups of a role issue their MMAs in a fixed cyclic order,
    so that while one runs register math (attention's softmax) the tensor
    cores run another's MMAs instead of every warpgroup's MMAs and register
    math at the same time. `%wg` is the executing warpgroup's index in its
    role (`cta.warpgroup_index`), `n` the role's math warpgroups:

    - `wait`: wait until it is this warpgroup's turn;
    - `pass`: hand the turn to warpgroup (wg + 1) mod n;
    - `start`: once, before the first `wait`: warpgroup n - 1 hands the first
      turn to warpgroup 0 (the others do nothing).

    Every warpgroup must run the same sequence of waits and passes. On
    sm_90a a turn is a named barrier per warpgroup (compiler/Target's
    mmaTurnBarrierBase + wg) that its own `wait` syncs on and the previous
    warpgroup's `pass` arrives at.

    ```mlir
    cta.mma_turn wait %wg of 2
    %s = cta.mma ...
    cta.mma_turn pass %wg of 2
    ```

    A ping-pong GEMM (`#cta.schedule<..., pingpong = true>`) takes turns
    around each tile's whole K loop (`cta.consume`), so one warpgroup's
    epilogue runs while the other's MMAs do.
  }];
  let arguments = (ins Cta_TurnKind:$kind, Index:$warpgroup, I64Attr:$warpgroups);
  let assemblyFormat = "$kind $warpgroup `of` $warpgroups attr-dict";
  let hasVerifier = 1;
}

def Cta_WarpgroupIndexOp : Cta_Op<"warpgroup_index", [Pure]> {
  let summary = "index of the executing warpgroup within its role";
  // Set by cta-allocate-resources: the first warpgroup of the enclosing
  // warp role.
  let arguments = (ins OptionalAttr<I64Attr>:$first_warpgroup);
  let results = (outs Index:$index);
  let builders = [OpBuilder<(ins "::mlir::Type":$index), [{
    build($_builder, $_state, index, ::mlir::IntegerAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($index)";
}

def Cta_ProduceOp : Cta_Op<"produce", [
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "fill `count` ring stages with copies";
  let description = [{
    For `kb = 0 .. count-1`: waits until ring stage `slot` (the ring position
    `position + kb` modulo the stages) is empty, runs the body (its
    `cta.load`s target that stage and signal its full barrier) and moves on.
    Returns the ring position after the last stage, so the next tile
    continues where this one stopped.
  }];
  let arguments = (ins Cta_RingType:$ring, Index:$position, Index:$count);
  let results = (outs Index:$next_position);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$ring `at` $position `count` $count attr-dict `:` type($ring) $body";
  let hasVerifier = 1;
}

def Cta_ConsumeOp : Cta_Op<"consume", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "drain `count` ring stages";
  let description = [{
    For `kb = 0 .. count-1`: waits until ring stage `slot` is full, runs the
    body (MMAs and register math reading that stage, carrying values of any
    type) and releases the stage once the MMAs reading it have completed.
    Returns the next ring position and the final carried values.
  }];
  let arguments = (ins Cta_RingType:$ring, Index:$position, Index:$count,
                       Variadic<AnyType>:$inits, UnitAttr:$one_thread);
  let results = (outs Index:$next_position, Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $ring `at` $position `count` $count (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    attr-dict `:` type($ring) (`->` type($results)^)? $body
  }];
  let hasVerifier = 1;
}

def Cta_StageWaitOp : Cta_Op<"stage_wait"> {
  let summary = "wait until a ring stage is full; its slot";
  let description = [{
    What `cta.consume` does before each step, as an op of its own, for a
    loop that holds stages of several rings across its steps (attention's
    key loop reads K of block j and V of block j - 1 in one step): waits
    until the stage at ring position `position` is full and returns its
    slot (`position` modulo the stages). Every warpgroup that waits releases
    the stage once with `cta.stage_release`, after the MMAs reading it have
    completed (`cta.mma_wait`). In a math role (sm_90a) or in an MMA warp
    (sm_100a, whose releases the tensor core signals when the MMAs issued
    before them complete).

    ```mlir
    %slot = cta.stage_wait %ring at %pos : !cta.ring<2>
    %s = cta.mma %sq, %sk[%slot], %zero {async, transpose_b} : ...
    %r = cta.mma_wait %s later 0 : !cta.acc<64x128xf32>
    cta.stage_release %ring at %pos : !cta.ring<2>
    ```
  }];
  let arguments = (ins Cta_RingType:$ring, Index:$position);
  let results = (outs Index:$slot);
  let builders = [OpBuilder<(ins "::mlir::Value":$ring, "::mlir::Value":$position), [{
    build($_builder, $_state, $_builder.getIndexType(), ring, position);
  }]>];
  let assemblyFormat = "$ring `at` $position attr-dict `:` type($ring)";
  let hasVerifier = 1;
}

def Cta_StageReleaseOp : Cta_Op<"stage_release"> {
  let summary = "this warpgroup is done reading a ring stage";
  let description = [{
    Hands the stage at ring position `position` back to the producer (one
    of the ring's `consumers` arrivals), as `cta.consume` does after each
    step. Nothing may read the stage afterwards: in a math role the MMAs
    that read it must have been waited for; in an MMA warp (sm_100a) the
    release completes when every MMA the thread issued before it has
    (`tcgen05.commit`), and the thread goes on.
  }];
  // Set by cta-allocate-resources: the op runs in a one-thread role (the
  // MMA warp), which releases through the tensor core's commit.
  let arguments = (ins Cta_RingType:$ring, Index:$position, UnitAttr:$one_thread);
  let assemblyFormat = "$ring `at` $position attr-dict `:` type($ring)";
  let hasVerifier = 1;
}

def Cta_StageAcquireOp : Cta_Op<"stage_acquire"> {
  let summary = "wait until a ring stage is empty, to fill it with writes";
  let description = [{
    The producer side of a ring whose stages a warpgroup fills with its own
    writes rather than with copies: waits until the ring's consumers have
    released the stage at `position` (the first pass through the ring does
    not wait) and returns its slot; `cta.stage_commit` then marks it full.
    Acquiring a position again before committing it waits for nothing new.
    Attention's softmax warpgroup acquires the P stage, which the MMA warp
    releases once its O += P V has completed: after the wait, O may be
    rescaled and P rewritten.

    ```mlir
    %slot = cta.stage_acquire %pring at %pos : !cta.ring<1>
    ```
  }];
  let arguments = (ins Cta_RingType:$ring, Index:$position);
  let results = (outs Index:$slot);
  let builders = [OpBuilder<(ins "::mlir::Value":$ring, "::mlir::Value":$position), [{
    build($_builder, $_state, $_builder.getIndexType(), ring, position);
  }]>];
  let assemblyFormat = "$ring `at` $position attr-dict `:` type($ring)";
  let hasVerifier = 1;
}

def Cta_StageCommitOp : Cta_Op<"stage_commit"> {
  let summary = "the executing warpgroup has filled a ring stage";
  let description = [{
    After a `cta.stage_acquire` of the same position: every thread of the
    warpgroup has written its part of the stage (tensor-memory stores
    included), and the stage becomes full for the ring's consumers. On
    sm_100a each thread waits for its `tcgen05.st` and fences, the
    warpgroup synchronizes, and one thread arrives on the full barrier.

    ```mlir
    cta.stage_commit %pring at %pos : !cta.ring<1>
    ```
  }];
  let arguments = (ins Cta_RingType:$ring, Index:$position);
  let assemblyFormat = "$ring `at` $position attr-dict `:` type($ring)";
  let hasVerifier = 1;
}

def Cta_MmaWaitOp : Cta_Op<"mma_wait", [AllTypesMatch<["pending", "result"]>]> {
  let summary = "the result of an asynchronous MMA, once it has completed";
  let description = [{
    `pending` is the result of a `cta.mma {async}` earlier in the same
    block, its only use. Waits until that MMA has completed while the
    `later` asynchronous MMAs issued after it in the block (and before this
    op) may stay in flight, and returns the accumulator; nothing reads an
    asynchronous MMA's result but this op. The count is stated in the IR
    and checked: it is the number of in-flight MMAs the tensor cores keep
    busy with while the warpgroup computes on this result (attention's
    softmax of S runs while its O += P V is in flight: `later 1`).

    ```mlir
    %s = cta.mma %sq, %sk[%ks], %zero {async, transpose_b} : ...
    %o = cta.mma %p, %sv[%vs], %acc {async} : ...
    %sr = cta.mma_wait %s later 1 : !cta.acc<64x128xf32>
    ```
  }];
  let arguments = (ins Cta_AccType:$pending, I64Attr:$later);
  let results = (outs Cta_AccType:$result);
  let builders = [OpBuilder<(ins "::mlir::Value":$pending, "int64_t":$later), [{
    build($_builder, $_state, pending.getType(), pending,
          $_builder.getI64IntegerAttr(later));
  }]>];
  let assemblyFormat = "$pending `later` $later attr-dict `:` type($pending)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Accumulator hand-off between an MMA role and an epilogue role (sm_100a)
//===----------------------------------------------------------------------===//

def Cta_AccRingOp : Cta_Op<"acc_ring", [HasParent<"ProgramOp">]> {
  let summary = "accumulator sets and their barriers, for the program's lifetime";
  let description = [{
    `consumers` epilogue warpgroups read each set (every thread of them
    releases it). Set `s` sits in tensor memory after set `s - 1`.

    ```mlir
    %accs = cta.acc_ring {consumers = 1} : !cta.acc_ring<2, [!cta.acc<128x256xf32>]>
    ```
  }];
  let arguments = (ins I64Attr:$consumers, OptionalAttr<I64Attr>:$smem_offset,
                       OptionalAttr<I64Attr>:$tmem_column);
  let results = (outs Cta_AccRingType:$ring);
  let builders = [OpBuilder<(ins "::mlir::Type":$ring, "int64_t":$consumers), [{
    build($_builder, $_state, ring, $_builder.getI64IntegerAttr(consumers),
          ::mlir::IntegerAttr(), ::mlir::IntegerAttr());
  }]>];
  let assemblyFormat = "attr-dict `:` type($ring)";
  let hasVerifier = 1;
}

def Cta_AccAcquireOp : Cta_Op<"acc_acquire"> {
  let summary = "the MMA role takes the next accumulator set, zeroed";
  let description = [{
    Waits until set `position mod stages` is empty (the epilogue has read
    what was there) and returns its accumulators, holding zeros (no MMA has
    written them: the first MMA overwrites).

    ```mlir
    %acc = cta.acc_acquire %accs at %pos : !cta.acc_ring<2, [!cta.acc<128x256xf32>]> -> !cta.acc<128x256xf32>
    ```
  }];
  let arguments = (ins Cta_AccRingType:$ring, Index:$position);
  let results = (outs Variadic<Cta_AccType>:$accs);
  let assemblyFormat = "$ring `at` $position attr-dict `:` type($ring) `->` type($accs)";
  let hasVerifier = 1;
}

def Cta_AccCommitOp : Cta_Op<"acc_commit"> {
  let summary = "the MMA role hands a set to the epilogue";
  let description = [{
    Set `position mod stages` becomes full once the MMAs that computed `accs`
    (the values `cta.acc_acquire` returned at the same position, after the K
    loop) have completed; the MMA role does not wait for them.
  }];
  let arguments = (ins Cta_AccRingType:$ring, Index:$position,
                       Variadic<Cta_AccType>:$accs, UnitAttr:$one_thread);
  let assemblyFormat = "$ring `at` $position `,` $accs attr-dict `:` type($ring) `,` type($accs)";
  let hasVerifier = 1;
}

def Cta_AccWaitOp : Cta_Op<"acc_wait"> {
  let summary = "the epilogue role takes the next full accumulator set";
  let description = [{
    Waits until set `position mod stages` is full and returns its
    accumulators. `filled` says whether any MMA wrote them (false for a tile
    with no K steps: they read as zeros).

    ```mlir
    %acc = cta.acc_wait %accs at %pos filled %nonempty : !cta.acc_ring<2, [!cta.acc<128x256xf32>]> -> !cta.acc<128x256xf32>
    ```
  }];
  let arguments = (ins Cta_AccRingType:$ring, Index:$position, I1:$filled);
  let results = (outs Variadic<Cta_AccType>:$accs);
  let assemblyFormat = "$ring `at` $position `filled` $filled attr-dict `:` type($ring) `->` type($accs)";
  let hasVerifier = 1;
}

def Cta_AccReleaseOp : Cta_Op<"acc_release"> {
  let summary = "the epilogue role is done reading a set";
  let description = [{
    Every thread of the epilogue role has read set `position mod stages`
    (its stores are issued); the MMA role may overwrite it.
  }];
  let arguments = (ins Cta_AccRingType:$ring, Index:$position);
  let assemblyFormat = "$ring `at` $position attr-dict `:` type($ring)";
}

#endif // KILN_CTA_OPS_TD
