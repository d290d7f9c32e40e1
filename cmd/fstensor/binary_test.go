package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/fixedshape"
)

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// buildBinary builds the command once per test run and returns its path.
func buildBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "fstensor-bin")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "fstensor")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			buildErr = errors.New(string(out))
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v", buildErr)
	}
	return binPath
}

// TestBinary runs every subcommand and error path through the built
// binary: exit codes, and never a Go stack trace.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	corrupt := filepath.Join(dir, "corrupt.arrow")
	data, err := os.ReadFile(sample("permuted.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(corrupt, bytes.Replace(data, []byte(`"permutation":[2,0,1]`), []byte(`"permutation":[2,0,0]`), -1), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string // a substring, when not empty
		stderr string // a substring, when not empty
	}{
		{"usage", nil, 0, "Available Commands:", ""},
		{"inspect", []string{"inspect", sample("images.arrow")}, 0, "image: tensor uint8 (32,32,3)", ""},
		{"inspect json", []string{"inspect", "--json", sample("permuted.arrow")}, 0, `"permutation": [`, ""},
		{"eval", []string{"eval", "x[::2, ::2].transpose(2, 0, 1)", sample("images.arrow"), "-o", filepath.Join(dir, "e.arrow")}, 0, "", "(32,32,3) -> (3,16,16)"},
		{"convert", []string{"convert", sample("permuted.arrow"), filepath.Join(dir, "c.parquet"), "--compression", "zstd"}, 0, "", ""},
		{"show", []string{"show", sample("images.arrow"), "--row", "1", "-o", filepath.Join(dir, "s.png")}, 0, "", ""},
		{"unknown command", []string{"explode"}, 2, "", "unknown command"},
		{"missing file", []string{"inspect", filepath.Join(dir, "none.arrow")}, 1, "", "no such file"},
		{"unknown column", []string{"show", sample("images.arrow"), "--column", "nope", "-o", filepath.Join(dir, "x.png")}, 2, "", `no tensor column "nope"`},
		{"non-tensor column", []string{"eval", "x.T", sample("images.arrow"), "--column", "label", "-o", filepath.Join(dir, "x.arrow")}, 2, "", "not a tensor column"},
		{"bad expression", []string{"eval", "x[:, 9", sample("images.arrow"), "-o", filepath.Join(dir, "x.arrow")}, 1, "", "\n  x[:, 9\n        ^"},
		{"corrupt metadata", []string{"inspect", corrupt}, 0, `"permutation" [2 0 0] repeats axis 0`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cmd := exec.Command(bin, tt.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.code {
				t.Errorf("exit code %d, want %d; stderr: %s", code, tt.code, stderr.String())
			}
			if s := stderr.String(); strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") {
				t.Errorf("stack trace on stderr:\n%s", s)
			}
			if tt.stdout != "" && !strings.Contains(stdout.String(), tt.stdout) {
				t.Errorf("stdout lacks %q:\n%s", tt.stdout, stdout.String())
			}
			if tt.stderr != "" && !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tt.stderr, stderr.String())
			}
			if code != 0 && strings.Count(strings.TrimSpace(stderr.String()), "\n") > 3 {
				t.Errorf("error is not short:\n%s", stderr.String())
			}
		})
	}
}

// TestShowPixels checks that the PNG holds the tensor's values: with
// --range 0,255 a uint8 image maps to itself.
func TestShowPixels(t *testing.T) {
	out := filepath.Join(t.TempDir(), "img.png")
	if code, _, stderr := runCmd(t, "show", sample("images.arrow"), "--column", "image", "--row", "5", "--range", "0,255", "--scale", "1", "-o", out); code != 0 {
		t.Fatalf("show: %s", stderr)
	}
	img := readPNG(t, out)
	src := readTensorColumn(t, sample("images.arrow"), "image")
	defer src.Release()
	col, _ := fixedshape.ColumnOf[uint8](src)
	tens := col.Tensor(5)
	for y := range 32 {
		for x := range 32 {
			r, g, b, a := img.At(x, y).RGBA()
			got := [4]uint32{r >> 8, g >> 8, b >> 8, a >> 8}
			want := [4]uint32{uint32(tens.At(y, x, 0)), uint32(tens.At(y, x, 1)), uint32(tens.At(y, x, 2)), 255}
			if got != want {
				t.Fatalf("pixel (%d,%d) = %v, want %v", x, y, got, want)
			}
		}
	}
}

// TestParquetRoundTripType checks IPC -> Parquet -> IPC keeps the tensor
// type exactly, names and permutation included.
func TestParquetRoundTripType(t *testing.T) {
	dir := t.TempDir()
	pq, back := filepath.Join(dir, "p.parquet"), filepath.Join(dir, "b.arrow")
	for _, args := range [][]string{{"convert", sample("permuted.arrow"), pq}, {"convert", pq, back}} {
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, stderr)
		}
	}
	want := readTensorColumn(t, sample("permuted.arrow"), "")
	defer want.Release()
	got := readTensorColumn(t, back, "")
	defer got.Release()
	if !arrow.TypeEqual(want.DataType(), got.DataType()) || want.TensorType().Serialize() != got.TensorType().Serialize() {
		t.Errorf("type %v, want %v", got.DataType(), want.DataType())
	}
	if !fixedshape.Equal(want, got) {
		t.Errorf("values differ")
	}
}
