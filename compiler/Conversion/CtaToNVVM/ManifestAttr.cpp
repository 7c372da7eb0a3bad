//===- ManifestAttr.cpp - a kernel's manifest as an attribute -------------===//

#include "compiler/Conversion/CtaToNVVM/ManifestAttr.h"

#include "mlir/IR/Builders.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

namespace {

Attribute toAttr(const llvm::json::Value &value, Builder &b) {
  if (const llvm::json::Object *object = value.getAsObject()) {
    SmallVector<NamedAttribute> fields;
    for (const auto &[key, field] : *object)
      fields.push_back(b.getNamedAttr(key.str(), toAttr(field, b)));
    return b.getDictionaryAttr(fields);
  }
  if (const llvm::json::Array *array = value.getAsArray()) {
    SmallVector<Attribute> elements;
    for (const llvm::json::Value &element : *array)
      elements.push_back(toAttr(element, b));
    return b.getArrayAttr(elements);
  }
  if (std::optional<llvm::StringRef> text = value.getAsString())
    return b.getStringAttr(*text);
  if (std::optional<bool> flag = value.getAsBoolean())
    return b.getBoolAttr(*flag);
  if (std::optional<int64_t> integer = value.getAsInteger())
    return b.getI64IntegerAttr(*integer);
  if (std::optional<double> number = value.getAsNumber())
    return b.getF64FloatAttr(*number);
  return b.getUnitAttr(); // null
}

llvm::json::Value toJson(Attribute attr) {
  if (auto dict = llvm::dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute field : dict)
      object[field.getName().str()] = toJson(field.getValue());
    return llvm::json::Value(std::move(object));
  }
  if (auto array = llvm::dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array elements;
    for (Attribute element : array)
      elements.push_back(toJson(element));
    return llvm::json::Value(std::move(elements));
  }
  if (auto text = llvm::dyn_cast<StringAttr>(attr))
    return llvm::json::Value(text.str());
  if (auto flag = llvm::dyn_cast<BoolAttr>(attr))
    return llvm::json::Value(flag.getValue());
  if (auto integer = llvm::dyn_cast<IntegerAttr>(attr))
    return llvm::json::Value(integer.getInt());
  if (auto number = llvm::dyn_cast<FloatAttr>(attr))
    return llvm::json::Value(number.getValueAsDouble());
  return llvm::json::Value(nullptr);
}

} // namespace

DictionaryAttr kiln::manifestToAttr(const Manifest &manifest,
                                    MLIRContext *ctx) {
  llvm::Expected<llvm::json::Value> json =
      llvm::json::parse(writeManifest(manifest));
  // writeManifest always writes valid JSON; a failure here is a bug there.
  if (!json) {
    llvm::consumeError(json.takeError());
    return DictionaryAttr::get(ctx);
  }
  Builder b(ctx);
  return llvm::cast<DictionaryAttr>(toAttr(*json, b));
}

bool kiln::manifestFromAttr(DictionaryAttr attr, Manifest &manifest,
                            std::string &error) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << toJson(attr);
  return parseManifest(os.str(), manifest, error);
}
