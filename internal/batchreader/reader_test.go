package batchreader_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/batchreader"
)

var schema = arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int32}}, nil)

// batches returns a Next over records of the given row counts, built
// from mem, and a pointer to the number of times close ran.
func batches(mem memory.Allocator, rows ...int) (batchreader.Next, func() error, *int) {
	closed := new(int)
	next := func() (arrow.RecordBatch, error) {
		if len(rows) == 0 {
			return nil, nil
		}
		b := array.NewInt32Builder(mem)
		defer b.Release()
		for i := range rows[0] {
			b.Append(int32(i))
		}
		rows = rows[1:]
		a := b.NewArray()
		defer a.Release()
		return array.NewRecordBatch(schema, []arrow.Array{a}, int64(a.Len())), nil
	}
	return next, func() error { *closed++; return nil }, closed
}

// readRows reads r to the end and returns the row count of each batch.
func readRows(r array.RecordReader) []int64 {
	var got []int64
	for r.Next() {
		got = append(got, r.RecordBatch().NumRows())
	}
	return got
}

func TestReader(t *testing.T) {
	errBad := errors.New("bad batch")
	tests := []struct {
		name    string
		rows    []int
		check   func(arrow.RecordBatch) error
		want    []int64
		wantErr error
	}{
		{name: "none", want: nil},
		{name: "size-0 batch", rows: []int{0, 2}, want: []int64{0, 2}},
		{name: "three", rows: []int{1, 2, 3}, want: []int64{1, 2, 3}},
		{name: "checked", rows: []int{1, 2, 3}, check: func(rec arrow.RecordBatch) error {
			if rec.NumRows() == 2 {
				return errBad
			}
			return nil
		}, want: []int64{1}, wantErr: errBad},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			next, closeFn, closed := batches(mem, tc.rows...)
			if tc.check != nil {
				next = batchreader.Checked(next, tc.check)
			}
			r := batchreader.New(schema, next, closeFn)
			r.Retain()
			got := readRows(r)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			if err := r.Err(); !errors.Is(err, tc.wantErr) || (tc.wantErr == nil) != (err == nil) {
				t.Errorf("Err() = %v, want %v", err, tc.wantErr)
			}
			if r.Next() {
				t.Error("Next after the end returned true")
			}
			r.Release()
			if *closed != 0 {
				t.Fatalf("closed with a reference left")
			}
			r.Release()
			if *closed != 1 {
				t.Fatalf("closed %d times at the last Release, want 1", *closed)
			}
			if err := r.Close(); err != nil || *closed != 1 {
				t.Fatalf("Close after the last Release: %v, closed %d times", err, *closed)
			}
		})
	}
}

// TestTake checks that a reader built on what Take returns reads the
// source once, closes it once, and leaves the taken reader empty.
func TestTake(t *testing.T) {
	for _, own := range []bool{true, false} {
		name := map[bool]string{true: "batchreader", false: "other"}[own]
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			next, closeFn, closed := batches(mem, 1, 2)
			var src array.RecordReader = batchreader.New(schema, next, closeFn)
			if !own {
				src = struct{ array.RecordReader }{src} // hides the type
			}
			s, n, c := batchreader.Take(src)
			if own && src.Next() {
				t.Error("the taken reader still yields batches")
			}
			r := batchreader.New(s, n, c)
			if diff := cmp.Diff([]int64{1, 2}, readRows(r)); diff != "" {
				t.Errorf("rows (-want +got):\n%s", diff)
			}
			r.Release()
			if *closed != 1 {
				t.Errorf("source closed %d times, want 1", *closed)
			}
		})
	}
}

// TestCloseMidway checks that Close releases the current batch and
// closes the source whatever the references.
func TestCloseMidway(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	next, closeFn, closed := batches(mem, 1, 2)
	r := batchreader.New(schema, next, closeFn)
	r.Retain()
	if !r.Next() {
		t.Fatal("no first batch")
	}
	if err := r.Close(); err != nil || *closed != 1 {
		t.Fatalf("Close: %v, closed %d times", err, *closed)
	}
	if r.Next() || r.RecordBatch() != nil {
		t.Error("Next after Close yields a batch")
	}
	r.Release()
	r.Release()
	if *closed != 1 {
		t.Errorf("closed %d times, want 1", *closed)
	}
}
