// RUN: kiln-opt %s | kiln-opt | FileCheck %s

// Regression tests: verifier-valid cta IR that kiln-opt prints but cannot parse
// back.

// CHECK-LABEL: cta.program @swizzle_attr()
// CHECK-SAME:    s128 = #cta.swizzle<{{"?}}128B{{"?}}>
// CHECK-SAME:    s32 = #cta.swizzle<{{"?}}32B{{"?}}>
cta.program @swizzle_attr() attributes {s128 = #cta.swizzle<"128B">, s32 = #cta.swizzle<"32B">} {
  cta.return
}

// CHECK-LABEL: cta.program @no_accumulators(
// CHECK:         cta.mainloop
// CHECK:         cta.consume
cta.program @no_accumulators(%k: index {cta.dim = "K"}) {
  "cta.mainloop"(%k) <{step = 64 : i64}> ({
  ^bb0(%k0: index):
    cta.yield
  }) : (index) -> ()
  %ring = cta.ring {consumers = 1 : i64} : !cta.ring<2>
  %next = "cta.consume"(%ring, %k, %k) ({
  ^bb0(%kb: index, %slot: index):
    cta.yield
  }) : (!cta.ring<2>, index, index) -> index
  cta.return
}
