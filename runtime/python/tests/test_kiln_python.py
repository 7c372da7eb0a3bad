"""Tests of the kiln Python package without PyTorch, a GPU or an NVIDIA driver.

A fake torch (fake_torch.py) stands in for PyTorch. libkiln_runtime.so loads the NVIDIA driver
itself at the first launch, so without one everything up to the launch runs for real: loading,
manifest queries, argument grouping, dtype and device checks, shape inference and output
allocation, and the runtime's validation messages. Launches fail: without a driver with the
runtime's message that says so (checked word for word), with one because the addresses are fake;
either way as a KilnError rather than a crash. Real launches are tested in test/gpu.
"""

import ctypes
import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import fake_torch  # noqa: E402

# How the runtime's message for a missing driver ends (runtime/CudaDriver.cpp).
NO_DRIVER_TAIL = (": launching a Kiln kernel needs an NVIDIA GPU and its driver; compiling one "
                  "does not (kiln compile --chip sm_90a, or kiln.compile(..., chip=\"sm_90a\") in "
                  "Python)")


def driver_library():
    """The driver library the runtime loads at the first launch, as its messages name it."""
    env = os.environ.get("KILN_LIBCUDA")
    return (env, env + ", from KILN_LIBCUDA") if env else ("libcuda.so.1", "libcuda.so.1")


def driver_installed():
    """Whether that library loads here (then launches with fake addresses fail in CUDA)."""
    try:
        ctypes.CDLL(driver_library()[0])
        return True
    except OSError:
        return False


def no_driver_prefix(library=None, label=None):
    if library is None:
        library, label = driver_library()
    return "the NVIDIA driver (%s) could not be loaded (%s: " % (label, library)


def check_launch_failed(test, error):
    """`error` (a KilnError from a launch with fake addresses) is the runtime's: without a driver,
    the message that says so; with one, whatever CUDA made of the addresses."""
    if driver_installed():
        test.assertIn(error.status, ("KILN_ERROR_CUDA", "KILN_ERROR_DEVICE", "KILN_ERROR_ARGUMENT"))
        test.assertTrue(str(error))
        return
    test.assertEqual(error.status, "KILN_ERROR_DEVICE", str(error))
    test.assertTrue(str(error).startswith(no_driver_prefix()), str(error))
    test.assertTrue(str(error).endswith(NO_DRIVER_TAIL), str(error))


MATMUL = {
    "format": "kiln-manifest", "version": 1, "kernel": "matmul", "source": "m.kiln",
    "chip": "sm_90a", "cubin": "k.cubin", "entry": "matmul", "dims": ["M", "N", "K"],
    "params": [
        {"name": "a", "role": "input", "dtype": "bf16", "shape": ["M", "K"], "align": 16},
        {"name": "b", "role": "input", "dtype": "bf16", "shape": ["N", "K"], "align": 16},
        {"name": "c", "role": "output", "dtype": "bf16", "shape": ["M", "N"], "align": 2},
    ],
    "tensor_maps": [
        {"param": "a", "element": "bf16", "box": [64, 128], "swizzle": "128B",
         "l2_promotion": "256B", "oob_fill": "zero", "optional": False},
    ],
    "kernel_args": [{"kind": "tensor_map", "map": 0}, {"kind": "pointer", "param": "c"}],
    "launch": {"block": [128, 1, 1], "cluster": [1, 1, 1], "dynamic_smem": 1024,
               "grid": {"rule": "tiles", "tiles": [["M", 128], ["N", 128]]}},
}

# MATMUL with a 64x64-tile variant. On 132 SMs: at 1024^2 the primary makes 64 tiles (1 wave,
# cost 2) and the variant 256 (2 waves, 1.2); at 4096^2 1024 tiles (8 waves, 16) against 4096 (32
# waves, 19.2).
MATMUL_VARIANTS = dict(
    MATMUL,
    launch=dict(MATMUL["launch"], tile_cost=2),
    variants=[{
        "entry": "matmul_64x64",
        "tensor_maps": [
            {"param": "a", "element": "bf16", "box": [64, 64], "swizzle": "128B",
             "l2_promotion": "256B", "oob_fill": "zero", "optional": False},
        ],
        "kernel_args": [{"kind": "tensor_map", "map": 0}, {"kind": "pointer", "param": "c"}],
        "launch": {"block": [128, 1, 1], "cluster": [1, 1, 1], "dynamic_smem": 512,
                   "tile_cost": 0.6,
                   "grid": {"rule": "tiles", "tiles": [["M", 64], ["N", 64]]}},
    }],
)

