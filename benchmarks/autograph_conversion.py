"""How long AutoGraph takes to convert a 50-line function, against tracing it.

The function (written to a temporary module so its source is real) mixes
ifs, for and while loops, breaks, continues and returns.  Printed: conversion
time, first-call time (conversion + tracing + running), and the share of the
first call that conversion takes.
"""

from __future__ import annotations

import importlib.util
import sys
import tempfile
import time
from pathlib import Path

import tfgraph_edu as tf
from tfgraph_edu.autograph import conversion

SOURCE = '''
import tfgraph_edu as tf


def big(x, n):
    total = tf.constant(0)
    count = 0
    for i in tf.range(n):
        if i % 2 == 0:
            total += i
        elif i % 3 == 0:
            total -= i
        else:
            total += 1
        if total > 100:
            break
    j = 0
    while j < n:
        j += 1
        if j % 5 == 0:
            continue
        count += 1
    y = x
    for k in range(3):
        if k == 1:
            y = y * 2
        else:
            y = y + k
    z = y if y > 0 else -y
    w = tf.constant(0)
    while w < 10:
        if w > z:
            break
        w += 2
    if x > 10 and n > 2:
        z = z + 1
    elif x < -10 or n < 0:
        z = z - 1
    else:
        z = z * 1
    acc = tf.constant(0)
    for m in tf.range(4):
        acc += m * x
    if acc > 1000:
        return acc
    for p in range(2):
        acc += p
    q = not (acc > 5)
    if q:
        acc = acc - 1
    r = acc + total + count + w
    if r < 0:
        return -r
    return r + z
'''


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_module.py"
        path.write_text(SOURCE)
        spec = importlib.util.spec_from_file_location("bench_module", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["bench_module"] = module
        spec.loader.exec_module(module)
        lines = len(SOURCE.strip().splitlines())
        start = time.perf_counter()
        entry = conversion.converted_entry(module.big)
        convert_s = time.perf_counter() - start
        fn = tf.function(module.big)
        start = time.perf_counter()
        fn(tf.constant(3), tf.constant(20))  # conversion is cached: tracing and running
        trace_s = time.perf_counter() - start
        start = time.perf_counter()
        for _ in range(100):
            fn(tf.constant(3), tf.constant(20))
        call_s = (time.perf_counter() - start) / 100
    print(f"function: {lines} lines, generated module: {len(entry.source.splitlines())} lines")
    print(f"conversion:              {convert_s * 1e3:8.2f} ms")
    print(f"first call after that:   {trace_s * 1e3:8.2f} ms (tracing + compiling + running)")
    print(f"later calls:             {call_s * 1e3:8.3f} ms")
    print(f"conversion / (conversion + first call) = {convert_s / (convert_s + trace_s):.2f}")


if __name__ == "__main__":
    main()
