package bench_test

import (
	"flag"
	"strconv"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/bench"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

var sizeFlag = flag.String("size", "all", "benchmark batch sizes: small (about 1 MiB), large (about 128 MiB) or all")

// sizes returns the sizes the -size and -short flags select.
func sizes(tb testing.TB) []bench.Size {
	if testing.Short() {
		return []bench.Size{bench.Small}
	}
	s, err := bench.ParseSize(*sizeFlag)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

type float interface{ float32 | float64 }

// patternData returns n elements of the benchmark pattern.
func patternData[T float](n int) []T {
	data := make([]T, n)
	for i := range data {
		data[i] = T(bench.Pattern(i))
	}
	return data
}

func arrowType(dtype string) arrow.DataType {
	if dtype == "float64" {
		return arrow.PrimitiveTypes.Float64
	}
	return arrow.PrimitiveTypes.Float32
}

// column returns a dense column of batch tensors of the given shape over
// pattern data (zero-copy over a Go slice: nothing to release but the
// array).
func column[T float](tb testing.TB, batch int, shape []int) *fixedshape.Array {
	tb.Helper()
	var zero T
	dtype := "float32"
	if any(zero) == any(float64(0)) {
		dtype = "float64"
	}
	typ, err := fixedshape.NewType(arrowType(dtype), metadata.MustNew(shape, nil, nil))
	if err != nil {
		tb.Fatal(err)
	}
	arr, err := fixedshape.FromSlice(typ, patternData[T](batch*typ.ListSize()), nil)
	if err != nil {
		tb.Fatal(err)
	}
	return arr
}

// batchFor returns the number of tensors of tensorBytes each that make
// about size s (at least one).
func batchFor(s bench.Size, tensorBytes int) int {
	return max(1, s.Bytes()/tensorBytes)
}

// copyBaseline runs the impl=copy sibling of a benchmark: copy() of
// len(dst) bytes from src (at least as long) into dst, buffers made by the
// caller outside the timed loop (nil dst: both are made here, n bytes).
func copyBaseline(b *testing.B, name string, dst, src []byte, n int) {
	b.Run(name+"/impl=copy", func(b *testing.B) {
		if dst == nil {
			dst, src = make([]byte, n), make([]byte, n)
			for i := range src {
				src[i] = byte(i)
			}
		}
		dst = dst[:n]
		b.ReportAllocs()
		b.SetBytes(int64(n))
		for b.Loop() {
			copy(dst, src[:n])
		}
	})
}

func shapeKey(batch int, shape ...int) string {
	return "shape=" + bench.ShapeName(batch, shape)
}

func must(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
