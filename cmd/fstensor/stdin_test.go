package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/fixedshape"
)

// runBinStdin runs the built command with stdin as its standard input
// and TMPDIR set to tmp, and returns its exit code and stderr.
func runBinStdin(t *testing.T, stdin []byte, tmp string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(buildBinary(t), args...)
	cmd.Stdin = bytes.NewReader(stdin)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	return exitAndStderr(t, cmd)
}

// TestStdinInput: "-" as the input reads standard input in every format,
// sniffed or named by --from; formats read by seeking go through a
// temporary file that is gone afterwards, after an error too.
func TestStdinInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	for _, ext := range []string{"arrow", "arrows", "parquet", "npy", "npz", "pb", "zio", "dt"} {
		args := []string{"convert", sample("permuted.arrow"), filepath.Join(dir, "in."+ext)}
		if code, _, stderr := runCmd(t, args...); code != 0 {
			t.Fatalf("convert to %s: %s", ext, stderr)
		}
	}
	tests := []struct {
		name, ext string
		flags     []string
		code      int
	}{
		{"IPC file", "arrow", nil, 0},
		{"IPC stream", "arrows", nil, 0},
		{"Parquet", "parquet", nil, 0},
		{"npy", "npy", nil, 0},
		{"npz", "npz", nil, 0},
		{"zio", "zio", nil, 0},
		{"tfproto with --from", "pb", []string{"--from", "tfproto"}, 0},
		{"decthings with --from", "dt", []string{"--from", "decthings"}, 0},
		{"tfproto without --from", "pb", nil, 2},
		{"Parquet cut short", "parquet", nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, "in."+tt.ext))
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(tt.name, "cut short") {
				data = data[:len(data)-20]
			}
			tmp, out := t.TempDir(), filepath.Join(t.TempDir(), "out.arrow")
			code, stderr := runBinStdin(t, data, tmp, append([]string{"convert", "-", out}, tt.flags...)...)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tt.code, stderr)
			}
			if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
				t.Errorf("%d files left in TMPDIR", len(ents))
			}
			if tt.code == 2 && !strings.Contains(stderr, "--from") {
				t.Errorf("stderr %q does not name --from", stderr)
			}
			if tt.code != 0 {
				return
			}
			want := readTensorColumn(t, sample("permuted.arrow"), "")
			defer want.Release()
			got := readTensorColumn(t, out, "")
			defer got.Release()
			if !fixedshape.Equal(want, got) {
				t.Errorf("values differ:\n%v\n%v", want, got)
			}
		})
	}
}
