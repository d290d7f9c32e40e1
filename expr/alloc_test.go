package expr_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestEvalIntoAllocs checks that EvalInto without options allocates
// nothing for a single-stage plan, whichever kernel it runs: the input is
// too small to be split across goroutines. (A multi-stage plan allocates
// its scratch buffers per call.)
func TestEvalIntoAllocs(t *testing.T) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{3, 16, 16}, nil, []int{1, 2, 0}))
	in, err := fixedshape.FromSlice(typ, make([]float32, 4*typ.ListSize()), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	tests := []struct{ name, text string }{
		{"contiguous", "x[:, 2:5]"},
		{"transpose", "x.transpose(1, 2, 0)"},
		{"3-cycle", "x.transpose(2, 0, 1)"},
		{"gather", "x[::-1, :, ::2]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := expr.MustCompilePlan(expr.MustParse(tt.text, expr.Input(typ)))
			dst := make([]byte, in.Len()*p.Metadata().Size()*4)
			allocs := testing.AllocsPerRun(20, func() {
				if err := p.EvalInto(dst, in); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("EvalInto(%s) allocates %v times per run", tt.text, allocs)
			}
		})
	}
}
