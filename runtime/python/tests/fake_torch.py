"""A stand-in for the few torch APIs the kiln package uses, so its Python logic (argument
grouping, dtype checks, output allocation, packed-fp4 shapes, error propagation) is tested on
machines without PyTorch or a GPU. Addresses are fake: launches fail in the runtime, by design."""

import contextlib
import types


class dtype:
    def __init__(self, name, itemsize):
        self.name = name
        self.itemsize = itemsize

    def __repr__(self):
        return "torch." + self.name


class device:
    def __init__(self, spec):
        if isinstance(spec, device):
            self.type, self.index = spec.type, spec.index
            return
        kind, _, index = str(spec).partition(":")
        self.type = kind
        self.index = int(index) if index else (0 if kind == "cuda" else None)

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __repr__(self):
        return "%s:%d" % (self.type, self.index) if self.index is not None else self.type


_next_address = [0x7F0000000000]


class Tensor:
    def __init__(self, shape, dt, dev="cuda:0", strides=None, address=None):
        self.shape = tuple(shape)
        self.dtype = dt
        self.device = device(dev)
        if strides is None:
            strides, step = [], 1
            for extent in reversed(self.shape):
                strides.insert(0, step)
                step *= max(extent, 1)
        self._strides = tuple(strides)
        if address is None:
            address = _next_address[0]
            _next_address[0] += 1 << 24
        self._address = address

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._address

    def element_size(self):
        return self.dtype.itemsize


bfloat16 = dtype("bfloat16", 2)
float16 = dtype("float16", 2)
float32 = dtype("float32", 4)
int32 = dtype("int32", 4)
uint8 = dtype("uint8", 1)
float8_e4m3fn = dtype("float8_e4m3fn", 1)
float8_e5m2 = dtype("float8_e5m2", 1)
float8_e8m0fnu = dtype("float8_e8m0fnu", 1)

# Every call of empty(), for tests to inspect.
allocations = []


def empty(shape, dtype=None, device=None):
    t = Tensor(shape, dtype, device)
    allocations.append(t)
    return t


class _Stream:
    cuda_stream = 0


# An H200: 132 SMs.
SM_COUNT = 132

cuda = types.SimpleNamespace(
    device=lambda d: contextlib.nullcontext(),
    current_stream=lambda d=None: _Stream(),
    current_device=lambda: 0,
    get_device_properties=lambda d=None: types.SimpleNamespace(
        multi_processor_count=SM_COUNT),
)
