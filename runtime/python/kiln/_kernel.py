"""A compiled Kiln kernel as a Python callable over torch CUDA tensors."""

import ctypes
import os
from collections import namedtuple

from . import _lib
from ._lib import KilnError

Param = namedtuple("Param", "index name role dtype shape scale_of block align")
Param.__doc__ = """A kernel parameter as the manifest declares it.

role: "input", "output" or "scale"; dtype: manifest spelling ("bf16", "e2m1", ...);
shape: dim expressions ("M", "cdiv(K,128)"); scale_of/block: for scales, else None."""


def _torch():
    try:
        import torch
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise KilnError("calling a Kiln kernel needs PyTorch (%s)" % e,
                        "KILN_ERROR_INVALID_VALUE") from None
    return torch


def torch_dtypes(dtype):
    """The torch dtypes accepted for a manifest dtype; the first is the one outputs get."""
    torch = _torch()
    table = {
        "bf16": ["bfloat16"],
        "f16": ["float16"],
        "f32": ["float32"],
        "i32": ["int32"],
        "e4m3": ["float8_e4m3fn"],
        "e5m2": ["float8_e5m2"],
        # Packed two per byte: torch sees K/2 bytes per row.
        "e2m1": ["uint8", "float4_e2m1fn_x2"],
        "ue8m0": ["float8_e8m0fnu", "uint8"],
    }
    return [getattr(torch, n) for n in table[dtype] if hasattr(torch, n)]


def _packed(dtype):
    return dtype == "e2m1"


