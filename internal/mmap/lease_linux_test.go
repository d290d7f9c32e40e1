package mmap_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fstensor/fstensor/internal/mmap"
)

// leased writes data to a new file of dir and maps it leased, skipping
// the test where the file system grants no lease.
func leased(t testing.TB, dir string, data []byte) (*mmap.Mapping, string) {
	t.Helper()
	w, err := os.CreateTemp(dir, "f")
	if err != nil {
		t.Fatal(err)
	}
	path := w.Name()
	t.Cleanup(func() { os.Remove(path) })
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := mmap.MapFileLeased(f)
	if errors.Is(err, mmap.ErrNoLease) {
		t.Skipf("no lease on %s: %v", dir, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m, path
}

// within runs f, failing the test if it takes longer than a lease break
// should (the kernel's own timeout is 45 s).
func within(t *testing.T, what string, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("%s still waits for the lease after 20 s", what)
	}
}

func pattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*131 + i>>12)
	}
	return b
}

// TestLeaseChanges changes a leased, mapped file in the ways that break a
// lease: the bytes keep their values and reading them does not fault
// (without the copy, reading the pages of the truncated file raises
// SIGBUS and kills the test binary).
func TestLeaseChanges(t *testing.T) {
	want := pattern(3<<20 + 123)
	for fsys, dir := range map[string]string{"disk": t.TempDir(), "tmpfs": shmDir(t)} {
		for _, tt := range []struct {
			name   string
			change func(path string) error
		}{
			{"truncate", func(path string) error { return os.Truncate(path, 1000) }},
			{"rewrite", func(path string) error { return os.WriteFile(path, []byte("new"), 0o644) }},
			{"write in place", func(path string) error {
				f, err := os.OpenFile(path, os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				defer f.Close()
				_, err = f.WriteAt(bytes.Repeat([]byte{0xee}, 8192), 4096)
				return err
			}},
		} {
			t.Run(fsys+"/"+tt.name, func(t *testing.T) {
				m, path := leased(t, dir, want)
				defer m.Close()
				b := m.Bytes()
				_ = b[len(b)/2] // mapped pages: some in memory, some not
				within(t, tt.name, func() error { return tt.change(path) })
				if !bytes.Equal(b, want) {
					t.Error("the mapping's bytes changed with the file")
				}
				if !m.Contains(b) {
					t.Error("the bytes moved")
				}
			})
		}
	}
}

// shmDir returns a directory on tmpfs where there is one, else t.TempDir().
func shmDir(t testing.TB) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		dir, err := os.MkdirTemp("/dev/shm", "mmap-lease-")
		if err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// TestLeaseClose: Close gives the lease back, so that a writer does not
// wait, and the file is as the writer left it.
func TestLeaseClose(t *testing.T) {
	m, path := leased(t, t.TempDir(), pattern(10000))
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	within(t, "truncate after Close", func() error { return os.Truncate(path, 10) })
	if fi, err := os.Stat(path); err != nil || fi.Size() != 10 {
		t.Fatalf("Stat = %v, %v; want 10 bytes", fi, err)
	}
}

// TestLeaseRefused: a file open for writing gets no lease.
func TestLeaseRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, pattern(100), 0o644); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := mmap.MapFileLeased(f)
	if err == nil {
		m.Close()
		t.Fatal("MapFileLeased of a file open for writing: no error")
	}
	if !errors.Is(err, mmap.ErrNoLease) {
		t.Fatalf("MapFileLeased: %v, want ErrNoLease", err)
	}
}

// TestLeaseEmpty: an empty file maps, and holds no lease.
func TestLeaseEmpty(t *testing.T) {
	m, path := leased(t, t.TempDir(), nil)
	defer m.Close()
	if len(m.Bytes()) != 0 {
		t.Fatalf("%d bytes", len(m.Bytes()))
	}
	within(t, "write", func() error { return os.WriteFile(path, []byte("x"), 0o644) })
}

// TestLeaseTwoMappings truncates a file mapped twice: both mappings keep
// the bytes (they share one copy).
func TestLeaseTwoMappings(t *testing.T) {
	want := pattern(1<<20 + 5)
	m1, path := leased(t, t.TempDir(), want)
	defer m1.Close()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := mmap.MapFileLeased(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer m2.Close()
	within(t, "truncate", func() error { return os.Truncate(path, 0) })
	for i, m := range []*mmap.Mapping{m1, m2} {
		if !bytes.Equal(m.Bytes(), want) {
			t.Errorf("mapping %d: the bytes changed with the file", i+1)
		}
	}
}

// TestLeaseLimit: past the number of leases held at most, a file gets no
// lease (each holds a descriptor), and MapFileShared maps it without one
// unless a lease is required.
func TestLeaseLimit(t *testing.T) {
	dir := t.TempDir()
	m1, _ := leased(t, dir, pattern(100))
	defer m1.Close()
	defer mmap.SetMaxLeases(1)()
	w, err := os.CreateTemp(dir, "g")
	if err != nil {
		t.Fatal(err)
	}
	w.Write(pattern(200))
	w.Close()
	f, err := os.Open(w.Name())
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if m, err := mmap.MapFileLeased(f); !errors.Is(err, mmap.ErrNoLease) {
		if err == nil {
			m.Close()
		}
		t.Fatalf("a lease past the limit: %v, want ErrNoLease", err)
	}
	if _, err := mmap.MapFileShared(f, true); !errors.Is(err, mmap.ErrNoLease) {
		t.Errorf("MapFileShared requiring a lease past the limit: %v, want ErrNoLease", err)
	}
	m, err := mmap.MapFileShared(f, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(m.Bytes(), pattern(200)) {
		t.Error("the unleased mapping holds other bytes")
	}
	m.Close()
}

// TestLeaseBudget: the files leased at once take at most the lease
// budget (a break copies them all into memory); past it a file gets no
// lease, and a lease closed gives its bytes back.
func TestLeaseBudget(t *testing.T) {
	dir := t.TempDir()
	m1, _ := leased(t, dir, pattern(3000))
	defer m1.Close()
	defer mmap.SetLeaseBudget(5000)()
	open := func(n int) *os.File {
		path := filepath.Join(dir, fmt.Sprintf("g%d", n))
		if err := os.WriteFile(path, pattern(n), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	big := open(2001)
	if m, err := mmap.MapFileLeased(big); !errors.Is(err, mmap.ErrNoLease) {
		if err == nil {
			m.Close()
		}
		t.Fatalf("3000 + 2001 bytes leased within a budget of 5000: %v, want ErrNoLease", err)
	}
	fits, err := mmap.MapFileLeased(open(2000))
	if err != nil {
		t.Fatalf("3000 + 2000 bytes within a budget of 5000: %v", err)
	}
	if !bytes.Equal(fits.Bytes(), pattern(2000)) {
		t.Error("the leased mapping holds other bytes")
	}
	fits.Close()
	m1.Close() // again when the test ends: Close is idempotent
	m, err := mmap.MapFileLeased(open(5000))
	if err != nil {
		t.Fatalf("5000 bytes once the others are closed: %v", err)
	}
	m.Close()
}
