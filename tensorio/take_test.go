package tensorio_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// takeBatches returns three batches of 4, 3 and 5 rows: a (float32 2x3
// tensors, some null), b (2x3x4 tensors under the 3-cycle permutation
// [1 2 0], sliced from a longer column), c (0-D tensors) and d (strings,
// one null).
func takeBatches(t *testing.T) []arrow.RecordBatch {
	t.Helper()
	var recs []arrow.RecordBatch
	first := 0
	for _, n := range []int{4, 3, 5} {
		valid := make([]bool, n)
		for i := range valid {
			valid[i] = (first+i)%3 != 1
		}
		a := tensors(t, metadata.MustNew([]int{2, 3}, nil, nil), n, float32(100*first), valid)
		long := tensors(t, metadata.MustNew([]int{2, 3, 4}, nil, []int{1, 2, 0}), n+2, float32(-1000*first), nil)
		b := array.NewSlice(long, 1, int64(n+1))
		long.Release()
		c := tensors(t, metadata.Metadata{}, n, float32(first), nil)
		sb := array.NewStringBuilder(memory.DefaultAllocator)
		for i := range n {
			if (first+i)%5 == 2 {
				sb.AppendNull()
			} else {
				sb.Append(fmt.Sprintf("row %d", first+i))
			}
		}
		d := sb.NewArray()
		sb.Release()
		recs = append(recs, batch(a, b, c, d))
		a.Release()
		b.Release()
		c.Release()
		d.Release()
		first += n
	}
	return recs
}

func TestTake(t *testing.T) {
	recs := takeBatches(t)
	defer release(recs)
	dir := t.TempDir()
	files := map[string]string{}
	for _, ext := range []string{"arrow", "parquet", "arrows"} {
		files[ext] = filepath.Join(dir, "take."+ext)
		writeFile(t, files[ext], recs)
	}
	// Parquet in pages of one to three rows, through the page index,
	// compressed and not.
	kinds := []string{"arrow", "parquet", "arrows"}
	for _, pq := range []struct {
		name string
		opts []tensorio.Option
	}{
		{"parquet-small-pages", []tensorio.Option{tensorio.WithPageBytes(64)}},
		{"parquet-small-pages-zstd", []tensorio.Option{tensorio.WithPageBytes(64), tensorio.WithCompression(tensorio.ZSTD)}},
		{"parquet-small-pages-snappy", []tensorio.Option{tensorio.WithPageBytes(200), tensorio.WithCompression(tensorio.Snappy)}},
	} {
		files[pq.name] = filepath.Join(dir, pq.name+".parquet")
		writeFile(t, files[pq.name], recs, pq.opts...)
		kinds = append(kinds, pq.name)
	}
	tests := []struct {
		name    string
		rows    []int64
		columns []string
		err     error
	}{
		{name: "one batch", rows: []int64{1, 2}},
		{name: "across batches", rows: []int64{0, 5, 11, 3}},
		{name: "reversed", rows: []int64{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}},
		{name: "duplicated", rows: []int64{5, 5, 2, 5, 2}},
		{name: "empty", rows: []int64{}},
		{name: "first and last", rows: []int64{0, 11}},
		{name: "null rows", rows: []int64{1, 4, 7}},
		{name: "columns", rows: []int64{6, 1}, columns: []string{"d", "b"}},
		{name: "0-D column", rows: []int64{9, 3}, columns: []string{"c"}},
		{name: "out of range", rows: []int64{3, 12}, err: tensorio.ErrRowRange},
		{name: "far out of range", rows: []int64{1 << 62}, err: tensorio.ErrRowRange},
		{name: "negative", rows: []int64{0, -1}, err: tensorio.ErrRowRange},
		{name: "unknown column", rows: []int64{0}, columns: []string{"x"}, err: tensorio.ErrMismatch},
	}
	for _, ext := range kinds {
		var opts []tensorio.Option
		want, _ := readAll(t, files[ext])
		defer release(want)
		for _, tt := range tests {
			for _, via := range []string{"path", "file"} {
				t.Run(fmt.Sprintf("format=%s/via=%s/%s", ext, via, tt.name), func(t *testing.T) {
					mem := checked(t)
					opts = []tensorio.Option{tensorio.WithAllocator(mem)}
					if tt.columns != nil {
						opts = append(opts, tensorio.WithColumns(tt.columns...))
					}
					var got arrow.RecordBatch
					var err error
					if via == "path" {
						got, err = tensorio.Take(files[ext], tt.rows, opts...)
					} else {
						f, oerr := os.Open(files[ext])
						if oerr != nil {
							t.Fatal(oerr)
						}
						got, err = tensorio.TakeFile(f, files[ext], tt.rows, opts...)
					}
					if tt.err != nil {
						if !errors.Is(err, tt.err) || !errors.Is(err, arrow.ErrInvalid) {
							t.Fatalf("Take = %v, want an error wrapping %v and arrow.ErrInvalid", err, tt.err)
						}
						return
					}
					if err != nil {
						t.Fatal(err)
					}
					defer got.Release()
					names := tt.columns
					if names == nil {
						names = []string{"a", "b", "c", "d"}
					}
					if got.NumCols() != int64(len(names)) || got.NumRows() != int64(len(tt.rows)) {
						t.Fatalf("got %d columns of %d rows, want %d of %d", got.NumCols(), got.NumRows(), len(names), len(tt.rows))
					}
					for j, name := range names {
						w := want[int(name[0]-'a')]
						g := got.Column(j)
						if got.Schema().Field(j).Name != name || !arrow.TypeEqual(g.DataType(), w.DataType()) {
							t.Fatalf("column %d is %s %s, want %s %s", j, got.Schema().Field(j).Name, g.DataType(), name, w.DataType())
						}
						for i, r := range tt.rows {
							if !array.SliceEqual(w, r, r+1, g, int64(i), int64(i+1)) || w.IsNull(int(r)) != g.IsNull(i) {
								t.Errorf("column %s row %d (file row %d) differs", name, i, r)
							}
						}
					}
				})
			}
		}
	}
}

