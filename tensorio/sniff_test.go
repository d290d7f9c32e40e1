package tensorio_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// sampleFiles writes one small file of every format into dir, named
// NAME.<format>, and returns their paths by format.
func sampleFiles(t *testing.T, dir string) map[tensorio.Format]string {
	t.Helper()
	col := tensors(t, metadata.MustNew([]int{2, 3}, nil, nil), 4, 1, nil)
	rec := batch(col)
	defer rec.Release()
	paths := map[tensorio.Format]string{}
	for _, f := range tensorio.Formats() {
		p := filepath.Join(dir, "x."+string(f))
		writeFile(t, p, []arrow.RecordBatch{rec}, tensorio.WithFormat(f))
		paths[f] = p
	}
	return paths
}

// TestSniff: the first bytes of a file of each format show the format,
// but for those without a signature.
func TestSniff(t *testing.T) {
	paths := sampleFiles(t, t.TempDir())
	want := map[tensorio.Format]tensorio.Format{
		tensorio.IPCFile: tensorio.IPCFile, tensorio.IPCStream: tensorio.IPCStream, tensorio.Parquet: tensorio.Parquet,
		tensorio.NPY: tensorio.NPY, tensorio.NPZ: tensorio.NPZ, tensorio.ZIO: tensorio.ZIO,
		tensorio.TFProto: "", tensorio.Decthings: "",
	}
	got := map[tensorio.Format]tensorio.Format{}
	for f, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got[f] = tensorio.Sniff(b[:min(len(b), tensorio.SniffLen)])
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sniff (-want +got):\n%s", diff)
	}
	for _, head := range []string{"", "PAR", "ARROW1", "\xff\xff\xff\xff\x00\x00\x00\x80", "\x93NUMP", "PK", "\x05ZIOx"} {
		if f := tensorio.Sniff([]byte(head)); f != "" {
			t.Errorf("Sniff(%q) = %q, want none", head, f)
		}
	}
}

// TestOpenWrongExtension: a file whose bytes are of another format than
// its extension fails Open with a *FormatError naming both, unless
// WithFormat names the format; WithFormat naming the wrong one fails
// with a *FormatError that keeps the reader's error.
func TestOpenWrongExtension(t *testing.T) {
	dir := t.TempDir()
	paths := sampleFiles(t, dir)
	tests := []struct {
		name       string
		actual     tensorio.Format
		ext        string
		explicit   tensorio.Format
		wantFormat bool // a *FormatError
	}{
		{"parquet named arrow", tensorio.Parquet, "arrow", "", true},
		{"stream named arrow", tensorio.IPCStream, "arrow", "", true},
		{"file named arrows", tensorio.IPCFile, "arrows", "", true},
		{"npz named npy", tensorio.NPZ, "npy", "", true},
		{"npy named parquet", tensorio.NPY, "parquet", "", true},
		{"parquet named arrow, WithFormat parquet", tensorio.Parquet, "arrow", tensorio.Parquet, false},
		{"stream named arrow, WithFormat arrow", tensorio.IPCStream, "arrow", tensorio.IPCFile, true},
		{"tfproto named dt", tensorio.TFProto, "dt", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mem := checked(t)
			b, err := os.ReadFile(paths[tt.actual])
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), "in."+tt.ext)
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			opts := []tensorio.Option{tensorio.WithAllocator(mem)}
			if tt.explicit != "" {
				opts = append(opts, tensorio.WithFormat(tt.explicit))
			}
			r, err := tensorio.Open(p, opts...)
			if r != nil {
				r.Close()
			}
			var fe *tensorio.FormatError
			if !tt.wantFormat {
				if errors.As(err, &fe) {
					t.Errorf("Open: %v; want no *FormatError", err)
				}
				return
			}
			if !errors.As(err, &fe) || !errors.Is(err, tensorio.ErrFormat) || !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("Open: %v; want a *FormatError wrapping ErrFormat and arrow.ErrInvalid", err)
			}
			want := tensorio.FormatError{Path: p, Named: tensorio.Format(tt.ext), Found: tt.actual, Explicit: tt.explicit != ""}
			if ext, err := tensorio.FormatOf(p); err == nil && tt.explicit == "" {
				want.Named = ext
			} else if tt.explicit != "" {
				want.Named = tt.explicit
			}
			got := *fe
			got.Err = nil
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("FormatError (-want +got):\n%s", diff)
			}
			if want.Explicit && fe.Err == nil {
				t.Errorf("FormatError with WithFormat lacks the reader's error")
			}
		})
	}
}
