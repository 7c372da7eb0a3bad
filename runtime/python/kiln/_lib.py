"""ctypes bindings of the Kiln runtime's C API (runtime/kiln.h).

The shared library is found, in order, at:
  1. $KILN_RUNTIME_LIB (the library file, or a folder that holds libkiln_runtime.so);
  2. next to this package (kiln/libkiln_runtime.so);
  3. <repo>/build*/lib/libkiln_runtime.so (the newest one), for a source checkout;
  4. the system library path.

Loading it needs no GPU and no NVIDIA driver: the library loads the driver (libcuda.so.1, or
$KILN_LIBCUDA) itself at the first call that needs it, a launch, and without one that call fails
with a KilnError (KILN_ERROR_DEVICE) that says so.
"""

import ctypes
import ctypes.util
import glob
import os
import threading

LIB_NAME = "libkiln_runtime.so"
MAX_RANK = 8

# kiln_status
STATUS_NAMES = {
    0: "KILN_OK",
    1: "KILN_ERROR_INVALID_VALUE",
    2: "KILN_ERROR_IO",
    3: "KILN_ERROR_MANIFEST",
    4: "KILN_ERROR_ARGUMENT",
    5: "KILN_ERROR_DEVICE",
    6: "KILN_ERROR_CUDA",
    7: "KILN_ERROR_INTERNAL",
}

# kiln_dtype, in manifest spelling.
DTYPES = ["bf16", "f16", "f32", "i32", "e4m3", "e5m2", "e2m1", "ue8m0"]
DTYPE_CODES = {name: code for code, name in enumerate(DTYPES)}

# kiln_role
ROLES = ["input", "output", "scale"]


class KilnError(RuntimeError):
    """An error from the Kiln runtime. `status` is the KILN_* status name."""

    def __init__(self, message, status="KILN_ERROR_ARGUMENT"):
        super().__init__(message)
        self.status = status


class CTensor(ctypes.Structure):
    """kiln_tensor."""

    _fields_ = [
        ("data", ctypes.c_uint64),
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
    ]


class CParamInfo(ctypes.Structure):
    """kiln_param_info."""

    _fields_ = [
        ("name", ctypes.c_char_p),
        ("role", ctypes.c_int32),
        ("dtype", ctypes.c_int32),
        ("rank", ctypes.c_int32),
        ("shape", ctypes.POINTER(ctypes.c_char_p)),
        ("scale_of", ctypes.c_char_p),
        ("block", ctypes.POINTER(ctypes.c_int64)),
        ("block_rank", ctypes.c_int32),
        ("align", ctypes.c_int64),
    ]


def _repo_root():
    # runtime/python/kiln/_lib.py -> the repository root
    return os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def candidate_paths():
    """Where the library is looked for, in order."""
    paths = []
    env = os.environ.get("KILN_RUNTIME_LIB")
    if env:
        paths.append(os.path.join(env, LIB_NAME) if os.path.isdir(env) else env)
        return paths  # an explicit choice is the only one tried
    paths.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), LIB_NAME))
    builds = glob.glob(os.path.join(_repo_root(), "build*", "lib", LIB_NAME))
    builds.sort(key=os.path.getmtime, reverse=True)
    paths.extend(builds)
    found = ctypes.util.find_library("kiln_runtime")
    if found:
        paths.append(found)
    return paths


def _declare(lib):
    c = ctypes
    mod = c.c_void_p
    sig = {
        "kiln_module_load": (c.c_int, [c.c_char_p, c.POINTER(c.c_void_p)]),
        "kiln_module_free": (None, [mod]),
        "kiln_module_prepare": (c.c_int, [mod, c.c_void_p]),
        "kiln_launch": (c.c_int, [mod, c.POINTER(CTensor), c.c_int, c.c_void_p]),
        "kiln_prepare_launch": (
            c.c_int, [mod, c.POINTER(CTensor), c.c_int, c.c_void_p, c.POINTER(c.c_void_p)]),
        "kiln_launch_prepared": (c.c_int, [c.c_void_p, c.c_void_p]),
        "kiln_prepared_free": (None, [c.c_void_p]),
        "kiln_last_error": (c.c_char_p, []),
        "kiln_status_name": (c.c_char_p, [c.c_int]),
        "kiln_dtype_name": (c.c_char_p, [c.c_int32]),
        "kiln_module_kernel": (c.c_char_p, [mod]),
        "kiln_module_chip": (c.c_char_p, [mod]),
        "kiln_module_num_params": (c.c_int, [mod]),
        "kiln_module_num_dims": (c.c_int, [mod]),
        "kiln_module_dim_name": (c.c_char_p, [mod, c.c_int]),
        "kiln_module_param": (c.c_int, [mod, c.c_int, c.POINTER(CParamInfo)]),
        "kiln_module_infer_shapes": (
            c.c_int,
            [mod, c.POINTER(CTensor), c.c_int, c.POINTER(c.c_int64), c.POINTER(c.c_int64)],
        ),
        "kiln_module_num_variants": (c.c_int, [mod]),
        "kiln_module_variant_entry": (c.c_char_p, [mod, c.c_int]),
        "kiln_module_last_variant": (c.c_int, [mod]),
        "kiln_module_set_check_offsets": (c.c_int, [mod, c.c_int]),
        "kiln_module_check_offsets": (c.c_int, [mod]),
        "kiln_module_choose_variant": (
            c.c_int,
            [mod, c.POINTER(CTensor), c.c_int, c.c_int, c.POINTER(c.c_int)],
        ),
        "kiln_module_pin_variant": (c.c_int, [mod, c.c_int]),
        "kiln_module_pinned_variant": (c.c_int, [mod]),
        "kiln_module_explain_variant": (
            c.c_int,
            [mod, c.POINTER(CTensor), c.c_int, c.c_int, c.POINTER(c.c_char_p)],
        ),
    }
    for name, (restype, argtypes) in sig.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return lib


_lock = threading.Lock()
_lib = None


def library():
    """The loaded runtime library (loaded on first use)."""
    global _lib
    with _lock:
        if _lib is not None:
            return _lib
        tried, failed = [], []
        for path in candidate_paths():
            if not os.path.exists(path) and os.sep in path:
                tried.append(path + " (missing)")
                continue
            # Here the file exists (a bare name comes from find_library, which found it), so a
            # failure is not that it is missing.
            try:
                _lib = _declare(ctypes.CDLL(path))
                return _lib
            except OSError as e:
                failed.append("%s (%s)" % (path, e))
            except AttributeError as e:  # loaded, but without a function this package calls
                failed.append("%s (%s: a libkiln_runtime.so of another Kiln version?)" % (path, e))
        if failed:
            # Building it again would not help: say what the loader said.
            raise KilnError(
                "the Kiln runtime library %s was found but cannot be loaded:\n  %s"
                % (LIB_NAME, "\n  ".join(failed)),
                "KILN_ERROR_IO",
            )
        raise KilnError(
            "cannot load the Kiln runtime library %s; tried:\n  %s\n"
            "Build it (cmake -S runtime -B build-rt -G Ninja && ninja -C build-rt kiln_runtime) "
            "or set KILN_RUNTIME_LIB to its path." % (LIB_NAME, "\n  ".join(tried) or "nothing"),
            "KILN_ERROR_IO",
        )


def check(status):
    """Raises KilnError with the runtime's message unless `status` is KILN_OK."""
    if status != 0:
        message = library().kiln_last_error().decode("utf-8", "replace")
        raise KilnError(message, STATUS_NAMES.get(status, "KILN_ERROR_%d" % status))
