package expr_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
)

func TestVarResultType(t *testing.T) {
	u8 := arrow.PrimitiveTypes.Uint8
	hwc := varshape.MustNewType(u8, 3, varshape.Options{
		DimNames: []string{"h", "w", "c"}, UniformShape: []int{varshape.Varies, varshape.Varies, 3}})
	chw := varshape.MustNewType(u8, 3, varshape.Options{ // stored (h, w, c), logical (c, h, w)
		DimNames: []string{"c", "h", "w"}, Permutation: []int{2, 0, 1}, UniformShape: []int{3, varshape.Varies, varshape.Varies}})
	whole := varshape.MustNewType(u8, 3, varshape.Options{UniformShape: []int{4, 5, 3}})
	free := varshape.MustNewType(u8, 2, varshape.Options{})
	tests := []struct {
		name, text string
		typ        *varshape.Type
		want       string // the result type's String, or the error's text
		wantErr    bool
	}{
		{"crop varies", "x[:224, :224]", hwc, varshape.MustNewType(u8, 3, varshape.Options{DimNames: []string{"h", "w", "c"}, UniformShape: []int{-1, -1, 3}}).String(), false},
		{"pixel is fixed", "x[0, 0]", hwc, fixedType(t, u8, []int{3}, []string{"c"}).String(), false},
		{"reshape to a size is fixed", "x.reshape(2, 3)", free, fixedType(t, u8, []int{2, 3}, nil).String(), false},
		{"reshape with -1 varies", "x.reshape(-1)", hwc, varshape.MustNewType(u8, 1, varshape.Options{}).String(), false},
		{"transpose moves the fixed axis", "x.transpose(2, 0, 1)", hwc, varshape.MustNewType(u8, 3, varshape.Options{DimNames: []string{"c", "h", "w"}, UniformShape: []int{3, -1, -1}}).String(), false},
		{"channel slice", "x[..., 1:3]", hwc, varshape.MustNewType(u8, 3, varshape.Options{DimNames: []string{"h", "w", "c"}, UniformShape: []int{-1, -1, 2}}).String(), false},
		{"new axis", "x[None, 0]", hwc, varshape.MustNewType(u8, 3, varshape.Options{DimNames: []string{"", "w", "c"}, UniformShape: []int{1, -1, 3}}).String(), false},
		{"empty slice is empty", "x[5:2]", hwc, varshape.MustNewType(u8, 3, varshape.Options{DimNames: []string{"h", "w", "c"}, UniformShape: []int{0, -1, 3}}).String(), false},
		{"permuted input, logical axes", "x[1]", chw, varshape.MustNewType(u8, 2, varshape.Options{DimNames: []string{"h", "w"}}).String(), false},
		{"complete uniform shape", "x.reshape(-1)", whole, fixedType(t, u8, []int{60}, nil).String(), false},
		{"0-D", "x[0, 0, 2]", hwc, u8.String(), false},
		{"index out of a fixed axis", "x[0, 0, 3]", hwc, "out of bounds", true},
		{"syntax", "x[0,", hwc, "expected", true},
		{"computing keeps the axes", "x.astype(float32)", hwc, varshape.MustNewType(arrow.PrimitiveTypes.Float32, 3, varshape.Options{DimNames: []string{"h", "w", "c"}, UniformShape: []int{-1, -1, 3}}).String(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := expr.ParseVar(tt.text, tt.typ).ResultType()
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err = %v, want arrow.ErrInvalid with %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got.String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func fixedType(t *testing.T, elem arrow.DataType, shape []int, names []string) *fixedshape.Type {
	t.Helper()
	m, err := metadata.New(shape, names, nil)
	if err != nil {
		t.Fatal(err)
	}
	typ, err := fixedshape.NewType(elem, m)
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

// TestVarEvalAs evaluates into the type ResultType chose and into a fixed
// type the caller expects.
func TestVarEvalAs(t *testing.T) {
	u16 := arrow.PrimitiveTypes.Uint16
	typ := varshape.MustNewType(u16, 2, varshape.Options{DimNames: []string{"h", "w"}})
	tests := []struct {
		name    string
		shapes  [][]int
		text    string
		as      func(t *testing.T, p *expr.VarExpr) arrow.DataType
		wantErr string
	}{
		{"crop stays variable-shape when rows agree", [][]int{{3, 3}, nil, {4, 5}}, "x[:2, :2]", resultType, ""},
		{"fixed shape", [][]int{{3, 3}, nil, {4, 5}}, "x[:2, :2]", fixedAs([]int{2, 2}), ""},
		{"fixed shape, a row differs", [][]int{{3, 3}, {4, 5}, {1, 5}, {2, 2}}, "x[:2, :2]", fixedAs([]int{2, 2}), `row 2 (column "x" of shape (1,5)): the result's shape (1,2) differs from the column's (2,2)`},
		{"all null, fixed", [][]int{nil, nil}, "x[:2, :2]", fixedAs([]int{2, 2}), ""},
		{"all null, variable", [][]int{nil, nil}, "x[:2, :2]", resultType, ""},
		{"wrong number of dimensions", [][]int{{3, 3}}, "x[0]", func(t *testing.T, p *expr.VarExpr) arrow.DataType {
			return varshape.MustNewType(u16, 2, varshape.Options{})
		}, "the result is 1-D uint16, dense row-major"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			in := varColumn(t, mem, typ, tt.shapes)
			defer in.Release()
			p := expr.ParseVar(tt.text, typ)
			as := tt.as(t, p)
			out, err := p.EvalAs(as, in, expr.WithAllocator(mem))
			if tt.wantErr != "" {
				if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want arrow.ErrInvalid with %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if !arrow.TypeEqual(out.DataType(), as) {
				t.Fatalf("type %v, want %v", out.DataType(), as)
			}
			// Each valid row against the same expression on the row alone.
			for i := range in.Len() {
				if in.IsNull(i) != out.IsNull(i) {
					t.Fatalf("row %d: null %v, want %v", i, out.IsNull(i), in.IsNull(i))
				}
				if in.IsNull(i) {
					continue
				}
				ref := rowRef(t, in, i, tt.text)
				var got []byte
				switch o := out.(type) {
				case *fixedshape.Array:
					size := len(o.ValueBytes()) / o.Len()
					got = o.ValueBytes()[i*size : (i+1)*size]
				case *varshape.Array:
					got = o.RowBytes(i)
				}
				if diff := cmp.Diff(ref.ValueBytes(), got); diff != "" {
					t.Errorf("row %d (-want +got):\n%s", i, diff)
				}
				ref.Release()
			}
		})
	}
}

func resultType(t *testing.T, p *expr.VarExpr) arrow.DataType {
	t.Helper()
	typ, err := p.ResultType()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := typ.(*varshape.Type); !ok {
		t.Fatalf("result type %v, want a variable-shape type", typ)
	}
	return typ
}

func fixedAs(shape []int) func(t *testing.T, p *expr.VarExpr) arrow.DataType {
	return func(t *testing.T, p *expr.VarExpr) arrow.DataType {
		return fixedType(t, arrow.PrimitiveTypes.Uint16, shape, []string{"h", "w"})
	}
}

// TestVarEvalRuns checks runs of consecutive rows of one shape, which go
// to the kernels in one call, against each row alone, on one and two
// workers, through Eval, EvalAs and EvalInto.
func TestVarEvalRuns(t *testing.T) {
	typ := varshape.MustNewType(arrow.PrimitiveTypes.Uint16, 3, varshape.Options{Permutation: []int{1, 0, 2}})
	shapes := [][]int{{3, 4, 2}, {3, 4, 2}, {3, 4, 2}, nil, {3, 4, 2}, {2, 5, 2}, {2, 5, 2}, {40, 3, 2}, {40, 3, 2}, nil, nil, {2, 3, 2}}
	for _, text := range []string{"x.transpose(2, 0, 1)", "x[:2, 1:3]", "x[::-1, :, 0]", "x[:1, :1]", "x.reshape(-1)", "x[..., None, 1]"} {
		for _, workers := range []int{1, 2} {
			t.Run(fmt.Sprintf("%s/workers=%d", text, workers), func(t *testing.T) {
				mem := testvec.CheckedMem(t)
				in := varColumn(t, mem, typ, shapes)
				defer in.Release()
				p := expr.ParseVar(text, typ)
				rt, err := p.ResultType()
				if err != nil {
					t.Fatal(err)
				}
				out, err := p.EvalAs(rt, in, expr.WithAllocator(mem), expr.WithWorkers(workers))
				if err != nil {
					t.Fatal(err)
				}
				defer out.Release()
				var want []byte
				for i := range in.Len() {
					if in.IsNull(i) {
						continue
					}
					ref := rowRef(t, in, i, text)
					want = append(want, ref.ValueBytes()...)
					ref.Release()
				}
				got := make([]byte, len(want)+8)
				n, err := p.EvalInto(got, in, expr.WithWorkers(workers))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got[:n]); diff != "" {
					t.Errorf("EvalInto (-want +got):\n%s", diff)
				}
				va, ok := out.(*varshape.Array)
				if !ok {
					t.Fatalf("result %T", out)
				}
				var all []byte
				for i := range va.Len() {
					if va.IsValid(i) {
						all = append(all, va.RowBytes(i)...)
					}
				}
				if diff := cmp.Diff(want, all); diff != "" {
					t.Errorf("EvalAs (-want +got):\n%s", diff)
				}
			})
		}
	}
}

// TestWithResultType checks the types WithResultType takes and refuses
// at Compile, before any data.
func TestWithResultType(t *testing.T) {
	vt := varshape.MustNewType(arrow.PrimitiveTypes.Uint8, 3, varshape.Options{UniformShape: []int{varshape.Varies, varshape.Varies, 3}})
	ft := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 2, 3}, nil, nil))
	f32 := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 2, 3}, nil, nil))
	flat := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{12}, nil, nil))
	permuted := fixedshape.MustNewType(arrow.PrimitiveTypes.Uint8, metadata.MustNew([]int{2, 2, 3}, nil, []int{2, 0, 1}))
	vschema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: vt, Nullable: true}}, nil)
	fschema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: ft, Nullable: true}}, nil)
	for _, tt := range []struct {
		name   string
		schema *arrow.Schema
		text   string
		as     arrow.DataType
		ok     bool
	}{
		{"fixed shape of a crop", vschema, "x[:2, :2]", ft, true},
		{"variable shape", vschema, "x[:2, :2]", vt, true},
		{"other element type", vschema, "x[:2, :2]", f32, false},
		{"other number of dimensions", vschema, "x[:2, :2]", flat, false},
		{"a permutation", vschema, "x[:2, :2]", permuted, false},
		{"one value per row, of the type decided", vschema, "x.mean()", arrow.PrimitiveTypes.Float64, true},
		{"one value per row, of another type", vschema, "x.mean()", arrow.PrimitiveTypes.Float32, false},
		{"a plain type", vschema, "x[:2, :2]", arrow.PrimitiveTypes.Uint8, false},
		{"a fixed-shape column", fschema, "x[:2, :2]", ft, false},
		{"a graph", vschema, "x[:2, :2] * 2 - x[:2, :2]", ft, true},
		{"a graph of another element type", vschema, "x[:2, :2] > 1", ft, false},
		{"nil", vschema, "x[:2, :2]", nil, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, err := expr.Compile(tt.text, tt.schema, expr.WithResultType(tt.as))
			if !tt.ok {
				if !errors.Is(err, arrow.ErrInvalid) && !errors.Is(err, arrow.ErrNotImplemented) {
					t.Fatalf("Compile = %v, want an error", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Schema().Field(0).Type; !arrow.TypeEqual(got, tt.as) {
				t.Errorf("Schema type %v, want %v", got, tt.as)
			}
		})
	}
}
