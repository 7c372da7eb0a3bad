"""kiln.compile: run the installed Kiln compiler, cache its cubin + manifest, load the kernel.

The compiler is found, in order, at:
  1. $KILN_COMPILER (the `kiln` executable);
  2. the one recorded when this package was installed (kiln/_install.py: from $KILN_PREFIX,
     $KILN_COMPILER or PATH at install time);
  3. `kiln` on PATH.

Cache: $KILN_CACHE_DIR, else $XDG_CACHE_HOME/kiln, else ~/.cache/kiln. One folder per key, the
sha256 of: the source text, the chip, the compiler options, the compiler's `kiln --version` text
(release, LLVM, the ptxas it runs), the size and modification time of the compiler executable
and of that ptxas, and the content of every plugin loaded. A folder holds kernel.cubin, one
kernel[.<name>].kiln.json per kernel, key.json (what the key was made from) and compile.log (the
compiler's messages). Entries are written to a temporary folder and renamed into place, so
concurrent compiles of one kernel are safe; deleting the cache folder is always safe.
"""

import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings

from ._lib import KilnError

# What the compiler accepts for --chip, and the compute capability each needs.
CHIPS = {(9, 0): "sm_90a", (10, 0): "sm_100a"}

# Options that kiln.compile sets itself.
_RESERVED = {"o", "emit", "chip", "dump_dir", "dump-dir"}


class CompileError(KilnError):
    """The compiler failed. The message is what it printed (located diagnostics such as
    `matmul.kiln:3:7: error: ...`), unchanged; `diagnostics` holds the same text, `returncode`
    its exit status and `command` the command line."""

    def __init__(self, message, diagnostics="", returncode=None, command=None):
        super().__init__(message, "KILN_ERROR_COMPILE")
        self.diagnostics = diagnostics
        self.returncode = returncode
        self.command = command


class CompileWarning(UserWarning):
    """The compiler succeeded and printed something (warnings, remarks with explain=True). A
    long print (IR dumps from mlir_print_ir_after_all=True, say) is not the warning's text: the
    warning says where it was written instead."""


# Compiler messages longer than this become a file the warning names, not the warning itself.
_MAX_WARNING_CHARS = 16 * 1024

# What a dump folder holds, by --emit stage: kiln.compile(dump_dir=...) or $KILN_DUMP_DIR.
_DUMP_STAGES = (("tile", "kernel.tile.mlir"), ("cta", "kernel.cta.mlir"),
                ("llvm", "kernel.llvm.mlir"), ("ptx", "kernel.ptx"))


def cache_dir():
    """The cache folder kiln.compile uses (created on first use)."""
    env = os.environ.get("KILN_CACHE_DIR")
    if env:
        return os.path.abspath(os.path.expanduser(env))
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "kiln")


def _recorded_compiler():
    try:
        from . import _install
    except ImportError:
        return None
    return getattr(_install, "COMPILER", None) or None


def compiler_candidates():
    """Where the compiler is looked for, in order (the first that exists is used)."""
    env = os.environ.get("KILN_COMPILER")
    if env:
        return [env]  # an explicit choice is the only one tried
    paths = []
    recorded = _recorded_compiler()
    if recorded:
        paths.append(recorded)
    found = shutil.which("kiln")
    if found:
        paths.append(found)
    return paths


def find_compiler():
    """The path of the `kiln` executable kiln.compile runs; KilnError if there is none."""
    tried = []
    for path in compiler_candidates():
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return os.path.abspath(path)
        tried.append(path + " (missing)" if not os.path.exists(path) else path + " (not executable)")
    raise KilnError(
        "the Kiln compiler (kiln) was not found%s. Set KILN_COMPILER to the kiln executable, put "
        "the bin folder of a Kiln install (cmake --install) on PATH, or reinstall this package "
        "with KILN_PREFIX=<that install prefix>." % ("; tried " + ", ".join(tried) if tried else ""),
        "KILN_ERROR_IO")


def _stamp(path):
    st = os.stat(path)
    return [os.path.realpath(path), st.st_size, st.st_mtime_ns]


_version_lock = threading.Lock()
_versions = {}


