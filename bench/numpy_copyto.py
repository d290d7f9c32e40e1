"""NumPy's transpose kernels alone, for the comparison with expr in docs/benchmarks.md.

np.copyto(dst, a.transpose(...)) into a preallocated array measures
NumPy's strided copy without allocating the result, as expr's
impl=expr benchmarks do (EvalInto into a reused destination); the
np.ascontiguousarray line is NumPy end to end, allocating each result.
Prints the median of five runs, in GB/s of result bytes. Run with the
project's venv: .venv/bin/python bench/numpy_copyto.py
"""

import time

import numpy as np

CASES = [
    ("transpose 8192x64x64", (8192, 64, 64), (0, 2, 1)),
    ("transpose 32x1024x1024", (32, 1024, 1024), (0, 2, 1)),
    ("nchw-nhwc 224x3x224x224", (224, 3, 224, 224), (0, 2, 3, 1)),
    ("nhwc-nchw 224x224x224x3", (224, 224, 224, 3), (0, 3, 1, 2)),
]


def median_gbps(f, nbytes, runs=5):
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        r = f()
        times.append(time.perf_counter() - t0)
        del r
    times.sort()
    return nbytes / times[runs // 2] / 1e9


def main():
    print("numpy", np.__version__)
    for name, shape, perm in CASES:
        a = (np.arange(np.prod(shape), dtype=np.int64) % 65521).astype(np.float32).reshape(shape)
        view = a.transpose(perm)
        dst = np.empty(view.shape, np.float32)
        np.copyto(dst, view)
        kernel = median_gbps(lambda: np.copyto(dst, view), dst.nbytes)
        whole = median_gbps(lambda: np.ascontiguousarray(view), dst.nbytes)
        print("%-26s copyto %6.2f GB/s   ascontiguousarray %6.2f GB/s" % (name, kernel, whole))


if __name__ == "__main__":
    main()
