package format_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/parquetconv/internal/format"
)

// offsetIndex serializes an OffsetIndex of pages with arrow-go's
// builder, the reference this parser is checked against.
func offsetIndex(t testing.TB, pages ...format.PageLocation) []byte {
	t.Helper()
	var b metadata.OffsetIndexBuilder
	for _, p := range pages {
		if err := b.AddPage(p.Offset, p.FirstRow, p.Size); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Finish(0); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestParseOffsetIndex(t *testing.T) {
	three := []format.PageLocation{{4, 100, 0}, {104, 50, 3}, {1 << 40, 1<<31 - 1, 1 << 50}}
	valid := offsetIndex(t, three...)
	tests := []struct {
		name string
		b    []byte
		want []format.PageLocation
		err  bool
	}{
		{name: "three pages", b: valid, want: three},
		{name: "one page", b: offsetIndex(t, format.PageLocation{Offset: 4, Size: 10}), want: []format.PageLocation{{4, 10, 0}}},
		{name: "empty list", b: []byte{0x19, 0x0c, 0x00}, want: nil},
		{name: "empty struct", b: []byte{0x00}, err: true},
		{name: "empty input", b: nil, err: true},
		{name: "truncated", b: valid[:len(valid)-3], err: true},
		{name: "list longer than the input", b: []byte{0x19, 0xfc, 0xff, 0xff, 0xff, 0x0f}, err: true},
		{name: "list of i32", b: []byte{0x19, 0x15, 0x02, 0x00}, err: true},
		{name: "missing size", b: []byte{0x19, 0x1c, 0x16, 0x08, 0x26, 0x00, 0x00, 0x00}, err: true},
		{name: "negative offset", b: []byte{0x19, 0x1c, 0x16, 0x01, 0x15, 0x02, 0x16, 0x00, 0x00, 0x00}, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := format.ParseOffsetIndex(nil, tt.b)
			if tt.err {
				if err == nil || !errors.Is(err, arrow.ErrInvalid) {
					t.Fatalf("ParseOffsetIndex = %v, %v; want an error wrapping arrow.ErrInvalid", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("pages (-want +got):\n%s", d)
			}
		})
	}
}

// FuzzParseOffsetIndex checks that no input panics and that what parses
// is what arrow-go's builder serializes back to the same locations.
func FuzzParseOffsetIndex(f *testing.F) {
	f.Add(offsetIndex(f, format.PageLocation{Offset: 4, Size: 100}, format.PageLocation{Offset: 104, Size: 50, FirstRow: 3}))
	f.Add([]byte{0x19, 0x0c, 0x00})
	f.Fuzz(func(t *testing.T, b []byte) {
		got, err := format.ParseOffsetIndex(nil, b)
		if err != nil || len(got) == 0 { // arrow-go writes no index of no page
			return
		}
		again, err := format.ParseOffsetIndex(nil, offsetIndex(t, got...))
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(got, again); d != "" {
			t.Errorf("reserialized (-first +second):\n%s", d)
		}
	})
}
