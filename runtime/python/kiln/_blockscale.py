"""Block-scaled formats on the host: NVFP4 and MXFP8 quantize / dequantize in the exact bytes the
kernels read (docs/runtime.md, "Block-scaled formats"), through the runtime's C API.

    data, scales = kiln.quantize_nvfp4(x)              # x: [rows, k] floats
    y = kiln.dequantize_nvfp4(data, scales, rows, k)   # the exact values data * scale

Inputs are a CPU torch tensor, anything with the buffer protocol (array.array, numpy arrays,
memoryview; 2-D ones give rows and k), a list of rows, or a flat sequence with rows= and k=.
Values are taken as float32. A torch tensor gives torch tensors back (uint8 data [rows, row bytes],
uint8 scales [scale bytes], float32 [rows, k]); everything else gives bytes and array.array("f").
Neither torch nor numpy is needed.
"""

import array
import ctypes
import operator
import sys

from . import _lib
from ._lib import KilnError

_BLOCK = {"nvfp4": 16, "mxfp8": 32}

_declared = None


def _c():
    """The library with the block-scale functions' signatures set."""
    global _declared
    lib = _lib.library()
    if _declared is not lib:
        c = ctypes
        i64, p, pi64 = c.c_int64, c.c_void_p, c.POINTER(c.c_int64)
        sig = {
            "kiln_scale_factor_bytes": [i64, i64, pi64],
            "kiln_scale_factor_offset": [i64, i64, i64, i64, pi64],
            "kiln_nvfp4_bytes": [i64, i64, pi64, pi64],
            "kiln_mxfp8_bytes": [i64, i64, pi64, pi64],
            "kiln_quantize_nvfp4": [p, i64, i64, p, i64, p, i64],
            "kiln_quantize_mxfp8": [p, i64, i64, p, i64, p, i64],
            "kiln_dequantize_nvfp4": [p, i64, p, i64, i64, i64, p],
            "kiln_dequantize_mxfp8": [p, i64, p, i64, i64, i64, p],
        }
        for name, argtypes in sig.items():
            fn = getattr(lib, name)
            fn.restype = c.c_int
            fn.argtypes = argtypes
        _declared = lib
    return lib


def _int(name, value):
    try:
        return operator.index(value)
    except TypeError:
        raise KilnError("%s must be an integer, not %r" % (name, value),
                        "KILN_ERROR_INVALID_VALUE") from None


def _torch_tensor(value):
    """True for a torch.Tensor (without importing torch)."""
    torch = sys.modules.get("torch")
    return torch is not None and isinstance(value, torch.Tensor)


def _cpu(fn, name, tensor):
    if tensor.device.type != "cpu":
        raise KilnError("%s: %s is on %s; block-scale quantization runs on the host, pass a CPU "
                        "tensor (.cpu())" % (fn, name, tensor.device), "KILN_ERROR_INVALID_VALUE")
    return tensor.contiguous()


def scale_factor_bytes(rows, k_blocks):
    """Bytes of a rows x k_blocks scale tensor padded to whole 128 x 4 (512-byte) atoms."""
    out = ctypes.c_int64()
    _lib.check(_c().kiln_scale_factor_bytes(_int("rows", rows), _int("k_blocks", k_blocks),
                                            ctypes.byref(out)))
    return out.value


def scale_factor_offset(rows, k_blocks, row, k_block):
    """Byte offset of the scale of (row, k_block) in a rows x k_blocks scale tensor."""
    out = ctypes.c_int64()
    _lib.check(_c().kiln_scale_factor_offset(_int("rows", rows), _int("k_blocks", k_blocks),
                                             _int("row", row), _int("k_block", k_block),
                                             ctypes.byref(out)))
    return out.value


def _sizes(fmt, rows, k):
    data, scales = ctypes.c_int64(), ctypes.c_int64()
    fn = getattr(_c(), "kiln_%s_bytes" % fmt)
    _lib.check(fn(_int("rows", rows), _int("k", k), ctypes.byref(data), ctypes.byref(scales)))
    return data.value, scales.value


def nvfp4_bytes(rows, k):
    """(data bytes, scale bytes) of a quantized NVFP4 rows x k matrix."""
    return _sizes("nvfp4", rows, k)


def mxfp8_bytes(rows, k):
    """(data bytes, scale bytes) of a quantized MXFP8 rows x k matrix."""
    return _sizes("mxfp8", rows, k)


