package expr_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// evalBoolBoth evaluates text over in with the bit-matrix transposes and
// with the bit-by-bit reference, and returns both results' bits.
func evalBoolBoth(t *testing.T, mem memory.Allocator, text string, in *fixedshape.Array) (got, want []byte) {
	t.Helper()
	p, err := expr.CompilePlan(expr.MustParse(text, expr.Input(in.TensorType())))
	if err != nil {
		t.Fatalf("CompilePlan(%s): %v", text, err)
	}
	if p.Metadata().Size() == 0 {
		t.Skipf("%s has a size-0 dimension, which fixedshape refuses", text)
	}
	run := func(tiles bool) []byte {
		defer expr.SetBitTiles(expr.SetBitTiles(tiles))
		out, err := p.Eval(in, expr.WithAllocator(mem))
		if err != nil {
			t.Fatalf("Eval(%s): %v", text, err)
		}
		defer out.Release()
		// Compare the whole values buffer, trailing bits included, and
		// EvalInto into a dirty buffer.
		bits, first := out.(*fixedshape.Array).ValueBits()
		if first != 0 {
			t.Fatalf("Eval(%s) result starts at bit %d", text, first)
		}
		res := append([]byte(nil), bits...)
		into := make([]byte, len(res))
		for i := range into {
			into[i] = 0xA5
		}
		if err := p.EvalInto(into, in); err != nil {
			t.Fatalf("EvalInto(%s): %v", text, err)
		}
		// EvalInto promises the result's bits only, not the rest of
		// the last byte.
		if nbits := in.Len() * p.Metadata().Size(); nbits%8 != 0 {
			into[len(into)-1] &= byte(1)<<(nbits%8) - 1
		}
		if diff := cmp.Diff(res, into); diff != "" {
			t.Errorf("%s: EvalInto differs from Eval (-Eval +EvalInto):\n%s", text, diff)
		}
		return res
	}
	return run(true), run(false)
}

// randomBools returns a bool column of n tensors of typ, with every
// fifth tensor null when nulls is set.
func randomBools(t *testing.T, mem memory.Allocator, typ *fixedshape.Type, n int, nulls bool, seed uint64) *fixedshape.Array {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 7))
	vals := make([]bool, n*typ.ListSize())
	for i := range vals {
		vals[i] = r.IntN(2) == 1
	}
	var valid []bool
	if nulls {
		valid = make([]bool, n)
		for i := range valid {
			valid[i] = i%5 != 3
		}
	}
	in, err := fixedshape.FromBools(mem, typ, vals, valid)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func permutations(n int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	var out [][]int
	for _, p := range permutations(n - 1) {
		for i := 0; i <= len(p); i++ {
			q := append(append(append([]int{}, p[:i]...), n-1), p[i:]...)
			out = append(out, q)
		}
	}
	return out
}

func axesText(perm []int) string {
	s := ""
	for i, a := range perm {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprint(a)
	}
	return s
}

