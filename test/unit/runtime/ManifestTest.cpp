//===- ManifestTest.cpp - Manifest reading, writing, checks ---------------===//

#include "TestManifests.h"

#include "runtime/Manifest.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <functional>
#include <string>

using namespace kiln;
using namespace kiln::test;

namespace {

/// `text` with the first occurrence of `from` replaced (the test fails if it is
/// missing).
std::string edit(std::string text, const std::string &from,
                 const std::string &to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos)
      << "'" << from << "' not in the manifest text";
  if (at != std::string::npos)
    text.replace(at, from.size(), to);
  return text;
}

/// Parsing `text` fails with a message containing `needle`.
void expectParseError(const std::string &text, const std::string &needle) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(parseManifest(text, m, error)) << "parsed, expected: " << needle;
  EXPECT_NE(error.find(needle), std::string::npos)
      << "error: " << error << "\nwanted: " << needle;
}

/// The matmul manifest after `change` fails validation with a message
/// containing `needle`.
void expectInvalid(const std::function<void(Manifest &)> &change,
                   const std::string &needle,
                   const Manifest &base = matmulManifest()) {
  Manifest m = base;
  change(m);
  std::string error;
  EXPECT_FALSE(validateManifest(m, error)) << "valid, expected: " << needle;
  EXPECT_NE(error.find(needle), std::string::npos)
      << "error: " << error << "\nwanted: " << needle;
}

TEST(Manifest, ReadsTheDocumentedExample) {
  Manifest m = matmulManifest();
  EXPECT_EQ(m.format, "kiln-manifest");
  EXPECT_EQ(m.version, 1);
  EXPECT_EQ(m.kernel, "matmul");
  EXPECT_EQ(m.source, "examples/matmul.kiln");
  EXPECT_EQ(m.chip, "sm_90a");
  EXPECT_EQ(m.cubin, "matmul.cubin");
  EXPECT_EQ(m.entry, "matmul");
  EXPECT_EQ(m.dims, (std::vector<std::string>{"M", "N", "K"}));
  ASSERT_EQ(m.params.size(), 3u);
  EXPECT_EQ(m.params[2].name, "c");
  EXPECT_EQ(m.params[2].role, ParamRole::Output);
  EXPECT_EQ(m.params[2].align, 2);
  EXPECT_EQ(m.params[1].shape[0].str(), "N");
  ASSERT_EQ(m.tensorMaps.size(), 3u);
  EXPECT_EQ(m.tensorMaps[1].box, (std::vector<int64_t>{64, 256}));
  EXPECT_EQ(m.tensorMaps[1].swizzle, Swizzle::B128);
  EXPECT_EQ(m.tensorMaps[1].l2Promotion, L2Promotion::B256);
  EXPECT_TRUE(m.tensorMaps[2].optional);
  ASSERT_EQ(m.kernelArgs.size(), 9u);
  EXPECT_EQ(m.kernelArgs[3].kind, KernelArgKind::TmaOk);
  EXPECT_EQ(m.kernelArgs[5].kind, KernelArgKind::Stride);
  EXPECT_EQ(m.kernelArgs[5].axis, 0);
  EXPECT_EQ(m.kernelArgs[8].dim, "K");
  EXPECT_EQ(m.launch.block, (std::array<int64_t, 3>{384, 1, 1}));
  EXPECT_EQ(m.launch.cluster, (std::array<int64_t, 3>{2, 1, 1}));
  EXPECT_EQ(m.launch.dynamicSmem, 214016);
  EXPECT_EQ(m.launch.rule, GridRule::Persistent);
  ASSERT_EQ(m.launch.tiles.size(), 2u);
  EXPECT_EQ(m.launch.tiles[1].extent.str(), "N");
  EXPECT_EQ(m.launch.tiles[1].tile, 256);
}

TEST(Manifest, RoundTripsTheExample) {
  Manifest m = matmulManifest();
  std::string text = writeManifest(m);
  Manifest back;
  std::string error;
  ASSERT_TRUE(parseManifest(text, back, error)) << error << "\n" << text;
  EXPECT_TRUE(back == m);
  // Writing is deterministic, so manifests diff cleanly.
  EXPECT_EQ(writeManifest(back), text);
}

