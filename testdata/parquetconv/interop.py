"""Interop checks of Parquet files written by fstensor's parquetconv.Writer.

Driven by parquetconv/interop_test.go:

  interop.py READERS REFERENCE MANIFEST PARQUET...

READERS is a comma-separated subset of pyarrow,duckdb,polars. REFERENCE is an
Arrow IPC file of the record that every PARQUET file must contain.
MANIFEST is JSON: {"tensors": [names], "logical": {name: {"row": i,
"shape": [...], "values": [...]}}} with the logical values, computed in Go, of
one valid tensor per column. Exits 1 with a message on the first mismatch.

- pyarrow must give back arrow.fixed_shape_tensor (FixedShapeTensorType) with
  the reference's value type, shape, permutation and dim names; nulls and
  every element bit must match; the logical tensor, derived from the raw
  storage and numpy.transpose (logical = transpose(physical, perm)), must equal
  the manifest's (pyarrow's to_numpy_ndarray is wrong for 3-cycles).
- DuckDB sees lists, polars its own fixed_shape_tensor extension over an Array:
  nulls and every element bit must match (float16 by value when the reader
  widens it).
"""
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc
import pyarrow.parquet as pq


current = ""


def fail(msg):
    print(f"{current}: {msg}")
    sys.exit(1)


def bits(a):
    if a.dtype.kind == "f":
        return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize])
    return a


def rows(arr):
    """Validity per row and the elements of the valid rows, flattened."""
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks()
    if isinstance(arr.type, pa.BaseExtensionType):
        arr = arr.storage
    valid = np.array(arr.is_valid().to_pylist(), dtype=bool)
    flat = arr.flatten().to_numpy(zero_copy_only=False)
    return valid, flat


def compare(reader, name, got, ref):
    gv, gf = rows(got)
    rv, rf = rows(ref)
    if len(gv) != len(rv) or not (gv == rv).all():
        fail(f"{reader}: column {name}: validity {gv.tolist()}, want {rv.tolist()}")
    if gf.shape != rf.shape:
        fail(f"{reader}: column {name}: {gf.shape} elements, want {rf.shape}")
    if gf.dtype == rf.dtype:
        if not np.array_equal(bits(gf), bits(rf)):
            bad = np.nonzero(bits(gf) != bits(rf))[0][:5]
            fail(f"{reader}: column {name}: elements {bad.tolist()} differ: {gf[bad]} want {rf[bad]}")
    elif rf.dtype == np.float16:
        if not np.array_equal(gf, rf.astype(gf.dtype), equal_nan=True):
            fail(f"{reader}: column {name}: float16 values differ")
    else:
        fail(f"{reader}: column {name}: element type {gf.dtype}, want {rf.dtype}")


def check_pyarrow(path, ref, man):
    t = pq.read_table(path)
    if t.num_rows != ref.num_rows:
        fail(f"pyarrow: {t.num_rows} rows, want {ref.num_rows}")
    for name in ref.column_names:
        got, want = t[name], ref[name]
        if name not in man["tensors"]:
            if not got.equals(want):
                fail(f"pyarrow: column {name}: {got} want {want}")
            continue
        gt, wt = got.type, want.type
        if not isinstance(gt, pa.FixedShapeTensorType):
            fail(f"pyarrow: column {name} is {gt}, want a FixedShapeTensorType")
        for attr in ("value_type", "shape", "permutation", "dim_names"):
            if getattr(gt, attr) != getattr(wt, attr):
                fail(f"pyarrow: column {name}: {attr} {getattr(gt, attr)}, want {getattr(wt, attr)}")
        compare("pyarrow", name, got, want)
        lg = man["logical"].get(name)
        if lg is None:
            continue
        arr = got.combine_chunks()
        phys = list(gt.shape)
        perm = list(gt.permutation) if gt.permutation is not None else list(range(len(phys)))
        v = arr.storage[lg["row"]].values.to_numpy(zero_copy_only=False)
        x = np.transpose(v.reshape(phys), perm)
        if list(x.shape) != lg["shape"]:
            fail(f"pyarrow: column {name}: logical shape {list(x.shape)}, want {lg['shape']}")
        if not np.array_equal(x.ravel().astype(np.float64), np.array(lg["values"], dtype=np.float64)):
            fail(f"pyarrow: column {name}: logical values {x.ravel().tolist()}, want {lg['values']}")


def check_lists(reader, table, ref, man):
    if table.num_rows != ref.num_rows:
        fail(f"{reader}: {table.num_rows} rows, want {ref.num_rows}")
    for name in ref.column_names:
        if name in man["tensors"]:
            compare(reader, name, table[name], ref[name])
        elif table[name].to_pylist() != ref[name].to_pylist():
            fail(f"{reader}: column {name} differs")


def main():
    global current
    readers, ref_path, man_path, paths = sys.argv[1].split(","), sys.argv[2], sys.argv[3], sys.argv[4:]
    with ipc.open_file(ref_path) as r:
        ref = r.read_all()
    with open(man_path) as f:
        man = json.load(f)
    for path in paths:
        current = path
        if "pyarrow" in readers:
            check_pyarrow(path, ref, man)
        if "duckdb" in readers:
            import duckdb

            rel = duckdb.connect().sql("SELECT * FROM read_parquet('%s')" % path.replace("'", "''"))
            fetch = getattr(rel, "to_arrow_table", None) or rel.arrow
            check_lists("duckdb", fetch(), ref, man)
        if "polars" in readers:
            import polars as pl

            check_lists("polars", pl.read_parquet(path).to_arrow(), ref, man)
    print(f"{','.join(readers)}: {len(paths)} files of {ref.num_rows} rows, {len(man['tensors'])} tensor columns ok")


main()
