package expr_test

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestDefaultAllocator checks that an evaluation without WithAllocator
// maps a result of 4 MiB or more on huge pages (on Linux), gives the
// values a Go-heap result has, and unmaps it on Release.
func TestDefaultAllocator(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{768}, nil, nil))
	const text = "x / norm(x, axis=-1, keepdims=True)"
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ, Nullable: true}}, nil)
	p, err := expr.Compile(text, schema)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		rows   int
		mapped bool
	}{
		{"below 4 MiB", 1365, false},
		{"4 MiB or more", 1366, runtime.GOOS == "linux"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals := make([]float32, tc.rows*768)
			for i := range vals {
				vals[i] = float32(i%97) - 40
			}
			in, err := fixedshape.FromSlice(typ, vals, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Release()
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			pm, err := expr.Compile(text, schema, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			want, err := pm.EvalColumn(in)
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			before := expr.DefaultMapped()
			got, err := p.EvalColumn(in)
			if err != nil {
				t.Fatal(err)
			}
			if n := expr.DefaultMapped() - before; (n == 1) != tc.mapped {
				t.Errorf("Eval mapped %d buffers, want mapped %v", n, tc.mapped)
			}
			if !bytes.Equal(want.(*fixedshape.Array).ValueBytes(), got.(*fixedshape.Array).ValueBytes()) {
				t.Errorf("values differ from those of a Go-heap result")
			}
			got.Release()
			if n := expr.DefaultMapped() - before; n != 0 {
				t.Errorf("after Release %d buffers stay mapped", n)
			}
		})
	}
}
