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

// boolBench is a compiled bool-mask benchmark case: the input column, its
// plan, a reused destination of the result's packed bits, and the input's
// packed bits for the copy baseline. The caller releases in.
type boolBench struct {
	in       *fixedshape.Array
	p        *expr.Plan
	dst, src []byte
}

// newBoolBench builds batch bool tensors of shape whose element i is
// set(i), and compiles text over them.
func newBoolBench(b *testing.B, text string, batch int, shape []int, set func(i int) bool) boolBench {
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(shape, nil, nil))
	vals := make([]bool, batch*typ.ListSize())
	for i := range vals {
		vals[i] = set(i)
	}
	in, err := fixedshape.FromBools(memory.DefaultAllocator, typ, vals, nil)
	if err != nil {
		b.Fatal(err)
	}
	p := expr.MustCompilePlan(expr.MustParse(text, expr.Input(typ)))
	src, _ := in.ValueBits()
	return boolBench{in: in, p: p, dst: make([]byte, (batch*p.Metadata().Size()+7)/8), src: src}
}

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
		bb := newBoolBench(b, bc.text, bc.batch, bc.shape, func(i int) bool { return i%3 == 0 })
		benchEvalInto(b, name+"/impl=expr", bb.p, bb.dst, bb.in)
		benchCopy(b, name, bb.dst, bb.src)
		bb.in.Release()
	}
}

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
		bb := newBoolBench(b, bc.text, bc.batch, bc.shape, func(i int) bool { return i%3 == 0 || i%7 == 0 })
		out := shapeName(bc.batch, bb.p.Metadata().Shape())
		name := fmt.Sprintf("op=transpose/dtype=bool/shape=%s/out=%s", shapeName(bc.batch, bc.shape), out)
		for _, impl := range []string{"expr", "bitwise"} {
			was := expr.SetBitTiles(impl == "expr")
			benchEvalInto(b, name+"/impl="+impl, bb.p, bb.dst, bb.in)
			expr.SetBitTiles(was)
		}
		benchCopy(b, name, bb.dst, bb.src)
		bb.in.Release()
	}
}
