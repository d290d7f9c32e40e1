package decthings_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/decthings"
)

// FuzzDecodeTensor checks that DecodeTensor never panics, that its errors
// wrap arrow.ErrInvalid, and that a decoded tensor encodes back to the bytes
// it came from when those used minimal varints (decoding the re-encoding is
// always stable).
func FuzzDecodeTensor(f *testing.F) {
	for _, h := range []string{
		"07020203000102030405", "0602fd012c00", "040102feff0201", "0d0103010001",
		"0b01020f0568656c6c6f082c20776f726c6421", "0b01020568656c6c6f082c20776f726c6421",
		"0c01010504deadbeef", "0e00090803706e6789504e47", "0b01010302c3a9", "0100000000000000",
	} {
		b, _ := hex.DecodeString(h)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tn, n, err := decthings.DecodeTensor(b)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		if n < 2 || n > len(b) {
			t.Fatalf("read %d of %d bytes", n, len(b))
		}
		out, err := decthings.AppendTensor(nil, &tn)
		if err != nil {
			t.Fatalf("AppendTensor of a decoded tensor: %v", err)
		}
		again, m, err := decthings.DecodeTensor(out)
		if err != nil || m != len(out) {
			t.Fatalf("DecodeTensor of re-encoding: %d, %v", m, err)
		}
		if diff := cmp.Diff(tn, again); diff != "" {
			t.Fatalf("decode/encode/decode (-first +second):\n%s", diff)
		}
		if len(out) == n && string(out) != string(b[:n]) {
			t.Fatalf("same-length re-encoding differs:\n%x\n%x", b[:n], out)
		}
		if _, err := decthings.NewColumn([]decthings.Tensor{tn}); err != nil && !errors.Is(err, arrow.ErrInvalid) {
			t.Fatalf("NewColumn error %v does not wrap arrow.ErrInvalid", err)
		}
	})
}

// FuzzVarint checks that Varint never panics and reads what AppendVarint
// writes.
func FuzzVarint(f *testing.F) {
	f.Add([]byte{0x12})
	f.Add([]byte{0xfd, 0x03, 0x33})
	f.Add([]byte{0xff, 1, 2, 3, 4, 5, 6, 7})
	f.Fuzz(func(t *testing.T, b []byte) {
		x, n, err := decthings.Varint(b)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		if n > len(b) || decthings.VarintLen(x) > n {
			t.Fatalf("Varint(%x) = %d, %d", b, x, n)
		}
		if y, _, _ := decthings.Varint(decthings.AppendVarint(nil, x)); y != x {
			t.Fatalf("round trip of %d gave %d", x, y)
		}
	})
}
