"""Installs the kiln package with the Kiln runtime library inside it.

    KILN_PREFIX=<Kiln install prefix> pip install --no-build-isolation ./runtime/python

Where the package's libkiln_runtime.so comes from, the first that applies:
  1. $KILN_RUNTIME_LIB: the library file, or a folder that holds libkiln_runtime.so;
  2. $KILN_PREFIX/lib/libkiln_runtime.so: a `cmake --install` of Kiln, or of the runtime alone;
  3. built here from ../ (this package's repository): `cmake -S runtime` builds the runtime alone
     (CMake, a C++17 compiler, the CUDA toolkit and nlohmann-json; no LLVM). $KILN_CMAKE_ARGS
     adds cmake arguments, e.g. -DKILN_NLOHMANN_INCLUDE=<dir>.

The compiler that kiln.compile runs is recorded in kiln/_install.py: $KILN_COMPILER, else
$KILN_PREFIX/bin/kiln, else `kiln` on PATH, else <repository>/build/bin/kiln, when one exists
at install time. None is needed to install (kiln.load works without a compiler), and
$KILN_COMPILER and PATH are looked at again when kiln.compile runs.
"""

import glob
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
LIB_NAME = "libkiln_runtime.so"


def version():
    with open(os.path.join(REPO, "VERSION")) as f:
        return f.read().strip()


def say(message):
    print("kiln setup: " + message, file=sys.stderr)


def _prefix_lib(prefix):
    for libdir in ("lib", "lib64"):
        path = os.path.join(prefix, libdir, LIB_NAME)
        if os.path.exists(path):
            return path
    raise SystemExit("kiln setup: KILN_PREFIX=%s has no lib/%s (install Kiln there with "
                     "cmake --install <build> --prefix %s)" % (prefix, LIB_NAME, prefix))


def _build_runtime(workdir):
    """Builds the runtime alone with CMake; returns the library's path."""
    cmake = shutil.which("cmake")
    if not cmake:
        raise SystemExit("kiln setup: no KILN_RUNTIME_LIB or KILN_PREFIX given and no cmake to "
                         "build the runtime with; install cmake, or point KILN_PREFIX at a Kiln "
                         "install")
    build = os.path.join(workdir, "runtime-build")
    args = [cmake, "-S", os.path.join(REPO, "runtime"), "-B", build,
            "-DCMAKE_BUILD_TYPE=Release", "-DKILN_BUILD_TESTS=OFF"]
    if shutil.which("ninja"):
        args += ["-G", "Ninja"]
    args += shlex.split(os.environ.get("KILN_CMAKE_ARGS", ""))
    say("building the runtime: " + " ".join(args))
    subprocess.check_call(args, stdout=sys.stderr)
    jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 2)
    try:
        subprocess.check_call([cmake, "--build", build, "--target", "kiln_runtime", "-j", jobs],
                              stdout=sys.stderr)
    except subprocess.CalledProcessError:
        raise SystemExit("kiln setup: building the runtime failed (above). Without a CUDA "
                         "toolkit there is no libkiln_runtime.so target: set CUDA_HOME, or pass "
                         "-DCUDAToolkit_ROOT=<dir> in KILN_CMAKE_ARGS") from None
    found = glob.glob(os.path.join(build, "lib", LIB_NAME))
    if not found:
        raise SystemExit("kiln setup: the runtime build wrote no lib/%s" % LIB_NAME)
    return found[0]


def _compiler():
    env = os.environ.get("KILN_COMPILER")
    if env:
        return os.path.abspath(env)
    candidates = []
    prefix = os.environ.get("KILN_PREFIX")
    if prefix:
        candidates.append(os.path.join(prefix, "bin", "kiln"))
    on_path = shutil.which("kiln")
    if on_path:
        candidates.append(on_path)
    candidates.append(os.path.join(REPO, "build", "bin", "kiln"))
    for c in candidates:
        if os.path.isfile(c) and os.access(c, os.X_OK):
            return os.path.abspath(c)
    return ""


class BuildPy(build_py):
    """Copies the runtime library into the package and records the compiler."""

    def run(self):
        super().run()
        package = os.path.join(self.build_lib, "kiln")
        os.makedirs(package, exist_ok=True)
        workdir = None
        try:
            lib = os.environ.get("KILN_RUNTIME_LIB")
            if lib:
                if os.path.isdir(lib):
                    lib = os.path.join(lib, LIB_NAME)
                if not os.path.exists(lib):
                    raise SystemExit("kiln setup: KILN_RUNTIME_LIB=%s does not exist" % lib)
            elif os.environ.get("KILN_PREFIX"):
                lib = _prefix_lib(os.environ["KILN_PREFIX"])
            else:
                workdir = tempfile.mkdtemp(prefix="kiln-runtime-")
                lib = _build_runtime(workdir)
            lib = os.path.realpath(lib)
            say("runtime library: " + lib)
            shutil.copyfile(lib, os.path.join(package, LIB_NAME))
            os.chmod(os.path.join(package, LIB_NAME), 0o755)
        finally:
            if workdir:
                shutil.rmtree(workdir, ignore_errors=True)
        compiler = _compiler()
        say("compiler: " + (compiler or "none found (kiln.compile will look at KILN_COMPILER "
                                         "and PATH)"))
        with open(os.path.join(package, "_install.py"), "w") as f:
            f.write("# Written by setup.py when this package was installed.\n")
            f.write("VERSION = %r\n" % version())
            f.write("COMPILER = %r\n" % compiler)


class BinaryDistribution(Distribution):
    """The package carries a native library: the wheel is platform-specific."""

    def has_ext_modules(self):
        return True


setup(
    version=version(),
    packages=["kiln"],
    cmdclass={"build_py": BuildPy},
    distclass=BinaryDistribution,
    zip_safe=False,
)
