package expr_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// evalCases are chains that both evaluators run, on batches of about 64
// MiB of input: views of float32, uint8, float16 and bool tensors,
// element-wise work and reductions.
var evalCases = []struct {
	op, text string
	typ      arrow.DataType
	batch    int
	shape    []int
	reads    bool // a reduction: bytes are the input's
}{
	{"transpose", "x.T", f32, 4096, []int{64, 64}, false},
	{"transpose", "x.T", f32, 64, []int{512, 512}, false},
	{"nhwc-nchw", "x.transpose(2, 0, 1)", f32, 112, []int{224, 224, 3}, false},
	{"slice", "x[16:48, ::2]", f32, 4096, []int{64, 64}, false},
	{"index", "x[5]", f32, 4096, []int{64, 64}, false},
	{"transpose", "x.T", arrow.FixedWidthTypes.Float16, 8192, []int{64, 64}, false},
	{"nhwc-nchw", "x.transpose(2, 0, 1)", arrow.PrimitiveTypes.Uint8, 445, []int{224, 224, 3}, false},
	{"crop", "x[16:208, 16:208, ::-1]", arrow.PrimitiveTypes.Uint8, 445, []int{224, 224, 3}, false},
	{"transpose", "x.T", arrow.FixedWidthTypes.Boolean, 16384, []int{64, 64}, false},
	{"sqrt", "sqrt(x)", f32, 16384, []int{1024}, false},
	{"scale", "x * 2 + 1", f32, 16384, []int{1024}, false},
	{"astype", "x.astype(float32) / 255 - 0.5", arrow.PrimitiveTypes.Uint8, 445, []int{224, 224, 3}, false},
	{"clip", "x.clip(0, 0.5)", f32, 16384, []int{1024}, false},
	{"sum", "x.sum(axis=-1)", f32, 16384, []int{1024}, true},
	{"max", "x.max(axis=0)", f32, 16384, []int{32, 32}, true},
	{"mean-hw", "x.mean(axis=(0, 1))", arrow.PrimitiveTypes.Uint8, 445, []int{224, 224, 3}, true},
	{"transpose-sqrt", "sqrt(x.T)", f32, 4096, []int{64, 64}, false},
}

// BenchmarkEvaluators times each of evalCases end to end (a new result
// column a call) through the engine (impl=engine, a Program of the text
// as a graph, as Compile runs every expression) and through a Plan
// (impl=plan, CompilePlan and Plan.Eval, the strided-view primitive),
// beside impl=copy of as many bytes; bytes are the result's (the
// input's for a reduction), on one worker.
func BenchmarkEvaluators(b *testing.B) {
	for _, bc := range evalCases {
		name := fmt.Sprintf("op=%s/dtype=%s/shape=%s", bc.op, bc.typ, shapeName(bc.batch, bc.shape))
		b.Run(name, func(b *testing.B) {
			typ := fixedshape.MustNewType(bc.typ, metadata.MustNew(bc.shape, nil, nil))
			in := evalInput(b, typ, bc.batch)
			defer in.Release()
			schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ}}, nil)
			prog, err := expr.CompileGraph(bc.text, schema, expr.WithWorkers(1))
			if err != nil {
				b.Fatal(err)
			}
			p := expr.MustCompilePlan(expr.MustParse(bc.text, expr.Input(typ)))
			probe, err := prog.EvalColumn(in)
			if err != nil {
				b.Fatal(err)
			}
			outBytes := evalBytes(probe)
			probe.Release()
			if bc.reads {
				outBytes = evalBytes(in)
			}
			b.Run("impl=engine", func(b *testing.B) { benchEvalColumn(b, prog, in, outBytes, 0) })
			b.Run("impl=plan", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(outBytes)
				for b.Loop() {
					out, err := p.Eval(in, expr.WithWorkers(1))
					if err != nil {
						b.Fatal(err)
					}
					out.Release()
				}
			})
			dst, src := make([]byte, outBytes), make([]byte, outBytes)
			b.Run("impl=copy", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(outBytes)
				for b.Loop() {
					copy(dst, src)
				}
			})
		})
	}
}

// benchEvalColumn times p.EvalColumn(in), each result released before
// the next, counting bytes a call, after warm calls untimed.
func benchEvalColumn(b *testing.B, p *expr.Program, in arrow.Array, bytes int64, warm int) {
	b.ReportAllocs()
	b.SetBytes(bytes)
	eval := func() {
		out, err := p.EvalColumn(in)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	for range warm {
		eval()
	}
	for b.Loop() {
		eval()
	}
}

// evalInput returns batch tensors of typ with varied values (bits for
// bool), on Go's allocator.
func evalInput(b *testing.B, typ *fixedshape.Type, batch int) *fixedshape.Array {
	n := batch * typ.ListSize()
	if typ.ElemType().ID() == arrow.BOOL {
		vals := make([]bool, n)
		for i := range vals {
			vals[i] = i%3 == 0 || i%7 == 0
		}
		in, err := fixedshape.FromBools(memory.DefaultAllocator, typ, vals, nil)
		if err != nil {
			b.Fatal(err)
		}
		return in
	}
	w := typ.ElemType().(arrow.FixedWidthDataType).Bytes()
	src := make([]byte, n*w)
	for i := range src {
		src[i] = byte(i%251) & 0x3f // finite float16 and float32 bits
	}
	in, err := fixedshape.NewArrayFromBuffer(typ, batch, memory.NewBufferBytes(src))
	if err != nil {
		b.Fatal(err)
	}
	return in
}

// evalBytes returns the bytes of a result column's values.
func evalBytes(a arrow.Array) int64 {
	var n int64
	for _, buf := range a.Data().Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range a.Data().Children() {
		for _, buf := range c.Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
	}
	return n
}
