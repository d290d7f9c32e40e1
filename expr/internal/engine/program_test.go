package engine_test

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/expr/internal/engine"
)

func TestCSEAndFolding(t *testing.T) {
	f32 := engine.Float32
	x := func() *engine.Node { return in(0, f32, 8) }
	two := func() *engine.Node { return konst(f32, nil, 2) }
	// x*2+1 built twice from distinct pointers, plus 2+3 folded.
	lin := func() *engine.Node { return bin(engine.Add, bin(engine.Mul, x(), two()), konst(f32, nil, 1)) }
	five := bin(engine.Add, two(), konst(f32, nil, 3))
	tests := []struct {
		name  string
		roots []*engine.Node
		want  int
	}{
		{"one", []*engine.Node{lin()}, 3},
		{"shared", []*engine.Node{bin(engine.Sub, lin(), lin())}, 4},
		{"two roots", []*engine.Node{lin(), lin()}, 3},
		{"folded", []*engine.Node{bin(engine.Mul, x(), five)}, 2},
		{"const root", []*engine.Node{five}, 0},
		{"reduce of const", []*engine.Node{bin(engine.Mul, x(), red(engine.Sum, konst(f32, []int{3}, 1, 2, 3), f32, false, 0))}, 2},
	}
	rng := rand.New(rand.NewPCG(1, 1))
	cols := []column{randColumn(rng, f32, []int{8}, 10, 0.2)}
	inputs := []engine.Input{{DType: f32, Shape: []int{8}}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := engine.Compile(inputs, tc.roots, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := engine.Computed(p); got != tc.want {
				t.Errorf("%d nodes evaluated per block, want %d", got, tc.want)
			}
			check(t, inputs, cols, tc.roots, engine.Options{}, 10, 0)
		})
	}
}

func TestCompileErrors(t *testing.T) {
	f32, i32 := engine.Float32, engine.Int32
	x := in(0, f32, 3, 4)
	cyc := &engine.Node{Op: engine.OpUnary, Fn: engine.Neg, DType: f32, Shape: []int{3, 4}}
	cyc.Args = []*engine.Node{cyc}
	tests := []struct {
		name string
		root *engine.Node
	}{
		{"dtypes differ", &engine.Node{Op: engine.OpBinary, Fn: engine.Add, DType: f32, Shape: []int{3, 4}, Args: []*engine.Node{x, in(1, i32, 4)}}},
		{"no broadcast", &engine.Node{Op: engine.OpBinary, Fn: engine.Add, DType: f32, Shape: []int{3, 4}, Args: []*engine.Node{x, konst(f32, []int{3}, 1, 2, 3)}}},
		{"wrong shape", &engine.Node{Op: engine.OpUnary, Fn: engine.Neg, DType: f32, Shape: []int{4, 3}, Args: []*engine.Node{x}}},
		{"axis out of range", &engine.Node{Op: engine.OpReduce, Fn: engine.Sum, DType: f32, Shape: []int{3}, Axes: []int{2}, Args: []*engine.Node{x}}},
		{"axes unsorted", &engine.Node{Op: engine.OpReduce, Fn: engine.Sum, DType: f32, Shape: []int{}, Axes: []int{1, 0}, Args: []*engine.Node{x}}},
		{"view past the end", view(x, 1, []int{3, 4}, []int{4, 1})},
		{"view before the start", view(x, 0, []int{2}, []int{-1})},
		{"overflowing shape", in(0, f32, 1<<30, 1<<30, 1<<30)},
		{"nil argument", &engine.Node{Op: engine.OpUnary, Fn: engine.Neg, DType: f32, Shape: []int{3, 4}, Args: []*engine.Node{nil}}},
		{"cycle", cyc},
		{"input out of range", in(5, f32, 3, 4)},
		{"input type", in(0, i32, 3, 4)},
		{"bool byte", &engine.Node{Op: engine.OpConst, DType: engine.Bool, Data: []byte{2}}},
		{"const size", &engine.Node{Op: engine.OpConst, DType: f32, Shape: []int{2}, Data: []byte{1, 2, 3, 4}}},
		{"max of empty", red(engine.Max, view(x, 0, []int{3, 0}, []int{4, 1}), f32, false, 1)},
		{"sqrt of integers", &engine.Node{Op: engine.OpUnary, Fn: engine.Sqrt, DType: i32, Shape: []int{4}, Args: []*engine.Node{in(1, i32, 4)}}},
		{"matmul inner", matmulNode(x, konst(f32, []int{3, 1}, 1, 2, 3))},
		{"concat sizes", &engine.Node{Op: engine.OpConcat, DType: f32, Shape: []int{3, 5}, Axis: 1, Args: []*engine.Node{x}}},
		{"negative size", in(0, f32, -1)},
		{"unknown op", &engine.Node{Op: 99, DType: f32}},
		{"invalid dtype", &engine.Node{Op: engine.OpConst, DType: 42}},
	}
	inputs := []engine.Input{{DType: f32, Shape: []int{3, 4}}, {DType: i32, Shape: []int{4}}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := engine.Compile(inputs, []*engine.Node{tc.root}, engine.Options{})
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Compile: %v, want an error wrapping arrow.ErrInvalid", err)
			}
		})
	}
}

func TestBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	f32 := engine.Float32
	shape := []int{6, 5}
	x := in(0, f32, shape...)
	norm := red(engine.Norm, x, f32, true, 1)
	mean := red(engine.Mean, x, f32, false, 0, 1)
	roots := []*engine.Node{bin(engine.Div, x, norm), mean, bin(engine.Greater, x, konst(f32, nil, 0))}
	inputs := []engine.Input{{DType: f32, Shape: shape}}
	for _, rows := range []int{0, 1, 7, 64, 257} {
		for _, bb := range []int{0, 1, 500, 4096} {
			for _, w := range []int{1, 3} {
				cols := []column{randColumn(rng, f32, shape, rows, 0.1)}
				check(t, inputs, cols, roots, engine.Options{BlockBytes: bb, Workers: w}, rows, 8)
			}
		}
	}
	// Views only: with the block size left to the engine, each worker
	// runs its whole range at once (30,000 rows are three blocks' worth).
	views := []*engine.Node{view(x, 0, []int{5, 6}, []int{1, 5}), view(x, 29, []int{3, 5}, []int{-10, -1})}
	for _, rows := range []int{0, 1, 257, 30000} {
		for _, w := range []int{1, 2, 3} {
			cols := []column{randColumn(rng, f32, shape, rows, 0.1)}
			check(t, inputs, cols, views, engine.Options{Workers: w}, rows, 0)
		}
	}
}

// TestWorkers checks that 1 and 3 workers write the same bytes.
func TestWorkers(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	f32 := engine.Float32
	x := in(0, f32, 16)
	roots := []*engine.Node{bin(engine.Div, x, red(engine.Norm, x, f32, true, 0)), red(engine.Sum, x, engine.Float64, false, 0)}
	inputs := []engine.Input{{DType: f32, Shape: []int{16}}}
	cols := []column{randColumn(rng, f32, []int{16}, 1000, 0.1)}
	var outs [][][]byte
	for _, w := range []int{1, 3} {
		p, err := engine.Compile(inputs, roots, engine.Options{Workers: w, BlockBytes: 1000})
		if err != nil {
			t.Fatal(err)
		}
		out := []engine.Column{{Values: make([]byte, 1000*64), Valid: make([]byte, 125)}, {Values: make([]byte, 8000), Valid: make([]byte, 125)}}
		if _, err := p.Run([]engine.Column{cols[0].col}, 1000, out); err != nil {
			t.Fatal(err)
		}
		outs = append(outs, [][]byte{out[0].Values, out[0].Valid, out[1].Values, out[1].Valid})
	}
	if diff := cmp.Diff(outs[0], outs[1]); diff != "" {
		t.Errorf("workers 1 and 3 differ (-1 +3):\n%s", diff)
	}
}

