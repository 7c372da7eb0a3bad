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
    FunctionOpInterface, IsolatedFromAbove, Symbol, SingleBlock]> {
  let summary = "one kernel: what each thread block runs";
  let description = [{
    Arguments are global tensors (`memref`, attribute `cta.param` = the
    source name, `cta.role` = `input`/`output`/`scale`) and symbolic dims
    (`index`, attribute `cta.dim`). Program attributes:

    - `cta.chip`: the target (`sm_90a`, `sm_100a`);
    - `cta.cluster`: CTAs per cluster (`array<i64: 2, 1>`), default 1x1;
    - `cta.block`: threads per CTA, set by `cta-pipeline`.

    ```mlir
    cta.program @matmul(%a: memref<?x?xbf16> {cta.param = "a", cta.role = "input"},
                        %M: index {cta.dim = "M"}) attributes {cta.chip = "sm_90a"} {
      ...
      cta.return
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() { return getFunctionType().getInputs(); }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() { return getFunctionType().getResults(); }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// The target chip (`cta.chip`), or "" if unset.
    ::llvm::StringRef getChip();
    /// CTAs per cluster along (M, N); {1, 1} when unset.
    std::pair<int64_t, int64_t> getClusterShape();
  }];
}

def Cta_ReturnOp : Cta_Op<"return", [Pure, HasParent<"ProgramOp">, Terminator, ReturnLike]> {
  let summary = "end of a cta.program";
  let assemblyFormat = "attr-dict";
}

def Cta_YieldOp : Cta_Op<"yield", [Pure, Terminator, ReturnLike,
    ParentOneOf<["TileLoopOp", "MainloopOp", "StoreOp", "WarpSpecializeOp",
                 "ProduceOp", "ConsumeOp"]>]> {
  let summary = "values carried out of a cta region";
  let arguments = (ins Variadic<AnyType>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
}

def Cta_AllocOp : Cta_Op<"alloc", [HasParent<"ProgramOp">]> {
  let summary = "a shared-memory buffer for the lifetime of the program";
  let results = (outs Cta_BufferType:$buffer);
  let assemblyFormat = "attr-dict `:` type($buffer)";
}

def Cta_TileLoopOp : Cta_Op<"tile_loop", [
    SingleBlockImplicitTerminator<"YieldOp">,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "walk the output tiles assigned to this thread block";
  let description = [{
    Iterates over the `tile_sizes[0] x tile_sizes[1]` tiles of an
    `extent_m x extent_n` output; the body receives each tile's origin
    (`%m0`, `%n0`, in elements), then the loop-carried values.

    - `persistent`: each CTA walks tiles `cta, cta + grid, ...` (grid is at
      most one CTA per SM); otherwise one CTA per tile.
    - `group_m`: tiles are visited in bands of `group_m` tile rows so that
      CTAs running together share operand tiles in L2.
    - `cluster`: the CTAs of a cluster take `cluster[0]` adjacent tile rows
      (same `n0`), so an operand tile they share can be multicast.

    ```mlir
    %end = cta.tile_loop (%M, %N) tile [128, 256] iter_args(%c0 : index) -> (index) {
    ^bb0(%m0: index, %n0: index, %pos: index):
      ...
      cta.yield %next : index
    } {persistent, group_m = 8 : i64}
    ```
  }];
  let arguments = (ins Index:$extent_m, Index:$extent_n, DenseI64ArrayAttr:$tile_sizes,
                       Variadic<AnyType>:$inits, UnitAttr:$persistent,
                       DefaultValuedAttr<I64Attr, "1">:$group_m,
                       OptionalAttr<DenseI64ArrayAttr>:$cluster);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $extent_m `,` $extent_n `)` `tile` $tile_sizes (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    (`->` `(` type($results)^ `)`)? $body attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The (m0, n0) tile origin arguments of the body.
    ::mlir::BlockArgument getTileOrigin(unsigned axis) { return getBody().getArgument(axis); }
    /// The loop-carried arguments of the body.
    ::mlir::Block::BlockArgListType getIterArgs() {
      return getBody().front().getArguments().drop_front(2);
    }
  }];
  let skipDefaultBuilders = 1;
  let builders = [OpBuilder<(ins "::mlir::Value":$extentM, "::mlir::Value":$extentN,
                                 "::llvm::ArrayRef<int64_t>":$tileSizes,
                                 "::mlir::ValueRange":$inits)>];
}

def Cta_MainloopOp : Cta_Op<"mainloop", [
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>]> {
  let summary = "the K loop of a tile, before pipelining";
  let description = [{
    Runs the body for `k0 = 0, step, 2*step, ... < extent`, carrying the
    accumulators. Copies in the body complete before the MMAs that read
    their buffers (the body is sequential); `cta-pipeline` replaces this op
    with a producer/consumer ring that overlaps them.

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
  let arguments = (ins Index:$extent, I64Attr:$step, Variadic<Cta_AccType>:$inits);
  let results = (outs Variadic<Cta_AccType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $extent `step` $step (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    (`->` type($results)^)? $body attr-dict
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Data movement and math
//===----------------------------------------------------------------------===//

def Cta_LoadOp : Cta_Op<"load", [AttrSizedOperandSegments]> {
  let summary = "asynchronously copy a global tile into a shared buffer";
  let description = [{
    Copies the `rows x cols` tile of `source` whose origin is `indices`
    (row, col) into `buffer` (stage `slot` of a ring). Elements outside the
    tensor read as zero, so edge tiles need no special case. `multicast` > 1
    means this tile is the same for that many CTAs of the cluster (along M),
    which then share one copy. Inside a `cta.produce`, `signal` names the
    ring whose `full[slot]` barrier the copy completes.
  }];
  let arguments = (ins AnyMemRef:$source, Variadic<Index>:$indices, Cta_BufferType:$buffer,
                       Optional<Index>:$slot, Optional<Cta_RingType>:$signal,
                       DefaultValuedAttr<I64Attr, "1">:$multicast);
  let assemblyFormat = [{
    $source `[` $indices `]` `->` $buffer (`[` $slot^ `]`)? (`signal` $signal^)? attr-dict `:`
    type($source) `->` type($buffer) (`,` type($signal)^)?
  }];
  let hasVerifier = 1;
}

def Cta_AccZeroOp : Cta_Op<"acc_zero", [Pure]> {
  let summary = "an accumulator of zeros";
  let results = (outs Cta_AccType:$acc);
  let assemblyFormat = "attr-dict `:` type($acc)";
}

def Cta_MmaOp : Cta_Op<"mma", [AttrSizedOperandSegments, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc += lhs x rhs on shared-memory operands";
  let description = [{
    `lhs` is a `rows x K` buffer (the accumulator's rows start at `lhs_row`
    within it when given), `rhs` a `N x K` buffer with `transpose_b`
    (`K x N` without). Issued by the warpgroup(s) that own `acc`.
  }];
  let arguments = (ins Cta_BufferType:$lhs, Optional<Index>:$lhs_slot, Optional<Index>:$lhs_row,
                       Cta_BufferType:$rhs, Optional<Index>:$rhs_slot, Cta_AccType:$acc,
                       UnitAttr:$transpose_b);
  let results = (outs Cta_AccType:$result);
  let assemblyFormat = [{
    $lhs (`[` $lhs_slot^ `]`)? (`rows` $lhs_row^)? `,` $rhs (`[` $rhs_slot^ `]`)? `,` $acc
    attr-dict `:` type($lhs) `,` type($rhs) `,` type($acc)
  }];
  let hasVerifier = 1;
}

def Cta_StoreOp : Cta_Op<"store", [AttrSizedOperandSegments]> {
  let summary = "apply the epilogue to accumulators and store the tile";
  let description = [{
    Computes each output element with the epilogue region (one argument per
    accumulator element, yields the destination element) and writes the
    `rows x cols` tile at `indices` of `dest`, clipped to the tensor. With a
    `staging` buffer the tile goes through shared memory and one bulk copy
    (TMA store); the lowering falls back to direct stores when the
    destination cannot take a bulk copy (rows not 16-byte aligned).
  }];
  let arguments = (ins Variadic<Cta_AccType>:$accs, AnyMemRef:$dest, Variadic<Index>:$indices,
                       Optional<Cta_BufferType>:$staging, Optional<Index>:$staging_slot);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    $accs `->` $dest `[` $indices `]` (`staging` $staging^ (`[` $staging_slot^ `]`)?)? attr-dict
    `:` type($accs) `->` type($dest) (`,` type($staging)^)? $epilogue
  }];
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
  let arguments = (ins I64Attr:$consumers, DefaultValuedAttr<I64Attr, "1">:$cluster_size);
  let results = (outs Cta_RingType:$ring);
  let assemblyFormat = "attr-dict `:` type($ring)";
}

def Cta_WarpSpecializeOp : Cta_Op<"warp_specialize", [
    SingleBlockImplicitTerminator<"YieldOp">, RecursiveMemoryEffects]> {
  let summary = "run different code in the producer and consumer warpgroups";
  let description = [{
    The CTA has `1 + consumer_warpgroups` warpgroups: warpgroup 0 runs the
    `producer` region (issuing copies), the others run `consumers`. Each role
    resizes its register file to `producer_regs` / `consumer_regs` per thread
    (setmaxnreg on sm_90a) so the math warpgroups get the registers the
    producer does not need.
  }];
  let arguments = (ins I64Attr:$consumer_warpgroups, I64Attr:$producer_regs,
                       I64Attr:$consumer_regs);
  let regions = (region SizedRegion<1>:$producer, SizedRegion<1>:$consumers);
  let assemblyFormat = "attr-dict-with-keyword `producer` $producer `consumers` $consumers";
  let hasVerifier = 1;
}

def Cta_WarpgroupIndexOp : Cta_Op<"warpgroup_index", [Pure]> {
  let summary = "index of the executing warpgroup within its role";
  let results = (outs Index:$index);
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
  let summary = "drain `count` ring stages with MMAs";
  let description = [{
    For `kb = 0 .. count-1`: waits until ring stage `slot` is full, runs the
    body (MMAs reading that stage, carrying the accumulators) and releases
    the stage once the MMAs reading it have completed. Returns the next ring
    position and the final accumulators.
  }];
  let arguments = (ins Cta_RingType:$ring, Index:$position, Index:$count,
                       Variadic<Cta_AccType>:$inits);
  let results = (outs Index:$next_position, Variadic<Cta_AccType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $ring `at` $position `count` $count (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    attr-dict `:` type($ring) (`->` type($results)^)? $body
  }];
  let hasVerifier = 1;
}

#endif // KILN_CTA_OPS_TD
