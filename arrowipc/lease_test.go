package arrowipc_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowipc"
)

// TestLeaseRequired maps a file that another descriptor holds open for
// writing, which no system grants a lease on: OpenMappedIPCFile and
// MapIPCFile map it anyway, and refuse it with ErrNoLease under
// WithLeaseRequired.
func TestLeaseRequired(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 5, false)
	defer rec.Release()
	path := filepath.Join(t.TempDir(), "f.arrow")
	if err := os.WriteFile(path, writeIPC(t, true, []arrow.RecordBatch{rec}), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	open := map[string]func(...arrowipc.Option) (*arrowipc.FileReader, error){
		"OpenMappedIPCFile": func(o ...arrowipc.Option) (*arrowipc.FileReader, error) {
			return arrowipc.OpenMappedIPCFile(path, o...)
		},
		"MapIPCFile": func(o ...arrowipc.Option) (*arrowipc.FileReader, error) {
			f, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			return arrowipc.MapIPCFile(f, o...)
		},
	}
	for name, open := range open {
		t.Run(name, func(t *testing.T) {
			fr, err := open(arrowipc.WithAllocator(mem))
			if err != nil {
				t.Fatalf("without WithLeaseRequired: %v", err)
			}
			if fr.NumRecords() != 1 {
				t.Errorf("%d records, want 1", fr.NumRecords())
			}
			fr.Close()
			fr, err = open(arrowipc.WithAllocator(mem), arrowipc.WithLeaseRequired())
			if err == nil {
				fr.Close()
				t.Fatal("WithLeaseRequired maps a file open for writing")
			}
			if !errors.Is(err, arrowipc.ErrNoLease) {
				t.Fatalf("WithLeaseRequired: %v, want ErrNoLease", err)
			}
		})
	}
}
