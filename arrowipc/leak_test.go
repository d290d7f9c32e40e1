package arrowipc_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestFailedDecodeFreesMemory reads files whose second buffer or child
// length is malformed: each reader must fail with arrow.ErrInvalid and
// free everything the failed decode allocated.
func TestFailedDecodeFreesMemory(t *testing.T) {
	tests := []struct {
		name string
		file string
		read func(path string, opts ...arrowipc.Option) error
	}{
		{"file short int64 buffer", "leak_ipcfile_short_int64_buffer.arrow", readFile(arrowipc.OpenIPCFile)},
		{"mapped file short int64 buffer", "leak_ipcfile_short_int64_buffer.arrow", readFile(arrowipc.OpenMappedIPCFile)},
		{"stream child length", "leak_ipcstream_child_len.arrows", readStreamFile},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mem := checkedMem(t)
			err := tc.read(filepath.Join("testdata", tc.file), arrowipc.WithAllocator(mem))
			if !errors.Is(err, arrow.ErrInvalid) {
				t.Fatalf("err = %v, want arrow.ErrInvalid", err)
			}
		})
	}
}

func readFile(open func(string, ...arrowipc.Option) (*arrowipc.FileReader, error)) func(string, ...arrowipc.Option) error {
	return func(path string, opts ...arrowipc.Option) error {
		return testvec.ReadEveryBatch(open(path, opts...))
	}
}

func readStreamFile(path string, opts ...arrowipc.Option) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return testvec.Drain(arrowipc.NewIPCStreamReader(f, opts...))
}
