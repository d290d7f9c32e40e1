package layout_test

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/fstensor/fstensor/internal/layout"
	"github.com/fstensor/fstensor/internal/testsupport/race"
	"github.com/google/go-cmp/cmp"
)

// halfInt is 2**(IntSize/2): 1<<32 on 64-bit, 1<<16 on 32-bit, so that
// halfInt*halfInt overflows int on either word size.
const halfInt = 1 << (strconv.IntSize / 2)

// naive is the element-by-element reference: an odometer over shape.
func naive(dst, src []byte, width int, shape, strides []int, offset, n, srcStride int) {
	size := 1
	for _, d := range shape {
		size *= d
	}
	if size == 0 {
		return
	}
	idx := make([]int, len(shape))
	for t := range n {
		for k := range size {
			off := t*srcStride + offset
			for i := range shape {
				off += idx[i] * strides[i]
			}
			copy(dst[(t*size+k)*width:(t*size+k+1)*width], src[off*width:(off+1)*width])
			for i := len(shape) - 1; i >= 0; i-- {
				idx[i]++
				if idx[i] < shape[i] {
					break
				}
				idx[i] = 0
			}
		}
	}
}

// view is a random view of a random dense permuted source tensor, as the
// expression planner produces: a permutation, slices with steps of any
// sign, indexed and new axes.
type view struct {
	shape, strides []int
	offset, srcLen int
}

func randomView(r *rand.Rand, maxDim int) view {
	nd := r.IntN(4)
	phys := make([]int, nd)
	for i := range phys {
		phys[i] = 1 + r.IntN(maxDim)
	}
	rm := make([]int, nd)
	s := 1
	for i := nd - 1; i >= 0; i-- {
		rm[i] = s
		s *= phys[i]
	}
	v := view{srcLen: s}
	perm := r.Perm(nd)
	for _, ax := range perm {
		n, st := phys[ax], rm[ax]
		switch r.IntN(6) {
		case 0: // index
			v.offset += r.IntN(n) * st
			continue
		case 1: // forward slice with step
			step := 1 + r.IntN(3)
			a := r.IntN(n)
			cnt := 1 + (n-1-a)/step
			v.offset += a * st
			v.shape = append(v.shape, cnt)
			v.strides = append(v.strides, st*step)
		case 2: // reversed
			v.offset += (n - 1) * st
			v.shape = append(v.shape, n)
			v.strides = append(v.strides, -st)
		default:
			v.shape = append(v.shape, n)
			v.strides = append(v.strides, st)
		}
		if r.IntN(5) == 0 { // new axis
			v.shape = append(v.shape, 1)
			v.strides = append(v.strides, 0)
		}
	}
	return v
}

// bothKernels runs f with the assembly kernels on (where the CPU has them)
// and off, so that the pure-Go loops are covered on every machine. Under
// the race detector, which sees the memory accesses of Go code only, it
// runs the Go loops alone: the plain run covers the assembly.
func bothKernels(t *testing.T, f func(t *testing.T)) {
	kernels := []bool{true, false}
	if race.Enabled {
		kernels = kernels[1:]
	}
	for _, on := range kernels {
		t.Run(fmt.Sprintf("asm=%v", on), func(t *testing.T) {
			defer layout.SetAVX2(on)()
			f(t)
		})
	}
}

func TestRunMatchesNaive(t *testing.T) { bothKernels(t, testRunMatchesNaive) }

func testRunMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for it := range 3000 {
		// 16, 32, 3 and 12 bytes: decimals, fixed-size binaries (widePlan).
		width := []int{1, 2, 4, 8, 16, 32, 3, 12}[it%8]
		v := randomView(r, 7)
		n := r.IntN(4)
		srcStride := v.srcLen + r.IntN(2)*r.IntN(5)
		srcLen := max(1, n) * srcStride
		src := make([]byte, (srcLen+1)*width)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		p, err := layout.NewPlan(width, v.shape, v.strides, v.offset)
		if err != nil {
			t.Fatalf("NewPlan(%d, %v, %v, %d): %v", width, v.shape, v.strides, v.offset, err)
		}
		size := p.Size()
		want := make([]byte, n*size*width)
		naive(want, src, width, v.shape, v.strides, v.offset, n, srcStride)
		for _, misalign := range []int{0, 1} {
			s := src[misalign:]
			if misalign == 1 {
				s = append([]byte{0}, src...)[1:] // same bytes, shifted base
				s = s[:len(src)]
			}
			got := make([]byte, n*size*width+misalign)[misalign:]
			p.Run(got, s, n, srcStride, 2)
			if bytes.Equal(want, got) {
				continue // cmp.Diff walks bytes by reflection: only on failure
			}
			t.Fatalf("width %d view %+v n %d stride %d kind %s misalign %d (-want +got):\n%s", width, v, n, srcStride, p.Kind(), misalign, cmp.Diff(want, got))
		}
	}
}

// TestRunParallel runs views big enough to be split across goroutines.
func TestRunParallel(t *testing.T) { bothKernels(t, testRunParallel) }

