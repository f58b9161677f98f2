"""Small control-flow functions in plain Python style, for the differential tests.

Each runs on Python numbers, on eager tensors and, converted by AutoGraph, on
symbolic tensors inside tf.function, and must give the same answer every way.
"""

import tfgraph_edu as tf


def simple_relu(x):
    if x > 0:
        return x
    else:
        return 0 * x


def cube(x):
    o = x
    for _ in range(2):
        o *= x
    return o


def sign(x):
    if x > 0:
        return 1
    elif x < 0:
        return -1
    else:
        return 0


def nested_if(x, y):
    if x > 0:
        if y > 0:
            r = x + y
        else:
            r = x - y
    else:
        if y > x:
            r = y
        else:
            r = x * 2
    return r


def elif_chain(x):
    if x < -10:
        r = -2
    elif x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    else:
        r = 2
    return r


def early_return_nested(x):
    if x > 5:
        if x > 10:
            return 3
        return 2
    return 1


def collatz(n):
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def sum_even(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i % 2 > 0:
            continue
        s += i
    return s


def first_multiple(n, k):
    i = 1
    found = 0
    while i < n:
        if i % k == 0:
            found = i
            break
        i += 1
    return found


def fizzbuzz_count(n):
    fizz = 0
    buzz = 0
    both = 0
    i = 1
    while i <= n:
        if i % 15 == 0:
            both += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
        i += 1
    return fizz * 100 + buzz * 10 + both


def while_two_vars(a, b):
    while b != 0:
        a, b = b, a % b
    return a


def return_in_while(n):
    i = 0
    while i < n + 100:  # a tensor loop when n is a tensor (a return inside needs one)
        if i * i >= n:
            return i
        i += 1
    return -1


def ternary(x, y):
    return x if x > y else y


def logic(x, y):
    r = 0
    if (x > 0 and y > 0) or not (x < -5):
        r = 1
    return r


def chained_compare(x):
    r = 0
    if 0 < x < 10:
        r = 1
    return r


def nested_while(n):
    total = 0
    i = 0
    while i < n:
        j = 0
        while j < i:
            total += j
            j += 1
        i += 1
    return total


def loop_with_break_and_continue(n):
    s = 0
    i = 0
    while i < 20 + 0 * n:  # a tensor loop when n is a tensor (a break on n needs one)
        i += 1
        if i % 3 == 0:
            continue
        if s > n:
            break
        s += i
    return s


def python_range_unrolled(x):
    for i in range(4):
        if x > i:
            x = x - 1
        else:
            x = x + 2
    return x


def helper(v):
    if v > 3:
        return v * 10
    return v


def calls_helper(x):
    return helper(x) + helper(x - 2)


def linear_layer(x):
    return 2 * x + 1


def deep_net(x):
    y = linear_layer(x)
    if y > 0:
        y = linear_layer(y)
    return y


def countdown_product(n):
    p = 1
    while n > 0:
        p *= n
        n -= 1
    return p


def abs_diff_loop(a, b):
    d = 0
    while a != b:
        if a > b:
            a -= 1
        else:
            a += 1
        d += 1
    return d


def max_of_three(a, b, c):
    m = a
    if b > m:
        m = b
    if c > m:
        m = c
    return m


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


def digits_sum(n):
    s = 0
    while n > 0:
        s += n % 10
        n = n // 10
    return s


def is_prime(n):
    if n < 2:
        return 0
    d = 2
    while d * d <= n:
        if n % d == 0:
            return 0
        d += 1
    return 1


def float_newton_sqrt(x):
    guess = x / 2 + 1
    i = 0
    while i < 20:
        guess = (guess + x / guess) / 2
        i += 1
    return guess


def float_branches(x):
    if x > 1.5:
        y = x * 0.5
    elif x > 0.5:
        y = x * x
    else:
        y = -x
    return y


def tensor_loop_sum(n):
    s = 0
    for i in tf.range(n):
        s += i * i
    return s


def tensor_loop_break(n):
    s = 0
    for i in tf.range(n):
        if s > 20:
            break
        s += i
    return s


CASES = [
    (simple_relu, [(3,), (-2,), (0,)]),
    (cube, [(3,), (-2,)]),
    (sign, [(5,), (-5,), (0,)]),
    (nested_if, [(1, 2), (1, -2), (-1, 3), (-1, -3)]),
    (elif_chain, [(-20,), (-3,), (0,), (4,), (40,)]),
    (early_return_nested, [(12,), (7,), (2,)]),
    (collatz, [(27,), (1,), (6,)]),
    (sum_even, [(10,), (7,), (0,)]),
    (first_multiple, [(20, 7), (5, 9)]),
    (fizzbuzz_count, [(30,), (7,)]),
    (while_two_vars, [(48, 18), (17, 5)]),
    (ternary, [(3, 5), (9, 2)]),
    (logic, [(1, 1), (-9, 1), (-2, -2)]),
    (chained_compare, [(5,), (11,), (-1,)]),
    (nested_while, [(5,), (0,)]),
    (loop_with_break_and_continue, [(10,), (100,)]),
    (python_range_unrolled, [(2,), (10,)]),
    (calls_helper, [(5,), (1,)]),
    (deep_net, [(3,), (-4,)]),
    (countdown_product, [(5,), (0,)]),
    (abs_diff_loop, [(3, 9), (9, 3), (4, 4)]),
    (max_of_three, [(1, 5, 3), (7, 2, 9), (4, 4, 1)]),
    (clamp, [(5, 0, 10), (-3, 0, 10), (30, 0, 10)]),
    (digits_sum, [(12345,), (0,)]),
    (float_newton_sqrt, [(2.0,), (9.0,)]),
    (float_branches, [(2.0,), (1.0,), (-3.0,)]),
]

# returns inside a tensor loop: TF 2.21 raises NotImplementedError ("a return statement cannot
# be placed inside this TensorFlow loop") when they are traced on tensors; Python numbers and
# eager tensors run them as Python
RETURN_IN_TENSOR_LOOP = [(return_in_while, [(50,), (0,), (20000,)]),
                         (is_prime, [(13,), (15,), (1,)])]

TENSOR_ONLY = [
    (tensor_loop_sum, [(5,), (0,)], lambda n: sum(i * i for i in range(n))),
    (tensor_loop_break, [(10,), (3,)], lambda n: _loop_break_reference(n)),
]


def _loop_break_reference(n):
    s = 0
    for i in range(n):
        if s > 20:
            break
        s += i
    return s
