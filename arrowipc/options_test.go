package arrowipc_test

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
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestInvalidOptions: every reader and writer refuses an invalid option
// value before it reads or writes anything, with an *arrowipc.Error
// wrapping fstensor.ErrOption and arrow.ErrInvalid.
func TestInvalidOptions(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rec := testRecord(t, mem, 3, true)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "x.arrow")
	file, stream := encodeIPC(t, rec, true, arrowipc.Uncompressed), encodeIPC(t, rec, false, arrowipc.Uncompressed)
	if err := os.WriteFile(path, file, 0o644); err != nil {
		t.Fatal(err)
	}
	entries := []struct {
		name string
		call func(opts ...arrowipc.Option) error
	}{
		{"OpenIPCFile", func(opts ...arrowipc.Option) error { return testvec.Closing(arrowipc.OpenIPCFile(path, opts...)) }},
		{"OpenMappedIPCFile", func(opts ...arrowipc.Option) error { return testvec.Closing(arrowipc.OpenMappedIPCFile(path, opts...)) }},
		{"MapIPCFile", func(opts ...arrowipc.Option) error {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			return testvec.Closing(arrowipc.MapIPCFile(f, opts...))
		}},
		{"NewIPCFileReader", func(opts ...arrowipc.Option) error {
			return testvec.Closing(arrowipc.NewIPCFileReader(bytes.NewReader(file), opts...))
		}},
		{"NewIPCStreamReader", func(opts ...arrowipc.Option) error {
			return testvec.Releasing(arrowipc.NewIPCStreamReader(bytes.NewReader(stream), opts...))
		}},
		{"NewIPCMessageReader", func(opts ...arrowipc.Option) error {
			next := func() ([]byte, []byte, error) { return nil, nil, io.EOF }
			return testvec.Releasing(arrowipc.NewIPCMessageReader(next, opts...))
		}},
		{"NewIPCFileWriter", func(opts ...arrowipc.Option) error {
			return testvec.Closing(arrowipc.NewIPCFileWriter(io.Discard, rec.Schema(), opts...))
		}},
		{"NewIPCStreamWriter", func(opts ...arrowipc.Option) error {
			return testvec.Closing(arrowipc.NewIPCStreamWriter(io.Discard, rec.Schema(), opts...))
		}},
	}
	tests := []struct {
		name string
		opt  arrowipc.Option
	}{
		{"nil allocator", arrowipc.WithAllocator(nil)},
		{"zero body size limit", arrowipc.WithBodySizeLimit(0)},
		{"negative body size limit", arrowipc.WithBodySizeLimit(-1)},
		{"codec of Parquet pages", arrowipc.WithCompression(fstensor.Snappy)},
		{"codec of .npz members", arrowipc.WithCompression(fstensor.Deflate)},
		{"unknown codec", arrowipc.WithCompression(fstensor.Compression(99))},
	}
	for _, e := range entries {
		t.Run(e.name+"/valid", func(t *testing.T) {
			err := e.call(arrowipc.WithAllocator(mem), arrowipc.WithBodySizeLimit(arrowipc.NoBodySizeLimit), nil)
			if e.name == "NewIPCMessageReader" && !errors.Is(err, fstensor.ErrOption) {
				return // no schema message: an error of the input, not of the options
			}
			if err != nil {
				t.Fatal(err)
			}
		})
		for _, tt := range tests {
			t.Run(e.name+"/"+tt.name, func(t *testing.T) {
				err := e.call(arrowipc.WithAllocator(mem), tt.opt)
				var ae *arrowipc.Error
				if !errors.Is(err, fstensor.ErrOption) || !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &ae) {
					t.Errorf("error %v, want an *arrowipc.Error wrapping fstensor.ErrOption and arrow.ErrInvalid", err)
				}
			})
		}
	}
}
