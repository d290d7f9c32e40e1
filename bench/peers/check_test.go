package peers_test

import (
	"bytes"
	"testing"

	"github.com/fstensor/fstensor/bench"
)

// TestSameValues checks, once per case at the small size, that every peer
// computes the bytes fstensor computes (which bench's TestNumPy checks
// against NumPy), so that the benchmarks time the same work.
func TestSameValues(t *testing.T) {
	for _, c := range bench.Cases(bench.Small) {
		t.Run(c.Name(), func(t *testing.T) {
			checkCase(t, c, []contender[float32]{fstensorContender[float32]("expr", 0), gorgoniaContender[float32]()})
		})
	}
	for _, c := range bench.MatrixCases(bench.Small) {
		t.Run(c.Name(), func(t *testing.T) {
			checkCase(t, c, []contender[float64]{fstensorContender[float64]("expr", 0), fstensorContender[float64]("expr-w1", 1), gonumContender(), gorgoniaContender[float64]()})
		})
	}
}

func checkCase[T float](t *testing.T, c bench.Case, cs []contender[T]) {
	in := input[T](c)
	var want []byte
	for i, ct := range cs {
		run, result := ct.setup(t, c, in)
		if run == nil {
			if i == 0 {
				t.Fatal("fstensor cannot run the case")
			}
			continue
		}
		run()
		got := result()
		if i == 0 {
			want = bytes.Clone(got)
			continue
		}
		if !bytes.Equal(want, got) {
			t.Errorf("impl=%s: %d result bytes differ from fstensor's %d", ct.impl, len(got), len(want))
		}
	}
	if !bytes.Equal(leBytes(in), leBytes(input[T](c))) {
		t.Error("a contender modified its input")
	}
}
