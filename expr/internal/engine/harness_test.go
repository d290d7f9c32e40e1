package engine_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

// Graph building helpers.

func in(k int, d engine.DType, shape ...int) *engine.Node {
	return &engine.Node{Op: engine.OpInput, Input: k, DType: d, Shape: shape}
}

func un(fn engine.Fn, a *engine.Node) *engine.Node {
	d := a.DType
	if fn == engine.IsNaN || fn == engine.IsFinite {
		d = engine.Bool
	}
	return &engine.Node{Op: engine.OpUnary, Fn: fn, Args: []*engine.Node{a}, DType: d, Shape: a.Shape}
}

func bin(fn engine.Fn, a, b *engine.Node) *engine.Node {
	d := a.DType
	if fn >= engine.Less && fn <= engine.NotEqual {
		d = engine.Bool
	}
	return &engine.Node{Op: engine.OpBinary, Fn: fn, Args: []*engine.Node{a, b}, DType: d, Shape: bshape(a.Shape, b.Shape)}
}

func bshape(a, b []int) []int {
	n := max(len(a), len(b))
	out := make([]int, n)
	for i := range n {
		x, y := 1, 1
		if k := len(a) - n + i; k >= 0 {
			x = a[k]
		}
		if k := len(b) - n + i; k >= 0 {
			y = b[k]
		}
		out[i] = max(x, y)
		if x == 0 || y == 0 {
			out[i] = 0
		}
	}
	return out
}

func cast(a *engine.Node, d engine.DType) *engine.Node {
	return &engine.Node{Op: engine.OpCast, Args: []*engine.Node{a}, DType: d, Shape: a.Shape}
}

func red(fn engine.Fn, a *engine.Node, d engine.DType, keep bool, axes ...int) *engine.Node {
	var shape []int
	for i, s := range a.Shape {
		r := false
		for _, x := range axes {
			r = r || x == i
		}
		if !r {
			shape = append(shape, s)
		} else if keep {
			shape = append(shape, 1)
		}
	}
	return &engine.Node{Op: engine.OpReduce, Fn: fn, Args: []*engine.Node{a}, DType: d, Shape: shape, Axes: axes, Keep: keep}
}

// konst is a constant of type d with values vals (converted) and shape.
func konst(d engine.DType, shape []int, vals ...float64) *engine.Node {
	var b []byte
	for _, v := range vals {
		b = encode(b, d, v, int64(v))
	}
	return &engine.Node{Op: engine.OpConst, DType: d, Shape: shape, Data: b}
}

// column is an input column with its per-row reference values.
type column struct {
	col  engine.Column
	rows []rval
}

// randColumn returns rows random rows of type d and shape, null with
// probability pnull.
func randColumn(rng *rand.Rand, d engine.DType, shape []int, rows int, pnull float64) column {
	size := numel(shape)
	var c column
	var vals []byte
	bits := make([]byte, (rows*size+7)/8+1)
	for r := range rows {
		var row rval
		for j := range size {
			f, i := randValue(rng, d)
			if isF(d) {
				f = roundF(d, f)
				row.f = append(row.f, f)
			} else {
				i = wrapI(d, i)
				row.i = append(row.i, i)
			}
			if d == engine.Bool {
				if i != 0 {
					bits[(r*size+j)/8] |= 1 << ((r*size + j) % 8)
				}
			} else {
				vals = encode(vals, d, f, i)
			}
		}
		c.rows = append(c.rows, row)
	}
	if d == engine.Bool {
		vals = bits
	}
	c.col.Values = aligned(vals)
	if pnull > 0 {
		c.col.Valid = make([]byte, (rows+7)/8)
		for r := range rows {
			if rng.Float64() >= pnull {
				c.col.Valid[r/8] |= 1 << (r % 8)
			}
		}
	}
	return c
}

func aligned(b []byte) []byte {
	w := make([]uint64, (len(b)+8)/8)
	out := unsafeBytes(w)[:len(b)]
	copy(out, b)
	return out
}

func randValue(rng *rand.Rand, d engine.DType) (float64, int64) {
	if isF(d) {
		switch rng.IntN(20) {
		case 0:
			return math.NaN(), 0
		case 1:
			return math.Inf(1 - 2*rng.IntN(2)), 0
		case 2:
			return 0, 0
		}
		return (rng.Float64()*2 - 1) * math.Pow(10, float64(rng.IntN(5)-2)), 0
	}
	if d == engine.Bool {
		return 0, int64(rng.IntN(2))
	}
	switch rng.IntN(8) {
	case 0:
		return 0, int64(rng.Uint64())
	case 1:
		return 0, 0
	}
	return 0, int64(rng.IntN(21) - 10)
}

// check runs roots over cols with o and compares with the reference
// (tol: relative tolerance in units of the type's epsilon, 0 exact).
func check(t *testing.T, inputs []engine.Input, cols []column, roots []*engine.Node, o engine.Options, rows int, tol float64) {
	t.Helper()
	p, err := engine.Compile(inputs, roots, o)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	got, nulls, err := runProgram(p, cols, roots, rows)
	want, wantErr := reference(inputs, cols, roots, rows)
	if wantErr != nil || err != nil {
		if !errors.Is(err, arrow.ErrInvalid) || wantErr == nil {
			t.Fatalf("Run error %v, reference error %v", err, wantErr)
		}
		return
	}
	for ri, r := range roots {
		n := 0
		for row := range rows {
			if err := compareRow(r.DType, want[ri][row], got[ri][row], tol); err != nil {
				t.Fatalf("root %d row %d: %v", ri, row, err)
			}
			if want[ri][row].i == nil && want[ri][row].f == nil && numel(r.Shape) > 0 || nullRow(cols, inputs, r, row) {
				n++
			}
		}
		if n != nulls[ri] {
			t.Errorf("root %d: %d nulls, want %d", ri, nulls[ri], n)
		}
	}
}

func compareRow(d engine.DType, want, got rval, tol float64) error {
	if len(want.i) != len(got.i) || len(want.f) != len(got.f) {
		return fmt.Errorf("got %v, want %v", got, want)
	}
	for j := range want.i {
		if want.i[j] != got.i[j] {
			return fmt.Errorf("element %d: got %d, want %d (row %v)", j, got.i[j], want.i[j], want.i)
		}
	}
	eps := map[engine.DType]float64{engine.Float16: 0x1p-10, engine.Float32: 0x1p-23, engine.Float64: 0x1p-52}[d]
	for j := range want.f {
		w, g := want.f[j], got.f[j]
		if math.IsNaN(w) && math.IsNaN(g) || w == g {
			continue
		}
		if tol > 0 && math.Abs(w-g) <= tol*eps*math.Max(1, math.Max(math.Abs(w), math.Abs(g))) {
			continue
		}
		return fmt.Errorf("element %d: got %v, want %v", j, g, w)
	}
	return nil
}
