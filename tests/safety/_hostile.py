"""Shared ammunition for the safety tests: hostile strings and a checker for generated code."""

from __future__ import annotations

import io
import keyword
import re
import tokenize


def payloads(marker) -> list[str]:
    """Strings that would create ``marker`` if any of them were ever pasted into Python source
    and run, whatever the surrounding text (a comment, a keyword, a string, a call)."""
    act = f"open({str(marker)!r}, 'w').close()"
    return [
        f"x\n{act}\n#",
        f"x\r{act}\r#",
        f"x\u2028{act}",
        f"x=({act}),y",
        f"x) or ({act}) or (",
        f"'); {act}; ('",
        f'"""); {act}; ("""',
        f"x # \n{act}",
        f"__import__('os').system('touch {marker}')",
        f"x\\\n{act}",
        f"{act} if 1 else 0",
        "x\x00y",
        "é名前\u202e",
        "a" * 20000,
        "def",
        "1x",
        "",
    ]


_MADE = re.compile(r"(a|c|k|v)\d+(_\d+|_a\d+|_kw)?|def|return")
# the statements of cond branches and loop bodies compiled in place
_CONTROL = ("if", "else", "while", "break", "not", "pass")


def assert_only_made_names(compiled) -> None:
    """Every token of ``compiled.code`` is one the compiler makes itself: its own variable
    names, the function name made from ASCII letters, digits and ``_``, the kernels'
    parameter names, numbers and punctuation; no string, no comment."""
    from tfgraph_edu.runtime.compiled import _keywords
    assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]{0,80}", compiled.py_name)
    fn_name = re.compile(re.escape(compiled.py_name) + r"(_part\d+)?")
    params = {"True", "False", "None"}
    for value in compiled._namespace.values():
        if callable(value):
            params.update(_keywords(value))
    toks = tokenize.generate_tokens(io.StringIO(compiled.code).readline)
    for tok in toks:
        if tok.type == tokenize.NAME:
            assert (_MADE.fullmatch(tok.string) or fn_name.fullmatch(tok.string)
                    or tok.string in params or tok.string in _CONTROL), tok
            assert tok.string.isascii() and (not keyword.iskeyword(tok.string)
                                             or tok.string in ("def", "return", "True",
                                                               "False", "None") + _CONTROL), tok
        elif tok.type in (tokenize.STRING, tokenize.COMMENT):
            raise AssertionError(f"generated code holds a {tokenize.tok_name[tok.type]}: "
                                 f"{tok.string[:80]!r}")
        else:
            assert tok.type in (tokenize.OP, tokenize.NUMBER, tokenize.NEWLINE, tokenize.NL,
                                tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER), tok
