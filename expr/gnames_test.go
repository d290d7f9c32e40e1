package expr_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// TestGraphDimNames checks the dimension names of graph results: they
// follow their axes through views and reductions, element-wise
// operations keep the names their operands agree on, and a matrix
// product keeps the rows' and the columns' names.
func TestGraphDimNames(t *testing.T) {
	f32 := arrow.PrimitiveTypes.Float32
	typ := func(shape []int, names []string, perm []int) arrow.DataType {
		return fixedshape.MustNewType(f32, metadata.MustNew(shape, names, perm))
	}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: typ([]int{3, 4}, []string{"h", "w"}, nil)},
		{Name: "b", Type: typ([]int{3, 4}, []string{"h", "w"}, nil)},
		{Name: "c", Type: typ([]int{3, 4}, []string{"r", "c"}, nil)},
		{Name: "m", Type: typ([]int{4, 5}, []string{"w", "k"}, nil)},
		{Name: "p", Type: typ([]int{3, 4}, []string{"h", "w"}, []int{1, 0})}, // logical names, permuted layout
		{Name: "u", Type: typ([]int{3, 4}, nil, nil)},
		{Name: "s", Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	for _, tc := range []struct {
		text string
		want []string // nil: no names
	}{
		{"a / norm(a, axis=-1, keepdims=True)", []string{"h", "w"}},
		{"a - b", []string{"h", "w"}},
		{"a - c", nil},
		{"a - u", []string{"h", "w"}},
		{"u - u", nil},
		{"p + a", []string{"h", "w"}},
		{"a.T * 2 + b.T", []string{"w", "h"}},
		{"a.T + c.T", nil},
		{"a @ m", []string{"h", "k"}},
		{"a @ u.T", []string{"h", ""}},
		{"a[0] + b[1]", []string{"w"}},
		{"a.sum(axis=0) * b.max(axis=0)", []string{"w"}},
		{"a.mean(axis=1, keepdims=True) - b", []string{"h", "w"}},
		{"a.reshape(12) + b.reshape(12)", nil},
		{"a.reshape(1, 3, 4) + b", []string{"", "h", "w"}},
		{"a[None] + b", []string{"", "h", "w"}},
		{"stack([a, b])", []string{"", "h", "w"}},
		{"stack([a, b], axis=-1)", []string{"h", "w", ""}},
		{"concatenate([a, b], axis=1)", []string{"h", "w"}},
		{"concatenate([a, c], axis=0)", nil},
		{"a * s", []string{"h", "w"}},
		{"where(a > 0, a, b)", []string{"h", "w"}},
		{"exp(a - a.max(axis=-1, keepdims=True)).astype(float64)", []string{"h", "w"}},
		{"einsum('ij,jk->ik', a, m)", nil},
		{"a[:, 1:3] + 1", []string{"h", "w"}},
	} {
		t.Run(tc.text, func(t *testing.T) {
			p, err := expr.Compile(tc.text, schema)
			if err != nil {
				t.Fatal(err)
			}
			ft, ok := p.Schema().Field(0).Type.(*fixedshape.Type)
			if !ok {
				t.Fatalf("result type %v, want a fixed-shape type", p.Schema().Field(0).Type)
			}
			if diff := cmp.Diff(tc.want, ft.DimNames()); diff != "" {
				t.Errorf("dim names (-want +got):\n%s", diff)
			}
		})
	}
}
