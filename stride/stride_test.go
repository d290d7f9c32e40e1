package stride_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/fstensor/fstensor/stride"
)

var equateEmpty = cmpopts.EquateEmpty()

// halfInt is 2**(IntSize/2): 1<<32 on 64-bit, 1<<16 on 32-bit. Two of them
// multiply to MaxInt+1 as an unsigned number, one past the largest int, so the
// overflow rows test the same edge on either word size.
const halfInt = 1 << (strconv.IntSize / 2)

func TestRowMajor(t *testing.T) {
	tests := []struct {
		name  string
		shape []int
		want  []int
	}{
		{"0-D", []int{}, []int{}},
		{"vector", []int{5}, []int{1}},
		{"non-square", []int{3, 4}, []int{4, 1}},
		{"3-D", []int{2, 3, 4}, []int{12, 4, 1}},
		{"size-0 middle", []int{3, 0, 4}, []int{0, 4, 1}},
		{"size-0 last", []int{3, 4, 0}, []int{0, 0, 1}},
		{"unit axes", []int{1, 5, 1}, []int{5, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, stride.RowMajor(nil, tt.shape), equateEmpty); diff != "" {
				t.Errorf("RowMajor(%v) (-want +got):\n%s", tt.shape, diff)
			}
			if !stride.IsRowMajor(tt.shape, tt.want) {
				t.Errorf("IsRowMajor(%v, %v) = false", tt.shape, tt.want)
			}
		})
	}
}

func TestLogical(t *testing.T) {
	// Rows from design.md section 1 and the RFC; conformance-vector rows
	// live in the metadata and fixedshape tests.
	tests := []struct {
		name     string
		logical  []int
		perm     []int
		physical []int
		want     []int
	}{
		{"0-D", []int{}, nil, []int{}, []int{}},
		{"identity absent", []int{3, 4}, nil, []int{3, 4}, []int{4, 1}},
		{"identity given", []int{3, 4}, []int{0, 1}, []int{3, 4}, []int{4, 1}},
		{"non-square transpose", []int{3, 4}, []int{1, 0}, []int{4, 3}, []int{1, 3}},
		{"3-cycle", []int{2, 3, 4}, []int{2, 0, 1}, []int{3, 4, 2}, []int{1, 8, 2}},
		{"RFC example", []int{4, 2, 3}, []int{2, 0, 1}, []int{2, 3, 4}, []int{1, 12, 4}},
		{"other 3-cycle", []int{4, 7, 3}, []int{1, 2, 0}, []int{3, 4, 7}, []int{7, 1, 28}},
		{"size-0", []int{3, 0, 4}, nil, []int{3, 0, 4}, []int{0, 4, 1}},
		{"size-0 permuted", []int{0, 3}, []int{1, 0}, []int{3, 0}, []int{1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, stride.Logical(nil, tt.logical, tt.perm), equateEmpty); diff != "" {
				t.Errorf("Logical (-want +got):\n%s", diff)
			}
			perm := tt.perm
			if perm == nil {
				perm = stride.Identity(nil, len(tt.logical))
			}
			if diff := cmp.Diff(tt.physical, stride.PhysicalShape(nil, tt.logical, perm), equateEmpty); diff != "" {
				t.Errorf("PhysicalShape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.logical, stride.LogicalShape(nil, tt.physical, perm), equateEmpty); diff != "" {
				t.Errorf("LogicalShape (-want +got):\n%s", diff)
			}
			// The logical strides are the physical row-major strides
			// gathered through the permutation (numpy.transpose).
			phys := stride.RowMajor(nil, tt.physical)
			if diff := cmp.Diff(stride.Gather(nil, phys, perm), tt.want, equateEmpty); diff != "" {
				t.Errorf("Gather(RowMajor(P), p) (-want +got):\n%s", diff)
			}
		})
	}
}

func TestBytes(t *testing.T) {
	if diff := cmp.Diff([]int{4, 96, 32}, stride.Bytes(nil, []int{1, 24, 8}, 4), equateEmpty); diff != "" {
		t.Error(diff)
	}
}