func testRunParallel(t *testing.T) {
	tests := []struct {
		name           string
		shape, strides []int
		offset, n      int
		srcStride      int
		kind           string
	}{
		{"contiguous", []int{512, 512}, []int{512, 1}, 0, 3, 512 * 512, "contiguous"},
		{"slice", []int{32, 64}, []int{64, 1}, 16 * 64, 300, 4096, "contiguous"},
		{"index", []int{64}, []int{1}, 5 * 64, 300, 4096, "contiguous"},
		{"transpose", []int{300, 200}, []int{1, 300}, 0, 5, 60000, "transpose"},
		{"streamed nhwc-nchw", []int{3, 64, 64}, []int{1, 192, 3}, 0, 30, 12288, "transpose"},
		{"streamed nhwc-nchw odd pixels", []int{3, 50, 41}, []int{1, 123, 3}, 0, 45, 6150, "transpose"},
		{"streamed transpose", []int{64, 48}, []int{1, 64}, 0, 100, 3072, "transpose"},
		{"streamed transpose odd rows", []int{67, 48}, []int{1, 67}, 0, 90, 3216, "transpose"},
		{"nchw-nhwc", []int{50, 40, 3}, []int{40, 1, 2000}, 0, 9, 6000, "transpose"},
		{"nhwc-nchw", []int{3, 50, 40}, []int{1, 120, 3}, 0, 9, 6000, "transpose"},
		{"streamed odd runs", []int{300, 333}, []int{340, 1}, 3, 4, 300 * 340, "contiguous"},
		{"runs split mid-row", []int{301, 2, 512}, []int{1100, 520, 1}, 0, 5, 331100, "contiguous"},
		{"streamed nchw-nhwc odd pixels", []int{101, 99, 3}, []int{99, 1, 9999}, 0, 12, 29997, "transpose"},
		{"reverse", []int{1000, 300}, []int{300, -1}, 299, 2, 300000, "gather"},
		{"0-D", []int{}, []int{}, 7, 400000, 9, "contiguous"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, width := range []int{1, 2, 4, 8, 16} {
				p, err := layout.NewPlan(width, tt.shape, tt.strides, tt.offset)
				if err != nil {
					t.Fatal(err)
				}
				// A 16-byte element is a run of two words: its
				// plans copy runs, whatever the view.
				if width <= 8 && p.Kind() != tt.kind {
					t.Errorf("Kind() = %s, want %s", p.Kind(), tt.kind)
				}
				src := make([]byte, tt.n*tt.srcStride*width)
				for i := range src {
					src[i] = byte(i*7 + i>>8)
				}
				want := make([]byte, tt.n*p.Size()*width)
				naive(want, src, width, tt.shape, tt.strides, tt.offset, tt.n, tt.srcStride)
				workers := []int{1, 2, 8}
				if race.Enabled {
					workers = workers[1:] // one worker starts no goroutine
				}
				for _, workers := range workers {
					got := make([]byte, len(want))
					p.Run(got, src, tt.n, tt.srcStride, workers)
					if !bytes.Equal(want, got) {
						t.Fatalf("width %d workers %d: result differs from the reference", width, workers)
					}
				}
			}
		})
	}
}

// TestRunPaths covers the edges of the specialised loops: odd pixel
// counts for the paired 4-byte channel loops, tiles with partial strips and
// blocks, rows long enough to be tiled, and misaligned buffers.
func TestRunPaths(t *testing.T) { bothKernels(t, testRunPaths) }

func testRunPaths(t *testing.T) {
	tests := []struct {
		name           string
		shape, strides []int
		n, srcStride   int
	}{
		{"nchw-nhwc odd pixels", []int{7, 5, 3}, []int{5, 1, 35}, 3, 105},
		{"nhwc-nchw odd pixels", []int{3, 7, 5}, []int{1, 15, 3}, 3, 105},
		{"nchw-nhwc 4 channels", []int{5, 3, 4}, []int{3, 1, 15}, 2, 60},
		{"transpose 3x3", []int{3, 3}, []int{1, 3}, 2, 9},
		{"transpose 5x9", []int{9, 5}, []int{1, 9}, 2, 45},
		{"transpose 6x7", []int{7, 6}, []int{1, 7}, 2, 42},
		{"transpose long rows", []int{70, 130}, []int{1, 70}, 2, 9100},
		{"transpose wide band", []int{1100, 21}, []int{1, 1100}, 1, 23100},
		{"transpose long rows odd tiles", []int{150, 83}, []int{1, 150}, 2, 12450},
		{"transpose long rows wide band", []int{1030, 70}, []int{1, 1030}, 1, 72100},
		{"3-cycle", []int{4, 5, 6}, []int{1, 24, 4}, 2, 120},
		{"reversed transpose", []int{9, 7}, []int{1, -9}, 2, 63},
		{"reversed transpose blocks", []int{20, 40}, []int{1, -20}, 2, 800},
		{"transpose whole blocks", []int{16, 32}, []int{1, 16}, 3, 512},
		{"transpose blocks and remainders", []int{19, 37}, []int{1, 19}, 2, 703},
		{"transpose blocks under an outer axis", []int{2, 24, 20}, []int{480, 1, 24}, 2, 960},
		{"transpose blocks with an axis between", []int{24, 3, 20}, []int{1, 480, 24}, 2, 1440},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			off := 0
			for i, s := range tt.strides {
				if s < 0 {
					off -= s * (tt.shape[i] - 1)
				}
			}
			for _, width := range []int{1, 2, 4, 8, 16} {
				p, err := layout.NewPlan(width, tt.shape, tt.strides, off)
				if err != nil {
					t.Fatal(err)
				}
				src := make([]byte, (tt.n*tt.srcStride+1)*width)
				for i := range src {
					src[i] = byte(i*13 + i>>8)
				}
				want := make([]byte, tt.n*p.Size()*width)
				naive(want, src, width, tt.shape, tt.strides, off, tt.n, tt.srcStride)
				for _, misalign := range []int{0, 1} {
					got := make([]byte, len(want)+misalign)[misalign:]
					p.Run(got, src[misalign:], tt.n, tt.srcStride, 1)
					if misalign == 1 {
						// The shifted source holds the same view one byte on.
						naive(want, src[1:], width, tt.shape, tt.strides, off, tt.n, tt.srcStride)
					}
					if !bytes.Equal(want, got) { // cmp.Diff is slow on large equal slices
						t.Fatalf("width %d misalign %d kind %s (-want +got):\n%s", width, misalign, p.Kind(), cmp.Diff(want, got))
					}
				}
			}
		})
	}
}

