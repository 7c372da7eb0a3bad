"""Dim expressions in Python: `128`, `M`, `M+1`, `M-1`, `M*2`, `cdiv(M,128)`.

The same forms runtime/DimExpr.h parses (one dim name at most). The torch integration evaluates
them on symbolic sizes (torch.SymInt) to give a kernel's outputs their shapes without running it,
so evaluation uses only +, -, * and // on whatever integer-like value the dim holds.
"""

import re

_FORMS = [
    (re.compile(r"^(\d+)$"), "const"),
    (re.compile(r"^([A-Za-z_]\w*)$"), "name"),
    (re.compile(r"^([A-Za-z_]\w*)\+(\d+)$"), "add"),
    (re.compile(r"^([A-Za-z_]\w*)-(\d+)$"), "sub"),
    (re.compile(r"^([A-Za-z_]\w*)\*(\d+)$"), "mul"),
    (re.compile(r"^cdiv\(([A-Za-z_]\w*),(\d+)\)$"), "cdiv"),
]


class DimExpr:
    """One parsed extent: `kind` is const, name, add, sub, mul or cdiv; `name` the dim (None for
    const); `value` the integer operand (the constant for const)."""

    __slots__ = ("text", "kind", "name", "value")

    def __init__(self, text):
        self.text = text
        s = "".join(text.split())
        for pattern, kind in _FORMS:
            m = pattern.match(s)
            if not m:
                continue
            self.kind = kind
            if kind == "const":
                self.name, self.value = None, int(m.group(1))
            elif kind == "name":
                self.name, self.value = m.group(1), 0
            else:
                self.name, self.value = m.group(1), int(m.group(2))
            if kind == "cdiv" and self.value == 0:
                break
            return
        raise ValueError("invalid dim expression '%s' (expected N, NAME, NAME+N, NAME-N, NAME*N "
                         "or cdiv(NAME,N))" % text)

    @property
    def is_plain_name(self):
        """True for a bare name, the only form that binds a dim."""
        return self.kind == "name"

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
