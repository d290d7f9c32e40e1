package arrowipc_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/mmap"
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

// TestMappedReleased opens mapped readers of a file, several at once,
// and of broken files that fail to open: once every reader is closed, no
// shared mapping and no lease is left.
func TestMappedReleased(t *testing.T) {
	mem := checkedMem(t)
	rec := testRecord(t, mem, 5, false)
	defer rec.Release()
	dir := t.TempDir()
	data := writeIPC(t, true, []arrow.RecordBatch{rec})
	files := map[string][]byte{"good.arrow": data, "short.arrow": data[:len(data)-9], "junk.arrow": []byte("ARROW1\x00\x00not a file ARROW1")}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var open []*arrowipc.FileReader
	for range 3 {
		for name := range files {
			fr, err := arrowipc.OpenMappedIPCFile(filepath.Join(dir, name), arrowipc.WithAllocator(mem))
			if (err == nil) != (name == "good.arrow") {
				t.Fatalf("%s: error %v", name, err)
			}
			if err == nil {
				open = append(open, fr)
			}
		}
	}
	if m, _ := mmap.Held(); m != 1 {
		t.Errorf("%d shared mappings of one file open three times, want 1", m)
	}
	for _, fr := range open {
		if err := fr.Close(); err != nil {
			t.Fatal(err)
		}
	}
	if m, l := mmap.Held(); m != 0 || l != 0 {
		t.Errorf("after Close: %d shared mappings and %d leases held, want none", m, l)
	}
}
