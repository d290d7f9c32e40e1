"""pyarrow side of the arrow.variable_shape_tensor interop tests.

pyarrow has no Python type for arrow.variable_shape_tensor: it writes the
storage struct with the extension keys on the field and keeps them on read.
Values are checked through NumPy: each row's data reshaped to its stored
(physical) shape, then transposed by the permutation to the logical view.

  interop.py write DIR   writes DIR/py.arrow and DIR/py.parquet, prints the
                         expected rows as JSON
  interop.py read FILE   prints the rows of FILE (.arrow or .parquet) as JSON
"""
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.ipc
import pyarrow.parquet as pq

NAME = "arrow.variable_shape_tensor"


def logical(data, shape, perm):
    a = np.asarray(data).reshape(shape)  # physical, row-major
    return a.transpose(perm) if perm is not None else a


def c_metadata(field):
    """The field metadata of field's C Data export: for an extension type,
    the extension keys as Arrow C++ serializes them."""
    import ctypes
    cap = field.__arrow_c_schema__()
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    ptr = get(cap, b"arrow_schema")
    md = ctypes.cast(ptr + 2 * ctypes.sizeof(ctypes.c_void_p), ctypes.POINTER(ctypes.c_void_p))[0]
    out = {}
    if not md:
        return out

    def i32(off):
        return ctypes.c_int32.from_address(md + off).value

    n, off = i32(0), 4
    for _ in range(n):
        kl = i32(off)
        k = ctypes.string_at(md + off + 4, kl).decode()
        off += 4 + kl
        vl = i32(off)
        v = ctypes.string_at(md + off + 4, vl).decode()
        off += 4 + vl
        out[k] = v
    return out


def rows_of(field, col):
    md = {k.decode(): v.decode() for k, v in (field.metadata or {}).items()}
    text = None
    if isinstance(field.type, pa.BaseExtensionType):
        md = c_metadata(field)
        col = col.storage
        text = str(field.type)
    meta = json.loads(md.get("ARROW:extension:metadata") or "{}")
    perm = meta.get("permutation")
    out = []
    for row in col.to_pylist():
        if row is None:
            out.append(None)
            continue
        t = logical(np.array(row["data"], dtype=np.float64), row["shape"], perm)
        out.append({"shape": list(t.shape), "values": t.reshape(-1).tolist()})
    return {"name": md.get("ARROW:extension:name"), "metadata": md.get("ARROW:extension:metadata"),
            "string": text, "rows": out}


def write(d):
    perm = [2, 0, 1]
    meta = {"permutation": perm, "dim_names": ["h", "w", "c"], "uniform_shape": [None, None, 3]}
    # Physical shapes (h, w, c); logical = physical transposed by perm.
    shapes = [[2, 3, 3], None, [1, 4, 3], [3, 0, 3], [2, 2, 3]]
    data, shape_col = [], []
    for i, s in enumerate(shapes):
        if s is None:
            data.append(None)
            shape_col.append(None)
            continue
        n = int(np.prod(s))
        data.append((np.arange(n, dtype=np.float32) + 100 * i).tolist())
        shape_col.append(s)
    storage = pa.StructArray.from_arrays(
        [pa.array(data, pa.list_(pa.float32())), pa.array(shape_col, pa.list_(pa.int32(), 3))],
        names=["data", "shape"], mask=pa.array([s is None for s in shapes]))
    field = pa.field("img", storage.type, metadata={
        "ARROW:extension:name": NAME,
        "ARROW:extension:metadata": json.dumps(meta, separators=(",", ":"))})
    table = pa.table([storage], schema=pa.schema([field]))
    with pa.OSFile(d + "/py.arrow", "wb") as f, pa.ipc.new_file(f, table.schema) as w:
        w.write_table(table)
    pq.write_table(table, d + "/py.parquet")
    json.dump(rows_of(field, storage), sys.stdout)


def read(path):
    if path.endswith(".parquet"):
        table = pq.read_table(path)
    else:
        table = pa.ipc.open_file(path).read_all()
    field = table.schema.field(0)
    json.dump(rows_of(field, table.column(0).combine_chunks()), sys.stdout)


if __name__ == "__main__":
    {"write": write, "read": read}[sys.argv[1]](sys.argv[2])
