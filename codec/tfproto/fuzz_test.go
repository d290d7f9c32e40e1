package tfproto_test

import (
	"encoding/hex"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/tfproto"
)

// FuzzDecode checks that Decode and SplitDelimited never panic, that
// their errors wrap arrow.ErrInvalid, that a decoded tensor encodes and
// decodes back to itself, and that split messages frame and split back.
func FuzzDecode(f *testing.F) {
	for _, h := range []string{
		"08011208120208021202080322180000803f0000004000004040000080400000a0400000c040",
		"08031204120208033a0d01ffffffffffffffffff01ac02", "080112021801",
		"080712041202080242016142026263", "08131204120208026a058078808003",
		"08011214120808021204726f7773120808021204636f6c732a040000e040",
		"080912041202080222100100000000000000feffffffffffffff",
		"08011204120208032a080000803f00000040", "08011204120208022d0000803f2d00000040",
		"080a1204120208035a03010001", "080e1204120208016a02807f",
	} {
		b, _ := hex.DecodeString(h)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if msgs, err := tfproto.SplitDelimited(b); err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("SplitDelimited error %v does not wrap arrow.ErrInvalid", err)
			}
		} else if again, err := tfproto.SplitDelimited(tfproto.AppendDelimited(nil, msgs)); err != nil || len(again) != len(msgs) {
			t.Fatalf("re-split %d messages: %d, %v", len(msgs), len(again), err)
		}
		tn, err := tfproto.DecodeMax(b, 1<<16)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		out, err := tfproto.AppendTensor(nil, &tn)
		if err != nil {
			t.Fatalf("AppendTensor of a decoded tensor: %v", err)
		}
		again, err := tfproto.DecodeMax(out, 1<<16)
		if err != nil {
			t.Fatalf("Decode of re-encoding: %v", err)
		}
		if diff := cmp.Diff(tn, again); diff != "" {
			t.Fatalf("decode/encode/decode (-first +second):\n%s", diff)
		}
		if arr, err := tfproto.NewColumn([]tfproto.Tensor{tn}); err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("NewColumn error %v does not wrap arrow.ErrInvalid", err)
			}
		} else {
			arr.Release()
		}
	})
}
