package numeric_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/internal/numeric"
)

// BenchmarkPages reads 64 MiB of float32 from Go's heap (4 KiB pages) and
// from hugepage.Allocator (2 MiB pages where the kernel gives them)
// through the kernels that load ahead of their reads to ready the next
// pages' translations: DotRows and SquaredL2Rows over rows of 256 (in one
// call, and in calls of 256 rows as package search and expr make), MaxF32
// and MinF32 over runs of 16 KiB, each on the AVX-512 path (where the CPU
// has it) and the AVX2 one; SumF32 and SumSqF32 over runs of 16 KiB,
// RowsF32 over rows of 256 and AccRowsF32 over [64,64], [256,16] and
// [16,4096] tensors and one call over all the rows of 64 (or 16), SumF64
// over runs of 32 KiB, AccF32 over runs of 16 KiB into one accumulator,
// AccU8 over runs of 16 KiB and SumU8Periodic over 224x224x3 images
// with periods 1, 3, 5, 7 and 9 (each of its kernels), which have AVX2
// kernels only; beside a copy() of the same bytes between buffers of the
// same memory. The kernels of one op and path run on both
// memories one after the other, so that their ratio is of one moment.
func BenchmarkPages(b *testing.B) {
	if !numeric.UsesAVX2() {
		b.Skip("no AVX2 kernels")
	}
	const rows, n, run = 65536, 256, 4096
	const size = rows * n
	hp, err := hugepage.NewAllocator()
	if err != nil {
		b.Fatal(err)
	}
	f32 := func(p []byte) []float32 { return unsafe.Slice((*float32)(unsafe.Pointer(&p[0])), size) }
	hx, hdst := hp.Allocate(4*size), hp.Allocate(4*size)
	defer hp.Free(hx)
	defer hp.Free(hdst)
	mems := []struct {
		name   string
		x, dst []float32
	}{
		{"go", make([]float32, size), make([]float32, size)},
		{"hugepage", f32(hx), f32(hdst)},
	}
	for _, m := range mems {
		for i := range m.x {
			m.x[i] = float32(i%1000) / 1000
			m.dst[i] = 0 // maps the page before the timing
		}
	}
	q, out, out64 := make([]float32, n), make([]float32, rows), make([]float64, rows)
	for i := range q {
		q[i] = 0.5
	}
	var sink float32
	var sink64 float64
	// runs calls f on each run of run elements of x.
	runs := func(x []float32, run int, f func(x []float32)) {
		for i := 0; i < len(x); i += run {
			f(x[i : i+run])
		}
	}
	// acc adds x as [rows,width] tensors to one accumulator.
	accs := make([]float64, 4096)
	acc := func(x []float32, rows, width int) {
		a := accs[:width]
		runs(x, rows*width, func(x []float32) { numeric.AccRowsF32(a, x, rows, width) })
		sink64 += a[0]
	}
	ops := []pagesOp{
		{fmt.Sprintf("op=dot/dtype=float32/shape=%dx%d", rows, n), false, func(x []float32) { numeric.DotRows(out, x, n, q) }},
		{fmt.Sprintf("op=sql2/dtype=float32/shape=%dx%d", rows, n), false, func(x []float32) { numeric.SquaredL2Rows(out, x, n, q) }},
		{fmt.Sprintf("op=dot/dtype=float32/shape=%dx%d/calls=%d", rows, n, rows/256), false, func(x []float32) {
			for i := 0; i < rows; i += 256 {
				numeric.DotRows(out[:256], x[i*n:], n, q)
			}
		}},
		{fmt.Sprintf("op=sql2/dtype=float32/shape=%dx%d/calls=%d", rows, n, rows/256), false, func(x []float32) {
			for i := 0; i < rows; i += 256 {
				numeric.SquaredL2Rows(out[:256], x[i*n:], n, q)
			}
		}},
		{fmt.Sprintf("op=max/dtype=float32/shape=%dx%d", size/run, run), false, func(x []float32) {
			for i := 0; i < len(x); i += run {
				sink = max(sink, numeric.MaxF32(x[i:i+run]))
			}
		}},
		{fmt.Sprintf("op=min/dtype=float32/shape=%dx%d", size/run, run), false, func(x []float32) {
			for i := 0; i < len(x); i += run {
				sink = min(sink, numeric.MinF32(x[i:i+run]))
			}
		}},
		{fmt.Sprintf("op=sum/dtype=float32/shape=%dx%d", size/run, run), true, func(x []float32) {
			runs(x, run, func(x []float32) { sink64 += numeric.SumF32(x) })
		}},
		{fmt.Sprintf("op=sumsq/dtype=float32/shape=%dx%d", size/run, run), true, func(x []float32) {
			runs(x, run, func(x []float32) { sink64 += numeric.SumSqF32(x) })
		}},
		{fmt.Sprintf("op=rowsum/dtype=float32/shape=%dx%d", rows, n), true, func(x []float32) {
			numeric.RowsF32(numeric.RowSum, out64, x, n, n)
		}},
		{fmt.Sprintf("op=rowsumsq/dtype=float32/shape=%dx%d", rows, n), true, func(x []float32) {
			numeric.RowsF32(numeric.RowSumSq, out64, x, n, n)
		}},
		{fmt.Sprintf("op=accrows/dtype=float32/shape=%dx64x64", size/4096), true, func(x []float32) { acc(x, 64, 64) }},
		{fmt.Sprintf("op=accrows/dtype=float32/shape=%dx256x16", size/4096), true, func(x []float32) { acc(x, 256, 16) }},
		{fmt.Sprintf("op=accrows/dtype=float32/shape=%dx16x4096", size/65536), true, func(x []float32) { acc(x, 16, 4096) }},
		{fmt.Sprintf("op=accrows/dtype=float32/shape=1x%dx64", size/64), true, func(x []float32) { acc(x, size/64, 64) }},
		{fmt.Sprintf("op=accrows/dtype=float32/shape=1x%dx16", size/16), true, func(x []float32) { acc(x, size/16, 16) }},
	}
	ops = append(ops, pagesOtherOps(size, run)...)
	for _, op := range ops {
		for _, path := range []string{"avx512", "avx2"} {
			if path == "avx512" && (op.avx2 || !numeric.HasAVX512()) {
				continue
			}
			for _, m := range mems {
				b.Run(op.name+"/path="+path+"/mem="+m.name, func(b *testing.B) {
					defer numeric.SetAVX512(path == "avx512")()
					b.SetBytes(4 * size)
					b.ReportAllocs()
					for b.Loop() {
						op.f(m.x)
					}
				})
			}
		}
	}
	for _, m := range mems {
		b.Run("op=copy/impl=copy/mem="+m.name, func(b *testing.B) {
			b.SetBytes(4 * size)
			b.ReportAllocs()
			for b.Loop() {
				copy(m.dst, m.x)
			}
		})
	}
	_, _ = sink, sink64
}

