package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/tensorio"
)

// TestWrongExtension: an input whose bytes are of another format than
// its name says is a usage error that names the format and the --from
// that reads it; --from wins.
func TestWrongExtension(t *testing.T) {
	dir := t.TempDir()
	for _, ext := range []string{"parquet", "arrows", "arrow"} {
		if code, _, stderr := runCmd(t, "convert", sample("images.arrow"), filepath.Join(dir, "real."+ext)); code != 0 {
			t.Fatalf("convert to %s: %s", ext, stderr)
		}
	}
	copyFile(t, filepath.Join(dir, "real.parquet"), filepath.Join(dir, "pq.arrow"))
	copyFile(t, filepath.Join(dir, "real.arrows"), filepath.Join(dir, "stream.arrow"))
	copyFile(t, filepath.Join(dir, "real.arrow"), filepath.Join(dir, "file.arrows"))
	tests := []struct {
		name string
		args []string
		code int
		msg  string
	}{
		{"parquet named .arrow", []string{"inspect", filepath.Join(dir, "pq.arrow")}, 2, "pq.arrow is a Parquet file: rename it or pass --from parquet"},
		{"stream named .arrow", []string{"convert", filepath.Join(dir, "stream.arrow"), filepath.Join(dir, "o.arrow")}, 2, "stream.arrow is an Arrow IPC stream: rename it or pass --from arrows"},
		{"file named .arrows", []string{"eval", "x.T", filepath.Join(dir, "file.arrows"), "-o", filepath.Join(dir, "o.arrow")}, 2, "file.arrows is an Arrow IPC file: rename it or pass --from arrow"},
		{"--from parquet", []string{"inspect", filepath.Join(dir, "pq.arrow"), "--from", "parquet"}, 0, ""},
		{"--from arrow on a stream", []string{"inspect", filepath.Join(dir, "stream.arrow"), "--from", "arrow"}, 2, "(--from arrows reads it)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCmd(t, tt.args...)
			if code != tt.code || !strings.Contains(stderr, tt.msg) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, stderr, tt.code, tt.msg)
			}
		})
	}
	_, err := openInput(filepath.Join(dir, "pq.arrow"), "", false)
	var fe *tensorio.FormatError
	if !errors.As(err, &fe) || fe.Found != tensorio.Parquet || !errors.Is(err, errUsage) {
		t.Errorf("openInput: %v; want a usage error of a *FormatError finding Parquet", err)
	}
}
