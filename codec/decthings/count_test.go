package decthings_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/codec/decthings"
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
	tests := []struct {
		name    string
		in      []byte
		opts    []decthings.ReadOption
		want    int
		wantErr bool
	}{
		{name: "whole", in: all, want: 4},
		{name: "whole, 4 expected", in: all, opts: []decthings.ReadOption{decthings.WithExpectedCount(4)}, want: 4},
		{name: "cut at a boundary", in: three, want: 3},
		{name: "cut at a boundary, 4 expected", in: three, opts: []decthings.ReadOption{decthings.WithExpectedCount(4)}, wantErr: true},
		{name: "whole, 3 expected", in: all, opts: []decthings.ReadOption{decthings.WithExpectedCount(3)}, wantErr: true},
		{name: "cut inside a tensor", in: all[:3*one+5], wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := decthings.ReadColumn(tt.in, tt.opts...)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("ReadColumn error = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer got.Release()
			if got.Len() != tt.want {
				t.Errorf("read %d tensors, want %d", got.Len(), tt.want)
			}
		})
	}
}
