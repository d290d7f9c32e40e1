package tensorio_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

func TestOpenFile(t *testing.T) {
	dir := t.TempDir()
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	x := tensors(t, m, 5, 0, []bool{true, false, true, true, true})
	defer x.Release()
	id := ids(0, 5)
	defer id.Release()
	rec := batch(id, x)
	defer rec.Release()
	for _, tc := range []struct {
		name string
		file string
		opts []tensorio.Option
	}{
		{"ipc file", "a.arrow", nil},
		{"ipc file mapped", "a.arrow", []tensorio.Option{tensorio.WithMmap()}},
		{"ipc stream", "a.arrows", nil},
		{"parquet", "a.parquet", nil},
		{"rows and columns", "a.arrow", []tensorio.Option{tensorio.WithColumns("b"), tensorio.WithOffset(1), tensorio.WithLimit(3)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.file)
			if _, err := os.Stat(path); err != nil {
				writeFile(t, path, []arrow.RecordBatch{rec})
			}
			mem := checked(t)
			want, _ := readAll(t, path, tc.opts...)
			defer release(want)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			r, err := tensorio.OpenFile(f, "name/"+tc.file, append(tc.opts, tensorio.WithAllocator(mem))...)
			if err != nil {
				t.Fatal(err)
			}
			var got []arrow.RecordBatch
			for r.Next() {
				r.RecordBatch().Retain()
				got = append(got, r.RecordBatch())
			}
			if err := r.Err(); err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				var parts []arrow.Array
				for _, g := range got {
					parts = append(parts, g.Column(i))
				}
				c, err := array.Concatenate(parts, mem)
				if err != nil {
					t.Fatal(err)
				}
				if !array.Equal(w, c) {
					t.Errorf("column %d: got %v, want %v", i, c, w)
				}
				c.Release()
			}
			release(got)
			r.Release()
			if err := f.Close(); !errors.Is(err, os.ErrClosed) {
				t.Errorf("the reader left the file open: Close returned %v", err)
			}
		})
	}
}

func TestOpenFileErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.arrow")
	if err := os.WriteFile(bad, []byte("not an arrow file"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		open string
		as   string
		want error
	}{
		{"contents", bad, "name.arrow", arrow.ErrInvalid},
		{"no format", bad, "name.txt", tensorio.ErrFormat},
		{"not read batch by batch", bad, "name.npy", tensorio.ErrMismatch},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := os.Open(tc.open)
			if err != nil {
				t.Fatal(err)
			}
			r, err := tensorio.OpenFile(f, tc.as)
			if !errors.Is(err, tc.want) {
				if r != nil {
					r.Release()
				}
				t.Fatalf("OpenFile: %v, want %v", err, tc.want)
			}
			if err := f.Close(); !errors.Is(err, os.ErrClosed) {
				t.Errorf("a failed OpenFile left the file open: Close returned %v", err)
			}
		})
	}
}

func TestCreateIn(t *testing.T) {
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	x := tensors(t, m, 4, 0, nil)
	defer x.Release()
	rec := batch(x)
	defer rec.Release()
	for _, tc := range []struct {
		name   string
		target string
		setup  func(t *testing.T, dir, outside string)
		want   error // of CreateIn or Close
		close  bool  // make the target appear before Close
	}{
		{"new", "a.arrow", nil, nil, false},
		{"new in a directory", "sub/a.parquet", nil, nil, false},
		{"exists", "a.arrow", func(t *testing.T, dir, _ string) {
			writeFile(t, filepath.Join(dir, "a.arrow"), []arrow.RecordBatch{rec})
		}, fs.ErrExist, false},
		{"dangling link", "a.arrow", func(t *testing.T, dir, outside string) {
			symlink(t, filepath.Join(outside, "a.arrow"), filepath.Join(dir, "a.arrow"))
		}, fs.ErrExist, false},
		{"directory leading out", "out/a.arrow", func(t *testing.T, dir, outside string) { symlink(t, outside, filepath.Join(dir, "out")) }, nil, false},
		{"appeared before Close", "a.arrow", nil, fs.ErrExist, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, outside := t.TempDir(), t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, dir, outside)
			}
			root, err := os.OpenRoot(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			mem := checked(t)
			w, err := tensorio.CreateIn(root, filepath.FromSlash(tc.target), rec.Schema(), tensorio.WithAllocator(mem))
			if err == nil {
				if err = w.Write(rec); err != nil {
					t.Fatal(err)
				}
				if tc.close {
					if err := os.WriteFile(filepath.Join(dir, tc.target), []byte("other"), 0o644); err != nil {
						t.Fatal(err)
					}
				}
				err = w.Close()
			}
			if tc.name == "directory leading out" {
				if err == nil || errors.Is(err, fs.ErrExist) {
					t.Errorf("CreateIn through a link leading out: %v, want an error", err)
				}
			} else if !errors.Is(err, tc.want) {
				t.Fatalf("CreateIn: %v, want %v", err, tc.want)
			}
			for _, d := range []string{dir, filepath.Join(dir, "sub"), outside} {
				if diff := cmp.Diff([]string(nil), leftovers(t, d)); diff != "" {
					t.Errorf("temporary files (-want +got):\n%s", diff)
				}
			}
			if ents, _ := os.ReadDir(outside); len(ents) != 0 {
				t.Errorf("%d files written outside the root", len(ents))
			}
			if tc.want == nil && err == nil {
				got, _ := readAll(t, filepath.Join(dir, tc.target))
				defer release(got)
				if !array.Equal(got[0], x) {
					t.Errorf("read back %v, want %v", got[0], x)
				}
			}
		})
	}
}

// symlink makes a symbolic link or ends the test.
func symlink(t *testing.T, old, name string) {
	t.Helper()
	if err := os.Symlink(old, name); err != nil {
		t.Fatal(err)
	}
}
