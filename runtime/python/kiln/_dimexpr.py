"""Dim expressions in Python: `128`, `M`, `M+1`, `M-1`, `M*2`, `cdiv(M,128)`.

Parsed by the runtime library (kiln_dim_expr_parse, the parser of runtime/DimExpr.h that the
compiler shares), so Python accepts exactly the shapes the runtime does. The torch integration
evaluates them on symbolic sizes (torch.SymInt) to give a kernel's outputs their shapes without
running it, so evaluation uses only +, -, * and // on whatever integer-like value the dim holds.
"""

import ctypes

from . import _lib

_KINDS = {0: "const", 1: "name", 2: "add", 3: "sub", 4: "mul", 5: "cdiv"}

_declared = None


def _parse_fn():
    global _declared
    lib = _lib.library()
    if _declared is not lib:
        fn = lib.kiln_dim_expr_parse
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.c_char_p, ctypes.POINTER(ctypes.c_int32), ctypes.c_char_p,
                       ctypes.c_size_t, ctypes.POINTER(ctypes.c_int64)]
        _declared = lib
    return lib.kiln_dim_expr_parse


class DimExpr:
    """One parsed extent: `kind` is const, name, add, sub, mul or cdiv; `name` the dim (None for
    const); `value` the integer operand (the constant for const)."""

    __slots__ = ("text", "kind", "name", "value")

    def __init__(self, text):
        self.text = text
        encoded = str(text).encode("utf-8")
        kind, value = ctypes.c_int32(), ctypes.c_int64()
        name = ctypes.create_string_buffer(len(encoded) + 1)  # the name is part of the text
        status = _parse_fn()(encoded, ctypes.byref(kind), name, len(encoded) + 1,
                             ctypes.byref(value))
        if status != 0:
            try:
                _lib.check(status)
            except _lib.KilnError as e:
                raise ValueError(str(e)) from None
        self.kind = _KINDS[kind.value]
        self.name = name.value.decode("utf-8") if self.kind != "const" else None
        self.value = value.value

    @property
    def is_plain_name(self):
        """True for a bare name, the form that binds a dim first."""
        return self.kind == "name"

    @property
    def is_shifted_name(self):
        """True for a name plus or minus a constant (`B+1`): it binds its dim where no bare
        occurrence does (runtime/DimExpr.h)."""
        return self.kind in ("add", "sub")

    @property
    def is_scaled_name(self):
        """True for a name times a positive constant (`K*2`): it binds its dim (extent // 2)
        where neither a bare nor a shifted occurrence does (runtime/DimExpr.h)."""
        return self.kind == "mul" and self.value > 0

    def invert(self, extent):
        """The dim value an extent of a plain, shifted or scaled name gives."""
        if self.kind == "add":
            return extent - self.value
        if self.kind == "sub":
            return extent + self.value
        if self.is_scaled_name:
            return extent // self.value
        return extent

    def evaluate(self, dims):
        """The extent with `dims` (name -> int or SymInt); KeyError names an unbound dim."""
        if self.kind == "const":
            return self.value
        v = dims[self.name]
        if self.kind == "name":
            return v
        if self.kind == "add":
            return v + self.value
        if self.kind == "sub":
            return v - self.value
        if self.kind == "mul":
            return v * self.value
        return (v + self.value - 1) // self.value  # cdiv, for non-negative v

    def __str__(self):
        return self.text

    def __repr__(self):
        return "DimExpr(%r)" % self.text
