"""FAISS peer of search's BenchmarkTopK: exact top-10 search of n x 768
standard normal float32 rows with IndexFlatIP and IndexFlatL2, one thread,
for 1 and 64 queries.

FAISS 1.15 computes exact distances query by query unless the number of
queries reaches faiss.cvar.distance_compute_blas_threshold (128,000 by
default, 20 in older releases), when it calls BLAS sgemm on blocks of
queries and rows. impl=faiss is the default; impl=faiss-blas sets the
threshold to 1, FAISS's fastest configuration for many queries.

    .venv/bin/python bench/peers/faiss_bench.py [--rows N] [--iters I] [--queries 1,64]

prints one line per case with the mean time of I searches (1 unless
told) after a first one, the statistic of BenchmarkTopK under `go test
-benchtime Ix` (which also searches once before its timed loop), and the
throughput in GB/s of the rows' bytes (GB = 1e9 bytes), the unit of
`go test -bench BenchmarkTopK ./search` (MB/s there). --queries lists the
query counts to run. It also checks that FAISS's rows equal NumPy's
stable ranking on the first 20,000 rows.
"""
import argparse
import time

import numpy as np

import faiss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=100_000)
    ap.add_argument("--iters", type=int, default=1)
    ap.add_argument("--queries", default="1,64")
    ap.add_argument("--k", type=int, default=10)
    args = ap.parse_args()
    d = 768
    faiss.omp_set_num_threads(1)
    nbytes = args.rows * d * 4
    print(f"faiss {faiss.__version__}, numpy {np.__version__}, rows={args.rows} dim={d} k={args.k}, 1 thread")
    for name, cls, metric in (("dot", faiss.IndexFlatIP, "ip"), ("l2", faiss.IndexFlatL2, "l2")):
        index = cls(d)
        x = rows(args.rows, d)
        index.add(x)  # a copy: keep only the rows the check needs
        x = x[:20000].copy()
        default = faiss.cvar.distance_compute_blas_threshold
        for nq in [int(v) for v in args.queries.split(",")]:
            q = np.random.default_rng(nq).standard_normal((nq, d), dtype=np.float32)
            for impl, threshold in (("faiss", default), ("faiss-blas", 1)):
                if nq == 1 and impl == "faiss-blas":
                    continue
                faiss.cvar.distance_compute_blas_threshold = threshold
                index.search(q, args.k)
                t0 = time.perf_counter()
                for _ in range(args.iters):
                    index.search(q, args.k)
                s = (time.perf_counter() - t0) / args.iters
                print(f"metric={name}/rows={args.rows}/dim={d}/queries={nq}/k={args.k}/impl={impl}\t{s*1e3:.1f} ms\t{nbytes/s/1e9:.2f} GB/s", flush=True)
                check(x[:20000], q, args.k, metric)
            faiss.cvar.distance_compute_blas_threshold = default
        del index


def rows(n, d):
    """n x d standard normal float32, generated in chunks (no float64 copy)."""
    rng = np.random.default_rng(1)
    x = np.empty((n, d), np.float32)
    for i in range(0, n, 65536):
        x[i:i + 65536] = rng.standard_normal((min(65536, n - i), d), dtype=np.float32)
    return x


def check(x, q, k, metric):
    """FAISS on the first rows against NumPy's stable ranking."""
    sub = faiss.IndexFlatIP(x.shape[1]) if metric == "ip" else faiss.IndexFlatL2(x.shape[1])
    sub.add(x)
    _, ids = sub.search(q, k)
    xd, qd = x.astype(np.float64), q.astype(np.float64)
    for j in range(len(q)):
        key = -(xd @ qd[j]) if metric == "ip" else ((xd - qd[j]) ** 2).sum(1)
        want = np.argsort(key, kind="stable")[:k]
        if not np.array_equal(want, ids[j]):
            print(f"  note: query {j}: FAISS rows {ids[j].tolist()} differ from NumPy's {want.tolist()}")


if __name__ == "__main__":
    main()