TEST(Manifest, RoundTripsScalesExpressionsAndEveryKind) {
  for (const Manifest &m : {moeManifest(), fp4Manifest()}) {
    std::string error;
    ASSERT_TRUE(validateManifest(m, error)) << error;
    Manifest back;
    ASSERT_TRUE(parseManifest(writeManifest(m), back, error)) << error;
    EXPECT_TRUE(back == m) << writeManifest(m);
  }
}

TEST(Manifest, RoundTripsClampRows) {
  // Written only when set, so manifests without it read back unchanged.
  Manifest m = matmulManifest();
  EXPECT_EQ(writeManifest(m).find("clamp_rows"), std::string::npos);
  m.tensorMaps[0].clampRows = true;
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("\"clamp_rows\":true"), std::string::npos) << text;
  Manifest back;
  std::string error;
  ASSERT_TRUE(parseManifest(text, back, error)) << error;
  EXPECT_TRUE(back.tensorMaps[0].clampRows);
  EXPECT_FALSE(back.tensorMaps[1].clampRows);
  EXPECT_TRUE(back == m);
}

TEST(Manifest, RoundTripsEveryEnumSpelling) {
  const DType dtypes[] = {DType::BF16, DType::F16,  DType::F32,  DType::I32,
                          DType::E4M3, DType::E5M2, DType::E2M1, DType::UE8M0};
  for (DType t : dtypes) {
    Manifest m = matmulManifest();
    m.tensorMaps.clear();
    m.kernelArgs.clear();
    m.params[0].dtype = t;
    std::string error;
    Manifest back;
    ASSERT_TRUE(parseManifest(writeManifest(m), back, error))
        << dtypeName(t) << ": " << error;
    EXPECT_EQ(back.params[0].dtype, t);
    DType parsed;
    EXPECT_TRUE(parseDType(dtypeName(t), parsed));
    EXPECT_EQ(parsed, t);
  }
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
    for (L2Promotion l : {L2Promotion::None, L2Promotion::B64,
                          L2Promotion::B128, L2Promotion::B256})
      for (OobFill o : {OobFill::Zero, OobFill::NaN}) {
        Manifest m = matmulManifest();
        m.tensorMaps[0].box = {16, 8}; // 32 bytes: fits every swizzle span
        m.tensorMaps[0].swizzle = s;
        m.tensorMaps[0].l2Promotion = l;
        m.tensorMaps[0].oobFill = o;
        std::string error;
        Manifest back;
        ASSERT_TRUE(parseManifest(writeManifest(m), back, error)) << error;
        EXPECT_TRUE(back == m);
      }
  Manifest m = matmulManifest();
  m.launch.rule = GridRule::Tiles;
  m.launch.cluster = {1, 2, 1};
  Manifest back;
  std::string error;
  ASSERT_TRUE(parseManifest(writeManifest(m), back, error)) << error;
  EXPECT_TRUE(back == m);
}

TEST(Manifest, WriteNeverThrowsOnBadUtf8) {
  Manifest m = matmulManifest();
  m.source = std::string("bad \xff\xfe utf8");
  std::string text = writeManifest(m);
  ASSERT_FALSE(text.empty());
  Manifest back;
  std::string error;
  EXPECT_TRUE(parseManifest(text, back, error)) << error;
  EXPECT_EQ(back.kernel, "matmul");
}

TEST(Manifest, SourceIsOptional) {
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(
      edit(kMatmulJson, "\"source\": \"examples/matmul.kiln\",", ""), m, error))
      << error;
  EXPECT_EQ(m.source, "");
}

TEST(Manifest, UnknownKeysAreIgnored) {
  Manifest m;
  std::string error;
  EXPECT_TRUE(
      parseManifest(edit(kMatmulJson, "\"entry\": \"matmul\",",
                         "\"entry\": \"matmul\", \"comment\": {\"x\": [1]},"),
                    m, error))
      << error;
}

