package tensorio_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// TestAbort writes one batch of two, then aborts or fails: the existing
// target stays byte for byte, no temporary file is left, the allocator
// is back at 0.
func TestAbort(t *testing.T) {
	m := metadata.MustNew([]int{3, 2}, nil, []int{1, 0})
	for _, f := range tensorio.Formats() {
		for _, how := range []string{"abort", "abort after close", "failed close"} {
			t.Run(string(f)+"/"+how, func(t *testing.T) {
				mem := checked(t)
				dir := t.TempDir()
				path := filepath.Join(dir, "out"+extensions[f])
				old := []byte("the old contents")
				if err := os.WriteFile(path, old, 0o600); err != nil {
					t.Fatal(err)
				}
				valid := []bool{true, true}
				if how == "failed close" {
					valid = []bool{true, false} // the codecs have no null tensors
				}
				a := tensors(t, m, 2, 0, valid)
				defer a.Release()
				rec := batch(a)
				defer rec.Release()
				w, err := tensorio.Create(path, rec.Schema(), tensorio.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				if len(leftovers(t, dir)) != 1 {
					t.Errorf("no temporary file while writing")
				}
				toWrite := rec
				if how == "failed close" && !f.TensorsOnly() {
					// These formats hold nulls: a batch of another schema fails.
					id := ids(0, 2)
					defer id.Release()
					toWrite = batch(id)
					defer toWrite.Release()
				}
				werr := w.Write(toWrite)
				switch how {
				case "abort":
					w.Abort()
					w.Abort() // twice is harmless
				case "abort after close":
					if werr != nil {
						t.Fatal(werr)
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					w.Abort() // does nothing: the file stays
					got, err := os.ReadFile(path)
					if err != nil || bytes.Equal(got, old) {
						t.Errorf("Close did not replace the target: %v", err)
					}
					if err := w.Close(); !errors.Is(err, tensorio.ErrClosed) {
						t.Errorf("second Close: %v", err)
					}
					if err := w.Write(rec); !errors.Is(err, tensorio.ErrClosed) {
						t.Errorf("Write after Close: %v", err)
					}
					return
				case "failed close":
					err := werr
					if err == nil {
						err = w.Close()
					} else {
						w.Abort()
					}
					if err == nil || f.TensorsOnly() && !errors.Is(err, arrow.ErrInvalid) {
						t.Errorf("got %v, want an error wrapping arrow.ErrInvalid", err)
					}
				}
				got, err := os.ReadFile(path)
				if err != nil || !bytes.Equal(got, old) {
					t.Errorf("target now %q, %v; want %q", got, err, old)
				}
				if tmp := leftovers(t, dir); len(tmp) > 0 {
					t.Errorf("left %v", tmp)
				}
			})
		}
	}
}

// TestCreateErrors checks what Create and NewWriter refuse before
// creating anything.
func TestCreateErrors(t *testing.T) {
	m := metadata.MustNew([]int{2}, nil, nil)
	a := tensors(t, m, 1, 0, nil)
	defer a.Release()
	id := ids(0, 1)
	defer id.Release()
	one, two, plain := batch(a).Schema(), batch(a, a).Schema(), batch(id).Schema()
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub.arrow")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		path   string
		schema *arrow.Schema
		opts   []tensorio.Option
		want   error
	}{
		{"unknown extension", "x.txt", one, nil, tensorio.ErrFormat},
		{"unknown format", "x.arrow", one, []tensorio.Option{tensorio.WithFormat("tiff")}, tensorio.ErrFormat},
		{"directory as target", sub, one, nil, tensorio.ErrNotRegular},
		{"deflate for IPC", "x.arrow", one, []tensorio.Option{tensorio.WithCompression(tensorio.Deflate)}, tensorio.ErrMismatch},
		{"zstd for npz", "x.npz", one, []tensorio.Option{tensorio.WithCompression(tensorio.ZSTD)}, tensorio.ErrMismatch},
		{"lz4 for npy", "x.npy", one, []tensorio.Option{tensorio.WithCompression(tensorio.LZ4)}, tensorio.ErrMismatch},
		{"unknown compression", "x.parquet", one, []tensorio.Option{tensorio.WithCompression(9)}, fstensor.ErrOption},
		{"snappy for IPC", "x.arrow", one, []tensorio.Option{tensorio.WithCompression(tensorio.Snappy)}, tensorio.ErrMismatch},
		{"fill nulls for IPC", "x.arrow", one, []tensorio.Option{tensorio.WithFillNulls(0)}, tensorio.ErrMismatch},
		{"two columns in npy", "x.npy", two, nil, tensorio.ErrMismatch},
		{"plain column in npz", "x.npz", plain, nil, tensorio.ErrMismatch},
		{"plain column in zio", "x.zio", plain, nil, tensorio.ErrMismatch},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if !filepath.IsAbs(path) {
				path = filepath.Join(dir, path)
			}
			w, err := tensorio.Create(path, tt.schema, tt.opts...)
			if err == nil {
				w.Abort()
			}
			if !errors.Is(err, tt.want) {
				t.Errorf("got %v, want an error wrapping %v", err, tt.want)
			}
			if tmp := leftovers(t, dir); len(tmp) > 0 {
				t.Errorf("left %v", tmp)
			}
		})
	}
	if _, err := tensorio.NewWriter(&bytes.Buffer{}, one); !errors.Is(err, tensorio.ErrFormat) {
		t.Errorf("NewWriter without a format: %v", err)
	}
}

// TestNewWriter writes an IPC stream to a buffer and reads it back.
func TestNewWriter(t *testing.T) {
	mem := checked(t)
	a := tensors(t, metadata.MustNew([]int{2, 2}, nil, nil), 3, 0, []bool{true, false, true})
	defer a.Release()
	rec := batch(a)
	defer rec.Release()
	var buf bytes.Buffer
	w, err := tensorio.NewWriter(&buf, rec.Schema(), tensorio.WithFormat(tensorio.IPCStream), tensorio.WithCompression(tensorio.ZSTD), tensorio.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	testvec.WriteAll(t, w, rec)
	rr, err := arrowipc.NewIPCStreamReader(&buf, arrowipc.WithAllocator(mem))
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	if !rr.Next() {
		t.Fatal(rr.Err())
	}
	if got := rr.RecordBatch(); !array.RecordEqual(got, rec) {
		t.Errorf("read back %v, want %v", got, rec)
	}
}
