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
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// TestInvalidOptions: every entry point refuses an invalid option value
// before it opens or creates anything, with a *tensorio.Error wrapping
// fstensor.ErrOption and arrow.ErrInvalid.
func TestInvalidOptions(t *testing.T) {
	m := metadata.MustNew([]int{2}, nil, nil)
	a := tensors(t, m, 1, 0, nil)
	defer a.Release()
	schema := batch(a).Schema()
	path := threeBatches(t, tensorio.IPCFile)
	dir := t.TempDir()
	entries := []struct {
		name string
		call func(opts []tensorio.Option) error
	}{
		{"Open", func(opts []tensorio.Option) error {
			return testvec.Closing(tensorio.Open(path, opts...))
		}},
		{"Open missing file", func(opts []tensorio.Option) error {
			return testvec.Closing(tensorio.Open(filepath.Join(dir, "missing.arrow"), opts...))
		}},
		{"OpenFile", func(opts []tensorio.Option) error {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			return testvec.Closing(tensorio.OpenFile(f, path, opts...))
		}},
		{"NewReader", func(opts []tensorio.Option) error {
			return testvec.Closing(tensorio.NewReader(bytes.NewReader(nil), append(opts, tensorio.WithFormat(tensorio.IPCStream))...))
		}},
		{"Create", func(opts []tensorio.Option) error {
			w, err := tensorio.Create(filepath.Join(dir, "x.arrow"), schema, opts...)
			if err == nil {
				w.Abort()
			}
			return err
		}},
		{"NewWriter", func(opts []tensorio.Option) error {
			w, err := tensorio.NewWriter(&bytes.Buffer{}, schema, append(opts, tensorio.WithFormat(tensorio.IPCStream))...)
			if err == nil {
				w.Abort()
			}
			return err
		}},
	}
	tests := []struct {
		name string
		opt  tensorio.Option
	}{
		{"nil allocator", tensorio.WithAllocator(nil)},
		{"negative offset", tensorio.WithOffset(-1)},
		{"negative limit", tensorio.WithLimit(-5)},
		{"negative batch rows", tensorio.WithBatchRows(-1)},
		{"zero workers", tensorio.WithWorkers(0)},
		{"negative workers", tensorio.WithWorkers(-2)},
		{"unknown compression", tensorio.WithCompression(99)},
		{"negative compression", tensorio.WithCompression(-1)},
		{"zero page bytes", tensorio.WithPageBytes(0)},
	}
	for _, e := range entries {
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				err := e.call([]tensorio.Option{tt.opt})
				var te *tensorio.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &te) {
					t.Errorf("error %v, want a *tensorio.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
				}
				if tmp := leftovers(t, dir); len(tmp) > 0 {
					t.Errorf("left %v", tmp)
				}
			})
		}
	}
}

// TestParquetCodecs: Parquet takes every codec of fstensor.Compression
// but Deflate, and the values read back are those written.
func TestParquetCodecs(t *testing.T) {
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	for _, c := range []tensorio.Compression{tensorio.Uncompressed, tensorio.LZ4, tensorio.ZSTD, tensorio.Snappy, tensorio.Gzip} {
		t.Run(c.String(), func(t *testing.T) {
			a := tensors(t, m, 5, 1, []bool{true, true, false, true, true})
			defer a.Release()
			rec := batch(a)
			defer rec.Release()
			path := filepath.Join(t.TempDir(), "x.parquet")
			writeFile(t, path, []arrow.RecordBatch{rec}, tensorio.WithCompression(c))
			cols, _ := readAll(t, path)
			defer release(cols)
			if !array.Equal(a, cols[0]) {
				t.Errorf("read %v, want %v", cols[0], a)
			}
		})
	}
}