TEST(ManifestVersion, RefusesNewerVersionsNamingBoth) {
  std::string text = edit(kMatmulJson, "\"version\": 1", "\"version\": 2");
  expectParseError(text, "manifest version 2 is newer than the newest version "
                         "this build knows (1)");
  // The version is checked before anything else, so a newer layout still gets
  // that message.
  expectParseError(edit(text, "\"chip\": \"sm_90a\",", ""),
                   "manifest version 2 is newer");
}

TEST(ManifestVersion, RefusesOtherFormatsAndNonVersions) {
  expectParseError(edit(kMatmulJson, "\"kiln-manifest\"", "\"other\""),
                   "'other' is not a Kiln manifest");
  expectParseError(edit(kMatmulJson, "\"version\": 1", "\"version\": 0"),
                   "version 0 is not a manifest version");
  expectParseError(edit(kMatmulJson, "\"version\": 1", "\"version\": \"1\""),
                   "version: expected an integer, got string");
  expectParseError(edit(kMatmulJson, "\"format\": \"kiln-manifest\", ", ""),
                   "missing key \"format\"");
  Manifest m = matmulManifest();
  m.version = 3;
  std::string error;
  EXPECT_FALSE(validateManifest(m, error));
  EXPECT_NE(error.find("version 3 is newer"), std::string::npos) << error;
  m = matmulManifest();
  m.format = "nope";
  EXPECT_FALSE(validateManifest(m, error));
  EXPECT_NE(error.find("format is 'nope'"), std::string::npos) << error;
}

TEST(ManifestJson, MalformedJsonReportsWhere) {
  expectParseError("{\"format\": ", "malformed JSON: parse error at line 1");
  expectParseError(
      edit(kMatmulJson, "\"M\", \"N\", \"K\"]", "\"M\", \"N\", \"K\""),
      "malformed JSON: parse error at line 6, column 11");
  expectParseError("", "malformed JSON");
  expectParseError("[1, 2]", "manifest: expected an object, got array");
}

