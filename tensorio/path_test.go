package tensorio_test

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor/tensorio"
)

// TestErrorNamesPathOnce: an error of Open names the file once, also when
// the file's name happens to stand in the error's text for another reason
// (a file "n" and a message of package npy); errors that name the file
// themselves (the operating system's, the IPC file reader's) are not
// prefixed again.
func TestErrorNamesPathOnce(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, name := range []string{"n", "p", "garbage.arrow"} {
		if err := os.WriteFile(name, []byte("not a tensor file, long enough for any magic"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		path   string
		opts   []tensorio.Option
		prefix string // the message starts with it
		isPath bool   // an *fs.PathError
	}{
		{"name in the codec's text", "n", []tensorio.Option{tensorio.WithFormat(tensorio.NPY)}, "n: npy: ", false},
		{"name in the Parquet reader's text", "p", []tensorio.Option{tensorio.WithFormat(tensorio.Parquet)}, "p: parquetconv: ", false},
		{"named by the IPC file reader", "garbage.arrow", nil, "arrowipc: open garbage.arrow: ", false},
		{"named by the operating system", "missing.npy", nil, "open missing.npy: ", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := tensorio.Open(tt.path, tt.opts...)
			if err == nil {
				r.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.HasPrefix(err.Error(), tt.prefix) {
				t.Errorf("error %q: want it to start with %q", err, tt.prefix)
			}
			if pe := (*fs.PathError)(nil); errors.As(err, &pe) != tt.isPath {
				t.Errorf("error %v: *fs.PathError %v, want %v", err, !tt.isPath, tt.isPath)
			}
			if !tt.isPath && !errors.Is(err, arrow.ErrInvalid) {
				t.Errorf("error %v does not wrap arrow.ErrInvalid", err)
			}
		})
	}
}
