package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/internal/testsupport/s3server"
)

// TestS3 runs the commands that read a file on s3:// URLs of an S3
// server (moto): inspect prints what it prints for the local file, and
// convert and take write the same bytes.
func TestS3(t *testing.T) {
	srv := s3server.Start(t)
	srv.Bucket(t, "data")
	dir := t.TempDir()
	local := map[string]string{"images.arrow": sample("images.arrow"), "images.parquet": filepath.Join(dir, "images.parquet")}
	if code, _, stderr := runCmd(t, "convert", sample("images.arrow"), "-o", local["images.parquet"]); code != 0 {
		t.Fatalf("convert to parquet: code %d: %s", code, stderr)
	}
	for name, path := range local {
		srv.PutFile(t, "data", "in/"+name, path)
	}
	for name, path := range local {
		url := "s3://data/in/" + name
		t.Run(name, func(t *testing.T) {
			tests := []struct {
				cmd  string
				args []string // after the input
			}{
				{cmd: "inspect"},
				{cmd: "convert", args: []string{"-o", "OUT.arrow"}},
				{cmd: "convert", args: []string{"-o", "OUT.parquet", "--column", "image"}},
				{cmd: "take", args: []string{"--rows", "3,0,3", "-o", "OUT.arrow"}},
			}
			for _, tt := range tests {
				t.Run(tt.cmd+strings.Join(tt.args, "_"), func(t *testing.T) {
					wantOut, wantFile := runOn(t, tt.cmd, path, tt.args)
					gotOut, gotFile := runOn(t, tt.cmd, url, tt.args)
					if strings.ReplaceAll(gotOut, url, path) != wantOut {
						t.Errorf("output differs:\n got %s\nwant %s", gotOut, wantOut)
					}
					if !bytes.Equal(gotFile, wantFile) {
						t.Errorf("%s wrote %d bytes from the object, %d from the file: they differ", tt.cmd, len(gotFile), len(wantFile))
					}
				})
			}
		})
	}
	t.Run("writes", func(t *testing.T) { testS3Writes(t, srv, local["images.arrow"]) })
	t.Run("dataset", func(t *testing.T) { testS3DatasetWrite(t, srv, local["images.arrow"]) })
	t.Run("errors", func(t *testing.T) {
		tests := []struct {
			name string
			url  string
			code int
		}{
			{name: "missing key", url: "s3://data/in/none.arrow", code: 1},
			{name: "missing bucket", url: "s3://nobucket/in/images.arrow", code: 1},
			{name: "no bucket", url: "s3:///images.arrow", code: 1},
			{name: "http", url: "http://data/in/images.arrow", code: 1},
			{name: "output is the input", url: "s3://data/in/images.arrow", code: 2},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				args := []string{"inspect", tt.url}
				if strings.HasPrefix(tt.name, "output") {
					args = []string{"convert", "s3://data/in/images.arrow", "-o", tt.url}
				}
				code, _, stderr := runCmd(t, args...)
				if code != tt.code || !strings.HasPrefix(stderr, "fstensor: ") || !strings.Contains(stderr, tt.url) {
					t.Errorf("inspect %s: code %d, stderr %q; want code %d naming the URL", tt.url, code, stderr, tt.code)
				}
			})
		}
	})
}

// runOn runs the command cmd on in with args, in which OUT stands for a
// new file of a directory of its own; it returns the standard output and
// the file written (nil if none).
func runOn(t *testing.T, cmd, in string, args []string) (string, []byte) {
	t.Helper()
	dir := t.TempDir()
	out := ""
	full := []string{cmd, in}
	for _, a := range args {
		if strings.HasPrefix(a, "OUT") {
			out = filepath.Join(dir, a)
			a = out
		}
		full = append(full, a)
	}
	code, stdout, stderr := runCmd(t, full...)
	if code != 0 {
		t.Fatalf("%s: code %d: %s", strings.Join(full, " "), code, stderr)
	}
	if out == "" {
		return stdout, nil
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(stdout, out, "OUT"), b
}

// testS3Writes runs commands with an s3:// output: each object holds the
// bytes the command writes to a local file.
func testS3Writes(t *testing.T, srv *s3server.Server, in string) {
	tests := []struct {
		name string
		args []string // OUT stands for the output
	}{
		{name: "convert.arrow", args: []string{"convert", in, "-o", "OUT"}},
		{name: "convert.parquet", args: []string{"convert", in, "-o", "OUT"}},
		{name: "take.arrow", args: []string{"take", in, "--rows", "2,1", "-o", "OUT"}},
		{name: "eval.arrows", args: []string{"eval", "x.astype(float32) / 255", in, "--column", "image", "-o", "OUT"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ext := filepath.Ext(tt.name)
			local := filepath.Join(t.TempDir(), "out"+ext)
			url := "s3://data/out/" + tt.name
			for _, out := range []string{local, url} {
				args := slices.Clone(tt.args)
				args[slices.Index(args, "OUT")] = out
				if code, _, stderr := runCmd(t, args...); code != 0 {
					t.Fatalf("%s: code %d: %s", strings.Join(args, " "), code, stderr)
				}
			}
			want, err := os.ReadFile(local)
			if err != nil {
				t.Fatal(err)
			}
			if got := srv.Get(t, "data", "out/"+tt.name); !bytes.Equal(got, want) {
				t.Errorf("the object holds %d bytes, the local output %d: they differ", len(got), len(want))
			}
		})
	}
}

// testS3DatasetWrite writes a partitioned dataset under an s3:// prefix:
// the objects are the files of the same dataset written to a directory,
// and inspect reads the prefix back.
func testS3DatasetWrite(t *testing.T, srv *s3server.Server, in string) {
	local := filepath.Join(t.TempDir(), "ds") + "/"
	for _, out := range []string{local, "s3://data/ds/"} {
		if code, _, stderr := runCmd(t, "convert", in, "-o", out, "--partition-by", "label"); code != 0 {
			t.Fatalf("convert -o %s: code %d: %s", out, code, stderr)
		}
	}
	var n int
	err := filepath.WalkDir(local, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(local, p)
		want, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if got := srv.Get(t, "data", "ds/"+filepath.ToSlash(rel)); !bytes.Equal(got, want) {
			t.Errorf("%s: the object differs from the file", rel)
		}
		n++
		return nil
	})
	if err != nil || n < 2 {
		t.Fatalf("%d files in the local dataset (%v)", n, err)
	}
	code, stdout, stderr := runCmd(t, "inspect", "s3://data/ds/")
	if code != 0 || !strings.Contains(stdout, "label") {
		t.Errorf("inspect of the prefix: code %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