func TestTakeErrorNamesRow(t *testing.T) {
	recs := takeBatches(t)
	defer release(recs)
	path := filepath.Join(t.TempDir(), "take.arrow")
	writeFile(t, path, recs)
	_, err := tensorio.Take(path, []int64{2, 40, 30})
	want := fmt.Sprintf("tensorio: %s: row 30 is out of range: the file has 12 rows", path)
	if err == nil || err.Error() != want {
		t.Errorf("Take = %v, want %q", err, want)
	}
}

// TestTakeNPY takes rows of a .npy file, which a scan reads whole.
func TestTakeNPY(t *testing.T) {
	mem := checked(t)
	a := tensors(t, metadata.MustNew([]int{3, 2}, nil, nil), 7, 0, nil)
	defer a.Release()
	rec := batch(a)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "x.npy")
	writeFile(t, path, []arrow.RecordBatch{rec})
	rows := []int64{6, 0, 6, 3}
	got, err := tensorio.Take(path, rows, tensorio.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if got.Schema().Field(0).Name != "x" || got.NumRows() != int64(len(rows)) {
		t.Fatalf("got %v", got)
	}
	for i, r := range rows {
		if !array.SliceEqual(a, r, r+1, got.Column(0), int64(i), int64(i+1)) {
			t.Errorf("row %d is not row %d of the file", i, r)
		}
	}
	if _, err := tensorio.Take(path, []int64{7}, tensorio.WithAllocator(mem)); !errors.Is(err, tensorio.ErrRowRange) {
		t.Errorf("Take of row 7 of 7 = %v, want an error wrapping ErrRowRange", err)
	}
}

// TestTakeTruncated takes rows of a mapped IPC file truncated after it
// was mapped. Under a read lease the truncation waits while the mapping
// becomes a copy, and Take returns the rows as they were; without one
// (the file open for writing elsewhere), the reads of the pages gone fail
// Take with an error instead of killing the process.
func TestTakeTruncated(t *testing.T) {
	var recs []arrow.RecordBatch
	for k := range 3 {
		a := tensors(t, metadata.MustNew([]int{64, 64}, nil, nil), 100, float32(k), nil)
		recs = append(recs, batch(a))
		a.Release()
	}
	defer release(recs)
	rows := []int64{250, 3}
	for _, tt := range []struct {
		name     string
		unleased bool
	}{{"leased", false}, {"unleased", true}} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "big.arrow")
			writeFile(t, path, recs)
			mem := checked(t)
			want, err := tensorio.Take(path, rows, tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			leased := !tt.unleased && testvec.Leases(t, path)
			got, err := tensorio.TakeTruncated(path, rows, 4096, tt.unleased, tensorio.WithAllocator(mem))
			if !leased {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("Take of a file truncated under its mapping = %v, want an error wrapping arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Take of a leased file truncated under its mapping: %v", err)
			}
			defer got.Release()
			if !array.RecordEqual(want, got) {
				t.Error("Take of a leased file truncated under its mapping returned other rows")
			}
		})
	}
}
