package search

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
)

// Metric is a similarity or distance between two tensors of one logical
// shape, computed over their elements at equal logical indexes. It is the
// one metric type of the library: package expr's similarities
// (expr.Similarity, `dot(x, c)` in the text form) take it too.
//
// Each metric has one canonical name, which String returns and the
// command prints: "dot", "cosine", "l2" and "sqeuclidean" (SciPy's name).
// ParseMetric also reads the aliases listed there; "l2sq", the name of
// expr's function `l2sq(x, c)`, is one of them.
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

// ParseMetric returns the metric named s, case-insensitively: the
// canonical names "dot", "cosine", "l2" and "sqeuclidean", and the aliases
// "ip" and "inner" (dot), "euclidean" (l2), "l2sq" and "squared_l2"
// (sqeuclidean). Other names give an error wrapping arrow.ErrInvalid.
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
