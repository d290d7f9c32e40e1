"""Times x @ W with NumPy (OpenBLAS) on one thread, on the shapes of
internal/linalg's BenchmarkMatMul.

Run: OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python bench/peers/matmul_bench.py
Prints one line per shape, named as the Go benchmark with impl=numpy: the
mean time of the runs after a first one, as ns/op, MB/s of a, W and c, and
GFLOP/s (2*m*k*n per product). Each shape computes its m rows in
np.matmul calls of block rows, into slices of one output array.
"""
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402

# m, k, n, rows per call: BenchmarkMatMul's benchShapes.
SHAPES = [
    (256, 768, 128, 256),
    (100000, 768, 128, 100000),
    (100000, 768, 128, 256),
    (256, 768, 768, 256),
    (256, 1024, 256, 256),
]


def bench(m, k, n, block, seconds=1.0):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k), dtype=np.float32)
    w = rng.standard_normal((k, n), dtype=np.float32)
    c = np.empty((m, n), np.float32)

    def once():
        for i in range(0, m, block):
            np.matmul(a[i:i + block], w, out=c[i:i + block])

    once()
    t = time.perf_counter()
    once()
    first = time.perf_counter() - t
    reps = max(1, min(1000, int(seconds / max(first, 1e-9))))
    t = time.perf_counter()
    for _ in range(reps):
        once()
    dt = (time.perf_counter() - t) / reps
    name = "BenchmarkMatMul/m=%d/k=%d/n=%d/block=%d" % (m, k, n, block)
    size = 4 * (m * k + k * n + m * n)
    print("%s/dtype=float32/impl=numpy\t%d\t%.0f ns/op\t%.2f MB/s\t%.2f GFLOP/s" % (
        name, reps, dt * 1e9, size / dt / 1e6, 2 * m * k * n / dt / 1e9), flush=True)


if __name__ == "__main__":
    want = sys.argv[1:]
    for s in SHAPES:
        name = "m=%d/k=%d/n=%d/block=%d" % s
        if not want or name in want:
            bench(*s)
