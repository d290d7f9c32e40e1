package parquetconv_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/parquetconv"
)

// TestInvalidOptions: OpenFile, NewReader and NewWriter refuse an invalid
// option value before they read or write anything, with a
// *parquetconv.Error wrapping fstensor.ErrOption and arrow.ErrInvalid.
func TestInvalidOptions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := testRecord(t, mem, 3, false)
	defer rec.Release()
	file := writeFile(t, rec.Schema(), []arrow.RecordBatch{rec}, parquetconv.WithAllocator(mem))
	path := filepath.Join(t.TempDir(), "x.parquet")
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	entries := []struct {
		name string
		call func(opts ...parquetconv.Option) error
	}{
		{"OpenFile", func(opts ...parquetconv.Option) error {
			return testvec.Releasing(parquetconv.OpenFile(path, opts...))
		}},
		{"NewReader", func(opts ...parquetconv.Option) error {
			return testvec.Releasing(parquetconv.NewReader(bytes.NewReader(file), opts...))
		}},
		{"NewWriter", func(opts ...parquetconv.Option) error {
			return testvec.Closing(parquetconv.NewWriter(io.Discard, rec.Schema(), opts...))
		}},
	}
	zstd := parquetconv.WithCompression(parquetconv.ZSTD)
	gzip := parquetconv.WithCompression(parquetconv.Gzip)
	tests := []struct {
		name string
		opts []parquetconv.Option
	}{
		{"nil allocator", []parquetconv.Option{parquetconv.WithAllocator(nil)}},
		{"zero row group rows", []parquetconv.Option{parquetconv.WithRowGroupRows(0)}},
		{"zero batch rows", []parquetconv.Option{parquetconv.WithBatchRows(0)}},
		{"negative row group bytes", []parquetconv.Option{parquetconv.WithRowGroupBytes(-1)}},
		{"zero workers", []parquetconv.Option{parquetconv.WithWorkers(0)}},
		{"zero max page bytes", []parquetconv.Option{parquetconv.WithMaxPageBytes(0)}},
		{"negative max chunk bytes", []parquetconv.Option{parquetconv.WithMaxChunkBytes(-5)}},
		{"zstd level 23", []parquetconv.Option{zstd, parquetconv.WithCompressionLevel(23)}},
		{"gzip level 0 given before the codec", []parquetconv.Option{parquetconv.WithCompressionLevel(0), gzip}},
		{"gzip level 10", []parquetconv.Option{gzip, parquetconv.WithCompressionLevel(10)}},
		{"codec of .npz members", []parquetconv.Option{parquetconv.WithCompression(fstensor.Deflate)}},
		{"unknown codec", []parquetconv.Option{parquetconv.WithCompression(fstensor.Compression(-1))}},
	}
	valid := []parquetconv.Option{
		parquetconv.WithAllocator(mem), parquetconv.WithRowGroupRows(1), parquetconv.WithBatchRows(1),
		parquetconv.WithRowGroupBytes(1), parquetconv.WithWorkers(1), parquetconv.WithMaxPageBytes(1 << 20),
		parquetconv.WithMaxChunkBytes(1 << 20), gzip, parquetconv.WithCompressionLevel(9), nil,
	}
	for _, e := range entries {
		t.Run(e.name+"/valid", func(t *testing.T) {
			if err := e.call(valid...); err != nil {
				t.Fatal(err)
			}
		})
		t.Run(e.name+"/level of a codec without levels", func(t *testing.T) {
			if err := e.call(parquetconv.WithAllocator(mem), parquetconv.WithCompression(parquetconv.Snappy), parquetconv.WithCompressionLevel(99)); err != nil {
				t.Fatal(err)
			}
		})
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				err := e.call(append([]parquetconv.Option{parquetconv.WithAllocator(mem)}, tt.opts...)...)
				var pe *parquetconv.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &pe) {
					t.Errorf("error %v, want a *parquetconv.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
				}
			})
		}
	}
}
