"""Interop checks of fstensor's Arrow files against pyarrow and numpy.

Driven by arrowipc/interop_test.go:

  interop.py check MANIFEST   read the files Go wrote, check type, physical
                              shape, permutation, dim names, nulls and every
                              logical value; exit 1 with a message on a mismatch
  interop.py write DIR        write files with pyarrow into DIR and a
                              manifest.json describing what Go must read

Logical values are always derived from the raw storage and numpy.transpose
(logical = transpose(physical, perm), batch axis first), because pyarrow's own
to_numpy_ndarray is wrong for permutations that are not their own inverse.
pyarrow's conversion is compared only for self-inverse permutations.
"""
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.ipc as ipc


def logical(arr):
    """Logical values (n, *logical_shape) of a FixedShapeTensorArray, via storage."""
    t = arr.type
    phys = list(t.shape)
    perm = list(t.permutation) if t.permutation is not None else list(range(len(phys)))
    flat = arr.storage.flatten().to_numpy(zero_copy_only=False)
    # flatten() skips the elements of null lists' slots only when they are
    # not in the child; FixedSizeList flatten keeps the elements of valid
    # lists only, so rebuild with nulls zero-filled.
    n = len(arr)
    size = int(np.prod(phys)) if phys else 1
    full = np.zeros(n * size, dtype=flat.dtype)
    valid = [arr.storage[i].is_valid for i in range(n)]
    k = 0
    for i in range(n):
        if valid[i]:
            full[i * size:(i + 1) * size] = flat[k * size:(k + 1) * size]
            k += 1
    physical = full.reshape([n] + phys)
    return np.transpose(physical, [0] + [p + 1 for p in perm]), valid


def self_inverse(perm):
    return all(perm[perm[i]] == i for i in range(len(perm)))


def read_table(path, fmt):
    if fmt == "stream":
        with ipc.open_stream(path) as r:
            return r.read_all()
    with ipc.open_file(path) as r:
        return r.read_all()


def fail(msg):
    print(msg)
    sys.exit(1)


def check(manifest_path):
    with open(manifest_path) as f:
        manifest = json.load(f)
    checked = 0
    for entry in manifest["files"]:
        table = read_table(entry["path"], entry["format"])
        for col in entry["columns"]:
            where = "%s %s" % (entry["path"], col["name"])
            chunked = table.column(col["name"])
            t = chunked.type
            if not isinstance(t, pa.FixedShapeTensorType):
                fail("%s: type %s is not a fixed_shape_tensor" % (where, t))
            if str(t.value_type) != col["value_type"]:
                fail("%s: value type %s, want %s" % (where, t.value_type, col["value_type"]))
            if list(t.shape) != col["physical_shape"]:
                fail("%s: shape %s, want %s" % (where, list(t.shape), col["physical_shape"]))
            perm = list(t.permutation) if t.permutation is not None else None
            want_perm = col["permutation"]
            if (perm or list(range(len(t.shape)))) != (want_perm or list(range(len(t.shape)))):
                fail("%s: permutation %s, want %s" % (where, perm, want_perm))
            names = list(t.dim_names) if t.dim_names is not None else None
            if names != col["dim_names"]:
                fail("%s: dim_names %s, want %s" % (where, names, col["dim_names"]))
            arr = chunked.combine_chunks() if chunked.num_chunks != 1 else chunked.chunk(0)
            vals, valid = logical(arr)
            want = col["values"]
            if len(want) != len(arr):
                fail("%s: %d tensors, want %d" % (where, len(arr), len(want)))
            for i, w in enumerate(want):
                if (w is None) != (not valid[i]):
                    fail("%s: tensor %d null=%s, want %s" % (where, i, not valid[i], w is None))
                if w is None:
                    continue
                got = vals[i].astype(np.float64).ravel()
                if not np.array_equal(got, np.array(w, dtype=np.float64)):
                    fail("%s: tensor %d = %s, want %s" % (where, i, got.tolist(), w))
            if arr.null_count == 0 and self_inverse(perm or list(range(len(t.shape)))):
                nd = arr.to_numpy_ndarray()
                if not np.array_equal(nd, vals):
                    fail("%s: to_numpy_ndarray disagrees with storage+transpose" % where)
            checked += 1
    print("checked %d columns" % checked)


