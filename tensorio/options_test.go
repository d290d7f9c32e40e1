package tensorio_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// threeBatches writes batches of 4, 4 and 2 rows (ids 0..9 in column a,
// tensors in b) to a file of format f and returns its path.
func threeBatches(t *testing.T, f tensorio.Format) string {
	t.Helper()
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	var recs []arrow.RecordBatch
	for i, n := range []int{4, 4, 2} {
		id := ids(4*i, n)
		ten := tensors(t, m, n, float32(24*i), nil)
		recs = append(recs, batch(id, ten))
		id.Release()
		ten.Release()
	}
	defer release(recs)
	path := filepath.Join(t.TempDir(), "three"+extensions[f])
	writeFile(t, path, recs)
	return path
}

// TestReaderOptions checks column, row and batch selection against the
// ids of the rows, leak-checked.
func TestReaderOptions(t *testing.T) {
	for _, f := range []tensorio.Format{tensorio.IPCFile, tensorio.IPCStream, tensorio.Parquet} {
		path := threeBatches(t, f)
		for _, tt := range []struct {
			name    string
			opts    []tensorio.Option
			ids     []int64
			batches int
		}{
			{"all", nil, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 3},
			{"offset", []tensorio.Option{tensorio.WithOffset(5)}, []int64{5, 6, 7, 8, 9}, 2},
			{"limit", []tensorio.Option{tensorio.WithLimit(3)}, []int64{0, 1, 2}, 1},
			{"offset and limit across batches", []tensorio.Option{tensorio.WithOffset(3), tensorio.WithLimit(4)}, []int64{3, 4, 5, 6}, 2},
			{"limit 0", []tensorio.Option{tensorio.WithLimit(0)}, nil, 0},
			{"offset past the end", []tensorio.Option{tensorio.WithOffset(20)}, nil, 0},
			{"huge limit", []tensorio.Option{tensorio.WithOffset(8), tensorio.WithLimit(1 << 62)}, []int64{8, 9}, 1},
			{"batch rows", []tensorio.Option{tensorio.WithBatchRows(3)}, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 5},
			{"batch rows and rows", []tensorio.Option{tensorio.WithOffset(1), tensorio.WithLimit(7), tensorio.WithBatchRows(2)}, []int64{1, 2, 3, 4, 5, 6, 7}, 4},
			{"mapped", []tensorio.Option{tensorio.WithMmap()}, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 3},
		} {
			t.Run(string(f)+"/"+tt.name, func(t *testing.T) {
				mem := checked(t)
				r, err := tensorio.Open(path, append(tt.opts, tensorio.WithAllocator(mem), tensorio.WithColumns("a"))...)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Release()
				if r.Format() != f || r.Schema().NumFields() != 1 || r.Schema().Field(0).Name != "a" {
					t.Fatalf("format %s, schema %v", r.Format(), r.Schema())
				}
				var got []int64
				n := 0
				for r.Next() {
					n++
					got = append(got, r.RecordBatch().Column(0).(*array.Int64).Int64Values()...)
				}
				if err := r.Err(); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.ids, got); diff != "" {
					t.Errorf("ids (-want +got):\n%s", diff)
				}
				if f != tensorio.Parquet && n != tt.batches {
					t.Errorf("%d batches, want %d", n, tt.batches)
				}
			})
		}
	}
}

// TestEarlyClose stops reading after the first batch, by Close, Release
// or a retained batch outliving the reader, with the allocator checked.
func TestEarlyClose(t *testing.T) {
	for _, f := range tensorio.Formats() {
		var path string
		if f.TensorsOnly() {
			a := tensors(t, metadata.MustNew([]int{3}, nil, nil), 5, 0, nil)
			rec := batch(a)
			path = filepath.Join(t.TempDir(), "t"+extensions[f])
			writeFile(t, path, []arrow.RecordBatch{rec, rec})
			rec.Release()
			a.Release()
		} else {
			path = threeBatches(t, f)
		}
		for _, how := range []string{"close", "release", "retained", "unread", "split"} {
			t.Run(string(f)+"/"+how, func(t *testing.T) {
				mem := checked(t)
				opts := []tensorio.Option{tensorio.WithAllocator(mem)}
				if how == "split" {
					opts = append(opts, tensorio.WithBatchRows(1))
				}
				r, err := tensorio.Open(path, opts...)
				if err != nil {
					t.Fatal(err)
				}
				if how == "unread" {
					r.Release()
					return
				}
				if !r.Next() {
					t.Fatal(r.Err())
				}
				switch how {
				case "close", "split":
					if err := r.Close(); err != nil {
						t.Error(err)
					}
					if r.Next() {
						t.Error("Next after Close")
					}
					r.Release()
				case "release":
					r.Retain()
					r.Release()
					r.Release()
				case "retained":
					rec := r.RecordBatch()
					rec.Retain()
					r.Release()
					if rec.NumRows() == 0 {
						t.Error("empty batch")
					}
					rec.Release()
				}
			})
		}
	}
}

