//===- CtaAttrs.td - attributes of the cta dialect ------------------------===//

#ifndef KILN_CTA_ATTRS_TD
#define KILN_CTA_ATTRS_TD

include "dialects/Cta/IR/CtaDialect.td"

def Cta_SwizzleNone : I32EnumAttrCase<"none", 0>;
def Cta_Swizzle32B : I32EnumAttrCase<"b32", 32, "32B">;
def Cta_Swizzle64B : I32EnumAttrCase<"b64", 64, "64B">;
def Cta_Swizzle128B : I32EnumAttrCase<"b128", 128, "128B">;

def Cta_SwizzleKind : I32EnumAttr<"SwizzleKind", "shared-memory swizzle of a buffer",
    [Cta_SwizzleNone, Cta_Swizzle32B, Cta_Swizzle64B, Cta_Swizzle128B]> {
  let cppNamespace = "::kiln::cta";
  let genSpecializedAttr = 0;
}

def Cta_SwizzleAttr : EnumAttr<Cta_Dialect, Cta_SwizzleKind, "swizzle"> {
  let summary = "how 16-byte chunks of a buffer row are permuted";
  let description = [{
    `128B`, `64B`, `32B`: the 16-byte chunk index within each 128/64/32-byte
    row segment is XORed with the row index modulo 8, so that the eight rows
    of a core matrix fall in different banks. The same choice configures the
    TMA box that fills the buffer and the MMA descriptors that read it.
  }];
  let assemblyFormat = "`<` custom<SwizzleValue>($value) `>`";
}

#endif // KILN_CTA_ATTRS_TD
