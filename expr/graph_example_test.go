package expr_test

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// exampleBatch returns two rows of two float32 (4,) tensor columns.
func exampleBatch(a, b []float32) arrow.RecordBatch {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{4}, nil, nil))
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: typ, Nullable: true}, {Name: "b", Type: typ, Nullable: true}}, nil)
	ca, _ := fixedshape.FromSlice(typ, a, nil)
	defer ca.Release()
	cb, _ := fixedshape.FromSlice(typ, b, nil)
	defer cb.Release()
	return array.NewRecordBatch(schema, []arrow.Array{ca, cb}, 2)
}

// Normalizing each embedding to unit length reads x twice: the engine
// computes the norm of a row and divides the row by it.
func Example_normalizeRows() {
	rec := exampleBatch([]float32{3, 4, 0, 0, 0, 0, 0, 2}, []float32{0, 0, 0, 0, 0, 0, 0, 0})
	defer rec.Release()
	p, err := expr.Compile("x / norm(x, axis=-1, keepdims=True)", rec.Schema(), expr.WithInput("a"))
	if err != nil {
		panic(err)
	}
	out, err := p.Eval(rec)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(p.Schema().Field(0).Name, out.Column(0))
	// Output:
	// a [[0.6,0.8,0,0] [0,0,0,1]]
}

// The Euclidean distance between two tensor columns, row by row, is a
// plain float32 column.
func Example_distance() {
	rec := exampleBatch([]float32{1, 2, 3, 4, 1, 1, 1, 1}, []float32{1, 2, 0, 0, 1, 1, 1, 1})
	defer rec.Release()
	p, err := expr.Compile("norm(a - b, axis=-1)", rec.Schema(), expr.WithName("dist"))
	if err != nil {
		panic(err)
	}
	out, err := p.Eval(rec)
	if err != nil {
		panic(err)
	}
	defer out.Release()
	fmt.Println(p.Schema().Field(0).Type, out.Column(0))
	// Output:
	// float32 [5 0]
}

// A comparison makes a bool tensor; a mask keeps the elements where it
// is true, and any() tells which rows have one.
func Example_mask() {
	rec := exampleBatch([]float32{-1, 2, -3, 4, -1, -2, -3, -4}, []float32{0, 0, 0, 0, 0, 0, 0, 0})
	defer rec.Release()
	for _, text := range []string{"where(a > 0, a, 0)", "(a > 0).any()", "(a > 0).sum()"} {
		p, err := expr.Compile(text, rec.Schema())
		if err != nil {
			panic(err)
		}
		out, err := p.Eval(rec)
		if err != nil {
			panic(err)
		}
		fmt.Println(text, out.Column(0))
		out.Release()
	}
	// Output:
	// where(a > 0, a, 0) [[0,2,0,4] [0,0,0,0]]
	// (a > 0).any() [true false]
	// (a > 0).sum() [2 0]
}

// The Go builder makes the same expressions as the text, which String
// prints.
func ExampleBinary() {
	a, b := expr.Col("a"), expr.Col("b")
	diff := expr.Binary(expr.Sub, a, b)
	e := expr.Reduce(expr.Binary(expr.Mul, diff, diff), expr.Sum, false, -1)
	fmt.Println(e)
	back, _ := expr.Parse(e.String(), nil)
	fmt.Println(expr.Equal(e, back))
	// Output:
	// ((a - b) * (a - b)).sum(axis=-1)
	// true
}
