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

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

var extensions = map[tensorio.Format]string{
	tensorio.IPCFile: ".arrow", tensorio.IPCStream: ".arrows", tensorio.Parquet: ".parquet",
	tensorio.NPY: ".npy", tensorio.NPZ: ".npz", tensorio.TFProto: ".pb", tensorio.ZIO: ".zio", tensorio.Decthings: ".dt",
}

// TestRoundTrip writes two batches of a tensor column in every format and
// reads them back, leak-checked on both sides.
func TestRoundTrip(t *testing.T) {
	shapes := []struct {
		name  string
		m     metadata.Metadata
		valid []bool
	}{
		{"0-D", metadata.MustNew([]int{}, nil, nil), nil},
		{"non-square", metadata.MustNew([]int{2, 3}, []string{"h", "w"}, nil), nil},
		{"3-cycle", metadata.MustNew([]int{4, 3, 2}, nil, []int{2, 0, 1}), nil},
		{"nulls", metadata.MustNew([]int{2, 2}, nil, nil), []bool{true, false, true}},
	}
	for _, f := range tensorio.Formats() {
		for _, sh := range shapes {
			t.Run(string(f)+"/"+sh.name, func(t *testing.T) {
				mem := checked(t)
				a := tensors(t, sh.m, 3, 1, sh.valid)
				defer a.Release()
				b := tensors(t, sh.m, 2, 100, nil)
				defer b.Release()
				recs := []arrow.RecordBatch{batch(a), batch(b)}
				defer release(recs)
				path := filepath.Join(t.TempDir(), "x"+extensions[f])
				var wopts []tensorio.Option
				if sh.valid != nil && (f == tensorio.NPY || f == tensorio.NPZ) {
					wopts = append(wopts, tensorio.WithFillNulls(0))
				}
				w, err := tensorio.Create(path, recs[0].Schema(), append(wopts, tensorio.WithAllocator(mem))...)
				if err != nil {
					t.Fatal(err)
				}
				for _, rec := range recs {
					if err := w.Write(rec); err != nil {
						w.Abort()
						t.Fatal(err)
					}
				}
				err = w.Close()
				if refuses := sh.valid != nil && f.TensorsOnly() && f != tensorio.NPY && f != tensorio.NPZ; refuses {
					// The format has no nulls: Close fails and leaves nothing.
					if !errors.Is(err, arrow.ErrInvalid) {
						t.Errorf("Close: %v, want an error wrapping arrow.ErrInvalid", err)
					}
					if _, serr := os.Stat(path); !errors.Is(serr, fs.ErrNotExist) {
						t.Errorf("failed Close left %s: %v", path, serr)
					}
					if tmp := leftovers(t, filepath.Dir(path)); len(tmp) > 0 {
						t.Errorf("left %v", tmp)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				cols, n := readAll(t, path, tensorio.WithAllocator(mem))
				defer release(cols)
				want, err := array.Concatenate([]arrow.Array{a, b}, memory.DefaultAllocator)
				if err != nil {
					t.Fatal(err)
				}
				defer want.Release()
				wantArr := want.(*fixedshape.Array)
				if sh.valid != nil && (f == tensorio.NPY || f == tensorio.NPZ) {
					wantArr = withoutNulls(t, wantArr) // filled with 0, as the slots are
					defer wantArr.Release()
				}
				got, ok := cols[0].(*fixedshape.Array)
				if !ok {
					t.Fatalf("column is %T", cols[0])
				}
				if !fixedshape.Equal(wantArr, got) {
					t.Errorf("read back %v, want %v", got, wantArr)
				}
				wantBatches := 2
				if f.TensorsOnly() {
					wantBatches = 1
				}
				if n != wantBatches {
					t.Errorf("%d batches, want %d", n, wantBatches)
				}
			})
		}
	}
}
