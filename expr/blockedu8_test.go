package expr_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// TestChannelSumsU8 checks the per-channel sums and means of uint8
// images (shape [..., H, W, C] reduced over H and W) against exact sums:
// channel counts with and without a vector kernel, images long enough for
// many kernel blocks and a tail, all-255 images that take the kernels'
// 16-bit lanes past their range, a kept leading dim, several tensors and a
// null one (tensor shapes with a size-0 dim cannot be stored).
func TestChannelSumsU8(t *testing.T) {
	type test struct {
		name  string
		shape []int // lead..., H, W, C
		fill  int   // -1: random bytes
		text  string
	}
	var tests []test
	for _, c := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 32, 33} {
		shape := []int{37, 29, c}
		tests = append(tests,
			test{fmt.Sprintf("mean/C=%d", c), shape, -1, "x.astype(float32).mean(axis=(0, 1))"},
			test{fmt.Sprintf("sum/C=%d", c), shape, -1, "x.sum(axis=(0, 1))"})
	}
	tests = append(tests,
		test{"mean float64", []int{64, 67, 3}, -1, "x.astype(float64).mean(axis=(0, 1))"},
		test{"sum float32", []int{64, 67, 4}, -1, "x.astype(float32).sum(axis=(0, 1))"},
		test{"mean all 255", []int{512, 512, 3}, 255, "x.astype(float32).mean(axis=(0, 1))"},
		test{"sum all 255", []int{512, 300, 7}, 255, "x.sum(axis=(0, 1))"},
		test{"mean kept lead", []int{3, 41, 43, 3}, -1, "x.astype(float32).mean(axis=(1, 2))"},
		test{"sum kept lead", []int{2, 40, 40, 5}, -1, "x.sum(axis=(1, 2))"},
	)
	r := rand.New(rand.NewPCG(5, 6))
	const tensors = 3 // the second one null
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := testvec.CheckedMem(t)
			nd := len(tt.shape)
			c, h, w := tt.shape[nd-1], tt.shape[nd-3], tt.shape[nd-2]
			lead := 1
			for _, d := range tt.shape[:nd-3] {
				lead *= d
			}
			size := lead * h * w * c
			data := make([]uint8, tensors*size)
			for i := range data {
				if tt.fill < 0 {
					data[i] = uint8(r.Uint32())
				} else {
					data[i] = uint8(tt.fill)
				}
			}
			typ := fixedshape.MustNewType(u8, metadata.MustNew(tt.shape, nil, nil))
			in, err := fixedshape.FromSlice(typ, data, []bool{true, false, true})
			if err != nil {
				t.Fatal(err)
			}
			defer in.Release()
			out, err := evalPlan(expr.MustParse(tt.text, expr.Input(typ)), in, expr.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer out.Release()
			var want, got []float64
			for k := range tensors {
				for l := range lead {
					for ch := range c {
						var s uint64
						for p := range h * w {
							s += uint64(data[k*size+(l*h*w+p)*c+ch])
						}
						v := float64(s)
						switch {
						case k == 1:
							v = 0 // a null tensor's slot is zeroed
						case strings.Contains(tt.text, "mean"):
							v /= float64(h * w)
						}
						want = append(want, v)
					}
				}
			}
			switch v := out.(*fixedshape.Array).Storage().(*array.FixedSizeList).ListValues().(type) {
			case *array.Float32:
				for i := range want {
					want[i] = float64(float32(want[i]))
				}
				for _, x := range v.Float32Values() {
					got = append(got, float64(x))
				}
			case *array.Float64:
				got = v.Float64Values()
			case *array.Uint64:
				for _, x := range v.Uint64Values() {
					got = append(got, float64(x))
				}
			default:
				t.Fatalf("result of %T", v)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s over %v (-want +got):\n%s", tt.text, tt.shape, diff)
			}
		})
	}
}
