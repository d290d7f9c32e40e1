package decthings_test

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/codec/internal/codectest"
)

// TestExpectedCount cuts concatenated tensors at and between tensor
// boundaries: a cut at a boundary reads as fewer tensors unless
// WithExpectedCount says how many there are.
func TestExpectedCount(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	arr := buildColumn(t, mem, []int{2, 3}, nil, []bool{false, false, false, false})
	defer arr.Release()
	all, err := decthings.AppendColumn(nil, arr)
	if err != nil {
		t.Fatal(err)
	}
	one := len(all) / 4 // every tensor has the same size
	three := all[:3*one]
	codectest.RunCountCases(t, []codectest.CountCase[decthings.ReadOption]{
		{Name: "whole", In: all, Want: 4},
		{Name: "whole, 4 expected", In: all, Opts: []decthings.ReadOption{decthings.WithExpectedCount(4)}, Want: 4},
		{Name: "cut at a boundary", In: three, Want: 3},
		{Name: "cut at a boundary, 4 expected", In: three, Opts: []decthings.ReadOption{decthings.WithExpectedCount(4)}, WantErr: true},
		{Name: "whole, 3 expected", In: all, Opts: []decthings.ReadOption{decthings.WithExpectedCount(3)}, WantErr: true},
		{Name: "cut inside a tensor", In: all[:3*one+5], WantErr: true},
	}, decthings.ReadColumn)
}