NVFP4 = {
    "format": "kiln-manifest", "version": 1, "kernel": "gemm_nvfp4", "chip": "sm_100a",
    "cubin": "k.cubin", "entry": "gemm", "dims": ["M", "N", "K"],
    "params": [
        {"name": "a", "role": "input", "dtype": "e2m1", "shape": ["M", "K"], "align": 16},
        {"name": "a.scale", "role": "scale", "dtype": "e4m3", "shape": ["M", "cdiv(K,16)"],
         "scale_of": "a", "block": [1, 16], "align": 16},
        {"name": "b", "role": "input", "dtype": "e2m1", "shape": ["N", "K"], "align": 16},
        {"name": "b.scale", "role": "scale", "dtype": "e4m3", "shape": ["N", "cdiv(K,16)"],
         "scale_of": "b", "block": [1, 16], "align": 16},
        {"name": "c", "role": "output", "dtype": "f16", "shape": ["M", "N"], "align": 16},
        {"name": "q", "role": "output", "dtype": "e2m1", "shape": ["M", "N"], "align": 16},
    ],
    "tensor_maps": [], "kernel_args": [],
    "launch": {"block": [128, 1, 1], "cluster": [1, 1, 1], "dynamic_smem": 0,
               "grid": {"rule": "tiles", "tiles": [["M", 128]]}},
}


