"""A compiled Kiln kernel as a Python callable over torch CUDA tensors."""

import ctypes
import os
import threading
from collections import namedtuple

from . import _lib
from ._lib import KilnError

Param = namedtuple("Param", "index name role dtype shape scale_of block align")
Param.__doc__ = """A kernel parameter as the manifest declares it.

role: "input", "output" or "scale"; dtype: manifest spelling ("bf16", "e2m1", ...);
shape: dim expressions ("M", "cdiv(K,128)"); scale_of/block: for scales, else None."""

_TORCH_DTYPES = {
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
    return [getattr(torch, n) for n in _TORCH_DTYPES[dtype] if hasattr(torch, n)]


class _Scratch:
    """Per-thread kiln_tensor array and shape/stride storage, reused by every call, so a launch
    builds no ctypes objects."""

    def __init__(self, params):
        n = max(len(params), 1)
        r = _lib.MAX_RANK
        self.tensors = (_lib.CTensor * n)()
        self.shapes = (ctypes.c_int64 * (n * r))()
        self.strides = (ctypes.c_int64 * (n * r))()
        self.inferred = (ctypes.c_int64 * (n * r))()
        base_shape, base_stride = ctypes.addressof(self.shapes), ctypes.addressof(self.strides)
        p64 = ctypes.POINTER(ctypes.c_int64)
        self.shape_ptrs = [ctypes.cast(base_shape + 8 * r * i, p64) for i in range(n)]
        for i, p in enumerate(params):
            t = self.tensors[i]
            t.dtype = _lib.DTYPE_CODES[p.dtype]
            t.shape = self.shape_ptrs[i]
            t.strides = ctypes.cast(base_stride + 8 * r * i, p64)


def _raw_stream_getter(torch):
    """device index -> the current CUstream: Triton's fast path (the public API builds a
    Stream object)."""
    return getattr(getattr(torch, "_C", None), "_cuda_getCurrentRawStream", None) or \
        (lambda i: torch.cuda.current_stream(i).cuda_stream)


class _PreparedHandle:
    """Owns one C prepared launch (`kiln_prepare_launch`) and frees it: a PreparedLaunch's, or
    one in a kernel's call cache (which holds no tensor references: its key holds everything the
    launch depends on)."""

    __slots__ = ("handle", "_free")

    def __init__(self, handle, free):
        self.handle = handle
        self._free = free

    def __del__(self):
        handle = getattr(self, "handle", None)
        if handle:
            self._free(handle)
            self.handle = None


class PreparedLaunch:
    """`kernel.prepare(*inputs, out=None)`: one launch checked, its variant, grid and tensor maps
    chosen and its kernel arguments packed once. `prepared(stream=None)` launches it (on the
    current stream of its device by default, or `stream`: a torch.cuda.Stream or a raw CUstream
    int, of the same device) and returns its outputs, as `kernel(...)` would; `outputs` holds
    them. It keeps its tensors alive; they must keep their shapes and strides."""

    __slots__ = ("kernel", "outputs", "_prepared", "_tensors", "_index", "_launch", "_current")

    def __init__(self, kernel, prepared, tensors, outputs, index):
        self.kernel = kernel
        self.outputs = outputs
        self._prepared = prepared
        self._tensors = tensors
        self._index = index
        self._launch = kernel._lib.kiln_launch_prepared
        self._current = _raw_stream_getter(_torch())

    def __call__(self, stream=None):
        if stream is None:
            handle = self._current(self._index)
        elif isinstance(stream, int):
            handle = stream
        else:
            handle = stream.cuda_stream
        status = self._launch(self._prepared.handle, handle or None)
        if status:
            _lib.check(status)
        return self.outputs


# Calls whose tensors, stream and device were seen before skip work done the first time (see
# Kernel.__call__); the most recent this many configurations are kept per cache.
_CALL_CACHE_SIZE = 16


def _remember(cache, key, value):
    """cache[key] = value, first dropping the oldest entry of a full cache."""
    if len(cache) >= _CALL_CACHE_SIZE:
        cache.pop(next(iter(cache)))
    cache[key] = value


class Kernel:
    """A compiled kernel: `kernel(*inputs, out=None, stream=None)` launches it.

    Inputs are the manifest's "input" params in order, each a torch CUDA tensor; an input with
    block scales is passed as a tuple `(data, scale)` (one scale tensor per "scale" param of it,
    in manifest order). Outputs are allocated on the inputs' device with the shapes the manifest's
    dims give, unless `out=` passes them (a tensor, or a tuple with one entry per output). The
    launch goes on `stream` (a torch.cuda.Stream or a raw CUstream int), by default
    torch.cuda.current_stream() of the inputs' device. Returns the output, or a tuple of outputs.

    A cubin may hold several variants of the kernel (`entries`, the primary first); each launch
    runs the one the manifest's cost rule picks for its dims. `last_entry` is the entry the most
    recent launch ran, `entry_for(...)` the one a call would run.

    A call that passes every output in `out=` is prepared once per configuration (each tensor's
    address, shape, strides, dtype and device, and the stream) and launched again from a small
    cache when the same configuration comes back, as `prepare()` would (a few microseconds of
    host time instead of ~20); the cache holds no tensor references.
    """

    def __init__(self, manifest_path):
        lib = _lib.library()
        self._lib = lib
        self.path = os.fspath(manifest_path)
        if isinstance(self.path, bytes):
            self.path = os.fsdecode(self.path)
        # A C string ends at the first NUL: the runtime would read another file than named.
        if "\0" in self.path:
            raise KilnError("manifest path %r contains a NUL character" % (self.path,),
                            "KILN_ERROR_INVALID_VALUE")
        handle = ctypes.c_void_p()
        _lib.check(lib.kiln_module_load(os.fsencode(self.path), ctypes.byref(handle)))
        self._handle = handle
        self._free = lib.kiln_module_free  # kept for __del__ at interpreter shutdown
        self.name = lib.kiln_module_kernel(handle).decode()
        self.chip = lib.kiln_module_chip(handle).decode()
        self.dims = [lib.kiln_module_dim_name(handle, i).decode()
                     for i in range(lib.kiln_module_num_dims(handle))]
        # Entry symbols of the kernel's variants; [0] is the primary.
        self.entries = [lib.kiln_module_variant_entry(handle, i).decode()
                        for i in range(lib.kiln_module_num_variants(handle))]
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
        scales = {p.name: [] for p in self.params}
        for p in self.params:
            if p.role == "scale":
                scales[p.scale_of].append(p.index)
        # (data param index, [scale param indices]) per call argument and per result.
        self._inputs = [(p.index, scales[p.name]) for p in self.params if p.role == "input"]
        self._outputs = [(p.index, scales[p.name]) for p in self.params if p.role == "output"]
        self._packed = [p.dtype == "e2m1" for p in self.params]
        self._allowed = None  # per param: accepted torch dtypes, filled on the first call
        self._raw_stream = None  # device index -> current CUstream, found on the first call
        self._tls = threading.local()
        self._calls = {}  # call configuration -> _PreparedHandle (see _cached_call)
        self._pin = -1  # pinned_entry's index, part of the call cache's key
        self._launch_prepared = lib.kiln_launch_prepared

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

    @property
    def last_entry(self):
        """The entry (one of `entries`) the most recent successful launch of this kernel ran, on
        any thread; None before the first. An empty launch counts, with the entry it chose."""
        v = self._lib.kiln_module_last_variant(self._handle)
        return self.entries[v] if v >= 0 else None

    @property
    def pinned_entry(self):
        """The entry every launch runs instead of the cost rule's choice, or None (the default):
        set it to one of `entries` (or an index into it) to measure that variant or to work
        around a choice that is wrong on some device, None to give the choice back. Prepared
        launches made before keep the entry they were prepared with."""
        v = self._lib.kiln_module_pinned_variant(self._handle)
        return self.entries[v] if v >= 0 else None

    @pinned_entry.setter
    def pinned_entry(self, entry):
        if entry is None:
            index = -1
        elif isinstance(entry, int):
            index = entry
        elif entry in self.entries:
            index = self.entries.index(entry)
        else:
            raise KilnError("%s has no entry %r (entries: %s)"
                            % (self.name, entry, ", ".join(self.entries)),
                            "KILN_ERROR_INVALID_VALUE")
        _lib.check(self._lib.kiln_module_pin_variant(self._handle, index))
        # (Cached prepared launches hold the entry they were prepared with: the pin is part of
        # their key.)
        self._pin = index

    def explain(self, *args, out=None, sm_count=None):
        """Why a call with these arguments would run the entry it would (`entry_for`): per entry
        the CTAs, waves of the device's SMs and the cost rule's cost, the chosen one marked, and
        the pin if any; a string."""
        s, sm_count = self._describe_query(args, out, sm_count)
        text = ctypes.c_char_p()
        _lib.check(self._lib.kiln_module_explain_variant(self._handle, s.tensors,
                                                         len(self.params), sm_count,
                                                         ctypes.byref(text)))
        return text.value.decode()

    @property
    def check_offsets(self):
        """The checking mode for group offsets (docs/runtime.md, "Checking offsets"): when True,
        each launch first synchronizes its stream, reads the offsets of a grouped kernel (MoE
        experts, packed sequences) and raises kiln.KilnError at the first entry outside
        0 = o[0] <= ... <= o[E] = rows instead of launching. Off unless $KILN_CHECK_OFFSETS was
        set when the kernel was loaded; for debugging (it cannot run inside CUDA-graph capture)."""
        return self._lib.kiln_module_check_offsets(self._handle) == 1

    @check_offsets.setter
    def check_offsets(self, on):
        _lib.check(self._lib.kiln_module_set_check_offsets(self._handle, 1 if on else 0))

    # -- PyTorch custom op ---------------------------------------------------------------------

    @property
    def op(self):
        """This kernel as a torch.library custom op, `torch.ops.kiln.<name>_<hash>` (registered
        on first use): call it inside torch.compile(fullgraph=True) models, CUDA graphs and
        torch.library.opcheck. It takes the inputs flat (a block-scaled input as its data then
        its scales) and returns new output tensors; see as_op."""
        op = self.__dict__.get("_op")
        if op is None:
            op = self._op = self.as_op()
        return op

    def as_op(self, name=None):
        """Registers this kernel as torch.ops.kiln.<name> (default `<kernel>_<12 hex digits of
        the manifest + cubin hash>`) and returns the op. The op's fake implementation gives its
        outputs the manifest's shapes, evaluated on the inputs' (possibly symbolic) sizes; its
        CUDA implementation is this kernel's call: outputs from PyTorch's caching allocator,
        launched on the current stream."""
        from . import _torch_op
        return _torch_op.register(self, name)

    # -- tensors -------------------------------------------------------------------------------

    def _scratch(self):
        s = getattr(self._tls, "scratch", None)
        if s is None:
            s = self._tls.scratch = _Scratch(self.params)
        return s

    def _allowed_dtypes(self, torch):
        """Per param: the accepted torch dtypes, the one outputs get first."""
        if self._allowed is None:
            self._allowed = [tuple(getattr(torch, n) for n in _TORCH_DTYPES[p.dtype]
                                   if hasattr(torch, n)) for p in self.params]
        return self._allowed

    def _check_tensors(self, torch, tensors):
        """Type, device and dtype of every given tensor; returns their common device."""
        self._allowed_dtypes(torch)
        device = None
        for i, t in enumerate(tensors):
            if t is None:
                continue
            p = self.params[i]
            if not isinstance(t, torch.Tensor):
                raise KilnError("param '%s': expected a torch.Tensor, got %s"
                                % (p.name, type(t).__name__), "KILN_ERROR_INVALID_VALUE")
            d = t.device
            if d.type != "cuda":
                raise KilnError("param '%s': tensor is on %s; Kiln kernels need CUDA tensors"
                                % (p.name, d))
            if device is None:
                device = d
            elif d != device:
                raise KilnError("param '%s': tensor is on %s but other tensors are on %s"
                                % (p.name, d, device))
            if t.dtype not in self._allowed[i]:
                raise KilnError("param '%s': dtype %s, expected %s (kiln %s)"
                                % (p.name, t.dtype, " or ".join(str(x) for x in self._allowed[i]),
                                   p.dtype))
        return device

    def _describe(self, s, i, t):
        """Writes torch tensor `t` into slot `i` of the scratch kiln_tensor array."""
        shape, strides = t.shape, t.stride()
        rank = len(shape)
        if rank > _lib.MAX_RANK:
            raise KilnError("param '%s': %d axes, the runtime supports at most %d"
                            % (self.params[i].name, rank, _lib.MAX_RANK))
        if self._packed[i]:
            # torch holds two e2m1 values per byte: count values, as the runtime does.
            if not rank:
                raise KilnError("param '%s': a packed e2m1 tensor needs at least one axis"
                                % self.params[i].name)
            shape = list(shape[:-1]) + [shape[-1] * 2]
            strides = [x * 2 for x in strides[:-1]] + [1 if strides[-1] == 1 else 2 * strides[-1]]
        base = i * _lib.MAX_RANK
        s.shapes[base:base + rank] = shape
        s.strides[base:base + rank] = strides
        c = s.tensors[i]
        c.data = t.data_ptr()
        c.rank = rank
        c.shape = s.shape_ptrs[i]

    def _split_group(self, arg, data, scales, what, tensors):
        name = self.params[data].name
        if not scales:
            if isinstance(arg, (tuple, list)):
                raise KilnError("%s '%s' has no block scales: pass a tensor, not a %s"
                                % (what, name, type(arg).__name__))
            tensors[data] = arg
            return
        names = ", ".join([name] + [self.params[s].name for s in scales])
        if not isinstance(arg, (tuple, list)) or len(arg) != 1 + len(scales):
            raise KilnError("%s '%s' is block-scaled: pass a tuple (%s)" % (what, name, names))
        for index, t in zip([data] + scales, arg):
            tensors[index] = t

    # -- calls ---------------------------------------------------------------------------------

    def _stream_handle(self, torch, index, stream):
        """The CUstream (an int; 0 for the default stream) of `stream`, or of the current stream
        of device `index` when None."""
        if stream is None:
            if self._raw_stream is None:
                self._raw_stream = _raw_stream_getter(torch)
            return self._raw_stream(index)
        if isinstance(stream, int):
            return stream
        return stream.cuda_stream

    def _launch(self, torch, s, device, stream):
        index = device.index if device.index is not None else torch.cuda.current_device()
        handle = self._stream_handle(torch, index, stream)
        n = len(self.params)
        # The tensors' device must be current, so a launch on the default stream runs in that
        # device's primary context (the one PyTorch allocated in).
        if torch.cuda.current_device() == index:
            status = self._lib.kiln_launch(self._handle, s.tensors, n, handle or None)
        else:
            with torch.cuda.device(device):
                status = self._lib.kiln_launch(self._handle, s.tensors, n, handle or None)
        if status:
            _lib.check(status)

    def _group(self, args, out):
        """One tensor (or None, for outputs to allocate) per manifest param, from call arguments."""
        tensors = [None] * len(self.params)
        if len(args) != len(self._inputs):
            raise KilnError("%s takes %d inputs (%s), got %d" % (
                self.name, len(self._inputs),
                ", ".join(self.params[d].name for d, _ in self._inputs), len(args)))
        for arg, (data, scales) in zip(args, self._inputs):
            self._split_group(arg, data, scales, "input", tensors)
        if out is not None:
            # One output: `out` is it. Several: a tuple/list with one entry per output.
            outs = [out] if len(self._outputs) == 1 else out
            if not isinstance(outs, (tuple, list)) or len(outs) != len(self._outputs):
                raise KilnError("out= needs %d entries (%s)" % (
                    len(self._outputs), ", ".join(self.params[d].name for d, _ in self._outputs)))
            for o, (data, scales) in zip(outs, self._outputs):
                self._split_group(o, data, scales, "output", tensors)
        return tensors

    def __call__(self, *args, out=None, stream=None):
        if out is not None:
            results = self._cached_call(args, out, stream)
        else:
            results = self._cached_allocating_call(args, stream)
        if results is not None:
            return results
        torch = _torch()
        tensors, s, device = self._bind(torch, args, out)
        self._launch(torch, s, device, stream)
        return self._results(tensors)

    def _cached_allocating_call(self, args, stream):
        """A call that allocates its outputs, for inputs seen before on this thread: the outputs'
        shapes and the inputs' descriptions are kept from the first call (no Python checks, no
        shape inference); the runtime still checks the launch. None when the inputs cannot be
        keyed or on the first call (the checked path runs; it then fills the cache)."""
        keyed = self._call_key(args, (), stream)
        if keyed is None:
            return None
        key, device, handle = keyed
        calls = getattr(self._tls, "allocating_calls", None)
        if calls is None:
            calls = self._tls.allocating_calls = {}
        entry = calls.get(key)
        torch = _torch()
        if entry is None:
            tensors, s, bound = self._bind(torch, args, None)
            self._launch(torch, s, bound, stream)
            # Kept: every param described in an array of the entry's own, and per output
            # its shape and dtype.
            entry_scratch = _Scratch(self.params)
            for i, t in enumerate(tensors):
                self._describe(entry_scratch, i, t)
            allocate = [(i, tuple(tensors[i].shape), tensors[i].dtype)
                        for group in self._outputs for i in [group[0]] + group[1]]
            _remember(calls, key, (entry_scratch, allocate))
            return self._results(tensors)
        # (On the default stream the launch runs in the current context: the inputs' device
        # must be current, which the checked path arranges.)
        if not handle and torch.cuda.current_device() != device:
            return None
        entry_scratch, allocate = entry
        tensors = [None] * len(self.params)
        for i, shape, dtype in allocate:
            t = tensors[i] = torch.empty(shape, dtype=dtype, device=device)
            entry_scratch.tensors[i].data = t.data_ptr()
        status = self._lib.kiln_launch(self._handle, entry_scratch.tensors, len(self.params),
                                       handle or None)
        if status:
            _lib.check(status)
        return self._results(tensors)

    def _call_key(self, args, outs, stream):
        """What a launch with these arguments depends on, as (key, device, stream handle): the
        key is hashable, per tensor its address, shape, strides, dtype and device (tuples of
        block-scaled arguments marked by their length), then the pinned entry, the device and the
        stream handle. `outs`: the outputs passed in `out=`, as a sequence. None when an argument
        is not a CUDA tensor: the checked path reports it."""
        if not isinstance(outs, (tuple, list)):
            return None
        key = [len(args), len(outs)]
        device = -1
        try:
            for group in (args, outs):
                for arg in group:
                    items = arg if isinstance(arg, (tuple, list)) else (arg,)
                    if items is arg:
                        key.append(len(items))
                    for t in items:
                        device = t.get_device()
                        if device < 0:
                            return None
                        key.append((t.data_ptr(), t.shape, t.stride(), t.dtype, device))
        except AttributeError:
            return None
        if device < 0:
            return None  # no tensors: the checked path reports it
        if stream is None:
            if self._raw_stream is None:
                self._raw_stream = _raw_stream_getter(_torch())
            handle = self._raw_stream(device)
        elif isinstance(stream, int):
            handle = stream
        else:
            handle = getattr(stream, "cuda_stream", None)
            if handle is None:
                return None
        key += [self._pin, device, handle]
        return tuple(key), device, handle

    def _cached_call(self, args, out, stream):
        """The call through the cache of prepared launches: launched and its results returned,
        or None when the arguments cannot be keyed (the checked path then runs)."""
        outs = out if len(self._outputs) != 1 else (out,)
        keyed = self._call_key(args, outs, stream)
        if keyed is None:
            return None
        key, _, handle = keyed
        cached = self._calls.get(key)
        if cached is None:
            # First time: checked and prepared as prepare() does, then kept.
            torch = _torch()
            _, s, device = self._bind(torch, args, out)
            cached = self._prepare_handle(torch, s, device, handle)
            _remember(self._calls, key, cached)
        status = self._launch_prepared(cached.handle, handle or None)
        if status:
            _lib.check(status)
        if len(self._outputs) == 1:
            return tuple(out) if isinstance(out, list) else out
        return tuple(tuple(o) if isinstance(o, list) else o for o in out)

    def prepare(self, *args, out=None, stream=None):
        """A launch checked and packed once (`PreparedLaunch`): arguments as for a call (outputs
        not passed in `out=` are allocated now); calling the result launches it again with a
        few microseconds of host time and returns the outputs. The tensors must keep their
        memory, shapes and strides (the prepared launch holds references to them, so they stay
        allocated; an in-place resize would go unnoticed)."""
        torch = _torch()
        tensors, s, device = self._bind(torch, args, out)
        index = device.index if device.index is not None else torch.cuda.current_device()
        prepared = self._prepare_handle(torch, s, device,
                                        self._stream_handle(torch, index, stream))
        return PreparedLaunch(self, prepared, tensors, self._results(tensors), index)

    def _prepare_handle(self, torch, s, device, stream_handle):
        """kiln_prepare_launch of the arguments described in `s`, on `device`'s context for
        stream `stream_handle`: the handle, owned."""
        prepared = ctypes.c_void_p()
        with torch.cuda.device(device):
            _lib.check(self._lib.kiln_prepare_launch(self._handle, s.tensors, len(self.params),
                                                     stream_handle or None,
                                                     ctypes.byref(prepared)))
        return _PreparedHandle(prepared, self._lib.kiln_prepared_free)

    def _results(self, tensors):
        results = []
        for data, scales in self._outputs:
            if scales:
                results.append(tuple(tensors[i] for i in [data] + scales))
            else:
                results.append(tensors[data])
        return results[0] if len(results) == 1 else tuple(results)

    def _bind(self, torch, args, out):
        """One torch tensor per param (outputs allocated where not given), described in this
        thread's scratch kiln_tensor array; and their device."""
        n = len(self.params)
        tensors = self._group(args, out)
        device = self._check_tensors(torch, tensors)
        if device is None:
            raise KilnError("%s has no tensors to take a device from" % self.name)

        s = self._scratch()
        missing = []
        for i, t in enumerate(tensors):
            if t is None:
                missing.append(i)
                s.tensors[i].shape = None  # unknown: the runtime infers it
            else:
                self._describe(s, i, t)
        if missing:
            _lib.check(self._lib.kiln_module_infer_shapes(self._handle, s.tensors, n, s.inferred,
                                                          None))
            for i in missing:
                p = self.params[i]
                base = i * _lib.MAX_RANK
                shape = list(s.inferred[base:base + len(p.shape)])
                if self._packed[i]:
                    if shape[-1] % 2:
                        raise KilnError("param '%s': cannot allocate an odd number (%d) of packed "
                                        "e2m1 values per row" % (p.name, shape[-1]))
                    shape[-1] //= 2
                tensors[i] = torch.empty(shape, dtype=self._allowed[i][0], device=device)
                self._describe(s, i, tensors[i])
        return tensors, s, device

    def _describe_query(self, args, out, sm_count):
        """For a query about a call with these arguments (entry_for, explain): the arguments
        checked as a call checks them and described in the scratch array (outputs not given as
        unknown: their dims come from the inputs), and the SM count (by default the inputs'
        device's)."""
        torch = _torch()
        tensors = self._group(args, out)
        device = self._check_tensors(torch, tensors)
        if device is None:
            raise KilnError("%s has no tensors to take a device from" % self.name)
        if sm_count is None:
            index = device.index if device.index is not None else torch.cuda.current_device()
            sm_count = torch.cuda.get_device_properties(index).multi_processor_count
        s = self._scratch()
        for i, t in enumerate(tensors):
            if t is None:
                s.tensors[i].shape = None
            else:
                self._describe(s, i, t)
        return s, int(sm_count)

    def entry_for(self, *args, out=None, sm_count=None):
        """The entry a call `kernel(*args, out=out)` would run, without launching: the manifest's
        cost rule for the dims these tensors bind, on a device with `sm_count` SMs (by default
        the SM count of the inputs' device). Arguments are checked as a call checks them."""
        s, sm_count = self._describe_query(args, out, sm_count)
        variant = ctypes.c_int(-1)
        _lib.check(self._lib.kiln_module_choose_variant(self._handle, s.tensors, len(self.params),
                                                        sm_count, ctypes.byref(variant)))
        return self.entries[variant.value]

    def launch(self, tensors, stream=None):
        """Low-level launch: one tensor per manifest param in manifest order (inputs, scales and
        outputs as `params` lists them), nothing allocated. Returns None."""
        torch = _torch()
        tensors = list(tensors)
        if len(tensors) != len(self.params) or any(t is None for t in tensors):
            raise KilnError("%s has %d params (%s), got %d tensors" % (
                self.name, len(self.params), ", ".join(p.name for p in self.params),
                len(tensors)))
        device = self._check_tensors(torch, tensors)
        s = self._scratch()
        for i, t in enumerate(tensors):
            self._describe(s, i, t)
        self._launch(torch, s, device, stream)


def load(manifest_path):
    """Loads a compiled kernel from its manifest (`out/matmul.kiln.json`); see Kernel."""
    return Kernel(manifest_path)
