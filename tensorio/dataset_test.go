package tensorio_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// dsShape is the shape of the tensors of the dataset tests.
var dsShape = metadata.Metadata{}

func init() {
	m, err := metadata.New([]int{2, 3}, nil, []int{1, 0})
	if err != nil {
		panic(err)
	}
	dsShape = m
}

// idBatch returns a batch of n rows: "id" counting up from first, and
// "t", 2x3 float32 tensors (permuted) whose elements start at 10*first.
func idBatch(t *testing.T, first, n int) arrow.RecordBatch {
	t.Helper()
	return batchOf(ids(first, n), tensors(t, dsShape, n, float32(10*first), nil))
}

// batchOf returns a batch of columns "id" and "t".
func batchOf(id, tens arrow.Array) arrow.RecordBatch {
	defer id.Release()
	defer tens.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: id.DataType(), Nullable: true},
		{Name: "t", Type: tens.DataType(), Nullable: true},
	}, nil)
	return array.NewRecordBatch(schema, []arrow.Array{id, tens}, int64(id.Len()))
}

// writeIDs writes rows [first, first+n) of idBatch to dir/name in
// batches of at most 3 rows, creating the directories.
func writeIDs(t *testing.T, dir, name string, first, n int) string {
	t.Helper()
	path := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := idBatch(t, first, n)
	defer rec.Release()
	var recs []arrow.RecordBatch
	for lo := 0; lo < n || lo == 0; lo += 3 {
		recs = append(recs, rec.NewSlice(int64(lo), int64(min(lo+3, n))))
	}
	defer release(recs)
	writeFile(t, path, recs)
	return path
}

