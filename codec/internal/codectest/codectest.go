// Package codectest holds the test helpers the codec packages share: the
// columns their tests build and the benchmark they all run. It is for
// tests only; errors fail the test.
package codectest

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// BoolColumn returns a bool column of n tensors of shape and perm whose
// physical element k is true when k%3 == 1, allocated from mem, with the
// validity valid (nil: all valid). The caller releases it.
func BoolColumn(t testing.TB, mem memory.Allocator, shape, perm []int, n int, valid []bool) *fixedshape.Array {
	t.Helper()
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew(shape, nil, perm))
	data := make([]bool, n*typ.ListSize())
	for k := range data {
		data[k] = k%3 == 1
	}
	a, err := fixedshape.FromBools(mem, typ, data, valid)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
