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

// Benchmarks of the shapes on float32 batches of about 128 MiB.
// impl=expr measures the kernel into a reused destination (EvalInto, all
// GOMAXPROCS workers: run with -cpu 1,2); impl=copy is copy() of the same
// number of bytes as written, on one goroutine; impl=eval is end to end,
// allocating the result column.
var benchCases = []struct {
	op, text string
	batch    int
	shape    []int
}{
	{"transpose", "x.T", 8192, []int{64, 64}},
	{"transpose", "x.T", 32, []int{1024, 1024}},
	{"nchw-nhwc", "x.transpose(1, 2, 0)", 224, []int{3, 224, 224}},
	{"nhwc-nchw", "x.transpose(2, 0, 1)", 224, []int{224, 224, 3}},
	{"slice", "x[16:48, :]", 8192, []int{64, 64}},
	{"index", "x[5, :]", 8192, []int{64, 64}},
	{"fused", "x[16:48].T.reshape(-1)", 8192, []int{64, 64}},
}

func benchInput(b *testing.B, batch int, shape []int) (*fixedshape.Type, *fixedshape.Array) {
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew(shape, nil, nil))
	data := make([]float32, batch*typ.ListSize())
	for i := range data {
		data[i] = float32(i)
	}
	in, err := fixedshape.FromSlice(typ, data, nil)
	if err != nil {
		b.Fatal(err)
	}
	return typ, in
}

// benchEvalInto runs the sub-benchmark name: p.EvalInto(dst, in) into
// the reused dst, counting len(dst) bytes an op.
func benchEvalInto(b *testing.B, name string, p *expr.Plan, dst []byte, in *fixedshape.Array) {
	b.Run(name, func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(dst)))
		for b.Loop() {
			if err := p.EvalInto(dst, in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchCopy runs the baseline name+"/impl=copy": copy() of len(dst) bytes
// of src into dst.
func benchCopy(b *testing.B, name string, dst, src []byte) {
	b.Run(name+"/impl=copy", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(dst)))
		for b.Loop() {
			copy(dst, src[:len(dst)])
		}
	})
}

func shapeName(batch int, shape []int) string {
	s := fmt.Sprint(batch)
	for _, d := range shape {
		s += fmt.Sprintf("x%d", d)
	}
	return s
}

func BenchmarkMaterialize(b *testing.B) {
	for _, bc := range benchCases {
		name := fmt.Sprintf("op=%s/dtype=float32/shape=%s", bc.op, shapeName(bc.batch, bc.shape))
		typ, in := benchInput(b, bc.batch, bc.shape)
		p := expr.MustCompilePlan(expr.MustParse(bc.text, expr.Input(typ)))
		outBytes := bc.batch * p.Metadata().Size() * 4
		dst := make([]byte, outBytes)
		src := in.ValueBytes()
		benchEvalInto(b, name+"/impl=expr", p, dst, in)
		benchCopy(b, name, dst, src)
		b.Run(name+"/impl=eval", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(outBytes))
			for b.Loop() {
				out, err := p.Eval(in, expr.WithAllocator(memory.DefaultAllocator))
				if err != nil {
					b.Fatal(err)
				}
				out.Release()
			}
		})
		in.Release()
	}
}

// narrowCases are the layouts of 1- and 2-byte elements, on batches of
// about 128 MiB: uint8 images between HWC and CHW with 3 and 4 channels,
// and 2-D transposes of uint8 and float16 matrices.
var narrowCases = []struct {
	op, text string
	typ      arrow.DataType
	batch    int
	shape    []int
}{
	{"nhwc-nchw", "x.transpose(2, 0, 1)", arrow.PrimitiveTypes.Uint8, 891, []int{224, 224, 3}},
	{"nchw-nhwc", "x.transpose(1, 2, 0)", arrow.PrimitiveTypes.Uint8, 891, []int{3, 224, 224}},
	{"nhwc-nchw", "x.transpose(2, 0, 1)", arrow.PrimitiveTypes.Uint8, 668, []int{224, 224, 4}},
	{"nchw-nhwc", "x.transpose(1, 2, 0)", arrow.PrimitiveTypes.Uint8, 668, []int{4, 224, 224}},
	{"transpose", "x.T", arrow.PrimitiveTypes.Uint8, 32768, []int{64, 64}},
	{"transpose", "x.T", arrow.FixedWidthTypes.Float16, 16384, []int{64, 64}},
}

// BenchmarkMaterializeNarrow times the narrowCases as BenchmarkMaterialize
// does the float32 ones: impl=expr into a reused destination beside
// impl=copy of as many bytes.
func BenchmarkMaterializeNarrow(b *testing.B) {
	for _, bc := range narrowCases {
		typ := fixedshape.MustNewType(bc.typ, metadata.MustNew(bc.shape, nil, nil))
		w := bc.typ.(arrow.FixedWidthDataType).Bytes()
		src := make([]byte, bc.batch*typ.ListSize()*w)
		for i := range src {
			src[i] = byte(i % 251)
		}
		in, err := fixedshape.NewArrayFromBuffer(typ, bc.batch, memory.NewBufferBytes(src))
		if err != nil {
			b.Fatal(err)
		}
		p := expr.MustCompilePlan(expr.MustParse(bc.text, expr.Input(typ)))
		outBytes := bc.batch * p.Metadata().Size() * w
		dst := make([]byte, outBytes)
		name := fmt.Sprintf("op=%s/dtype=%s/shape=%s", bc.op, bc.typ, shapeName(bc.batch, bc.shape))
		benchEvalInto(b, name+"/impl=expr", p, dst, in)
		benchCopy(b, name, dst, src)
		in.Release()
	}
}

// BenchmarkRelabel measures a reshape of a dense column with WithRelabel:
// O(1), no data allocated or copied.
func BenchmarkRelabel(b *testing.B) {
	typ, in := benchInput(b, 8192, []int{64, 64})
	defer in.Release()
	p := expr.MustCompilePlan(expr.MustParse("x.reshape(4096)", expr.Input(typ)))
	b.Run("op=reshape/dtype=float32/shape=8192x64x64/impl=relabel", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			out, err := p.Eval(in, expr.WithRelabel())
			if err != nil {
				b.Fatal(err)
			}
			out.Release()
		}
	})
}
