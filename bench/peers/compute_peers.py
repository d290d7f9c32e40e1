"""Python peers of bench's BenchmarkPeersCompute: five computations over
ROWS x 768 float32 rows held in memory, one thread each, timed with
NumPy, numexpr, polars (Array columns) and DuckDB (ARRAY columns).

    .venv/bin/python bench/peers/compute_peers.py [--rows N] [--rounds R]

prints one line per case and peer, `case=<name>/impl=<peer>\t<seconds> s`
(the median of R rounds), or `-` and the reason when the peer cannot
express the case or is not installed. With --table FILE it reads such
lines and `go test -bench BenchmarkPeersCompute` lines from FILE and
prints a Markdown table of the medians and same-run ratios instead.
compute_peers.sh runs both sides, interleaved, and then the table.

The cases (x is column a):
  normalize   x / norm(x, axis=-1, keepdims=True)
  l2distance  norm(a - b, axis=-1)
  rownorm     norm(x, axis=-1)
  affine      x * 2 + 1
  dot         dot(a, b), one number per row

Every peer returns its result materialized in its own memory: a NumPy
array, a polars DataFrame, a DuckDB temporary table.
"""
import argparse
import collections
import os
import re
import statistics
import sys
import time

# One thread each: set before the libraries start their pools.
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS",
          "NUMEXPR_MAX_THREADS", "POLARS_MAX_THREADS"):
    os.environ[v] = "1"

import numpy as np  # noqa: E402

DIM = 768
CASES = ["normalize", "l2distance", "rownorm", "affine", "dot"]
PEERS = ["numpy", "numexpr", "polars", "duckdb"]


def numpy_cases(a, b):
    return {
        "normalize": lambda: a / np.linalg.norm(a, axis=-1, keepdims=True),
        "l2distance": lambda: np.linalg.norm(a - b, axis=-1),
        "rownorm": lambda: np.linalg.norm(a, axis=-1),
        "affine": lambda: a * 2 + 1,
        # einsum is NumPy's fastest row-wise dot on one thread ((a * b).sum(-1) writes a - b's size).
        "dot": lambda: np.einsum("ij,ij->i", a, b),
    }


def numexpr_cases(a, b):
    import numexpr as ne
    ne.set_num_threads(1)
    # numexpr reduces only as the outermost operation of an expression:
    # a normalization is a sum, then a division that broadcasts the norms.
    def ev(text, **more):
        return ne.evaluate(text, local_dict=dict(a=a, b=b, **more))

    def normalize():
        return ev("a / n", n=np.sqrt(ev("sum(a * a, axis=1)"))[:, None])
    return {
        "normalize": normalize,
        "l2distance": lambda: np.sqrt(ev("sum((a - b) ** 2, axis=1)")),
        "rownorm": lambda: np.sqrt(ev("sum(a * a, axis=1)")),
        "affine": lambda: ev("a * 2 + 1"),
        "dot": lambda: ev("sum(a * b, axis=1)"),
    }


def polars_cases(a, b):
    import polars as pl
    df = pl.DataFrame({"a": a, "b": b})  # 2-D arrays become Array(Float32, 768) columns
    x, y = pl.col("a"), pl.col("b")
    norm = (x * x).arr.sum().sqrt()
    return {
        "normalize": lambda: df.select(x / norm),
        # Arithmetic between two Array columns: polars may refuse it, then
        # the case prints "-" with polars' error.
        "l2distance": lambda: df.select(((x - y) * (x - y)).arr.sum().sqrt()),
        "rownorm": lambda: df.select(norm),
        "affine": lambda: df.select(x * 2 + 1),
        "dot": lambda: df.select((x * y).arr.sum()),
    }, df


def duckdb_cases(a, b):
    import duckdb
    import pyarrow as pa
    con = duckdb.connect()
    con.execute("SET threads = 1")
    t = pa.table({
        "a": pa.FixedSizeListArray.from_arrays(pa.array(a.reshape(-1)), DIM),
        "b": pa.FixedSizeListArray.from_arrays(pa.array(b.reshape(-1)), DIM),
    })
    con.register("src", t)
    con.execute(f"CREATE TABLE t AS SELECT a::FLOAT[{DIM}] AS a, b::FLOAT[{DIM}] AS b FROM src")
    con.unregister("src")
    del t

    def run(select, src="t"):
        def f():
            con.execute(f"CREATE OR REPLACE TEMP TABLE r AS SELECT {select} AS r FROM {src}")
            return con
        return f
    return {
        # DuckDB has no arithmetic on whole ARRAY values: element-wise work
        # is a list_transform lambda, whose result is a LIST. The norm is
        # computed in a subquery: inside the lambda it would be computed
        # again for every element.
        "normalize": run("list_transform(a, lambda e: e / n)", "(SELECT a, sqrt(array_inner_product(a, a)) AS n FROM t)"),
        "l2distance": run("array_distance(a, b)"),
        "rownorm": run("sqrt(array_inner_product(a, a))"),
        "affine": run("list_transform(a, lambda e: e * 2 + 1)"),
        "dot": run("array_inner_product(a, b)"),
    }, con


