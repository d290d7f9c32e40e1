package arrowconv_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/arrowconv"
)

// TestFailedDecodeFreesMemory reads files whose second buffer or child
// length is malformed: each reader must fail with arrow.ErrInvalid and
// free everything the failed decode allocated.
func TestFailedDecodeFreesMemory(t *testing.T) {
	tests := []struct {
		name string
		file string
		read func(path string, opts ...arrowconv.Option) error
	}{
		{"file short int64 buffer", "leak_ipcfile_short_int64_buffer.arrow", readFile(arrowconv.OpenIPCFile)},
		{"mapped file short int64 buffer", "leak_ipcfile_short_int64_buffer.arrow", readFile(arrowconv.OpenMappedIPCFile)},
		{"stream child length", "leak_ipcstream_child_len.arrows", readStreamFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			err := tc.read(filepath.Join("testdata", tc.file), arrowconv.WithAllocator(mem))
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want arrow.ErrInvalid", err)
			}
		})
	}
}

func readFile(open func(string, ...arrowconv.Option) (*arrowconv.FileReader, error)) func(string, ...arrowconv.Option) error {
	return func(path string, opts ...arrowconv.Option) error {
		r, err := open(path, opts...)
		if err != nil {
			return err
		}
		defer r.Close()
		for i := range r.NumRecords() {
			rec, err := r.RecordBatch(i)
			if err != nil {
				return err
			}
			rec.Release()
		}
		return nil
	}
}

func readStreamFile(path string, opts ...arrowconv.Option) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r, err := arrowconv.NewIPCStreamReader(f, opts...)
	if err != nil {
		return err
	}
	defer r.Release()
	for r.Next() {
	}
	return r.Err()
}
