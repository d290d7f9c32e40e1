package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/tensorio"
)

// TestProgressOff checks that no bar is made with --quiet or when
// standard error is not a terminal: a buffer, a pipe, /dev/null (a
// character device, not a terminal).
func TestProgressOff(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, tt := range []struct {
		name  string
		w     io.Writer
		quiet bool
	}{
		{"buffer", &bytes.Buffer{}, false},
		{"pipe", w, false},
		{"dev null", null, false},
		{"quiet pipe", w, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if p := newProgress(tt.w, tt.quiet, "convert", 10); p != (noProgress{}) {
				t.Errorf("newProgress = %T, want noProgress", p)
			}
		})
	}
}

// TestProgressBar checks the bar itself on a buffer: nothing before the
// delay, then the rows, the bytes and the label.
func TestProgressBar(t *testing.T) {
	var buf bytes.Buffer
	p := &barProgress{w: &buf, what: "convert", total: 5, start: time.Now()}
	p.add(2, 100)
	if buf.Len() != 0 {
		t.Fatalf("bar drawn before %v: %q", progressDelay, buf.String())
	}
	p.start = time.Now().Add(-2 * progressDelay)
	p.add(3, 5_000_000)
	p.finish()
	out := buf.String()
	for _, want := range []string{"convert: 5.0 MB", "100%", "(5/5", "rows"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar %q lacks %q", out, want)
		}
	}
}

// TestOutputFlagsOnCommands checks that convert, eval and take take
// --quiet, --row-major and --page-size.
func TestOutputFlagsOnCommands(t *testing.T) {
	root := newRoot(io.Discard, io.Discard)
	for _, name := range []string{"convert", "eval", "take"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil {
			t.Fatal(err)
		}
		for _, flag := range []string{"quiet", "row-major", "page-size"} {
			if cmd.Flags().Lookup(flag) == nil {
				t.Errorf("%s has no --%s", name, flag)
			}
		}
	}
}

// TestConvertRowMajor converts the permuted sample with --row-major and
// --page-size: the column loses its permutation, keeps its logical
// tensors; --page-size of a non-Parquet output is a usage error.
func TestConvertRowMajor(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "rm.parquet")
	if code, _, stderr := runCmd(t, "convert", sample("permuted.arrow"), "-o", out, "--row-major", "--page-size", "16KiB", "--quiet"); code != 0 {
		t.Fatalf("convert: code %d: %s", code, stderr)
	}
	read := func(path string) *fixedshape.Array {
		r, err := tensorio.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Release()
		if !r.Next() {
			t.Fatalf("%s: no batch: %v", path, r.Err())
		}
		a := r.RecordBatch().Column(0).(*fixedshape.Array)
		a.Retain()
		return a
	}
	in, got := read(sample("permuted.arrow")), read(out)
	defer in.Release()
	defer got.Release()
	if p := got.TensorType().Permutation(); len(p) != 0 {
		t.Errorf("permutation %v after --row-major", p)
	}
	for i := range in.Len() {
		if w, g := in.ValueStr(i), got.ValueStr(i); w != g {
			t.Errorf("row %d: %s, want %s", i, g, w)
		}
	}
	if code, _, _ := runCmd(t, "convert", sample("permuted.arrow"), "-o", filepath.Join(dir, "x.arrow"), "--page-size", "16KiB"); code != 2 {
		t.Errorf("--page-size of an .arrow output: code %d, want 2", code)
	}
}
