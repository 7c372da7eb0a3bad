// RUN: kiln-opt %s --pass-pipeline='builtin.module(gpu.module(convert-math-to-nvvm-approx))' | FileCheck %s

// f32 tanh becomes the one tanh.approx.f32 instruction instead of libdevice's
// inlined expansion, and an f32 exp2 marked afn (attention's softmax) the one
// ex2.approx.ftz.f32; other types, exp2 without afn and other functions are
// left to convert-gpu-to-nvvm.

gpu.module @kernels {
  // CHECK-LABEL: llvm.func @tanh_f32
  // CHECK-SAME:    (%[[X:.*]]: f32)
  // CHECK-NEXT:    %[[Y:.*]] = llvm.inline_asm asm_dialect = att "tanh.approx.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
  // CHECK-NEXT:    llvm.return %[[Y]]
  llvm.func @tanh_f32(%x: f32) -> f32 {
    %y = math.tanh %x : f32
    llvm.return %y : f32
  }

  // CHECK-LABEL: llvm.func @tanh_f16
  // CHECK-NEXT:    math.tanh %{{.*}} : f16
  llvm.func @tanh_f16(%h: f16) -> f16 {
    %t = math.tanh %h : f16
    llvm.return %t : f16
  }

  // CHECK-LABEL: llvm.func @exp_f32
  // CHECK-NEXT:    math.exp %{{.*}} : f32
  llvm.func @exp_f32(%x: f32) -> f32 {
    %e = math.exp %x : f32
    llvm.return %e : f32
  }

  // CHECK-LABEL: llvm.func @exp2_afn
  // CHECK-SAME:    (%[[X:.*]]: f32)
  // CHECK-NEXT:    %[[Y:.*]] = llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f" %[[X]] : (f32) -> f32
  // CHECK-NEXT:    llvm.return %[[Y]]
  llvm.func @exp2_afn(%x: f32) -> f32 {
    %y = math.exp2 %x fastmath<afn> : f32
    llvm.return %y : f32
  }

  // CHECK-LABEL: llvm.func @exp2_exact
  // CHECK-NEXT:    math.exp2 %{{.*}} : f32
  llvm.func @exp2_exact(%x: f32) -> f32 {
    %y = math.exp2 %x : f32
    llvm.return %y : f32
  }
}