def _row_bytes(fmt, k):
    block = _BLOCK[fmt]
    padded = -(-k // block) * block
    return padded // 2 if fmt == "nvfp4" else padded


def _floats(fn, x, rows, k):
    """x as array('f') of rows * k values, with rows and k."""
    values = None
    try:
        view = memoryview(x)
    except TypeError:
        view = None
    if view is not None:
        if view.ndim == 2 and rows is None and k is None:
            rows, k = view.shape
        if view.format in ("f", "<f", "=f") and view.c_contiguous and sys.byteorder == "little":
            values = array.array("f")
            values.frombytes(view.tobytes())
        else:
            flat = view.tolist()
            if view.ndim > 1:
                flat = [v for row in flat for v in row] if view.ndim == 2 else None
            if flat is None:
                raise KilnError("%s: x must be 1-D or 2-D, not %d-D" % (fn, view.ndim),
                                "KILN_ERROR_INVALID_VALUE")
            values = flat
    elif rows is None and k is None:
        rows_list = list(x)
        if rows_list and all(hasattr(r, "__len__") for r in rows_list):
            rows, k = len(rows_list), len(rows_list[0])
            for i, r in enumerate(rows_list):
                if len(r) != k:
                    raise KilnError("%s: row %d of x has %d values; row 0 has %d"
                                    % (fn, i, len(r), k), "KILN_ERROR_INVALID_VALUE")
            values = [v for r in rows_list for v in r]
        else:
            values = rows_list
    else:
        values = list(x)
    if rows is None or k is None:
        raise KilnError("%s: pass rows= and k= with a flat x (%d values)" % (fn, len(values)),
                        "KILN_ERROR_INVALID_VALUE")
    rows, k = _int("rows", rows), _int("k", k)
    if not isinstance(values, array.array):
        try:
            values = array.array("f", values)
        except (TypeError, OverflowError) as e:
            raise KilnError("%s: x must hold numbers (%s)" % (fn, e),
                            "KILN_ERROR_INVALID_VALUE") from None
    if rows < 0 or k < 0 or len(values) != rows * k:
        raise KilnError("%s: x has %d values, not rows x k = %d x %d"
                        % (fn, len(values), rows, k), "KILN_ERROR_INVALID_VALUE")
    return values, rows, k


def _address(buf):
    """The address of an array.array or ctypes buffer (None when empty)."""
    if isinstance(buf, array.array):
        return buf.buffer_info()[0] or None
    return ctypes.addressof(buf) if len(buf) else None


def _quantize(fmt, x, rows, k):
    fn = "quantize_" + fmt
    c_fn = getattr(_c(), "kiln_quantize_" + fmt)
    if _torch_tensor(x):
        torch = sys.modules["torch"]
        if x.dim() != 2:
            raise KilnError("%s: x must be a 2-D tensor [rows, k], not %d-D" % (fn, x.dim()),
                            "KILN_ERROR_INVALID_VALUE")
        xs = _cpu(fn, "x", x).detach().to(torch.float32).contiguous()
        rows, k = int(xs.shape[0]), int(xs.shape[1])
        data_bytes, scale_bytes = _sizes(fmt, rows, k)
        data = torch.empty((rows, _row_bytes(fmt, k)), dtype=torch.uint8)
        scales = torch.empty((scale_bytes,), dtype=torch.uint8)
        _lib.check(c_fn(xs.data_ptr() or None, rows, k, data.data_ptr() or None, data_bytes,
                        scales.data_ptr() or None, scale_bytes))
        return data, scales
    values, rows, k = _floats(fn, x, rows, k)
    data_bytes, scale_bytes = _sizes(fmt, rows, k)
    data = (ctypes.c_uint8 * data_bytes)()
    scales = (ctypes.c_uint8 * scale_bytes)()
    _lib.check(c_fn(_address(values), rows, k, _address(data), data_bytes, _address(scales),
                    scale_bytes))
    return bytes(data), bytes(scales)


def _bytes_in(fn, name, value):
    """(keep-alive object, address, byte count) of a bytes-like or CPU torch tensor argument."""
    if _torch_tensor(value):
        t = _cpu(fn, name, value)
        return t, t.data_ptr() or None, t.numel() * t.element_size()
    try:
        view = memoryview(value).cast("B")
    except TypeError:
        raise KilnError("%s: %s must be bytes-like or a CPU torch tensor, not %s"
                        % (fn, name, type(value).__name__), "KILN_ERROR_INVALID_VALUE") from None
    buf = (ctypes.c_uint8 * len(view)).from_buffer_copy(view)
    return buf, _address(buf), len(buf)


def _dequantize(fmt, data, scales, rows, k):
    fn = "dequantize_" + fmt
    rows, k = _int("rows", rows), _int("k", k)
    _sizes(fmt, rows, k)  # refuses bad extents before anything is allocated
    d_keep, d_ptr, d_n = _bytes_in(fn, "data", data)
    s_keep, s_ptr, s_n = _bytes_in(fn, "scales", scales)
    c_fn = getattr(_c(), "kiln_dequantize_" + fmt)
    if _torch_tensor(data) or _torch_tensor(scales):
        torch = sys.modules["torch"]
        out = torch.empty((rows, k), dtype=torch.float32)
        out_ptr = out.data_ptr() or None
    else:
        out = array.array("f", bytes(4 * rows * k))
        out_ptr = _address(out)
    _lib.check(c_fn(d_ptr, d_n, s_ptr, s_n, rows, k, out_ptr))
    del d_keep, s_keep
    return out


def quantize_nvfp4(x, rows=None, k=None):
    """(data, scales) of x [rows, k]: e2m1 data, two per byte (element 2i in the low nibble), K
    padded with zeros to a multiple of 16; one UE4M3 scale per 16 elements, ue4m3(amax / 6)
    rounded to nearest even, in the 512-byte scale-factor atom layout."""
    return _quantize("nvfp4", x, rows, k)


def quantize_mxfp8(x, rows=None, k=None):
    """(data, scales) of x [rows, k]: e4m3 data, K padded with zeros to a multiple of 32; one
    UE8M0 scale per 32 elements, 2^ceil(log2(amax / 448)), in the scale-factor atom layout."""
    return _quantize("mxfp8", x, rows, k)


def dequantize_nvfp4(data, scales, rows, k):
    """The exact values data * scale of a quantized NVFP4 [rows, k] matrix (row-major)."""
    return _dequantize("nvfp4", data, scales, rows, k)


def dequantize_mxfp8(data, scales, rows, k):
    """The exact values data * scale of a quantized MXFP8 [rows, k] matrix (row-major)."""
    return _dequantize("mxfp8", data, scales, rows, k)