func TestRunErrors(t *testing.T) {
	i32 := engine.Int32
	inputs := []engine.Input{{DType: i32, Shape: []int{2}}, {DType: i32, Shape: []int{2}}}
	p, err := engine.Compile(inputs, []*engine.Node{bin(engine.Pow, in(0, i32, 2), in(1, i32, 2))}, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	le := func(v ...int32) []byte {
		var b []byte
		for _, x := range v {
			b = encode(b, i32, 0, int64(x))
		}
		return aligned(b)
	}
	base := le(2, 3, 2, 3, 2, 3)
	exp := le(1, 2, 3, -1, 0, 0) // row 1 has a negative power
	out := []engine.Column{{Values: aligned(make([]byte, 24)), Valid: make([]byte, 1)}}
	_, err = p.Run([]engine.Column{{Values: base}, {Values: exp}}, 3, out)
	if !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("negative power: %v, want an error wrapping arrow.ErrInvalid", err)
	}
	// The same row null is no error, and zero.
	nulls, err := p.Run([]engine.Column{{Values: base}, {Values: exp, Valid: []byte{0b101}}}, 3, out)
	if err != nil || nulls[0] != 1 {
		t.Fatalf("null row: nulls %v, error %v", nulls, err)
	}
	if diff := cmp.Diff(le(2, 9, 0, 0, 1, 1), out[0].Values); diff != "" {
		t.Errorf("values (-want +got):\n%s", diff)
	}
	// RunCounts: the counts into the caller's slice, or none.
	counts := []int{7}
	if err := p.RunCounts([]engine.Column{{Values: base}, {Values: exp, Valid: []byte{0b101}}}, 3, out, counts); err != nil || counts[0] != 1 {
		t.Errorf("RunCounts: counts %v, error %v", counts, err)
	}
	if err := p.RunCounts([]engine.Column{{Values: base}, {Values: exp, Valid: []byte{0b101}}}, 3, out, nil); err != nil {
		t.Errorf("RunCounts without counts: %v", err)
	}
	if err := p.RunCounts([]engine.Column{{Values: base}, {Values: exp}}, 3, out, make([]int, 2)); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("RunCounts with 2 counts for 1 root: %v, want an error wrapping arrow.ErrInvalid", err)
	}
	// Short buffers.
	if _, err := p.Run([]engine.Column{{Values: base}, {Values: exp[:4]}}, 3, out); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("short input: %v", err)
	}
	if _, err := p.Run([]engine.Column{{Values: base}}, 3, out); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("missing input: %v", err)
	}
	if _, err := p.Run([]engine.Column{{Values: base}, {Values: exp}}, 4, out); !errors.Is(err, arrow.ErrInvalid) {
		t.Errorf("short output: %v", err)
	}
}

