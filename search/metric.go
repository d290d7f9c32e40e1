package search

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Metric is a similarity or distance between two tensors of one logical
// shape, computed over their elements at equal logical indexes.
type Metric int

const (
	// MetricDot is the inner product sum a_i*b_i; larger is nearer.
	MetricDot Metric = iota
	// MetricCosine is the cosine similarity a.b / (|a| |b|), NaN when a norm is
	// 0 (as NumPy's formula); larger is nearer.
	MetricCosine
	// MetricL2 is the Euclidean distance sqrt(sum (a_i-b_i)^2); smaller is
	// nearer.
	MetricL2
	// MetricSquaredL2 is the squared Euclidean distance sum (a_i-b_i)^2; smaller
	// is nearer.
	MetricSquaredL2
)

// String returns the metric's name as [ParseMetric] reads it: "dot",
// "cosine", "l2" or "sqeuclidean".
func (m Metric) String() string {
	switch m {
	case MetricDot:
		return "dot"
	case MetricCosine:
		return "cosine"
	case MetricL2:
		return "l2"
	case MetricSquaredL2:
		return "sqeuclidean"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// Larger reports whether larger scores are nearer (MetricDot, MetricCosine).
func (m Metric) Larger() bool { return m == MetricDot || m == MetricCosine }

func (m Metric) valid() bool { return m >= MetricDot && m <= MetricSquaredL2 }

// ParseMetric returns the metric named s, case-insensitively: "dot" (or
// "ip", "inner"), "cosine", "l2" (or "euclidean") and "sqeuclidean" (or
// "l2sq", "squared_l2"). Other names give an error wrapping
// arrow.ErrInvalid.
func ParseMetric(s string) (Metric, error) {
	switch strings.ToLower(s) {
	case "dot", "ip", "inner":
		return MetricDot, nil
	case "cosine":
		return MetricCosine, nil
	case "l2", "euclidean":
		return MetricL2, nil
	case "sqeuclidean", "l2sq", "squared_l2":
		return MetricSquaredL2, nil
	}
	return 0, fmt.Errorf("search: unknown metric %q (want dot, cosine, l2 or sqeuclidean): %w", s, arrow.ErrInvalid)
}
