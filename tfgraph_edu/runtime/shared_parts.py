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

import re
import sys
import types

# a name the compiler makes (not a keyword argument's name, which is a constant of the code)
_MADE = re.compile(r"\b([acvk]\d+(?:_\d+|_a\d+|_kw)?)\b(?!=)")
_MARK = "\x00"  # never in generated text
_NO_DIGITS = str.maketrans("", "", "0123456789")
_CANDIDATES = 4  # earlier parts of one shape tried for a one-to-one correspondence


def compile_module(lines: list[str], parts, filename: str, namespace: dict) -> None:
    """Run the module ``lines`` (without newlines) in ``namespace``; ``parts`` are its part
    functions as ``(name, index of the def line, index after the last line)``."""
    alike: dict[str, list] = {}  # text without digits -> [_Part] compiled from their text
    copies = []  # (part name, def line index, the _Part compiled, the part's names)
    compiled = list(lines)  # the text compiled: the copies' lines left blank
    for name, first, end in parts:
        head = lines[first]
        part = _Part(name, "\n".join([head[head.index("("):], *lines[first + 1:end]]))
        seen = alike.setdefault(part.text.translate(_NO_DIGITS), [])  # a cheap first sieve
        for template in seen:
            if template.shape() == part.shape() and _one_to_one(template.names, part.names):
                copies.append((name, first, template, part.names))
                compiled[first:end] = [""] * (end - first)
                break
        else:
            if len(seen) < _CANDIDATES:
                seen.append(part)
    exec(compile("\n".join(compiled) + "\n", filename, "exec"), namespace)  # noqa: S102
    for name, first, template, names in copies:
        code = namespace[template.name].__code__
        rename = dict(zip(template.names, names))
        fields = {"co_name": name, "co_firstlineno": first + 1,
                  "co_names": tuple(rename.get(n, n) for n in code.co_names),
                  "co_varnames": tuple(rename.get(n, n) for n in code.co_varnames)}
        if sys.version_info >= (3, 11):
            fields["co_qualname"] = name
        namespace[name] = types.FunctionType(code.replace(**fields), namespace, name)


class _Part:
    """A part function's text from its parameters on, and (once asked) its shape: the text
    with each made name replaced by one marker, and the made names in order."""

    __slots__ = ("name", "text", "_shape", "names")

    def __init__(self, name: str, text: str):
        self.name, self.text, self._shape, self.names = name, text, None, None

    def shape(self) -> str:
        if self._shape is None:
            pieces = _MADE.split(self.text)
            self._shape, self.names = _MARK.join(pieces[::2]), pieces[1::2]
        return self._shape


def _one_to_one(a: list[str], b: list[str]) -> bool:
    """Whether the names ``a`` and ``b`` (equally long) correspond one to one by position."""
    rename = dict(zip(a, b))
    return list(map(rename.__getitem__, a)) == b and len(set(rename.values())) == len(rename)
