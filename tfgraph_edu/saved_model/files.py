"""Reading a SavedModel's files safely: regular files inside the folder, within a budget.

A file is refused, without being opened, when it is not a regular file (a FIFO would block
the reader forever, a device could be endless) or when its real path leaves the model
folder (a symlink to ``/etc/passwd`` or ``/dev/zero``).  It is then opened without
following links and without blocking, and checked again to be the file that was inspected.
``.npy`` files are read by a strict parser of the header this library writes: the declared
size must equal the size on disk before any memory is allocated.

Integrity: ``fingerprint.json`` holds the sha256 of ``saved_model.json`` and of every file
under ``arrays/`` and ``variables/``.  The manifest and each array are checked against it
before they are parsed; a mismatch (a flipped byte, a truncated file) is a
``tf.errors.DataLossError`` naming the file.  (TensorFlow's SavedModel has a
``fingerprint.pb`` with hashes too; it does not check them on load.)
"""

from __future__ import annotations

import json
import math
import os
import re
import stat

import numpy as np

from .._files import DAMAGED, sha256
from ..errors import DataLossError

FINGERPRINT = "fingerprint.json"
FINGERPRINT_FORMAT = "tfgraph_edu.fingerprint/1"
_HASH = re.compile(r"[0-9a-f]{64}")


class SavedModelError(ValueError):
    """The SavedModel folder is missing, malformed, not ours, or over the size budget."""


