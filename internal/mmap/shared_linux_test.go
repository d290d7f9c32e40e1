package mmap_test

import (
	"bytes"
	"os"
	"testing"
	"unsafe"

	"github.com/fstensor/fstensor/internal/mmap"
)

// mapShared maps the file at path with MapFileShared.
func mapShared(t *testing.T, path string, leaseOnly bool) *mmap.Mapping {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := mmap.MapFileShared(f, leaseOnly)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func addr(m *mmap.Mapping) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(m.Bytes()))) }

// TestShared maps a file three times at once: the mappings share their
// pages; each stays valid until its own Close; a file changed in place
// keeps the bytes of the open ones, and the next mapping holds the new
// file.
func TestShared(t *testing.T) {
	want := pattern(2<<20 + 9)
	m0, path := leased(t, t.TempDir(), want) // probes the lease, skipping without
	m0.Close()
	a := mapShared(t, path, true)
	b := mapShared(t, path, true)
	if addr(a) != addr(b) {
		t.Error("two mappings of one file do not share their pages")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if a.Bytes() != nil {
		t.Error("Bytes after Close is not nil")
	}
	c := mapShared(t, path, false)
	if addr(c) != addr(b) {
		t.Error("a mapping made while another is open does not share it")
	}
	within(t, "rewrite", func() error { return os.WriteFile(path, []byte("new bytes"), 0o644) })
	for i, m := range []*mmap.Mapping{b, c} {
		if !bytes.Equal(m.Bytes(), want) {
			t.Errorf("mapping %d: the bytes changed with the file", i)
		}
	}
	d := mapShared(t, path, true)
	if got := string(d.Bytes()); got != "new bytes" {
		t.Errorf("a mapping after the change holds %d bytes, not the new file", len(got))
	}
	for _, m := range []*mmap.Mapping{b, c, d} {
		if err := m.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Every lease is given back: a writer does not wait.
	within(t, "truncate after Close", func() error { return os.Truncate(path, 0) })
}
