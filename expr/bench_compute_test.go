package expr_test

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/metadata"
)

// Benchmarks of the computing operations on batches of about 64 MiB of
// input, on one worker: impl=expr is the Program of Compile
// (EvalColumn, its result buffer handed back and reused from the second
// call, as a pipeline's batches are), impl=plan the Plan of CompilePlan
// (EvalInto a reused buffer), both WithWorkers(1). Reductions count
// input bytes and sit beside impl=copy of the same input bytes;
// element-wise operations count output bytes and sit beside impl=copy of
// the output bytes. Each runs once before its timed loop, as
// expr/testdata/numpy_compute_bench.py, which times the same expressions
// with NumPy on one thread, runs each once before its own.
var computeBenchCases = []struct {
	op, text string
	elem     arrow.DataType
	batch    int
	shape    []int
	reduce   bool
}{
	{"sum", "x.sum()", f32, 4096, []int{64, 64}, true},
	{"sum", "x.sum()", f64, 2048, []int{64, 64}, true},
	{"max", "x.max()", f32, 4096, []int{64, 64}, true},
	{"mean-axis0", "x.mean(axis=0)", f32, 4096, []int{64, 64}, true},
	{"crop-mean", "x[:, 16:48].astype(float32).mean(axis=(0, 1))", f32, 4096, []int{64, 64}, true},
	{"channel-mean", "x.astype(float32).mean(axis=(0, 1))", u8, 256, []int{224, 224, 3}, true},
	{"norm", "norm(x, axis=-1)", f32, 65536, []int{256}, true},
	{"dot", "dot(x, float32([0.5]))", f32, 65536, []int{256}, true},
	{"astype", "x.astype(float32)", u8, 64, []int{224, 224, 3}, false},
	{"normalize", "(x.astype(float32) / 255 - float32([0.485, 0.456, 0.406])) / float32([0.229, 0.224, 0.225])", u8, 64, []int{224, 224, 3}, false},
	{"scale", "x * 2 + 1", f32, 4096, []int{64, 64}, false},
}

// computeBenchInput returns a batch of tensors of typ whose values live in
// a buffer of mem.
func computeBenchInput(b *testing.B, mem memory.Allocator, elem arrow.DataType, batch int, shape []int) (*fixedshape.Type, *fixedshape.Array) {
	typ := fixedshape.MustNewType(elem, metadata.MustNew(shape, nil, nil))
	n := batch * typ.ListSize()
	buf := memory.NewResizableBuffer(mem)
	defer buf.Release()
	buf.Resize(n * elem.(arrow.FixedWidthDataType).BitWidth() / 8)
	switch elem.ID() {
	case arrow.UINT8:
		for i, data := 0, buf.Bytes(); i < n; i++ {
			data[i] = uint8(i * 7)
		}
	case arrow.FLOAT32:
		data := arrow.Float32Traits.CastFromBytes(buf.Bytes())
		for i := range data {
			data[i] = float32(i%1000) / 1000
		}
	default:
		data := arrow.Float64Traits.CastFromBytes(buf.Bytes())
		for i := range data {
			data[i] = float64(i%1000) / 1000
		}
	}
	in, err := fixedshape.NewArrayFromBuffer(typ, batch, buf)
	if err != nil {
		b.Fatal(err)
	}
	return typ, in
}

// benchAllocators are the memories benchmarks run on: Go's heap (arrow-go's
// default allocator) and hugepage.Allocator.
var benchAllocators = []struct {
	name string
	mem  memory.Allocator
}{
	{"go", memory.DefaultAllocator},
	{"hugepage", mustHugepage()},
}

func BenchmarkCompute(b *testing.B) {
	for _, bc := range computeBenchCases {
		for _, ba := range benchAllocators {
			name := fmt.Sprintf("op=%s/dtype=%s/shape=%s/mem=%s", bc.op, numpyDType(bc.elem), shapeName(bc.batch, bc.shape), ba.name)
			// The input is made inside the case, so that cases -bench
			// leaves out cost nothing.
			b.Run(name, func(b *testing.B) {
				benchCompute(b, bc.text, bc.elem, bc.batch, bc.shape, bc.reduce, ba.mem)
			})
		}
	}
}

func benchCompute(b *testing.B, text string, elemType arrow.DataType, batch int, shape []int, reduce bool, mem memory.Allocator) {
	typ, in := computeBenchInput(b, mem, elemType, batch, shape)
	defer in.Release()
	p := expr.MustCompilePlan(expr.MustParse(text, expr.Input(typ)))
	rt, err := p.ResultType()
	if err != nil {
		b.Fatal(err)
	}
	elem := rt
	if ft, ok := rt.(*fixedshape.Type); ok {
		elem = ft.ElemType()
	}
	outBytes := batch * p.Metadata().Size() * elem.(arrow.FixedWidthDataType).BitWidth() / 8
	src := in.ValueBytes()
	counted := outBytes
	if reduce {
		counted = len(src)
	}
	// Every buffer of both sides comes from mem.
	dst, buf := mem.Allocate(outBytes), mem.Allocate(counted)
	defer mem.Free(dst)
	defer mem.Free(buf)
	touch(dst)
	touch(buf)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: typ}}, nil)
	prog, err := expr.Compile(text, schema, expr.WithWorkers(1), expr.WithAllocator(mem))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("impl=expr", func(b *testing.B) { benchEvalColumn(b, prog, in, int64(counted), 2) })
	b.Run("impl=plan", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(counted))
		if err := p.EvalInto(dst, in, expr.WithWorkers(1)); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := p.EvalInto(dst, in, expr.WithWorkers(1)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=copy", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(counted))
		from := src
		if !reduce {
			from = mem.Allocate(counted) // as many bytes as the output
			defer mem.Free(from)
			touch(from)
		}
		copy(buf, from)
		for b.Loop() {
			copy(buf, from)
		}
	})
}

// touch writes every page of b, so that neither side of a comparison
// pays for the first touch of fresh memory inside its timed loop.
func touch(b []byte) {
	for i := 0; i < len(b); i += 4096 {
		b[i] = 1
	}
}

// mustHugepage returns a huge-page allocator with the default options,
// which do not fail.
func mustHugepage() *hugepage.Allocator {
	a, err := hugepage.NewAllocator()
	if err != nil {
		panic(err)
	}
	return a
}
