package mmap_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/fstensor/fstensor/internal/mmap"
	"github.com/google/go-cmp/cmp"
)

func TestMap(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		data []byte
	}{
		{name: "empty", data: []byte{}},
		{name: "one byte", data: []byte{7}},
		{name: "page and a bit", data: func() []byte {
			b := make([]byte, 4096+3)
			for i := range b {
				b[i] = byte(i * 7)
			}
			return b
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, tt.name)
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			m, err := mmap.Map(path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.data, m.Bytes()); diff != "" {
				t.Errorf("Bytes (-want +got):\n%s", diff)
			}
			b := m.Bytes()
			if got, want := m.Contains(b), len(b) > 0; got != want {
				t.Errorf("Contains(Bytes()) = %v, want %v", got, want)
			}
			if len(b) > 1 {
				if !m.Contains(b[1:]) || !m.Contains(b[len(b)-1:]) {
					t.Error("Contains refuses a sub-slice")
				}
			}
			if m.Contains(append([]byte(nil), tt.data...)) {
				t.Error("Contains accepts a copy")
			}
			if err := m.Close(); err != nil {
				t.Fatal(err)
			}
			if m.Bytes() != nil {
				t.Error("Bytes after Close is not nil")
			}
			if err := m.Close(); err != nil {
				t.Errorf("second Close = %v", err)
			}
		})
	}
}

func TestMapErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
		want error
	}{
		{name: "missing", path: filepath.Join(dir, "missing"), want: fs.ErrNotExist},
		{name: "directory", path: dir},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := mmap.Map(tt.path)
			if err == nil {
				m.Close()
				t.Fatal("no error")
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) {
				t.Errorf("error %v is not a *fs.PathError", err)
			}
			if tt.want != nil && !errors.Is(err, tt.want) {
				t.Errorf("error = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestMapOutlivesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := mmap.Map(path)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if got := string(m.Bytes()); got != "hello" {
		t.Errorf("after removing the file, Bytes = %q", got)
	}
}
