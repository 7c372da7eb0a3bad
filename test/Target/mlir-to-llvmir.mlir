// RUN: kiln-translate --mlir-to-llvmir %s | FileCheck %s

// What the LLVM NVPTX back end receives for the kernel ABI that
// convert-cta-to-nvvm emits: a ptx_kernel whose tensor maps are 128-byte,
// 64-byte aligned __grid_constant__ by-value parameters, the launch bounds
// that let setmaxnreg take effect, and the dynamic shared-memory window.

// CHECK: @kiln_smem = external addrspace(3) global [0 x i8], align 1024
llvm.mlir.global external @kiln_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>

// CHECK-LABEL: define ptx_kernel void @matmul(
// CHECK-SAME:    ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %[[MAP0:[0-9]+]],
// CHECK-SAME:    ptr byval([128 x i8]) align 64 "nvvm.grid_constant" %{{[0-9]+}},
// CHECK-SAME:    i32 %{{[0-9]+}}, ptr addrspace(1) %{{[0-9]+}}, i64 %{{[0-9]+}}, i32 %{{[0-9]+}}) #[[ATTRS:[0-9]+]] {
// CHECK:         call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 40)
// CHECK:         call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 232)
// A tensor map is prefetched from the parameter space.
// CHECK:         %[[PARAM:[0-9]+]] = addrspacecast ptr %[[MAP0]] to ptr addrspace(101)
// CHECK:         call void @llvm.nvvm.prefetch.tensormap.p101(ptr addrspace(101) %[[PARAM]])
// CHECK:         store i32 0, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @kiln_smem, i64 1024)
// CHECK:         ret void
// The manifest stays in MLIR; only the launch attributes reach LLVM IR.
// CHECK-NOT:   kiln.manifest
// CHECK:       attributes #[[ATTRS]] = { "nvvm.cluster_dim"="2,1,1" "nvvm.minctasm"="1" "nvvm.reqntid"="384,1,1" }
llvm.func @matmul(%map0: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                  %map1: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                  %ok: i32, %c: !llvm.ptr<1>, %stride: i64, %m: i32)
    attributes {kiln.manifest = "{}", nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.kernel, nvvm.minctasm = 1 : i32,
                nvvm.reqntid = array<i32: 384, 1, 1>} {
  nvvm.setmaxregister decrease 40
  nvvm.setmaxregister increase 232
  nvvm.prefetch tensormap in_param_space, %map0 : !llvm.ptr
  %smem = llvm.mlir.addressof @kiln_smem : !llvm.ptr<3>
  %c1024 = llvm.mlir.constant(1024 : i32) : i32
  %buf = llvm.getelementptr %smem[%c1024] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
  %zero = llvm.mlir.constant(0 : i32) : i32
  llvm.store %zero, %buf : i32, !llvm.ptr<3>
  llvm.return
}