TEST(ManifestJson, WrongTypesAndMissingKeysNameThePath) {
  expectParseError(edit(kMatmulJson, "\"chip\": \"sm_90a\",", ""),
                   "manifest: missing key \"chip\"");
  expectParseError(edit(kMatmulJson, "\"dims\": [\"M\"", "\"dims\": [7"),
                   "dims[0]: expected a string, got number");
  expectParseError(edit(kMatmulJson, "\"dtype\": \"bf16\", \"shape\": [\"N\"",
                        "\"dtype\": \"bf61\", \"shape\": [\"N\""),
                   "params[1].dtype: unknown dtype 'bf61' (expected one of "
                   "bf16 f16 f32 i32 e4m3 "
                   "e5m2 e2m1 ue8m0)");
  expectParseError(
      edit(kMatmulJson, "\"role\": \"output\"", "\"role\": \"result\""),
      "params[2].role: unknown role 'result'");
  expectParseError(edit(kMatmulJson, "\"shape\": [\"N\", \"K\"]",
                        "\"shape\": [\"N\", \"K/2\"]"),
                   "params[1].shape[1]: invalid dim expression 'K/2'");
  expectParseError(
      edit(kMatmulJson, "\"shape\": [\"N\", \"K\"]", "\"shape\": [\"N\", 64]"),
      "params[1].shape[1]: expected a string, got number");
  expectParseError(
      edit(kMatmulJson, "\"shape\": [\"N\", \"K\"]", "\"shape\": \"N, K\""),
      "params[1].shape: expected an array, got string");
  expectParseError(edit(kMatmulJson, "\"align\": 2", "\"align\": 2.5"),
                   "params[2].align: expected an integer, got a fraction");
  expectParseError(
      edit(kMatmulJson, "\"align\": 2", "\"align\": 18446744073709551615"),
      "params[2].align: integer out of range");
  expectParseError(edit(kMatmulJson, ", \"align\": 2", ""),
                   "params[2]: missing key \"align\"");
  expectParseError(
      edit(kMatmulJson, "\"element\": \"bf16\"", "\"element\": \"e4m3\""),
      "tensor_maps[0].element: unknown element 'e4m3' (expected one of bf16 "
      "f16 f32 "
      "i32 u8 u4x16_align8)");
  expectParseError(
      edit(kMatmulJson, "\"swizzle\": \"128B\"", "\"swizzle\": \"256B\""),
      "tensor_maps[0].swizzle: unknown swizzle '256B'");
  expectParseError(edit(kMatmulJson, "\"l2_promotion\": \"256B\"",
                        "\"l2_promotion\": \"1KB\""),
                   "tensor_maps[0].l2_promotion: unknown l2_promotion '1KB'");
  expectParseError(
      edit(kMatmulJson, "\"oob_fill\": \"zero\"", "\"oob_fill\": \"inf\""),
      "tensor_maps[0].oob_fill: unknown oob_fill 'inf'");
  expectParseError(
      edit(kMatmulJson, "\"optional\": false", "\"optional\": 0"),
      "tensor_maps[0].optional: expected true or false, got number");
  expectParseError(edit(kMatmulJson, "\"optional\": false",
                        "\"optional\": false, \"clamp_rows\": 1"),
                   "tensor_maps[0].clamp_rows: expected true or false, got "
                   "number");
  expectParseError(
      edit(kMatmulJson, "\"box\": [64, 128]", "\"box\": [64, \"128\"]"),
      "tensor_maps[0].box[1]: expected an integer, got string");
  expectParseError(edit(kMatmulJson, "{\"kind\": \"tensor_map\", \"map\": 0}",
                        "{\"kind\": \"texture\", \"map\": 0}"),
                   "kernel_args[0].kind: unknown kernel arg kind 'texture'");
  expectParseError(edit(kMatmulJson,
                        "{\"kind\": \"stride\", \"param\": \"c\", \"axis\": 0}",
                        "{\"kind\": \"stride\", \"param\": \"c\"}"),
                   "kernel_args[5]: missing key \"axis\"");
  expectParseError(edit(kMatmulJson, "{\"kind\": \"dim\", \"dim\": \"M\"}",
                        "{\"kind\": \"dim\"}"),
                   "kernel_args[6]: missing key \"dim\"");
  expectParseError(
      edit(kMatmulJson, "{\"kind\": \"tensor_map\", \"map\": 0}", "7"),
      "kernel_args[0]: expected an object, got number");
  expectParseError(
      edit(kMatmulJson, "\"block\": [384, 1, 1]", "\"block\": [384, 1]"),
      "launch.block: expected 3 integers [x, y, z], got 2");
  expectParseError(
      edit(kMatmulJson, "\"rule\": \"persistent\"", "\"rule\": \"stream-k\""),
      "launch.grid.rule: unknown grid rule 'stream-k'");
  expectParseError(edit(kMatmulJson, "[\"M\", 128]", "[\"M\"]"),
                   "launch.grid.tiles[0]: expected [extent, tile]");
  expectParseError(edit(kMatmulJson, "[\"M\", 128]", "[\"M\", \"128\"]"),
                   "launch.grid.tiles[0][1]: expected an integer, got string");
  expectParseError(
      edit(kMatmulJson, "\"grid\": {\"rule\": \"persistent\", ", "\"grid\": {"),
      "launch.grid: missing key \"rule\"");
  expectParseError(edit(kMatmulJson, "\"params\": [", "\"params\": {\"x\": ["),
                   "malformed JSON");
}