_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(
    os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
_MAGIC = b"\x93NUMPY"
_HEADER = re.compile(
    r"\{'descr': '([<>|=]?)([biufcSU])(\d{1,6})', 'fortran_order': (True|False), "
    r"'shape': \(((?:\d{1,19}, ?)*\d{0,19})\), \} *\n")
_KINDS = {"b": (1,), "i": (1, 2, 4, 8), "u": (1, 2, 4, 8), "f": (2, 4, 8), "c": (8, 16)}


def model_folder(export_dir) -> str:
    """The real path of the model folder (a SavedModelError if there is none)."""
    try:
        path = os.fspath(export_dir)
    except TypeError:
        raise SavedModelError(f"export_dir must be a path, got {type(export_dir).__name__}."
                              ) from None
    real = os.path.realpath(path)
    if not os.path.isdir(real):
        raise SavedModelError(f"No SavedModel in {path}: it is not a folder.")
    return real


def open_inside(folder: str, relative: str, limit: int, what: str, param: str):
    """``relative`` (inside the real ``folder``) opened for reading, if it is a regular file
    of at most ``limit`` bytes; returns (binary file, size)."""
    real = os.path.realpath(os.path.join(folder, relative))
    if os.path.commonpath([real, folder]) != folder:
        raise SavedModelError(f"{what} {relative} leaves the model folder; refused.")
    try:
        before = os.stat(real)
    except OSError:
        raise SavedModelError(f"{what} {relative} is missing.") from None
    if not stat.S_ISREG(before.st_mode):
        raise SavedModelError(f"{what} {relative} is not a regular file; refused.")
    if before.st_size > limit:
        raise SavedModelError(
            f"{what} {relative} has {before.st_size} bytes, over the budget of {limit}; "
            f"raise {param} in tf.saved_model.load(...) if you trust this model.")
    try:
        fd = os.open(real, _FLAGS)
    except OSError as exc:
        raise SavedModelError(f"{what} {relative} cannot be read: {exc.strerror}.") from None
    after = os.fstat(fd)
    if not stat.S_ISREG(after.st_mode) or (after.st_dev, after.st_ino) != (
            before.st_dev, before.st_ino):
        os.close(fd)
        raise SavedModelError(f"{what} {relative} changed while it was being opened.")
    return os.fdopen(fd, "rb"), after.st_size


def _damaged(folder: str, relative: str, what: str, why: str) -> DataLossError:
    return DataLossError(None, None, f"{what} {os.path.join(folder, relative)} {why}: "
                                     f"{DAMAGED}.")


def _verify(folder: str, relative: str, data, sums: dict, what: str) -> None:
    expected = sums.get(relative)
    if expected is None:
        raise _damaged(folder, relative, what, f"has no checksum in {FINGERPRINT}")
    if sha256(data) != expected:
        raise _damaged(folder, relative, what, f"does not match its checksum in {FINGERPRINT}")


def write_fingerprint(folder) -> None:
    """Write ``fingerprint.json``: the sha256 of the manifest and of every file under
    ``arrays/`` and ``variables/`` of ``folder`` as they are now."""
    folder = os.fspath(folder)
    sums = {}
    for top in ("saved_model.json", "arrays", "variables"):
        path = os.path.join(folder, top)
        files = [path] if os.path.isfile(path) else sorted(
            os.path.join(root, n) for root, _, names in os.walk(path) for n in names)
        for file in files:
            with open(file, "rb") as f:
                sums[os.path.relpath(file, folder).replace(os.sep, "/")] = sha256(f.read())
    with open(os.path.join(folder, FINGERPRINT), "w", encoding="utf-8") as f:
        json.dump({"format": FINGERPRINT_FORMAT, "sha256": sums}, f, indent=1, sort_keys=True)


def read_fingerprint(folder: str, limit: int) -> dict:
    """The checksums of ``fingerprint.json``: ``{relative path: sha256}``."""
    if not os.path.lexists(os.path.join(folder, FINGERPRINT)):
        if not os.path.lexists(os.path.join(folder, "saved_model.json")):
            raise SavedModelError("The manifest saved_model.json is missing.")
        raise SavedModelError(
            f"The SavedModel {folder} has no {FINGERPRINT} (the checksums of its files): it "
            "was written by an older tfgraph_edu or by another program; save the model again.")
    f, size = open_inside(folder, FINGERPRINT, limit, "The fingerprint", "max_manifest_bytes")
    with f:
        data = f.read(size + 1)
    try:
        doc = json.loads(data.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is one
        raise _damaged(folder, FINGERPRINT, "The fingerprint", "is not JSON") from None
    except RecursionError:
        raise _damaged(folder, FINGERPRINT, "The fingerprint", "is nested too deeply") from None
    sums = doc.get("sha256") if isinstance(doc, dict) else None
    if (doc.get("format") if isinstance(doc, dict) else None) != FINGERPRINT_FORMAT or not (
            isinstance(sums, dict) and all(isinstance(v, str) and _HASH.fullmatch(v)
                                           for v in sums.values())):
        raise _damaged(folder, FINGERPRINT, "The fingerprint", "is not a tfgraph_edu "
                       "fingerprint")
    return sums


def read_text(folder: str, relative: str, limit: int, what: str, sums: dict) -> str:
    f, size = open_inside(folder, relative, limit, what, "max_manifest_bytes")
    with f:
        data = f.read(size + 1)
    if len(data) != size:
        raise SavedModelError(f"{what} {relative} changed while it was being read.")
    _verify(folder, relative, data, sums, what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SavedModelError(f"{what} {relative} is not UTF-8 text: {exc}.") from None


def read_npy(folder: str, relative: str, budget: list, sums: dict) -> np.ndarray:
    """The array in ``relative``, checked against its sha256 in ``sums`` before it is parsed;
    ``budget[0]`` (bytes still allowed) is reduced by its size."""
    f, size = open_inside(folder, relative, budget[0] + 65536 + 16, "Array file",
                          "max_array_bytes")
    buf = bytearray(size)
    with f:
        if f.readinto(buf) != size or f.read(1):
            raise SavedModelError(f"Array file {relative} changed while it was being read.")
    _verify(folder, relative, buf, sums, "Array file")
    data = memoryview(buf)
    head = bytes(data[:12])
    if len(head) < 10 or head[:6] != _MAGIC or head[6] not in (1, 2, 3) or head[7] != 0:
        raise SavedModelError(f"Array file {relative} is not a .npy file.")
    if head[6] == 1:
        hlen, offset = int.from_bytes(head[8:10], "little"), 10
    else:
        hlen, offset = int.from_bytes(head[8:12], "little"), 12
    if hlen > 65535:
        raise SavedModelError(f"Array file {relative} has an oversized header.")
    header = bytes(data[offset:offset + hlen])
    text = header.decode("latin1")  # latin1 decodes every byte
    m = _HEADER.fullmatch(text) if len(header) == hlen else None
    if m is None:
        raise SavedModelError(f"Array file {relative} has a header this library does not "
                              "write.")
    order, kind, width, fortran, dims = m.groups()
    itemsize = int(width) * (4 if kind == "U" else 1)
    if (kind in _KINDS and int(width) not in _KINDS[kind]) or itemsize == 0:
        raise SavedModelError(f"Array file {relative} has an unsupported dtype.")
    dtype = np.dtype(f"{order}{kind}{width}")
    shape = tuple(int(d) for d in dims.replace(" ", "").split(",") if d)
    if len(shape) > 32:
        raise SavedModelError(f"Array file {relative} has {len(shape)} dimensions.")
    nbytes = math.prod(shape) * itemsize
    if nbytes > budget[0]:
        raise SavedModelError(
            f"Array file {relative} declares {nbytes} bytes, over the remaining array "
            f"budget of {budget[0]}; raise max_array_bytes in tf.saved_model.load(...) if "
            "you trust this model.")
    if offset + hlen + nbytes != size:
        raise SavedModelError(
            f"Array file {relative} declares shape {shape} of {dtype.str} "
            f"({nbytes} bytes) but holds {size - offset - hlen} bytes of data.")
    budget[0] -= nbytes
    if nbytes == 0:
        return np.zeros(shape, dtype.newbyteorder("="))
    value = np.frombuffer(buf, dtype=dtype, count=math.prod(shape), offset=offset + hlen)
    value = value.reshape(shape, order="F" if fortran == "True" else "C")
    return value.astype(dtype.newbyteorder("="), copy=False)