// pagesOp is an op of BenchmarkPages: f reads all of x.
type pagesOp struct {
	name string
	avx2 bool // only AVX2 kernels: no AVX-512 path
	f    func(x []float32)
}

// pagesSink keeps BenchmarkPages's results alive.
var pagesSink float64

// pagesOtherOps returns BenchmarkPages's ops over size float32 read as
// float64 or bytes: SumF64 over runs of run float64, AccF32 over runs of
// run float32, AccU8 over runs of 4*run bytes and SumU8Periodic over
// images of 224x224x3 bytes (the last one short).
func pagesOtherOps(size, run int) []pagesOp {
	f64 := func(x []float32) []float64 { return unsafe.Slice((*float64)(unsafe.Pointer(&x[0])), len(x)/2) }
	u8 := func(x []float32) []uint8 { return unsafe.Slice((*uint8)(unsafe.Pointer(&x[0])), 4*len(x)) }
	acc, accu8 := make([]float64, run), make([]uint32, 4*run)
	ops := []pagesOp{
		{fmt.Sprintf("op=sum/dtype=float64/shape=%dx%d", size/2/run, run), true, func(x []float32) {
			d := f64(x)
			for i := 0; i < len(d); i += run {
				pagesSink += numeric.SumF64(d[i : i+run])
			}
		}},
		{fmt.Sprintf("op=acc/dtype=float32/shape=%dx%d", size/run, run), true, func(x []float32) {
			for i := 0; i < len(x); i += run {
				numeric.AccF32(acc, x[i:i+run])
			}
			pagesSink += acc[0]
		}},
		{fmt.Sprintf("op=acc/dtype=uint8/shape=%dx%d", size/run, 4*run), true, func(x []float32) {
			b := u8(x)
			for i := 0; i < len(b); i += 4 * run {
				numeric.AccU8(accu8, b[i:i+4*run])
			}
			pagesSink += float64(accu8[0])
		}},
	}
	const image = 224 * 224 * 3
	for _, p := range []int{1, 3, 5, 7, 9} {
		ops = append(ops, pagesOp{fmt.Sprintf("op=sumperiodic/dtype=uint8/shape=224x224x3/period=%d", p), true, func(x []float32) {
			b := u8(x)
			var tot [9]uint64
			for i := 0; i < len(b); i += image {
				numeric.SumU8Periodic(tot[:p], b[i:min(i+image, len(b))])
			}
			pagesSink += float64(tot[0])
		}})
	}
	return ops
}