func TestCheckShape(t *testing.T) {
	tests := []struct {
		name  string
		shape []int
		n     int
		ok    bool
	}{
		{"0-D", []int{}, 1, true},
		{"non-square", []int{3, 4}, 12, true},
		{"size-0", []int{3, 0, 4}, 0, true},
		{"negative", []int{3, -1}, 0, false},
		{"overflow", []int{halfInt, halfInt}, 0, false},
		{"overflow hidden by zero", []int{0, halfInt, halfInt}, 0, false},
		{"just under max int", []int{halfInt/2 - 1, halfInt}, (halfInt/2 - 1) * halfInt, true},
		{"max int plus one", []int{halfInt / 2, halfInt}, 0, false},
		{"max int", []int{math.MaxInt}, math.MaxInt, true},
		{"max int times 2", []int{math.MaxInt, 2}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, err := stride.NumElements(tt.shape)
			if tt.ok != (err == nil) {
				t.Fatalf("NumElements(%v) error = %v, want ok=%v", tt.shape, err, tt.ok)
			}
			if err != nil {
				if !errors.Is(err, stride.ErrInvalid) {
					t.Errorf("error %v does not match ErrInvalid", err)
				}
				var se *stride.Error
				if !errors.As(err, &se) || se.What != "shape" {
					t.Errorf("error %#v is not a shape *Error", err)
				}
				return
			}
			if n != tt.n {
				t.Errorf("NumElements(%v) = %d, want %d", tt.shape, n, tt.n)
			}
		})
	}
}

