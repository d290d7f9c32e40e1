package tensorio_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/fstensor/fstensor/fixedshape"
	"github.com/fstensor/fstensor/tensorio"
)

// Take rows by number, in the order asked and with repeats, from an IPC
// file; a row the file lacks is an error.
func ExampleTake() {
	dir, _ := os.MkdirTemp("", "tensorio")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "t.arrow")
	rec := sample()
	defer rec.Release()
	w, _ := tensorio.Create(path, rec.Schema())
	_ = w.Write(rec)
	if err := w.Close(); err != nil {
		panic(err)
	}

	got, err := tensorio.Take(path, []int64{2, 0, 2})
	if err != nil {
		panic(err)
	}
	defer got.Release()
	fmt.Println(got.Column(0).(*fixedshape.Array))
	_, err = tensorio.Take(path, []int64{3})
	fmt.Println(errors.Is(err, tensorio.ErrRowRange))
	// Output:
	// [[[9,10],[11,12]] [[1,2],[3,4]] [[9,10],[11,12]]]
	// true
}
