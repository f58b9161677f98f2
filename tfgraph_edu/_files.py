"""Files that are either whole or refused (layer 0): atomic writes and checksummed arrays.

Every file this library saves (SavedModel folders, checkpoints, Keras files) goes through
here, so that no file a user meets ever loads silently wrong:

- **Atomic writes.** A file is written beside its final name (same folder, so the same file
  system), flushed to disk with ``fsync`` and then renamed over the old one: a save that is
  killed midway leaves the old file or the new one, never a mix.  A folder (a SavedModel) is
  built in a sibling folder and swapped with the old one in one step (Linux:
  ``renameat2(RENAME_EXCHANGE)``; elsewhere two renames, with a short window in which the
  folder is absent).
- **Checksums.** ``sha256`` of the bytes (``hashlib``), checked before a byte is parsed.
- **Sealed array files.** A small container of numeric arrays (checkpoint data, Keras
  weights): a magic line, the length and the sha256 of a JSON header, the header (each
  array's dtype, shape, offset, size and sha256) and the raw bytes.  Every byte of it is
  covered by a checksum, so any damage or truncation is a ``DataLossError`` naming the file,
  never other numbers.
"""

from __future__ import annotations

import ctypes
import errno
import hashlib
import json
import math
import os
import re
import shutil
import sys
import tempfile

import numpy as np

from .errors import DataLossError

DAMAGED = "the file is damaged or was written partly; save it again"


def sha256(data) -> str:
    return hashlib.sha256(data).hexdigest()


# -- atomic writes -------------------------------------------------------------------------

def _fsync_dir(path: str) -> None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - Windows cannot open folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - some file systems refuse fsync on folders
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError, OSError):
        return True  # another user's process, or we cannot tell: leave its files alone
    return True


_STALE = re.compile(r"\..+\.saving-([0-9]{1,10})-[A-Za-z0-9_]+(\.tmp)?")


def _remove_stale(folder: str) -> None:
    """Remove what saves killed earlier left in ``folder``: the temporary files and staging
    folders (``.<name>.saving-<pid>-...``) of processes that no longer run; a save still in
    progress is never touched."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        m = _STALE.fullmatch(name)
        if m is None or int(m.group(1)) == os.getpid() or _alive(int(m.group(1))):
            continue
        path = os.path.join(folder, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                os.remove(path)
            except OSError:
                pass


def write_file_atomic(path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` holds its old content or all of ``data``,
    whenever the process dies."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    _remove_stale(folder)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.saving-{os.getpid()}-",
                               suffix=".tmp", dir=folder)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # as open() would make it, not mkstemp's 0o600
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    _fsync_dir(folder)


def staging_folder(target) -> str:
    """A new empty folder beside ``target`` (same parent) to build a replacement in, named
    ``.<name>.saving-<pid>-...``; those left by killed saves are removed first."""
    target = os.fspath(target)
    parent = os.path.dirname(target) or "."
    os.makedirs(parent, exist_ok=True)
    _remove_stale(parent)
    folder = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.saving-{os.getpid()}-",
                              dir=parent)
    os.chmod(folder, 0o777 & ~_umask())
    return folder


def fsync_tree(folder: str) -> None:
    """Flush every file and folder under ``folder`` to disk."""
    for root, _dirs, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), "rb") as f:
                os.fsync(f.fileno())
        _fsync_dir(root)


def _exchange(a: str, b: str) -> bool:
    """Swap the folders ``a`` and ``b`` in one step (Linux ``renameat2``); False when this
    system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        fn = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    fn.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if fn(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), b)


def replace_folder(staged: str, target: str) -> None:
    """Put the finished folder ``staged`` at ``target`` (replacing an old ``target``) in one
    step where the system allows it; the old folder is then removed."""
    parent = os.path.dirname(target) or "."
    try:
        cwd = os.getcwd()
    except OSError:  # pragma: no cover - the working folder was already removed
        cwd = None
    if not os.path.lexists(target):
        os.rename(staged, target)
    elif _exchange(staged, target):
        shutil.rmtree(staged)  # now the old folder
    else:
        aside = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.old-", dir=parent)
        os.rmdir(aside)
        os.rename(target, aside)
        os.rename(staged, target)
        shutil.rmtree(aside)
    _fsync_dir(parent)
    if cwd is not None and (cwd == target or cwd.startswith(target + os.sep)):
        # the process was working inside the old folder, which is gone: move to the new one
        os.chdir(cwd if os.path.isdir(cwd) else target)


def link_or_copy_tree(src: str, dst: str) -> None:
    """``src`` (a file or folder) reproduced at ``dst`` with hard links where possible."""
    def link(a, b):
        try:
            os.link(a, b)
        except OSError:
            shutil.copy2(a, b)
    if os.path.isdir(src) and not os.path.islink(src):
        shutil.copytree(src, dst, symlinks=True, copy_function=link)
    elif os.path.islink(src):
        os.symlink(os.readlink(src), dst)
    else:
        link(src, dst)


