package hugepage_test

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/hugepage"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

func TestAllocator(t *testing.T) {
	small := testvec.CheckedMem(t)
	a := newAllocator(t, hugepage.WithMinSize(1<<20), hugepage.WithSmall(small))
	mapped := runtime.GOOS == "linux"
	for _, tc := range []struct {
		name   string
		size   int
		mapped bool
	}{
		{"zero", 0, false},
		{"small", 100, false},
		{"just below", 1<<20 - 1, false},
		{"at the minimum", 1 << 20, mapped},
		{"odd", 3<<20 + 17, mapped},
		{"two huge pages", 4 << 20, mapped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := a.Allocate(tc.size)
			if len(b) != tc.size || cap(b) != tc.size {
				t.Fatalf("len %d cap %d, want %d", len(b), cap(b), tc.size)
			}
			if tc.size > 0 && reflect.ValueOf(b).Pointer()%64 != 0 {
				t.Errorf("buffer not 64-byte aligned")
			}
			if !bytes.Equal(b, make([]byte, tc.size)) {
				t.Errorf("buffer not zeroed")
			}
			n, _ := a.Mapped()
			if got := n == 1; got != tc.mapped {
				t.Errorf("mapped buffers %d, want mapped %v", n, tc.mapped)
			}
			for i := range b {
				b[i] = byte(i)
			}
			a.Free(b)
			if n, size := a.Mapped(); n != 0 || size != 0 {
				t.Errorf("after Free: %d buffers, %d bytes mapped", n, size)
			}
		})
	}
}

func TestReallocate(t *testing.T) {
	small := testvec.CheckedMem(t)
	a := newAllocator(t, hugepage.WithMinSize(1<<20), hugepage.WithSmall(small))
	fill := func(b []byte) {
		for i := range b {
			b[i] = byte(i * 7)
		}
	}
	check := func(b []byte, n int) {
		t.Helper()
		for i := range n {
			if b[i] != byte(i*7) {
				t.Fatalf("byte %d is %d, want %d", i, b[i], byte(i*7))
			}
		}
	}
	b := a.Allocate(1000)
	fill(b)
	for _, size := range []int{2000, 3 << 20, 3<<20 + 5, 4 << 20, 9 << 20, 5 << 20, 500} {
		old := min(len(b), size)
		b = a.Reallocate(size, b)
		if len(b) != size {
			t.Fatalf("Reallocate(%d): len %d", size, len(b))
		}
		check(b, old)
		fill(b)
	}
	a.Free(b)
	if n, _ := a.Mapped(); n != 0 {
		t.Errorf("%d buffers still mapped", n)
	}
}

// TestHugePages checks with the kernel's own accounting that a mapped
// buffer is backed by huge pages when the system allows them.
func TestHugePages(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("huge pages are asked for on Linux only")
	}
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages are off here (%q, %v)", mode, err)
	}
	a := newAllocator(t)
	b := a.Allocate(8 << 20)
	defer a.Free(b)
	for i := range b {
		b[i] = 1
	}
	huge, err := anonHugeKiB()
	if err != nil {
		t.Skip(err)
	}
	if huge < 2048 {
		t.Skipf("no huge page backs the buffer (AnonHugePages %d kB): the kernel had none free", huge)
	}
}

// anonHugeKiB returns the process's AnonHugePages from /proc/self/smaps_rollup.
func anonHugeKiB() (int, error) {
	data, err := os.ReadFile("/proc/self/smaps_rollup")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "AnonHugePages:"); ok {
			var n int
			for _, c := range strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")) {
				n = n*10 + int(c-'0')
			}
			return n, nil
		}
	}
	return 0, os.ErrNotExist
}

// TestArrowBuffers builds and releases Arrow arrays on the allocator, under
// a checked allocator, so every buffer is freed exactly once.
func TestArrowBuffers(t *testing.T) {
	mem := memory.NewCheckedAllocator(newAllocator(t, hugepage.WithMinSize(64<<10)))
	defer mem.AssertSize(t, 0)
	bld := array.NewFloat32Builder(mem)
	defer bld.Release()
	for i := range 100000 {
		bld.Append(float32(i))
	}
	arr := bld.NewFloat32Array()
	defer arr.Release()
	if arr.Len() != 100000 || arr.Value(99999) != 99999 {
		t.Fatalf("array: len %d, last %v", arr.Len(), arr.Value(arr.Len()-1))
	}
	if !arrow.TypeEqual(arr.DataType(), arrow.PrimitiveTypes.Float32) {
		t.Fatal(arr.DataType())
	}
}

// newAllocator returns hugepage.NewAllocator(opts...), failing t on error.
func newAllocator(t *testing.T, opts ...hugepage.Option) *hugepage.Allocator {
	t.Helper()
	a, err := hugepage.NewAllocator(opts...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestInvalidOptions: NewAllocator refuses an invalid option value.
func TestInvalidOptions(t *testing.T) {
	tests := []struct {
		name string
		opt  hugepage.Option
	}{
		{"nil small allocator", hugepage.WithSmall(nil)},
		{"zero min size", hugepage.WithMinSize(0)},
		{"negative min size", hugepage.WithMinSize(-1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := hugepage.NewAllocator(tt.opt)
			var he *hugepage.Error
			if a != nil || !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &he) {
				t.Errorf("NewAllocator = %v, %v; want a *hugepage.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", a, err)
			}
		})
	}
}