class KilnPythonTest(unittest.TestCase):
    def setUp(self):
        self._saved_torch = sys.modules.get("torch")
        sys.modules["torch"] = fake_torch
        fake_torch.allocations.clear()
        self.dir = tempfile.mkdtemp(prefix="kiln_py_")
        import kiln
        self.kiln = kiln

    def tearDown(self):
        if self._saved_torch is None:
            sys.modules.pop("torch", None)
        else:
            sys.modules["torch"] = self._saved_torch
        shutil.rmtree(self.dir, ignore_errors=True)

    def write(self, manifest, name="k.kiln.json"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            json.dump(manifest, f)
        with open(os.path.join(self.dir, manifest["cubin"]), "wb") as f:
            f.write(b"\x7fELF not a real cubin")
        return path

    def T(self, shape, dt, **kw):
        return fake_torch.Tensor(shape, dt, **kw)

    # -- loading and queries ------------------------------------------------------------------

    def test_load_and_describe(self):
        k = self.kiln.load(self.write(MATMUL))
        self.assertEqual(k.name, "matmul")
        self.assertEqual(k.chip, "sm_90a")
        self.assertEqual(k.dims, ["M", "N", "K"])
        self.assertEqual([p.name for p in k.params], ["a", "b", "c"])
        self.assertEqual(k.params[0].shape, ("M", "K"))
        self.assertEqual(k.params[2].role, "output")
        self.assertEqual(k.params[2].align, 2)
        self.assertEqual(k.signature, "matmul(a: bf16[M, K], b: bf16[N, K]) -> c: bf16[M, N]")
        self.assertIn("sm_90a", repr(k))

    def test_scaled_signature_and_params(self):
        k = self.kiln.load(self.write(NVFP4))
        self.assertEqual(
            k.signature,
            "gemm_nvfp4((a: e2m1[M, K], a.scale: e4m3[M, cdiv(K,16)]), "
            "(b: e2m1[N, K], b.scale: e4m3[N, cdiv(K,16)])) -> (c: f16[M, N], q: e2m1[M, N])")
        self.assertEqual(k.params[1].scale_of, "a")
        self.assertEqual(k.params[1].block, (1, 16))
        self.assertIsNone(k.params[0].scale_of)

    def test_load_errors_carry_the_runtime_message(self):
        with self.assertRaises(self.kiln.KilnError) as cm:
            self.kiln.load(os.path.join(self.dir, "missing.kiln.json"))
        self.assertEqual(cm.exception.status, "KILN_ERROR_IO")
        self.assertIn("missing.kiln.json: cannot read the manifest", str(cm.exception))
        newer = dict(MATMUL, version=2)
        with self.assertRaises(self.kiln.KilnError) as cm:
            self.kiln.load(self.write(newer))
        self.assertEqual(cm.exception.status, "KILN_ERROR_MANIFEST")
        self.assertIn("manifest version 2 is newer than the newest version this build knows (1)",
                      str(cm.exception))

    # -- calls ----------------------------------------------------------------------------------

    def test_allocates_outputs_then_fails_to_launch_cleanly(self):
        torch = fake_torch
        k = self.kiln.load(self.write(MATMUL))
        a, b = self.T((256, 512), torch.bfloat16), self.T((384, 512), torch.bfloat16)
        with self.assertRaises(self.kiln.KilnError) as cm:
            k(a, b)
        # The output was allocated from the bound dims before the launch was attempted.
        self.assertEqual(len(torch.allocations), 1)
        self.assertEqual(torch.allocations[0].shape, (256, 384))
        self.assertIs(torch.allocations[0].dtype, torch.bfloat16)
        # No driver, or fake addresses: the launch fails in the runtime, not in Python.
        check_launch_failed(self, cm.exception)

    def test_out_is_used_instead_of_allocating(self):
        torch = fake_torch
        k = self.kiln.load(self.write(MATMUL))
        a, b = self.T((256, 512), torch.bfloat16), self.T((384, 512), torch.bfloat16)
        c = self.T((256, 384), torch.bfloat16)
        with self.assertRaises(self.kiln.KilnError) as cm:
            k(a, b, out=c)
        self.assertEqual(torch.allocations, [])
        self.assertNotIn("out=", str(cm.exception))
        check_launch_failed(self, cm.exception)
        with self.assertRaises(self.kiln.KilnError) as cm:
            k(a, b, out=self.T((256, 383), torch.bfloat16))
        self.assertEqual(cm.exception.status, "KILN_ERROR_ARGUMENT")
        self.assertIn("param 'c' axis 1: extent 383 does not match N = 384 (from param 'b' axis 0)",
                      str(cm.exception))

    def test_argument_errors(self):
        torch = fake_torch
        k = self.kiln.load(self.write(MATMUL))
        a = self.T((256, 512), torch.bfloat16)
        with self.assertRaisesRegex(self.kiln.KilnError, r"matmul takes 2 inputs \(a, b\), got 1"):
            k(a)
        with self.assertRaisesRegex(self.kiln.KilnError,
                                    r"param 'b': dtype torch.float16, expected torch.bfloat16"):
            k(a, self.T((384, 512), torch.float16))
        with self.assertRaisesRegex(self.kiln.KilnError, r"param 'b': tensor is on cpu"):
            k(a, self.T((384, 512), torch.bfloat16, dev="cpu"))
        with self.assertRaisesRegex(self.kiln.KilnError,
                                    r"param 'b': tensor is on cuda:1 but other tensors are on "
                                    r"cuda:0"):
            k(a, self.T((384, 512), torch.bfloat16, dev="cuda:1"))
        with self.assertRaisesRegex(self.kiln.KilnError, r"expected a torch.Tensor, got int"):
            k(a, 7)
        with self.assertRaisesRegex(self.kiln.KilnError,
                                    r"param 'b' axis 1: extent 256 does not match K = 512"):
            k(a, self.T((384, 256), torch.bfloat16))
        with self.assertRaisesRegex(self.kiln.KilnError, r"has no block scales"):
            k(a, (self.T((384, 512), torch.bfloat16),))

    def test_block_scaled_inputs_are_tuples_and_fp4_is_packed(self):
        torch = fake_torch
        k = self.kiln.load(self.write(NVFP4))
        M, N, K = 256, 128, 512
        a, b = self.T((M, K // 2), torch.uint8), self.T((N, K // 2), torch.uint8)
        sa, sb = self.T((M, K // 16), torch.float8_e4m3fn), self.T((N, K // 16), torch.float8_e4m3fn)
        with self.assertRaisesRegex(self.kiln.KilnError,
                                    r"input 'a' is block-scaled: pass a tuple \(a, a.scale\)"):
            k(a, (b, sb))
        # Scale shapes are checked against the logical (unpacked) K = 512: cdiv(512, 16) = 32.
        with self.assertRaises(self.kiln.KilnError) as cm:
            k((a, self.T((M, 16), torch.float8_e4m3fn)), (b, sb))
        self.assertIn("param 'a.scale' axis 1: extent 16, expected cdiv(K,16) = 32 with K = 512",
                      str(cm.exception))
        fake_torch.allocations.clear()
        with self.assertRaises(self.kiln.KilnError) as cm:
            k((a, sa), (b, sb))
        self.assertNotEqual(cm.exception.status, "KILN_ERROR_ARGUMENT", str(cm.exception))
        check_launch_failed(self, cm.exception)
        # Two outputs: f16 c [M, N] and packed e2m1 q, allocated as uint8 [M, N / 2].
        shapes = [(t.shape, t.dtype) for t in fake_torch.allocations]
        self.assertEqual(shapes, [((M, N), torch.float16), ((M, N // 2), torch.uint8)])

    def test_views_are_checked_by_the_runtime(self):
        torch = fake_torch
        k = self.kiln.load(self.write(NVFP4))
        M, N, K = 256, 128, 512
        # A sliced uint8 view (row stride 300 bytes = 600 values) passes the generic rules.
        a = self.T((M, K // 2), torch.uint8, strides=(300, 1))
        sa, sb = self.T((M, K // 16), torch.float8_e4m3fn), self.T((N, K // 16), torch.float8_e4m3fn)
        b = self.T((N, K // 2), torch.uint8, strides=(1, N))  # a transposed view
        with self.assertRaises(self.kiln.KilnError) as cm:
            k((a, sa), (b, sb))
        self.assertIn("param 'b' axis 1: stride", str(cm.exception))
        self.assertIn("innermost axis must be contiguous", str(cm.exception))

    # -- variants -------------------------------------------------------------------------------

    def test_entries_and_last_entry(self):
        torch = fake_torch
        k = self.kiln.load(self.write(MATMUL))
        self.assertEqual(k.entries, ["matmul"])
        self.assertIsNone(k.last_entry)
        k = self.kiln.load(self.write(MATMUL_VARIANTS))
        self.assertEqual(k.entries, ["matmul", "matmul_64x64"])
        self.assertIsNone(k.last_entry)
        a, b = self.T((1024, 512), torch.bfloat16), self.T((1024, 512), torch.bfloat16)
        with self.assertRaises(self.kiln.KilnError) as cm:
            k(a, b)  # fails before the choice (no GPU): still no entry ran
        check_launch_failed(self, cm.exception)
        self.assertIsNone(k.last_entry)

    def test_entry_for_applies_the_cost_rule(self):
        torch = fake_torch
        k = self.kiln.load(self.write(MATMUL_VARIANTS))
        bf16 = torch.bfloat16

        def inputs(m, n, kk=512):
            return self.T((m, kk), bf16), self.T((n, kk), bf16)

        self.assertEqual(k.entry_for(*inputs(1024, 1024)), "matmul_64x64")  # 132 SMs (fake)
        self.assertEqual(k.entry_for(*inputs(4096, 4096)), "matmul")
        self.assertEqual(k.entry_for(*inputs(4096, 4096), sm_count=4096), "matmul_64x64")
        a, b = inputs(1024, 1024)
        self.assertEqual(k.entry_for(a, b, out=self.T((1024, 1024), bf16)), "matmul_64x64")
        self.assertEqual(fake_torch.allocations, [])  # nothing allocated
        # Arguments are checked as a call checks them.
        with self.assertRaises(self.kiln.KilnError) as cm:
            k.entry_for(a, self.T((1024, 256), bf16))
        self.assertEqual(cm.exception.status, "KILN_ERROR_ARGUMENT")
        self.assertIn("param 'b' axis 1: extent 256 does not match K = 512", str(cm.exception))
        with self.assertRaisesRegex(self.kiln.KilnError, r"matmul takes 2 inputs"):
            k.entry_for(a)
        with self.assertRaises(self.kiln.KilnError) as cm:
            k.entry_for(a, b, sm_count=0)
        self.assertEqual(cm.exception.status, "KILN_ERROR_INVALID_VALUE")
        # A tile_cost of 0 anywhere: always the primary.
        k0 = self.kiln.load(self.write(dict(MATMUL_VARIANTS, launch=MATMUL["launch"]), "k0.kiln.json"))
        self.assertEqual(k0.entry_for(*inputs(1024, 1024)), "matmul")

    def test_low_level_launch_takes_every_param_in_order(self):
        torch = fake_torch
        k = self.kiln.load(self.write(MATMUL))
        a, b = self.T((256, 512), torch.bfloat16), self.T((384, 512), torch.bfloat16)
        with self.assertRaisesRegex(self.kiln.KilnError, r"matmul has 3 params \(a, b, c\), got 2"):
            k.launch([a, b])
        with self.assertRaises(self.kiln.KilnError) as cm:
            k.launch([a, b, self.T((256, 384), torch.bfloat16)])
        check_launch_failed(self, cm.exception)


class HostileFilesTest(unittest.TestCase):
    """kiln.load refuses what the runtime refuses (runtime/ModuleFiles.h), before any CUDA call,
    and the op's content digest reads the files by the same rules."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kiln_hostile_")
        import kiln
        self.kiln = kiln

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def manifest(self, manifest, name="k.kiln.json"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            json.dump(manifest, f)
        return path

    def cubin(self, data=b"\x7fELF stand-in", name="k.cubin"):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)

    def refused(self, path, status, message):
        with self.assertRaises(self.kiln.KilnError) as cm:
            self.kiln.load(path)
        self.assertEqual(cm.exception.status, status)
        self.assertIn(message, str(cm.exception))

    def test_cubin_must_be_a_file_name_next_to_the_manifest(self):
        self.cubin()
        outside = os.path.join(self.dir, "outside.cubin")
        with open(outside, "wb") as f:
            f.write(b"\x7fELF outside")
        for bad in ["../k.cubin", "/etc/passwd", outside, "/dev/zero", "sub/k.cubin", "..", "."]:
            path = self.manifest(dict(MATMUL, cubin=bad))
            self.refused(path, "KILN_ERROR_MANIFEST",
                         "cubin '%s' is not a plain file name: the cubin is read from the "
                         "manifest's folder" % bad)

    def test_cubin_must_be_a_regular_file(self):
        path = self.manifest(MATMUL)
        os.symlink("/dev/zero", os.path.join(self.dir, "k.cubin"))
        self.refused(path, "KILN_ERROR_IO", "k.cubin: cannot read the cubin named by %s: it is a "
                     "character device, not a regular file" % path)
        os.unlink(os.path.join(self.dir, "k.cubin"))
        os.mkfifo(os.path.join(self.dir, "k.cubin"))  # a read would block: refused at once
        self.refused(path, "KILN_ERROR_IO", "it is a FIFO, not a regular file")
        os.unlink(os.path.join(self.dir, "k.cubin"))
        os.mkdir(os.path.join(self.dir, "k.cubin"))
        self.refused(path, "KILN_ERROR_IO", "it is a directory, not a regular file")

    def test_cubin_bytes_must_be_an_elf_file(self):
        path = self.manifest(MATMUL)
        self.cubin(b".version 8.7\n.target sm_90a\n")
        self.refused(path, "KILN_ERROR_IO",
                     "k.cubin: not a cubin (it does not start with the ELF magic \\x7fELF)")
        self.cubin(b"")
        self.refused(path, "KILN_ERROR_IO", "k.cubin: the cubin is empty")

    def test_files_are_read_bounded(self):
        path = self.manifest(MATMUL)
        self.cubin()
        os.truncate(os.path.join(self.dir, "k.cubin"), (256 << 20) + 1)  # sparse: never read
        self.refused(path, "KILN_ERROR_IO",
                     "it is 268435457 bytes, more than the limit of 268435456 bytes (256 MiB)")
        os.truncate(path, (16 << 20) + 1)
        self.refused(path, "KILN_ERROR_IO", "%s: cannot read the manifest: it is 16777217 bytes, "
                     "more than the limit of 16777216 bytes (16 MiB)" % path)
        self.refused("/dev/zero", "KILN_ERROR_IO",
                     "/dev/zero: cannot read the manifest: it is a character device")
        self.refused(self.dir, "KILN_ERROR_IO", "it is a directory, not a regular file")

    def test_manifest_numbers_are_bounded(self):
        self.cubin()
        huge = dict(MATMUL, launch=dict(MATMUL["launch"], block=[4294967296, 4294967296, 1]))
        self.refused(self.manifest(huge), "KILN_ERROR_MANIFEST",
                     "launch.block [4294967296, 4294967296, 1] exceeds CUDA's limits")
        huge = dict(MATMUL, launch=dict(MATMUL["launch"], cluster=[4294967296, 4294967296, 1]))
        self.refused(self.manifest(huge), "KILN_ERROR_MANIFEST", "has more than 2^63 CTAs")
        huge = dict(MATMUL, launch=dict(MATMUL["launch"], dynamic_smem=1 << 40))
        self.refused(self.manifest(huge), "KILN_ERROR_MANIFEST",
                     "launch.dynamic_smem 1099511627776 is out of range (0..232448 bytes")
        with open(os.path.join(self.dir, "k.kiln.json"), "w") as f:
            f.write(json.dumps(MATMUL).replace('"block": [128,', '"block": [1e300,'))
        self.refused(os.path.join(self.dir, "k.kiln.json"), "KILN_ERROR_MANIFEST",
                     "launch.block[0]: expected an integer")

    def test_nul_in_the_manifest_path(self):
        with self.assertRaises(self.kiln.KilnError) as cm:
            self.kiln.load(os.path.join(self.dir, "k.kiln.json\0../x"))
        self.assertEqual(cm.exception.status, "KILN_ERROR_INVALID_VALUE")

    def test_content_digest_reads_by_the_same_rules(self):
        from kiln._torch_op import content_digest
        self.cubin()
        path = self.manifest(MATMUL)
        k = self.kiln.load(path)
        digest = content_digest(k)
        self.assertEqual(len(digest), 64)
        self.assertEqual(content_digest(k), digest)
        # The files changed after the load: the digest does not follow the manifest elsewhere.
        for bad in ["../k.cubin", "/etc/passwd"]:
            self.manifest(dict(MATMUL, cubin=bad))
            with self.assertRaises(self.kiln.KilnError) as cm:
                content_digest(k)
            self.assertEqual(cm.exception.status, "KILN_ERROR_MANIFEST")
            self.assertIn("is not a plain file name", str(cm.exception))
        self.manifest(MATMUL)
        os.unlink(os.path.join(self.dir, "k.cubin"))
        os.symlink("/dev/zero", os.path.join(self.dir, "k.cubin"))
        with self.assertRaises(self.kiln.KilnError) as cm:
            content_digest(k)
        self.assertEqual(cm.exception.status, "KILN_ERROR_IO")
        self.assertIn("it is a character device, not a regular file", str(cm.exception))
        with open(path, "w") as f:
            f.write("[1, 2]")
        with self.assertRaises(self.kiln.KilnError) as cm:
            content_digest(k)
        self.assertIn("cubin None is not a plain file name", str(cm.exception))


class CApiTest(unittest.TestCase):
    """kiln.h misuse: every call returns a status and sets kiln_last_error, never aborts."""

    def setUp(self):
        from kiln import _lib
        self.L = _lib
        self.lib = _lib.library()
        self.dir = tempfile.mkdtemp(prefix="kiln_capi_")
        path = os.path.join(self.dir, "k.kiln.json")
        with open(path, "w") as f:
            json.dump(MATMUL, f)
        with open(os.path.join(self.dir, "k.cubin"), "wb") as f:
            f.write(b"\x7fELF stand-in")
        self.mod = ctypes.c_void_p()
        self.assertEqual(self.lib.kiln_module_load(path.encode(), ctypes.byref(self.mod)), 0)

    def tearDown(self):
        self.lib.kiln_module_free(self.mod)
        shutil.rmtree(self.dir, ignore_errors=True)

    def last_error(self):
        return self.lib.kiln_last_error().decode()

    def tensors(self, specs):
        keep, arr = [], (self.L.CTensor * len(specs))()
        for i, (dtype, shape) in enumerate(specs):
            s = (ctypes.c_int64 * len(shape))(*shape)
            keep.append(s)
            arr[i] = self.L.CTensor(0x7F0000000000 + (i << 24), dtype, len(shape), s, None)
        return arr, keep

    def test_null_and_range_errors(self):
        lib = self.lib
        self.assertEqual(lib.kiln_module_load(None, None), 1)
        self.assertIn("NULL argument", self.last_error())
        self.assertEqual(lib.kiln_launch(None, None, 0, None), 1)
        self.assertEqual(self.last_error(), "kiln_launch: NULL module")
        self.assertEqual(lib.kiln_launch(self.mod, None, -1, None), 1)
        self.assertEqual(lib.kiln_module_prepare(None, None), 1)
        self.assertEqual(lib.kiln_module_num_params(None), -1)
        self.assertIsNone(lib.kiln_module_dim_name(self.mod, 3))
        self.assertEqual(lib.kiln_module_dim_name(self.mod, 2), b"K")
        info = self.L.CParamInfo()
        self.assertEqual(lib.kiln_module_param(self.mod, 3, ctypes.byref(info)), 1)
        self.assertEqual(self.last_error(), "kiln_module_param: index 3 outside 0..2")
        self.assertEqual(lib.kiln_status_name(4), b"KILN_ERROR_ARGUMENT")
        self.assertEqual(lib.kiln_dtype_name(6), b"e2m1")
        self.assertIsNone(lib.kiln_dtype_name(8))
        lib.kiln_module_free(None)

    def test_bad_tensor_descriptions(self):
        lib = self.lib
        arr, keep = self.tensors([(0, [256, 512]), (0, [384, 512]), (0, [256, 384])])
        arr[1].dtype = 42
        self.assertEqual(lib.kiln_launch(self.mod, arr, 3, None), 1)
        self.assertEqual(self.last_error(), "args[1]: unknown dtype 42")
        arr[1].dtype = 0
        arr[2].rank = 9
        self.assertEqual(lib.kiln_launch(self.mod, arr, 3, None), 1)
        self.assertEqual(self.last_error(), "args[2]: rank 9 outside 0..8")
        arr[2].rank = 2
        arr[0].shape = None
        self.assertEqual(lib.kiln_launch(self.mod, arr, 3, None), 1)
        self.assertEqual(self.last_error(), "args[0]: NULL shape")

    def test_validation_happens_before_any_cuda_call(self):
        lib = self.lib
        arr, keep = self.tensors([(0, [256, 512]), (0, [384, 500]), (0, [256, 384])])
        self.assertEqual(lib.kiln_launch(self.mod, arr, 3, None), 4)
        self.assertEqual(self.last_error(),
                         "param 'b' axis 1: extent 500 does not match K = 512 (from param 'a' "
                         "axis 1)")
        self.assertEqual(lib.kiln_launch(self.mod, arr, 2, None), 4)
        self.assertEqual(self.last_error(), "kernel 'matmul' takes 3 tensors (a, b, c), got 2")

    def test_infer_shapes(self):
        lib = self.lib
        arr, keep = self.tensors([(0, [256, 512]), (0, [384, 512]), (0, [1, 1])])
        arr[2].shape = None  # unknown: to be inferred
        shapes = (ctypes.c_int64 * (3 * self.L.MAX_RANK))()
        dims = (ctypes.c_int64 * 3)()
        self.assertEqual(lib.kiln_module_infer_shapes(self.mod, arr, 3, shapes, dims), 0,
                         self.last_error())
        self.assertEqual(list(shapes[16:18]), [256, 384])
        self.assertEqual(list(dims), [256, 384, 512])
        arr[1].shape = None
        self.assertEqual(lib.kiln_module_infer_shapes(self.mod, arr, 3, shapes, None), 4)
        self.assertEqual(self.last_error(), "cannot infer the shape of param 'b' [N, K]: dim 'N' "
                                            "is not bound by any given tensor")
        self.assertEqual(lib.kiln_module_infer_shapes(None, arr, 3, shapes, None), 1)


class CApiVariantsTest(unittest.TestCase):
    def setUp(self):
        from kiln import _lib
        self.L = _lib
        self.lib = _lib.library()
        self.dir = tempfile.mkdtemp(prefix="kiln_capi_")
        path = os.path.join(self.dir, "k.kiln.json")
        with open(path, "w") as f:
            json.dump(MATMUL_VARIANTS, f)
        with open(os.path.join(self.dir, "k.cubin"), "wb") as f:
            f.write(b"\x7fELF stand-in")
        self.mod = ctypes.c_void_p()
        self.assertEqual(self.lib.kiln_module_load(path.encode(), ctypes.byref(self.mod)), 0)

    def tearDown(self):
        self.lib.kiln_module_free(self.mod)
        shutil.rmtree(self.dir, ignore_errors=True)

    def test_queries_and_choice(self):
        lib = self.lib
        self.assertEqual(lib.kiln_module_num_variants(self.mod), 2)
        self.assertEqual(lib.kiln_module_num_variants(None), -1)
        self.assertEqual(lib.kiln_module_variant_entry(self.mod, 0), b"matmul")
        self.assertEqual(lib.kiln_module_variant_entry(self.mod, 1), b"matmul_64x64")
        self.assertIsNone(lib.kiln_module_variant_entry(self.mod, 2))
        self.assertIsNone(lib.kiln_module_variant_entry(self.mod, -1))
        self.assertEqual(lib.kiln_module_last_variant(self.mod), -1)
        self.assertEqual(lib.kiln_module_last_variant(None), -1)

        keep = []

        def arr(*shapes):
            a = (self.L.CTensor * len(shapes))()
            for i, shape in enumerate(shapes):
                if shape is None:
                    a[i] = self.L.CTensor(0, 0, 0, None, None)
                    continue
                s = (ctypes.c_int64 * len(shape))(*shape)
                keep.append(s)
                a[i] = self.L.CTensor(0x7F0000000000 + (i << 24), 0, len(shape), s, None)
            return a

        v = ctypes.c_int(-1)
        args = arr([1024, 512], [1024, 512], None)
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 132, ctypes.byref(v)), 0,
                         lib.kiln_last_error())
        self.assertEqual(v.value, 1)
        args = arr([4096, 512], [4096, 512], [4096, 4096])
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 132, ctypes.byref(v)), 0)
        self.assertEqual(v.value, 0)
        # The grids need N, which only b (or c) binds.
        args = arr([1024, 512], None, None)
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 132, ctypes.byref(v)), 4)
        self.assertEqual(lib.kiln_last_error().decode(),
                         "cannot choose a variant: dim 'N' (in the grid of entry 'matmul') is not "
                         "bound by any given tensor")
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 132, None), 1)
        self.assertEqual(lib.kiln_module_choose_variant(None, args, 3, 132, ctypes.byref(v)), 1)
        args = arr([1024, 512], [1024, 512], None)
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 0, ctypes.byref(v)), 1)
        self.assertEqual(lib.kiln_last_error().decode(),
                         "chooseVariant: SM count 0 is not positive")

        # A pinned variant is what every launch and query runs; -1 gives it back.
        self.assertEqual(lib.kiln_module_pinned_variant(self.mod), -1)
        self.assertEqual(lib.kiln_module_pin_variant(self.mod, 2), 1)
        self.assertEqual(lib.kiln_last_error().decode(),
                         "pinVariant: variant 2 is not -1 (the cost rule) or one of the 2 "
                         "variants")
        self.assertEqual(lib.kiln_module_pin_variant(None, 0), 1)
        self.assertEqual(lib.kiln_module_pinned_variant(None), -1)
        args = arr([4096, 512], [4096, 512], [4096, 4096])
        self.assertEqual(lib.kiln_module_pin_variant(self.mod, 1), 0)
        self.assertEqual(lib.kiln_module_pinned_variant(self.mod), 1)
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 132, ctypes.byref(v)), 0)
        self.assertEqual(v.value, 1)
        text = ctypes.c_char_p()
        self.assertEqual(lib.kiln_module_explain_variant(self.mod, args, 3, 132,
                                                         ctypes.byref(text)), 0)
        explanation = text.value.decode()
        self.assertIn("variant choice (132 SMs):", explanation)
        self.assertIn("variant 0 'matmul': ", explanation)
        self.assertIn("<- chosen", explanation.splitlines()[1])
        self.assertIn("pinned: variant 1 'matmul_64x64' runs", explanation)
        self.assertEqual(lib.kiln_module_pin_variant(self.mod, -1), 0)
        self.assertEqual(lib.kiln_module_choose_variant(self.mod, args, 3, 132, ctypes.byref(v)), 0)
        self.assertEqual(v.value, 0)
        self.assertEqual(lib.kiln_module_explain_variant(self.mod, args, 3, 132, None), 1)


# Run in a fresh interpreter (the runtime loads the driver once per process): load a kernel with
# the C API and prepare it, the first call that needs the driver; prints the status and message.
PREPARE_SCRIPT = textwrap.dedent("""
    import ctypes, sys
    sys.path.insert(0, sys.argv[1])
    from kiln import _lib
    lib = _lib.library()
    mod = ctypes.c_void_p()
    if lib.kiln_module_load(sys.argv[2].encode(), ctypes.byref(mod)) != 0:
        sys.exit("load: " + lib.kiln_last_error().decode())
    status = lib.kiln_module_prepare(mod, None)
    print(status)
    print(lib.kiln_last_error().decode() if status else "")
    lib.kiln_module_free(mod)
""")


class DriverTest(unittest.TestCase):
    """Loading needs no driver; the first call that does reports a missing one clearly. The
    KILN_LIBCUDA cases run in a fresh process, so they hold on every machine."""

    def setUp(self):
        from kiln import _lib
        self.L = _lib
        self.lib = _lib.library()
        self.dir = tempfile.mkdtemp(prefix="kiln_driver_")
        self.path = os.path.join(self.dir, "k.kiln.json")
        with open(self.path, "w") as f:
            json.dump(MATMUL, f)
        with open(os.path.join(self.dir, "k.cubin"), "wb") as f:
            f.write(b"\x7fELF stand-in")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def prepare_in_new_process(self, libcuda):
        env = dict(os.environ, KILN_LIBCUDA=libcuda)
        r = subprocess.run([sys.executable, "-c", PREPARE_SCRIPT, os.path.join(HERE, ".."),
                            self.path], env=env, capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        status, message = r.stdout.split("\n", 1)
        return int(status), message.rstrip("\n")

    def test_a_missing_driver_file(self):
        status, message = self.prepare_in_new_process("/nonexistent/libcuda.so.1")
        self.assertEqual(status, 5)  # KILN_ERROR_DEVICE
        self.assertEqual(message, no_driver_prefix("/nonexistent/libcuda.so.1",
                                                   "/nonexistent/libcuda.so.1, from KILN_LIBCUDA")
                         + "cannot open shared object file: No such file or directory)"
                         + NO_DRIVER_TAIL)

    def test_a_driver_file_that_is_not_a_library(self):
        fake = os.path.join(self.dir, "libcuda.so.1")
        with open(fake, "w") as f:
            f.write("not a shared library\n" * 8)  # longer than an ELF header
        status, message = self.prepare_in_new_process(fake)
        self.assertEqual(status, 5)
        self.assertTrue(message.startswith(no_driver_prefix(fake, fake + ", from KILN_LIBCUDA")),
                        message)
        self.assertIn("invalid ELF header", message)
        self.assertTrue(message.endswith(NO_DRIVER_TAIL), message)

    def test_without_a_driver_prepare_says_so(self):
        if driver_installed():
            self.skipTest("an NVIDIA driver is installed")
        mod = ctypes.c_void_p()
        self.assertEqual(self.lib.kiln_module_load(self.path.encode(), ctypes.byref(mod)), 0)
        try:
            for _ in range(2):  # the same answer every time
                self.assertEqual(self.lib.kiln_module_prepare(mod, None), 5)
                message = self.lib.kiln_last_error().decode()
                self.assertTrue(message.startswith(no_driver_prefix()), message)
                self.assertTrue(message.endswith(NO_DRIVER_TAIL), message)
            # Queries still work.
            self.assertEqual(self.lib.kiln_module_kernel(mod), b"matmul")
        finally:
            self.lib.kiln_module_free(mod)


class LibraryDiscoveryTest(unittest.TestCase):
    def test_missing_library_is_a_kiln_error(self):
        from kiln import _lib
        saved_lib, saved_env = _lib._lib, os.environ.get("KILN_RUNTIME_LIB")
        try:
            _lib._lib = None
            os.environ["KILN_RUNTIME_LIB"] = "/nonexistent/libkiln_runtime.so"
            with self.assertRaises(_lib.KilnError) as cm:
                _lib.library()
            self.assertEqual(cm.exception.status, "KILN_ERROR_IO")
            self.assertIn("/nonexistent/libkiln_runtime.so (missing)", str(cm.exception))
            self.assertIn("KILN_RUNTIME_LIB", str(cm.exception))
            self.assertIn("Build it", str(cm.exception))
        finally:
            _lib._lib = saved_lib
            if saved_env is None:
                os.environ.pop("KILN_RUNTIME_LIB", None)
            else:
                os.environ["KILN_RUNTIME_LIB"] = saved_env

    def test_a_library_that_does_not_load_says_why(self):
        # Found, but the loader refuses it: its reason, and no advice to build what is there.
        from kiln import _lib
        saved_lib, saved_env = _lib._lib, os.environ.get("KILN_RUNTIME_LIB")
        folder = tempfile.mkdtemp(prefix="kiln_lib_")
        try:
            bad = os.path.join(folder, "libkiln_runtime.so")
            with open(bad, "w") as f:
                f.write("not a shared library\n" * 8)  # longer than an ELF header
            _lib._lib = None
            os.environ["KILN_RUNTIME_LIB"] = bad
            with self.assertRaises(_lib.KilnError) as cm:
                _lib.library()
            message = str(cm.exception)
            self.assertEqual(cm.exception.status, "KILN_ERROR_IO")
            self.assertTrue(message.startswith("the Kiln runtime library libkiln_runtime.so was "
                                               "found but cannot be loaded:\n  " + bad + " ("),
                            message)
            self.assertIn("invalid ELF header", message)
            self.assertNotIn("Build it", message)
        finally:
            _lib._lib = saved_lib
            shutil.rmtree(folder, ignore_errors=True)
            if saved_env is None:
                os.environ.pop("KILN_RUNTIME_LIB", None)
            else:
                os.environ["KILN_RUNTIME_LIB"] = saved_env


if __name__ == "__main__":
    unittest.main()
