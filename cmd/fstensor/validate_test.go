package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
)

// TestConvertRefusesInvalidBatch converts streams whose string column has
// offsets past its data (the reproducer, which made convert panic, and
// pyarrow's offsets [0, 4194304, 3], which convert used to copy): exit 1
// with an error naming the column, no panic, nothing written, no
// temporary file left.
func TestConvertRefusesInvalidBatch(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	reproducer, err := os.ReadFile(testvec.Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	rec := testvec.InvalidStrings([3]int32{0, 4194304, 3}, "abc")
	var copied bytes.Buffer
	w := ipc.NewWriter(&copied, ipc.WithSchema(rec.Schema()))
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	rec.Release()
	inputs := map[string][]byte{"reproducer": reproducer, "offsets past data": copied.Bytes()}
	for name, data := range inputs {
		for _, ext := range []string{"arrow", "arrows", "parquet"} {
			t.Run(name+"/"+ext, func(t *testing.T) {
				dir := t.TempDir()
				in := filepath.Join(dir, "bad.arrows")
				if err := os.WriteFile(in, data, 0o644); err != nil {
					t.Fatal(err)
				}
				before := snapshot(t, dir)
				code, stderr := runBin(t, "convert", in, filepath.Join(dir, "o."+ext))
				if code != 1 || strings.Contains(stderr, "panic") || !strings.Contains(stderr, `column "lbl"`) {
					t.Errorf("exit %d, stderr %q; want 1 and an error naming column \"lbl\"", code, stderr)
				}
				sameSnapshot(t, before, snapshot(t, dir))
			})
		}
	}
}
