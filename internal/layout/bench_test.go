package layout_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/fstensor/fstensor/internal/layout"
)

// kernelCase is one benchmark view of a batch of tensors: the plan's
// shape, strides and offset for one tensor of srcStride elements.
type kernelCase struct {
	op, dtype      string
	width          int
	batch          int
	tensor         []int // the source tensor's shape, for the name
	shape, strides []int
	offset         int
}

// kernelCases are the layouts of about 128 MiB batches the kernels are
// tuned for: float32 slices and indexes, uint8 images between HWC and
// CHW, 1-, 2- and 4-byte 2-D transposes.
var kernelCases = []kernelCase{
	{"slice", "float32", 4, 8192, []int{64, 64}, []int{32, 64}, []int{64, 1}, 16 * 64},
	{"index", "float32", 4, 8192, []int{64, 64}, []int{64}, []int{1}, 5 * 64},
	{"slice-cols", "float32", 4, 8192, []int{64, 64}, []int{64, 32}, []int{64, 1}, 16},
	{"nhwc-nchw", "uint8", 1, 891, []int{224, 224, 3}, []int{3, 224, 224}, []int{1, 672, 3}, 0},
	{"nchw-nhwc", "uint8", 1, 891, []int{3, 224, 224}, []int{224, 224, 3}, []int{224, 1, 50176}, 0},
	{"nhwc-nchw", "uint8", 1, 668, []int{224, 224, 4}, []int{4, 224, 224}, []int{1, 896, 4}, 0},
	{"nchw-nhwc", "uint8", 1, 668, []int{4, 224, 224}, []int{224, 224, 4}, []int{224, 1, 50176}, 0},
	{"transpose", "uint8", 1, 32768, []int{64, 64}, []int{64, 64}, []int{1, 64}, 0},
	{"transpose", "float16", 2, 16384, []int{64, 64}, []int{64, 64}, []int{1, 64}, 0},
	{"transpose", "float32", 4, 8192, []int{64, 64}, []int{64, 64}, []int{1, 64}, 0},
}

func (c kernelCase) name() string {
	s := fmt.Sprint(c.batch)
	for _, d := range c.tensor {
		s += fmt.Sprintf("x%d", d)
	}
	return fmt.Sprintf("op=%s/dtype=%s/shape=%s", c.op, c.dtype, s)
}

// BenchmarkRun times Plan.Run on one and two workers (impl=kernel-w1,
// impl=kernel-w2) beside copy() of as many bytes as the view writes, on
// one goroutine (impl=copy) and on two goroutines copying a half each
// (impl=copy2): the machine's bandwidth for one and two workers.
func BenchmarkRun(b *testing.B) {
	for _, c := range kernelCases {
		srcStride := c.width
		for _, d := range c.tensor {
			srcStride *= d
		}
		srcStride /= c.width
		p, err := layout.NewPlan(c.width, c.shape, c.strides, c.offset)
		if err != nil {
			b.Fatal(err)
		}
		src := make([]byte, c.batch*srcStride*c.width)
		for i := range src {
			src[i] = byte(i % 251)
		}
		n := c.batch * p.Size() * c.width
		dst := make([]byte, n)
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/impl=kernel-w%d", c.name(), w), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(n))
				for b.Loop() {
					p.Run(dst, src, c.batch, srcStride, w)
				}
			})
		}
		b.Run(c.name()+"/impl=copy", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			for b.Loop() {
				copy(dst, src[:n])
			}
		})
		b.Run(c.name()+"/impl=copy2", func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(n))
			h := n / 2 &^ 63
			var wg sync.WaitGroup
			for b.Loop() {
				wg.Add(1)
				go func() {
					defer wg.Done()
					copy(dst[h:], src[h:n])
				}()
				copy(dst[:h], src[:h])
				wg.Wait()
			}
		})
	}
}
