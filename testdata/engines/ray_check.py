"""Ray Data reads fstensor's Parquet files as NumPy batches.

Usage: python ray_check.py DIR
DIR holds data.parquet written by fstensor (see datafusion_check.py for its
columns, and q int32 logical (3,2) stored transposed, physical elements
id*10+j). Canonical tensor support is switched on
(FixedShapeTensorFormat.ARROW_NATIVE); every batch of x and of the permuted
p must equal the tensors fstensor wrote, in logical order. Prints one JSON
line.
"""
import json
import os
import sys

import numpy as np
import pyarrow.parquet as pq
import ray
import ray.data
from ray.data._internal.tensor_extensions.arrow import FixedShapeTensorFormat

root = sys.argv[1]
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
ray.data.DataContext.get_current().arrow_fixed_shape_tensor_format = FixedShapeTensorFormat.ARROW_NATIVE
ray.data.DataContext.get_current().enable_progress_bars = False

# pyarrow's own conversion of p, which Ray uses: for a 3-cycle permutation
# its strides differ from the spec (see docs/spec-notes.md).
pa_p = pq.read_table(os.path.join(root, "data.parquet"), columns=["p"]).column("p").combine_chunks().to_numpy_ndarray()

ds = ray.data.read_parquet(os.path.join(root, "data.parquet"))
schema = ds.schema()
rows = 0
for batch in ds.iter_batches(batch_size=7, batch_format="numpy"):
    ids = batch["id"]
    x, p, q = batch["x"], batch["p"], batch["q"]
    assert x.shape == (len(ids), 4, 6) and x.dtype == np.float32, (x.shape, x.dtype)
    assert p.shape[0] == len(ids) and p.dtype == np.int16, (p.shape, p.dtype)
    for k, i in enumerate(ids):
        i = int(i)
        assert np.array_equal(x[k], (i * 100 + np.arange(24)).reshape(4, 6).astype(np.float32)), i
        # p is stored (3,4,2) with permutation [2,0,1]: logically (2,3,4),
        # numpy.transpose(physical, [2,0,1]) by the spec.
        physical = ((i * 7 + np.arange(24)) % 1000).astype(np.int16).reshape(3, 4, 2)
        logical = np.transpose(physical, [2, 0, 1])
        assert p.shape[1:] == (2, 3, 4), p.shape
        assert np.array_equal(p[k], pa_p[i]), ("as pyarrow converts it", i)
        p_form = "logical (2,3,4), " + ("values as the spec" if np.array_equal(p[k], logical) else
                                        "values as pyarrow's to_numpy_ndarray, not the spec's (3-cycle)")
        # q is stored (2,3) with permutation [1,0]: logically (3,2).
        assert q.shape[1:] == (3, 2), q.shape
        assert np.array_equal(q[k], (i * 10 + np.arange(6)).astype(np.int32).reshape(2, 3).T), ("q", i)
    rows += len(ids)
assert rows == 23, rows
print(json.dumps({"ray": ray.__version__, "rows": rows, "x": "(4,6) float32", "p": p_form, "q": "logical (3,2), values as the spec",
                  "schema": str(schema).replace("\n", "; ")}, sort_keys=True))
ray.shutdown()
