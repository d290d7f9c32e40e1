package fstensor_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor"
)

func TestParseCompression(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want fstensor.Compression
		err  bool
	}{
		{name: "empty", in: "", want: fstensor.Uncompressed},
		{name: "none", in: "none", want: fstensor.Uncompressed},
		{name: "lz4", in: "lz4", want: fstensor.LZ4},
		{name: "zstd upper case", in: "ZSTD", want: fstensor.ZSTD},
		{name: "snappy", in: "snappy", want: fstensor.Snappy},
		{name: "gzip", in: "gzip", want: fstensor.Gzip},
		{name: "deflate", in: "Deflate", want: fstensor.Deflate},
		{name: "unknown", in: "brotli", err: true},
		{name: "space", in: " zstd", err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := fstensor.ParseCompression(tt.in)
			if tt.err {
				var fe *fstensor.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &fe) {
					t.Fatalf("ParseCompression(%q) error = %v, want a *fstensor.Error wrapping ErrOption and arrow.ErrInvalid", tt.in, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCompression(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseCompression(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestCompressionString(t *testing.T) {
	for _, name := range fstensor.CompressionNames() {
		t.Run(name, func(t *testing.T) {
			c, err := fstensor.ParseCompression(name)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(name, c.String()); diff != "" || !c.Valid() {
				t.Errorf("String (-want +got):\n%s (Valid %v)", diff, c.Valid())
			}
		})
	}
	if got, want := fstensor.Compression(99).String(), "Compression(99)"; got != want || fstensor.Compression(99).Valid() {
		t.Errorf("Compression(99).String() = %q, want %q, and not Valid", got, want)
	}
}