// hiveDir writes a dataset of 14 rows under a new directory: Parquet and
// IPC files under label=1, label=2 and label=__HIVE_DEFAULT_PARTITION__,
// a file of no rows, and files the listing skips.
func hiveDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	writeIDs(t, dir, "label=1/part-00000.parquet", 0, 5)
	writeIDs(t, dir, "label=1/part-00001.arrow", 5, 2)
	writeIDs(t, dir, "label=2/empty.parquet", 0, 0)
	writeIDs(t, dir, "label=2/part-00000.arrow", 7, 4)
	writeIDs(t, dir, "label="+tensorio.HiveNull+"/x.parquet", 11, 3)
	for _, junk := range []string{"_SUCCESS", ".hidden.parquet", "label=1/.part-00002.parquet.tmp-1-abc", "_tmp/y.parquet", "notes.txt"} {
		p := filepath.Join(dir, filepath.FromSlash(junk))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("not data"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// scanned is what a dataset reader yields, as plain values.
type scanned struct {
	Columns []string
	IDs     []int64
	Labels  []string // "null" for null
	First   []float32
	Batches int
}

// readDataset reads every batch of r and releases it.
func readDataset(t *testing.T, r *tensorio.Reader) scanned {
	t.Helper()
	return readRecords(t, r)
}

// readRecords reads every batch of r and releases it.
func readRecords(t *testing.T, r array.RecordReader) scanned {
	t.Helper()
	defer r.Release()
	var s scanned
	for _, f := range r.Schema().Fields() {
		s.Columns = append(s.Columns, f.Name+":"+f.Type.String())
	}
	for r.Next() {
		rec := r.RecordBatch()
		s.Batches++
		for i, f := range rec.Schema().Fields() {
			col := rec.Column(i)
			for k := range col.Len() {
				switch {
				case f.Name == "id":
					s.IDs = append(s.IDs, col.(*array.Int64).Value(k))
				case f.Name == "t":
					c, err := fixedshape.ColumnOf[float32](col.(*fixedshape.Array))
					if err != nil {
						t.Fatal(err)
					}
					s.First = append(s.First, c.Tensor(k).PhysicalData()[0])
				case col.IsNull(k):
					s.Labels = append(s.Labels, "null")
				default:
					s.Labels = append(s.Labels, col.ValueStr(k))
				}
			}
		}
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return s
}

func seq(lo, hi int64) []int64 {
	var out []int64
	for i := lo; i < hi; i++ {
		out = append(out, i)
	}
	return out
}

func TestOpenDataset(t *testing.T) {
	dir := hiveDir(t)
	tensorType := "extension<arrow.fixed_shape_tensor[value_type=float, shape=[3,2], permutation=[1,0]]>"
	labels := func(spec ...any) []string { // pairs of label and count
		var out []string
		for i := 0; i < len(spec); i += 2 {
			for range spec[i+1].(int) {
				out = append(out, spec[i].(string))
			}
		}
		return out
	}
	all := []string{"id:int64", "t:" + tensorType, "label:int64"}
	stream := writeIDs(t, t.TempDir(), "s.arrows", 20, 4)
	tests := []struct {
		name string
		src  []string
		opts []tensorio.Option
		want scanned
	}{
		{
			name: "directory with Hive partitions",
			src:  []string{dir},
			want: scanned{Columns: all, IDs: seq(0, 14), Labels: labels("1", 7, "2", 4, "null", 3)},
		},
		{
			name: "glob",
			src:  []string{filepath.Join(dir, "*", "*.parquet")},
			want: scanned{Columns: all, IDs: append(seq(0, 5), seq(11, 14)...), Labels: labels("1", 5, "null", 3)},
		},
		{
			name: "glob with **",
			src:  []string{filepath.Join(dir, "**", "*.arrow")},
			want: scanned{Columns: all, IDs: seq(5, 11), Labels: labels("1", 2, "2", 4)},
		},
		{
			name: "list of files, no partitions",
			src:  []string{filepath.Join(dir, "label=2", "part-00000.arrow"), filepath.Join(dir, "label=1", "part-00000.parquet")},
			want: scanned{Columns: all[:2], IDs: append(seq(7, 11), seq(0, 5)...)},
		},
		{
			name: "IPC stream, read to count its rows",
			src:  []string{stream, filepath.Join(dir, "label=1", "part-00000.parquet")},
			opts: []tensorio.Option{tensorio.WithOffset(3), tensorio.WithLimit(4)},
			want: scanned{Columns: all[:2], IDs: []int64{23, 0, 1, 2}},
		},
		{
			name: "offset and limit across files",
			src:  []string{dir},
			opts: []tensorio.Option{tensorio.WithOffset(6), tensorio.WithLimit(6)},
			want: scanned{Columns: all, IDs: seq(6, 12), Labels: labels("1", 1, "2", 4, "null", 1)},
		},
		{
			name: "offset past the end",
			src:  []string{dir},
			opts: []tensorio.Option{tensorio.WithOffset(100)},
			want: scanned{Columns: all},
		},
		{
			name: "limit 0",
			src:  []string{dir},
			opts: []tensorio.Option{tensorio.WithLimit(0)},
			want: scanned{Columns: all},
		},
		{
			name: "projection with a partition column",
			src:  []string{dir},
			opts: []tensorio.Option{tensorio.WithColumns("label", "id"), tensorio.WithOffset(12)},
			want: scanned{Columns: []string{"label:int64", "id:int64"}, IDs: seq(12, 14), Labels: labels("null", 2)},
		},
		{
			name: "partition column only",
			src:  []string{filepath.Join(dir, "label=2")},
			opts: []tensorio.Option{tensorio.WithColumns("id")},
			want: scanned{Columns: []string{"id:int64"}, IDs: seq(7, 11)},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.OpenDataset(tt.src, append(tt.opts, tensorio.WithAllocator(mem))...)
			if err != nil {
				t.Fatal(err)
			}
			got := readDataset(t, r)
			got.Batches, got.First = 0, nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestDatasetWorkers checks that the batches do not depend on the number
// of workers, and that closing a reader before its end leaks nothing.
func TestDatasetWorkers(t *testing.T) {
	dir := hiveDir(t)
	for i := range 6 {
		writeIDs(t, dir, fmt.Sprintf("label=3/f%d.parquet", i), 100+10*i, 10)
	}
	var want scanned
	for _, workers := range []int{1, 3, 8} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.OpenDataset([]string{dir}, tensorio.WithWorkers(workers), tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			got := readDataset(t, r)
			if workers == 1 {
				want = got
				if len(got.IDs) != 74 || got.Batches < 20 {
					t.Fatalf("read %d rows in %d batches, want 74 rows", len(got.IDs), got.Batches)
				}
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-workers=1 +got)\n%s", diff)
			}
		})
		t.Run(fmt.Sprintf("workers=%d/closed early", workers), func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.OpenDataset([]string{dir}, tensorio.WithWorkers(workers), tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			for range 3 {
				r.Next()
			}
			r.Release()
		})
	}
}

func TestOpenDatasetErrors(t *testing.T) {
	dir := hiveDir(t)
	other := t.TempDir()
	writeIDs(t, other, "a.parquet", 0, 2)
	bad := filepath.Join(other, "b.parquet")
	rec := batchOf(ids(0, 2), tensors(t, metadata.Metadata{}, 2, 0, nil)) // another tensor shape
	defer rec.Release()
	writeFile(t, bad, []arrow.RecordBatch{rec})
	fewer := filepath.Join(other, "c.arrow")
	only := ids(0, 2)
	defer only.Release()
	rec2 := array.NewRecordBatch(arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true}}, nil), []arrow.Array{only}, 2)
	defer rec2.Release()
	writeFile(t, fewer, []arrow.RecordBatch{rec2})
	conflict := t.TempDir()
	writeIDs(t, conflict, "id=3/a.parquet", 0, 1)

	tests := []struct {
		name  string
		src   []string
		opts  []tensorio.Option
		want  error
		names string // a path the message names
	}{
		{name: "empty directory", src: []string{t.TempDir()}, want: tensorio.ErrNoFiles},
		{name: "glob matching nothing", src: []string{filepath.Join(dir, "*.npy")}, want: tensorio.ErrNoFiles},
		{name: "missing directory", src: []string{filepath.Join(dir, "nope")}, want: fs.ErrNotExist},
		{name: "other tensor type", src: []string{filepath.Join(other, "a.parquet"), bad}, want: tensorio.ErrSchema, names: bad},
		{name: "missing column", src: []string{filepath.Join(other, "a.parquet"), fewer}, want: tensorio.ErrSchema, names: fewer},
		{name: "extra column", src: []string{fewer, filepath.Join(other, "a.parquet")}, want: tensorio.ErrSchema, names: "a.parquet"},
		{name: "unknown column", src: []string{dir}, opts: []tensorio.Option{tensorio.WithColumns("nope")}, want: tensorio.ErrMismatch},
		{name: "column that is a partition", src: []string{conflict}, want: tensorio.ErrMismatch},
		{name: "zero workers", src: []string{dir}, opts: []tensorio.Option{tensorio.WithWorkers(0)}, want: arrow.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.OpenDataset(tt.src, append(tt.opts, tensorio.WithAllocator(mem))...)
			if err == nil {
				for r.Next() {
				}
				err = r.Err()
				r.Release()
			}
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want an error wrapping %v", err, tt.want)
			}
			if tt.want != fs.ErrNotExist && !errors.Is(err, arrow.ErrInvalid) && tt.want != tensorio.ErrNoFiles {
				t.Errorf("%v does not wrap arrow.ErrInvalid", err)
			}
			if !strings.Contains(err.Error(), tt.names) {
				t.Errorf("%v does not name %s", err, tt.names)
			}
		})
	}
}

