//===- TestManifests.h - Manifests shared by the runtime tests -*- C++ -*-===//

#ifndef KILN_TEST_UNIT_RUNTIME_TESTMANIFESTS_H
#define KILN_TEST_UNIT_RUNTIME_TESTMANIFESTS_H

#include "runtime/LaunchPlan.h"
#include "runtime/Manifest.h"
#include "runtime/Tensor.h"

#include "gtest/gtest.h"

#include <string>

namespace kiln {
namespace test {

/// The bf16 matmul example of docs/manifest.md, verbatim.
inline const char *kMatmulJson = R"({
  "format": "kiln-manifest", "version": 1,
  "kernel": "matmul", "source": "examples/matmul.kiln", "chip": "sm_90a",
  "cubin": "matmul.cubin", "entry": "matmul",
  "dims": ["M", "N", "K"],
  "params": [
    {"name": "a", "role": "input",  "dtype": "bf16", "shape": ["M", "K"], "align": 16},
    {"name": "b", "role": "input",  "dtype": "bf16", "shape": ["N", "K"], "align": 16},
    {"name": "c", "role": "output", "dtype": "bf16", "shape": ["M", "N"], "align": 2}
  ],
  "tensor_maps": [
    {"param": "a", "element": "bf16", "box": [64, 128], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero", "optional": false},
    {"param": "b", "element": "bf16", "box": [64, 256], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero", "optional": false},
    {"param": "c", "element": "bf16", "box": [64, 64],  "swizzle": "128B", "l2_promotion": "none", "oob_fill": "zero", "optional": true}
  ],
  "kernel_args": [
    {"kind": "tensor_map", "map": 0}, {"kind": "tensor_map", "map": 1}, {"kind": "tensor_map", "map": 2},
    {"kind": "tma_ok", "map": 2}, {"kind": "pointer", "param": "c"}, {"kind": "stride", "param": "c", "axis": 0},
    {"kind": "dim", "dim": "M"}, {"kind": "dim", "dim": "N"}, {"kind": "dim", "dim": "K"}
  ],
  "launch": {"block": [384, 1, 1], "cluster": [2, 1, 1], "dynamic_smem": 214016,
             "grid": {"rule": "persistent", "tiles": [["M", 128], ["N", 256]]}}
})";

/// The matmul example with "tile_cost": 4 and the 128x64-tile variant of
/// docs/manifest.md's "Variants" section (its `variants` block verbatim).
inline const char *kMatmulVariantsJson = R"({
  "format": "kiln-manifest", "version": 1,
  "kernel": "matmul", "source": "examples/matmul.kiln", "chip": "sm_90a",
  "cubin": "matmul.cubin", "entry": "matmul",
  "dims": ["M", "N", "K"],
  "params": [
    {"name": "a", "role": "input",  "dtype": "bf16", "shape": ["M", "K"], "align": 16},
    {"name": "b", "role": "input",  "dtype": "bf16", "shape": ["N", "K"], "align": 16},
    {"name": "c", "role": "output", "dtype": "bf16", "shape": ["M", "N"], "align": 2}
  ],
  "tensor_maps": [
    {"param": "a", "element": "bf16", "box": [64, 128], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero", "optional": false},
    {"param": "b", "element": "bf16", "box": [64, 256], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero", "optional": false},
    {"param": "c", "element": "bf16", "box": [64, 64],  "swizzle": "128B", "l2_promotion": "none", "oob_fill": "zero", "optional": true}
  ],
  "kernel_args": [
    {"kind": "tensor_map", "map": 0}, {"kind": "tensor_map", "map": 1}, {"kind": "tensor_map", "map": 2},
    {"kind": "tma_ok", "map": 2}, {"kind": "pointer", "param": "c"}, {"kind": "stride", "param": "c", "axis": 0},
    {"kind": "dim", "dim": "M"}, {"kind": "dim", "dim": "N"}, {"kind": "dim", "dim": "K"}
  ],
  "launch": {"block": [384, 1, 1], "cluster": [2, 1, 1], "dynamic_smem": 214016, "tile_cost": 4,
             "grid": {"rule": "persistent", "tiles": [["M", 128], ["N", 256]]}},
  "variants": [
    {
      "entry": "matmul_128x64",
      "tensor_maps": [
        {"param": "a", "element": "bf16", "box": [64, 128], "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero", "optional": false},
        {"param": "b", "element": "bf16", "box": [64, 64],  "swizzle": "128B", "l2_promotion": "256B", "oob_fill": "zero", "optional": false},
        {"param": "c", "element": "bf16", "box": [64, 64],  "swizzle": "128B", "l2_promotion": "none", "oob_fill": "zero", "optional": true}
      ],
      "kernel_args": [
        {"kind": "tensor_map", "map": 0}, {"kind": "tensor_map", "map": 1}, {"kind": "tensor_map", "map": 2},
        {"kind": "tma_ok", "map": 2}, {"kind": "pointer", "param": "c"}, {"kind": "stride", "param": "c", "axis": 0},
        {"kind": "dim", "dim": "M"}, {"kind": "dim", "dim": "N"}, {"kind": "dim", "dim": "K"}
      ],
      "launch": {"block": [384, 1, 1], "cluster": [2, 1, 1], "dynamic_smem": 148480, "tile_cost": 1.4,
                 "grid": {"rule": "persistent", "tiles": [["M", 128], ["N", 64]]}}
    }
  ]
})";

inline Manifest matmulManifest() {
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifest(kMatmulJson, m, error)) << error;
  return m;
}

inline Manifest matmulVariantsManifest() {
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifest(kMatmulVariantsJson, m, error)) << error;
  return m;
}

