"""kiln.compile, its cache and the torch.library op's shapes, without the real compiler or torch.

A fake `kiln` (a Python script written into a temporary folder) stands in for the compiler: it
answers --version, logs every compile, writes a manifest and a stand-in cubin, or fails with a
located diagnostic. The real compiler is exercised by test/install (kiln.compile on
examples/matmul.kiln in a pip-installed package) and the torch op on a GPU by test/gpu.
"""

import json
import os
import shutil
import stat
import sys
import tempfile
import unittest
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

import fake_torch  # noqa: E402
from test_kiln_python import MATMUL, NVFP4, check_launch_failed  # noqa: E402

FAKE_COMPILER = r'''#!{python}
import json, os, sys
args = sys.argv[1:]
if args == ["--version"]:
    print("kiln 9.9.9\nLLVM 22.1.0\nptxas: not found")
    sys.exit(0)
assert args[0] == "compile", args
src = args[1]
text = sys.stdin.read() if src == "-" else open(src).read()
with open({log!r}, "a") as f:
    f.write(json.dumps(args) + "\n")
if "error_here" in text:
    name = "<stdin>" if src == "-" else src
    sys.stderr.write(name + ":2:7: error: unknown function 'error_here'\n  c = error_here(a)\n      ^\n")
    sys.exit(1)
if "warn_here" in text:
    sys.stderr.write("kiln: warning: something to say\n")
if "--mlir-print-ir-after-all" in args:
    sys.stderr.write("// -----// IR Dump After Pass //----- //\nmodule {{}}\n" * 5000)
out = args[args.index("-o") + 1]
emit = [a for a in args if a.startswith("--emit=")]
if emit:
    open(out, "w").write("// " + emit[0][len("--emit="):] + " of " + src + "\n")
    sys.exit(0)
manifest = dict({manifest}, chip=args[args.index("--chip") + 1], cubin=os.path.basename(out))
open(out, "wb").write(b"\x7fELF stand-in")
open(out[:-len(".cubin")] + ".kiln.json", "w").write(json.dumps(manifest))
'''

SOURCE = "kernel matmul(a: bf16[M, K], b: bf16[N, K]) -> c: bf16[M, N] {\n  c = a @ b^T\n}\n"


class CompileTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kiln_compile_")
        self.log = os.path.join(self.dir, "calls.log")
        self.compiler = os.path.join(self.dir, "kiln")
        with open(self.compiler, "w") as f:
            f.write(FAKE_COMPILER.format(python=sys.executable, log=self.log,
                                         manifest=repr(MATMUL)))
        os.chmod(self.compiler, os.stat(self.compiler).st_mode | stat.S_IEXEC)
        self.saved = {k: os.environ.get(k) for k in ("KILN_COMPILER", "KILN_CACHE_DIR")}
        os.environ["KILN_COMPILER"] = self.compiler
        os.environ["KILN_CACHE_DIR"] = os.path.join(self.dir, "cache")
        import kiln
        self.kiln = kiln

    def tearDown(self):
        for k, v in self.saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        shutil.rmtree(self.dir, ignore_errors=True)

    def calls(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def write_source(self, text=SOURCE, name="mm.kiln"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def test_compiles_once_then_hits_the_cache(self):
        path = self.write_source()
        k1 = self.kiln.compile(path, chip="sm_90a")
        k2 = self.kiln.compile(path, chip="sm_90a")
        self.assertIsInstance(k1, self.kiln.Kernel)
        self.assertEqual(k1.path, k2.path)
        self.assertEqual(len(self.calls()), 1)
        self.assertEqual(self.calls()[0][:4], ["compile", path, "--chip", "sm_90a"])
        self.assertEqual(k1.signature, "matmul(a: bf16[M, K], b: bf16[N, K]) -> c: bf16[M, N]")
        entry = os.path.dirname(k1.path)
        self.assertEqual(os.path.dirname(entry), os.path.join(self.dir, "cache"))
        self.assertEqual(sorted(os.listdir(entry)),
                         ["compile.log", "kernel.cubin", "kernel.kiln.json", "key.json"])
        with open(os.path.join(entry, "key.json")) as f:
            key = json.load(f)
        self.assertEqual(key["chip"], "sm_90a")
        self.assertEqual(key["source_path"], path)
        self.assertTrue(key["compiler_version"].startswith("kiln 9.9.9"))

    def test_compiled_kernel_loads_and_launches_need_the_driver(self):
        # The issue this guards: compiling for a chip works on a machine without a GPU or its
        # driver, and returns a kernel (manifest read and checked); only launching needs them.
        k = self.kiln.compile(SOURCE, chip="sm_90a")
        self.assertIsInstance(k, self.kiln.Kernel)
        self.assertEqual((k.chip, k.entries), ("sm_90a", ["matmul"]))
        self.assertEqual(self.kiln.load(k.path).signature, k.signature)
        saved = sys.modules.get("torch")
        sys.modules["torch"] = fake_torch
        try:
            a = fake_torch.Tensor((256, 512), fake_torch.bfloat16)
            b = fake_torch.Tensor((384, 512), fake_torch.bfloat16)
            with self.assertRaises(self.kiln.KilnError) as cm:
                k(a, b)
            check_launch_failed(self, cm.exception)
        finally:
            if saved is None:
                sys.modules.pop("torch", None)
            else:
                sys.modules["torch"] = saved

    def test_key_covers_source_chip_options_and_compiler(self):
        path = self.write_source()
        base = self.kiln.compile(path, chip="sm_90a", load=False)
        # Same text from another file, or as text: the same entry.
        self.assertEqual(self.kiln.compile(self.write_source(name="copy.kiln"), chip="sm_90a",
                                           load=False), base)
        self.assertEqual(self.kiln.compile(SOURCE, chip="sm_90a", load=False), base)
        self.assertEqual(len(self.calls()), 1)
        others = [
            self.kiln.compile(SOURCE + "\n", chip="sm_90a", load=False),
            self.kiln.compile(path, chip="sm_100a", load=False),
            self.kiln.compile(path, chip="sm_90a", explain=True, load=False),
        ]
        self.assertEqual(len(set(others + [base])), 4)
        self.assertEqual(self.calls()[-1][-1], "--explain")
        # A rebuilt compiler (another modification time) is another key.
        st = os.stat(self.compiler)
        os.utime(self.compiler, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        self.assertNotEqual(self.kiln.compile(path, chip="sm_90a", load=False), base)
        self.assertEqual(len(self.calls()), 5)
        # cache=False compiles again into the same entry.
        self.kiln.compile(path, chip="sm_90a", load=False, cache=False)
        self.assertEqual(len(self.calls()), 6)

    def test_source_text_goes_through_stdin(self):
        self.kiln.compile(SOURCE, chip="sm_90a")
        self.assertEqual(self.calls()[0][1], "-")

    def test_compiler_diagnostics_are_the_exception_message(self):
        bad = SOURCE.replace("a @ b^T", "error_here(a)")
        with self.assertRaises(self.kiln.CompileError) as cm:
            self.kiln.compile(bad, chip="sm_90a")
        e = cm.exception
        self.assertEqual(str(e), "<stdin>:2:7: error: unknown function 'error_here'\n"
                                 "  c = error_here(a)\n      ^")
        self.assertEqual(e.returncode, 1)
        self.assertEqual(e.status, "KILN_ERROR_COMPILE")
        self.assertIsInstance(e, self.kiln.KilnError)
        path = self.write_source(bad)
        with self.assertRaisesRegex(self.kiln.CompileError, "^" + path + ":2:7: error: "):
            self.kiln.compile(path, chip="sm_90a")
        # Failures are not cached, and leave no temporary folders.
        self.assertEqual(os.listdir(os.path.join(self.dir, "cache")), [])

    def test_compiler_messages_on_success_are_a_warning(self):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.kiln.compile(SOURCE.replace("}", "// warn_here\n}"), chip="sm_90a")
        self.assertEqual([str(w.message) for w in caught], ["kiln: warning: something to say"])
        self.assertTrue(issubclass(caught[0].category, self.kiln.CompileWarning))

    def test_long_compiler_output_goes_to_a_file(self):
        # IR dumps are megabytes: the warning names the file that holds them.
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.kiln.compile(SOURCE, chip="sm_90a", mlir_print_ir_after_all=True)
        self.assertEqual(len(caught), 1)
        message = str(caught[0].message)
        self.assertRegex(message, r"^kiln compile printed 10000 lines \(0\.\d MB\); they are in "
                                  r".*compile\.log\. kiln\.compile\(\.\.\., dump_dir=FOLDER\)")
        log = message.split("they are in ", 1)[1].split(". kiln.compile", 1)[0]
        with open(log) as f:
            self.assertEqual(f.read().count("IR Dump After Pass"), 5000)

    def test_dump_dir(self):
        dump = os.path.join(self.dir, "dump")
        path = self.write_source()
        self.kiln.compile(path, chip="sm_90a")  # cached
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            self.kiln.compile(path, chip="sm_90a", dump_dir=dump,
                              mlir_print_ir_after_all=True)
        (folder,) = os.listdir(dump)
        self.assertRegex(folder, r"^mm-sm_90a-[0-9a-f]{8}$")
        files = sorted(os.listdir(os.path.join(dump, folder)))
        self.assertEqual(files, ["compile.log", "kernel.cta.mlir", "kernel.cubin",
                                 "kernel.kiln.json", "kernel.llvm.mlir", "kernel.ptx",
                                 "kernel.tile.mlir", "source.kiln"])
        with open(os.path.join(dump, folder, "kernel.cta.mlir")) as f:
            self.assertEqual(f.read(), "// cta of " + path + "\n")
        with open(os.path.join(dump, folder, "compile.log")) as f:
            self.assertIn("IR Dump After Pass", f.read())
        # The dump compiled although the cache had the kernel; the stages ran without the
        # IR-printing flag, and the warning points into the dump.
        compiles = [c for c in self.calls() if not any(a.startswith("--emit") for a in c)]
        self.assertEqual(len(compiles), 2)
        stages = [c for c in self.calls() if any(a.startswith("--emit") for a in c)]
        self.assertEqual(len(stages), 4)
        self.assertFalse(any("--mlir-print-ir-after-all" in c for c in stages))
        self.assertIn(os.path.join(dump, folder, "compile.log"), str(caught[0].message))
        # $KILN_DUMP_DIR does the same.
        os.environ["KILN_DUMP_DIR"] = os.path.join(self.dir, "dump2")
        try:
            self.kiln.compile(SOURCE, chip="sm_100a")
        finally:
            del os.environ["KILN_DUMP_DIR"]
        (folder2,) = os.listdir(os.path.join(self.dir, "dump2"))
        self.assertRegex(folder2, r"^source-sm_100a-[0-9a-f]{8}$")

    def test_errors(self):
        os.environ["KILN_COMPILER"] = os.path.join(self.dir, "no-such-kiln")
        with self.assertRaisesRegex(self.kiln.KilnError, r"no-such-kiln \(missing\).*KILN_COMPILER"):
            self.kiln.compile(SOURCE, chip="sm_90a")
        os.environ["KILN_COMPILER"] = self.compiler
        with self.assertRaisesRegex(self.kiln.KilnError, r"cannot read .*nothere.kiln"):
            self.kiln.compile(os.path.join(self.dir, "nothere.kiln"), chip="sm_90a")
        with self.assertRaisesRegex(self.kiln.KilnError, r"sets --o itself"):
            self.kiln.compile(SOURCE, chip="sm_90a", o="x")
        with self.assertRaisesRegex(self.kiln.KilnError, r"sets --emit itself"):
            self.kiln.compile(SOURCE, chip="sm_90a", emit="ptx")
        with self.assertRaisesRegex(self.kiln.KilnError, r"path or Kiln source text"):
            self.kiln.compile(42, chip="sm_90a")
        # Not a Kiln compiler.
        notkiln = os.path.join(self.dir, "true")
        with open(notkiln, "w") as f:
            f.write("#!/bin/sh\necho hello\n")
        os.chmod(notkiln, 0o755)
        os.environ["KILN_COMPILER"] = notkiln
        with self.assertRaisesRegex(self.kiln.KilnError, r"not a Kiln compiler"):
            self.kiln.compile(SOURCE, chip="sm_90a")

    def test_flags(self):
        from kiln._compile import _flags
        self.assertEqual(_flags({"explain": True, "v": False, "load_pass_plugin": ["a.so", "b.so"],
                                 "mlir_timing": None}),
                         ["--explain", "--load-pass-plugin=a.so", "--load-pass-plugin=b.so"])


class DimExprTest(unittest.TestCase):
    def test_forms(self):
        from kiln._dimexpr import DimExpr
        dims = {"M": 1000, "K": 384}
        for text, value in [("128", 128), ("M", 1000), ("M+1", 1001), ("M - 4", 996),
                            ("M*2", 2000), ("cdiv(K,128)", 3), ("cdiv(K, 100)", 4)]:
            self.assertEqual(DimExpr(text).evaluate(dims), value, text)
        self.assertTrue(DimExpr("M").is_plain_name)
        self.assertFalse(DimExpr("M+1").is_plain_name)
        # A name plus a constant binds its dim where no bare name does (offsets i32[B+1]).
        self.assertTrue(DimExpr("B+1").is_shifted_name)
        self.assertTrue(DimExpr("B-2").is_shifted_name)
        self.assertFalse(DimExpr("B*2").is_shifted_name)
        self.assertEqual(DimExpr("B+1").invert(9), 8)
        self.assertEqual(DimExpr("B-2").invert(9), 11)
        self.assertTrue(DimExpr("K*2").is_scaled_name)
        self.assertFalse(DimExpr("K+2").is_scaled_name)
        self.assertEqual(DimExpr("K*2").invert(10), 5)
        # The runtime's parser (kiln_dim_expr_parse) decides, so Python and C agree.
        for bad in ["", "M+N", "cdiv(M,0)", "2*M", "-1", "cdiv(3,M)", "M/2"]:
            with self.assertRaisesRegex(ValueError, "invalid dim expression"):
                DimExpr(bad)
        with self.assertRaises(KeyError):
            DimExpr("N+1").evaluate(dims)
        self.assertEqual(DimExpr("L" * 5000 + "*3").evaluate({"L" * 5000: 2}), 6)


class _FakeTensor(fake_torch.Tensor):
    def new_empty(self, shape, dtype=None):
        return _FakeTensor(shape, dtype or self.dtype, self.device)


class OpSignatureTest(unittest.TestCase):
    """The op's schema and its fake implementation's shapes (torch.library itself is tested on a
    GPU machine with PyTorch: test/gpu/test_torch_op.py)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="kiln_op_")
        self.checks = []
        fake_torch._check = lambda cond, msg=None: self.checks.append((cond, msg))
        import kiln
        self.kiln = kiln

    def tearDown(self):
        del fake_torch._check
        shutil.rmtree(self.dir, ignore_errors=True)

    def load(self, manifest):
        path = os.path.join(self.dir, "k.kiln.json")
        with open(path, "w") as f:
            json.dump(manifest, f)
        with open(os.path.join(self.dir, manifest["cubin"]), "wb") as f:
            f.write(b"\x7fELF stand-in")
        return self.kiln.load(path)

    def test_matmul(self):
        from kiln._torch_op import _Signature
        sig = _Signature(self.load(MATMUL))
        self.assertEqual(sig.schema("matmul_x"), "matmul_x(Tensor a, Tensor b) -> Tensor")
        T = fake_torch
        c = sig.fake(T, [_FakeTensor((100, 64), T.bfloat16), _FakeTensor((300, 64), T.bfloat16)])
        self.assertEqual((c.shape, c.dtype), ((100, 300), T.bfloat16))
        # b's K is checked against a's.
        self.assertEqual([cond for cond, _ in self.checks], [True])
        self.checks.clear()
        sig.fake(T, [_FakeTensor((100, 64), T.bfloat16), _FakeTensor((300, 32), T.bfloat16)])
        self.assertEqual([cond for cond, _ in self.checks], [False])
        self.assertIn("param 'b' axis 1", self.checks[0][1]())
        with self.assertRaisesRegex(self.kiln.KilnError, r"param 'a': dtype torch.float16"):
            sig.fake(T, [_FakeTensor((100, 64), T.float16), _FakeTensor((300, 64), T.bfloat16)])
        with self.assertRaisesRegex(self.kiln.KilnError, r"param 'b': rank 1, expected 2"):
            sig.fake(T, [_FakeTensor((100, 64), T.bfloat16), _FakeTensor((64,), T.bfloat16)])

    def test_block_scaled_and_packed(self):
        from kiln._torch_op import _Signature
        sig = _Signature(self.load(NVFP4))
        self.assertEqual(sig.schema("nvfp4"),
                         "nvfp4(Tensor a, Tensor a_scale, Tensor b, Tensor b_scale) -> "
                         "(Tensor, Tensor)")
        T = fake_torch
        M, N, K = 256, 128, 512
        a, b = _FakeTensor((M, K // 2), T.uint8), _FakeTensor((N, K // 2), T.uint8)
        sa = _FakeTensor((M, K // 16), T.float8_e4m3fn)
        sb = _FakeTensor((N, K // 16), T.float8_e4m3fn)
        c, q = sig.fake(T, [a, sa, b, sb])
        self.assertEqual((c.shape, c.dtype), ((M, N), T.float16))
        self.assertEqual((q.shape, q.dtype), ((M, N // 2), T.uint8))
        self.assertTrue(all(cond for cond, _ in self.checks))
        self.assertEqual(sig.regroup([a, sa, b, sb]), [(a, sa), (b, sb)])
        self.assertEqual(sig.flatten((c, q)), (c, q))


if __name__ == "__main__":
    unittest.main()
