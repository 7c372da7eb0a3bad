# lit configuration for Kiln's compiler tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "Kiln"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".kiln", ".test"]
config.excludes = [
    "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "Inputs", "gpu", "unit", "lib"
]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.kiln_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.kiln_tools_dir, append_path=True)

config.substitutions.append(("%kiln_src", config.kiln_src_root))
config.substitutions.append(("%examples", os.path.join(config.kiln_src_root, "examples")))
# Fusion plugins (test/Extending): the worked example (examples/extending) and the test plugin
# (test/lib), both MODULE libraries the tools load with --load-pass-plugin.
config.substitutions.append(("%kiln_example_plugin", config.kiln_example_plugin))
config.substitutions.append(("%kiln_test_plugin", config.kiln_test_plugin))

tools = ["kiln", "kiln-opt", "kiln-translate", "FileCheck", "not", "count"]
llvm_config.add_tool_substitutions(tools, [config.kiln_tools_dir, config.llvm_tools_dir])

# `REQUIRES: ptxas` tests run only where the CUDA toolkit's ptxas exists (CMake's KILN_PTXAS).
# The compiler itself is pointed at that same ptxas, so a test never passes or fails because of
# which toolkit `kiln` happened to find on its own.
if config.ptxas and os.path.exists(config.ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.ptxas))
    config.environment["KILN_PTXAS"] = config.ptxas
else:
    # As on a machine without CUDA: a test that needs ptxas but does not say
    # `REQUIRES: ptxas` fails here too, instead of finding /usr/local/cuda.
    config.environment["KILN_PTXAS"] = os.path.join(config.kiln_obj_root, "ptxas-not-configured")

# `REQUIRES: kiln-run`: the runtime's command-line tool, built with a CUDA toolkit.
if os.path.exists(os.path.join(config.kiln_tools_dir, "kiln-run")):
    config.available_features.add("kiln-run")

# `REQUIRES: nvdisasm` (kiln compile --emit=sass): the toolkit's disassembler next to ptxas.
if config.ptxas and os.path.exists(os.path.join(os.path.dirname(config.ptxas), "nvdisasm")):
    config.available_features.add("nvdisasm")