def compiler_version(compiler=None):
    """`kiln --version` of the compiler (memoized per executable and modification time)."""
    compiler = compiler or find_compiler()
    stamp = tuple(_stamp(compiler))
    with _version_lock:
        if stamp in _versions:
            return _versions[stamp]
    try:
        r = subprocess.run([compiler, "--version"], capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise KilnError("cannot run the Kiln compiler %s: %s" % (compiler, e), "KILN_ERROR_IO")
    if r.returncode != 0 or not r.stdout.startswith("kiln "):
        raise KilnError("%s is not a Kiln compiler this package can use: `%s --version` exited "
                        "with %d and printed %r" % (compiler, compiler, r.returncode,
                                                    (r.stdout + r.stderr).strip()[:400]),
                        "KILN_ERROR_IO")
    with _version_lock:
        _versions[stamp] = r.stdout
    return r.stdout


# -- the chip of the current device ------------------------------------------------------------

def _cuda_error(cuda, code):
    name = ctypes.c_char_p()
    try:
        if cuda.cuGetErrorName(code, ctypes.byref(name)) == 0 and name.value:
            return "%s (%d)" % (name.value.decode(), code)
    except AttributeError:
        pass
    return "CUDA error %d" % code


def current_chip():
    """The chip of the current CUDA device: torch's current device when PyTorch is imported and
    sees a GPU, else the current CUDA context's device, else device 0. KilnError when there is
    no driver or device, or the device is not one Kiln compiles for."""
    hint = "; pass chip='sm_90a' (Hopper) or chip='sm_100a' (Blackwell) to compile without one"
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        index = torch.cuda.current_device()
        cc = torch.cuda.get_device_capability(index)
        name = torch.cuda.get_device_name(index)
    else:
        try:
            # The driver the runtime library would load for a launch.
            cuda = ctypes.CDLL(os.environ.get("KILN_LIBCUDA") or "libcuda.so.1")
        except OSError as e:
            raise KilnError("chip=None takes the chip from the current CUDA device, but the CUDA "
                            "driver cannot be loaded (%s)%s" % (e, hint), "KILN_ERROR_DEVICE")
        status = cuda.cuInit(0)
        if status != 0:
            raise KilnError("chip=None takes the chip from the current CUDA device, but cuInit "
                            "failed: %s%s" % (_cuda_error(cuda, status), hint),
                            "KILN_ERROR_DEVICE")
        dev = ctypes.c_int(0)
        if cuda.cuCtxGetDevice(ctypes.byref(dev)) != 0:
            count = ctypes.c_int(0)
            status = cuda.cuDeviceGetCount(ctypes.byref(count))
            if status != 0 or count.value == 0:
                raise KilnError("chip=None takes the chip from the current CUDA device, but there "
                                "is no CUDA device%s" % hint, "KILN_ERROR_DEVICE")
            cuda.cuDeviceGet(ctypes.byref(dev), 0)
        index = dev.value
        major, minor = ctypes.c_int(), ctypes.c_int()
        # CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR / _MINOR
        cuda.cuDeviceGetAttribute(ctypes.byref(major), 75, dev)
        cuda.cuDeviceGetAttribute(ctypes.byref(minor), 76, dev)
        cc = (major.value, minor.value)
        buf = ctypes.create_string_buffer(256)
        cuda.cuDeviceGetName(buf, 256, dev)
        name = buf.value.decode(errors="replace")
    chip = CHIPS.get(tuple(cc))
    if chip is None:
        raise KilnError("device %d (%s) has compute capability %d.%d; Kiln compiles for %s"
                        % (index, name, cc[0], cc[1],
                           ", ".join("%s (%d.%d)" % (c, a, b) for (a, b), c in CHIPS.items())),
                        "KILN_ERROR_DEVICE")
    return chip


# -- options and key ---------------------------------------------------------------------------

def _flags(options):
    """Compiler flags from keyword options: name=value -> --name=value (underscores become
    dashes), True -> --name, False/None -> nothing, a list or tuple -> the flag once per item."""
    flags = []
    for key in sorted(options):
        value = options[key]
        flag = key.replace("_", "-")
        if flag in _RESERVED or key in _RESERVED:
            raise KilnError("kiln.compile sets --%s itself; it is not an option" % flag,
                            "KILN_ERROR_INVALID_VALUE")
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is True:
                flags.append("--" + flag)
            elif v is False or v is None:
                continue
            else:
                flags.append("--%s=%s" % (flag, os.fspath(v) if isinstance(v, os.PathLike) else v))
    return flags


def _file_sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _plugins(options):
    plugins = options.get("load_pass_plugin") or []
    if not isinstance(plugins, (list, tuple)):
        plugins = [plugins]
    out = {}
    for p in plugins:
        p = os.fspath(p)
        out[p] = _file_sha(p) if os.path.isfile(p) else "missing"
    return out


def _ptxas_stamp(version_text):
    for line in version_text.splitlines():
        if line.startswith("ptxas: "):
            path = line[len("ptxas: "):].strip()
            if os.path.isfile(path):
                return _stamp(path)
            return [path]
    return None


def _read_source(path_or_source):
    """(source text, path or None)."""
    if isinstance(path_or_source, os.PathLike):
        path = os.fspath(path_or_source)
    elif isinstance(path_or_source, str):
        if "{" in path_or_source or "\n" in path_or_source:
            return path_or_source, None
        path = path_or_source
    else:
        raise KilnError("kiln.compile takes a .kiln file's path or Kiln source text, not %s"
                        % type(path_or_source).__name__, "KILN_ERROR_INVALID_VALUE")
    try:
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    except OSError as e:
        raise KilnError("cannot read %s: %s" % (path, e.strerror or e), "KILN_ERROR_IO") from None


# -- compile -----------------------------------------------------------------------------------

def _manifests(folder):
    return sorted(f for f in os.listdir(folder) if f.endswith(".kiln.json"))


def _result(folder, load):
    from ._kernel import load as load_kernel
    names = _manifests(folder)
    paths = [os.path.join(folder, n) for n in names]
    if not load:
        if len(paths) == 1:
            return paths[0]
        return {n[len("kernel."):-len(".kiln.json")]: p for n, p in zip(names, paths)}
    kernels = [load_kernel(p) for p in paths]
    if len(kernels) == 1:
        return kernels[0]
    return {k.name: k for k in kernels}


def _dump(folder, compiler, cmd_source, source, path, chip, flags, log, compiled):
    """Writes every stage of one compilation into `folder` (the IR of each --emit stage, the
    PTX, the cubin and manifests, the source and the compiler's messages), as Triton's kernel
    dump does. The stages are compiled again without the IR-printing flags, whose output is
    the compile.log."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "source.kiln"), "w") as f:
        f.write(source)
    with open(os.path.join(folder, "compile.log"), "w") as f:
        f.write(log)
    quiet = [flag for flag in flags if not flag.startswith("--mlir-")]
    for stage, name in _DUMP_STAGES:
        cmd = [compiler, "compile", cmd_source, "--chip", chip, "--emit=" + stage,
               "-o", os.path.join(folder, name)] + quiet
        r = subprocess.run(cmd, input=None if path is not None else source,
                           capture_output=True, text=True)
        if r.returncode != 0:
            with open(os.path.join(folder, name + ".error"), "w") as f:
                f.write(r.stderr)
    for name in os.listdir(compiled):
        if name.endswith(".cubin") or name.endswith(".kiln.json"):
            shutil.copy(os.path.join(compiled, name), os.path.join(folder, name))


def _warn_log(log, where):
    text = log.strip()
    if not text:
        return
    if len(text) > _MAX_WARNING_CHARS:
        text = ("kiln compile printed %d lines (%.1f MB); they are in %s. kiln.compile(..., "
                "dump_dir=FOLDER) or $KILN_DUMP_DIR also keeps each stage's IR in a folder"
                % (text.count("\n") + 1, len(text) / 1e6, where))
    warnings.warn(text, CompileWarning, stacklevel=3)


def compile(path_or_source, chip=None, *, load=True, cache=True, dump_dir=None,  # noqa: A001
            **options):
    """Compiles a Kiln kernel with the installed compiler and returns it loaded (a kiln.Kernel).

    path_or_source: a .kiln file's path (str or os.PathLike), or Kiln source text (a str with a
    `{` or a newline). chip: "sm_90a" or "sm_100a"; None takes it from the current CUDA device.
    options: compiler flags, `name=value` -> `--name=value` (e.g. load_pass_plugin="fusion.so",
    explain=True). load=False returns the manifest path instead of loading the kernel (the
    runtime library is not needed then). A source with several kernels gives a dict {kernel
    name: Kernel or path}. Neither compiling nor loading needs a GPU or its driver (given a
    chip); launching the kernel does.
    cache=False compiles even if the cache has the result (and refreshes it).
    dump_dir (or $KILN_DUMP_DIR): a folder that gets one subfolder per compilation with the
    source, the IR after each stage (kernel.tile.mlir, kernel.cta.mlir, kernel.llvm.mlir), the
    PTX, the cubin and manifests, and the compiler's messages (compile.log, where IR dumps such
    as mlir_print_ir_after_all=True go); it compiles even when the cache has the kernel.

    The result is cached (see kiln.cache_dir()); the same source, chip, options and compiler
    give the cached cubin without running the compiler. Raises CompileError with the compiler's
    messages when it fails, KilnError when the compiler or (for chip=None) a device is missing.
    """
    source, path = _read_source(path_or_source)
    if dump_dir is None:
        dump_dir = os.environ.get("KILN_DUMP_DIR") or None
    if dump_dir is not None:
        cache = False  # a dump is of a compilation, so there must be one
    if chip is None:
        chip = current_chip()
    if not isinstance(chip, str):
        raise KilnError("chip must be a string such as 'sm_90a', not %r" % (chip,),
                        "KILN_ERROR_INVALID_VALUE")
    flags = _flags(options)
    compiler = find_compiler()
    version = compiler_version(compiler)
    key_material = {
        "format": 1,
        "source": hashlib.sha256(source.encode("utf-8")).hexdigest(),
        "chip": chip,
        "flags": flags,
        "plugins": _plugins(options),
        "compiler_version": version,
        "compiler": _stamp(compiler),
        "ptxas": _ptxas_stamp(version),
    }
    key = hashlib.sha256(json.dumps(key_material, sort_keys=True).encode()).hexdigest()[:32]
    root = cache_dir()
    entry = os.path.join(root, key)
    if cache and load:
        with _loaded_lock:
            hit = _loaded.get(entry)
        if hit is not None and os.path.isdir(entry):
            return hit  # loaded before in this process: the same Kernel (and torch op)
    if cache and os.path.isdir(entry) and _manifests(entry):
        try:
            return _remember(entry, _result(entry, load), load)
        except KilnError as e:
            if e.status not in ("KILN_ERROR_IO", "KILN_ERROR_MANIFEST"):
                raise
            shutil.rmtree(entry, ignore_errors=True)  # a damaged entry: compile it again

    os.makedirs(root, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".tmp-%s-" % key[:8], dir=root)
    try:
        # Source text goes through stdin, so diagnostics name `<stdin>`, not a temporary file.
        cmd = [compiler, "compile", path if path is not None else "-", "--chip", chip,
               "-o", os.path.join(tmp, "kernel.cubin")] + flags
        try:
            r = subprocess.run(cmd, input=None if path is not None else source,
                               capture_output=True, text=True)
        except OSError as e:
            raise KilnError("cannot run the Kiln compiler %s: %s" % (compiler, e),
                            "KILN_ERROR_IO") from None
        log = r.stderr
        if r.returncode != 0:
            message = log.strip() or ("kiln compile exited with status %d and printed nothing"
                                      % r.returncode)
            raise CompileError(message, log, r.returncode, cmd)
        if not _manifests(tmp):
            raise CompileError("kiln compile succeeded but wrote no manifest into %s" % tmp,
                               log, r.returncode, cmd)
        with open(os.path.join(tmp, "key.json"), "w") as f:
            json.dump(dict(key_material, source_path=path), f, indent=1, sort_keys=True)
        with open(os.path.join(tmp, "compile.log"), "w") as f:
            f.write(log)
        where = os.path.join(entry, "compile.log")
        if dump_dir is not None:
            stem = os.path.splitext(os.path.basename(path))[0] if path else "source"
            folder = os.path.join(os.path.abspath(os.fspath(dump_dir)),
                                  "%s-%s-%s" % (stem, chip, key[:8]))
            _dump(folder, compiler, cmd[2], source, path, chip, flags, log, tmp)
            where = os.path.join(folder, "compile.log")
        _warn_log(log, where)
        if os.path.isdir(entry):
            shutil.rmtree(entry, ignore_errors=True)  # cache=False, or a damaged entry
        try:
            os.rename(tmp, entry)
        except OSError:
            if not (os.path.isdir(entry) and _manifests(entry)):
                raise
            # Another process put the same entry there first: use it.
        else:
            tmp = None
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return _remember(entry, _result(entry, load), load)


_loaded_lock = threading.Lock()
_loaded = {}  # cache entry folder -> what kiln.compile returned for it (loaded)


def _remember(entry, result, load):
    if load:
        with _loaded_lock:
            _loaded[entry] = result
    return result
