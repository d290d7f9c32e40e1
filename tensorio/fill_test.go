package tensorio_test

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// TestFillNullsChecked: Create and NewWriter refuse, before creating
// anything, a WithFillNulls value that a column's element type cannot
// hold, naming the column; float columns take NaN.
func TestFillNullsChecked(t *testing.T) {
	schemaOf := func(elems ...arrow.DataType) *arrow.Schema {
		var fields []arrow.Field
		for i, dt := range elems {
			typ := fixedshape.MustNewType(dt, metadata.MustNew([]int{2, 3}, nil, nil))
			fields = append(fields, arrow.Field{Name: string(rune('a' + i)), Type: typ, Nullable: true})
		}
		return arrow.NewSchema(fields, nil)
	}
	i16, f32 := arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Float32
	tests := []struct {
		name   string
		format tensorio.Format
		schema *arrow.Schema
		fill   float64
		ok     bool
	}{
		{"npy int16 NaN", tensorio.NPY, schemaOf(i16), math.NaN(), false},
		{"npy int16 1e9", tensorio.NPY, schemaOf(i16), 1e9, false},
		{"npy int16 -1.5", tensorio.NPY, schemaOf(i16), -1.5, false},
		{"npy int16 -1", tensorio.NPY, schemaOf(i16), -1, true},
		{"npy float32 NaN", tensorio.NPY, schemaOf(f32), math.NaN(), true},
		{"npz second column int16 NaN", tensorio.NPZ, schemaOf(f32, i16), math.NaN(), false},
		{"npz float32 and int16 0", tensorio.NPZ, schemaOf(f32, i16), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out."+string(tt.format))
			w, err := tensorio.Create(path, tt.schema, tensorio.WithFillNulls(tt.fill))
			if tt.ok {
				if err != nil {
					t.Fatalf("Create: %v", err)
				}
				w.Abort()
				return
			}
			if !errors.Is(err, npy.ErrFill) || !errors.Is(err, tensorio.ErrMismatch) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Create error %v; want npy.ErrFill, ErrMismatch and arrow.ErrInvalid", err)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("Create left %d files", len(ents))
			}
			_, err = tensorio.NewWriter(io.Discard, tt.schema, tensorio.WithFormat(tt.format), tensorio.WithFillNulls(tt.fill))
			if !errors.Is(err, npy.ErrFill) {
				t.Errorf("NewWriter error %v; want npy.ErrFill", err)
			}
		})
	}
}
