package expr_test

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/varshape"
)

// TestEvalVarLarge covers results of at least 1 MiB, written with
// non-temporal stores row by row: crops whose runs are and are not
// multiples of 32 bytes, reversed rows, rows over 64 KiB, transposes,
// null rows and runs of rows of one shape, against each row evaluated
// alone.
func TestEvalVarLarge(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{
		UniformShape: []int{varshape.Varies, varshape.Varies, 3}})
	r := rand.New(rand.NewPCG(3, 4))
	var shapes [][]int
	var vals [][]uint8
	for i := range 500 {
		var s []int
		switch {
		case i%37 == 5:
			// null
		case i%11 == 3 && i > 0 && shapes[i-1] != nil:
			s = shapes[i-1] // a run of rows of one shape
		case i%50 == 7:
			s = []int{200 + r.IntN(30), 200 + r.IntN(30), 3} // over 64 KiB
		default:
			s = []int{32 + r.IntN(33), 32 + r.IntN(33), 3}
		}
		shapes = append(shapes, s)
		var v []uint8
		if s != nil {
			v = make([]uint8, s[0]*s[1]*3)
			for k := range v {
				v[k] = uint8(k*7 + i)
			}
		}
		vals = append(vals, v)
	}
	in, err := varshape.FromSlices(mem, typ, shapes, vals)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	for _, text := range []string{"x[:32, :32]", "x[:40, :40]", "x[::-1, :32]", "x[:, 1:33, :2]", "x.transpose(2, 0, 1)"} {
		t.Run(text, func(t *testing.T) {
			p := expr.ParseVar(text, typ)
			n, err := p.EvalInto(nil, in)
			if err == nil || n != 0 {
				t.Fatalf("EvalInto into nil = %d, %v; want an error", n, err)
			}
			out, err := p.Eval(in, expr.WithAllocator(mem), expr.WithWorkers(1))
			if err != nil {
				t.Fatal(err)
			}
			out.Release()
			dst := make([]byte, 8<<20)
			total, err := p.EvalInto(dst, in, expr.WithWorkers(1))
			if err != nil {
				t.Fatal(err)
			}
			if total < 1<<20 {
				t.Fatalf("result of %d bytes, want at least 1 MiB", total)
			}
			got := dst[:total]
			for i := range in.Len() {
				if in.IsNull(i) {
					continue
				}
				ref := rowRef(t, in, i, text)
				want := ref.ValueBytes()
				if len(got) < len(want) || !bytes.Equal(got[:len(want)], want) {
					t.Fatalf("row %d differs from the row evaluated alone", i)
				}
				got = got[len(want):]
				ref.Release()
			}
			if len(got) != 0 {
				t.Errorf("%d bytes past the last row", len(got))
			}
			if bytes.ContainsFunc(dst[total:], func(r rune) bool { return r != 0 }) {
				t.Errorf("wrote past the result")
			}
		})
	}
}
