package main

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestFloatsOfUnsupported: a tensor column whose elements have no float
// value (bool) is an error wrapping arrow.ErrNotImplemented.
func TestFloatsOfUnsupported(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	typ := fixedshape.MustNewType(arrow.FixedWidthTypes.Boolean, metadata.MustNew([]int{2}, nil, nil))
	a, err := fixedshape.FromBools(mem, typ, []bool{true, false}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Release()
	if _, err := floatsOf(a); !errors.Is(err, arrow.ErrNotImplemented) {
		t.Errorf("floatsOf(bool column) error %v, want one wrapping arrow.ErrNotImplemented", err)
	}
}
