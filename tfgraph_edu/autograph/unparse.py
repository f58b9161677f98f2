"""AST -> source text, the same text on every Python version (layer 5).

AutoGraph prints the code it generates (``to_code``, the code it compiles, the line map of
errors) with Python's own printer, ``ast.unparse``, whose text changed between versions:

- 3.10 puts every tuple in parentheses (``(y,) = vars_``, ``for (i, x) in ...``) and writes
  ``lambda : x`` for a lambda without parameters; 3.11 writes ``y, = vars_`` and
  ``lambda: x``;
- 3.12 writes f-strings with the same quotes nested inside (``f"{d["k"]}"``), which only
  3.12 and later can parse; 3.11 picks other quotes for the inner strings.

This printer is ``ast.unparse`` with those points written one way: 3.11's text, which is
the text TensorFlow's ``to_code`` gave for the guides' examples
(tests/autograph/test_to_code_golden.py) and which every supported version parses. One
more point follows the same rule: ``a[*b]`` (3.11+ syntax) is printed ``a[(*b,)]``.
What only a newer Python can parse (``except*``, ``type X = ...``) can only come from
source that this Python parsed, so it is printed as the running version prints it. String
literals are Python's ``repr``: a character newer than the running Python's Unicode
database (e.g. U+9FFF before 3.11) is printed escaped, as that Python's ``repr`` does.
"""

from __future__ import annotations

import ast
from contextlib import contextmanager

_Base = ast._Unparser  # the printer of ast.unparse (CPython 3.10-3.13)
_P = ast._Precedence
_NAMED_EXPR = getattr(_P, "NAMED_EXPR", 0)  # 3.10 has no level below TUPLE
_QUOTES = ("'", '"', '"""', "'''")


class _Unparser(_Base):
    def __init__(self, *, avoid_backslashes: bool = False):
        super().__init__()
        # inside an f-string's {...} before 3.12: strings without backslashes, in quotes
        # chosen by the enclosing f-string (3.10 and 3.11 read this attribute too)
        self._avoid_backslashes = avoid_backslashes

    def write(self, *text):
        self._source.extend(text)

    @contextmanager
    def buffered(self):
        outer, self._source = self._source, []
        try:
            yield self._source
        finally:
            self._source = outer

    # -- tuples: parentheses only where the grammar needs them (3.11)
    def visit_Tuple(self, node):
        bare = node.elts and self.get_precedence(node) <= _P.TUPLE
        with self.delimit_if("(", ")", not bare):
            self.items_view(self.traverse, node.elts)

    def visit_Assign(self, node):
        for target in node.targets:
            self.set_precedence(_P.TUPLE, target)
        super().visit_Assign(node)

    def _for_helper(self, fill, node):
        self.set_precedence(_P.TUPLE, node.target)
        super()._for_helper(fill, node)

    def visit_comprehension(self, node):
        self.set_precedence(_P.TUPLE, node.target)
        super().visit_comprehension(node)

    def visit_NamedExpr(self, node):
        with self.require_parens(_NAMED_EXPR, node):
            self.set_precedence(_P.ATOM, node.target, node.value)
            self.traverse(node.target)
            self.write(" := ")
            self.traverse(node.value)

    def visit_Subscript(self, node):
        self.set_precedence(_P.ATOM, node.value)
        self.traverse(node.value)
        with self.delimit("[", "]"):
            index = node.slice
            if (isinstance(index, ast.Tuple) and index.elts
                    and not any(isinstance(e, ast.Starred) for e in index.elts)):
                self.items_view(self.traverse, index.elts)
            else:
                self.traverse(index)

    def visit_Lambda(self, node):
        with self.require_parens(_P.TEST, node):
            with self.buffered() as params:
                self.traverse(node.args)
            self.write("lambda", " " if params else "", *params, ": ")
            self.set_precedence(_P.TEST, node.body)
            self.traverse(node.body)

    # -- f-strings: inner strings in other quotes than the f-string's own (3.11)
    def visit_JoinedStr(self, node):
        self.write("f")
        if self._avoid_backslashes:
            with self.buffered() as text:
                self._write_fstring_inner(node)
            self._write_str_avoiding_backslashes("".join(text))
            return
        parts = []  # (text, is a literal part)
        for value in node.values:
            with self.buffered() as text:
                self._write_fstring_inner(value)
            parts.append(("".join(text), isinstance(value, ast.Constant)))
        quotes, written = list(_QUOTES), []
        for text, literal in parts:
            text, fitting = self._str_literal_helper(text, quote_types=quotes,
                                                     escape_special_whitespace=literal)
            if set(fitting).isdisjoint(quotes):  # no quote fits every part
                quotes = ["'''"]
                written = [repr('"' + text)[2:-1] for text, _ in parts]
                break
            written.append(text)
            quotes = fitting
        self.write(quotes[0], *written, quotes[0])

    def _write_fstring_inner(self, node, **_ignored):
        if isinstance(node, ast.JoinedStr):  # the f-string itself, or a format spec
            for value in node.values:
                self._write_fstring_inner(value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            self.write(node.value.replace("{", "{{").replace("}", "}}"))
        elif isinstance(node, ast.FormattedValue):
            self.visit_FormattedValue(node)
        else:
            raise ValueError(f"Unexpected node inside JoinedStr, {node!r}")

    def visit_FormattedValue(self, node):
        inner = type(self)(avoid_backslashes=True)
        inner.set_precedence(_P.TEST.next(), node.value)
        expr = inner.visit(node.value)
        if "\\" in expr:
            raise ValueError("Unable to avoid backslash in f-string expression part")
        with self.delimit("{", "}"):
            self.write(" " if expr.startswith("{") else "", expr)  # "{ {" for a set/dict
            if node.conversion != -1:
                self.write(f"!{chr(node.conversion)}")
            if node.format_spec:
                self.write(":")
                self._write_fstring_inner(node.format_spec)

    def _write_constant(self, value):
        if self._avoid_backslashes and isinstance(value, str):
            self._write_str_avoiding_backslashes(value)
        else:
            super()._write_constant(value)


def unparse(node: ast.AST) -> str:
    """``ast.unparse(node)``, as Python 3.11 writes it, on every supported version."""
    return _Unparser().visit(node)
