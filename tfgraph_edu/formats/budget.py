"""The one error class of the readers and their size budget (layer 2a).

A file read here is data: it is parsed by protobuf (or by the few lines of framing code in
``events.py``), never imported, unpickled or evaluated.  Before anything is parsed the file
must be a regular file no bigger than ``max_file_bytes``; after parsing, the graph it
describes must stay within ``max_nodes`` (counting every function body as often as it is
drawn in place) and ``max_depth`` levels of function bodies inside function bodies.
Constants are decoded into arrays only up to ``max_constant_elements`` elements (a declared
shape of a billion elements costs nothing in the file); bigger ones are shown by dtype and
shape.  Anything malformed or over budget is a :class:`GraphFileError`.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

from ..graph import limits

__all__ = ["GraphFileError", "Budget", "read_bytes"]


class GraphFileError(ValueError):
    """The file is missing, not a graph file we know, malformed, or over the size budget."""


@dataclass(frozen=True)
class Budget:
    """How much a file may make this process read and build; raise only for files you trust."""

    max_file_bytes: int = 256 * 2 ** 20
    max_nodes: int = 0  # 0: the graph node limit (tfgraph_edu.graph.limits.MAX_NODES)
    max_depth: int = 16  # function bodies inside function bodies
    max_constant_elements: int = 1 << 20

    @property
    def nodes(self) -> int:
        return self.max_nodes or limits.MAX_NODES


_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
          | getattr(os, "O_BINARY", 0))


def read_bytes(path: str, budget: Budget, what: str) -> bytes:
    """The bytes of the regular file ``path``, refused past ``budget.max_file_bytes``."""
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise GraphFileError(f"Cannot open {what} {path!r}: {exc.strerror}.") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise GraphFileError(f"{what.capitalize()} {path!r} is not a regular file.")
        if info.st_size > budget.max_file_bytes:
            raise GraphFileError(
                f"{what.capitalize()} {path!r} has {info.st_size} bytes, over the budget of "
                f"{budget.max_file_bytes} (open_graph(..., budget=Budget(max_file_bytes=...)) "
                "raises it for a file you trust).")
        chunks, left = [], budget.max_file_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 22))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > budget.max_file_bytes:
            raise GraphFileError(f"{what.capitalize()} {path!r} grew past the budget of "
                                 f"{budget.max_file_bytes} bytes while being read.")
        return data
    finally:
        os.close(fd)
