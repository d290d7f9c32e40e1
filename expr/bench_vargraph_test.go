package expr_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/varshape"
)

// varSize is a case of the variable-shape benchmarks: the length of
// row i.
type varSize struct {
	name string
	size func(i int) int
}

// benchVarGraph times text through Compile and Program.Eval on one worker
// over a variable-shape float32 column of 16384 rows of each size, named
// op, beside impl=copy of the column's bytes (the bytes counted).
func benchVarGraph(b *testing.B, op, text string, sizes []varSize) {
	const rows = 16384
	typ := varshape.MustNewType(f32, 1, varshape.Options{})
	mem := memory.NewGoAllocator()
	for _, c := range sizes {
		shapes := make([][]int, rows)
		values := make([][]float32, rows)
		total := 0
		for i := range rows {
			n := c.size(i)
			shapes[i] = []int{n}
			values[i] = make([]float32, n)
			for k := range values[i] {
				values[i][k] = float32((i*7+k)%1000)/1000 - 0.5
			}
			total += n
		}
		x, err := varshape.FromSlices(mem, typ, shapes, values)
		if err != nil {
			b.Fatal(err)
		}
		schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ}}, nil)
		rec := array.NewRecordBatch(schema, []arrow.Array{x}, rows)
		x.Release()
		p, err := expr.Compile(text, schema, expr.WithWorkers(1), expr.WithAllocator(mem))
		if err != nil {
			b.Fatal(err)
		}
		bytes := int64(total * 4)
		b.Run(fmt.Sprintf("op=%s/rows=%s/impl=expr", op, c.name), func(b *testing.B) {
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				out, err := p.Eval(rec)
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
		b.Run(fmt.Sprintf("op=%s/rows=%s/impl=copy", op, c.name), func(b *testing.B) {
			src := make([]byte, bytes)
			dst := make([]byte, bytes)
			b.SetBytes(bytes)
			b.ReportAllocs()
			for b.Loop() {
				copy(dst, src)
			}
		})
		rec.Release()
	}
}

// Row lengths: rows=same, every row of 768 elements (one run through one
// program); rows=varied, lengths cycling through 64 sizes from 704 to 767
// (a program per size, runs of one row; bool rows start at any bit);
// rows=distinct, as many sizes as rows (more than the programs kept: a
// compile per row).
var (
	sameRows     = varSize{"same", func(int) int { return 768 }}
	variedRows   = varSize{"varied", func(i int) int { return 704 + i%64 }}
	distinctRows = varSize{"distinct", func(i int) int { return 256 + i%4096 }}
)

// BenchmarkVarGraph times row normalization, x / norm(x, axis=-1,
// keepdims=True), over the rows of sameRows, variedRows and distinctRows
// (benchVarGraph; bytes: the output, which is the input's size).
func BenchmarkVarGraph(b *testing.B) {
	benchVarGraph(b, "normalize", "x / norm(x, axis=-1, keepdims=True)", []varSize{sameRows, variedRows, distinctRows})
}

// BenchmarkVarGraphBool times x > 0, a bool result of each row's shape
// bit-packed into a variable-shape column, over the rows of sameRows and
// variedRows (benchVarGraph; bytes: the input read).
func BenchmarkVarGraphBool(b *testing.B) {
	benchVarGraph(b, "greater", "x > 0", []varSize{sameRows, variedRows})
}
