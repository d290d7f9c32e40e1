package tensorio_test

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/tensorio"
)

// TestColumnName: a single-column file's column is named after the file
// or by WithColumnName; formats that name their columns refuse the
// option.
func TestColumnName(t *testing.T) {
	paths := sampleFiles(t, t.TempDir())
	for _, f := range tensorio.Formats() {
		t.Run(string(f), func(t *testing.T) {
			mem := checked(t)
			r, err := tensorio.Open(paths[f], tensorio.WithColumnName("vec"), tensorio.WithAllocator(mem))
			if !f.TensorsOnly() || f == tensorio.NPZ {
				if !errors.Is(err, tensorio.ErrMismatch) {
					t.Errorf("Open: %v; want ErrMismatch", err)
				}
				if r != nil {
					r.Close()
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := r.Schema().Field(0).Name
			r.Close()
			if diff := cmp.Diff("vec", got); diff != "" {
				t.Errorf("name (-want +got):\n%s", diff)
			}
			r, err = tensorio.Open(paths[f], tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if diff := cmp.Diff("x", r.Schema().Field(0).Name); diff != "" {
				t.Errorf("default name of %s (-want +got):\n%s", filepath.Base(paths[f]), diff)
			}
		})
	}
}
