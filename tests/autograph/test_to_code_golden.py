"""Golden tests: tf.autograph.to_code for the guides' examples, shaped like TensorFlow's.

Reviewed by hand against TensorFlow's output for the same functions: same names
(tf__f, FunctionScope, do_return/retval_, get_state/set_state, if_body/else_body,
loop_body/loop_test, ag__.if_stmt/for_stmt/while_stmt/converted_call/ld) and the same
argument order; differences are only in spacing and in where Undefined values are set.
"""

import pytest

import tfgraph_edu as tf

from . import guide_examples

GOLDEN = {}
GOLDEN["simple_relu"] = """\
def tf__simple_relu(x):
    with ag__.FunctionScope('simple_relu', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()

        def get_state():
            return (do_return, retval_)

        def set_state(vars_):
            nonlocal do_return, retval_
            do_return, retval_ = vars_

        def if_body():
            nonlocal do_return, retval_
            do_return = True
            retval_ = ag__.ld(x)

        def else_body():
            nonlocal do_return, retval_
            do_return = True
            retval_ = 0
        ag__.if_stmt(ag__.converted_call(tf.greater, (ag__.ld(x), 0), None, fscope), if_body, else_body, get_state, set_state, ('do_return', 'retval_'), 2)
        return fscope.ret(retval_, do_return)
"""

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
            o *= ag__.ld(x)
        ag__.for_stmt(ag__.converted_call(range, (2,), None, fscope), None, loop_body, get_state, set_state, ('o',), {'iterate_names': '_'})
        do_return = True
        retval_ = ag__.ld(o)
        return fscope.ret(retval_, do_return)
"""

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

        def loop_test():
            return ag__.converted_call(tf.reduce_sum, (ag__.ld(x),), None, fscope) > 1

        def loop_body():
            nonlocal x
            ag__.converted_call(tf.print, (ag__.ld(x),), None, fscope)
            x = ag__.converted_call(tf.tanh, (ag__.ld(x),), None, fscope)
        ag__.while_stmt(loop_test, loop_body, get_state, set_state, ('x',), {})
        do_return = True
        retval_ = ag__.ld(x)
        return fscope.ret(retval_, do_return)
"""

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
                pass
            ag__.if_stmt(ag__.ld(c) % 2 > 0, if_body, else_body, get_state, set_state, ('continue_',), 1)

            def get_state_1():
                return (s,)

            def set_state_1(vars_):
                nonlocal s
                s, = vars_

            def if_body_1():
                nonlocal s
                s += ag__.ld(c)

            def else_body_1():
                pass
            ag__.if_stmt(ag__.not_(ag__.ld(continue_)), if_body_1, else_body_1, get_state_1, set_state_1, ('s',), 1)
        ag__.for_stmt(ag__.ld(items), None, loop_body, get_state_2, set_state_2, ('s',), {'iterate_names': 'c'})
        do_return = True
        retval_ = ag__.ld(s)
        return fscope.ret(retval_, do_return)
"""

GOLDEN["deep_net"] = """\
def tf__deep_net(x):
    with ag__.FunctionScope('deep_net', 'fscope', ag__.ConversionOptions(recursive=True, user_requested=True, optional_features=(), internal_convert_user_code=True)) as fscope:
        do_return = False
        retval_ = ag__.UndefinedReturnValue()
        do_return = True
        retval_ = ag__.converted_call(tf.nn.relu, (ag__.converted_call(linear_layer, (ag__.ld(x),), None, fscope),), None, fscope)
        return fscope.ret(retval_, do_return)
"""



@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_to_code_golden(name):
    assert tf.autograph.to_code(getattr(guide_examples, name)) == GOLDEN[name]