TEST(ManifestJson, ScaleKeysAreRequiredForScalesOnly) {
  std::string scaleText = edit(kMatmulJson, "{\"name\": \"c\"",
                               "{\"name\": \"a.scale\", \"role\": \"scale\", "
                               "\"dtype\": \"f32\", \"shape\": [\"M\", "
                               "\"cdiv(K,128)\"], \"scale_of\": \"a\", "
                               "\"block\": [1, 128], \"align\": 16},\n"
                               "    {\"name\": \"c\"");
  Manifest m;
  std::string error;
  ASSERT_TRUE(parseManifest(scaleText, m, error)) << error;
  EXPECT_EQ(m.params[2].scaleOf, "a");
  EXPECT_EQ(m.params[2].block, (std::vector<int64_t>{1, 128}));
  expectParseError(edit(scaleText, "\"scale_of\": \"a\", ", ""),
                   "missing key \"scale_of\"");
  expectParseError(edit(scaleText, "\"block\": [1, 128], ", ""),
                   "missing key \"block\"");
  expectParseError(
      edit(kMatmulJson, "\"align\": 2}", "\"align\": 2, \"scale_of\": \"a\"}"),
      "params[2] 'c': scale_of/block are only allowed on role \"scale\"");
}

TEST(ManifestValidate, ChecksNamesAndReferences) {
  expectInvalid([](Manifest &m) { m.kernel.clear(); }, "kernel is empty");
  expectInvalid([](Manifest &m) { m.entry.clear(); }, "entry is empty");
  expectInvalid([](Manifest &m) { m.cubin.clear(); }, "cubin is empty");
  expectInvalid([](Manifest &m) { m.chip = "hopper"; },
                "chip 'hopper' is not a chip name");
  expectInvalid([](Manifest &m) { m.chip = "sm_9"; }, "chip 'sm_9'");
  expectInvalid([](Manifest &m) { m.dims[1] = "M"; },
                "dims: 'M' appears twice");
  expectInvalid([](Manifest &m) { m.dims[1] = "2N"; },
                "dims[1]: '2N' is not a dim name");
  expectInvalid([](Manifest &m) { m.params[1].name = "a"; },
                "params[1] 'a': the name is used by params[0] too");
  expectInvalid([](Manifest &m) { m.params[1].name.clear(); },
                "params[1]: empty name");
  expectInvalid([](Manifest &m) { m.params[0].shape[1] = DimExpr::dim("Q"); },
                "params[0] 'a' shape[1]: 'Q' uses dim 'Q', which is not in "
                "dims (M, N, K)");
  expectInvalid(
      [](Manifest &m) { m.params[0].shape[1] = DimExpr::constant(-3); },
      "params[0] 'a' shape[1]: negative extent -3");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].shape[1] = DimExpr::make(DimExpr::Kind::CeilDiv, "K", 0);
      },
      "cdiv by 0");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].shape[1] = DimExpr::make(DimExpr::Kind::CeilDiv, "K", 2);
        m.params[1].shape[1] = DimExpr::make(DimExpr::Kind::CeilDiv, "K", 2);
      },
      "dim 'K' is never a plain entry (or a name plus or times a constant) of "
      "a param shape, so no launch can bind it");
  expectInvalid([](Manifest &m) { m.params[2].align = 12; },
                "params[2] 'c': align 12 is not a power of two");
  expectInvalid([](Manifest &m) { m.params[2].align = 0; },
                "align 0 is not a power of two");
  expectInvalid(
      [](Manifest &m) { m.params[2].shape.assign(9, DimExpr::dim("M")); },
      "rank 9 exceeds the maximum of 8");
}

TEST(ManifestValidate, ChecksScales) {
  auto addScale = [](Manifest &m, const std::string &of,
                     std::vector<int64_t> block) {
    m.params.push_back(scale("s", of, DType::F32, {"M"}, std::move(block)));
  };
  expectInvalid(
      [&](Manifest &m) {
        addScale(m, "zz", {1, 128});
      },
      "params[3] 's': scale_of 'zz' is not a param");
  expectInvalid(
      [&](Manifest &m) {
        addScale(m, "a", {1, 128});
        m.params.push_back(scale("s2", "s", DType::F32, {"M"}, {1}));
      },
      "params[4] 's2': scale_of 's' is itself a scale");
  expectInvalid([&](Manifest &m) { addScale(m, "a", {}); },
                "block has 0 entries; it needs 1..2");
  expectInvalid(
      [&](Manifest &m) {
        addScale(m, "a", {1, 1, 128});
      },
      "block has 3 entries; it needs 1..2 (the rank of 'a')");
  expectInvalid(
      [&](Manifest &m) {
        addScale(m, "a", {0, 128});
      },
      "block entry 0 is not positive");
}

