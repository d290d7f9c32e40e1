package flightserve_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/flightserve"
	"github.com/fstensor/fstensor/internal/pyrun"
)

// TestPyArrow runs testdata/flight/pyarrow_client.py, pyarrow.flight
// against the server, then checks the file it uploaded.
func TestPyArrow(t *testing.T) {
	pyrun.Python(t, "pyarrow.flight", "numpy")
	script, err := os.ReadFile("../testdata/flight/pyarrow_client.py")
	if err != nil {
		t.Fatal(err)
	}
	dir := testDir(t)
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	addr := serve(t, flightserve.Config{Dir: dir, Allocator: mem, Token: "tok", BatchBytes: 5 * 144})
	out := pyrun.Run(t, string(script), nil, []string{"pyarrow.flight", "numpy"}, "grpc://"+addr, "tok", dir)
	if strings.TrimSpace(string(out)) != "ok" {
		t.Fatalf("script printed %q", out)
	}
	for _, col := range []string{"x", "p"} {
		want := localTensors(t, dir, flightserve.Ticket{Path: "data.arrow"}, col)
		got := localTensors(t, dir, flightserve.Ticket{Path: "py_up.arrow"}, col)
		if !fixedshape.Equal(want, got) {
			t.Errorf("%s uploaded by pyarrow: got %v\nwant %v", col, got, want)
		}
		want.Release()
		got.Release()
	}
	if _, err := os.Stat(filepath.Join(dir, "py_up.arrow")); err != nil {
		t.Error(err)
	}
}
