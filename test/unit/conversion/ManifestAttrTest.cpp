//===- ManifestAttrTest.cpp - the manifest as an MLIR attribute -----------===//
//
// The attribute must carry every field of the file format: a manifest that
// goes through manifestToAttr and manifestFromAttr is written back
// byte-for-byte the same. The attribute's fields are typed (integers stay
// integers, fractions stay floats), and an attribute that does not describe
// a manifest is refused with the parser's message.
//
//===----------------------------------------------------------------------===//

#include "compiler/Conversion/CtaToNVVM/ManifestAttr.h"
#include "runtime/TestManifests.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace kiln;

namespace {

Manifest parsed(const char *json) {
  Manifest m;
  std::string error;
  EXPECT_TRUE(parseManifest(json, m, error)) << error;
  return m;
}

void expectRoundTrip(const char *json) {
  MLIRContext ctx;
  Manifest original = parsed(json);
  DictionaryAttr attr = manifestToAttr(original, &ctx);
  Manifest back;
  std::string error;
  ASSERT_TRUE(manifestFromAttr(attr, back, error)) << error;
  EXPECT_EQ(writeManifest(back), writeManifest(original));
}

TEST(ManifestAttr, RoundTripsTheMatmulManifest) {
  expectRoundTrip(test::kMatmulJson);
}

TEST(ManifestAttr, RoundTripsVariantsAndFractionalTileCosts) {
  expectRoundTrip(test::kMatmulVariantsJson);
}

TEST(ManifestAttr, RoundTripsAStreamKWorkspace) {
  MLIRContext ctx;
  Manifest original = parsed(test::kMatmulJson);
  original.kernelArgs.push_back({KernelArgKind::Workspace, -1, "", "", -1});
  original.launch.workspacePerCta = 132096;
  DictionaryAttr attr = manifestToAttr(original, &ctx);
  Manifest back;
  std::string error;
  ASSERT_TRUE(manifestFromAttr(attr, back, error)) << error;
  EXPECT_EQ(back, original);
}

TEST(ManifestAttr, FieldsAreTypedAttributes) {
  MLIRContext ctx;
  DictionaryAttr attr =
      manifestToAttr(parsed(test::kMatmulVariantsJson), &ctx);
  EXPECT_EQ(attr.getAs<StringAttr>("kernel").getValue(), "matmul");
  EXPECT_EQ(attr.getAs<IntegerAttr>("version").getInt(), 1);
  auto launch = attr.getAs<DictionaryAttr>("launch");
  ASSERT_TRUE(launch);
  EXPECT_EQ(launch.getAs<IntegerAttr>("dynamic_smem").getInt(), 214016);
  auto variants = attr.getAs<ArrayAttr>("variants");
  ASSERT_TRUE(variants);
  ASSERT_EQ(variants.size(), 1u);
  auto variantLaunch = llvm::cast<DictionaryAttr>(variants[0])
                           .getAs<DictionaryAttr>("launch");
  auto cost = variantLaunch.getAs<FloatAttr>("tile_cost");
  ASSERT_TRUE(cost);
  EXPECT_DOUBLE_EQ(cost.getValueAsDouble(), 1.4);
  auto maps = attr.getAs<ArrayAttr>("tensor_maps");
  ASSERT_EQ(maps.size(), 3u);
  EXPECT_TRUE(llvm::cast<DictionaryAttr>(maps[2])
                  .getAs<BoolAttr>("optional")
                  .getValue());
}

TEST(ManifestAttr, RefusesAnAttributeThatIsNotAManifest) {
  MLIRContext ctx;
  DictionaryAttr attr = manifestToAttr(parsed(test::kMatmulJson), &ctx);
  NamedAttrList fields(attr);
  fields.set("format", StringAttr::get(&ctx, "other"));
  Manifest back;
  std::string error;
  EXPECT_FALSE(
      manifestFromAttr(fields.getDictionary(&ctx), back, error));
  EXPECT_NE(error.find("format"), std::string::npos) << error;

  fields.erase("kernel_args");
  fields.set("format", StringAttr::get(&ctx, "kiln-manifest"));
  error.clear();
  EXPECT_FALSE(
      manifestFromAttr(fields.getDictionary(&ctx), back, error));
  EXPECT_NE(error.find("kernel_args"), std::string::npos) << error;
}

} // namespace
