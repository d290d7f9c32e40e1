package tensorio_test

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// TestNewReader: a stream of each format that can be read front to back
// reads as its file does, its format named or sniffed; IPC files,
// Parquet and .npz are refused; a stream without a signature needs
// WithFormat.
func TestNewReader(t *testing.T) {
	paths := sampleFiles(t, t.TempDir())
	for _, f := range tensorio.Formats() {
		for _, named := range []bool{false, true} {
			name := string(f) + "/sniffed"
			if named {
				name = string(f) + "/named"
			}
			t.Run(name, func(t *testing.T) {
				mem := checked(t)
				b, err := os.ReadFile(paths[f])
				if err != nil {
					t.Fatal(err)
				}
				opts := []tensorio.Option{tensorio.WithAllocator(mem)}
				if named {
					opts = append(opts, tensorio.WithFormat(f))
				}
				r, err := tensorio.NewReader(bytes.NewReader(b), opts...)
				switch {
				case f == tensorio.IPCFile || f == tensorio.Parquet || f == tensorio.NPZ:
					if !errors.Is(err, tensorio.ErrMismatch) {
						t.Errorf("NewReader: %v; want ErrMismatch", err)
					}
					return
				case !named && tensorio.Sniff(b) == "":
					if !errors.Is(err, tensorio.ErrFormat) {
						t.Errorf("NewReader: %v; want ErrFormat", err)
					}
					return
				case err != nil:
					t.Fatalf("NewReader: %v", err)
				}
				defer r.Release()
				if r.Format() != f {
					t.Errorf("format %s, want %s", r.Format(), f)
				}
				want, _ := readAll(t, paths[f])
				defer release(want)
				n := 0
				for r.Next() {
					rec := r.RecordBatch()
					for i := range want {
						if !array.Equal(want[i], rec.Column(i)) {
							t.Errorf("column %d differs:\n%v\n%v", i, want[i], rec.Column(i))
						}
					}
					n++
				}
				if err := r.Err(); err != nil || n != 1 {
					t.Errorf("%d batches, error %v; want 1 batch", n, err)
				}
			})
		}
	}
}

// FuzzNewReader reads arbitrary bytes as a stream, its format sniffed
// (format 0) or named, to the end: no panic, no leak.
func FuzzNewReader(f *testing.F) {
	a := tensors(&testing.T{}, metadata.MustNew([]int{2, 3}, nil, []int{1, 0}), 3, 1, nil)
	rec := batch(a)
	for i, format := range tensorio.Formats() {
		var buf bytes.Buffer
		w, err := tensorio.NewWriter(&buf, rec.Schema(), tensorio.WithFormat(format))
		if err != nil {
			f.Fatal(err)
		}
		testvec.WriteAll(f, w, rec)
		f.Add(uint8(0), buf.Bytes())
		f.Add(uint8(i+1), buf.Bytes())
	}
	rec.Release()
	a.Release()
	f.Fuzz(func(t *testing.T, format uint8, data []byte) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		defer mem.AssertSize(t, 0)
		opts := []tensorio.Option{tensorio.WithAllocator(mem)}
		if fs := tensorio.Formats(); format > 0 {
			opts = append(opts, tensorio.WithFormat(fs[int(format-1)%len(fs)]))
		}
		r, err := tensorio.NewReader(bytes.NewReader(data), opts...)
		if err != nil {
			return
		}
		defer r.Release()
		for r.Next() {
			if !r.RecordBatch().Schema().Equal(r.Schema()) {
				t.Errorf("batch schema %v, reader schema %v", r.RecordBatch().Schema(), r.Schema())
			}
		}
	})
}
