"""``and``, ``or``, ``not`` and chained comparisons become lazy ``ag__`` operators (layer 5).

``a and b`` becomes ``ag__.and_(lambda: a, lambda: b)`` so ``b`` is only
evaluated (or, for tensors, only traced into a cond branch) when needed.
"""

from __future__ import annotations

import ast


def _thunk(body):
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[],
                                         defaults=[]), body=body)


def _call(fn: str, args):
    return ast.Call(func=ast.parse(f"ag__.{fn}", mode="eval").body, args=args, keywords=[])


class _Logic(ast.NodeTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        fn = "and_" if isinstance(node.op, ast.And) else "or_"
        values = node.values
        result = values[-1]
        for v in reversed(values[:-1]):
            result = _call(fn, [_thunk(v), _thunk(result)])
        return ast.copy_location(result, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call("not_", [node.operand]), node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1:
            return node
        parts = []
        left = node.left
        for op, right in zip(node.ops, node.comparators):
            parts.append(ast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        result = parts[-1]
        for p in reversed(parts[:-1]):
            result = _call("and_", [_thunk(p), _thunk(result)])
        return ast.copy_location(result, node)


def transform(fn: ast.FunctionDef, ctx) -> ast.FunctionDef:
    fn.body = [_Logic().visit(s) for s in fn.body]
    return fn