TEST(Manifest, RoundTripsAnAccumulatedOutput) {
  // `init` (a row reduction's output) is written only when set.
  Manifest m = matmulManifest();
  Param r;
  r.name = "r";
  r.role = ParamRole::Output;
  r.dtype = DType::F32;
  r.shape = {DimExpr::dim("M")};
  r.align = 4;
  r.init = ParamInit::NegInf;
  m.params.push_back(r);
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("\"init\":\"-inf\""), std::string::npos) << text;
  Manifest back;
  ASSERT_TRUE(parseManifest(text, back, error)) << error;
  EXPECT_TRUE(back == m);
  EXPECT_EQ(back.params.back().init, ParamInit::NegInf);
  EXPECT_EQ(back.params[0].init, ParamInit::None);
  EXPECT_EQ(initBits(ParamInit::Zero), 0u);
  EXPECT_EQ(initBits(ParamInit::NegInf), 0xff800000u);
}

TEST(ManifestValidate, InitIsForF32Outputs) {
  expectInvalid([](Manifest &m) { m.params[2].init = ParamInit::Zero; },
                "params[2] 'c': init is for f32 outputs the kernel "
                "accumulates into, not a bf16 output");
  expectInvalid([](Manifest &m) {
    m.params[0].dtype = DType::F32;
    m.params[0].init = ParamInit::Zero;
  },
                "init is for f32 outputs the kernel accumulates into, not a "
                "f32 input");
}

TEST(ManifestValidate, ChecksTensorMapsAsTheDriverWould) {
  expectInvalid([](Manifest &m) { m.tensorMaps[0].param = "zz"; },
                "tensor_maps[0]: param 'zz' does not exist");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].shape.assign(6, DimExpr::dim("M"));
        m.params[0].shape[1] = DimExpr::dim("K");
        m.tensorMaps[0].box.assign(6, 1);
      },
      "tensor_maps[0] ('a'): the param has rank 6; tensor maps need rank 1..5");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].shape = {DimExpr::dim("K")};
        m.tensorMaps[0].box = {64};
        m.tensorMaps[0].clampRows = true;
      },
      "tensor_maps[0] ('a'): clamp_rows clamps the second-to-last axis; the "
      "param has rank 1");
  expectInvalid(
      [](Manifest &m) { m.tensorMaps[0].box = {64}; },
      "tensor_maps[0] ('a'): box has 1 entries but the param has rank 2");
  expectInvalid(
      [](Manifest &m) {
        m.tensorMaps[0].box = {64, 512};
      },
      "box[1] = 512 is outside 1..256");
  expectInvalid(
      [](Manifest &m) {
        m.tensorMaps[0].box = {0, 64};
      },
      "box[0] = 0 is outside 1..256");
  expectInvalid([](Manifest &m) { m.tensorMaps[0].element = TmaElement::F16; },
                "element f16 cannot carry dtype bf16");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].dtype = DType::E4M3;
        m.tensorMaps[0].element = TmaElement::BF16;
      },
      "element bf16 cannot carry dtype e4m3 (fp8 and ue8m0 use u8");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].dtype = DType::F32;
        m.tensorMaps[0].element = TmaElement::U8;
      },
      "element u8 cannot carry dtype f32");
  expectInvalid(
      [](Manifest &m) {
        m.tensorMaps[0].box = {4, 128};
      },
      "the innermost box is 4 x bf16 = 64 bits, not a multiple of 16 bytes");
  expectInvalid(
      [](Manifest &m) {
        m.tensorMaps[0].box = {128, 128};
      },
      "the innermost box is 256 bytes, wider than the 128B swizzle span");
  expectInvalid(
      [](Manifest &m) {
        m.tensorMaps[0].box = {32, 128};
        m.tensorMaps[0].swizzle = Swizzle::B32;
      },
      "the innermost box is 64 bytes, wider than the 32B swizzle span");
  expectInvalid(
      [](Manifest &m) {
        m.params[0].dtype = DType::E4M3;
        m.tensorMaps[0].element = TmaElement::U8;
        m.tensorMaps[0].oobFill = OobFill::NaN;
      },
      "oob_fill \"nan\" needs a floating-point element, not u8");
  // Allowed: a box without swizzle may be wider than 128 bytes.
  Manifest ok = matmulManifest();
  ok.tensorMaps[0].box = {256, 8};
  ok.tensorMaps[0].swizzle = Swizzle::None;
  std::string error;
  EXPECT_TRUE(validateManifest(ok, error)) << error;
}

