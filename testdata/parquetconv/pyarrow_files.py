"""Writes Parquet files with tensor and list columns the way pyarrow, DuckDB
and polars write them, into the directory given as the first argument, and
a manifest.json describing, per file and column, what pyarrow reads back:
for every row whether it is valid and the little-endian bytes of its
elements (in files/<name>.<column>.bin, valid rows concatenated).

Used by parquetconv's reader tests (read_interop_test.go); modules:
pyarrow, numpy, and optionally duckdb and polars (skipped when missing).
"""
import json
import os
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

out = sys.argv[1]
rng = np.random.default_rng(7)
ROWS = 11


def tensor_column(dtype, shape, perm=None, nulls=None):
    n = int(np.prod(shape))
    if np.dtype(dtype).kind == "f":
        vals = rng.standard_normal(ROWS * n).astype(dtype)
        if np.dtype(dtype) == np.float32 and vals.size > 3:
            vals[0] = -0.0
            vals[1] = np.frombuffer(np.uint32(0x7FC00001).tobytes(), np.float32)[0]
            vals[2] = np.inf
    else:
        info = np.iinfo(dtype)
        vals = rng.integers(info.min, info.max, ROWS * n, dtype=dtype, endpoint=True)
        vals[0], vals[-1] = info.min, info.max
    typ = pa.fixed_shape_tensor(pa.from_numpy_dtype(np.dtype(dtype)), shape, permutation=perm)
    mask = None
    if nulls is not None:
        mask = pa.array([nulls(i) for i in range(ROWS)])
    storage = pa.FixedSizeListArray.from_arrays(pa.array(vals), n, mask=mask)
    return pa.ExtensionArray.from_storage(typ, storage)


def base_table(nulls=None):
    return pa.table({
        "id": pa.array(range(ROWS), pa.int32()),
        "f32": tensor_column(np.float32, [2, 3], nulls=nulls),
        "f64": tensor_column(np.float64, [3], nulls=nulls),
        "u8": tensor_column(np.uint8, [3, 4], perm=[1, 0]),
        "i8": tensor_column(np.int8, [2, 2]),
        "i16": tensor_column(np.int16, [5]),
        "u16": tensor_column(np.uint16, [2, 3, 4], perm=[2, 0, 1]),
        "i32": tensor_column(np.int32, [1]),
        "u32": tensor_column(np.uint32, [4]),
        "i64": tensor_column(np.int64, [2]),
        "u64": tensor_column(np.uint64, [3]),
        "f16": tensor_column(np.float16, [4]),
        "label": pa.array([None if i % 4 == 0 else "row%d" % i for i in range(ROWS)]),
    })


manifest = []
os.makedirs(os.path.join(out, "files"), exist_ok=True)


def describe(name, fast, note="", fallback=False):
    path = os.path.join(out, name + ".parquet")
    t = pq.read_table(path)
    cols = []
    for cname in t.column_names:
        col = t.column(cname).combine_chunks()
        if isinstance(col, pa.ExtensionArray):
            col = col.storage
        if not (pa.types.is_fixed_size_list(col.type) or pa.types.is_list(col.type) or pa.types.is_large_list(col.type)):
            continue
        valid, lengths, chunks = [], [], []
        for i in range(len(col)):
            if not col[i].is_valid:
                valid.append(False)
                lengths.append(0)
                continue
            v = col[i].values
            b = v.to_numpy(zero_copy_only=False).tobytes()
            valid.append(True)
            lengths.append(len(b))
            chunks.append(b)
        bin_name = "%s.%s.bin" % (name, cname)
        with open(os.path.join(out, "files", bin_name), "wb") as f:
            f.write(b"".join(chunks))
        cols.append({"name": cname, "valid": valid, "lengths": lengths, "data": bin_name})
    manifest.append({"file": name + ".parquet", "fast": fast, "fallback": fallback, "note": note, "rows": t.num_rows, "columns": cols})


def write(name, table, fast=True, **kw):
    pq.write_table(table, os.path.join(out, name + ".parquet"), **kw)
    describe(name, fast, fallback=not fast)


t = base_table()
write("default", t)  # dictionary pages, data page v1, snappy
write("v2", t, data_page_version="2.0")
for codec in ["none", "snappy", "gzip", "lz4", "zstd"]:
    write("codec_" + codec, t, compression=codec)
    write("codec_%s_v2" % codec, t, compression=codec, data_page_version="2.0")
write("plain", t, use_dictionary=False)
write("bss", t, use_dictionary=False, use_byte_stream_split=["f32", "f64"])
write("bss_v2_zstd", t, use_dictionary=False, use_byte_stream_split=["f32", "f64"], compression="zstd", data_page_version="2.0")
write("small_rowgroups", t, row_group_size=3)
# DELTA_BINARY_PACKED is not on the reader's fast path: pqarrow decodes
# those column chunks.
write("delta", t, fast=False, use_dictionary=False,
      column_encoding={c + ".list.element": "DELTA_BINARY_PACKED" for c in ["i32", "i64", "u32"]})
write("small_pages", t, data_page_size=64, use_dictionary=False)
write("small_pages_dict", t, data_page_size=64, write_batch_size=2)
nt = base_table(nulls=lambda i: i % 3 == 1)
write("nulls", nt)
write("nulls_plain_v2", nt, use_dictionary=False, data_page_version="2.0")
write("all_null", base_table(nulls=lambda i: True))

# A FixedSizeList with a non-nullable child, marked as a tensor through the
# extension keys in its field metadata.
nn_type = pa.list_(pa.field("item", pa.float32(), nullable=False), 6)
nn_vals = pa.array(rng.standard_normal(ROWS * 6).astype(np.float32))
nn = pa.FixedSizeListArray.from_arrays(nn_vals, type=nn_type)
nn_field = pa.field("nn", nn_type, nullable=False, metadata={
    "ARROW:extension:name": "arrow.fixed_shape_tensor",
    "ARROW:extension:metadata": '{"shape":[2,3]}',
})
write("non_nullable_child", pa.table([nn], schema=pa.schema([nn_field])))

try:
    import duckdb

    path = os.path.join(out, "duckdb.parquet")
    duckdb.sql(
        "COPY (SELECT i::INTEGER AS id, [i::FLOAT, i * 0.5, -i] AS v, "
        "CASE WHEN i %% 3 = 1 THEN NULL ELSE [i::BIGINT, 7] END AS w FROM range(%d) t(i)) TO '%s' (FORMAT PARQUET)"
        % (ROWS, path)
    )
    describe("duckdb", False, "duckdb")
except ImportError:
    pass

try:
    import polars as pl

    df = pl.DataFrame({
        "id": list(range(ROWS)),
        "v": [[float(i), i * 0.25, -1.5, 2.0] for i in range(ROWS)],
    }, schema={"id": pl.Int32, "v": pl.Array(pl.Float32, 4)})
    df.write_parquet(os.path.join(out, "polars.parquet"))
    describe("polars", False, "polars")
except ImportError:
    pass

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f)
