"""A kernel's files read as the runtime reads them (runtime/FileRead.h, runtime/ModuleFiles.h).

The runtime loads a manifest and its cubin itself (kiln_module_load). Python reads them again
only to name a torch op after their content, and must not trust them more than the runtime does:
regular files only (a device or a FIFO would never end or block), within the same size limits,
and the cubin a plain file name in the manifest's folder.
"""

import json
import os
import stat

from ._lib import KilnError

# runtime/Limits.h: kMaxManifestBytes, kMaxCubinBytes.
MAX_MANIFEST_BYTES = 16 << 20
MAX_CUBIN_BYTES = 256 << 20

_KINDS = [(stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a FIFO"),
          (stat.S_ISSOCK, "a socket")]


def _limit_text(n):
    return "%d MiB" % (n >> 20) if n >= 1 << 20 and n % (1 << 20) == 0 else "%d bytes" % n


def _check_kind(mode):
    if stat.S_ISREG(mode):
        return None
    for test, kind in _KINDS:
        if test(mode):
            return "it is %s, not a regular file" % kind
    return "it is something else, not a regular file"


def read_regular_file(path, max_bytes, what):
    """The bytes of the regular file at `path` (links followed), at most `max_bytes` of them;
    KilnError (KILN_ERROR_IO) naming the path and `what` otherwise."""
    def fail(reason):
        raise KilnError("%s: cannot read the %s: %s" % (path, what, reason), "KILN_ERROR_IO")

    too_large = "it is %d bytes, more than the limit of %d bytes (%s)"
    try:
        # stat first, so that a device or FIFO is never opened.
        why = _check_kind(os.stat(path).st_mode)
        if why:
            fail(why)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError) as e:
        fail(getattr(e, "strerror", None) or str(e))
    try:
        st = os.fstat(fd)
        why = _check_kind(st.st_mode)
        if why:
            fail(why)
        if st.st_size > max_bytes:
            fail(too_large % (st.st_size, max_bytes, _limit_text(max_bytes)))
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                fail("it grew beyond the limit of %d bytes (%s) while it was read"
                     % (max_bytes, _limit_text(max_bytes)))
        return b"".join(chunks)
    except OSError as e:
        fail(e.strerror or str(e))
    finally:
        os.close(fd)


def is_plain_file_name(name):
    """The runtime's rule for a manifest's "cubin": a file name in the manifest's folder."""
    return (isinstance(name, str) and name not in ("", ".", "..")
            and not any(c in name for c in "/\\\0"))


def read_kernel_files(manifest_path):
    """(manifest bytes, cubin bytes) of the kernel whose manifest is at `manifest_path`."""
    text = read_regular_file(manifest_path, MAX_MANIFEST_BYTES, "manifest")
    try:
        manifest = json.loads(text)
    except ValueError as e:
        raise KilnError("%s: malformed JSON: %s" % (manifest_path, e), "KILN_ERROR_MANIFEST") from None
    cubin = manifest.get("cubin") if isinstance(manifest, dict) else None
    if not is_plain_file_name(cubin):
        raise KilnError("%s: cubin %r is not a plain file name: the cubin is read from the "
                        "manifest's folder" % (manifest_path, cubin), "KILN_ERROR_MANIFEST")
    folder = os.path.dirname(os.path.abspath(manifest_path))
    data = read_regular_file(os.path.join(folder, cubin), MAX_CUBIN_BYTES, "cubin")
    return text, data
