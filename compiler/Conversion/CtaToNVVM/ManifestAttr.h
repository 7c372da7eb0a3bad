//===- ManifestAttr.h - a kernel's manifest as an attribute -----*- C++ -*-===//
//
// The lowered kernel carries its launch manifest (runtime/Manifest.h) in IR,
// from convert-cta-to-nvvm to the driver that writes `k.kiln.json`. In IR it
// is a structured attribute: dictionaries, arrays, strings, integers, floats
// and booleans shaped exactly like the JSON file (docs/manifest.md), so
// `--emit=llvm` shows it readably, tests can match its fields, and passes
// can read them without parsing text. The conversion goes through the
// manifest's one serializer and parser, so the attribute cannot describe
// anything the file format cannot.
//
//===----------------------------------------------------------------------===//

#ifndef KILN_COMPILER_CONVERSION_CTATONVVM_MANIFESTATTR_H
#define KILN_COMPILER_CONVERSION_CTATONVVM_MANIFESTATTR_H

#include "runtime/Manifest.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <string>

namespace kiln {

/// `manifest` as a dictionary attribute with the JSON file's fields.
mlir::DictionaryAttr manifestToAttr(const Manifest &manifest,
                                    mlir::MLIRContext *ctx);

/// The manifest `attr` describes; false with `error` set when it does not
/// describe a valid one.
bool manifestFromAttr(mlir::DictionaryAttr attr, Manifest &manifest,
                      std::string &error);

} // namespace kiln

#endif // KILN_COMPILER_CONVERSION_CTATONVVM_MANIFESTATTR_H