// TestBoolTransposeTiles checks the word-level transposes of bool views
// against the bit-by-bit gather: odd sizes and sizes around 8 and 64,
// every transpose of 2-D and 3-D shapes, permuted inputs, slices and
// reversed axes before the transpose, sliced input columns (bit offsets)
// and null tensors.
func TestBoolTransposeTiles(t *testing.T) {
	mem := testvec.CheckedMem(t)

	type input struct {
		name  string
		shape []int
		perm  []int
	}
	inputs := []input{
		{"2x2", []int{2, 2}, nil},
		{"3x5", []int{3, 5}, nil},
		{"7x9", []int{7, 9}, nil},
		{"8x8", []int{8, 8}, nil},
		{"9x17", []int{9, 17}, nil},
		{"23x24", []int{23, 24}, nil},
		{"24x24", []int{24, 24}, nil},
		{"63x65", []int{63, 65}, nil},
		{"64x64", []int{64, 64}, nil},
		{"130x67", []int{130, 67}, nil},
		{"3x200", []int{3, 200}, nil},
		{"200x3", []int{200, 3}, nil},
		{"1x9", []int{1, 9}, nil},
		{"6x67", []int{6, 67}, nil},
		{"67x5", []int{67, 5}, nil},
		{"8x130", []int{8, 130}, nil},
		{"permuted 5x70", []int{5, 70}, []int{1, 0}},
		{"3x5x7", []int{3, 5, 7}, nil},
		{"3x40x50", []int{3, 40, 50}, nil},
		{"70x3x66", []int{70, 3, 66}, nil},
		{"3x8x9 3-cycle", []int{3, 8, 9}, []int{2, 0, 1}},
		{"30x2x33 permuted", []int{30, 2, 33}, []int{1, 2, 0}},
		{"2x3x4x5", []int{2, 3, 4, 5}, nil},
	}
	for _, in := range inputs {
		typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(in.shape, nil, in.perm))
		n := len(in.shape)
		var texts []string
		for _, p := range permutations(n) {
			texts = append(texts, "x.transpose("+axesText(p)+")")
		}
		if n >= 2 {
			texts = append(texts, "x[1:, ::2].T", "x[::-1, 1:].T", "x[..., ::-1].T", "x.T[::3]",
				"x.T.reshape(-1)", "x.T.reshape(-1)[1:].reshape(1, -1)", "x[None].T")
		}
		if n == 3 {
			texts = append(texts, "x[1].T", "x[:, 0].T", "x[:, :, 1:].transpose(2, 0, 1)", "x.transpose(1, 2, 0)[::2]")
		}
		for _, nulls := range []bool{false, true} {
			if race.Enabled && (!nulls || n > 3) {
				continue // 7x slower there: 3-D at most, with null rows, is enough
			}
			col := randomBools(t, mem, typ, 7, nulls, uint64(len(in.name)))
			parts := []struct {
				name   string
				lo, hi int
			}{{"whole", 0, 7}, {"sliced", 1, 6}, {"one", 3, 4}}
			if race.Enabled { // the slice with offsets is enough
				parts = parts[1:2]
			}
			for _, sl := range parts {
				arr := array.NewSlice(col, int64(sl.lo), int64(sl.hi)).(*fixedshape.Array)
				for _, text := range texts {
					name := fmt.Sprintf("%s/nulls=%v/%s/%s", in.name, nulls, sl.name, text)
					t.Run(name, func(t *testing.T) {
						got, want := evalBoolBoth(t, mem, text, arr)
						if diff := cmp.Diff(want, got); diff != "" {
							t.Errorf("tiles differ from the bit-by-bit gather (-want +got):\n%s", diff)
						}
					})
				}
				arr.Release()
			}
			col.Release()
		}
	}
}

// TestBoolTransposeValues checks one transpose element by element through
// BoolAt, so the reference itself is checked.
func TestBoolTransposeValues(t *testing.T) {
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew([]int{5, 67, 70}, nil, nil))
	col := randomBools(t, mem, typ, 3, false, 11)
	defer col.Release()
	in := array.NewSlice(col, 1, 3).(*fixedshape.Array)
	defer in.Release()
	p := expr.MustCompilePlan(expr.MustParse("x.transpose(2, 0, 1)", expr.Input(typ)))
	out, err := p.Eval(in, expr.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer out.Release()
	res := out.(*fixedshape.Array)
	for i := range in.Len() {
		for a := range 5 {
			for b := range 67 {
				for c := range 70 {
					if got, want := res.BoolAt(i, c, a, b), in.BoolAt(i, a, b, c); got != want {
						t.Fatalf("tensor %d: out[%d,%d,%d] = %v, want in[%d,%d,%d] = %v", i, c, a, b, got, a, b, c, want)
					}
				}
			}
		}
	}
}

// TestCompactBytes checks the packing of k bits per byte both ways for
// every k.
func TestCompactBytes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := uint(1); k <= 8; k++ {
		for range 100 {
			x := r.Uint64()
			var want uint64
			for i := range uint(8) {
				want |= (x >> (8 * i) & (1<<k - 1)) << (i * k)
			}
			got := expr.CompactBytes(x, k)
			if got != want {
				t.Fatalf("CompactBytes(%#x, %d) = %#x, want %#x", x, k, got, want)
			}
			back := expr.ExpandBytes(got, k)
			if wantBack := x & (0x0101010101010101 * (1<<k - 1)); back != wantBack {
				t.Fatalf("ExpandBytes(%#x, %d) = %#x, want %#x", got, k, back, wantBack)
			}
		}
	}
}
