package flightserve_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fstensor/fstensor/internal/pyrun"
)

// TestEngines runs testdata/engines/*_check.py: DataFusion and Ray Data
// read the Parquet and IPC files fstensor writes, with values checked.
// Each skips when its module is missing.
func TestEngines(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "data.parquet"), 23, 10)
	writeTestFile(t, filepath.Join(dir, "data.arrow"), 23, 10)
	for _, tc := range []struct {
		name    string
		script  string
		modules []string
		slow    bool
	}{
		{"datafusion", "datafusion_check.py", []string{"datafusion", "numpy", "pyarrow"}, false},
		{"ray", "ray_check.py", []string{"ray.data", "numpy", "pyarrow"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.slow && testing.Short() {
				t.Skip("starts a Ray runtime")
			}
			pyrun.Python(t, tc.modules...)
			script, err := os.ReadFile(filepath.Join("..", "testdata", "engines", tc.script))
			if err != nil {
				t.Fatal(err)
			}
			out := pyrun.Run(t, string(script), nil, tc.modules, dir)
			t.Log(strings.TrimSpace(string(out)))
		})
	}
}