func TestMulCheck(t *testing.T) {
	tests := []struct {
		a, b, want int
		ok         bool
	}{
		{0, math.MaxInt, 0, true},
		{3, 4, 12, true},
		{math.MaxInt, 1, math.MaxInt, true},
		{math.MaxInt/2 + 1, 2, 0, false},
		{halfInt, halfInt / 2, 0, false},
		{halfInt / 2, halfInt, 0, false},
		{halfInt/2 - 1, halfInt, (halfInt/2 - 1) * halfInt, true},
	}
	for _, tt := range tests {
		got, ok := stride.MulCheck(tt.a, tt.b)
		if got != tt.want || ok != tt.ok {
			t.Errorf("MulCheck(%d, %d) = %d, %v; want %d, %v", tt.a, tt.b, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCheckPermutation(t *testing.T) {
	tests := []struct {
		name string
		perm []int
		ok   bool
	}{
		{"nil", nil, true},
		{"0-D", []int{}, true},
		{"identity", []int{0, 1, 2}, true},
		{"3-cycle", []int{2, 0, 1}, true},
		{"repeat", []int{0, 0}, false},
		{"repeat 3", []int{0, 1, 1}, false},
		{"out of range", []int{3, 0}, false},
		{"negative", []int{-1, 0}, false},
		{"large", slices.Collect(func(yield func(int) bool) {
			for i := 99; i >= 0; i-- {
				yield(i)
			}
		}), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := stride.CheckPermutation(tt.perm)
			if tt.ok != (err == nil) {
				t.Fatalf("CheckPermutation(%v) = %v, want ok=%v", tt.perm, err, tt.ok)
			}
			if err != nil && !errors.Is(err, stride.ErrInvalid) {
				t.Errorf("error %v does not match ErrInvalid", err)
			}
		})
	}
}

func TestPermutationAlgebra(t *testing.T) {
	for n := range 5 {
		for p := range permutations(n) {
			inv := stride.Invert(nil, p)
			if !stride.IsIdentity(stride.Compose(nil, p, inv)) || !stride.IsIdentity(stride.Compose(nil, inv, p)) {
				t.Fatalf("Invert(%v) = %v is not an inverse", p, inv)
			}
			xs := []string{"a", "b", "c", "d", "e"}[:n]
			g := stride.Gather(nil, xs, p)
			if diff := cmp.Diff(xs, stride.Scatter(nil, g, p), equateEmpty); diff != "" {
				t.Fatalf("Scatter(Gather(xs, %v)) (-want +got):\n%s", p, diff)
			}
			for q := range permutations(n) {
				// Gather by p then by q equals gather by Compose(p, q),
				// as numpy.transpose(numpy.transpose(a, p), q) does.
				want := stride.Gather(nil, stride.Gather(nil, xs, p), q)
				got := stride.Gather(nil, xs, stride.Compose(nil, p, q))
				if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
					t.Fatalf("Compose(%v, %v) (-want +got):\n%s", p, q, diff)
				}
			}
		}
	}
}

func TestCheckIndex(t *testing.T) {
	tests := []struct {
		name       string
		idx, shape []int
		ok         bool
	}{
		{"0-D", []int{}, []int{}, true},
		{"inside", []int{2, 3}, []int{3, 4}, true},
		{"too high", []int{3, 0}, []int{3, 4}, false},
		{"negative", []int{0, -1}, []int{3, 4}, false},
		{"wrong rank", []int{0}, []int{3, 4}, false},
		{"size-0", []int{0, 0}, []int{3, 0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := stride.CheckIndex(tt.idx, tt.shape)
			if tt.ok != (err == nil) {
				t.Fatalf("CheckIndex(%v, %v) = %v, want ok=%v", tt.idx, tt.shape, err, tt.ok)
			}
			if err != nil && !errors.Is(err, stride.ErrInvalid) {
				t.Errorf("error %v does not match ErrInvalid", err)
			}
		})
	}
}

func TestIsRowMajor(t *testing.T) {
	tests := []struct {
		name           string
		shape, strides []int
		want           bool
	}{
		{"0-D", []int{}, []int{}, true},
		{"C", []int{3, 4}, []int{4, 1}, true},
		{"F", []int{3, 4}, []int{1, 3}, false},
		{"unit axis any stride", []int{3, 1, 4}, []int{4, 99, 1}, true},
		{"empty any strides", []int{3, 0}, []int{7, 7}, true},
		{"gap", []int{3, 4}, []int{8, 1}, false},
		{"rank mismatch", []int{3, 4}, []int{1}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := stride.IsRowMajor(tt.shape, tt.strides); got != tt.want {
				t.Errorf("IsRowMajor(%v, %v) = %v, want %v", tt.shape, tt.strides, got, tt.want)
			}
		})
	}
}

func TestOffsetsAndPairs(t *testing.T) {
	shape := []int{2, 3, 4}
	a := stride.RowMajor(nil, shape)
	b := stride.Logical(nil, shape, []int{2, 0, 1})
	var got [][2]int
	for x, y := range stride.Pairs(shape, a, b) {
		got = append(got, [2]int{x, y})
	}
	var want [][2]int
	for i := range shape[0] {
		for j := range shape[1] {
			for k := range shape[2] {
				idx := []int{i, j, k}
				want = append(want, [2]int{stride.Offset(idx, a), stride.Offset(idx, b)})
			}
		}
	}
	if diff := cmp.Diff(want, got, equateEmpty); diff != "" {
		t.Errorf("Pairs (-want +got):\n%s", diff)
	}
	if got := slices.Collect(stride.Offsets(nil, nil)); !slices.Equal(got, []int{0}) {
		t.Errorf("Offsets of a 0-D shape = %v, want [0]", got)
	}
	if got := slices.Collect(stride.Offsets([]int{3, 0}, []int{0, 1})); len(got) != 0 {
		t.Errorf("Offsets of a size-0 shape = %v, want none", got)
	}
	// Stopping early must not call yield again.
	n := 0
	for range stride.Offsets(shape, a) {
		n++
		if n == 5 {
			break
		}
	}
}

// TestBijection checks, for every shape with up to four axes of sizes 1..3
// and every permutation, that the logical offsets cover [0, prod) once.
func TestBijection(t *testing.T) {
	for rank := range 5 {
		for shape := range shapes(rank, 3) {
			for p := range permutations(rank) {
				if err := checkBijection(shape, p); err != "" {
					t.Fatalf("shape %v perm %v: %s", shape, p, err)
				}
			}
		}
	}
}

func checkBijection(shape, perm []int) string {
	n, err := stride.NumElements(shape)
	if err != nil {
		return err.Error()
	}
	seen := make([]bool, n)
	count := 0
	for off := range stride.Offsets(shape, stride.Logical(nil, shape, perm)) {
		if off < 0 || off >= n {
			return "offset out of range"
		}
		if seen[off] {
			return "offset repeated"
		}
		seen[off] = true
		count++
	}
	if count != n {
		return "offsets missing"
	}
	return ""
}

func TestDense(t *testing.T) {
	tests := []struct {
		name           string
		shape, strides []int
		perm           []int // nil: not dense
	}{
		{"0-D", []int{}, []int{}, []int{}},
		{"C order", []int{2, 3, 4}, []int{12, 4, 1}, []int{0, 1, 2}},
		{"F order", []int{2, 3, 4}, []int{1, 2, 6}, []int{2, 1, 0}},
		{"non-square transpose", []int{3, 4}, []int{1, 3}, []int{1, 0}},
		{"3-cycle", []int{2, 3, 4}, []int{1, 8, 2}, []int{2, 0, 1}},
		{"unit axis odd stride", []int{3, 1, 4}, []int{4, 1000, 1}, []int{0, 1, 2}},
		{"unit axis negative stride", []int{3, 1, 4}, []int{4, -5, 1}, []int{0, 1, 2}},
		{"all unit", []int{1, 1}, []int{0, 0}, []int{0, 1}},
		{"size-0", []int{3, 0, 4}, []int{99, 0, -3}, []int{0, 1, 2}},
		{"gap", []int{3, 4}, []int{8, 1}, nil},
		{"overlap", []int{2, 2}, []int{1, 1}, nil},
		{"broadcast", []int{3, 4}, []int{0, 1}, nil},
		{"negative", []int{3, 4}, []int{-4, 1}, nil},
		{"not starting at 1", []int{3, 4}, []int{8, 2}, nil},
		{"rank mismatch", []int{3, 4}, []int{4}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			perm, ok := stride.Dense(tt.shape, tt.strides)
			if ok != (tt.perm != nil) {
				t.Fatalf("Dense(%v, %v) ok = %v, want %v", tt.shape, tt.strides, ok, tt.perm != nil)
			}
			if diff := cmp.Diff(tt.perm, perm, equateEmpty); diff != "" {
				t.Errorf("Dense(%v, %v) (-want +got):\n%s", tt.shape, tt.strides, diff)
			}
		})
	}
}

