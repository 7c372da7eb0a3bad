// RUN: kiln-opt %s --gpu-module-to-binary=format=isa | FileCheck %s

// The NVPTX back end as the driver runs it (gpu-module-to-binary to PTX) on a
// kernel with Kiln's ABI: PTX 8.8 for sm_90a, the tensor maps as 128-byte
// parameters, the launch bounds ptxas needs to honour setmaxnreg (.reqntid
// with .minnctapersm), the cluster shape and the 1024-byte-aligned dynamic
// shared-memory window.

// CHECK:      gpu.binary @kiln_kernels [#gpu.object<#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">
// CHECK-SAME: assembly = "
// CHECK-SAME: .version 8.8\0A.target sm_90a\0A.address_size 64
// CHECK-SAME: .extern .shared .align 1024 .b8 kiln_smem[];
// CHECK-SAME: .visible .entry k(\0A\09.param .align 64 .b8 k_param_0[128],\0A\09.param .u32 k_param_1\0A)
// CHECK-SAME: .reqntid 256, 1, 1\0A.minnctapersm 1\0A.explicitcluster\0A.reqnctapercluster 4, 1, 1
// CHECK-SAME: prefetch.param.tensormap
// CHECK-SAME: setmaxnreg.dec.sync.aligned.u32 \0940;
// CHECK-SAME: setmaxnreg.inc.sync.aligned.u32 \09240;
module attributes {gpu.container_module} {
  gpu.module @kiln_kernels [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx88">] {
    llvm.mlir.global external @kiln_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
    llvm.func @k(%map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}, %m: i32)
        attributes {nvvm.cluster_dim = array<i32: 4, 1, 1>, nvvm.kernel, nvvm.minctasm = 1 : i32, nvvm.reqntid = array<i32: 256, 1, 1>} {
      nvvm.prefetch tensormap in_param_space, %map : !llvm.ptr
      %tid = nvvm.read.ptx.sreg.tid.x : i32
      %c128 = llvm.mlir.constant(128 : i32) : i32
      %producer = llvm.icmp "ult" %tid, %c128 : i32
      llvm.cond_br %producer, ^producer, ^consumer
    ^producer:
      nvvm.setmaxregister decrease 40
      llvm.br ^done
    ^consumer:
      nvvm.setmaxregister increase 240
      %smem = llvm.mlir.addressof @kiln_smem : !llvm.ptr<3>
      %v = llvm.mlir.constant(0 : i32) : i32
      llvm.store %v, %smem : i32, !llvm.ptr<3>
      llvm.br ^done
    ^done:
      llvm.return
    }
  }
}
