//===- CtaTypes.td - types of the cta dialect -----------------------------===//

#ifndef KILN_CTA_TYPES_TD
#define KILN_CTA_TYPES_TD

include "dialects/Cta/IR/CtaDialect.td"
include "dialects/Cta/IR/CtaAttrs.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

def Cta_BufferType : Cta_Type<"Buffer", "buffer"> {
  let summary = "a tile in shared memory, optionally a ring of stages";
  let description = [{
    A row-major `rows x cols` tile of `elementType` in shared memory.
    `stages` > 1 makes it a ring of that many such tiles (one per pipeline
    stage). `swizzle` is absent until `cta-assign-layouts` chooses it.

    ```mlir
    !cta.buffer<128x64xbf16>
    !cta.buffer<128x64xbf16, stages = 4, swizzle = "128B">
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        DefaultValuedParameter<"int64_t", "1">:$stages,
                        OptionalParameter<"::kiln::cta::SwizzleAttr">:$swizzle);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes of one stage (bit-exact for sub-byte types).
    int64_t getStageBytes() const;
    /// Bytes of all stages.
    int64_t getTotalBytes() const { return getStageBytes() * getStages(); }
    /// This buffer with a different layout or stage count.
    BufferType withSwizzle(::kiln::target::SwizzleMode mode) const;
    /// The swizzle, `None` while cta-assign-layouts has not chosen one.
    ::kiln::target::SwizzleMode getSwizzleMode() const;
    BufferType withStages(int64_t stages) const;
  }];
}

def Cta_AccType : Cta_Type<"Acc", "acc"> {
  let summary = "an MMA accumulator tile, wherever the chip keeps it";
  let description = [{
    A `rows x cols` accumulator. Before `cta-pipeline` it is the whole CTA
    tile; after, each math warpgroup owns its row slice. The type is the same
    on every chip; only the lowering decides where it lives: in the math
    threads' registers on sm_90a (the wgmma fragment), in tensor memory on
    sm_100a (tcgen05). Ops that compute on its elements (`cta.frag_map`,
    `cta.reduce_rows`, `cta.store`) read it into registers where needed.

    ```mlir
    !cta.acc<64x256xf32>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<TileShape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
}

def Cta_TmemType : Cta_Type<"Tmem", "tmem"> {
  let summary = "a tile in tensor memory that several warp roles name";
  let description = [{
    A `rows x cols` tile in tensor memory (sm_100a), placed by
    `cta-allocate-resources` (`cta.tmem_alloc`'s `tmem_column`): one row per
    lane, 32-bit elements one per column, 16-bit elements two per column.
    Unlike an accumulator, which one role owns at a time (or an
    accumulator ring hands over), a tensor-memory tile is named by every
    role that reads or writes it, and the program orders their accesses
    with its rings: attention's output `O`, accumulated by the MMA warp and
    rescaled and stored by the softmax warpgroup, and its probabilities
    `P`, written by the softmax warpgroup and read by the MMA as its left
    operand.

    ```mlir
    !cta.tmem<128x128xf32>
    !cta.tmem<128x128xbf16>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType);
  let assemblyFormat = "`<` custom<TileShape>($shape, $elementType) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// 32-bit tensor-memory columns the tile takes.
    int64_t getColumns() const;
  }];
}

def Cta_FragType : Cta_Type<"Frag", "frag"> {
  let summary = "a tile held in the registers of the executing warpgroup(s)";
  let description = [{
    A `rows x cols` tile (or a `rows`/`cols` vector) spread over the
    registers of the threads that execute the op that made it, in one of the
    layouts of `#cta.frag_layout`: the MMA accumulator layout (`acc`), the
    MMA's register left operand (`lhs`), or one value per accumulator row
    (`rows`) or column (`cols`). Unlike `!cta.acc`, a fragment is always in
    registers, on every chip.

    ```mlir
    !cta.frag<64x128xf32, acc>
    !cta.frag<64x128xbf16, lhs>
    !cta.frag<64xf32, rows>
    ```
  }];
  let parameters = (ins ArrayRefParameter<"int64_t">:$shape, "::mlir::Type":$elementType,
                        EnumParameter<Cta_FragLayout>:$layout);
  let assemblyFormat = "`<` custom<TileShape>($shape, $elementType) `,` $layout `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Rows of the accumulator tile this fragment belongs to.
    int64_t getRows() const { return getShape()[0]; }
  }];
}

def Cta_RingType : Cta_Type<"Ring", "ring"> {
  let summary = "the barriers of a multi-stage buffer ring";
  let description = [{
    `stages` pairs of barriers: `full[s]` (the producer's copies into stage
    `s` have landed) and `empty[s]` (every consumer is done with stage `s`).
  }];
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
  let genVerifyDecl = 1;
}

def Cta_AccRingType : Cta_Type<"AccRing", "acc_ring"> {
  let summary = "accumulator sets handed from an MMA role to an epilogue role";
  let description = [{
    `stages` sets of the accumulators `accs` (in tensor memory on sm_100a)
    and a pair of barriers per set: `full[s]` (the MMAs that wrote set `s`
    have completed) and `empty[s]` (the epilogue has read set `s`). With two
    sets the MMA role computes the next tile while the epilogue stores this
    one.

    ```mlir
    !cta.acc_ring<2, [!cta.acc<128x256xf32>]>
    ```
  }];
  let parameters = (ins "int64_t":$stages,
                        ArrayRefParameter<"::kiln::cta::AccType">:$accs);
  let assemblyFormat = "`<` $stages `,` `[` $accs `]` `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Tensor-memory columns of one set: the sum of its accumulators' columns.
    int64_t getSetColumns() const;
  }];
}

#endif // KILN_CTA_TYPES_TD
