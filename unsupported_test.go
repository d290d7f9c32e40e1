package fstensor_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/expr"
	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/metadata"
)

// npyFile returns a .npy file of version major.0 with the header dict.
func npyFile(major byte, dict string) []byte {
	b := append([]byte("\x93NUMPY"), major, 0)
	pad := 64 - (10+len(dict)+1)%64
	hdr := dict + spaces(pad) + "\n"
	b = binary.LittleEndian.AppendUint16(b, uint16(len(hdr)))
	return append(b, hdr...)
}

func spaces(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = ' '
	}
	return string(b)
}

// TestUnsupported: well-formed input a package does not support is an
// error of its type wrapping arrow.ErrNotImplemented and arrow.ErrInvalid.
func TestUnsupported(t *testing.T) {
	x := expr.Input(fixedshape.MustNewType(arrow.PrimitiveTypes.Float32, metadata.MustNew([]int{2, 3}, nil, nil)))
	raw := expr.Input(fixedshape.MustNewType(&arrow.FixedSizeBinaryType{ByteWidth: 3}, metadata.MustNew([]int{2}, nil, nil)))
	parse := func(text string, in expr.Expr) func() error {
		return func() error {
			e, err := expr.Parse(text, in)
			if err == nil {
				_, err = expr.CompilePlan(e)
			}
			return err
		}
	}
	decode := func(b []byte) func() error {
		return func() error {
			a, err := npy.DecodeColumn(b)
			if err == nil {
				a.Release()
			}
			return err
		}
	}
	isExpr := func(err error) bool { var e *expr.Error; return errors.As(err, &e) }
	isNPY := func(err error) bool { var e *npy.Error; return errors.As(err, &e) }
	isFixed := func(err error) bool { var e *fixedshape.Error; return errors.As(err, &e) }
	tests := []struct {
		name string
		call func() error
		as   func(error) bool
	}{
		{"expr two tensors", parse("x + x", x), isExpr},
		{"expr constant tensors", parse("x + ([1, 2, 3] + [1, 2, 3])", x), isExpr},
		{"expr power operator", parse("x ** 2", x), isExpr},
		{"expr arithmetic on raw elements", parse("x * 2", raw), isExpr},
		{"npy version 4.0", decode(npyFile(4, "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }")), isNPY},
		{"npy structured dtype", decode(npyFile(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }")), isNPY},
		{"fixedshape unsupported storage", func() error {
			return fixedshape.NewUnsupported(arrow.BinaryTypes.String, "{}", nil).Reason()
		}, isFixed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			if !errors.Is(err, arrow.ErrNotImplemented) || !errors.Is(err, arrow.ErrInvalid) || !tt.as(err) {
				t.Errorf("error %v; want the package's error wrapping arrow.ErrNotImplemented and arrow.ErrInvalid", err)
			}
		})
	}
}