func TestAllocs(t *testing.T) {
	f32 := engine.Float32
	x := in(0, f32, 64)
	roots := []*engine.Node{bin(engine.Div, x, red(engine.Norm, x, f32, true, 0)), cast(bin(engine.Greater, x, konst(f32, nil, 0.5)), engine.Int8)}
	p, err := engine.Compile([]engine.Input{{DType: f32, Shape: []int{64}}}, roots, engine.Options{BlockBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	rows := 500
	vals := make([]float32, rows*64)
	for i := range vals {
		vals[i] = float32(math.Sin(float64(i)))
	}
	in := []engine.Column{{Values: unsafeBytes(make([]uint64, rows*32))}}
	copy(in[0].Values, f32bytes(vals))
	out := []engine.Column{{Values: make([]byte, rows*256), Valid: make([]byte, rows/8+1)}, {Values: make([]byte, rows*64)}}
	allocs := testing.AllocsPerRun(10, func() {
		if _, err := p.Run(in, rows, out); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 1 { // the null counts returned
		t.Errorf("%v allocations per warm Run, want at most 1", allocs)
	}
	if !bytes.Equal(out[1].Values[:1], []byte{0}) && !bytes.Equal(out[1].Values[:1], []byte{1}) {
		t.Errorf("bad bool cast %v", out[1].Values[:1])
	}
}

func f32bytes(v []float32) []byte {
	var b []byte
	for _, x := range v {
		b = encode(b, engine.Float32, float64(x), 0)
	}
	return b
}

// TestFused checks that chains of + - * / by constants run in one pass
// (the input and the root are all that is scheduled) and that their
// values are the reference's, with tails shorter than a kernel block.
func TestFused(t *testing.T) {
	f32, u8 := engine.Float32, engine.Uint8
	rng := rand.New(rand.NewPCG(4, 4))
	mean := konst(f32, []int{3}, 0.5, -1.25, 3)
	std := konst(f32, []int{1, 1, 3}, 0.25, 2, 7)
	tests := []struct {
		name  string
		d     engine.DType
		shape []int
		root  func(x *engine.Node) *engine.Node
		sched int
	}{
		{"standardize", u8, []int{5, 7, 3}, func(x *engine.Node) *engine.Node {
			return bin(engine.Div, bin(engine.Sub, cast(x, f32), mean), std)
		}, 2},
		{"affine", f32, []int{33}, func(x *engine.Node) *engine.Node {
			return bin(engine.Add, bin(engine.Mul, x, konst(f32, nil, 2)), konst(f32, nil, 1))
		}, 2},
		{"reversed", f32, []int{4, 3}, func(x *engine.Node) *engine.Node {
			return bin(engine.Div, konst(f32, nil, 2), bin(engine.Sub, mean, x))
		}, 2},
		{"one step", u8, []int{2, 3}, func(x *engine.Node) *engine.Node { return bin(engine.Mul, cast(x, f32), mean) }, 2},
		{"not periodic", f32, []int{3, 2}, func(x *engine.Node) *engine.Node {
			return bin(engine.Add, bin(engine.Mul, x, konst(f32, []int{3, 1}, 1, 2, 3)), konst(f32, nil, 1))
		}, 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := in(0, tc.d, tc.shape...)
			roots := []*engine.Node{tc.root(x)}
			inputs := []engine.Input{{DType: tc.d, Shape: tc.shape}}
			p, err := engine.Compile(inputs, roots, engine.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := engine.Scheduled(p); got != tc.sched {
				t.Errorf("%d nodes scheduled, want %d", got, tc.sched)
			}
			for _, rows := range []int{1, 3, 200} {
				cols := []column{randColumn(rng, tc.d, tc.shape, rows, 0.1)}
				check(t, inputs, cols, roots, engine.Options{}, rows, 0)
				check(t, inputs, cols, roots, engine.Options{BlockBytes: 1}, rows, 0)
			}
		})
	}
}

// TestShapes covers the shapes every table of the house has: 0-D
// tensors (a plain column per row, broadcast against a tensor), size-0
// dimensions (empty sums are 0, empty means NaN), non-square shapes, and
// several roots sharing nodes.
func TestShapes(t *testing.T) {
	f32, i16 := engine.Float32, engine.Int16
	rng := rand.New(rand.NewPCG(6, 6))
	x := in(0, f32, 4, 0)
	s := in(1, f32)
	v := in(2, i16, 2, 5)
	tests := []struct {
		name  string
		roots []*engine.Node
	}{
		{"empty sum", []*engine.Node{red(engine.Sum, x, f32, false, 1), red(engine.Sum, x, f32, true, 0, 1)}},
		{"empty sum of the outer axis", []*engine.Node{
			red(engine.Sum, view(x, 0, []int{0, 3}, []int{0, 1}), f32, false, 0),
			red(engine.Mean, view(v, 0, []int{0, 5}, []int{5, 1}), f32, true, 0),
		}},
		{"empty mean", []*engine.Node{red(engine.Mean, x, f32, false, 1)}},
		{"empty any all", []*engine.Node{red(engine.Any, x, engine.Bool, false, 1), red(engine.All, x, engine.Bool, false, 0, 1)}},
		{"empty var", []*engine.Node{red(engine.Var, x, f32, false, 1)}},
		{"empty elementwise", []*engine.Node{bin(engine.Mul, x, s)}},
		{"per-row number", []*engine.Node{bin(engine.Mul, cast(v, f32), s), bin(engine.Less, s, konst(f32, nil, 0))}},
		{"0-D reductions", []*engine.Node{red(engine.Sum, s, f32, false), red(engine.Max, v, i16, false, 0, 1)}},
		{"shared", []*engine.Node{
			bin(engine.Sub, cast(v, f32), red(engine.Mean, cast(v, f32), f32, true, 1)),
			red(engine.Mean, cast(v, f32), f32, true, 1),
			red(engine.ArgMax, v, engine.Int64, false, 1),
		}},
	}
	inputs := []engine.Input{{DType: f32, Shape: []int{4, 0}}, {DType: f32}, {DType: i16, Shape: []int{2, 5}}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, rows := range []int{0, 1, 9} {
				cols := []column{randColumn(rng, f32, []int{4, 0}, rows, 0.2), randColumn(rng, f32, nil, rows, 0.2), randColumn(rng, i16, []int{2, 5}, rows, 0.2)}
				check(t, inputs, cols, tc.roots, engine.Options{BlockBytes: 40}, rows, 8)
			}
		})
	}
}

// TestConcurrent runs one Program from several goroutines at once (run
// it with -race), each writing the bytes of a lone Run.
func TestConcurrent(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	f32 := engine.Float32
	x := in(0, f32, 24)
	roots := []*engine.Node{bin(engine.Div, x, red(engine.Norm, x, f32, true, 0)), bin(engine.Greater, x, konst(f32, nil, 0))}
	p, err := engine.Compile([]engine.Input{{DType: f32, Shape: []int{24}}}, roots, engine.Options{Workers: 2, BlockBytes: 2000})
	if err != nil {
		t.Fatal(err)
	}
	cols := []column{randColumn(rng, f32, []int{24}, 300, 0.1)}
	want, _, err := runProgram(p, cols, roots, 300)
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			got, _, err := runProgram(p, cols, roots, 300)
			for ri := range roots {
				for row := range 300 {
					if err == nil {
						err = compareRow(roots[ri].DType, want[ri][row], got[ri][row], 0)
					}
				}
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
