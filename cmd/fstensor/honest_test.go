package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/npy"
)

// TestFillNullsRefused: --fill-nulls with a value the int16 column of
// nulls.arrow cannot hold is a usage error naming the column, before the
// output exists; a value it holds is written, and NaN fills a float
// column.
func TestFillNullsRefused(t *testing.T) {
	tests := []struct {
		name, fill, ext string
		code            int
	}{
		{"NaN into int16", "NaN", "npy", 2},
		{"1e9 into int16", "1e9", "npy", 2},
		{"-1.5 into int16", "-1.5", "npy", 2},
		{"Inf into int16 npz", "Inf", "npz", 2},
		{"-32768 into int16", "-32768", "npy", 0},
		{"0 into int16 npz", "0", "npz", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "n."+tt.ext)
			code, _, stderr := runCmd(t, "convert", sample("nulls.arrow"), out, "--fill-nulls", tt.fill)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			if tt.code == 0 {
				return
			}
			if !strings.Contains(stderr, `column "m"`) || !strings.Contains(stderr, "int16") {
				t.Errorf("stderr %q does not name the column and its type", stderr)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("%d files left in the output directory", len(ents))
			}
			err := runConvert(sample("nulls.arrow"), out, inputFlags{}, outputFlags{fillNulls: tt.fill}, nil, io.Discard)
			if !errors.Is(err, npy.ErrFill) || !errors.Is(err, arrow.ErrInvalid) || !errors.Is(err, errUsage) {
				t.Errorf("runConvert error %v; want npy.ErrFill, arrow.ErrInvalid and a usage error", err)
			}
		})
	}
	out := filepath.Join(t.TempDir(), "f.npy")
	if code, _, stderr := runCmd(t, "eval", "x.astype(float32)", sample("nulls.arrow"), "-o", out, "--fill-nulls", "NaN"); code != 0 {
		t.Fatalf("NaN into float32: exit %d: %s", code, stderr)
	}
	got := readTensorColumn(t, out, "")
	defer got.Release()
	if got.NullN() != 0 || got.Len() != 9 {
		t.Errorf("float32 column: %d rows, %d null; want 9, 0", got.Len(), got.NullN())
	}
}

// TestNullTensorHint: a null tensor written to .npy without --fill-nulls
// names the flag and the file once (the command recognizes
// fstensor.ErrNullTensor, which npy.ErrNullTensor is), not the Go option.
func TestNullTensorHint(t *testing.T) {
	out := filepath.Join(t.TempDir(), "n.npy")
	err := runConvert(sample("nulls.arrow"), out, inputFlags{}, outputFlags{}, nil, io.Discard)
	if !errors.Is(err, fstensor.ErrNullTensor) || !errors.Is(err, npy.ErrNullTensor) {
		t.Fatalf("error %v; want fstensor.ErrNullTensor", err)
	}
	msg := err.Error()
	if strings.Count(msg, "--fill-nulls") != 1 || strings.Count(msg, out) != 1 || strings.Contains(msg, "FillNulls") {
		t.Errorf("error %q; want the flag's name and the file once, and no Go option", msg)
	}
}

// TestVariableShapeToNPY: a variable-shape column picked with --column
// and written to a format of one shape says why and what to use.
func TestVariableShapeToNPY(t *testing.T) {
	path := writeVarFile(t, [][]int{{2, 3, 3}, {4, 1, 3}})
	for _, ext := range []string{"npy", "npz", "pb", "zio", "dt"} {
		t.Run(ext, func(t *testing.T) {
			code, _, stderr := runCmd(t, "convert", path, filepath.Join(t.TempDir(), "v."+ext), "--column", "img")
			if code != 2 {
				t.Fatalf("exit %d, want 2; stderr %q", code, stderr)
			}
			for _, want := range []string{"different shapes", ".arrow, .arrows or .parquet", "--fixed"} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr %q lacks %q", stderr, want)
				}
			}
			if strings.Contains(stderr, "pick tensor columns with --column") {
				t.Errorf("stderr %q sends the user to --column", stderr)
			}
		})
	}
}

// TestNameFlag: --name names the column of a single-column input, which
// is otherwise named after the file; inputs that name their columns
// refuse it.
func TestNameFlag(t *testing.T) {
	dir := t.TempDir()
	npyPath := filepath.Join(dir, "emb.npy")
	if code, _, stderr := runCmd(t, "convert", sample("embeddings.arrow"), npyPath, "--column", "embedding"); code != 0 {
		t.Fatal(stderr)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"default", nil, "emb"},
		{"--name", []string{"--name", "vec"}, "vec"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "o.arrow")
			if code, _, stderr := runCmd(t, append([]string{"convert", npyPath, out}, tt.args...)...); code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			in, err := openInput(out, "", false)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Close()
			if diff := cmp.Diff(tt.want, in.Schema().Field(0).Name); diff != "" {
				t.Errorf("column name (-want +got):\n%s", diff)
			}
		})
	}
	if code, _, stderr := runCmd(t, "convert", sample("images.arrow"), filepath.Join(dir, "o.arrow"), "--name", "x"); code != 2 {
		t.Errorf("--name on an IPC file: exit %d (%s), want 2", code, stderr)
	}
}
