"""The pip-installed kiln package, run by install_test.sh with the venv's python.

Checks that `import kiln` is the installed package (not the source tree), kiln.compile on
examples/matmul.kiln twice (the first runs the installed compiler, the second is a cache hit:
both timed and printed), that the cache is keyed on the chip and the source, that the compiler's
located diagnostics arrive unchanged in kiln.CompileError, and the errors for a missing compiler
and a missing device. No NVIDIA driver is needed, nor faked: without one, the compiled kernel
loads (kiln.compile, kiln.load) and its first call that needs the GPU says the driver is missing.
PyTorch is neither needed nor imported.
"""

import argparse
import ctypes
import glob
import os
import subprocess
import sys
import time

parser = argparse.ArgumentParser()
parser.add_argument("--venv", required=True)
parser.add_argument("--prefix", required=True)
parser.add_argument("--example", required=True)
parser.add_argument("--no-ptxas", action="store_true")
opts = parser.parse_args()

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("check-package: FAILED: " + what, file=sys.stderr)


# Whether the NVIDIA driver the runtime would load for a launch is here; nothing below needs it.
os.environ.pop("KILN_LIBCUDA", None)
try:
    ctypes.CDLL("libcuda.so.1")
    real_driver = True
except OSError:
    real_driver = False

import kiln  # noqa: E402

venv = os.path.realpath(opts.venv)
check(os.path.realpath(kiln.__file__).startswith(venv + os.sep),
      "kiln is imported from %s, not from the venv %s" % (kiln.__file__, venv))
lib = os.path.join(os.path.dirname(kiln.__file__), "libkiln_runtime.so")
check(os.path.isfile(lib), "the installed package has no libkiln_runtime.so")
version = open(os.path.join(os.path.dirname(opts.example), "..", "VERSION")).read().strip()
check(kiln.__version__ == version, "kiln.__version__ %s, VERSION %s" % (kiln.__version__, version))
compiler = kiln.find_compiler()
check(compiler == os.path.realpath(os.path.join(opts.prefix, "bin", "kiln")) or
      compiler == os.path.join(opts.prefix, "bin", "kiln"),
      "kiln.find_compiler() is %s, not the installed one" % compiler)
print("check-package: import kiln %s from %s; compiler %s" % (kiln.__version__, kiln.__file__,
                                                              compiler))
print("check-package: cache folder %s" % kiln.cache_dir())

# A missing compiler is named, with what to do.
saved = os.environ.get("KILN_COMPILER")
os.environ["KILN_COMPILER"] = "/nonexistent/bin/kiln"
try:
    kiln.compile(opts.example, chip="sm_90a")
    check(False, "a missing compiler raised nothing")
except kiln.KilnError as e:
    check("/nonexistent/bin/kiln (missing)" in str(e) and "KILN_COMPILER" in str(e),
          "missing compiler message: %s" % e)
finally:
    if saved is None:
        os.environ.pop("KILN_COMPILER")
    else:
        os.environ["KILN_COMPILER"] = saved

# chip=None without a device says so and what to pass instead.
if not real_driver:
    try:
        kiln.compile(opts.example)
        check(False, "chip=None without a device raised nothing")
    except kiln.KilnError as e:
        check("chip='sm_90a'" in str(e) and e.status == "KILN_ERROR_DEVICE",
              "chip=None without a device: %s" % e)

# The compiler's located diagnostics, unchanged: compare with running it by hand.
bad = "kernel broken(a: bf16[M, K]) -> c: bf16[M, K] {\n  c = frobnicate(a)\n}\n"
direct = subprocess.run([compiler, "compile", "-", "--chip", "sm_90a", "--emit=ptx", "-o",
                         os.devnull], input=bad, capture_output=True, text=True)
check(direct.returncode != 0 and "<stdin>:2:" in direct.stderr,
      "the compiler accepted the broken kernel or did not locate the error: %r" % direct.stderr)
try:
    kiln.compile(bad, chip="sm_90a")
    check(False, "a broken kernel raised nothing")
except kiln.CompileError as e:
    check(str(e) == direct.stderr.strip(),
          "CompileError message %r differs from the compiler's %r" % (str(e), direct.stderr))
    check(e.diagnostics == direct.stderr and e.returncode == direct.returncode,
          "CompileError fields: %r %r" % (e.diagnostics, e.returncode))
    print("check-package: a broken kernel raises kiln.CompileError: %s" % str(e).splitlines()[0])
bad_path = os.path.join(os.getcwd(), "broken.kiln")
with open(bad_path, "w") as f:
    f.write(bad)
try:
    kiln.compile(bad_path, chip="sm_90a")
    check(False, "a broken kernel file raised nothing")
except kiln.CompileError as e:
    check(str(e).startswith(bad_path + ":2:"), "diagnostic of a file: %s" % e)
