package metadata_test

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/fstensor/fstensor/metadata"
)

var equateEmpty = cmpopts.EquateEmpty()

// halfInt is 2**(IntSize/2): 1<<32 on 64-bit, 1<<16 on 32-bit, so that
// halfInt*halfInt overflows int on either word size.
const halfInt = 1 << (strconv.IntSize / 2)

func TestNew(t *testing.T) {
	tests := []struct {
		name          string
		shape         []int
		names         []string
		perm          []int
		wantErr       bool
		physical      []int
		physicalNames []string
		strides       []int
		size          int
	}{
		{name: "0-D", shape: []int{}, physical: []int{}, strides: []int{}, size: 1},
		{name: "0-D empty permutation", shape: []int{}, perm: []int{}, physical: []int{}, strides: []int{}, size: 1},
		{name: "non-square", shape: []int{3, 4}, names: []string{"x", "y"}, physical: []int{3, 4}, physicalNames: []string{"x", "y"}, strides: []int{4, 1}, size: 12},
		{name: "non-square transpose", shape: []int{4, 3}, names: []string{"y", "x"}, perm: []int{1, 0}, physical: []int{3, 4}, physicalNames: []string{"x", "y"}, strides: []int{1, 4}, size: 12},
		{name: "3-cycle", shape: []int{2, 3, 4}, names: []string{"a", "b", "c"}, perm: []int{2, 0, 1}, physical: []int{3, 4, 2}, physicalNames: []string{"b", "c", "a"}, strides: []int{1, 8, 2}, size: 24},
		{name: "size-0", shape: []int{3, 0, 4}, physical: []int{3, 0, 4}, strides: []int{0, 4, 1}, size: 0},
		{name: "largest list", shape: []int{math.MaxInt32}, physical: []int{math.MaxInt32}, strides: []int{1}, size: math.MaxInt32},
		{name: "negative dim", shape: []int{3, -1, 4}, wantErr: true},
		{name: "too few names", shape: []int{3, 4}, names: []string{"x"}, wantErr: true},
		{name: "permutation too short", shape: []int{3, 4, 5}, perm: []int{1, 0}, wantErr: true},
		{name: "permutation out of range", shape: []int{5, 6}, perm: []int{3, 0}, wantErr: true},
		{name: "permutation repeats", shape: []int{1, 2, 3}, perm: []int{0, 1, 1}, wantErr: true},
		{name: "permutation negative", shape: []int{3, 4}, perm: []int{-1, 0}, wantErr: true},
		{name: "overflow int", shape: []int{halfInt, halfInt}, wantErr: true},
		{name: "overflow behind a zero", shape: []int{0, halfInt, halfInt}, wantErr: true},
		{name: "beyond list size", shape: []int{65536, 65536}, wantErr: true},
		{name: "too many dims", shape: make([]int, metadata.MaxDims+1), wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := metadata.New(tt.shape, tt.names, tt.perm)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("New(%v, %q, %v) = %v, want error", tt.shape, tt.names, tt.perm, m)
				}
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
				}
				if !strings.HasPrefix(err.Error(), "metadata: ") {
					t.Errorf("error %q does not start with the package name", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			if diff := cmp.Diff(tt.shape, m.Shape(), equateEmpty); diff != "" {
				t.Errorf("Shape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.physical, m.PhysicalShape(), equateEmpty); diff != "" {
				t.Errorf("PhysicalShape (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.physicalNames, m.PhysicalDimNames()); diff != "" {
				t.Errorf("PhysicalDimNames (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.names, m.DimNames()); diff != "" {
				t.Errorf("DimNames (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.strides, m.ElemStrides(), equateEmpty); diff != "" {
				t.Errorf("ElemStrides (-want +got):\n%s", diff)
			}
			if m.Size() != tt.size || m.NDim() != len(tt.shape) {
				t.Errorf("Size, NDim = %d, %d; want %d, %d", m.Size(), m.NDim(), tt.size, len(tt.shape))
			}
			if m.HasPermutation() != (tt.perm != nil) {
				t.Errorf("HasPermutation = %v, want %v", m.HasPermutation(), tt.perm != nil)
			}
			for i := range tt.shape {
				if m.Dim(i) != tt.shape[i] {
					t.Errorf("Dim(%d) = %d, want %d", i, m.Dim(i), tt.shape[i])
				}
			}
			// Round trip through the physical form.
			back, err := metadata.FromPhysical(m.PhysicalShape(), m.PhysicalDimNames(), m.Permutation())
			if err != nil || !back.Equal(m) {
				t.Errorf("FromPhysical(physical form) = %v, %v; want %v", back, err, m)
			}
		})
	}
}

func TestImmutable(t *testing.T) {
	shape, names, perm := []int{2, 3}, []string{"a", "b"}, []int{1, 0}
	m := metadata.MustNew(shape, names, perm)
	shape[0], names[0], perm[0] = 9, "z", 0
	m.Shape()[0], m.DimNames()[0], m.Permutation()[0] = 7, "q", 0
	if got := m.String(); got != `(2,3) names=["a" "b"] permutation=[1 0]` {
		t.Errorf("after mutating inputs and outputs, String() = %s", got)
	}
}

func TestEqual(t *testing.T) {
	base := metadata.MustNew([]int{3, 4}, []string{"x", "y"}, nil)
	tests := []struct {
		name  string
		other metadata.Metadata
		want  bool
	}{
		{"same", metadata.MustNew([]int{3, 4}, []string{"x", "y"}, nil), true},
		{"identity given", metadata.MustNew([]int{3, 4}, []string{"x", "y"}, []int{0, 1}), true},
		{"transposed", metadata.MustNew([]int{3, 4}, []string{"x", "y"}, []int{1, 0}), false},
		{"no names", metadata.MustNew([]int{3, 4}, nil, nil), false},
		{"other names", metadata.MustNew([]int{3, 4}, []string{"H", "W"}, nil), false},
		{"other shape", metadata.MustNew([]int{4, 3}, []string{"x", "y"}, nil), false},
		{"0-D", metadata.Metadata{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := base.Equal(tt.other); got != tt.want {
				t.Errorf("Equal = %v, want %v", got, tt.want)
			}
			if got := tt.other.Equal(base); got != tt.want {
				t.Errorf("Equal (swapped) = %v, want %v", got, tt.want)
			}
		})
	}
	if !(metadata.Metadata{}).Equal(metadata.MustNew([]int{}, nil, []int{})) {
		t.Error("zero Metadata differs from New([]) with an empty permutation")
	}
}