TEST(ManifestValidate, ChecksKernelArgs) {
  expectInvalid([](Manifest &m) { m.kernelArgs[0].map = 3; },
                "kernel_args[0] (tensor_map): map 3 is not an index into "
                "tensor_maps (3 maps)");
  expectInvalid([](Manifest &m) { m.kernelArgs[3].map = -1; },
                "kernel_args[3] (tma_ok): map -1 is not an index");
  expectInvalid([](Manifest &m) { m.kernelArgs[4].param = "d"; },
                "kernel_args[4] (pointer): param 'd' does not exist");
  expectInvalid(
      [](Manifest &m) { m.kernelArgs[5].axis = 2; },
      "kernel_args[5] (stride): axis 2 is outside param 'c' of rank 2");
  expectInvalid([](Manifest &m) { m.kernelArgs[6].dim = "B"; },
                "kernel_args[6] (dim): dim 'B' is not in dims (M, N, K)");
}

TEST(ManifestValidate, ChecksLaunch) {
  expectInvalid(
      [](Manifest &m) {
        m.launch.block = {0, 1, 1};
      },
      "launch.block has a non-positive entry");
  expectInvalid(
      [](Manifest &m) {
        m.launch.cluster = {1, 0, 1};
      },
      "launch.cluster has a non-positive entry");
  expectInvalid(
      [](Manifest &m) {
        m.launch.block = {1025, 1, 1};
      },
      "launch.block [1025, 1, 1] exceeds CUDA's limits");
  expectInvalid([](Manifest &m) { m.launch.block = {1, 1, 65}; }, "z <= 64");
  expectInvalid(
      [](Manifest &m) {
        m.launch.cluster = {32, 1, 1};
      },
      "launch.cluster has 32 CTAs; the hardware maximum is 16");
  expectInvalid([](Manifest &m) { m.launch.dynamicSmem = -1; },
                "launch.dynamic_smem -1 is out of range");
  expectInvalid(
      [](Manifest &m) {
        m.launch.rule = GridRule::Tiles;
        m.launch.tiles.assign(4, {DimExpr::dim("M"), 1});
      },
      "rule \"tiles\" has 4 axes; a grid has at most 3");
  expectInvalid(
      [](Manifest &m) {
        m.launch.cluster = {1, 2, 1};
      },
      "rule \"persistent\" launches a 1-D grid, so cluster must be [n, 1, 1]");
  expectInvalid([](Manifest &m) { m.launch.tiles[0].tile = 0; },
                "launch.grid.tiles[0]: tile 0 is not positive");
  expectInvalid(
      [](Manifest &m) { m.launch.tiles[1].extent = DimExpr::dim("Z"); },
      "launch.grid.tiles[1]: 'Z' uses dim 'Z', which is not in dims");
}

/// The matmul manifest with a stream-K workspace: one more kernel arg and
/// the bytes per CTA.
Manifest withWorkspace() {
  Manifest m = matmulManifest();
  m.kernelArgs.push_back({KernelArgKind::Workspace, -1, "", "", -1});
  m.launch.workspacePerCta = 132096;
  return m;
}

TEST(ManifestWorkspace, RoundTrips) {
  Manifest m = withWorkspace();
  std::string error;
  ASSERT_TRUE(validateManifest(m, error)) << error;
  std::string text = writeManifest(m);
  EXPECT_NE(text.find("{\"kind\":\"workspace\"}"), std::string::npos) << text;
  EXPECT_NE(text.find("\"workspace_per_cta\":132096"), std::string::npos) << text;
  Manifest back;
  ASSERT_TRUE(parseManifest(text, back, error)) << error;
  EXPECT_EQ(back, m);
  // Without a workspace the key is not written.
  EXPECT_EQ(writeManifest(matmulManifest()).find("workspace"), std::string::npos);
}

