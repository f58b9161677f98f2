"""Golden tests: tf.autograph.to_code for the guides' examples is TensorFlow's own text.

Each expected text below is what TensorFlow 2.21 printed for the same function (the
functions are in guide_examples.py), verbatim.  Two things in TensorFlow's text depend on
the process's string hashing (PYTHONHASHSEED), so the comparison puts them in a fixed
order on both sides: the names of a ``nonlocal`` line, and a run of consecutive
``x = ag__.Undefined('x')`` lines.
"""

import re

import pytest

import tfgraph_edu as tf

from . import guide_examples


def _hash_order_free(text: str) -> str:
    out: list[str] = []
    run: list[str] = []  # consecutive Undefined inits
    for line in text.splitlines():
        m = re.fullmatch(r"(\s*)nonlocal (.*)", line)
        if m:
            line = m.group(1) + "nonlocal " + ", ".join(sorted(m.group(2).split(", ")))
        if re.fullmatch(r"\s*\w+ = ag__\.Undefined\('\w+'\)", line):
            run.append(line)
            continue
        out += sorted(run) + [line]
        run = []
    return "\n".join(out + sorted(run))


GOLDEN = {}
# TensorFlow 2.21 gives:
GOLDEN["simple_relu"] = """\
def tf__simple_relu(x):
    with ag__.FunctionScope('simple_relu', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (do_return, retval_)

        def set_state(vars_):
            nonlocal retval_, do_return
            do_return, retval_ = vars_

        def if_body():
            nonlocal retval_, do_return
            try:
                do_return = True
                retval_ = ag__.ld(x)
            except:
                do_return = False
                raise

        def else_body():
            nonlocal retval_, do_return
            try:
                do_return = True
                retval_ = 0
            except:
                do_return = False
                raise
        ag__.if_stmt(ag__.converted_call(ag__.ld(tf).greater, (ag__.ld(x), 0), None, fscope), if_body, else_body, get_state, set_state, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)
"""

# TensorFlow 2.21 gives:
GOLDEN["cube"] = """\
def tf__cube(x):
    with ag__.FunctionScope('cube', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        o = ag__.ld(x)

        def get_state():
            return (o,)

        def set_state(vars_):
            nonlocal o
            o, = vars_

        def loop_body(itr):
            nonlocal o
            _ = itr
            o = ag__.ld(o)
            o *= x
        _ = ag__.Undefined('_')
        ag__.for_stmt(ag__.converted_call(ag__.ld(range), (2,), None, fscope), None, loop_body, get_state, set_state, ('o',), {'iterate_names': '_'})
        try:
            do_return = True
            retval_ = ag__.ld(o)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
"""

# TensorFlow 2.21 gives:
GOLDEN["g"] = """\
def tf__g(x):
    with ag__.FunctionScope('g', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (x,)

        def set_state(vars_):
            nonlocal x
            x, = vars_

        def loop_body():
            nonlocal x
            ag__.converted_call(ag__.ld(tf).print, (ag__.ld(x),), None, fscope)
            x = ag__.converted_call(ag__.ld(tf).tanh, (ag__.ld(x),), None, fscope)

        def loop_test():
            return ag__.converted_call(ag__.ld(tf).reduce_sum, (ag__.ld(x),), None, fscope) > 1
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('x',), {})
        try:
            do_return = True
            retval_ = ag__.ld(x)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
"""

# TensorFlow 2.21 gives:
GOLDEN["sum_even"] = """\
def tf__sum_even(items):
    with ag__.FunctionScope('sum_even', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        s = 0

        def get_state_2():
            return (s,)

        def set_state_2(vars_):
            nonlocal s
            s, = vars_

        def loop_body(itr):
            nonlocal s
            c = itr
            continue_ = False

            def get_state():
                return (continue_,)

            def set_state(vars_):
                nonlocal continue_
                continue_, = vars_

            def if_body():
                nonlocal continue_
                continue_ = True

            def else_body():
                nonlocal continue_
                pass
            ag__.if_stmt(ag__.ld(c) % 2 > 0, if_body, else_body, get_state, set_state, ('continue_',), 1)

            def get_state_1():
                return (s,)

            def set_state_1(vars_):
                nonlocal s
                s, = vars_

            def if_body_1():
                nonlocal s
                s = ag__.ld(s)
                s += c

            def else_body_1():
                nonlocal s
                pass
            ag__.if_stmt(ag__.not_(continue_), if_body_1, else_body_1, get_state_1, set_state_1, ('s',), 1)
        continue_ = ag__.Undefined('continue_')
        c = ag__.Undefined('c')
        ag__.for_stmt(ag__.ld(items), None, loop_body, get_state_2, set_state_2, ('s',), {'iterate_names': 'c'})
        try:
            do_return = True
            retval_ = ag__.ld(s)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
"""

# TensorFlow 2.21 gives:
GOLDEN["deep_net"] = """\
def tf__deep_net(x):
    with ag__.FunctionScope('deep_net', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        try:
            do_return = True
            retval_ = ag__.converted_call(ag__.ld(tf).nn.relu, (ag__.converted_call(ag__.ld(linear_layer), (ag__.ld(x),), None, fscope),), None, fscope)
        except:
            do_return = False
            raise
        return fscope.ret(retval_, do_return)
"""


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_to_code_golden(name):
    assert (_hash_order_free(tf.autograph.to_code(getattr(guide_examples, name)))
            == _hash_order_free(GOLDEN[name]))
