package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/metadata"
	"github.com/google/go-cmp/cmp"
)

// file builds a .npy file of the given version from a header dictionary
// and data, padding the header to 64 bytes.
func file(major int, dict string, data []byte) []byte {
	pre := 10
	if major > 1 {
		pre = 12
	}
	hlen := len(dict) + 1
	hlen += 64 - (pre+hlen)%64
	b := append([]byte(npy.Magic), byte(major), 0)
	if major == 1 {
		b = binary.LittleEndian.AppendUint16(b, uint16(hlen))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(hlen))
	}
	b = append(b, dict...)
	b = append(b, strings.Repeat(" ", hlen-len(dict)-1)...)
	b = append(b, '\n')
	return append(b, data...)
}

func TestParseHeader(t *testing.T) {
	f4 := arrow.PrimitiveTypes.Float32
	tests := []struct {
		name    string
		in      []byte
		max     int
		want    npy.Header
		wantErr bool
	}{
		{name: "keys in any order", in: file(1, "{'shape': (2, 3), 'fortran_order': False, 'descr': '<f4'}", nil),
			want: npy.Header{Major: 1, Type: f4, Shape: []int{2, 3}, DataOffset: 128}},
		{name: "double quotes and tabs", in: file(2, "{\"descr\":\t\"<f4\",\"fortran_order\":True,\"shape\":(2,3,)}", nil),
			want: npy.Header{Major: 2, Type: f4, FortranOrder: true, Shape: []int{2, 3}, DataOffset: 128}},
		{name: "version 3", in: file(3, "{'descr': '>u8', 'fortran_order': False, 'shape': (1,), }", nil),
			want: npy.Header{Major: 3, Type: arrow.PrimitiveTypes.Uint64, BigEndian: true, Shape: []int{1}, DataOffset: 128}},
		{name: "0-D", in: file(1, "{'descr': '<f2', 'fortran_order': False, 'shape': ()}", nil),
			want: npy.Header{Major: 1, Type: arrow.FixedWidthTypes.Float16, Shape: []int{}, DataOffset: 128}},
		{name: "python 2 long suffix", in: file(1, "{'descr': '|i1', 'fortran_order': False, 'shape': (3L, 4L)}", nil),
			want: npy.Header{Major: 1, Type: arrow.PrimitiveTypes.Int8, Shape: []int{3, 4}, DataOffset: 128}},
		{name: "size-0 dimension", in: file(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (3, 0, 4)}", nil),
			want: npy.Header{Major: 1, Type: arrow.PrimitiveTypes.Int16, Shape: []int{3, 0, 4}, DataOffset: 128}},
		{name: "long suffix in version 3", in: file(3, "{'descr': '|i1', 'fortran_order': False, 'shape': (3L,)}", nil), wantErr: true},
		{name: "object dtype", in: file(1, "{'descr': '|O', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "structured dtype", in: file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "complex dtype", in: file(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "complex dtype", in: file(1, "{'descr': '<c8', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "bool of 2 bytes", in: file(1, "{'descr': '|b2', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "string dtype", in: file(1, "{'descr': '<U3', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "native order on multi-byte", in: file(1, "{'descr': '=f4', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "unknown key", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), 'x': 1}", nil), wantErr: true},
		{name: "repeated key", in: file(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", nil), wantErr: true},
		{name: "missing shape", in: file(1, "{'descr': '<f4', 'fortran_order': False}", nil), wantErr: true},
		{name: "shape is an int", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", nil), wantErr: true},
		{name: "shape is a list", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [3]}", nil), wantErr: true},
		{name: "negative dimension", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-3,)}", nil), wantErr: true},
		{name: "float dimension", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3.0,)}", nil), wantErr: true},
		{name: "overflowing dimension", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", nil), wantErr: true},
		{name: "overflowing shape", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296)}", nil), wantErr: true},
		{name: "overflowing byte count", in: file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,)}", nil), wantErr: true},
		{name: "fortran_order not bool", in: file(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (3,)}", nil), wantErr: true},
		{name: "text after dict", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)} x", nil), wantErr: true},
		{name: "header over the limit", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", nil), max: 32, wantErr: true},
		{name: "truncated header", in: file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", nil)[:40], wantErr: true},
		{name: "bad magic", in: append([]byte("\x93NUMPZ\x01\x00"), file(1, "{}", nil)[8:]...), wantErr: true},
		{name: "too many dimensions", in: file(2, "{'descr': '<f4', 'fortran_order': False, 'shape': ("+strings.Repeat("1, ", metadata.MaxDims+1)+")}", nil), max: 1 << 20, wantErr: true},
		{name: "empty", in: nil, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := npy.ParseHeader(tt.in, tt.max)
			if tt.wantErr {
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("error = %v, want arrow.ErrInvalid", err)
				}
				_, err := npy.ReadHeader(bytes.NewReader(tt.in), tt.max)
				if !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("ReadHeader error = %v, want arrow.ErrInvalid", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got, typeEq); diff != "" {
				t.Errorf("header (-want +got):\n%s", diff)
			}
			r := bytes.NewReader(tt.in)
			got2, err := npy.ReadHeader(r, tt.max)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, got2, typeEq); diff != "" {
				t.Errorf("ReadHeader (-ParseHeader +ReadHeader):\n%s", diff)
			}
			if r.Len() != len(tt.in)-got.DataOffset {
				t.Errorf("ReadHeader left %d bytes, want %d", r.Len(), len(tt.in)-got.DataOffset)
			}
		})
	}
}

// lyingBeyond32 is the error of a header announcing 4e11 bytes: a short
// read on 64-bit; on 32-bit the shape itself overflows int, a plain
// arrow.ErrInvalid.
var lyingBeyond32 = func() error {
	if strconv.IntSize == 32 {
		return arrow.ErrInvalid
	}
	return io.ErrUnexpectedEOF
}()

func TestReadErrors(t *testing.T) {
	f4 := func(shape string, data int) []byte {
		return file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': "+shape+"}", make([]byte, data))
	}
	tests := []struct {
		name    string
		in      []byte
		whole   bool
		opts    []npy.ReadOption
		wantErr error
	}{
		{name: "0-D as a column", in: f4("()", 4), wantErr: arrow.ErrInvalid},
		{name: "size-0 tensor dimension", in: f4("(2, 0)", 0), wantErr: arrow.ErrNotImplemented},
		{name: "size-0 tensor", in: f4("(0, 3)", 0), whole: true, wantErr: arrow.ErrNotImplemented},
		{name: "truncated data", in: f4("(2, 3)", 23), wantErr: io.ErrUnexpectedEOF},
		// 2e9 bytes announced, 64 present: under math.MaxInt32, so a short
		// read on either word size.
		{name: "lying header", in: f4("(100000000, 5)", 64), wantErr: io.ErrUnexpectedEOF},
		{name: "lying header beyond 32 bits", in: f4("(1000000000, 100)", 64), wantErr: lyingBeyond32},
		{name: "over MaxDataSize", in: f4("(2, 3)", 24), opts: []npy.ReadOption{npy.WithMaxDataSize(23)}, wantErr: arrow.ErrInvalid},
		{name: "overflowing shape", in: f4("(4294967296, 4294967296, 4294967296)", 0), wantErr: arrow.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			o := append([]npy.ReadOption{npy.WithAllocator(mem)}, tt.opts...)
			decode, read := npy.DecodeColumn, npy.ReadColumn
			if tt.whole {
				decode, read = npy.DecodeTensor, npy.ReadTensor
			}
			if _, err := decode(tt.in, o...); !errors.Is(err, tt.wantErr) || !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("decode error = %v, want %v and arrow.ErrInvalid", err, tt.wantErr)
			}
			for _, r := range []io.Reader{bytes.NewReader(tt.in), onlyReader{bytes.NewReader(tt.in)}} {
				if _, err := read(r, o...); !errors.Is(err, tt.wantErr) || !errors.Is(err, arrow.ErrInvalid) {
					t.Errorf("read(%T) error = %v, want %v and arrow.ErrInvalid", r, err, tt.wantErr)
				}
			}
		})
	}
}

var typeEq = cmp.Comparer(func(a, b arrow.DataType) bool { return arrow.TypeEqual(a, b) })

// TestNextChunk checks the growth of the read buffer of a reader that
// cannot tell its size: it doubles, starts at 1 MiB, stops at the size and
// never shrinks below what arrived, even where doubling overflows int.
func TestNextChunk(t *testing.T) {
	tests := []struct {
		name            string
		got, size, want int
	}{
		{"first chunk", 0, 10 << 20, 1 << 20},
		{"small data", 0, 100, 100},
		{"doubling", 1 << 20, 10 << 20, 2 << 20},
		{"last chunk", 6 << 20, 10 << 20, 10 << 20},
		// 2*got overflows a 32-bit int here.
		{"1 GiB of 1.5 GiB", 1 << 30, 3 << 29, 3 << 29},
		{"past half of max int", math.MaxInt/2 + 1, math.MaxInt, math.MaxInt},
		{"one byte short of max int", math.MaxInt - 1, math.MaxInt, math.MaxInt},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := npy.NextChunk(tt.got, tt.size); got != tt.want {
				t.Errorf("NextChunk(%d, %d) = %d, want %d", tt.got, tt.size, got, tt.want)
			}
		})
	}
}
