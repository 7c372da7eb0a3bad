"""A Kiln kernel as a torch.library custom op (torch.ops.kiln.<name>).

The op takes one tensor per manifest input and scale of an input (block-scaled inputs are flat:
`op(a, a_scale, b, b_scale)`), and returns the outputs (with their scales) as new tensors. Its
CUDA implementation is the kernel's call (outputs from torch.empty: PyTorch's caching allocator,
launched on the current stream); its fake (meta) implementation gives the outputs their shapes
from the manifest's dim expressions, evaluated on the inputs' sizes (symbolic ones too), so
torch.compile traces it without running it and without a graph break.
"""

import hashlib
import keyword
import re
import threading

from ._dimexpr import DimExpr
from ._files import read_kernel_files
from ._lib import KilnError

NAMESPACE = "kiln"

_lock = threading.Lock()
_registered = {}  # op name -> (Kernel, torch.library.Library)


def _arg_name(name, used):
    """A schema argument name for a manifest param name (which may hold dots: `x.scale`)."""
    s = re.sub(r"\W", "_", name)
    if not s or s[0].isdigit():
        s = "p_" + s
    if keyword.iskeyword(s) or s in ("self", "out", "Tensor", "int", "float", "bool"):
        s = s + "_"
    base, n = s, 1
    while s in used:
        n += 1
        s = "%s_%d" % (base, n)
    used.add(s)
    return s


def content_digest(kernel):
    """sha256 of the kernel's manifest and cubin: one op per distinct kernel. The files are read
    with the runtime's rules (_files.read_kernel_files), since they may have changed since the
    kernel was loaded."""
    h = hashlib.sha256()
    for content in read_kernel_files(kernel.path):
        h.update(content)
    return h.hexdigest()


class _Signature:
    """The op's flat argument and result lists, from the manifest's params."""

    def __init__(self, kernel):
        self.kernel = kernel
        # Flat inputs: for each call input, its data param then its scales.
        self.inputs = [i for data, scales in kernel._inputs for i in [data] + scales]
        self.outputs = [i for data, scales in kernel._outputs for i in [data] + scales]
        self.exprs = [[DimExpr(e) for e in p.shape] for p in kernel.params]

    def schema(self, opname):
        used = set()
        args = ", ".join("Tensor " + _arg_name(self.kernel.params[i].name, used)
                         for i in self.inputs)
        rets = "Tensor" if len(self.outputs) == 1 else \
            "(%s)" % ", ".join("Tensor" for _ in self.outputs)
        return "%s(%s) -> %s" % (opname, args, rets)

    def regroup(self, tensors):
        """Call arguments of the kernel from the op's flat tensors."""
        args, k = [], 0
        for data, scales in self.kernel._inputs:
            if scales:
                args.append(tuple(tensors[k:k + 1 + len(scales)]))
            else:
                args.append(tensors[k])
            k += 1 + len(scales)
        return args

    def flatten(self, result):
        """The op's flat results from the kernel call's result."""
        if len(self.kernel._outputs) == 1:
            result = (result,)
        flat = []
        for r in result:
            flat.extend(r if isinstance(r, tuple) else (r,))
        return flat[0] if len(flat) == 1 else tuple(flat)

    def fake(self, torch, tensors):
        """Outputs with the shapes, dtypes and device a real call gives, allocating nothing real:
        dims are bound from the inputs as the runtime binds them (the first tensor with the dim
        as a plain extent, else `name+c`, else `name*c`), and every other extent is checked
        (torch._check, symbolic-safe)."""
        kernel = self.kernel
        params = kernel.params
        dims, where = {}, {}
        if not tensors:
            raise KilnError("%s has no inputs to take a device from" % kernel.name)
        for t, i in zip(tensors, self.inputs):
            p = params[i]
            shape = list(t.shape)
            if kernel._packed[i] and shape:
                shape[-1] = shape[-1] * 2  # two e2m1 values per byte
            if len(shape) != len(p.shape):
                raise KilnError("param '%s': rank %d, expected %d (shape [%s])"
                                % (p.name, len(shape), len(p.shape), ", ".join(p.shape)))
            allowed = kernel._allowed_dtypes(torch)[i]
            if t.dtype not in allowed:
                raise KilnError("param '%s': dtype %s, expected %s (kiln %s)"
                                % (p.name, t.dtype, " or ".join(str(x) for x in allowed),
                                   p.dtype))
            for axis, e in enumerate(self.exprs[i]):
                if e.is_plain_name and e.name not in dims:
                    dims[e.name] = shape[axis]
                    where[e.name] = (p.name, axis)
        # Then the dims no bare name binds, from a name plus a constant (the
        # offsets i32[B+1] of packed sequences: B = extent - 1), then from a
        # name times a constant (K*2: K = extent // 2; an odd extent fails the
        # check below).
        for binds in ("is_shifted_name", "is_scaled_name"):
            for t, i in zip(tensors, self.inputs):
                p = params[i]
                shape = list(t.shape)
                for axis, e in enumerate(self.exprs[i]):
                    if getattr(e, binds) and e.name not in dims:
                        dims[e.name] = e.invert(shape[axis])
                        where[e.name] = (p.name, axis)
        for t, i in zip(tensors, self.inputs):
            p = params[i]
            shape = list(t.shape)
            if kernel._packed[i] and shape:
                shape[-1] = shape[-1] * 2
            for axis, e in enumerate(self.exprs[i]):
                if e.name is not None and e.name not in dims:
                    raise KilnError("param '%s' axis %d: dim %s is not bound by any input"
                                    % (p.name, axis, e.name))
                if e.is_plain_name and where[e.name] == (p.name, axis):
                    continue
                want = e.evaluate(dims)
                torch._check(shape[axis] == want, lambda p=p, axis=axis, e=e: (
                    "param '%s' axis %d: extent does not match %s" % (p.name, axis, e)))
        outs = []
        for i in self.outputs:
            p = params[i]
            try:
                shape = [e.evaluate(dims) for e in self.exprs[i]]
            except KeyError as missing:
                raise KilnError("output '%s': dim %s is not bound by any input"
                                % (p.name, missing.args[0])) from None
            if kernel._packed[i] and shape:
                shape[-1] = shape[-1] // 2
            dtype = kernel._allowed_dtypes(torch)[i][0]
            outs.append(tensors[0].new_empty(shape, dtype=dtype))
        return outs[0] if len(outs) == 1 else tuple(outs)


