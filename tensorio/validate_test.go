package tensorio_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/google/go-cmp/cmp"

	"github.com/fstensor/fstensor/internal/testsupport/testvec"
	"github.com/fstensor/fstensor/internal/validate"
	"github.com/fstensor/fstensor/metadata"
	"github.com/fstensor/fstensor/tensorio"
)

// invalidBatch returns an invalid batch a writer of f accepts the schema
// of, and the column and row its error names.
func invalidBatch(f tensorio.Format) (arrow.RecordBatch, string, int) {
	if f.TensorsOnly() {
		return testvec.InvalidTensors(), "x.item", -1
	}
	return testvec.InvalidStrings([3]int32{0, 4194304, 3}, "abc"), "lbl", 0
}

// TestWriteRefusesInvalid: every format refuses a batch that fails the
// full validation, names the column and row, and leaves no file behind.
func TestWriteRefusesInvalid(t *testing.T) {
	for _, f := range tensorio.Formats() {
		t.Run("format="+string(f), func(t *testing.T) {
			mem := checked(t)
			rec, path, row := invalidBatch(f)
			defer rec.Release()
			dir := t.TempDir()
			w, err := tensorio.Create(filepath.Join(dir, "out"), rec.Schema(), tensorio.WithFormat(f), tensorio.WithAllocator(mem))
			if err != nil {
				t.Fatal(err)
			}
			err = w.Write(rec)
			var ve *validate.Error
			if !errors.Is(err, arrow.ErrInvalid) || !errors.As(err, &ve) {
				w.Abort()
				t.Fatalf("Write: %v, want an error wrapping arrow.ErrInvalid and a *validate.Error", err)
			}
			if diff := cmp.Diff([]any{path, row}, []any{ve.Path, ve.Row}); diff != "" {
				t.Errorf("%v: column and row (-want +got):\n%s", err, diff)
			}
			if err := w.Close(); !errors.Is(err, tensorio.ErrClosed) {
				t.Errorf("Close after an invalid batch: %v, want ErrClosed", err)
			}
			if names := testvec.DirNames(t, dir); len(names) != 0 {
				t.Errorf("files left: %q", names)
			}
		})
	}
}

// TestWriteRecoversPanic plants a panic in Write and in Close of every
// format: it comes back as an error wrapping arrow.ErrInvalid with the
// panic value, no file is left and no memory leaks.
func TestWriteRecoversPanic(t *testing.T) {
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	for _, f := range tensorio.Formats() {
		for _, op := range []string{"write", "close"} {
			t.Run("format="+string(f)+"/op="+op, func(t *testing.T) {
				mem := checked(t)
				a := tensors(t, m, 4, 0, nil)
				defer a.Release()
				rec := batch(a)
				defer rec.Release()
				dir := t.TempDir()
				w, err := tensorio.Create(filepath.Join(dir, "out"), rec.Schema(), tensorio.WithFormat(f), tensorio.WithAllocator(mem))
				if err != nil {
					t.Fatal(err)
				}
				defer tensorio.SetTestHook(func(at string) {
					if at == op {
						panic("planted " + op)
					}
				})()
				err = w.Write(rec)
				if err == nil {
					err = w.Close()
				}
				if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "planted "+op) {
					t.Fatalf("error %v, want one wrapping arrow.ErrInvalid with the panic value", err)
				}
				if err := w.Close(); !errors.Is(err, tensorio.ErrClosed) {
					t.Errorf("Close after the panic: %v, want ErrClosed", err)
				}
				if names := testvec.DirNames(t, dir); len(names) != 0 {
					t.Errorf("files left: %q", names)
				}
			})
		}
	}
}

// panicStorage is a tensor column whose Storage panics, as arrow-go's IPC
// writer calls it: a panic raised inside arrow-go itself.
type panicStorage struct{ array.ExtensionArray }

func (panicStorage) Storage() arrow.Array { panic("planted in Storage") }

func TestWriteRecoversArrowGoPanic(t *testing.T) {
	m := metadata.MustNew([]int{2, 3}, nil, nil)
	for _, f := range []tensorio.Format{tensorio.IPCFile, tensorio.IPCStream} {
		t.Run("format="+string(f), func(t *testing.T) {
			a := tensors(t, m, 4, 0, nil)
			defer a.Release()
			rec := batch(panicStorage{a})
			defer rec.Release()
			dir := t.TempDir()
			w, err := tensorio.Create(filepath.Join(dir, "out"), rec.Schema(), tensorio.WithFormat(f))
			if err != nil {
				t.Fatal(err)
			}
			err = w.Write(rec)
			if !errors.Is(err, arrow.ErrInvalid) || !strings.Contains(err.Error(), "planted in Storage") {
				w.Abort()
				t.Fatalf("error %v, want one wrapping arrow.ErrInvalid with the panic value", err)
			}
			if names := testvec.DirNames(t, dir); len(names) != 0 {
				t.Errorf("files left: %q", names)
			}
		})
	}
}
