"""Times BenchmarkCompute's expressions with NumPy on one thread.

Run: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python expr/testdata/numpy_compute_bench.py [--iters N] [--case NAME] [--list]

Prints one line per case, named as the Go benchmark with impl=numpy, with
the mean time of N runs (10 unless told) after a first one (the statistic
of BenchmarkCompute under `go test -benchtime Nx`, which also runs each
case once before its timed loop) in MB/s of the same bytes the Go
benchmark counts (input bytes for reductions, output bytes for
element-wise operations). --case runs only the case named
op=.../dtype=.../shape=...; --list prints the case names and exits.
"""
import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402


def data(dtype, batch, shape):
    n = batch * int(np.prod(shape))
    i = np.arange(n, dtype=np.int64)
    if dtype == np.uint8:
        a = (i * 7).astype(np.uint8)
    else:
        a = ((i % 1000) / 1000).astype(dtype)
    return a.reshape((batch,) + tuple(shape))


m = np.float32([0.485, 0.456, 0.406])
s = np.float32([0.229, 0.224, 0.225])
half = np.full(256, 0.5, np.float32)
cases = [
    ("sum", np.float32, 4096, (64, 64), True, lambda a: a.sum(axis=(1, 2))),
    ("sum", np.float64, 2048, (64, 64), True, lambda a: a.sum(axis=(1, 2))),
    ("max", np.float32, 4096, (64, 64), True, lambda a: a.max(axis=(1, 2))),
    ("mean-axis0", np.float32, 4096, (64, 64), True, lambda a: a.mean(axis=1)),
    ("crop-mean", np.float32, 4096, (64, 64), True, lambda a: a[:, 16:48].astype(np.float32).mean(axis=(1, 2))),
    ("channel-mean", np.uint8, 256, (224, 224, 3), True, lambda a: a.astype(np.float32).mean(axis=(1, 2))),
    ("norm", np.float32, 65536, (256,), True, lambda a: np.linalg.norm(a, axis=-1)),
    ("dot", np.float32, 65536, (256,), True, lambda a: a @ half),
    ("astype", np.uint8, 64, (224, 224, 3), False, lambda a: a.astype(np.float32)),
    ("normalize", np.uint8, 64, (224, 224, 3), False, lambda a: (a.astype(np.float32) / 255 - m) / s),
    ("scale", np.float32, 4096, (64, 64), False, lambda a: a * 2 + 1),
]
ap = argparse.ArgumentParser()
ap.add_argument("--iters", type=int, default=10)
ap.add_argument("--case", default="")
ap.add_argument("--list", action="store_true")
args = ap.parse_args()
for op, dtype, batch, shape, reduce, f in cases:
    name = "op=%s/dtype=%s/shape=%s" % (op, np.dtype(dtype).name, "x".join(str(d) for d in (batch,) + shape))
    if args.list:
        print(name)
        continue
    if args.case and args.case != name:
        continue
    a = data(dtype, batch, shape)
    out = f(a)
    counted = a.nbytes if reduce else out.nbytes
    t = time.perf_counter()
    for _ in range(args.iters):
        f(a)
    mean = (time.perf_counter() - t) / args.iters
    print("%s/impl=numpy %.0f ns/op %.2f MB/s" % (name, mean * 1e9, counted / mean / 1e6))