func TestIsDatasetPath(t *testing.T) {
	dir := t.TempDir()
	star := filepath.Join(dir, "a*.arrow")
	if err := os.WriteFile(star, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		path string
		want bool
	}{
		{"directory", dir, true},
		{"glob", filepath.Join(dir, "*.parquet"), true},
		{"file with a star in its name", star, false},
		{"missing file", filepath.Join(dir, "x.arrow"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tensorio.IsDatasetPath(tt.path); got != tt.want {
				t.Errorf("IsDatasetPath(%q) = %v, want %v", tt.path, got, tt.want)
			}
		})
	}
}

func TestDatasetTake(t *testing.T) {
	dir := hiveDir(t)
	tests := []struct {
		name string
		rows []int64
		opts []tensorio.Option
		want scanned
		err  error
	}{
		{name: "across files, in the order asked", rows: []int64{13, 0, 7, 6, 7}, want: scanned{IDs: []int64{13, 0, 7, 6, 7}, Labels: []string{"null", "1", "2", "1", "2"}}},
		{name: "one file", rows: []int64{3, 1}, want: scanned{IDs: []int64{3, 1}, Labels: []string{"1", "1"}}},
		{name: "no rows", rows: []int64{}, want: scanned{}},
		{name: "projection", rows: []int64{12, 2}, opts: []tensorio.Option{tensorio.WithColumns("label", "id")}, want: scanned{IDs: []int64{12, 2}, Labels: []string{"null", "1"}}},
		{name: "partition column only", rows: []int64{8}, opts: []tensorio.Option{tensorio.WithColumns("label")}, want: scanned{Labels: []string{"2"}}},
		{name: "past the end", rows: []int64{2, 14}, err: tensorio.ErrRowRange},
		{name: "negative", rows: []int64{-1}, err: tensorio.ErrRowRange},
	}
	d, err := tensorio.NewDataset([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	r, err := d.Open()
	if err != nil {
		t.Fatal(err)
	}
	full := readDataset(t, r) // the tensor of each row
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			rec, err := d.Take(tt.rows, append(tt.opts, tensorio.WithAllocator(mem))...)
			if tt.err != nil {
				if !errors.Is(err, tt.err) {
					t.Fatalf("got %v, want an error wrapping %v", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rr, err := array.NewRecordReader(rec.Schema(), []arrow.RecordBatch{rec})
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
			got := readRecords(t, rr)
			got.Batches = 0
			if len(got.Columns) == 3 {
				for _, id := range tt.want.IDs {
					tt.want.First = append(tt.want.First, full.First[id])
				}
			}
			if len(got.First) == 0 {
				got.First = nil
			}
			got.Columns = nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestDatasetInFlight checks the memory bound of a dataset reader: with
// n workers over IPC files (whose reader decodes nothing ahead), at most
// 2n batches are decoded beside the one lent (per worker, one waiting to
// be handed out and one decoded).
func TestDatasetInFlight(t *testing.T) {
	dir := t.TempDir()
	for i := range 12 {
		writeIDs(t, dir, fmt.Sprintf("f%02d.arrow", i), 100*i, 300) // batches of 3 rows
	}
	one := checked(t)
	r, err := tensorio.Open(filepath.Join(dir, "f00.arrow"), tensorio.WithAllocator(one))
	if err != nil {
		t.Fatal(err)
	}
	r.Next()
	per := one.CurrentAlloc() // one batch
	r.Release()
	for _, workers := range []int{1, 3} {
		t.Run(fmt.Sprintf("workers=%d", workers), func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.OpenDataset([]string{dir}, tensorio.WithWorkers(workers), tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			peak := 0
			for k := 0; r.Next(); k++ {
				if k%50 == 0 {
					time.Sleep(20 * time.Millisecond) // let the workers run ahead
					peak = max(peak, mem.CurrentAlloc())
				}
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			if limit := (2*workers + 1) * per; peak > limit || peak <= per {
				t.Errorf("%d bytes in flight, want more than one batch (%d bytes) and at most %d batches (%d bytes)", peak, per, 2*workers+1, limit)
			}
		})
	}
}

// TestDatasetSkipsFiles checks that WithOffset skips whole files by their
// footers' row counts: a file whose pages are corrupt but whose footer
// is whole is not decoded when the offset passes it.
func TestDatasetSkipsFiles(t *testing.T) {
	dir := t.TempDir()
	bad := writeIDs(t, dir, "a.parquet", 0, 5)
	writeIDs(t, dir, "b.parquet", 5, 4)
	f, err := os.OpenFile(bad, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(bytes.Repeat([]byte{0xff}, 40), 4); err != nil { // the first page header
		t.Fatal(err)
	}
	f.Close()
	tests := []struct {
		name string
		opts []tensorio.Option
		want []int64 // nil: an error
	}{
		{name: "offset past the corrupt file", opts: []tensorio.Option{tensorio.WithOffset(5)}, want: seq(5, 9)},
		{name: "offset inside it", opts: []tensorio.Option{tensorio.WithOffset(4)}},
		{name: "no offset", opts: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.OpenDataset([]string{dir}, append(tt.opts, tensorio.WithAllocator(mem))...)
			if err != nil {
				if tt.want != nil || !errors.Is(err, arrow.ErrInvalid) {
					t.Fatal(err)
				}
				return
			}
			var got []int64
			for r.Next() {
				got = append(got, r.RecordBatch().Column(0).(*array.Int64).Int64Values()...)
			}
			err = r.Err()
			r.Release()
			if tt.want == nil {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("got rows %v, err %v; want the corrupt file's error", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got)\n%s", diff)
			}
		})
	}
}

// TestDatasetTakeStream takes rows of a dataset whose first file, an IPC
// stream, has no footer: it is read to count its rows.
func TestDatasetTakeStream(t *testing.T) {
	dir := t.TempDir()
	stream := writeIDs(t, dir, "s.arrows", 20, 4)
	file := writeIDs(t, dir, "f.parquet", 0, 5)
	d, err := tensorio.NewDataset([]string{stream, file})
	if err != nil {
		t.Fatal(err)
	}
	mem := checked(t)
	rec, err := d.Take([]int64{5, 0, 8, 3}, tensorio.WithAllocator(mem), tensorio.WithColumns("id"))
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if diff := cmp.Diff([]int64{1, 20, 4, 23}, rec.Column(0).(*array.Int64).Int64Values()); diff != "" {
		t.Errorf("(-want +got)\n%s", diff)
	}
	if _, err := d.Take([]int64{9}); !errors.Is(err, tensorio.ErrRowRange) {
		t.Errorf("row 9 of 9: got %v, want ErrRowRange", err)
	}
}
