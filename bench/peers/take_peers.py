"""The peers' side of take_peers.sh: taking 1,000 random rows of ROWS x 768
float32 embeddings with pyarrow (read + take: a memory-mapped IPC file, and
Parquet files) and Lance (its dataset's take), and the report that sets
them beside fstensor's BenchmarkTakeFiles.

    python take_peers.py setup DIR ROWS   # data.arrow, ids.npy, pyarrow.parquet, data.lance
    python take_peers.py time DIR         # one line a peer: peer=NAME ms=...
    python take_peers.py report FILE      # FILE: the Go benchmark and time lines

Lance is skipped, with a message, when `import lance` fails (pip install
pylance).
"""
import re
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

TAKE = 1000
DIM = 768
BATCH = 10_000


def setup(d, rows):
    typ = pa.fixed_shape_tensor(pa.float32(), [DIM])
    rng = np.random.default_rng(1)
    schema = pa.schema([("embedding", typ)])
    with pa.OSFile(f"{d}/data.arrow", "wb") as f, pa.ipc.new_file(f, schema) as w:
        for start in range(0, rows, BATCH):
            n = min(BATCH, rows - start)
            vals = rng.standard_normal(n * DIM, dtype=np.float32)
            storage = pa.FixedSizeListArray.from_arrays(pa.array(vals), DIM)
            w.write_batch(pa.record_batch([pa.ExtensionArray.from_storage(typ, storage)], schema=schema))
    table = pa.ipc.open_file(pa.memory_map(f"{d}/data.arrow")).read_all()
    pq.write_table(table, f"{d}/pyarrow.parquet")  # pyarrow's defaults: snappy, 1 MiB pages
    ids = np.random.default_rng(2).integers(0, rows, TAKE, dtype=np.int64)
    np.save(f"{d}/ids.npy", ids)
    try:
        import lance
    except ImportError as e:
        print(f"lance not importable ({e}): no Lance dataset", file=sys.stderr)
        return
    # Lance keeps the fixed_size_list; the extension type is not kept.
    plain = pa.table({"embedding": table.column("embedding").combine_chunks().storage})
    lance.write_dataset(plain, f"{d}/data.lance", mode="overwrite")


def best(fn, rounds=3):
    t = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        out = fn()
        t.append(time.perf_counter() - t0)
        assert out.num_rows == TAKE, out.num_rows
    return min(t) * 1e3


def timing(d):
    ids = np.load(f"{d}/ids.npy")
    idx = pa.array(ids)
    print(f"peer=pyarrow_ipc_mapped ms={best(lambda: pa.ipc.open_file(pa.memory_map(f'{d}/data.arrow')).read_all().take(idx)):.2f}")
    for name in ["pyarrow.parquet", "fstensor_none_1MiB.parquet", "fstensor_none_16KiB.parquet"]:
        print(f"peer=pyarrow_parquet:{name} ms={best(lambda: pq.read_table(f'{d}/{name}').take(idx), rounds=1):.2f}")
    try:
        import lance
    except ImportError as e:
        print(f"lance not importable ({e}): skipped", file=sys.stderr)
        return
    ds = lance.dataset(f"{d}/data.lance")
    print(f"peer=lance ms={best(lambda: ds.take(ids)):.2f}")


def report(path):
    fst, peers = {}, {}
    for line in open(path):
        m = re.match(r"BenchmarkTakeFiles/file=(\S+?)(?:-\d+)?\s+\d+\s+(\d+) ns/op", line)
        if m:
            fst[m.group(1)] = min(fst.get(m.group(1), 1e30), int(m.group(2)) / 1e6)
        m = re.match(r"peer=(\S+) ms=([\d.]+)", line)
        if m:
            peers[m.group(1)] = min(peers.get(m.group(1), 1e30), float(m.group(2)))
    lance = peers.get("lance")
    pyipc = peers.get("pyarrow_ipc_mapped")
    pypq = peers.get("pyarrow_parquet:pyarrow.parquet")
    print("| reader | file | ms | vs Lance | vs pyarrow (same format) |")
    print("|---|---|---:|---:|---:|")
    for name, ms in sorted(fst.items()):
        base = pyipc if name.endswith(".arrow") else pypq
        print("| fstensor | %s | %.1f | %s | %s |" % (
            name, ms, "%.2fx" % (lance / ms) if lance else "-", "%.0fx" % (base / ms) if base else "-"))
    for name, ms in sorted(peers.items()):
        print("| %s | | %.1f | %s | |" % (name, ms, "%.2fx" % (lance / ms) if lance else "-"))
    print()
    print("(ratios are speedups: the peer's time over this line's time)")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "setup":
        setup(sys.argv[2], int(sys.argv[3]))
    elif cmd == "time":
        timing(sys.argv[2])
    elif cmd == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)