inline LaunchPlan planOf(const Manifest &m) {
  LaunchPlan p;
  std::string error;
  EXPECT_TRUE(buildLaunchPlan(m, p, error)) << error;
  return p;
}

inline Param param(const std::string &name, ParamRole role, DType dtype,
                   std::vector<std::string> shape, int64_t align = 16) {
  Param p;
  p.name = name;
  p.role = role;
  p.dtype = dtype;
  for (const std::string &s : shape) {
    DimExpr e;
    std::string error;
    EXPECT_TRUE(DimExpr::parse(s, e, error)) << error;
    p.shape.push_back(e);
  }
  p.align = align;
  return p;
}

inline Param scale(const std::string &name, const std::string &of, DType dtype,
                   std::vector<std::string> shape, std::vector<int64_t> block) {
  Param p = param(name, ParamRole::Scale, dtype, std::move(shape), 16);
  p.scaleOf = of;
  p.block = std::move(block);
  return p;
}

inline TensorMapDesc tmap(const std::string &param, TmaElement e,
                          std::vector<int64_t> box, Swizzle sw,
                          bool optional = false) {
  TensorMapDesc t;
  t.param = param;
  t.element = e;
  t.box = std::move(box);
  t.swizzle = sw;
  t.l2Promotion = L2Promotion::B128;
  t.oobFill = OobFill::Zero;
  t.optional = optional;
  return t;
}

inline KernelArg arg(KernelArgKind k, int64_t map = -1, std::string param = "",
                     std::string dim = "", int64_t axis = -1) {
  KernelArg a;
  a.kind = k;
  a.map = map;
  a.param = std::move(param);
  a.dim = std::move(dim);
  a.axis = axis;
  return a;
}

/// A grouped fp8 GEMM with DeepSeek-style block scales, an expression-shaped
/// offsets tensor, a constant axis and every kernel-arg kind: exercises what
/// the matmul example does not.
inline Manifest moeManifest() {
  Manifest m;
  m.kernel = "moe_fp8";
  m.source = "examples/moe_fp8.kiln";
  m.chip = "sm_90a";
  m.cubin = "moe_fp8.cubin";
  m.entry = "moe_fp8_kernel";
  m.dims = {"T", "N", "K", "E"};
  m.params = {
      param("x", ParamRole::Input, DType::E4M3, {"T", "K"}),
      scale("x.scale", "x", DType::F32, {"T", "cdiv(K,128)"}, {1, 128}),
      param("w", ParamRole::Input, DType::E4M3, {"E", "N", "K"}),
      scale("w.scale", "w", DType::F32, {"E", "cdiv(N,128)", "cdiv(K,128)"},
            {128, 128}),
      param("offsets", ParamRole::Input, DType::I32, {"E+1"}, 4),
      param("bias", ParamRole::Input, DType::F32, {"8"}, 4),
      param("y", ParamRole::Output, DType::BF16, {"T", "N"}, 2),
  };
  m.tensorMaps = {
      tmap("x", TmaElement::U8, {128, 128}, Swizzle::B128),
      tmap("w", TmaElement::U8, {128, 128, 1}, Swizzle::B128),
      tmap("y", TmaElement::BF16, {64, 64}, Swizzle::B128, /*optional=*/true),
  };
  m.kernelArgs = {
      arg(KernelArgKind::TensorMap, 0),
      arg(KernelArgKind::TensorMap, 1),
      arg(KernelArgKind::TensorMap, 2),
      arg(KernelArgKind::TmaOk, 2),
      arg(KernelArgKind::Pointer, -1, "x.scale"),
      arg(KernelArgKind::Pointer, -1, "w.scale"),
      arg(KernelArgKind::Pointer, -1, "offsets"),
      arg(KernelArgKind::Pointer, -1, "y"),
      arg(KernelArgKind::Stride, -1, "y", "", 0),
      arg(KernelArgKind::Dim, -1, "", "T"),
      arg(KernelArgKind::Dim, -1, "", "N"),
      arg(KernelArgKind::Dim, -1, "", "K"),
      arg(KernelArgKind::Dim, -1, "", "E"),
  };
  m.launch.block = {256, 1, 1};
  m.launch.cluster = {1, 2, 1};
  m.launch.dynamicSmem = 100000;
  m.launch.rule = GridRule::Tiles;
  m.segments = {{"offsets", "T"}};
  m.launch.tiles = {{DimExpr::dim("N"), 128}, {DimExpr::dim("T"), 64}};
  return m;
}

/// NVFP4-style packed operands: one map reads e2m1 as u8 bytes, one as
/// u4x16_align8.
inline Manifest fp4Manifest() {
  Manifest m;
  m.kernel = "fp4";
  m.chip = "sm_100a";
  m.cubin = "fp4.cubin";
  m.entry = "fp4";
  m.dims = {"M", "N", "K"};
  m.params = {
      param("a", ParamRole::Input, DType::E2M1, {"M", "K"}),
      param("b", ParamRole::Input, DType::E2M1, {"N", "K"}),
      scale("a.scale", "a", DType::E4M3, {"M", "cdiv(K,16)"}, {1, 16}),
      param("c", ParamRole::Output, DType::F16, {"M", "N"}),
  };
  m.tensorMaps = {
      tmap("a", TmaElement::U8, {64, 128}, Swizzle::B64),
      tmap("b", TmaElement::U4x16Align8, {128, 64}, Swizzle::B128,
           /*optional=*/true),
  };
  m.kernelArgs = {arg(KernelArgKind::TensorMap, 0),
                  arg(KernelArgKind::TensorMap, 1)};
  m.launch.block = {128, 1, 1};
  m.launch.tiles = {{DimExpr::dim("M"), 128}};
  return m;
}

} // namespace test
} // namespace kiln

#endif // KILN_TEST_UNIT_RUNTIME_TESTMANIFESTS_H
