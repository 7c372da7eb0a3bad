"""Kiln: compile Kiln kernels and launch them on PyTorch CUDA tensors.

    import kiln, torch
    matmul = kiln.compile("examples/matmul.kiln")   # runs the compiler once, then the cache
    # or: matmul = kiln.load("out/matmul.kiln.json")   (an already compiled kernel)
    a = torch.randn(1024, 512, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(2048, 512, device="cuda", dtype=torch.bfloat16)
    c = matmul(a, b)                # c = a @ b.T, allocated by Kiln
    matmul(a, b, out=c)             # or into your own tensor
    c = matmul.op(a, b)             # the torch.library custom op: works under torch.compile

Block-scaled inputs are tuples: `k((a, a_scale), (b, b_scale))`. Errors raise kiln.KilnError
with the runtime's message; compiler failures raise kiln.CompileError with the compiler's. The
package is a thin ctypes layer over libkiln_runtime.so (see kiln._lib for where it is looked
for; set KILN_RUNTIME_LIB to choose one). Compiling and loading need no PyTorch, GPU or NVIDIA
driver (kiln.compile(..., chip="sm_90a") on any machine); launching needs all three, and
without the driver a launch raises KilnError saying so.

`kiln.quantize_nvfp4(x)` / `kiln.quantize_mxfp8(x)` and their dequantize partners build block-scaled
operands on the host in the kernels' byte layout (kiln._blockscale; no torch needed).
"""

from ._blockscale import (dequantize_mxfp8, dequantize_nvfp4, mxfp8_bytes, nvfp4_bytes,
                          quantize_mxfp8, quantize_nvfp4, scale_factor_bytes, scale_factor_offset)
from ._compile import CompileError, CompileWarning, cache_dir, compile, compiler_version, \
    current_chip, find_compiler
from ._kernel import Kernel, Param, PreparedLaunch, load, torch_dtypes
from ._lib import KilnError

try:
    from ._install import VERSION as __version__
except ImportError:  # a source checkout on PYTHONPATH
    __version__ = "0+source"

__all__ = ["CompileError", "CompileWarning", "Kernel", "KilnError", "Param", "PreparedLaunch",
           "cache_dir",
           "compile", "compiler_version", "current_chip", "find_compiler", "load",
           "torch_dtypes"]
# Block-scaled formats on the host (kiln._blockscale).
__all__ += ["dequantize_mxfp8", "dequantize_nvfp4", "mxfp8_bytes", "nvfp4_bytes",
            "quantize_mxfp8", "quantize_nvfp4", "scale_factor_bytes", "scale_factor_offset"]
