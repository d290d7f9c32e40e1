"""Writes IPC and Parquet files whose tensor columns have the element types
pyarrow accepts beyond fstensor's numeric ones, beside an image tensor.

usage: mixed.py OUTDIR

OUTDIR/mixed.arrow, OUTDIR/mixed.parquet: columns
  img    fixed_shape_tensor<uint8>[2,3,2] with permutation [1,0,2]
  mask   fixed_shape_tensor<bool>[3,5] with permutation [1,0]
  dec    fixed_shape_tensor<decimal128(9,2)>[2]
  ts     fixed_shape_tensor<timestamp[us]>[2,2]
  fsb    fixed_shape_tensor<fixed_size_binary(3)>[2]
  text   fixed_shape_tensor<string>[2]
  label  int32 (not a tensor)
OUTDIR/badmeta.arrow, OUTDIR/badmeta.parquet: img, label and
  bad    fixed_size_list<int32>[2] whose field metadata names the tensor
         extension with invalid metadata (shape [3] for lists of 2);
         pyarrow itself cannot read these files back.
Rows: 3; row 1 is null in every tensor column.
OUTDIR/mixed.json: the logical values of mask (bools, row-major) and
label, for the tests to compare.
"""
import decimal
import json
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
rows = 3
valid = [True, False, True]


def tensor(value_type, shape, flat_rows, permutation=None):
    t = pa.fixed_shape_tensor(value_type, shape, permutation=permutation)
    size = int(np.prod(shape))
    vals = []
    for r in range(rows):
        vals.extend(flat_rows[r])
    storage = pa.FixedSizeListArray.from_arrays(pa.array(vals, value_type), size)
    mask = pa.array([not v for v in valid])
    storage = pa.FixedSizeListArray.from_arrays(storage.values, size, mask=mask)
    return pa.ExtensionArray.from_storage(t, storage)


img = [[(r * 12 + i) % 256 for i in range(12)] for r in range(rows)]
mask_rows = [[(r + i) % 3 == 0 for i in range(15)] for r in range(rows)]
dec = [[decimal.Decimal(f"{r}.{i}5") for i in range(2)] for r in range(rows)]
ts = [[1_700_000_000_000_000 + r * 10 + i for i in range(4)] for r in range(rows)]
fsb = [[bytes([r, i, 7]) for i in range(2)] for r in range(rows)]
text = [[f"r{r}c{i}" for i in range(2)] for r in range(rows)]

table = pa.table({
    "img": tensor(pa.uint8(), [2, 3, 2], img, permutation=[1, 0, 2]),
    "mask": tensor(pa.bool_(), [3, 5], mask_rows, permutation=[1, 0]),
    "dec": tensor(pa.decimal128(9, 2), [2], dec),
    "ts": tensor(pa.timestamp("us"), [2, 2], ts),
    "fsb": tensor(pa.binary(3), [2], fsb),
    "text": tensor(pa.string(), [2], text),
    "label": pa.array([10, 11, 12], pa.int32()),
})
bad = pa.FixedSizeListArray.from_arrays(pa.array(range(2 * rows), pa.int32()), 2)
bad_field = pa.field("bad", bad.type, metadata={
    "ARROW:extension:name": "arrow.fixed_shape_tensor",
    "ARROW:extension:metadata": '{"shape":[3]}',
})
badmeta = table.select(["img", "label"]).add_column(1, bad_field, bad)

with pa.OSFile(os.path.join(out, "mixed.arrow"), "wb") as f:
    with pa.ipc.new_file(f, table.schema) as w:
        w.write_table(table)
pq.write_table(table, os.path.join(out, "mixed.parquet"))
with pa.OSFile(os.path.join(out, "badmeta.arrow"), "wb") as f:
    with pa.ipc.new_file(f, badmeta.schema) as w:
        w.write_table(badmeta)
pq.write_table(badmeta, os.path.join(out, "badmeta.parquet"))


def logical(flat, physical_shape, permutation):
    a = np.array(flat).reshape(physical_shape)
    return a.transpose(np.argsort(permutation)).reshape(-1).tolist()


json.dump({
    # mask's physical shape is [3,5] and permutation [1,0]: logical [5,3]
    "mask": [logical(m, [3, 5], [1, 0]) if v else None for m, v in zip(mask_rows, valid)],
    "mask_physical": [m if v else None for m, v in zip(mask_rows, valid)],
    "label": [10, 11, 12],
}, open(os.path.join(out, "mixed.json"), "w"))