def column_entry(name, arr):
    vals, valid = logical(arr)
    t = arr.type
    return {
        "name": name,
        "value_type": str(t.value_type),
        "physical_shape": list(t.shape),
        "permutation": list(t.permutation) if t.permutation is not None else None,
        "dim_names": list(t.dim_names) if t.dim_names is not None else None,
        "values": [vals[i].astype(np.float64).ravel().tolist() if valid[i] else None for i in range(len(arr))],
    }


def write(out):
    rng = np.arange
    cols = {}
    # C order, Fortran order and a transposed view through from_numpy_ndarray.
    c = rng(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    cols["c_order"] = pa.FixedShapeTensorArray.from_numpy_ndarray(c)
    # Each tensor in Fortran order (pyarrow needs the batch stride largest).
    f3 = rng(2 * 5 * 4 * 3, dtype=np.int16).reshape(2, 5, 4, 3).transpose(0, 3, 2, 1)
    cols["fortran"] = pa.FixedShapeTensorArray.from_numpy_ndarray(f3)
    tr = rng(2 * 3 * 4 * 5, dtype=np.int64).reshape(2, 3, 4, 5).transpose(0, 2, 3, 1)
    cols["transposed"] = pa.FixedShapeTensorArray.from_numpy_ndarray(tr)
    # Explicit types: a 3-cycle, a 4-D permutation, names, 0-D, nulls.
    def explicit(vt, shape, perm=None, names=None, n=3, nulls=()):
        typ = pa.fixed_shape_tensor(vt, shape, dim_names=names, permutation=perm)
        size = int(np.prod(shape)) if shape else 1
        storage = pa.array(
            [None if i in nulls else list(range(i * size, (i + 1) * size)) for i in range(n)],
            pa.list_(vt, size))
        return pa.ExtensionArray.from_storage(typ, storage)
    cols["cycle"] = explicit(pa.uint8(), [3, 4, 2], perm=[2, 0, 1], names=["a", "b", "c"])
    cols["perm4"] = explicit(pa.float64(), [2, 3, 4, 5], perm=[3, 1, 0, 2])
    cols["scalar"] = explicit(pa.int32(), [], n=3)
    cols["nulls"] = explicit(pa.uint32(), [2, 2], n=4, nulls=(1, 3))
    cols["f16"] = explicit(pa.float16(), [2], n=3)
    cols["i8"] = explicit(pa.int8(), [5], n=3)
    cols["u16"] = explicit(pa.uint16(), [1, 2, 1, 2, 1], n=3)
    cols["u64"] = explicit(pa.uint64(), [2, 1], n=3)
    n = 2
    manifest = {"files": []}
    table = pa.table({k: v.slice(0, n) if len(v) > n else v for k, v in cols.items() if len(v) == n or len(v) > n})
    # a sliced array
    sliced = explicit(pa.int64(), [2, 3], perm=[1, 0], n=5).slice(2, 2)
    table = table.append_column("sliced", sliced)
    entries = [column_entry(name, table.column(name).chunk(0)) for name in table.column_names]
    for fmt, comp in [("file", None), ("file", "lz4"), ("file", "zstd"), ("stream", "zstd")]:
        path = "%s/py_%s_%s.arrow" % (out, fmt, comp or "none")
        opts = ipc.IpcWriteOptions(compression=comp)
        w = ipc.new_file(path, table.schema, options=opts) if fmt == "file" else ipc.new_stream(path, table.schema, options=opts)
        for batch in table.to_batches(max_chunksize=1):
            w.write_batch(batch)
        w.close()
        manifest["files"].append({"path": path, "format": fmt, "columns": entries})
    # pyarrow's own conversion of the transposed array, for the record.
    manifest["from_numpy"] = {
        "transposed_source_perm": [0, 2, 3, 1],
        "stored_permutation": list(cols["transposed"].type.permutation),
        "values_equal_ndarray": bool(np.array_equal(logical(cols["transposed"])[0], tr)),
        "fortran_stored_permutation": list(cols["fortran"].type.permutation),
        "fortran_values_equal_ndarray": bool(np.array_equal(logical(cols["fortran"])[0], f3)),
    }
    with open(out + "/manifest.json", "w") as f:
        json.dump(manifest, f)
    print("wrote %d files" % len(manifest["files"]))


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2])
    elif sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        fail("usage: interop.py check MANIFEST | write DIR")
