//===- Passes.td - conversions between Kiln's IRs -------------------------===//

#ifndef KILN_CONVERSION_PASSES_TD
#define KILN_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertTileToCta : Pass<"convert-tile-to-cta", "::mlir::ModuleOp"> {
  let summary = "tile a scheduled tile.kernel onto thread blocks";
  let description = [{
    Turns each `tile.kernel` whose body is one scheduled `tile.contract`
    into a `cta.program`: global tensors become memref arguments, symbolic
    dims become index arguments, and the contraction becomes a
    `cta.tile_loop` over output tiles with a `cta.mainloop` of `cta.load`s
    and `cta.mma`s (one per accumulator: a dual GEMM has two; block-scaled
    operands on sm_100a bring their scale buffers) and one `cta.store` per
    output carrying the epilogue region (epilogue inputs are read there).
    With `stream_k` the walk splits the last wave's K steps and joins them
    (`cta.stream_k_join`).

    Kernels this version cannot tile (attention, grouped GEMM, batched
    matmul, block scales other than MXFP8/NVFP4, a contraction of another's
    result) are reported as not implemented yet, at the op that needs it.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target chip: sm_90a or sm_100a">,
  ];
  let dependentDialects = ["::kiln::cta::CtaDialect", "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect", "::mlir::scf::SCFDialect"];
}

def ConvertCtaToNVVM : Pass<"convert-cta-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "lower cta programs to NVVM and LLVM dialect kernels";
  let description = [{
    The only target-specific lowering, of programs whose resources
    `cta-allocate-resources` decided (an op without them is an error). The
    chip's MMA family picks the lowering (ChipLowering.h: wgmma or tcgen05);
    its check reports what it cannot lower at the op before anything is
    rewritten. For `chip=sm_90a`: buffers become their slices of dynamic
    shared memory (`smem_offset`); rings become mbarrier
    pairs with the full/empty parity protocol; `cta.load` becomes TMA
    (`cp.async.bulk.tensor`, multicast within a cluster); `cta.mma` becomes
    `wgmma.mma_async` on shared-memory descriptors; `cta.store` converts and
    writes accumulator fragments with `stmatrix` into a swizzled staging
    buffer and issues TMA stores (or direct stores when the destination rows
    are not 16-byte aligned); warp roles get `setmaxnreg`. Each program
    becomes an `llvm.func` with `nvvm.kernel` inside a `gpu.module` carrying
    an `#nvvm.target` (`+ptx88`), and records its launch ABI as the
    `kiln.manifest` attribute (JSON, docs/manifest.md).

    For `chip=sm_100a`: accumulators live in tensor memory (`tcgen05.alloc`),
    `cta.mma` becomes `tcgen05.mma` issued by one thread of a dedicated MMA
    warp (block-scaled kinds `mxf8f6f4` and `mxf4nvf4` with scales copied
    to tensor memory by `tcgen05.cp`; `cta_group::2` for a CTA pair), and
    the epilogue warpgroup reads accumulators with `tcgen05.ld` from a ring
    of accumulator sets (`cta.acc_ring`). These kernels are checked by
    ptxas and FileCheck; no Blackwell GPU has run them.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target chip: sm_90a or sm_100a">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
                           "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect", "::mlir::cf::ControlFlowDialect"];
}

def ConvertMathToNVVMApprox
    : Pass<"convert-math-to-nvvm-approx", "::mlir::gpu::GPUModuleOp"> {
  let summary = "lower f32 math functions to the GPU's approximate instructions";
  let description = [{
    Runs before `convert-gpu-to-nvvm`, which lowers every math function to
    a libdevice call that LLVM inlines: an epilogue applies it to each of
    the 64 to 128 accumulator elements a thread holds, so a few nested
    calls become hundreds of kilobytes of PTX and minutes of ptxas. Where
    the hardware instruction is accurate enough for an epilogue (its
    result is rounded to bf16 or f16, or feeds a smooth activation), the
    function becomes that one instruction instead (docs/language.md lists
    each function's lowering and error):

    - `math.tanh` (f32) -> `tanh.approx.f32` (relative error below 2^-10.7).
    - `math.exp2` (f32) marked `fastmath<afn>` -> `ex2.approx.ftz.f32`
      (relative error below 2^-22; subnormal results are zero): attention's
      softmax exponentials, which the attention lowering marks `afn`.

    ```mlir
    %y = math.tanh %x : f32
    // becomes
    %y = llvm.inline_asm "tanh.approx.f32 $0, $1;", "=f,f" %x : (f32) -> f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // KILN_CONVERSION_PASSES_TD
