package arrowipc_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/arrowipc"
	"github.com/fstensor/fstensor/internal/pyrun"
	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/internal/validate"
)

// arrowGoBytes writes rec with arrow-go's own IPC writer (a stream, or a
// file), which copies invalid offsets as they are.
func arrowGoBytes(t *testing.T, rec arrow.RecordBatch, file bool) []byte {
	t.Helper()
	return arrowGoIPC(t, file, []arrow.RecordBatch{rec})
}

// wantFault checks that err wraps arrow.ErrInvalid and a *validate.Error
// naming path and row.
func wantFault(t *testing.T, err error, path string, row int) {
	t.Helper()
	var ve *validate.Error
	if !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &ve) {
		t.Fatalf("error %v, want one wrapping arrow.ErrInvalid and a *validate.Error", err)
	}
	type fault struct {
		Path string
		Row  int
	}
	if diff := cmp.Diff(fault{path, row}, fault{ve.Path, ve.Row}); diff != "" {
		t.Errorf("%v: (-want +got):\n%s", err, diff)
	}
}

// readAllStream reads every batch of an IPC stream and returns the error.
func readAllStream(t *testing.T, data []byte) error {
	t.Helper()
	mem := checkedMem(t)
	return testvec.Drain(arrowipc.NewIPCStreamReader(bytes.NewReader(data), arrowipc.WithAllocator(mem)))
}

// readAllFile reads every batch of an IPC file, mapped or not, and returns
// the first error.
func readAllFile(t *testing.T, data []byte, mapped bool) error {
	t.Helper()
	mem := checkedMem(t)
	var (
		r   *arrowipc.FileReader
		err error
	)
	if mapped {
		path := filepath.Join(t.TempDir(), "f.arrow")
		if err := os.WriteFile(path, data, 0o666); err != nil {
			t.Fatal(err)
		}
		r, err = arrowipc.OpenMappedIPCFile(path, arrowipc.WithAllocator(mem))
	} else {
		r, err = arrowipc.NewIPCFileReader(bytes.NewReader(data), arrowipc.WithAllocator(mem))
	}
	return testvec.ReadEveryBatch(r, err)
}

// TestReadRefusesInvalidStrings: a string column whose offsets leave its
// data passes the IPC structure checks; the full validation refuses it
// naming the column and the row.
func TestReadRefusesInvalidStrings(t *testing.T) {
	reproducer, err := os.ReadFile(testvec.Reproducer)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		offs [3]int32
		data string
		row  int
	}{
		{"offsets past data", [3]int32{0, 4194304, 3}, "abc", 0},
		{"offsets decrease", [3]int32{0, 2, 1}, "abc", 0}, // arrow-go writes the data up to the last offset only
		{"invalid UTF-8", [3]int32{0, 1, 3}, "a\xff\xfe", 1},
	}
	t.Run("reproducer/stream", func(t *testing.T) { wantFault(t, readAllStream(t, reproducer), "lbl", 0) })
	for _, tt := range tests {
		rec := testvec.InvalidStrings(tt.offs, tt.data)
		defer rec.Release()
		t.Run(tt.name+"/stream", func(t *testing.T) { wantFault(t, readAllStream(t, arrowGoBytes(t, rec, false)), "lbl", tt.row) })
		t.Run(tt.name+"/file", func(t *testing.T) { wantFault(t, readAllFile(t, arrowGoBytes(t, rec, true), false), "lbl", tt.row) })
		t.Run(tt.name+"/file_mapped", func(t *testing.T) { wantFault(t, readAllFile(t, arrowGoBytes(t, rec, true), true), "lbl", tt.row) })
	}
}

// TestReadRefusesPyarrowInvalidStrings reads the stream pyarrow writes
// with offsets [0, 4194304, 3].
func TestReadRefusesPyarrowInvalidStrings(t *testing.T) {
	script, err := os.ReadFile(testvec.ReproducerScript)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "bad.arrows")
	pyrun.Run(t, string(script), nil, []string{"pyarrow", "numpy"}, out)
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	wantFault(t, readAllStream(t, data), "lbl", 0)
}

// TestIPCWriterRefusesInvalid: IPCWriter.Write refuses an invalid batch
// before arrow-go's writer sees it.
func TestIPCWriterRefusesInvalid(t *testing.T) {
	rec := testvec.InvalidStrings([3]int32{0, 4194304, 3}, "abc")
	defer rec.Release()
	for _, file := range []bool{false, true} {
		name := map[bool]string{false: "stream", true: "file"}[file]
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			newWriter := arrowipc.NewIPCStreamWriter
			if file {
				newWriter = arrowipc.NewIPCFileWriter
			}
			w, err := newWriter(&buf, rec.Schema())
			if err != nil {
				t.Fatal(err)
			}
			wantFault(t, w.Write(rec), "lbl", 0)
			if bytes.Contains(buf.Bytes(), []byte{0, 0, 0x40, 0}) {
				t.Errorf("the offset 4194304 reached the output")
			}
		})
	}
}
