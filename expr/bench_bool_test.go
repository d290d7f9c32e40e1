package expr_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// BenchmarkMaterializeBool measures view expressions over bool masks
// (bits): impl=expr is EvalInto into a reused destination, impl=copy
// copy() of the same number of bytes (the result's bits, packed).
func BenchmarkMaterializeBool(b *testing.B) {
	cases := []struct {
		op, text string
		batch    int
		shape    []int
	}{
		{"transpose", "x.T", 1024, []int{64, 64}},
		{"slice", "x[16:48, :]", 1024, []int{64, 64}},
		{"slice-unaligned", "x[:, 3:61]", 1024, []int{64, 64}},
	}
	for _, bc := range cases {
		name := fmt.Sprintf("op=%s/dtype=bool/shape=%s", bc.op, shapeName(bc.batch, bc.shape))
		typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(bc.shape, nil, nil))
		vals := make([]bool, bc.batch*typ.ListSize())
		for i := range vals {
			vals[i] = i%3 == 0
		}
		in, err := fixedshape.FromBools(memory.DefaultAllocator, typ, vals, nil)
		if err != nil {
			b.Fatal(err)
		}
		p := expr.MustCompilePlan(expr.MustParse(bc.text, expr.Input(typ)))
		outBytes := (bc.batch*p.Metadata().Size() + 7) / 8
		dst := make([]byte, outBytes)
		src, _ := in.ValueBits()
		benchEvalInto(b, name+"/impl=expr", p, dst, in)
		benchCopy(b, name, dst, src)
		in.Release()
	}
}