TEST(ManifestWorkspace, ArgAndSizeMustAgree) {
  auto expect = [](const std::function<void(Manifest &)> &change,
                   const std::string &needle) {
    expectInvalid(change, needle, withWorkspace());
  };
  expect([](Manifest &m) { m.launch.workspacePerCta = 0; },
         "kernel_args[9] (workspace): the kernel takes a workspace but "
         "launch.workspace_per_cta is not positive");
  expect([](Manifest &m) { m.kernelArgs.pop_back(); },
         "launch.workspace_per_cta is set but no kernel_arg is a workspace");
  expect(
      [](Manifest &m) {
        m.kernelArgs.pop_back();
        m.launch.workspacePerCta = -16;
      },
         "launch.workspace_per_cta -16 is outside [0, 2^32] bytes");
  expect([](Manifest &m) { m.launch.workspacePerCta = int64_t(1) << 40; },
         "is outside [0, 2^32] bytes");
  expectParseError(edit(writeManifest(withWorkspace()),
                        "\"workspace_per_cta\":132096",
                        "\"workspace_per_cta\":\"big\""),
                   "workspace_per_cta");
}

TEST(ManifestFile, ReadsFilesAndNamesThePathOnErrors) {
  Manifest m;
  std::string error;
  EXPECT_FALSE(readManifestFile("/nonexistent/k.kiln.json", m, error));
  EXPECT_NE(error.find("/nonexistent/k.kiln.json: cannot read the manifest: "),
            std::string::npos)
      << error;

  std::string path = ::testing::TempDir() + "kiln_manifest_test.kiln.json";
  FILE *f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::string text = edit(kMatmulJson, "\"version\": 1", "\"version\": 9");
  std::fputs(text.c_str(), f);
  std::fclose(f);
  EXPECT_FALSE(readManifestFile(path, m, error));
  EXPECT_NE(error.find(path + ": version: manifest version 9"),
            std::string::npos)
      << error;

  f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(kMatmulJson, f);
  std::fclose(f);
  EXPECT_TRUE(readManifestFile(path, m, error)) << error;
  EXPECT_EQ(m.kernel, "matmul");
  std::remove(path.c_str());
}

TEST(ManifestFile, ManifestPathForCubin) {
  EXPECT_EQ(manifestPathForCubin("out/k.cubin"), "out/k.kiln.json");
  EXPECT_EQ(manifestPathForCubin("k.cubin"), "k.kiln.json");
  EXPECT_EQ(manifestPathForCubin("out.d/k"), "out.d/k.kiln.json");
  EXPECT_EQ(manifestPathForCubin("out/.hidden"), "out/.hidden.kiln.json");
}

} // namespace

// Group offsets (`segments`): a rank-1 i32 param and a dim of rows.
TEST(Manifest, ChecksSegments) {
  Manifest moe = moeManifest();
  expectInvalid([](Manifest &m) { m.segments[0].param = "cu"; },
                "segments[0].param: no param named 'cu'", moe);
  expectInvalid([](Manifest &m) { m.segments[0].param = "y"; },
                "segments[0].param: 'y' is not a rank-1 i32 tensor", moe);
  expectInvalid([](Manifest &m) { m.segments[0].param = "bias"; },
                "segments[0].param: 'bias' is not a rank-1 i32 tensor", moe);
  expectInvalid([](Manifest &m) { m.segments[0].rows = "S"; },
                "segments[0].rows: no dim named 'S'", moe);
  // Written only when there are some; a manifest without them reads back
  // without them.
  EXPECT_NE(writeManifest(moe).find(R"("segments": [)"), std::string::npos);
  EXPECT_EQ(writeManifest(matmulManifest()).find("segments"),
            std::string::npos);
}
