package fstensor_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/decthings"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/codec/tfproto"
	"github.com/fstensor/fstensor/codec/zio"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// TestNullTensor: every writer of a format without nulls refuses a null
// tensor with an error wrapping fstensor.ErrNullTensor and
// arrow.ErrInvalid, of its own package's Error type.
func TestNullTensor(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	typ := fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil))
	b, err := fixedshape.NewBuilder[float32](mem, typ)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Release()
	if err := b.Append(make([]float32, 6)); err != nil {
		t.Fatal(err)
	}
	b.AppendNull()
	col := b.NewArray()
	defer col.Release()

	tests := []struct {
		name  string
		write func() error
		as    func(error) bool
	}{
		{
			name:  "npy",
			write: func() error { return npy.WriteColumn(discard{}, col) },
			as:    func(err error) bool { var e *npy.Error; return errors.As(err, &e) },
		},
		{
			name:  "tfproto",
			write: func() error { _, err := tfproto.AppendColumn(nil, col); return err },
			as:    func(err error) bool { var e *tfproto.Error; return errors.As(err, &e) },
		},
		{
			name:  "zio",
			write: func() error { return zio.AppendColumn(&zio.Message{}, col) },
			as:    func(err error) bool { var e *zio.Error; return errors.As(err, &e) },
		},
		{
			name:  "decthings",
			write: func() error { _, err := decthings.AppendColumn(nil, col); return err },
			as:    func(err error) bool { var e *decthings.Error; return errors.As(err, &e) },
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.write()
			if !errors.Is(err, fstensor.ErrNullTensor) || !errors.Is(err, arrow.ErrInvalid) || !tt.as(err) {
				t.Errorf("error %v; want the package's *Error wrapping fstensor.ErrNullTensor and arrow.ErrInvalid", err)
			}
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