def register(kernel, name=None):
    """Registers `kernel` as torch.ops.kiln.<name> (default: <kernel name>_<12 hex digits of the
    manifest + cubin hash>) and returns the op (an OpOverloadPacket). Registering the same
    kernel again returns the existing op; another kernel under a taken name is an error."""
    from ._kernel import _torch
    torch = _torch()
    digest = content_digest(kernel)
    opname = name or "%s_%s" % (re.sub(r"\W", "_", kernel.name), digest[:12])
    if not re.match(r"^[A-Za-z_]\w*$", opname):
        raise KilnError("op name '%s' is not an identifier" % opname, "KILN_ERROR_INVALID_VALUE")
    with _lock:
        if opname in _registered:
            other = _registered[opname][0]
            if other is not kernel and content_digest(other) != digest:
                raise KilnError("torch.ops.%s.%s is already another kernel (%s)"
                                % (NAMESPACE, opname, other.path), "KILN_ERROR_INVALID_VALUE")
            return getattr(getattr(torch.ops, NAMESPACE), opname)
        sig = _Signature(kernel)
        lib = torch.library.Library(NAMESPACE, "FRAGMENT")
        lib.define(sig.schema(opname))

        def cuda_impl(*tensors):
            return sig.flatten(kernel(*sig.regroup(tensors)))

        def fake_impl(*tensors):
            return sig.fake(torch, tensors)

        lib.impl(opname, cuda_impl, "CUDA")
        qualname = "%s::%s" % (NAMESPACE, opname)
        if hasattr(torch.library, "register_fake"):
            torch.library.register_fake(qualname, fake_impl, lib=lib)
        else:  # PyTorch < 2.4
            torch.library.impl_abstract(qualname, fake_impl, lib=lib)
        _registered[opname] = (kernel, lib)
    return getattr(getattr(torch.ops, NAMESPACE), opname)
