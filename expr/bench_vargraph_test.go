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

// BenchmarkVarGraph times row normalization, x / norm(x, axis=-1,
// keepdims=True), through Compile and Program.Eval on one worker over a
// variable-shape float32 column of 16384 rows: rows=same, every row of
// 768 elements (one run through one program); rows=varied, lengths
// cycling through 64 sizes from 704 to 767 (a program per size, runs of
// one row); rows=distinct, as many sizes as rows (more than the
// programs kept: a compile per row). Bytes: the output, beside
// impl=copy of the same bytes.
func BenchmarkVarGraph(b *testing.B) {
	const rows = 16384
	typ := varshape.MustNewType(f32, 1, varshape.Options{})
	mem := memory.NewGoAllocator()
	for _, c := range []struct {
		name string
		size func(i int) int
	}{
		{"same", func(int) int { return 768 }},
		{"varied", func(i int) int { return 704 + i%64 }},
		{"distinct", func(i int) int { return 256 + i%4096 }},
	} {
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
		p, err := expr.Compile("x / norm(x, axis=-1, keepdims=True)", schema, expr.WithWorkers(1), expr.WithAllocator(mem))
		if err != nil {
			b.Fatal(err)
		}
		bytes := int64(total * 4)
		b.Run(fmt.Sprintf("op=normalize/rows=%s/impl=expr", c.name), func(b *testing.B) {
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
		b.Run(fmt.Sprintf("op=normalize/rows=%s/impl=copy", c.name), func(b *testing.B) {
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

// BenchmarkVarGraphBool times x > 0, a bool result of each row's shape
// bit-packed into a variable-shape column, through Compile and
// Program.Eval on one worker over the float32 columns of
// BenchmarkVarGraph (rows=same: 768 elements a row, whole bytes of bits;
// rows=varied: 704 to 767, rows from any bit). Bytes: the input read,
// beside impl=copy of the same bytes.
func BenchmarkVarGraphBool(b *testing.B) {
	const rows = 16384
	typ := varshape.MustNewType(f32, 1, varshape.Options{})
	mem := memory.NewGoAllocator()
	for _, c := range []struct {
		name string
		size func(i int) int
	}{
		{"same", func(int) int { return 768 }},
		{"varied", func(i int) int { return 704 + i%64 }},
	} {
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
		p, err := expr.Compile("x > 0", schema, expr.WithWorkers(1), expr.WithAllocator(mem))
		if err != nil {
			b.Fatal(err)
		}
		bytes := int64(total * 4)
		b.Run(fmt.Sprintf("op=greater/rows=%s/impl=expr", c.name), func(b *testing.B) {
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
		b.Run(fmt.Sprintf("op=greater/rows=%s/impl=copy", c.name), func(b *testing.B) {
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