// TestShape reads plain FixedSizeList and list columns as tensors.
func TestShape(t *testing.T) {
	mem := checked(t)
	lb := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Float32)
	defer lb.Release()
	fb := array.NewFixedSizeListBuilder(memory.DefaultAllocator, 6, arrow.PrimitiveTypes.Float32)
	defer fb.Release()
	for i := range 3 {
		lb.Append(i != 1)
		fb.Append(true)
		for k := range 6 {
			if i != 1 {
				lb.ValueBuilder().(*array.Float32Builder).Append(float32(6*i + k))
			}
			fb.ValueBuilder().(*array.Float32Builder).Append(float32(6*i + k))
		}
	}
	l, fsl := lb.NewArray(), fb.NewArray()
	defer l.Release()
	defer fsl.Release()
	rec := batch(l, fsl, ids(0, 3))
	defer rec.Release()
	dir := t.TempDir()
	path := filepath.Join(dir, "plain.arrow")
	writeFile(t, path, []arrow.RecordBatch{rec})

	m := metadata.MustNew([]int{2, 3}, []string{"h", "w"}, nil)
	cols, _ := readAll(t, path, tensorio.WithShape(m), tensorio.WithAllocator(mem))
	defer release(cols)
	want := tensors(t, m, 3, 0, []bool{true, false, true})
	defer want.Release()
	for i, c := range cols[:2] {
		got, ok := c.(*fixedshape.Array)
		if !ok {
			t.Fatalf("column %d is %v", i, c.DataType())
		}
		w := want
		if i == 1 {
			w = tensors(t, m, 3, 0, nil)
			defer w.Release()
		}
		if !fixedshape.Equal(w, got) {
			t.Errorf("column %d: %v, want %v", i, got, w)
		}
	}
	if _, ok := cols[2].(*array.Int64); !ok {
		t.Errorf("column c is %v", cols[2].DataType())
	}
	// A list column takes any shape; a file without one fails.
	_, err := tensorio.Open(threeBatches(t, tensorio.IPCFile), tensorio.WithShape(metadata.MustNew([]int{7}, nil, nil)))
	if !errors.Is(err, tensorio.ErrMismatch) || !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("shape of no column: %v", err)
	}
}

// TestOpenErrors checks the errors of Open.
func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	arrowPath := threeBatches(t, tensorio.IPCFile)
	corrupt := filepath.Join(dir, "corrupt.arrow")
	if err := os.WriteFile(corrupt, []byte("ARROW1\x00\x00garbage, not an IPC file"), 0o644); err != nil {
		t.Fatal(err)
	}
	corruptPQ := filepath.Join(dir, "corrupt.parquet")
	if err := os.WriteFile(corruptPQ, []byte("PAR1 nothing PAR1"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		path string
		opts []tensorio.Option
		want error
	}{
		{"unknown extension", filepath.Join(dir, "x.csv"), nil, tensorio.ErrFormat},
		{"no extension", filepath.Join(dir, "x"), nil, tensorio.ErrFormat},
		{"unknown format", arrowPath, []tensorio.Option{tensorio.WithFormat("csv")}, tensorio.ErrFormat},
		{"missing file", filepath.Join(dir, "missing.arrow"), nil, fs.ErrNotExist},
		{"missing npy", filepath.Join(dir, "missing.npy"), nil, fs.ErrNotExist},
		{"single on arrow", arrowPath, []tensorio.Option{tensorio.WithSingleTensor()}, tensorio.ErrMismatch},
		{"no such column", arrowPath, []tensorio.Option{tensorio.WithColumns("a", "zz")}, tensorio.ErrMismatch},
		{"corrupt IPC file", corrupt, nil, arrow.ErrInvalid},
		{"corrupt Parquet", corruptPQ, nil, arrow.ErrInvalid},
		{"IPC file read as a stream", arrowPath, []tensorio.Option{tensorio.WithFormat(tensorio.IPCStream)}, arrow.ErrInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			err := testvec.Drain(tensorio.Open(tt.path, append(tt.opts, tensorio.WithAllocator(mem))...))
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want an error wrapping %v", err, tt.want)
			}
		})
	}
}
