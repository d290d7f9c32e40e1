package expr_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/stride"
	"github.com/google/go-cmp/cmp"
)

// vector is a case of seed_systems.json with its input and expected
// objects decoded by key.
type vector struct {
	ID              string
	Input, Expected map[string]json.RawMessage
}

// loadVectors returns the cases of system (testvec.Seeds) as vectors.
func loadVectors(t *testing.T, system string) []vector {
	t.Helper()
	var out []vector
	for _, s := range testvec.Seeds(t, system) {
		out = append(out, vector{ID: s.ID, Input: jsonObject(t, s.Input), Expected: jsonObject(t, s.Expected)})
	}
	return out
}

// jsonObject decodes a JSON object by key; no text decodes as nil.
func jsonObject(t *testing.T, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func field[T any](t *testing.T, m map[string]json.RawMessage, key string) (T, bool) {
	t.Helper()
	var v T
	raw, ok := m[key]
	if !ok {
		return v, false
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return v, true
}

// opt maps JSON null to expr.Omit.
func opt(p *int) int {
	if p == nil {
		return expr.Omit
	}
	return *p
}

func int64Input(t *testing.T, shape []int) expr.Expr {
	t.Helper()
	return expr.InputOf(arrow.PrimitiveTypes.Int64, metadata.MustNew(shape, nil, nil))
}

// evalInt64 materializes e over one tensor holding 0, 1, 2, ... in
// physical order and returns the result's elements.
func evalInt64(t *testing.T, e expr.Expr) ([]int64, error) {
	t.Helper()
	mem := testvec.CheckedMem(t)
	typ := fixedshape.MustNewType(e.ElemType(), e.Input())
	data := make([]int64, typ.ListSize())
	for i := range data {
		data[i] = int64(i)
	}
	in, err := fixedshape.FromSlice(typ, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	out, err := evalTensors(e, in, expr.WithAllocator(mem))
	if err != nil {
		return nil, err
	}
	defer out.Release()
	col, err := fixedshape.ColumnOf[int64](out)
	if err != nil {
		t.Fatal(err)
	}
	return slices.Clone(col.Values()), nil
}

func TestNdindexSlices(t *testing.T) {
	for _, v := range loadVectors(t, "ndindex") {
		if !strings.HasPrefix(v.ID, "ndindex-slice-") {
			continue
		}
		t.Run(v.ID, func(t *testing.T) {
			start, _ := field[*int](t, v.Input, "start")
			stop, _ := field[*int](t, v.Input, "stop")
			step, _ := field[*int](t, v.Input, "step")
			it := expr.Span(opt(start), opt(stop), opt(step))
			size, ok := field[int](t, v.Input, "size")
			if !ok {
				// ndindex's shape-free reduce has no counterpart here:
				// expressions always know their input shape.
				t.Skipf("shape-free Slice.reduce() is out of scope; expected %s", v.Expected["ndindex_reduce"])
			}
			want, _ := field[[3]int](t, v.Expected, "ndindex_reduce")
			red, count, err := expr.ReduceSlice(it, size)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(expr.Span(want[0], want[1], stepOrOmit(want[2])).String(), red.String()); diff != "" {
				t.Errorf("ReduceSlice (-want +got):\n%s", diff)
			}
			py, _ := field[[3]int](t, v.Expected, "python_slice_indices")
			a, b, c, n, err := expr.Indices(it, size)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(py, [3]int{a, b, c}); diff != "" {
				t.Errorf("Indices (-want +got):\n%s", diff)
			}
			length, _ := field[int](t, v.Expected, "length")
			if count != length || n != length {
				t.Errorf("count = %d, %d, want %d", count, n, length)
			}
			e := expr.Slice(int64Input(t, []int{size}), 0, opt(start), opt(stop), opt(step))
			if diff := cmp.Diff([]int{length}, e.Metadata().Shape()); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			got, err := evalInt64(t, e)
			if length == 0 {
				if !errors.Is(err, arrow.ErrNotImplemented) {
					t.Errorf("Eval of an empty result = %v, want ErrNotImplemented", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			selected, _ := field[[]int64](t, v.Expected, "selected")
			if diff := cmp.Diff(selected, got); diff != "" {
				t.Errorf("selected (-want +got):\n%s", diff)
			}
			// The reduced slice selects the same elements.
			if red2 := expr.Subscript(int64Input(t, []int{size}), red); true {
				got2, err := evalInt64(t, red2)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(selected, got2); diff != "" {
					t.Errorf("reduced %s selects (-want +got):\n%s", red, diff)
				}
			}
		})
	}
}

func stepOrOmit(step int) int {
	if step == 1 {
		return expr.Omit
	}
	return step
}

// ndindexText converts ndindex's repr of a reduced index to this
// package's text form over x.
func ndindexText(t *testing.T, repr string) string {
	t.Helper()
	inner := repr
	switch {
	case repr == "Tuple()":
		return "x"
	case strings.HasPrefix(repr, "Tuple("):
		inner = strings.TrimSuffix(strings.TrimPrefix(repr, "Tuple("), ")")
	}
	var parts []string
	depth, last := 0, 0
	for i, c := range inner + "," {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, strings.TrimSpace(inner[last:i]))
				last = i + 1
			}
		}
	}
	var items []string
	for _, p := range parts {
		switch {
		case p == "Newaxis()" || p == "None":
			items = append(items, "None")
		case strings.HasPrefix(p, "slice(") || strings.HasPrefix(p, "Slice("):
			var a, b, c int
			if _, err := fmt.Sscanf(p[6:], "%d, %d, %d)", &a, &b, &c); err != nil {
				t.Fatalf("ndindex repr %q: %v", p, err)
			}
			items = append(items, expr.Span(a, b, stepOrOmit(c)).String())
		default:
			items = append(items, p)
		}
	}
	return "x[" + strings.Join(items, ", ") + "]"
}

func TestNdindexTuples(t *testing.T) {
	for _, v := range loadVectors(t, "ndindex") {
		if strings.HasPrefix(v.ID, "ndindex-slice-") {
			continue
		}
		t.Run(v.ID, func(t *testing.T) {
			var items []expr.Item
			var shape []int
			if strings.HasPrefix(v.ID, "ndindex-integer-") {
				i, _ := field[int](t, v.Input, "index")
				size, _ := field[int](t, v.Input, "size")
				// ndindex's newshape (3,) is that of an input (size, 3).
				shape = []int{size, 3}
				items = []expr.Item{expr.At(i)}
			} else {
				shape, _ = field[[]int](t, v.Input, "shape")
				raw, _ := field[[]json.RawMessage](t, v.Input, "index")
				for _, r := range raw {
					var s string
					var n int
					var sl struct {
						Slice [3]*int `json:"slice"`
					}
					switch {
					case json.Unmarshal(r, &s) == nil && s == "newaxis":
						items = append(items, expr.NewAxis())
					case s == "...":
						items = append(items, expr.Ellipsis())
					case json.Unmarshal(r, &n) == nil:
						items = append(items, expr.At(n))
					case json.Unmarshal(r, &sl) == nil:
						items = append(items, expr.Span(opt(sl.Slice[0]), opt(sl.Slice[1]), opt(sl.Slice[2])))
					default:
						t.Fatalf("index item %s", r)
					}
				}
			}
			x := int64Input(t, shape)
			e := expr.Subscript(x, items...)
			if isErr, _ := field[bool](t, v.Expected, "error"); isErr {
				sub, _ := field[string](t, v.Expected, "substring")
				err := expr.Check(e)
				if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), sub) {
					t.Fatalf("Check = %v, want an ErrInvalid containing %q", err, sub)
				}
				if _, err := expr.Parse(e.String(), x); err == nil || !strings.Contains(err.Error(), sub) {
					t.Fatalf("Parse(%q) = %v, want an error containing %q", e, err, sub)
				}
				return
			}
			if err := expr.Check(e); err != nil {
				t.Fatal(err)
			}
			want, ok := field[[]int](t, v.Expected, "result_shape")
			if !ok {
				want, _ = field[[]int](t, v.Expected, "newshape")
			}
			if diff := cmp.Diff(want, e.Metadata().Shape(), cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			p, err := expr.Parse(e.String(), x)
			if err != nil {
				t.Fatal(err)
			}
			if !expr.Equal(e, p) {
				t.Errorf("Parse(%q) = %s, not equal", e, p)
			}
			var wantText string
			if red, ok := field[int](t, v.Expected, "reduce"); ok {
				wantText = fmt.Sprintf("x[%d]", red)
			} else {
				repr, _ := field[string](t, v.Expected, "ndindex_reduce")
				wantText = ndindexText(t, repr)
			}
			if diff := cmp.Diff(wantText, expr.Simplify(e).String()); diff != "" {
				t.Errorf("Simplify(%s) (-want +got):\n%s", e, diff)
			}
		})
	}
}

func TestNumpyReshape(t *testing.T) {
	for _, v := range loadVectors(t, "numpy_reshape") {
		t.Run(v.ID, func(t *testing.T) {
			shape, _ := field[[]int](t, v.Input, "logical_shape")
			newShape, _ := field[[]int](t, v.Input, "newshape")
			if isErr, _ := field[bool](t, v.Expected, "error"); isErr {
				msg, _ := field[string](t, v.Expected, "message")
				err := expr.Check(expr.Reshape(int64Input(t, shape), newShape...))
				if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), msg) {
					t.Fatalf("Check = %v, want an ErrInvalid containing %q", err, msg)
				}
				return
			}
			byteStrides, _ := field[[]int](t, v.Input, "byte_strides")
			itemsize, _ := field[int](t, v.Input, "itemsize")
			order, _ := field[string](t, v.Input, "order")
			strides := make([]int, len(byteStrides))
			for i, b := range byteStrides {
				strides[i] = b / itemsize
			}
			perm, ok := stride.Dense(shape, strides)
			if !ok {
				t.Fatalf("strides %v of %v are not a dense layout", strides, shape)
			}
			x := expr.InputOf(arrow.PrimitiveTypes.Int32, metadata.MustNew(shape, nil, perm))
			var e expr.Expr
			if order == "F" {
				// Fortran-order reshape == reversed axes, C-order reshape
				// to the reversed shape, reversed axes.
				e = expr.Transpose(expr.Reshape(expr.Transpose(x), reversed(newShape)...), nil...)
			} else {
				e = expr.Reshape(x, newShape...)
			}
			want, _ := field[[]int](t, v.Expected, "result_shape")
			if diff := cmp.Diff(want, e.Metadata().Shape(), cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
				t.Errorf("shape (-want +got):\n%s", diff)
			}
			p, err := expr.CompilePlan(e)
			if err != nil {
				t.Fatal(err)
			}
			stages := p.Stages()
			last := stages[len(stages)-1]
			view := len(stages) == 1 && slices.Equal(last.Shape, want)
			needsCopy, _ := field[bool](t, v.Expected, "needs_copy")
			if view == needsCopy {
				t.Fatalf("plan %s: view %v, want needs_copy %v", p, view, needsCopy)
			}
			if !needsCopy {
				wantStrides, _ := field[[]int](t, v.Expected, "result_byte_strides_if_view")
				got := stride.Bytes(nil, last.Strides, itemsize)
				if diff := cmp.Diff(wantStrides, got, cmp.Comparer(func(a, b []int) bool { return slices.Equal(a, b) })); diff != "" {
					t.Errorf("view byte strides (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func reversed(xs []int) []int {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}
