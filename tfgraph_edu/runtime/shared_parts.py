"""Compiling a very large generated module once per distinct part shape (layer 3).

A big graph is written as a chain of part functions (see ``CompiledGraph._layout``), and
an unrolled Python loop makes many parts whose text differs only in the compiler's made
names (``v2004`` where another part has ``v4``, ``c5`` for ``c9``).  CPython compiles such
texts to the same bytecode: names reach a code object only as its ``co_names`` (globals)
and ``co_varnames`` (arguments and locals), each numbered by first use.  So the first part
of each shape is compiled, and every later part of that shape gets a copy of its code
object with the names swapped (and its own function name and first line number, which
shifts its line table), exactly what compiling its own text would have given - except for
the column offsets a traceback's carets use, which stay those of the first part.

Two texts have the same shape when they are equal once every made name is replaced by one
marker, and the names at the same places correspond one to one.  The full text is what
``linecache`` and errors show; only the compile skips the copies' lines.
"""

from __future__ import annotations

import itertools
import re
import sys
import types
from operator import itemgetter

# a name the compiler makes, as a whole word (not a keyword argument's name, a constant)
_MADE = re.compile(r"[acvk](?<!\w[acvk])\d+(?:_a?\d+|_kw)?(?![\w=])")
_NO_DIGITS = str.maketrans("", "", "0123456789")
_CANDIDATES = 4  # earlier parts of one shape tried for a one-to-one correspondence


def compile_module(lines: list[str], parts, filename: str, namespace: dict) -> None:
    """Run the module ``lines`` (without newlines) in ``namespace``; ``parts`` are its part
    functions as ``(name, index of the def line, index after the last line)``."""
    alike: dict[str, list] = {}  # text without digits -> [_Template] of parts compiled
    copies = []  # (part name, def line index, the _Template, its names -> the part's)
    compiled = list(lines)  # the text compiled: the copies' lines left blank
    for name, first, end in parts:
        head = lines[first]
        text = "\n".join([head[head.index("("):], *lines[first + 1:end]])
        seen = alike.setdefault(text.translate(_NO_DIGITS), [])  # a cheap first sieve
        for template in seen:
            rename = template.match(text)
            if rename is not None:
                copies.append((name, first, template, rename))
                compiled[first:end] = [""] * (end - first)
                break
        else:
            if len(seen) < _CANDIDATES:
                seen.append(_Template(name, text))
    exec(compile("\n".join(compiled) + "\n", filename, "exec"), namespace)  # noqa: S102
    for name, first, template, rename in copies:
        code = namespace[template.name].__code__
        fields = {"co_name": name, "co_firstlineno": first + 1,
                  "co_names": tuple(map(rename.get, code.co_names, code.co_names)),
                  "co_varnames": tuple(map(rename.get, code.co_varnames, code.co_varnames))}
        if sys.version_info >= (3, 11):
            fields["co_qualname"] = name
        namespace[name] = types.FunctionType(code.replace(**fields), namespace, name)


class _Template:
    """A compiled part's text as a format string: each distinct made name a numbered field."""

    __slots__ = ("name", "names", "_format", "_firsts", "_count")

    def __init__(self, name: str, text: str):
        self.name = name
        found = _MADE.findall(text)
        number = {n: i for i, n in enumerate(dict.fromkeys(found))}
        self.names = list(number)  # distinct, by first use
        pieces = [p.replace("{", "{{").replace("}", "}}") for p in _MADE.split(text)]
        self._format = "".join(itertools.chain.from_iterable(
            zip(pieces, [f"{{{number[n]}}}" for n in found] + [""])))
        firsts = {}
        for i, n in enumerate(found):
            firsts.setdefault(n, i)
        self._firsts = list(firsts.values())
        self._count = len(found)

    def match(self, text: str) -> dict | None:
        """This template's names -> ``text``'s, when ``text`` is this text with its made
        names swapped one to one (else None)."""
        found = _MADE.findall(text)
        if len(found) != self._count:
            return None
        names = [found[i] for i in self._firsts] if len(self._firsts) < 2 else \
            list(itemgetter(*self._firsts)(found))
        if self._format.format(*names) != text or len(set(names)) != len(names):
            return None  # the texts differ elsewhere, or two names became one
        return dict(zip(self.names, names))
