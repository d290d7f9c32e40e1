package tensorio_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/tensorio"
)

// engineRows is what the scripts print of a dataset: per row by id, the
// label (null as "null") and the first stored element of its tensor.
type engineRows struct {
	Type   string             `json:"type"`
	Labels map[string]string  `json:"labels"`
	First  map[string]float64 `json:"first"`
}

// Each script prints engineRows for the dataset sys.argv[1].
const (
	pyarrowScript = `
import json, sys
import pyarrow.dataset as ds
t = ds.dataset(sys.argv[1], format="parquet", partitioning="hive").to_table()
ids = t.column("id").to_pylist()
labels = t.column("label").to_pylist()
first = [s[0] for s in t.column("t").combine_chunks().storage.to_pylist()]
print(json.dumps({"type": str(t.schema.field("t").type),
    "labels": {str(i): "null" if l is None else str(l) for i, l in zip(ids, labels)},
    "first": {str(i): f for i, f in zip(ids, first)}}))
`
	polarsScript = `
import json, sys
import polars as pl
t = pl.scan_parquet(sys.argv[1] + "/**/*.parquet", hive_partitioning=True).collect()
print(json.dumps({"type": "",
    "labels": {str(i): "null" if l is None else str(l) for i, l in zip(t["id"], t["label"])},
    "first": {str(i): list(v)[0] for i, v in zip(t["id"], t["t"])}}))
`
	duckdbScript = `
import json, sys
import duckdb
rows = duckdb.sql("select id, label, t[1] from read_parquet('" + sys.argv[1] + "/**/*.parquet', hive_partitioning=true)").fetchall()
print(json.dumps({"type": "",
    "labels": {str(i): "null" if l is None else str(l) for i, l, _ in rows},
    "first": {str(i): f for i, _, f in rows}}))
`
	rayScript = `
import json, sys
import ray, ray.data
from ray.data._internal.tensor_extensions.arrow import FixedShapeTensorFormat
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
ctx = ray.data.DataContext.get_current()
ctx.arrow_fixed_shape_tensor_format = FixedShapeTensorFormat.ARROW_NATIVE
ctx.enable_progress_bars = False
d = ray.data.read_parquet(sys.argv[1], partitioning=ray.data.datasource.Partitioning("hive"))
labels, first = {}, {}
for b in d.iter_batches(batch_size=7, batch_format="numpy"):
    for k, i in enumerate(b["id"]):
        l = b["label"][k]
        # Ray's own Hive parser keeps the text of the null directory.
        labels[str(i)] = "null" if l is None or l == "__HIVE_DEFAULT_PARTITION__" else str(l)
        first[str(i)] = float(b["t"][k].flat[0])
print(json.dumps({"type": "", "labels": labels, "first": first}))
ray.shutdown()
`
)

// TestCreateDatasetEngines writes a partitioned dataset and reads it back
// with pyarrow.dataset, polars, DuckDB and Ray Data (not with -short): the
// same rows, labels and tensor elements, and for pyarrow the tensor type.
func TestCreateDatasetEngines(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	rec := labeled(t, memory.DefaultAllocator, 0, 30)
	defer rec.Release()
	w, err := tensorio.CreateDataset(dir, rec.Schema(), tensorio.WithPartitionBy("label"), tensorio.WithTargetFileSize(200))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	r, err := tensorio.OpenDataset([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	own := readDataset(t, r)
	want := engineRows{Labels: map[string]string{}, First: map[string]float64{}}
	for i, id := range own.IDs {
		want.Labels[jsonKey(id)] = own.Labels[i]
		want.First[jsonKey(id)] = float64(own.First[i])
	}
	tests := []struct {
		name     string
		module   string
		script   string
		wantType string
	}{
		{"pyarrow", "pyarrow.dataset", pyarrowScript, "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3,2], permutation=[1,0]]>"},
		{"polars", "polars", polarsScript, ""},
		{"duckdb", "duckdb", duckdbScript, ""},
		{"ray", "ray.data", rayScript, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.name == "ray" && testing.Short() {
				t.Skip("starts a Ray runtime (about 30 s)")
			}
			out := pyrun.Run(t, tt.script, nil, []string{tt.module}, dir)
			var got engineRows
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			want.Type = tt.wantType
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-fstensor +%s)\n%s", tt.name, diff)
			}
		})
	}
}

// TestOpenDatasetOfPyarrow reads a dataset that pyarrow.dataset wrote,
// partitioned by a string and an integer column.
func TestOpenDatasetOfPyarrow(t *testing.T) {
	dir := t.TempDir()
	pyrun.Run(t, `
import sys
import numpy as np, pyarrow as pa, pyarrow.dataset as ds
n = 12
typ = pa.fixed_shape_tensor(pa.float32(), [2, 2])
t = pa.table({"id": pa.array(range(n), pa.int64()),
    "t": pa.ExtensionArray.from_storage(typ, pa.array([[float(i)] * 4 for i in range(n)], pa.list_(pa.float32(), 4))),
    "k": pa.array([i % 2 for i in range(n)], pa.int32()),
    "s": pa.array(["a b" if i % 3 else None for i in range(n)])})
ds.write_dataset(t, sys.argv[1], format="parquet", partitioning=["k", "s"], partitioning_flavor="hive")
`, nil, []string{"pyarrow.dataset", "numpy"}, dir)
	mem := checked(t)
	r, err := tensorio.OpenDataset([]string{dir}, tensorio.WithAllocator(mem), tensorio.WithColumns("id", "k", "s"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64][2]string{}
	defer r.Release()
	for r.Next() {
		rec := r.RecordBatch()
		for i := range int(rec.NumRows()) {
			got[rec.Column(0).(interface{ Value(int) int64 }).Value(i)] = [2]string{rec.Column(1).ValueStr(i), rec.Column(2).ValueStr(i)}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := map[int64][2]string{}
	for i := range int64(12) {
		s := "a b"
		if i%3 == 0 {
			s = "(null)"
		}
		want[i] = [2]string{jsonKey(i % 2), s}
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-pyarrow +got)\n%s", diff)
	}
}

func jsonKey(i int64) string {
	b, _ := json.Marshal(i)
	return string(b)
}
