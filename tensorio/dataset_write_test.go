package tensorio_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/tensorio"
)

// labeled returns a batch of n rows from first: "id", "t" (idBatch's) and
// "label", id%3 but null where id%7 == 3.
func labeled(t *testing.T, mem memory.Allocator, first, n int) arrow.RecordBatch {
	t.Helper()
	rec := idBatch(t, first, n)
	defer rec.Release()
	b := array.NewInt64Builder(mem)
	defer b.Release()
	for i := first; i < first+n; i++ {
		if i%7 == 3 {
			b.AppendNull()
		} else {
			b.Append(int64(i % 3))
		}
	}
	label := b.NewArray()
	defer label.Release()
	schema := arrow.NewSchema(append(rec.Schema().Fields(), arrow.Field{Name: "label", Type: arrow.PrimitiveTypes.Int64, Nullable: true}), nil)
	return array.NewRecordBatch(schema, []arrow.Array{rec.Column(0), rec.Column(1), label}, int64(n))
}

// wantLabels returns the labels of rows [0, n) of labeled, as
// readDataset gives them, by id.
func wantLabels(n int) map[int64]string {
	out := map[int64]string{}
	for i := range n {
		if i%7 == 3 {
			out[int64(i)] = "null"
		} else {
			out[int64(i)] = fmt.Sprint(i % 3)
		}
	}
	return out
}

// byID returns the labels of s by id.
func byID(s scanned) map[int64]string {
	out := map[int64]string{}
	for i, id := range s.IDs {
		out[id] = s.Labels[i]
	}
	return out
}

func TestCreateDataset(t *testing.T) {
	tests := []struct {
		name      string
		opts      []tensorio.Option
		files     []string
		maxRows   int64 // of any file
		withLabel bool
	}{
		{
			name:  "one file",
			files: []string{"part-00000.parquet"},
		},
		{
			name:    "split by size",
			opts:    []tensorio.Option{tensorio.WithTargetFileSize(400)}, // 10 rows of 40 bytes
			files:   []string{"part-00000.parquet", "part-00001.parquet", "part-00002.parquet"},
			maxRows: 10,
		},
		{
			name:      "partitioned, split by size, IPC",
			opts:      []tensorio.Option{tensorio.WithPartitionBy("label"), tensorio.WithTargetFileSize(160), tensorio.WithFormat(tensorio.IPCFile)},
			files:     []string{"label=0/part-00000.arrow", "label=0/part-00001.arrow", "label=1/part-00000.arrow", "label=1/part-00001.arrow", "label=2/part-00000.arrow", "label=2/part-00001.arrow", "label=__HIVE_DEFAULT_PARTITION__/part-00000.arrow"},
			maxRows:   5,
			withLabel: true,
		},
		{
			name:      "partitioned",
			opts:      []tensorio.Option{tensorio.WithPartitionBy("label")},
			files:     []string{"label=0/part-00000.parquet", "label=1/part-00000.parquet", "label=2/part-00000.parquet", "label=__HIVE_DEFAULT_PARTITION__/part-00000.parquet"},
			withLabel: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			dir := filepath.Join(t.TempDir(), "out")
			a, b := labeled(t, mem, 0, 17), labeled(t, mem, 17, 13)
			defer a.Release()
			defer b.Release()
			w, err := tensorio.CreateDataset(dir, a.Schema(), append(tt.opts, tensorio.WithAllocator(mem))...)
			if err != nil {
				t.Fatal(err)
			}
			testvec.WriteAll(t, w, a, b)
			if diff := cmp.Diff(tt.files, w.Files()); diff != "" {
				t.Errorf("Files (-want +got)\n%s", diff)
			}
			if tt.maxRows > 0 {
				for _, f := range tt.files {
					r, err := tensorio.Open(filepath.Join(dir, f))
					if err != nil {
						t.Fatal(err)
					}
					if got := readDataset(t, r); int64(len(got.IDs)) > tt.maxRows {
						t.Errorf("%s holds %d rows, want at most %d", f, len(got.IDs), tt.maxRows)
					}
				}
			}
			r, err := tensorio.OpenDataset([]string{dir}, tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			got := readDataset(t, r)
			if len(got.IDs) != 30 {
				t.Fatalf("read %d rows back, want 30", len(got.IDs))
			}
			if !tt.withLabel {
				got.Labels = got.Labels[:0]
				for range got.IDs {
					got.Labels = append(got.Labels, "x")
				}
				if !slices.Equal(got.IDs, seq(0, 30)) {
					t.Errorf("ids %v, want 0..29 in order", got.IDs)
				}
				return
			}
			if diff := cmp.Diff(wantLabels(30), byID(got)); diff != "" {
				t.Errorf("labels (-want +got)\n%s", diff)
			}
		})
	}
}

