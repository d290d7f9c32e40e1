"""The peers' side of write_peers.sh: writing ROWS uint8 224x224x3 images,
built once in memory as a fixed_shape_tensor column in batches of BATCH
rows, to an Arrow IPC file with pyarrow (pa.ipc.new_file on a pa.OSFile),
and the report that sets it beside fstensor's BenchmarkWriteImages.

    python write_peers.py time DIR ROWS BATCH SYNC   # SYNC: no or yes; prints peer=pyarrow sync=SYNC sec=... bytes=...
    python write_peers.py report FILE                # FILE: the Go benchmark and time lines

sync=yes adds an fsync of the file once written (fstensor's Create syncs
its temporary file before renaming it; pyarrow does not sync), so that
both writers are compared with and without it. Each write runs in a
process of its own, as each of fstensor's does: a second 3 GB write in
the same process measured slower than the first, for either library.
"""
import os
import re
import sys
import time

import numpy as np
import pyarrow as pa

SHAPE = (224, 224, 3)


def batches(rows, batch):
    typ = pa.fixed_shape_tensor(pa.uint8(), list(SHAPE))
    schema = pa.schema([("image", typ)])
    rng = np.random.default_rng(1)
    out = []
    n_elem = int(np.prod(SHAPE))
    for start in range(0, rows, batch):
        n = min(batch, rows - start)
        vals = np.frombuffer(rng.bytes(n * n_elem), dtype=np.uint8)
        storage = pa.FixedSizeListArray.from_arrays(pa.array(vals), n_elem)
        out.append(pa.record_batch([pa.ExtensionArray.from_storage(typ, storage)], schema=schema))
    return schema, out


def write(path, schema, recs, sync):
    if os.path.exists(path):
        os.remove(path)
    t0 = time.perf_counter()
    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, schema) as w:
        for b in recs:
            w.write_batch(b)
    if sync:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    sec = time.perf_counter() - t0
    os.remove(path)
    return sec


def timing(d, rows, batch, sync):
    schema, recs = batches(rows, batch)
    size = sum(b.column(0).storage.values.nbytes for b in recs)
    path = os.path.join(d, "pyarrow_write.arrow")
    sec = write(path, schema, recs, sync == "yes")
    print(f"peer=pyarrow sync={sync} sec={sec:.4f} bytes={size}", flush=True)


GO = re.compile(r"^BenchmarkWriteImages/(\S+?)-\d+\s+\d+\s+(\d+) ns/op\s+([\d.]+) MB/s")
PY = re.compile(r"^peer=(\S+) sync=(\S+) sec=([\d.]+) bytes=(\d+)")


def report(path):
    best = {}
    for line in open(path):
        if m := GO.match(line):
            name = m.group(1)
            gbps = float(m.group(3)) / 1e3
        elif m := PY.match(line):
            name = f"sync={m.group(2)}/impl={m.group(1)}"
            gbps = int(m.group(4)) / float(m.group(3)) / 1e9
        else:
            continue
        best[name] = max(best.get(name, 0), gbps)
    print("| writer | GB/s (best) |")
    print("|---|---:|")
    for name in sorted(best):
        print(f"| {name} | {best[name]:.2f} |")
    print()
    pairs = [("sync=no/impl=arrowipc", "sync=no/impl=pyarrow"), ("sync=yes/impl=tensorio", "sync=yes/impl=pyarrow"),
             ("sync=yes/impl=tensorio", "sync=no/impl=pyarrow")]
    for a, b in pairs:
        if a in best and b in best:
            print(f"{a} / {b}: {best[a] / best[b]:.2f}x")


if __name__ == "__main__":
    if sys.argv[1] == "time":
        timing(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
    elif sys.argv[1] == "report":
        report(sys.argv[2])
    else:
        sys.exit(__doc__)
