package expr_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/varshape"
	"github.com/google/go-cmp/cmp"
)

func mustFixed(t testing.TB, elem arrow.DataType, shape ...int) *fixedshape.Type {
	t.Helper()
	typ, err := fixedshape.NewType(elem, metadata.MustNew(shape, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func mustVar(t testing.TB, elem arrow.DataType, uniform ...int) *varshape.Type {
	t.Helper()
	typ, err := varshape.NewType(elem, len(uniform), varshape.Options{UniformShape: uniform})
	if err != nil {
		t.Fatal(err)
	}
	return typ
}

func schemaOf(fields ...arrow.Field) *arrow.Schema { return arrow.NewSchema(fields, nil) }

// TestCompile checks the column a text reads, the output schema known
// before data, and the errors of names, over schemas of fixed- and
// variable-shape tensor columns and plain columns.
func TestCompile(t *testing.T) {
	f32x4 := mustFixed(t, f32, 4)
	u8x2x3 := mustFixed(t, u8, 2, 3)
	img := mustVar(t, u8, varshape.Varies, varshape.Varies, 3)
	one := schemaOf(arrow.Field{Name: "emb", Type: f32x4}, arrow.Field{Name: "id", Type: i64})
	many := schemaOf(
		arrow.Field{Name: "a", Type: f32x4}, arrow.Field{Name: "b", Type: f32x4},
		arrow.Field{Name: "a b", Type: u8x2x3}, arrow.Field{Name: "scale", Type: f64},
		arrow.Field{Name: "label", Type: arrow.BinaryTypes.String},
		arrow.Field{Name: "z", Type: mustFixed(t, f32)},
	)
	vars := schemaOf(arrow.Field{Name: "img", Type: img}, arrow.Field{Name: "id", Type: i64})
	cases := []struct {
		name    string
		schema  *arrow.Schema
		text    string
		opts    []expr.Option
		input   string
		usesX   bool
		outName string
		out     arrow.DataType
		err     error
	}{
		{name: "x is the only tensor column", schema: one, text: "x * 2", input: "emb", usesX: true, outName: "emb", out: f32x4},
		{name: "x reduced", schema: one, text: "norm(x)", input: "emb", usesX: true, outName: "emb", out: f32},
		{name: "named column", schema: one, text: "emb.mean()", input: "emb", outName: "result", out: f32},
		{name: "WithName", schema: one, text: "x.sum()", opts: []expr.Option{expr.WithName("s")}, input: "emb", usesX: true, outName: "s", out: f32},
		{name: "plain column", schema: one, text: "id * 2", input: "id", outName: "result", out: i64},
		{name: "plain column with a constant tensor", schema: many, text: "scale * [1.0, 2.0]", input: "scale", outName: "result", out: mustFixed(t, f64, 2)},
		{name: "WithInput", schema: many, text: "x[1]", opts: []expr.Option{expr.WithInput("a b")}, input: "a b", usesX: true, outName: "a b", out: mustFixed(t, u8, 3)},
		{name: "col of a name with a space", schema: many, text: `col("a b").T`, input: "a b", outName: "result", out: mustFixed(t, u8, 3, 2)},
		{name: "col in single quotes", schema: many, text: `dot(col('b'), [1.0, 0, 0, 1])`, input: "b", outName: "result", out: f64},
		{name: "0-D column", schema: many, text: "z + 1", input: "z", outName: "result", out: mustFixed(t, f32)},
		{name: "variable-shape channel means", schema: vars, text: "img.astype(float32).mean(axis=(0, 1))", input: "img", outName: "result", out: mustFixed(t, f32, 3)},
		{name: "variable-shape x", schema: vars, text: "x.max()", input: "img", usesX: true, outName: "img", out: u8},
		{name: "variable-shape crop", schema: vars, text: "x[:2, :2]", input: "img", usesX: true, outName: "img", out: mustVar(t, u8, varshape.Varies, varshape.Varies, 3)},
		{name: "relabel", schema: one, text: "x.reshape(2, 2).T", opts: []expr.Option{expr.WithRelabel()}, input: "emb", usesX: true, outName: "emb",
			out: func() arrow.DataType {
				typ, err := fixedshape.NewType(f32, metadata.MustNew([]int{2, 2}, nil, []int{1, 0}))
				if err != nil {
					t.Fatal(err)
				}
				return typ
			}()},
		{name: "unknown column", schema: many, text: "c + 1", err: arrow.ErrInvalid},
		{name: "unknown col", schema: many, text: `col("nope")`, err: arrow.ErrInvalid},
		{name: "x without a single tensor column", schema: many, text: "x + 1", err: arrow.ErrInvalid},
		{name: "WithInput unknown", schema: many, text: "x", opts: []expr.Option{expr.WithInput("nope")}, err: arrow.ErrInvalid},
		{name: "two columns", schema: many, text: "a + b", input: "a", outName: "result", out: f32x4},
		{name: "two columns through x", schema: many, text: "dot(x, b)", opts: []expr.Option{expr.WithInput("a")}, input: "a", usesX: true, outName: "a", out: f32},
		{name: "x and its name", schema: one, text: "x + emb", input: "emb", usesX: true, outName: "emb", out: f32x4},
		{name: "a column twice", schema: many, text: "a - a.mean()", input: "a", outName: "result", out: f32x4},
		{name: "a column and a plain one", schema: many, text: "a * scale", input: "a", outName: "result", out: mustFixed(t, f64, 4)},
		{name: "comparison", schema: many, text: "a > b", input: "a", outName: "result", out: mustFixed(t, arrow.FixedWidthTypes.Boolean, 4)},
		{name: "two columns that do not broadcast", schema: many, text: "a + col('a b')", err: arrow.ErrInvalid},
		{name: "string column", schema: many, text: "label + 1", err: arrow.ErrInvalid},
		{name: "unterminated string", schema: many, text: `col("a b`, err: arrow.ErrInvalid},
		{name: "col of a number", schema: many, text: `col(1)`, err: arrow.ErrInvalid},
		{name: "no column", schema: many, text: "1 + 2", err: arrow.ErrInvalid},
		{name: "syntax", schema: one, text: "emb[", err: arrow.ErrInvalid},
		{name: "no schema", text: "x", err: arrow.ErrInvalid},
		{name: "size-0 result", schema: many, text: "a[:0] * 2", err: arrow.ErrNotImplemented},
		{name: "variable-shape two columns", schema: schemaOf(arrow.Field{Name: "img", Type: img}, arrow.Field{Name: "im2", Type: img}), text: "img + im2", input: "img", outName: "result", out: mustVar(t, u8, varshape.Varies, varshape.Varies, 3)},
		{name: "variable-shape reuse", schema: vars, text: "x - x.mean()", input: "img", usesX: true, outName: "img", out: mustVar(t, f64, varshape.Varies, varshape.Varies, 3)},
		{name: "variable-shape comparison", schema: vars, text: "img > 3", input: "img", outName: "result", out: mustVar(t, arrow.FixedWidthTypes.Boolean, varshape.Varies, varshape.Varies, 3)},
		{name: "variable-shape comparison counted", schema: vars, text: "(img > 3).sum(axis=(0, 1))", input: "img", outName: "result", out: mustFixed(t, arrow.PrimitiveTypes.Int64, 3)},
		{name: "variable-shape view after computing", schema: vars, text: "(x * 2)[0]", input: "img", usesX: true, outName: "img", out: mustVar(t, u8, varshape.Varies, 3)},
		{name: "variable-shape chain with a constant on the left", schema: vars, text: "1 - x[0] / 255", input: "img", usesX: true, outName: "img", out: mustVar(t, f64, varshape.Varies, 3)},
		{name: "variable-shape index out of bounds of a fixed axis", schema: vars, text: "img[..., 5]", err: arrow.ErrInvalid},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := expr.Compile(c.text, c.schema, c.opts...)
			if c.err != nil {
				if !errors.Is(err, c.err) {
					t.Fatalf("Compile(%q) = %v, want an error wrapping %v", c.text, err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile(%q): %v", c.text, err)
			}
			got := struct {
				Input, Name, Type string
				UsesX             bool
			}{p.Input(), p.Schema().Field(0).Name, p.Schema().Field(0).Type.String(), p.UsesX()}
			want := struct {
				Input, Name, Type string
				UsesX             bool
			}{c.input, c.outName, c.out.String(), c.usesX}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestProgramComputeCases runs every computing case of the NumPy tables
// through a Program over a one-column schema and checks that the schema
// known before data is the type of what Eval returns, and that the values
// are the Plan's: bit for bit, but for the results of sums (the engine
// and a Plan accumulate in other orders), which match as the NumPy
// comparison's close does.
func TestProgramComputeCases(t *testing.T) {
	mem := testvec.CheckedMem(t)
	r := rand.New(rand.NewPCG(25, 1))
	const batch = 3
	for _, c := range append(computeCases(), shapeCases...) {
		t.Run(c.name, func(t *testing.T) {
			typ, err := fixedshape.NewType(c.dtype, metadata.MustNew(c.shape, nil, nil))
			if err != nil {
				t.Fatal(err)
			}
			schema := schemaOf(arrow.Field{Name: "t", Type: typ, Nullable: true})
			e, perr := expr.Parse(c.text, expr.Input(typ))
			p, err := expr.Compile(c.text, schema, expr.WithAllocator(mem))
			if perr != nil {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("Parse fails with %v, Compile with %v", perr, err)
				}
				return
			}
			rt, rerr := planType(e)
			if rerr != nil {
				if !errors.Is(err, arrow.ErrNotImplemented) && !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("ResultType fails with %v, Compile with %v", rerr, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			if !arrow.TypeEqual(rt, p.Schema().Field(0).Type) {
				t.Fatalf("Schema %v, ResultType %v", p.Schema().Field(0).Type, rt)
			}
			raw := randomColumn(r, c, batch)
			in := nullTerminated(t, typ, raw, batch)
			defer in.Release()
			rec := array.NewRecordBatch(schema, []arrow.Array{in}, int64(in.Len()))
			defer rec.Release()
			out, err := p.Eval(rec)
			if err != nil {
				t.Fatalf("Eval: %v", err)
			}
			defer out.Release()
			if !out.Schema().Equal(p.Schema()) || !arrow.TypeEqual(out.Column(0).DataType(), p.Schema().Field(0).Type) {
				t.Fatalf("Eval returned %v, Schema is %v", out.Column(0).DataType(), p.Schema())
			}
			want, err := evalPlan(e, in, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer want.Release()
			if !accumulates(c.text) {
				if diff := cmp.Diff(valueBytes(want), valueBytes(out.Column(0))); diff != "" {
					t.Errorf("Program and Plan differ (-plan +program):\n%s", diff)
				}
			} else {
				dt := numpyDType(p.Schema().Field(0).Type)
				if ft, ok := p.Schema().Field(0).Type.(*fixedshape.Type); ok {
					dt = numpyDType(ft.ElemType())
				}
				wv, gv := decode(dt, valueBytes(want)), decode(dt, valueBytes(out.Column(0)))
				if len(wv) != len(gv) {
					t.Fatalf("Plan gives %d values, Program %d", len(wv), len(gv))
				}
				for j := range wv {
					if !close(dt, numpyDType(c.dtype), wv[j], gv[j], max(1, typ.ListSize())) {
						t.Fatalf("value %d: Plan %v, Program %v", j, wv[j], gv[j])
					}
				}
			}
			if !out.Column(0).IsNull(batch) {
				t.Errorf("the null row's result is not null")
			}
		})
	}
}

// nullTerminated returns a column of the batch tensors in raw followed by
// a null tensor.
func nullTerminated(t *testing.T, typ *fixedshape.Type, raw []byte, batch int) *fixedshape.Array {
	t.Helper()
	size := typ.ListSize()
	w := len(raw) / max(1, batch*size)
	if size == 0 {
		w = 1
	}
	buf := memory.NewBufferBytes(append(raw, make([]byte, size*w)...))
	valid := []byte{byte(1<<batch - 1)}
	child := array.NewData(typ.ElemType(), (batch+1)*size, []*memory.Buffer{nil, buf}, nil, 0, 0)
	defer child.Release()
	data := array.NewData(typ, batch+1, []*memory.Buffer{memory.NewBufferBytes(valid)}, []arrow.ArrayData{child}, 1, 0)
	defer data.Release()
	return array.MakeFromData(data).(*fixedshape.Array)
}

// valueBytes returns the bytes of the values of a tensor or plain column.
// accumulates reports whether text reduces by a sum: its result's last
// bits depend on the order of accumulation.
func accumulates(text string) bool {
	for _, w := range []string{"sum", "mean", "var", "std", "norm", "dot", "cosine", "l2", "sqeuclidean"} {
		if strings.Contains(text, w) {
			return true
		}
	}
	return false
}

func valueBytes(a arrow.Array) []byte {
	if fa, ok := a.(*fixedshape.Array); ok {
		return fa.ValueBytes()
	}
	return a.Data().Buffers()[1].Bytes()
}

// TestProgramEvalColumns evaluates programs over a plain column (sliced,
// with a null) and a variable-shape column, and checks the results and
// their types against Schema.
func TestProgramEvalColumns(t *testing.T) {
	mem := testvec.CheckedMem(t)
	vt := mustVar(t, u16, varshape.Varies, 2)
	schema := schemaOf(arrow.Field{Name: "price", Type: f64, Nullable: true}, arrow.Field{Name: "v", Type: vt, Nullable: true})
	b := array.NewFloat64Builder(mem)
	b.AppendValues([]float64{1, 2, 3, 4}, []bool{true, true, false, true})
	whole := b.NewArray()
	b.Release()
	defer whole.Release()
	price := array.NewSlice(whole, 1, 4)
	defer price.Release()
	v := varColumn(t, mem, vt, [][]int{{1, 2}, nil, {3, 2}})
	defer v.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{price, v}, 3)
	defer rec.Release()
	cases := []struct {
		name, text string
		want       string
	}{
		{"plain arithmetic", "price * 2 + 1", "[5 (null) 9]"},
		{"plain to tensor", "price * [1.0, -1.0]", "[[2,-2] (null) [4,-4]]"},
		{"variable-shape sum", "v.sum(axis=0)", "[[0,1] (null) [6006,6009]]"},
		{"variable-shape max", "v.max()", "[1 (null) 2005]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := expr.Compile(c.text, schema, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			out, err := p.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			if !arrow.TypeEqual(out.Column(0).DataType(), p.Schema().Field(0).Type) {
				t.Errorf("Eval returned %v, Schema is %v", out.Column(0).DataType(), p.Schema())
			}
			if diff := cmp.Diff(c.want, out.Column(0).String()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// checkProgram compiles text for a schema of in's column alone and checks
// that its Schema, known before data, is the type of want (the VarPlan's
// EvalAs result), and that Program.Eval gives want.
func checkProgram(t *testing.T, text string, in *varshape.Array, want arrow.Array, opts []expr.Option) {
	t.Helper()
	schema := schemaOf(arrow.Field{Name: "x", Type: in.DataType(), Nullable: true})
	p, err := expr.Compile(text, schema, opts...)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	// The engine names the axes of more results than a Plan (those of a
	// reshape it keeps, those of x beside a broadcast one): the types
	// are compared without their dimension names.
	if diff := cmp.Diff(typeWithoutNames(t, want.DataType()), typeWithoutNames(t, p.Schema().Field(0).Type)); diff != "" {
		t.Fatalf("Program.Schema and VarPlan.ResultType differ (-plan +program):\n%s", diff)
	}
	rec := array.NewRecordBatch(schema, []arrow.Array{in}, int64(in.Len()))
	defer rec.Release()
	out, err := p.Eval(rec)
	if err != nil {
		t.Fatalf("Program.Eval: %v", err)
	}
	defer out.Release()
	w, g := storageOf(want), storageOf(out.Column(0))
	if !array.Equal(w, g) && !array.ApproxEqual(w, g, array.WithNaNsEqual(true)) {
		t.Errorf("Program.Eval %v, VarPlan.EvalAs %v", out.Column(0), want)
	}
}

// typeWithoutNames returns the text of a result type with the names of
// its dimensions dropped.
func typeWithoutNames(t *testing.T, dt arrow.DataType) string {
	t.Helper()
	switch u := dt.(type) {
	case *fixedshape.Type:
		m, err := metadata.New(u.Shape(), nil, u.Permutation())
		if err != nil {
			t.Fatal(err)
		}
		return fixedshape.MustNewType(u.ElemType(), m).String()
	case *varshape.Type:
		return varshape.MustNewType(u.ElemType(), u.NDim(), varshape.Options{Permutation: u.Permutation(), UniformShape: u.UniformShape()}).String()
	}
	return dt.String()
}

// storageOf returns an extension column's storage, any other column
// itself.
func storageOf(a arrow.Array) arrow.Array {
	if e, ok := a.(array.ExtensionArray); ok {
		return e.Storage()
	}
	return a
}

// TestProgramConcurrent evaluates one Program from several goroutines,
// over fixed- and variable-shape columns, and checks every result.
func TestProgramConcurrent(t *testing.T) {
	mem := testvec.CheckedMem(t)
	vt := mustVar(t, u16, varshape.Varies, 2)
	ft := mustFixed(t, f32, 2, 2)
	schema := schemaOf(arrow.Field{Name: "v", Type: vt, Nullable: true}, arrow.Field{Name: "f", Type: ft, Nullable: true})
	v := varColumn(t, mem, vt, [][]int{{1, 2}, nil, {3, 2}, {2, 2}})
	defer v.Release()
	f, err := fixedshape.FromSlice(ft, []float32{1, 2, 3, 4, 0, 0, 0, 0, 5, 6, 7, 8, -1, -2, -3, -4}, []bool{true, false, true, true})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{v, f}, 4)
	defer rec.Release()
	for _, text := range []string{"v.sum(axis=0)", "norm(f, axis=-1)", "v.astype(float32) / 2"} {
		t.Run(text, func(t *testing.T) {
			p, err := expr.Compile(text, schema, expr.WithAllocator(mem), expr.WithWorkers(1))
			if err != nil {
				t.Fatal(err)
			}
			first, err := p.Eval(rec)
			if err != nil {
				t.Fatal(err)
			}
			defer first.Release()
			want := first.Column(0).String()
			errs := make(chan error, 8)
			for range 8 {
				go func() {
					for range 20 {
						out, err := p.Eval(rec)
						if err != nil {
							errs <- err
							return
						}
						got := out.Column(0).String()
						out.Release()
						if got != want {
							errs <- fmt.Errorf("got %s, want %s", got, want)
							return
						}
					}
					errs <- nil
				}()
			}
			for range 8 {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		})
	}
}