// TestDenseInverse checks that Dense recovers every permutation from the
// strides Logical derives, exhaustively for small ranks.
func TestDenseInverse(t *testing.T) {
	for rank := range 5 {
		for shape := range shapes(rank, 3) {
			for p := range permutations(rank) {
				s := stride.Logical(nil, shape, p)
				got, ok := stride.Dense(shape, s)
				if !ok {
					t.Fatalf("Dense(%v, %v) = not dense", shape, s)
				}
				if diff := cmp.Diff(s, stride.Logical(nil, shape, got), equateEmpty); diff != "" && !onlyUnitAxes(shape, s, stride.Logical(nil, shape, got)) {
					t.Fatalf("Dense(%v, %v) = %v, strides differ (-want +got):\n%s", shape, s, got, diff)
				}
			}
		}
	}
}

// onlyUnitAxes reports whether a and b differ only on axes of size 1.
func onlyUnitAxes(shape, a, b []int) bool {
	for i := range shape {
		if a[i] != b[i] && shape[i] != 1 {
			return false
		}
	}
	return true
}

func permutations(n int) func(yield func([]int) bool) {
	return func(yield func([]int) bool) {
		p := stride.Identity(nil, n)
		var rec func(k int) bool
		rec = func(k int) bool {
			if k == n {
				return yield(slices.Clone(p))
			}
			for i := k; i < n; i++ {
				p[k], p[i] = p[i], p[k]
				if !rec(k + 1) {
					return false
				}
				p[k], p[i] = p[i], p[k]
			}
			return true
		}
		rec(0)
	}
}

func shapes(rank, maxDim int) func(yield func([]int) bool) {
	return func(yield func([]int) bool) {
		s := make([]int, rank)
		for i := range s {
			s[i] = 1
		}
		for {
			if !yield(slices.Clone(s)) {
				return
			}
			i := rank - 1
			for ; i >= 0; i-- {
				if s[i] < maxDim {
					s[i]++
					break
				}
				s[i] = 1
			}
			if i < 0 {
				return
			}
		}
	}
}
