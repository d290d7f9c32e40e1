package atomicfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/atomicfile"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

func write(t *testing.T, path, data string) *atomicfile.File {
	t.Helper()
	f, err := atomicfile.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte(data)); err != nil {
		t.Fatal(err)
	}
	return f
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestCommitAbort(t *testing.T) {
	tests := []struct {
		name   string
		old    string // "" for no file at the target
		commit bool
		want   string // the target's content afterwards, "" for none
	}{
		{"new file committed", "", true, "new"},
		{"new file aborted", "", false, ""},
		{"replaced", "old", true, "new"},
		{"replace aborted", "old", false, "old"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.bin")
			if tt.old != "" {
				if err := os.WriteFile(path, []byte(tt.old), 0o640); err != nil {
					t.Fatal(err)
				}
			}
			f := write(t, path, "new")
			if filepath.Dir(f.TempName()) != dir || filepath.Base(f.TempName())[:len(".out.bin.tmp-")] != ".out.bin.tmp-" {
				t.Errorf("temporary file %s", f.TempName())
			}
			if tt.old != "" && readString(t, path) != tt.old {
				t.Error("the target changed before Commit")
			}
			var err error
			if tt.commit {
				err = f.Commit()
			} else {
				err = f.Abort()
			}
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			if tt.want != "" {
				want = []string{"out.bin"}
				if got := readString(t, path); got != tt.want {
					t.Errorf("content %q, want %q", got, tt.want)
				}
			}
			if diff := cmp.Diff(want, testvec.DirNames(t, dir)); diff != "" {
				t.Errorf("directory (-want +got):\n%s", diff)
			}
			if tt.old != "" {
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if fi.Mode().Perm() != 0o640 {
					t.Errorf("mode %v, want 0640", fi.Mode().Perm())
				}
			}
			if err := f.Abort(); err != nil {
				t.Errorf("Abort after the end: %v", err)
			}
			if err := f.Commit(); !errors.Is(err, os.ErrClosed) {
				t.Errorf("Commit after the end: %v, want os.ErrClosed", err)
			}
		})
	}
}

func TestSymlink(t *testing.T) {
	tests := []struct {
		name string
		old  string // "" for a dangling link
	}{
		{"to a file", "old"},
		{"dangling", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			real := filepath.Join(dir, "sub", "real.bin")
			if tt.old != "" {
				if err := os.WriteFile(real, []byte(tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			link := filepath.Join(dir, "link.bin")
			if err := os.Symlink(filepath.Join("sub", "real.bin"), link); err != nil {
				t.Fatal(err)
			}
			f := write(t, link, "new")
			if f.Name() != real {
				t.Errorf("Name %s, want %s", f.Name(), real)
			}
			if filepath.Dir(f.TempName()) != filepath.Join(dir, "sub") {
				t.Errorf("temporary file %s not beside the link's target", f.TempName())
			}
			if err := f.Commit(); err != nil {
				t.Fatal(err)
			}
			fi, err := os.Lstat(link)
			if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
				t.Fatalf("the link is gone: %v %v", fi, err)
			}
			if got := readString(t, real); got != "new" {
				t.Errorf("target content %q", got)
			}
		})
	}
}

func TestNotRegular(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		path string
	}{
		{"directory", dir},
		{"device", os.DevNull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := os.Stat(tt.path); err != nil {
				t.Skip(err)
			}
			f, err := atomicfile.Create(tt.path)
			if !errors.Is(err, atomicfile.ErrNotRegular) {
				if f != nil {
					f.Abort()
				}
				t.Fatalf("Create(%s): %v, want ErrNotRegular", tt.path, err)
			}
			if _, err := os.Stat(tt.path); err != nil {
				t.Errorf("%s is gone: %v", tt.path, err)
			}
		})
	}
	if diff := cmp.Diff([]string(nil), testvec.DirNames(t, dir)); diff != "" {
		t.Errorf("directory (-want +got):\n%s", diff)
	}
}

// TestMissingDirectory: a target in a directory that does not exist is
// an error about the target and its directory, never about the
// temporary file's name.
func TestMissingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "none")
	path := filepath.Join(dir, "x")
	_, err := atomicfile.Create(path)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("err %v, want fs.ErrNotExist", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) || pe.Path != path {
		t.Fatalf("err %#v, want a *fs.PathError about %s", err, path)
	}
	want := "create " + path + ": no directory " + strconv.Quote(dir)
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("message (-want +got):\n%s", diff)
	}
}

// TestErrorsNameTarget: errors of writing and committing name the
// target as given, not the temporary file.
func TestErrorsNameTarget(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x")
	f := write(t, path, "data")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	err := f.Commit()
	var pe *fs.PathError
	if !errors.Is(err, os.ErrClosed) || !errors.As(err, &pe) || pe.Path != path {
		t.Errorf("second Commit: %v, want os.ErrClosed about %s", err, path)
	}
	g := write(t, path, "more")
	os.Remove(g.TempName()) // the rename fails: its source is gone
	err = g.Commit()
	if !errors.Is(err, fs.ErrNotExist) || !errors.As(err, &pe) || pe.Path != path {
		t.Errorf("Commit of a removed temporary file: %v, want fs.ErrNotExist about %s", err, path)
	}
}
