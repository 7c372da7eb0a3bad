"""Tests of kiln's host-side block-scaled formats (NVFP4, MXFP8) through libkiln_runtime.so.

No GPU and no PyTorch: inputs are lists, array.array and memoryviews; the torch path runs on a tiny
CPU stand-in whose tensors own real host memory. The expected bytes and offsets are computed here
independently of the library (the atom formula, an e2m1 table, powers of two).
"""

import array
import ctypes
import math
import os
import random
import sys
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import kiln  # noqa: E402

E2M1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def e2m1_value(code):
    return -E2M1[code & 7] if code & 8 else E2M1[code & 7]


def e4m3_value(code):
    if code & 0x7F == 0x7F:
        return math.nan
    exp, man = (code >> 3) & 15, code & 7
    mag = man * 2.0 ** -9 if exp == 0 else (8 + man) * 2.0 ** (exp - 10)
    return -mag if code & 0x80 else mag


def atom_offset(row, kb, k_blocks):
    """lowering-brief.md §5.9, written out: atoms K-fastest, 16*m0 + 4*m1 + kb inside."""
    atoms_along_k = (k_blocks + 3) // 4
    atom = (row // 128) * atoms_along_k + kb // 4
    r, b = row % 128, kb % 4
    return atom * 512 + 16 * (r % 32) + 4 * (r // 32) + b


class CpuTensor:
    """A CPU tensor over a ctypes buffer: the few torch.Tensor members kiln uses."""

    def __init__(self, shape, dtype, values=None):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.device = types.SimpleNamespace(type="cpu")
        n = 1
        for s in self.shape:
            n *= s
        self._buf = (dtype.ctype * n)()
        if values is not None:
            self._buf[:] = values

    def dim(self):
        return len(self.shape)

    def numel(self):
        return len(self._buf)

    def element_size(self):
        return ctypes.sizeof(self.dtype.ctype)

    def data_ptr(self):
        return ctypes.addressof(self._buf)

    def detach(self):
        return self

    def contiguous(self):
        return self

    def to(self, dtype):
        if dtype is self.dtype:
            return self
        return CpuTensor(self.shape, dtype, list(self._buf))

    def tolist_flat(self):
        return list(self._buf)


def fake_cpu_torch():
    torch = types.ModuleType("torch")
    torch.Tensor = CpuTensor
    torch.float32 = types.SimpleNamespace(name="float32", ctype=ctypes.c_float)
    torch.float64 = types.SimpleNamespace(name="float64", ctype=ctypes.c_double)
    torch.uint8 = types.SimpleNamespace(name="uint8", ctype=ctypes.c_uint8)
    torch.empty = lambda shape, dtype: CpuTensor(shape, dtype)
    return torch


class BlockScaleTest(unittest.TestCase):
    def assertKilnError(self, fn, *args, contains, **kw):
        with self.assertRaises(kiln.KilnError) as cm:
            fn(*args, **kw)
        self.assertIn(contains, str(cm.exception))
        self.assertEqual(cm.exception.status, "KILN_ERROR_INVALID_VALUE")

    def test_sizes(self):
        self.assertEqual(kiln.nvfp4_bytes(130, 80), (130 * 40, 2 * 2 * 512))
        self.assertEqual(kiln.nvfp4_bytes(130, 70), (130 * 40, 2 * 2 * 512))
        self.assertEqual(kiln.mxfp8_bytes(130, 96), (130 * 96, 2 * 1 * 512))
        self.assertEqual(kiln.mxfp8_bytes(0, 0), (0, 0))
        self.assertEqual(kiln.scale_factor_bytes(130, 5), 2048)
        self.assertEqual(kiln.scale_factor_bytes(128, 4), 512)
        self.assertKilnError(kiln.nvfp4_bytes, -1, 16, contains="must not be negative")
        self.assertKilnError(kiln.scale_factor_bytes, 4, -1, contains="must not be negative")
        self.assertKilnError(kiln.scale_factor_bytes, 2 ** 40, 2 ** 40, contains="too many")
        self.assertKilnError(kiln.mxfp8_bytes, 1.5, 32, contains="rows must be an integer")

    def test_offsets_match_the_atom_formula(self):
        self.assertEqual(kiln.scale_factor_offset(128, 4, 0, 0), 0)
        self.assertEqual(kiln.scale_factor_offset(128, 4, 1, 0), 16)
        self.assertEqual(kiln.scale_factor_offset(128, 4, 32, 0), 4)
        self.assertEqual(kiln.scale_factor_offset(128, 4, 127, 3), 16 * 31 + 4 * 3 + 3)
        self.assertEqual(kiln.scale_factor_offset(1, 8, 0, 4), 512)
        self.assertEqual(kiln.scale_factor_offset(256, 5, 128, 0), 2 * 512)
        for row in range(130):
            for kb in range(5):
                self.assertEqual(kiln.scale_factor_offset(130, 5, row, kb),
                                 atom_offset(row, kb, 5))
        self.assertKilnError(kiln.scale_factor_offset, 130, 5, 130, 0,
                             contains="(row 130, block 0) is outside the 130 x 5 scales")
        self.assertKilnError(kiln.scale_factor_offset, 130, 5, 0, -1, contains="outside")

    def test_nvfp4_golden(self):
        x = [0.0] * 16
        x[0], x[1], x[2], x[3], x[4], x[15] = 6, -3, 0.25, 0.75, 5, -0.5
        data, scales = kiln.quantize_nvfp4(x, rows=1, k=16)
        self.assertIsInstance(data, bytes)
        self.assertEqual(data, bytes([0xD7, 0x20, 0x06, 0, 0, 0, 0, 0x90]))
        self.assertEqual(scales, bytes([0x38]) + bytes(511))
        y = kiln.dequantize_nvfp4(data, scales, 1, 16)
        self.assertIsInstance(y, array.array)
        self.assertEqual(list(y[:5]) + [y[15]], [6, -3, 0, 1, 4, -0.5])

    def test_mxfp8_golden(self):
        x = [[0.0] * 64]
        x[0][0], x[0][1], x[0][2], x[0][40] = 896, -1, 2.125, 500
        data, scales = kiln.quantize_mxfp8(x)  # a list of rows gives rows and k
        self.assertEqual(len(data), 64)
        self.assertEqual(scales[:2], bytes([0x80, 0x80]))  # 2^1 for both blocks
        self.assertEqual(data[:3], bytes([0x7E, 0xB0, 0x38]))
        self.assertEqual(e4m3_value(data[40]), 256.0)
        y = kiln.dequantize_mxfp8(data, scales, 1, 64)
        self.assertEqual((y[0], y[1], y[2], y[40]), (896, -1, 2, 512))

    def test_representable_values_round_trip_exactly(self):
        rng = random.Random(5)
        finite_e4m3 = [c for c in range(256) if c & 0x7F != 0x7F]
        for fmt, rows, k in (("nvfp4", 130, 80), ("nvfp4", 3, 70), ("mxfp8", 130, 96),
                             ("mxfp8", 2, 40)):
            block = 16 if fmt == "nvfp4" else 32
            top = 6.0 if fmt == "nvfp4" else 448.0
            x = []
            for _ in range(rows):
                row = []
                for begin in range(0, k, block):
                    n = min(block, k - begin)
                    scale = 2.0 ** rng.randint(-8, 8)
                    if fmt == "nvfp4":
                        vals = [e2m1_value(rng.randrange(16)) * scale for _ in range(n)]
                    else:
                        vals = [e4m3_value(rng.choice(finite_e4m3)) * scale for _ in range(n)]
                    vals[rng.randrange(n)] = rng.choice([-top, top]) * scale
                    row += vals
                x.append(row)
            flat = array.array("f", [v for r in x for v in r])
            quantize = getattr(kiln, "quantize_" + fmt)
            dequantize = getattr(kiln, "dequantize_" + fmt)
            data, scales = quantize(flat, rows=rows, k=k)
            y = dequantize(data, scales, rows, k)
            self.assertEqual(list(y), list(flat), "%s %dx%d" % (fmt, rows, k))
            # The same bytes from a 2-D memoryview, and dequantize accepts other bytes-likes.
            view = memoryview(flat).cast("B").cast("f", (rows, k))
            self.assertEqual(quantize(view), (data, scales))
            self.assertEqual(list(dequantize(bytearray(data), memoryview(scales), rows, k)),
                             list(flat))

    def test_bytes_decode_by_hand(self):
        # Decode the returned bytes here (nibble order, atom order) and compare.
        rng = random.Random(11)
        rows, k = 130, 80
        x = [rng.uniform(-4, 4) * 2.0 ** rng.randint(-3, 3) for _ in range(rows * k)]
        data, scales = kiln.quantize_nvfp4(x, rows=rows, k=k)
        y = kiln.dequantize_nvfp4(data, scales, rows, k)
        for r in range(rows):
            for c in range(k):
                byte = data[r * 40 + c // 2]
                code = byte & 0xF if c % 2 == 0 else byte >> 4
                scale = e4m3_value(scales[atom_offset(r, c // 16, 5)])
                self.assertEqual(y[r * k + c], e2m1_value(code) * scale, (r, c))
        # Padding scale bytes (rows 130..255, blocks 5..7) are zero.
        used = {atom_offset(r, kb, 5) for r in range(rows) for kb in range(5)}
        self.assertTrue(all(scales[i] == 0 for i in range(len(scales)) if i not in used))
        # Round-trip error: at most one scale (NVFP4) or 1/16 relative (MXFP8).
        data8, scales8 = kiln.quantize_mxfp8(x, rows=rows, k=k)
        y8 = kiln.dequantize_mxfp8(data8, scales8, rows, k)
        for i, v in enumerate(x):
            # (plus half the smallest e4m3 step of a scale <= 2^-3 for tiny values)
            self.assertLessEqual(abs(y8[i] - v), abs(v) / 16 + 2.0 ** -12)

    def test_errors(self):
        x = [1.0] * 32
        x[17] = math.nan
        self.assertKilnError(kiln.quantize_nvfp4, x, rows=2, k=16,
                             contains="kiln_quantize_nvfp4: x[1][1] = nan is not finite")
        self.assertKilnError(kiln.quantize_mxfp8, [1.0] * 5, rows=2, k=3,
                             contains="x has 5 values, not rows x k = 2 x 3")
        self.assertKilnError(kiln.quantize_mxfp8, [1.0] * 6, contains="pass rows= and k=")
        self.assertKilnError(kiln.quantize_mxfp8, [[1.0, 2.0], [3.0]], contains="row 1 of x has 1")
        self.assertKilnError(kiln.quantize_mxfp8, ["a", "b"], rows=1, k=2,
                             contains="x must hold numbers")
        self.assertKilnError(kiln.dequantize_nvfp4, bytes(3), bytes(512), 1, 16,
                             contains="the data buffer holds 3 bytes; it needs 8")
        self.assertKilnError(kiln.dequantize_mxfp8, bytes(32), bytes(100), 1, 32,
                             contains="the scale buffer holds 100 bytes; it needs 512")
        self.assertKilnError(kiln.dequantize_mxfp8, bytes(32), bytes(512), -1, 32,
                             contains="must not be negative")
        self.assertKilnError(kiln.dequantize_mxfp8, 3.0, bytes(512), 1, 32,
                             contains="data must be bytes-like or a CPU torch tensor")

    def test_c_api_null_pointers(self):
        lib = kiln._blockscale._c()
        out = ctypes.c_int64()
        self.assertEqual(lib.kiln_scale_factor_bytes(1, 1, None), 1)
        self.assertEqual(lib.kiln_quantize_nvfp4(None, 1, 16, None, 8, None, 512), 1)
        self.assertIn("NULL x", lib.kiln_last_error().decode())
        buf = (ctypes.c_uint8 * 512)()
        self.assertEqual(lib.kiln_dequantize_mxfp8(buf, 512, buf, 512, 1, 32, None), 1)
        self.assertIn("NULL out", lib.kiln_last_error().decode())
        self.assertEqual(lib.kiln_dequantize_mxfp8(None, 32, buf, 512, 1, 32, None), 1)
        self.assertIn("NULL data buffer", lib.kiln_last_error().decode())
        self.assertEqual(lib.kiln_nvfp4_bytes(0, 0, ctypes.byref(out), ctypes.byref(out)), 0)
        self.assertEqual(out.value, 0)


class BlockScaleTorchTest(unittest.TestCase):
    """CPU torch tensors in, torch tensors out (with a stand-in torch owning real memory)."""

    def setUp(self):
        self._saved = sys.modules.get("torch")
        self.torch = sys.modules["torch"] = fake_cpu_torch()

    def tearDown(self):
        if self._saved is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = self._saved

    def test_round_trip(self):
        torch = self.torch
        rng = random.Random(3)
        values = [rng.uniform(-2, 2) for _ in range(130 * 96)]
        x = CpuTensor((130, 96), torch.float64, values)  # converted to float32
        for fmt, row_bytes in (("nvfp4", 48), ("mxfp8", 96)):
            data, scales = getattr(kiln, "quantize_" + fmt)(x)
            self.assertIsInstance(data, CpuTensor)
            self.assertEqual(data.shape, (130, row_bytes))
            self.assertIs(data.dtype, torch.uint8)
            k_blocks = 96 // (16 if fmt == "nvfp4" else 32)
            self.assertEqual(scales.shape, (kiln.scale_factor_bytes(130, k_blocks),))
            # The same bytes as the plain path.
            plain = getattr(kiln, "quantize_" + fmt)(array.array("f", values), rows=130, k=96)
            self.assertEqual((bytes(data.tolist_flat()), bytes(scales.tolist_flat())), plain)
            y = getattr(kiln, "dequantize_" + fmt)(data, scales, 130, 96)
            self.assertEqual(y.shape, (130, 96))
            self.assertIs(y.dtype, torch.float32)
            self.assertEqual(y.tolist_flat(),
                             list(getattr(kiln, "dequantize_" + fmt)(*plain, 130, 96)))

    def test_refuses_device_tensors(self):
        x = CpuTensor((1, 16), self.torch.float32, [1.0] * 16)
        x.device = types.SimpleNamespace(type="cuda")
        with self.assertRaises(kiln.KilnError) as cm:
            kiln.quantize_nvfp4(x)
        self.assertIn("pass a CPU tensor", str(cm.exception))
        y = CpuTensor((1, 16, 1), self.torch.float32, [1.0] * 16)
        with self.assertRaises(kiln.KilnError) as cm:
            kiln.quantize_nvfp4(y)
        self.assertIn("2-D tensor", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
