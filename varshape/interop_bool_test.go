package varshape_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// pyWriteBools writes, with pyarrow, the storage struct of a bool
// variable-shape column (list<bool> data, rows of 3, 5, 1, 0 and 6
// elements, so that rows start at any bit, a null row, a permutation) to
// argv[1]/py.arrow and argv[1]/py.parquet with the extension keys on the
// field, and prints the rows NumPy reads from it: logical shape and
// elements, null rows as null.
const pyWriteBools = `
import json, sys
import numpy as np
import pyarrow as pa, pyarrow.ipc, pyarrow.parquet as pq

d = sys.argv[1]
perm = [1, 0]
shapes = [[1, 3], [5, 1], None, [1, 1], [0, 2], [2, 3]]
data, shape_col = [], []
for i, s in enumerate(shapes):
    if s is None:
        data.append(None)
        shape_col.append(None)
        continue
    n = int(np.prod(s))
    data.append([bool((i * 7 + k * k) % 3 == 0) for k in range(n)])
    shape_col.append(s)
storage = pa.StructArray.from_arrays(
    [pa.array(data, pa.list_(pa.bool_())), pa.array(shape_col, pa.list_(pa.int32(), 2))],
    names=["data", "shape"], mask=pa.array([s is None for s in shapes]))
field = pa.field("m", storage.type, metadata={
    "ARROW:extension:name": "arrow.variable_shape_tensor",
    "ARROW:extension:metadata": json.dumps({"permutation": perm}, separators=(",", ":"))})
table = pa.table([storage], schema=pa.schema([field]))
with pa.OSFile(d + "/py.arrow", "wb") as f, pa.ipc.new_file(f, table.schema) as w:
    w.write_table(table)
pq.write_table(table, d + "/py.parquet")
rows = []
for r in storage.to_pylist():
    if r is None:
        rows.append(None)
        continue
    a = np.asarray(r["data"], dtype=bool).reshape(r["shape"]).transpose(perm)
    rows.append({"Shape": list(a.shape), "Values": [bool(v) for v in a.reshape(-1)]})
json.dump(rows, sys.stdout)
`

// TestBoolPyarrowWritesGoReads reads the bool column pyarrow writes, IPC
// and Parquet, and compares each row with NumPy's view of it.
func TestBoolPyarrowWritesGoReads(t *testing.T) {
	dir := t.TempDir()
	var want []*boolRow
	if err := json.Unmarshal(pyrun.Run(t, pyWriteBools, nil, []string{"pyarrow", "numpy"}, dir), &want); err != nil {
		t.Fatal(err)
	}
	mem := testvec.CheckedMem(t)
	t.Run("format=ipc", func(t *testing.T) {
		f, err := os.Open(filepath.Join(dir, "py.arrow"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		col := readIPCFile(t, mem, f)
		defer col.Release()
		if err := col.Validate(); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, gotBoolRows(t, col)); diff != "" {
			t.Errorf("(-NumPy +Go):\n%s", diff)
		}
	})
	t.Run("format=parquet", func(t *testing.T) {
		var got []*boolRow
		parquetColumns(t, mem, filepath.Join(dir, "py.parquet"), func(col *varshape.Array) {
			got = append(got, gotBoolRows(t, col)...)
		})
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("(-NumPy +Go):\n%s", diff)
		}
	})
}
