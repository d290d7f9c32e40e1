package flightserve_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/pyrun"
)

// TestPyArrowRefusals runs testdata/flight/pyarrow_refusals.py: the
// exceptions pyarrow.flight raises on refusals, and their messages.
func TestPyArrowRefusals(t *testing.T) {
	pyrun.Python(t, "pyarrow.flight", "numpy")
	script, err := os.ReadFile("../testdata/flight/pyarrow_refusals.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := testDir(t)
	writeTestFile(t, filepath.Join(dir, ".hidden.arrow"), 3, 3)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, MaxUploadBytes: 1 << 20})
	out := pyrun.Run(t, string(script), nil, []string{"pyarrow.flight", "numpy"}, "grpc://"+addr, dir)
	if strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("script printed %q", out)
	}
	if _, err := os.Stat(filepath.Join(dir, "big.arrow")); !os.IsNotExist(err) {
		t.Errorf("big.arrow: %v", err)
	}
}