def values(r):
    """A peer's result as a NumPy array."""
    if isinstance(r, np.ndarray):
        return r
    if hasattr(r, "to_series"):  # polars
        return np.asarray(r.to_series(0).to_numpy(), dtype=np.float64)
    col = r.execute("SELECT r FROM r").arrow().column(0).combine_chunks()  # DuckDB
    if hasattr(col, "flatten"):
        return np.asarray(col.flatten().to_numpy(), np.float64).reshape(len(col), -1)
    return np.asarray(col.to_numpy(), np.float64)


def make(peer, a, b):
    if peer == "numpy":
        return numpy_cases(a, b), None
    if peer == "numexpr":
        return numexpr_cases(a, b), None
    if peer == "polars":
        return polars_cases(a, b)
    return duckdb_cases(a, b)


def check(peer, a, b):
    """Reports a case whose values differ from NumPy's on the first rows."""
    n = min(len(a), 1000)
    want = numpy_cases(a[:n], b[:n])
    got, keep = make(peer, a[:n].copy(), b[:n].copy())
    for c in CASES:
        try:
            g = values(got[c]())
        except Exception:
            continue  # reported by the timing
        w = np.asarray(want[c](), np.float64)
        if g.shape != w.shape or not np.allclose(g, w, rtol=1e-4, atol=1e-4):
            print(f"# {peer} {c}: values differ from NumPy's", flush=True)
    del got, keep


def timed(fn, rounds):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = fn()
        times.append(time.perf_counter() - t0)
        del r
    return statistics.median(times)


def measure(args):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((args.rows, DIM), dtype=np.float32)
    b = rng.standard_normal((args.rows, DIM), dtype=np.float32)
    print(f"# numpy {np.__version__}, rows={args.rows} dim={DIM}, 1 thread, median of {args.rounds}", flush=True)
    for peer in PEERS:
        try:
            check(peer, a, b)
            cases, keep = make(peer, a, b)
        except ImportError as e:
            for c in CASES:
                print(f"case={c}/impl={peer}\t-\tnot installed: {e}", flush=True)
            continue
        for c in CASES:
            try:
                s = timed(cases[c], args.rounds)
            except Exception as e:  # the peer cannot express the case
                msg = " ".join(str(e).split())[:160]
                print(f"case={c}/impl={peer}\t-\t{type(e).__name__}: {msg}", flush=True)
                continue
            print(f"case={c}/impl={peer}\t{s:.4f} s", flush=True)
        del cases, keep


def table(path):
    secs = collections.defaultdict(list)
    why = {}
    for line in open(path):
        m = re.match(r"case=(\w+)/impl=(\w+)\t([\d.]+) s", line)
        if m:
            secs[(m.group(1), m.group(2))].append(float(m.group(3)))
            continue
        m = re.match(r"case=(\w+)/impl=(\w+)\t-\t(.*)", line)
        if m:
            why[(m.group(1), m.group(2))] = m.group(3)
            continue
        m = re.match(r"\s+compute_peers_test.go:\d+: case=(\w+): (.*)", line)
        if m:
            why[(m.group(1), "fstensor")] = m.group(2)
            continue
        m = re.match(r"BenchmarkPeersCompute/case=(\w+)/\S*impl=([a-z-]+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
        if m:
            impl = {"expr": "fstensor", "expr-fresh": "fstensor-fresh"}.get(m.group(2), "copy")
            secs[(m.group(1), impl)].append(float(m.group(3)) / 1e9)
    med = {k: statistics.median(v) for k, v in secs.items()}
    print("| case | NumPy | numexpr | polars (Array) | DuckDB (ARRAY) | fstensor | fstensor, new memory each result | copy() |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for c in CASES:
        fst = med.get((c, "fstensor"))
        cells = []
        for peer in PEERS:
            s = med.get((c, peer))
            if s is None:
                cells.append("-")
            elif fst:
                cells.append(f"{s:.3f} s ({s / fst:.2f}x)")
            else:
                cells.append(f"{s:.3f} s")
        cp = med.get((c, "copy"))
        for f in (fst, med.get((c, "fstensor-fresh"))):
            cells.append(f"{f:.3f} s" + (f" ({cp / f:.2f}x copy)" if cp else "") if f else "refused")
        cells.append(f"{cp:.3f} s" if cp else "-")
        print(f"| {c} | " + " | ".join(cells) + " |")
    print()
    print("Seconds are medians; a peer's (Nx) is its time over fstensor's (above 1: fstensor is faster);")
    print("fstensor's (Nx copy) is copy()'s time over fstensor's (1 is the memory limit). fstensor's Eval")
    print("reuses the memory of the result released before (the default); \"new memory each result\" takes")
    print("it from Go's heap every call (expr.WithAllocator of a Go allocator under a type of its own).")
    for (c, peer), reason in sorted(why.items()):
        print(f"- {peer}, {c}: {reason}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=int(os.environ.get("ROWS", "200000")))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--table", metavar="FILE")
    args = ap.parse_args()
    if args.table:
        table(args.table)
    else:
        measure(args)


if __name__ == "__main__":
    sys.exit(main())
