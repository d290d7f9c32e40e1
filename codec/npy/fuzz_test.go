package npy_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/google/go-cmp/cmp"
)

// FuzzDecode feeds arbitrary bytes to the header parser and the readers:
// they never panic, errors wrap arrow.ErrInvalid, allocations are bounded
// by MaxDataSize and released, a decoded column reads the same from a
// stream, and writing it back and decoding again gives the same values.
func FuzzDecode(f *testing.F) {
	for _, c := range seedCases(f, "npy") {
		if c.Input.Hex != "" {
			f.Add(testvec.Hex(f, c.Input.Hex))
		}
		if c.Expected.Hex != "" {
			f.Add(testvec.Hex(f, c.Expected.Hex))
		}
	}
	f.Add(file(2, "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 2, 2), }", make([]byte, 32)))
	f.Add(file(3, "{'shape': (3L,), 'descr': '|u1', 'fortran_order': False}", []byte{1, 2, 3}))
	f.Fuzz(func(t *testing.T, in []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		opts := []npy.ReadOption{npy.WithAllocator(mem), npy.WithMaxDataSize(1 << 20)}
		if _, err := npy.ParseHeader(in, 0); err != nil && !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("ParseHeader error %v does not wrap arrow.ErrInvalid", err)
		}
		for _, whole := range []bool{false, true} {
			decode, read := npy.DecodeColumn, npy.ReadColumn
			if whole {
				decode, read = npy.DecodeTensor, npy.ReadTensor
			}
			a, err := decode(in, opts...)
			b, err2 := read(onlyReader{bytes.NewReader(in)}, opts...)
			if (err == nil) != (err2 == nil) {
				t.Fatalf("decode error %v, read error %v", err, err2)
			}
			if err != nil {
				if !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err2, arrow.ErrInvalid) {
					t.Fatalf("errors %v, %v do not wrap arrow.ErrInvalid", err, err2)
				}
				continue
			}
			va, vb := logical(t, a), logical(t, b)
			if diff := cmp.Diff(va, vb, cmp.Comparer(sameFloat)); diff != "" {
				t.Fatalf("decode and read differ (-decode +read):\n%s", diff)
			}
			var buf bytes.Buffer
			if err := npy.WriteColumn(&buf, a); err != nil {
				t.Fatalf("writing a decoded column: %v", err)
			}
			c, err := npy.DecodeColumn(buf.Bytes(), opts...)
			if err != nil {
				t.Fatalf("decoding a written column: %v", err)
			}
			if diff := cmp.Diff(va, logical(t, c), cmp.Comparer(sameFloat)); diff != "" {
				t.Fatalf("round trip differs (-want +got):\n%s", diff)
			}
			a.Release()
			b.Release()
			c.Release()
		}
	})
}

// sameFloat is equality that treats NaN as equal to NaN.
func sameFloat(a, b float64) bool { return a == b || a != a && b != b }