try:
    kiln.compile(opts.example, chip="sm_90a", emit="ptx")
    check(False, "emit= raised nothing")
except kiln.KilnError as e:
    check("sets --emit itself" in str(e), "emit= message: %s" % e)

if opts.no_ptxas:
    print("check-package: no ptxas: kiln.compile to a cubin not run")
else:
    # Twice: the compiler, then the cache.
    t0 = time.perf_counter()
    first = kiln.compile(opts.example, chip="sm_90a")
    t1 = time.perf_counter()
    second = kiln.compile(opts.example, chip="sm_90a")
    t2 = time.perf_counter()
    first_s, second_s = t1 - t0, t2 - t1
    # The same from the cache folder alone (what a new process with a warm cache pays, less
    # `kiln --version` once): forget what this process loaded.
    from kiln import _compile
    _compile._loaded.clear()
    t3 = time.perf_counter()
    third = kiln.compile(opts.example, chip="sm_90a")
    disk_s = time.perf_counter() - t3
    print("check-package: kiln.compile(examples/matmul.kiln, chip='sm_90a'): first %.3f s "
          "(compiler and ptxas), second %.4f s (cache: the kernel this process loaded), "
          "%.4f s from the cache folder (load the cubin again)" % (first_s, second_s, disk_s))
    check(second is first and third is not first and third.path == first.path,
          "in-process and folder cache hits")
    check(disk_s < first_s, "the cache folder hit (%.3f s) was not faster than the compile "
          "(%.3f s)" % (disk_s, first_s))
    check(isinstance(first, kiln.Kernel) and isinstance(second, kiln.Kernel),
          "kiln.compile returned %r, %r" % (first, second))
    check(first.path == second.path, "the second compile did not use the cached entry: %s, %s"
          % (first.path, second.path))
    check(second_s < first_s, "the cached compile (%.3f s) was not faster than the first "
          "(%.3f s)" % (second_s, first_s))
    check(first.signature == "matmul(a: bf16[M, K], b: bf16[N, K]) -> c: bf16[M, N]",
          "signature %s" % first.signature)
    check(first.chip == "sm_90a", "chip %s" % first.chip)
    # Loading the manifest again needs no driver either.
    check(kiln.load(first.path).signature == first.signature, "kiln.load of the compiled kernel")
    if not real_driver:
        # The first call that needs the GPU (what a launch does first; a launch itself needs
        # torch tensors) says the driver is missing, and what works without it.
        from kiln import _lib
        status = first._lib.kiln_module_prepare(first._handle, None)
        message = first._lib.kiln_last_error().decode() if status else ""
        check(status == 5 and message.startswith(
                  "the NVIDIA driver (libcuda.so.1) could not be loaded (libcuda.so.1: ") and
              message.endswith("compiling one does not (kiln compile --chip sm_90a, or "
                               "kiln.compile(..., chip=\"sm_90a\") in Python)"),
              "prepare without a driver: %s %s" % (_lib.STATUS_NAMES.get(status), message))
        print("check-package: without a driver the compiled kernel loads; its launch says: %s"
              % message)
    entry = os.path.dirname(first.path)
    check(os.path.dirname(entry) == kiln.cache_dir(), "entry %s not in the cache folder" % entry)
    check(sorted(os.listdir(entry)) == ["compile.log", "kernel.cubin", "kernel.kiln.json",
                                        "key.json"], "cache entry holds %s" % os.listdir(entry))
    # A new process hits the same entry.
    code = ("import kiln, time; t = time.perf_counter(); "
            "k = kiln.compile(%r, chip='sm_90a'); print(k.path, time.perf_counter() - t)"
            % opts.example)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    path, took = (r.stdout.split() + ["", ""])[:2]
    check(r.returncode == 0 and path == first.path,
          "a new process did not hit the cache: %r %r" % (r.stdout, r.stderr))
    if r.returncode == 0:
        print("check-package: kiln.compile in a new process: %.3f s (cache folder; runs "
              "kiln --version once)" % float(took))
    # load=False: the manifest path, no runtime library needed.
    check(kiln.compile(opts.example, chip="sm_90a", load=False) == first.path, "load=False")
    # Another source is another entry.
    with open(opts.example) as f:
        text = f.read()
    other = kiln.compile(text + "\n// a comment\n", chip="sm_90a")
    check(other.path != first.path, "a changed source hit the old entry")
    entries = [d for d in os.listdir(kiln.cache_dir()) if not d.startswith(".")]
    check(len(entries) == 2, "cache entries: %s" % entries)
    check(not glob.glob(os.path.join(kiln.cache_dir(), ".tmp-*")), "temporary folders left")

check("torch" not in sys.modules, "compiling imported torch")
if failures:
    sys.exit("check-package: %d failure(s)" % len(failures))
print("check-package: passed")
