"""DataFusion reads fstensor's Parquet and IPC files.

Usage: python datafusion_check.py DIR
DIR holds data.parquet and data.arrow written by fstensor: id int64 (0..n-1),
x float32 (4,6) with elements id*100+j, p int16 logical (2,3,4) stored with
permutation [2,0,1], physical elements (id*7+j)%1000. A SQL query filters on
id and the tensors it returns are checked; prints one JSON line saying what
DataFusion keeps of the tensor type.
"""
import json
import os
import sys

import datafusion
import numpy as np
import pyarrow as pa

root = sys.argv[1]
# DataFusion 55 reads the tensor columns of Parquet files as their
# FixedSizeList storage (also with datafusion.execution.parquet.skip_metadata
# false); those of IPC files keep the extension type.
ctx = datafusion.SessionContext()
ctx.register_parquet("pq", os.path.join(root, "data.parquet"))
ctx.register_arrow("ipc", os.path.join(root, "data.arrow"))

kept = {"datafusion": datafusion.__version__}
for table in ["pq", "ipc"]:
    got = ctx.sql(f"SELECT id, x, p FROM {table} WHERE id % 3 = 1 AND id < 20 ORDER BY id").to_arrow_table()
    ids = got.column("id").to_numpy()
    assert list(ids) == [1, 4, 7, 10, 13, 16, 19], ids
    for name, shape, elem, want in [
        ("x", (4, 6), np.float32, lambda i: i * 100 + np.arange(24)),
        ("p", (3, 4, 2), np.int16, lambda i: (i * 7 + np.arange(24)) % 1000),
    ]:
        col = got.column(name).combine_chunks()
        typ = col.type
        ext = isinstance(typ, pa.FixedShapeTensorType)
        if ext:
            assert list(typ.shape) == list(shape), (table, name, typ.shape)
            if name == "p":
                assert list(typ.permutation) == [2, 0, 1], typ.permutation
            storage = col.storage
        else:
            storage = col
        assert pa.types.is_fixed_size_list(storage.type), (table, name, storage.type)
        values = storage.flatten().to_numpy().reshape(len(ids), 24)
        assert values.dtype == elem, values.dtype
        for row, i in zip(values, ids):
            assert np.array_equal(row, want(int(i)).astype(elem)), (table, name, i)
        field = got.schema.field(name)
        kept[f"{table}.{name}"] = "extension" if ext else (
            "field metadata" if field.metadata and b"ARROW:extension:name" in field.metadata else "storage only")
print(json.dumps(kept, sort_keys=True))
