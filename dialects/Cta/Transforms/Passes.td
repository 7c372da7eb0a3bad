//===- Passes.td - passes over the cta dialect ----------------------------===//

#ifndef KILN_CTA_PASSES_TD
#define KILN_CTA_PASSES_TD

include "mlir/Pass/PassBase.td"

def CtaAssignLayouts : Pass<"cta-assign-layouts", "::kiln::cta::ProgramOp"> {
  let summary = "choose a swizzle for every shared-memory buffer";
  let description = [{
    Gives each `!cta.buffer` the widest swizzle (128B, 64B, 32B, else none)
    whose span divides the byte width of one buffer row, so that the TMA box
    that fills it, its 1024-byte-aligned allocation and the MMA descriptors
    that read it all agree. Buffers that are already laid out keep theirs.

    Before: `!cta.buffer<128x64xbf16>` (128-byte rows).
    After:  `!cta.buffer<128x64xbf16, swizzle = "128B">`.
  }];
}

def CtaPipeline : Pass<"cta-pipeline", "::kiln::cta::ProgramOp"> {
  let summary = "multi-stage ring, producer/consumer warp roles";
  let description = [{
    Rewrites a program whose tiles run a `cta.mainloop` into a
    warp-specialized one:

    - the buffers the mainloop loads become rings of `stages` buffers with a
      `cta.ring` of full/empty barriers;
    - a producer warpgroup walks the same tiles and fills stages
      (`cta.produce`), a consumer role of `consumers` warpgroups drains them
      (`cta.consume`), each consumer owning its row slice of the
      accumulator;
    - the epilogue stays with the consumers and stores through a staging
      buffer per consumer;
    - register budgets per role (setmaxnreg) and the block size are set.

    Stages, consumers and the cluster come from the schedule that
    `convert-tile-to-cta` copied onto the program (`cta.schedule`).
  }];
}

def CtaAllocateResources : Pass<"cta-allocate-resources", "::kiln::cta::ProgramOp"> {
  let summary = "decide shared memory, tensor memory and role facts in the IR";
  let description = [{
    Writes every whole-program decision the lowering needs into the program,
    where `--emit=cta` shows it:

    - `smem_offset` on each `cta.alloc` (1024-byte aligned, so swizzle
      patterns and TMA boxes start on a pattern boundary), `cta.ring` and
      `cta.acc_ring` (their mbarriers), and the program's `smem_bytes`;
    - on chips with tensor memory, `tmem_column` on each `cta.acc_zero`,
      `cta.acc_ring` and block-scale `cta.alloc`, and the program's
      `tmem_columns` (what tcgen05.alloc asks for) and `tmem_slot` (where it
      writes the address);
    - role facts the lowering cannot see once roles are lowered:
      `first_warpgroup` on `cta.warpgroup_index`, `in_stage` on MMAs that
      form a pipelined stage's batch, `one_thread` on ops an elected thread
      issues, `in_epilogue_role` on stores of an epilogue role.

    The chip comes from the program's `chip`. Recomputes everything, so it
    may run again on edited IR. Reports programs that need more shared or
    tensor memory than the chip has.
  }];
}

#endif // KILN_CTA_PASSES_TD
