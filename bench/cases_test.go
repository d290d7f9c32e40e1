package bench_test

import (
	"testing"

	"github.com/fstensor/fstensor/bench"
	"github.com/google/go-cmp/cmp"
)

func TestCases(t *testing.T) {
	tests := []struct {
		name   string
		cases  []bench.Case
		dtype  string
		min    int // smallest batch bytes allowed
		max    int // largest batch bytes allowed
		nCases int
	}{
		{"float32 small", bench.Cases(bench.Small), "float32", 512 << 10, 4 << 20, 9},
		{"float32 large", bench.Cases(bench.Large), "float32", 120 << 20, 136 << 20, 9},
		{"float64 small", bench.MatrixCases(bench.Small), "float64", 512 << 10, 8 << 20, 8},
		{"float64 large", bench.MatrixCases(bench.Large), "float64", 120 << 20, 136 << 20, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.nCases, len(tt.cases)); diff != "" {
				t.Errorf("number of cases (-want +got):\n%s", diff)
			}
			for _, c := range tt.cases {
				n := c.Batch * c.ElemWidth()
				for _, d := range c.Shape {
					n *= d
				}
				if c.DType != tt.dtype || n < tt.min || n > tt.max {
					t.Errorf("%s: %d bytes, want %s in [%d, %d]", c.Name(), n, tt.dtype, tt.min, tt.max)
				}
			}
		})
	}
}

func TestShapeName(t *testing.T) {
	tests := []struct {
		name  string
		batch int
		shape []int
		want  string
	}{
		{"0-D tensors", 5, nil, "5"},
		{"non-square", 2, []int{3, 4}, "2x3x4"},
		{"one tensor", 1, []int{224, 224, 3}, "1x224x224x3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, bench.ShapeName(tt.batch, tt.shape)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
