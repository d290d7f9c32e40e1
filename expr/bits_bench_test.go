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

// BenchmarkMaterializeBoolTranspose measures transposes of bool masks:
// impl=expr is EvalInto with the bit-matrix transposes, impl=bitwise the
// bit-by-bit gather they replace, impl=copy copy() of the same number of
// bytes (the result's bits, packed). Throughput is bytes of packed output.
func BenchmarkMaterializeBoolTranspose(b *testing.B) {
	cases := []struct {
		text  string
		batch int
		shape []int
	}{
		{"x.T", 1024, []int{64, 64}},
		{"x.T", 4, []int{1024, 1024}},
		{"x.transpose(1, 2, 0)", 8, []int{3, 224, 224}},
		{"x.transpose(2, 0, 1)", 8, []int{224, 224, 3}},
	}
	for _, bc := range cases {
		typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(bc.shape, nil, nil))
		vals := make([]bool, bc.batch*typ.ListSize())
		for i := range vals {
			vals[i] = i%3 == 0 || i%7 == 0
		}
		in, err := fixedshape.FromBools(memory.DefaultAllocator, typ, vals, nil)
		if err != nil {
			b.Fatal(err)
		}
		p := expr.MustCompilePlan(expr.MustParse(bc.text, expr.Input(typ)))
		outBytes := (bc.batch*p.Metadata().Size() + 7) / 8
		dst := make([]byte, outBytes)
		src, _ := in.ValueBits()
		out := shapeName(bc.batch, p.Metadata().Shape())
		name := fmt.Sprintf("op=transpose/dtype=bool/shape=%s/out=%s", shapeName(bc.batch, bc.shape), out)
		for _, impl := range []string{"expr", "bitwise"} {
			was := expr.SetBitTiles(impl == "expr")
			benchEvalInto(b, name+"/impl="+impl, p, dst, in)
			expr.SetBitTiles(was)
		}
		benchCopy(b, name, dst, src)
		in.Release()
	}
}