func TestNewPlanErrors(t *testing.T) {
	tests := []struct {
		name           string
		width          int
		shape, strides []int
		offset         int
	}{
		{"width 0", 0, []int{2}, []int{1}, 0},
		{"width 16 stride overflows", 16, []int{2}, []int{math.MaxInt/2 + 1}, 0},
		{"lengths", 4, []int{2, 3}, []int{1}, 0},
		{"negative dim", 4, []int{-1}, []int{1}, 0},
		{"before start", 4, []int{3}, []int{-1}, 1},
		{"negative offset", 4, []int{}, []int{}, -1},
		{"overflow count", 4, []int{halfInt, halfInt}, []int{1, 1}, 0},
		{"overflow stride", 4, []int{3}, []int{math.MaxInt/4 + 1}, 0},
		{"overflow negative stride", 4, []int{3}, []int{math.MinInt / 2}, math.MaxInt},
		{"min int stride", 4, []int{2}, []int{math.MinInt}, math.MaxInt},
		{"overflow offset", 4, []int{3}, []int{1}, math.MaxInt - 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := layout.NewPlan(tt.width, tt.shape, tt.strides, tt.offset)
			if !errors.Is(err, layout.ErrInvalid) {
				t.Fatalf("NewPlan = %v, want ErrInvalid", err)
			}
		})
	}
}

func TestNewPlanEmpty(t *testing.T) {
	p, err := layout.NewPlan(4, []int{3, 0, 2}, []int{0, 2, 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if p.Size() != 0 || p.MinSource() != 0 || p.Kind() != "contiguous" && p.Kind() != "empty" {
		t.Fatalf("size-0 plan: Size %d MinSource %d Kind %s", p.Size(), p.MinSource(), p.Kind())
	}
	p.Run(nil, nil, 5, 0, 1) // nothing to do, nothing read
}

func TestRunPanicsOutside(t *testing.T) {
	p, err := layout.NewPlan(4, []int{4}, []int{2}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if p.MinSource() != 8 {
		t.Fatalf("MinSource = %d, want 8", p.MinSource())
	}
	for _, tt := range []struct {
		name             string
		dst, src         int
		tensors, srcStep int
	}{
		{"short source", 16, 28, 1, 8},
		{"short destination", 12, 32, 1, 8},
		{"short source for the last tensor", 32, 60, 2, 8},
		// n*Size*width is MaxInt+1: wrapped, it would pass the bound.
		{"destination size overflows", 16, 32, math.MaxInt/16 + 1, 0},
		// (n-1)*srcStride is MaxInt+1, 0 once wrapped.
		{"source reach overflows", 9 * 16, 32, 9, math.MaxInt/8 + 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			p.Run(make([]byte, tt.dst), make([]byte, tt.src), tt.tensors, tt.srcStep, 1)
		})
	}
	// The bounds are exact: the largest view that fits runs.
	p.Run(make([]byte, 32), make([]byte, 64), 2, 8, 1)
}

func ExamplePlan_Run() {
	// Transpose two 2x3 tensors of int16 stored row-major: the view has
	// shape (3,2) and strides (1,3).
	p, err := layout.NewPlan(2, []int{3, 2}, []int{1, 3}, 0)
	if err != nil {
		panic(err)
	}
	src := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9, 0, 10, 0, 11, 0, 12, 0}
	dst := make([]byte, 2*p.Size()*2)
	p.Run(dst, src, 2, 6, 1)
	for i := 0; i < len(dst); i += 2 {
		fmt.Print(dst[i], " ")
	}
	fmt.Println(p.Kind())
	// Output: 1 4 2 5 3 6 7 10 8 11 9 12 transpose
}