class Kernel:
    """A compiled kernel: `kernel(*inputs, out=None, stream=None)` launches it.

    Inputs are the manifest's "input" params in order, each a torch CUDA tensor; an input with
    block scales is passed as a tuple `(data, scale)` (one scale tensor per "scale" param of it,
    in manifest order). Outputs are allocated on the inputs' device with the shapes the manifest's
    dims give, unless `out=` passes them (a tensor, or a tuple with one entry per output). The
    launch goes on `stream` (a torch.cuda.Stream or a raw CUstream int), by default
    torch.cuda.current_stream() of the inputs' device. Returns the output, or a tuple of outputs.
    """

    def __init__(self, manifest_path):
        lib = _lib.library()
        self.path = os.fspath(manifest_path)
        handle = ctypes.c_void_p()
        _lib.check(lib.kiln_module_load(self.path.encode(), ctypes.byref(handle)))
        self._handle = handle
        self._free = lib.kiln_module_free  # kept for __del__ at interpreter shutdown
        self.name = lib.kiln_module_kernel(handle).decode()
        self.chip = lib.kiln_module_chip(handle).decode()
        self.dims = [lib.kiln_module_dim_name(handle, i).decode()
                     for i in range(lib.kiln_module_num_dims(handle))]
        self.params = []
        for i in range(lib.kiln_module_num_params(handle)):
            info = _lib.CParamInfo()
            _lib.check(lib.kiln_module_param(handle, i, ctypes.byref(info)))
            self.params.append(Param(
                index=i,
                name=info.name.decode(),
                role=_lib.ROLES[info.role],
                dtype=_lib.DTYPES[info.dtype],
                shape=tuple(info.shape[a].decode() for a in range(info.rank)),
                scale_of=info.scale_of.decode() if info.scale_of else None,
                block=tuple(info.block[a] for a in range(info.block_rank)) if info.block else None,
                align=info.align,
            ))
        by_name = {p.name: p for p in self.params}
        scales = {p.name: [] for p in self.params}
        for p in self.params:
            if p.role == "scale":
                scales[p.scale_of].append(p.index)
        # (data param index, [scale param indices]) per call argument and per result.
        self._inputs = [(p.index, scales[p.name]) for p in self.params if p.role == "input"]
        self._outputs = [(p.index, scales[p.name]) for p in self.params if p.role == "output"]
        self._by_name = by_name

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._free(handle)
            self._handle = None

    # -- description ---------------------------------------------------------------------------

    def _decl(self, index):
        p = self.params[index]
        return "%s: %s[%s]" % (p.name, p.dtype, ", ".join(p.shape))

    def _group_decl(self, group):
        data, scales = group
        if not scales:
            return self._decl(data)
        return "(%s)" % ", ".join(self._decl(i) for i in [data] + scales)

    @property
    def signature(self):
        """`matmul(a: bf16[M, K], b: bf16[N, K]) -> c: bf16[M, N]`; scaled inputs show as tuples."""
        outs = ", ".join(self._group_decl(g) for g in self._outputs)
        if len(self._outputs) != 1:
            outs = "(%s)" % outs
        return "%s(%s) -> %s" % (self.name, ", ".join(self._group_decl(g) for g in self._inputs),
                                 outs)

    def __repr__(self):
        return "<kiln.Kernel %s for %s from %s>" % (self.signature, self.chip, self.path)

    # -- tensors -------------------------------------------------------------------------------

    def _check_tensor(self, index, t, device):
        torch = _torch()
        p = self.params[index]
        if not isinstance(t, torch.Tensor):
            raise KilnError("param '%s': expected a torch.Tensor, got %s"
                            % (p.name, type(t).__name__), "KILN_ERROR_INVALID_VALUE")
        if t.device.type != "cuda":
            raise KilnError("param '%s': tensor is on %s; Kiln kernels need CUDA tensors"
                            % (p.name, t.device))
        if device is not None and t.device != device:
            raise KilnError("param '%s': tensor is on %s but other tensors are on %s"
                            % (p.name, t.device, device))
        allowed = torch_dtypes(p.dtype)
        if t.dtype not in allowed:
            raise KilnError("param '%s': dtype %s, expected %s (kiln %s)"
                            % (p.name, t.dtype, " or ".join(str(d) for d in allowed), p.dtype))
        return t.device

    def _describe(self, index, t, keep):
        """The kiln_tensor for torch tensor `t` as param `index`; `keep` holds the arrays."""
        p = self.params[index]
        shape, strides = list(t.shape), list(t.stride())
        if _packed(p.dtype):
            # torch holds two e2m1 values per byte: count values, as the runtime does.
            if not shape:
                raise KilnError("param '%s': a packed e2m1 tensor needs at least one axis" % p.name)
            shape[-1] *= 2
            strides = [s * 2 for s in strides[:-1]] + [1 if strides[-1] == 1 else 2 * strides[-1]]
        rank = len(shape)
        if rank > _lib.MAX_RANK:
            raise KilnError("param '%s': %d axes, the runtime supports at most %d"
                            % (p.name, rank, _lib.MAX_RANK))
        shape_arr = (ctypes.c_int64 * max(rank, 1))(*shape)
        stride_arr = (ctypes.c_int64 * max(rank, 1))(*strides)
        keep.extend([shape_arr, stride_arr])
        return _lib.CTensor(t.data_ptr(), _lib.DTYPE_CODES[p.dtype], rank, shape_arr, stride_arr)

    def _split_inputs(self, args):
        """Maps call arguments to {param index: tensor}."""
        if len(args) != len(self._inputs):
            raise KilnError("%s takes %d inputs (%s), got %d" % (
                self.name, len(self._inputs),
                ", ".join(self.params[d].name for d, _ in self._inputs), len(args)))
        given = {}
        for arg, (data, scales) in zip(args, self._inputs):
            given.update(self._split_group(arg, data, scales, "input"))
        return given

    def _split_group(self, arg, data, scales, what):
        name = self.params[data].name
        if not scales:
            if isinstance(arg, (tuple, list)):
                raise KilnError("%s '%s' has no block scales: pass a tensor, not a %s"
                                % (what, name, type(arg).__name__))
            return {data: arg}
        names = ", ".join([name] + [self.params[s].name for s in scales])
        if not isinstance(arg, (tuple, list)) or len(arg) != 1 + len(scales):
            raise KilnError("%s '%s' is block-scaled: pass a tuple (%s)" % (what, name, names))
        return dict(zip([data] + scales, arg))

    # -- calls ---------------------------------------------------------------------------------

    def _launch(self, ctensors, n, device, stream):
        torch = _torch()
        # The device guard makes the tensors' device current, so a launch on the default stream
        # runs in that device's primary context (the one PyTorch allocated in).
        with torch.cuda.device(device):
            if stream is None:
                handle = torch.cuda.current_stream(device).cuda_stream
            elif isinstance(stream, int):
                handle = stream
            else:
                handle = stream.cuda_stream
            _lib.check(_lib.library().kiln_launch(self._handle, ctensors, n,
                                                  ctypes.c_void_p(handle or None)))

    def __call__(self, *args, out=None, stream=None):
        torch = _torch()
        given = self._split_inputs(args)
        if out is not None:
            # One output: `out` is it. Several: a tuple/list with one entry per output.
            outs = [out] if len(self._outputs) == 1 else out
            if not isinstance(outs, (tuple, list)) or len(outs) != len(self._outputs):
                raise KilnError("out= needs %d entries (%s)" % (
                    len(self._outputs), ", ".join(self.params[d].name for d, _ in self._outputs)))
            for o, (data, scales) in zip(outs, self._outputs):
                given.update(self._split_group(o, data, scales, "output"))

        device = None
        for index in sorted(given):
            device = self._check_tensor(index, given[index], device)
        if device is None:
            raise KilnError("%s has no tensors to take a device from" % self.name)

        lib = _lib.library()
        keep = []
        n = len(self.params)
        ctensors = (_lib.CTensor * max(n, 1))()
        for i in range(n):
            if i in given:
                ctensors[i] = self._describe(i, given[i], keep)
            else:
                ctensors[i] = _lib.CTensor(0, _lib.DTYPE_CODES[self.params[i].dtype], 0, None,
                                           None)
        missing = [i for i in range(n) if i not in given]
        if missing:
            shapes = (ctypes.c_int64 * (n * _lib.MAX_RANK))()
            _lib.check(lib.kiln_module_infer_shapes(self._handle, ctensors, n, shapes, None))
            for i in missing:
                p = self.params[i]
                shape = list(shapes[i * _lib.MAX_RANK:i * _lib.MAX_RANK + len(p.shape)])
                if _packed(p.dtype):
                    if shape[-1] % 2:
                        raise KilnError("param '%s': cannot allocate an odd number (%d) of packed "
                                        "e2m1 values per row" % (p.name, shape[-1]))
                    shape[-1] //= 2
                given[i] = torch.empty(shape, dtype=torch_dtypes(p.dtype)[0], device=device)
                ctensors[i] = self._describe(i, given[i], keep)

        self._launch(ctensors, n, device, stream)

        results = []
        for data, scales in self._outputs:
            if scales:
                results.append(tuple(given[i] for i in [data] + scales))
            else:
                results.append(given[data])
        return results[0] if len(results) == 1 else tuple(results)

    def launch(self, tensors, stream=None):
        """Low-level launch: one tensor per manifest param in manifest order (inputs, scales and
        outputs as `params` lists them), nothing allocated. Returns None."""
        if len(tensors) != len(self.params):
            raise KilnError("%s has %d params (%s), got %d tensors" % (
                self.name, len(self.params), ", ".join(p.name for p in self.params),
                len(tensors)))
        device = None
        for i, t in enumerate(tensors):
            device = self._check_tensor(i, t, device)
        keep = []
        n = len(self.params)
        ctensors = (_lib.CTensor * max(n, 1))(*[self._describe(i, t, keep)
                                               for i, t in enumerate(tensors)])
        self._launch(ctensors, n, device, stream)


def load(manifest_path):
    """Loads a compiled kernel from its manifest (`out/matmul.kiln.json`); see Kernel."""
    return Kernel(manifest_path)