func TestCreateDatasetErrors(t *testing.T) {
	rec := labeled(t, memory.DefaultAllocator, 0, 4)
	defer rec.Release()
	full := t.TempDir()
	if err := os.WriteFile(filepath.Join(full, "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		dir  string
		opts []tensorio.Option
		want error
	}{
		{name: "directory not empty", dir: full, want: fs.ErrExist},
		{name: "unknown partition column", opts: []tensorio.Option{tensorio.WithPartitionBy("nope")}, want: tensorio.ErrMismatch},
		{name: "tensor partition column", opts: []tensorio.Option{tensorio.WithPartitionBy("t")}, want: tensorio.ErrMismatch},
		{name: "every column a partition", opts: []tensorio.Option{tensorio.WithPartitionBy("id", "label")}, want: nil},
		{name: "format of single tensors", opts: []tensorio.Option{tensorio.WithFormat(tensorio.NPY)}, want: tensorio.ErrMismatch},
		{name: "negative size", opts: []tensorio.Option{tensorio.WithTargetFileSize(-1)}, want: arrow.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := tt.dir
			if dir == "" {
				dir = filepath.Join(t.TempDir(), "out")
			}
			w, err := tensorio.CreateDataset(dir, rec.Schema(), tt.opts...)
			if tt.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				w.Abort()
				return
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want an error wrapping %v", err, tt.want)
			}
			if _, err := os.Stat(dir); tt.dir == "" && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the refused dataset %s exists (%v)", dir, err)
			}
		})
	}
}

// TestCreateDatasetAbort checks that a failing write removes every file
// of the dataset and leaves the files that were there.
func TestCreateDatasetAbort(t *testing.T) {
	mem := checked(t)
	rec := labeled(t, mem, 0, 30)
	defer rec.Release()
	for _, add := range []bool{false, true} {
		t.Run(fmt.Sprintf("add=%v", add), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			var before []string
			opts := []tensorio.Option{tensorio.WithPartitionBy("label"), tensorio.WithTargetFileSize(100), tensorio.WithAllocator(mem)}
			if add {
				writeIDs(t, dir, "label=1/part-00000.parquet", 0, 2)
				before = []string{"label=1"}
				opts = append(opts, tensorio.WithAddFiles())
			}
			writes := 0
			defer tensorio.SetTestHook(func(op string) {
				if op != "write" {
					return
				}
				if writes++; writes == 6 {
					panic("disk on fire")
				}
			})()
			w, err := tensorio.CreateDataset(dir, rec.Schema(), opts...)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Write(rec); !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Write: got %v, want the panic as an error", err)
			}
			if !add {
				if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("%s is left (%v)", dir, err)
				}
				return
			}
			if diff := cmp.Diff(before, testvec.DirNames(t, dir)); diff != "" {
				t.Errorf("dataset directory (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff([]string{"part-00000.parquet"}, testvec.DirNames(t, filepath.Join(dir, "label=1"))); diff != "" {
				t.Errorf("label=1 (-want +got)\n%s", diff)
			}
		})
	}
}

// TestCreateDatasetAddFiles checks that added files take new numbers.
func TestCreateDatasetAddFiles(t *testing.T) {
	dir := t.TempDir()
	writeIDs(t, dir, "label=1/part-00007.parquet", 100, 2)
	rec := labeled(t, memory.DefaultAllocator, 0, 6)
	defer rec.Release()
	w, err := tensorio.CreateDataset(dir, rec.Schema(), tensorio.WithPartitionBy("label"), tensorio.WithAddFiles())
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	want := []string{"label=0/part-00000.parquet", "label=1/part-00008.parquet", "label=2/part-00000.parquet", "label=__HIVE_DEFAULT_PARTITION__/part-00000.parquet"}
	if diff := cmp.Diff(want, w.Files()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	r, err := tensorio.OpenDataset([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if got := readDataset(t, r); len(got.IDs) != 8 {
		t.Errorf("read %d rows, want 8", len(got.IDs))
	}
}

// TestCreateDatasetStrings partitions by a string column whose values
// need escaping in a directory name, and reads them back.
func TestCreateDatasetStrings(t *testing.T) {
	mem := checked(t)
	values := []string{"a/b", "x y", "50%", "k=v", "a/b", "é"}
	b := array.NewStringBuilder(mem)
	defer b.Release()
	b.AppendValues(values, nil)
	b.AppendNull()
	s := b.NewArray()
	defer s.Release()
	id := ids(0, len(values)+1)
	defer id.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "id", Type: id.DataType(), Nullable: true}, {Name: "s", Type: s.DataType(), Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{id, s}, int64(s.Len()))
	defer rec.Release()
	dir := t.TempDir()
	w, err := tensorio.CreateDataset(dir, schema, tensorio.WithPartitionBy("s"), tensorio.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	want := []string{"s=50%25/part-00000.parquet", "s=__HIVE_DEFAULT_PARTITION__/part-00000.parquet", "s=a%2Fb/part-00000.parquet", "s=k%3Dv/part-00000.parquet", "s=x%20y/part-00000.parquet", "s=%C3%A9/part-00000.parquet"}
	slices.Sort(want)
	if diff := cmp.Diff(want, w.Files()); diff != "" {
		t.Errorf("files (-want +got)\n%s", diff)
	}
	r, err := tensorio.OpenDataset([]string{dir}, tensorio.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	got := map[int64]string{}
	for r.Next() {
		rec := r.RecordBatch()
		for i := range int(rec.NumRows()) {
			got[rec.Column(0).(*array.Int64).Value(i)] = rec.Column(1).ValueStr(i)
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	r.Release()
	wantRows := map[int64]string{6: array.NullValueStr}
	for i, v := range values {
		wantRows[int64(i)] = v
	}
	if diff := cmp.Diff(wantRows, got); diff != "" {
		t.Errorf("rows (-want +got)\n%s", diff)
	}
}