# -- sealed array files ----------------------------------------------------------------------

MAGIC = b"\x93TFGEDU-ARRAYS/1\n"
_DTYPE = re.compile(r"\|b1|[<|][iu][1248]|<f[248]|<c(8|16)")
_HASH = re.compile(r"[0-9a-f]{64}")


def seal(kind: str, meta: dict, arrays) -> bytes:
    """The bytes of a sealed file of ``arrays`` (numeric numpy arrays) with JSON ``meta``."""
    entries, blobs, offset = [], [], 0
    for a in arrays:
        a = np.asarray(a)  # tobytes() below is C order whatever the layout
        if a.dtype.kind not in "biufc":
            raise ValueError(f"Cannot store an array of dtype {a.dtype} as numbers.")
        a = a.astype(a.dtype.newbyteorder("<"), copy=False)
        raw = a.tobytes()
        entries.append({"dtype": a.dtype.str, "shape": list(a.shape), "offset": offset,
                        "nbytes": len(raw), "sha256": sha256(raw)})
        blobs.append(raw)
        offset += len(raw)
    header = json.dumps({"kind": kind, "meta": meta, "arrays": entries},
                        sort_keys=True).encode("utf-8")
    return b"".join([MAGIC, len(header).to_bytes(8, "little"), hashlib.sha256(header).digest(),
                     header, *blobs])


def _damaged(path, what: str, why: str) -> DataLossError:
    return DataLossError(None, None, f"{what} {path} cannot be read: {why}; {DAMAGED}.")


def read_sealed_header(data: bytes, path, kind: str, what: str) -> tuple[dict, list, int]:
    """(meta, array entries, start of the array bytes) of a sealed file's first bytes; every
    problem is a DataLossError naming ``path``."""
    n = len(MAGIC)
    if data[:n] != MAGIC:
        raise _damaged(path, what, "it does not start as a tfgraph_edu array file (it was "
                       "damaged, or written by another program or an older tfgraph_edu)")
    if len(data) < n + 40:
        raise _damaged(path, what, "it is truncated")
    size = int.from_bytes(data[n:n + 8], "little")
    start = n + 40 + size
    if len(data) < start:
        raise _damaged(path, what, "it is truncated")
    header = data[n + 40:start]
    if hashlib.sha256(header).digest() != data[n + 8:n + 40]:
        raise _damaged(path, what, "the checksum of its header does not match")
    try:
        doc = json.loads(header.decode("utf-8"))
    except ValueError:  # pragma: no cover - a header with a good checksum is our JSON
        raise _damaged(path, what, "its header is not JSON") from None
    if not isinstance(doc, dict) or doc.get("kind") != kind or not isinstance(
            doc.get("arrays"), list) or not isinstance(doc.get("meta"), dict):
        raise _damaged(path, what, f"it is not a {kind} file")
    return doc["meta"], doc["arrays"], start


class Sealed:
    """A sealed file read into memory: ``meta`` and ``array(i)`` (checked when taken)."""

    def __init__(self, data: bytes, path, kind: str, what: str):
        self.path, self.what = path, what
        self.meta, self.entries, self._start = read_sealed_header(data, path, kind, what)
        self._data = data
        end = self._start
        for e in self.entries:
            if not (isinstance(e, dict) and isinstance(e.get("dtype"), str)
                    and _DTYPE.fullmatch(e["dtype"]) and isinstance(e.get("shape"), list)
                    and all(type(d) is int and d >= 0 for d in e["shape"])
                    and type(e.get("offset")) is int and type(e.get("nbytes")) is int
                    and isinstance(e.get("sha256"), str) and _HASH.fullmatch(e["sha256"])
                    and e["nbytes"] == math.prod(e["shape"]) * np.dtype(e["dtype"]).itemsize
                    and e["offset"] == end - self._start):
                raise _damaged(path, what, "its header describes an array it cannot hold")
            end += e["nbytes"]
        if end != len(data):
            raise _damaged(path, what, f"it holds {len(data)} bytes, its header says {end}"
                           + (" (it is truncated)" if end > len(data) else ""))

    def __len__(self):
        return len(self.entries)

    def array(self, i: int) -> np.ndarray:
        e = self.entries[i]
        lo = self._start + e["offset"]
        raw = self._data[lo:lo + e["nbytes"]]
        if sha256(raw) != e["sha256"]:
            raise _damaged(self.path, self.what, f"the checksum of its array {i} does not "
                           "match")
        value = np.frombuffer(raw, dtype=np.dtype(e["dtype"])).reshape(e["shape"])
        return value.astype(value.dtype.newbyteorder("="), copy=True)


def read_file(path, what: str) -> bytes:
    """All bytes of ``path``; a missing file is NotFoundError."""
    from .errors import NotFoundError
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise NotFoundError(None, None, f"{what} {path} does not exist.") from None
    except IsADirectoryError:
        raise NotFoundError(None, None, f"{what} {path} is a folder, not a file.") from None
