package dltype_test

import (
	"errors"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/codec/dlpack/internal/dltype"
	"github.com/google/go-cmp/cmp"
)

func TestError(t *testing.T) {
	tests := []struct {
		name    string
		err     error
		wantMsg string
		wantEOF bool
	}{
		{name: "Errorf", err: dltype.Errorf("ndim %d is out of range", -1), wantMsg: "dlpack: ndim -1 is out of range"},
		{name: "Wrapf", err: dltype.Wrapf(io.EOF, "shape %s", "(3,4)"), wantMsg: "dlpack: shape (3,4): EOF", wantEOF: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.wantMsg, tt.err.Error()); diff != "" {
				t.Errorf("message (-want +got):\n%s", diff)
			}
			var e *dltype.Error
			if !errors.As(tt.err, &e) || !errors.Is(tt.err, arrow.ErrInvalid) || errors.Is(tt.err, io.EOF) != tt.wantEOF {
				t.Errorf("%v: As *Error %v, Is ErrInvalid %v, Is EOF %v (want %v)", tt.err, e != nil,
					errors.Is(tt.err, arrow.ErrInvalid), errors.Is(tt.err, io.EOF), tt.wantEOF)
			}
		})
	}
}

func TestDataType(t *testing.T) {
	tests := []struct {
		name    string
		d       dltype.DataType
		want    arrow.DataType
		wantStr string
		wantBin []byte
	}{
		{name: "float32", d: dltype.DataType{Code: 2, Bits: 32, Lanes: 1}, want: arrow.PrimitiveTypes.Float32,
			wantStr: "code=2 bits=32 lanes=1", wantBin: []byte{2, 32, 1, 0}},
		{name: "uint16", d: dltype.DataType{Code: 1, Bits: 16, Lanes: 1}, want: arrow.PrimitiveTypes.Uint16,
			wantStr: "code=1 bits=16 lanes=1", wantBin: []byte{1, 16, 1, 0}},
		{name: "int8", d: dltype.DataType{Code: 0, Bits: 8, Lanes: 1}, want: arrow.PrimitiveTypes.Int8,
			wantStr: "code=0 bits=8 lanes=1", wantBin: []byte{0, 8, 1, 0}},
		{name: "float16", d: dltype.DataType{Code: 2, Bits: 16, Lanes: 1}, want: arrow.FixedWidthTypes.Float16,
			wantStr: "code=2 bits=16 lanes=1", wantBin: []byte{2, 16, 1, 0}},
		{name: "lanes", d: dltype.DataType{Code: 2, Bits: 32, Lanes: 258}, wantStr: "code=2 bits=32 lanes=258", wantBin: []byte{2, 32, 2, 1}},
		{name: "bfloat16", d: dltype.DataType{Code: 4, Bits: 16, Lanes: 1}, wantStr: "code=4 bits=16 lanes=1", wantBin: []byte{4, 16, 1, 0}},
		{name: "int4", d: dltype.DataType{Code: 0, Bits: 4, Lanes: 1}, wantStr: "code=0 bits=4 lanes=1", wantBin: []byte{0, 4, 1, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.d.ArrowType()
			if tt.want == nil {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("ArrowType error = %v, want arrow.ErrInvalid", err)
				}
			} else if err != nil || !arrow.TypeEqual(tt.want, got) {
				t.Errorf("ArrowType = %v, %v; want %v", got, err, tt.want)
			}
			if diff := cmp.Diff(tt.wantStr, tt.d.String()); diff != "" {
				t.Errorf("String (-want +got):\n%s", diff)
			}
			bin, err := tt.d.AppendBinary([]byte{9})
			if diff := cmp.Diff(append([]byte{9}, tt.wantBin...), bin); diff != "" || err != nil {
				t.Errorf("AppendBinary (-want +got), error %v:\n%s", err, diff)
			}
		})
	}
}
