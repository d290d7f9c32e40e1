"""NumPy side of fstensor's benchmarks (bench/).

Reads a JSON list of cases (bench.Case: op, expr, numpy, dtype, batch,
shape) from the file named by the first argument ("-" for stdin) and either

  bench [-count N] [-benchtime DURATION] [-procs N]
      times each case's NumPy expression over the batch array `a` and prints
      Go benchmark lines (BenchmarkMaterialize/<name>/impl=numpy, ns/op and
      MB/s of result bytes), N lines per case, for benchstat, names ending
      in -P for -procs P (default: the CPU count, Go's GOMAXPROCS) as Go
      names them; or
  check
      prints one JSON object per case: the result's shape and the SHA-256 of
      its C-order bytes, which bench's TestNumPy compares with fstensor's.

The input of every case is (np.arange(n) % 65521).astype(dtype) reshaped
to (batch, *shape): bench.Pattern's values.
"""

import hashlib
import json
import os
import platform
import sys
import time

import numpy as np


def make_input(case):
    n = case["batch"]
    for d in case["shape"]:
        n *= d
    a = (np.arange(n, dtype=np.int64) % 65521).astype(case["dtype"])
    return a.reshape([case["batch"]] + case["shape"])


def compile_case(case):
    return eval("lambda a: " + case["numpy"], {"np": np})


def name(case):
    shape = "x".join(str(d) for d in [case["batch"]] + case["shape"])
    return "op=%s/dtype=%s/shape=%s" % (case["op"], case["dtype"], shape)


def bench(cases, count, benchtime, procs):
    print("goos: %s" % sys.platform)
    print("goarch: %s" % platform.machine())
    print("pkg: numpy %s (python %s)" % (np.__version__, platform.python_version()))
    # Go names a benchmark run with GOMAXPROCS=N != 1 with a -N suffix;
    # NumPy gets the same one so that benchstat lines up the rows.
    suffix = "" if procs == 1 else "-%d" % procs
    for case in cases:
        a = make_input(case)
        f = compile_case(case)
        out = f(a)
        nbytes = out.nbytes
        del out
        for _ in range(count):
            # Grow the iteration count as Go's testing package does until
            # one run takes at least benchtime.
            iters = 1
            while True:
                t0 = time.perf_counter_ns()
                for _ in range(iters):
                    out = f(a)
                    del out
                elapsed = time.perf_counter_ns() - t0
                if elapsed >= benchtime * 1e9 or iters >= 1e9:
                    break
                per = max(elapsed / iters, 1)
                iters = int(min(max(benchtime * 1e9 / per * 1.2, iters + 1), iters * 100))
            ns = elapsed / iters
            mbs = nbytes / (ns / 1e9) / 1e6
            print("BenchmarkMaterialize/%s/impl=numpy%s \t%d\t%.1f ns/op\t%.2f MB/s" % (name(case), suffix, iters, ns, mbs), flush=True)


def check(cases):
    for case in cases:
        out = np.ascontiguousarray(compile_case(case)(make_input(case)))
        print(json.dumps({"name": name(case), "shape": list(out.shape), "sha256": hashlib.sha256(out.tobytes()).hexdigest()}))


def parse_duration(text):
    """Seconds in a Go duration such as 1s, 200ms, 1.5s or 500us."""
    for unit, scale in (("ms", 1e-3), ("us", 1e-6), ("µs", 1e-6), ("ns", 1e-9), ("s", 1.0), ("m", 60.0)):
        if text.endswith(unit):
            return float(text[: -len(unit)]) * scale
    return float(text)


def main(argv):
    if len(argv) < 2:
        sys.exit("usage: numpy_bench.py CASES.json|- bench [-count N] [-benchtime S] | check")
    src = sys.stdin if argv[0] == "-" else open(argv[0])
    cases = json.load(src)
    if argv[1] == "check":
        check(cases)
        return
    count, benchtime, procs = 1, 1.0, os.cpu_count() or 1
    rest = argv[2:]
    while rest:
        if rest[0] == "-count" and len(rest) > 1:
            count = int(rest[1])
        elif rest[0] == "-procs" and len(rest) > 1:
            procs = int(rest[1])
        elif rest[0] == "-benchtime" and len(rest) > 1:
            benchtime = parse_duration(rest[1])
        else:
            sys.exit("numpy_bench.py: unknown argument %r" % rest[0])
        rest = rest[2:]
    bench(cases, count, benchtime, procs)


if __name__ == "__main__":
    main(sys.argv[1:])
