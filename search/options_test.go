package search_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
)

// TestInvalidOptions: Search and Rowwise refuse an invalid option value
// before reading anything, with a *search.Error wrapping
// fstensor.ErrOption and arrow.ErrInvalid.
func TestInvalidOptions(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3}, nil, nil))
	b, err := fixedshape.NewBuilder[float32](mem, typ)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := b.Append([]float32{1, 2, 3}); err != nil {
			t.Fatal(err)
		}
	}
	col := b.NewArray()
	defer col.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(col.Len()))
	defer rec.Release()

	entries := []struct {
		name string
		call func(opts ...search.Option) error
	}{
		{"Search", func(opts ...search.Option) error {
			r, err := array.NewRecordReader(schema, []arrow.RecordBatch{rec})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Release()
			_, err = search.Search(r, col, 1, search.MetricDot, opts...)
			return err
		}},
		{"Rowwise", func(opts ...search.Option) error {
			out, err := search.Rowwise(search.MetricDot, col, col, opts...)
			if err == nil {
				out.Release()
			}
			return err
		}},
	}
	tests := []struct {
		name string
		opt  search.Option
	}{
		{"nil allocator", search.WithAllocator(nil)},
		{"negative column index", search.WithColumnIndex(-1)},
	}
	for _, e := range entries {
		t.Run(e.name+"/valid", func(t *testing.T) {
			if err := e.call(search.WithAllocator(mem), search.WithColumnIndex(0)); err != nil {
				t.Fatal(err)
			}
		})
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				err := e.call(search.WithAllocator(mem), tt.opt)
				var se *search.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &se) {
					t.Errorf("error %v, want a *search.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
				}
			})
		}
	}
}
