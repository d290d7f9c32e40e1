package mshadow_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/codec/mshadow"
	"github.com/fstensor/fstensor/metadata"
)

// FuzzReadShape checks that ReadShape never panics, that its errors wrap
// arrow.ErrInvalid and that what it reads writes back to the same bytes.
func FuzzReadShape(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0}, false)
	f.Add([]byte{1, 0, 0, 0, 3, 0, 0, 0}, false)
	f.Add([]byte{5, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0}, false)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff}, true)
	f.Add([]byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, true)
	f.Add([]byte{2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0}, true)
	f.Fuzz(func(t *testing.T, b []byte, wide bool) {
		l := mshadow.Index32
		if wide {
			l = mshadow.Int64
		}
		shape, n, err := mshadow.ReadShape(b, l)
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		out, err := mshadow.AppendShape(nil, shape, l)
		if err != nil {
			t.Fatalf("AppendShape(%v): %v", shape, err)
		}
		if diff := cmp.Diff(b[:n], out); diff != "" {
			t.Fatalf("round trip (-read +written):\n%s", diff)
		}
	})
}

// FuzzReadText checks that ReadText never panics, that its errors wrap
// arrow.ErrInvalid and that a shape it reads prints to text that reads back
// to the same shape.
func FuzzReadText(f *testing.F) {
	for _, s := range []string{"(3,4)", "(3, 4L, 5)", "()", " (2,3)", "(3 4)", "(3,,4)", "(3L,)", "  7", "(0,5)", "( 3 , 4 )", "(-1,2)", "(4294967296)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		shape, n, err := mshadow.ReadText(s)
		if n < 0 || n > len(s) {
			t.Fatalf("consumed %d of %d bytes", n, len(s))
		}
		if err != nil {
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("error %v does not wrap arrow.ErrInvalid", err)
			}
			return
		}
		text := metadata.FormatShape(shape)
		again, _, err := mshadow.ReadText(text)
		if len(shape) == 0 {
			return // "()" fails in mshadow, by design
		}
		if err != nil {
			t.Fatalf("ReadText(%q) of printed %v: %v", text, shape, err)
		}
		if diff := cmp.Diff(shape, again); diff != "" {
			t.Fatalf("print/read (-first +second):\n%s", diff)
		}
	})
}
