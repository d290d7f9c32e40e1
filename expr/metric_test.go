package expr_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/search"
	"github.com/google/go-cmp/cmp"
)

// TestMetricNames checks that the similarity functions of the text form
// are search's metrics under their canonical names, with l2sq read as
// sqeuclidean.
func TestMetricNames(t *testing.T) {
	x := expr.InputOf(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	c := expr.Array([]int{3}, []float32{1, 2, 3})
	tests := []struct {
		name   string // also the metric's name as search.ParseMetric reads it
		text   string
		metric search.Metric
		want   string
	}{
		{"dot", "dot(x, float32([1, 2, 3]))", search.MetricDot, "dot(x, float32([1.0, 2.0, 3.0]))"},
		{"cosine", "cosine(x, float32([1, 2, 3]))", search.MetricCosine, "cosine(x, float32([1.0, 2.0, 3.0]))"},
		{"l2", "l2(x, float32([1, 2, 3]))", search.MetricL2, "l2(x, float32([1.0, 2.0, 3.0]))"},
		{"sqeuclidean", "sqeuclidean(x, float32([1, 2, 3]))", search.MetricSquaredL2, "sqeuclidean(x, float32([1.0, 2.0, 3.0]))"},
		{"l2sq", "l2sq(x, float32([1, 2, 3]))", search.MetricSquaredL2, "sqeuclidean(x, float32([1.0, 2.0, 3.0]))"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := expr.Parse(tt.text, x)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, e.String()); diff != "" {
				t.Errorf("String (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(expr.Similarity(x, tt.metric, c).String(), e.String()); diff != "" {
				t.Errorf("Similarity(x, %v, c) (-want +got):\n%s", tt.metric, diff)
			}
			if m, err := search.ParseMetric(tt.name); err != nil || m != tt.metric {
				t.Errorf("search.ParseMetric(%q) = %v, %v; want %v", tt.name, m, err, tt.metric)
			}
		})
	}
}
