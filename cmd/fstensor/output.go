package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/fstensor/fstensor"
	"github.com/fstensor/fstensor/codec/npy"
	"github.com/fstensor/fstensor/objstore"
	"github.com/fstensor/fstensor/tensorio"
	"github.com/fstensor/fstensor/varshape"
)

// stdoutName is the output path that means standard output.
const stdoutName = "-"

// checkOutput refuses, before anything is read, an output path that names
// one of the inputs (the same file, also through symbolic or hard links),
// an existing file that is not a regular file or a new one in a directory
// that does not exist, and standard output for a format that cannot
// stream or when it is a terminal.
func checkOutput(out string, f tensorio.Format, stdout io.Writer, inputs ...string) error {
	if out == stdoutName {
		if !f.Streams() {
			return fmt.Errorf("%w: %s cannot be written to standard output (its footer is read by seeking); use --to arrows or name a file", errUsage, f)
		}
		if isTerminal(stdout) {
			return fmt.Errorf("%w: standard output is a terminal; redirect it or name a file", errUsage)
		}
		return nil
	}
	if objstore.IsURL(out) {
		return checkOutputURL(out, inputs)
	}
	oi, err := os.Stat(out)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		dir := filepath.Dir(out)
		switch di, err := os.Stat(dir); {
		case err == nil && di.IsDir():
			return nil
		case err == nil:
			return &rewordedError{fmt.Sprintf("%q is not a directory, for the output %s", dir, out), syscall.ENOTDIR}
		}
		return &rewordedError{fmt.Sprintf("no directory %q for the output %s", dir, out), fs.ErrNotExist}
	}
	if err != nil {
		return err
	}
	if !oi.Mode().IsRegular() {
		return fmt.Errorf("%w: output %s exists and is not a regular file; refusing to replace it", errUsage, out)
	}
	for _, in := range inputs {
		if in == stdinName {
			continue
		}
		if ii, err := os.Stat(in); err == nil && os.SameFile(ii, oi) {
			return fmt.Errorf("%w: output %s is the input file %s; write to another file", errUsage, out, in)
		}
	}
	return nil
}

// checkOutputURL refuses an output URL that is not an object's, or that
// names one of the inputs.
func checkOutputURL(out string, inputs []string) error {
	u, err := objstore.ParseURL(out)
	if err != nil {
		return fmt.Errorf("%w: output %s: %v", errUsage, out, err)
	}
	if u.Key == "" || strings.HasSuffix(u.Key, "/") {
		return fmt.Errorf("%w: output %s names no object (a key ending in a file name is needed)", errUsage, out)
	}
	for _, in := range inputs {
		if iu, err := objstore.ParseURL(in); err == nil && objstore.IsURL(in) && iu == u {
			return fmt.Errorf("%w: output %s is the input object %s; write to another key", errUsage, out, in)
		}
	}
	return nil
}

// createOutput starts writing a file of format f for schema at path, or
// on stdout for "-". Nothing appears at path before Close succeeds.
func createOutput(path string, f tensorio.Format, schema *arrow.Schema, opts []tensorio.Option, stdout io.Writer) (*tensorio.Writer, error) {
	opts = append([]tensorio.Option{tensorio.WithFormat(f), tensorio.WithAllocator(mem)}, opts...)
	var w *tensorio.Writer
	var err error
	if path == stdoutName {
		w, err = tensorio.NewWriter(stdout, schema, opts...)
	} else {
		w, err = tensorio.Create(path, schema, opts...)
	}
	switch {
	case errors.Is(err, npy.ErrFill):
		return nil, &usageError{msg: strings.Replace(err.Error(), "tensorio: ", "", 1) + " (pick another --fill-nulls, or make the column floating-point first, e.g. eval 'x.astype(float32)')", err: err}
	case errors.Is(err, tensorio.ErrMismatch) && f.TensorsOnly():
		if name, ok := variableShape(schema); ok {
			return nil, &usageError{msg: fmt.Sprintf("column %q holds tensors of different shapes (a variable-shape tensor column) and %s files hold tensors of one shape; write .arrow, .arrows or .parquet, which keep each row's shape, or crop every row to one shape with eval 'x[:H, :W]' --fixed", name, f), err: err}
		}
		// The schema does not fit: the flags pick the columns.
		return nil, &usageError{msg: strings.Replace(err.Error(), "tensorio: ", "", 1) + " (pick tensor columns with --column)", err: err}
	}
	return w, usageIf(err)
}

// variableShape returns the name of the first variable-shape tensor
// column of schema.
func variableShape(schema *arrow.Schema) (string, bool) {
	for _, fld := range schema.Fields() {
		if _, ok := varshape.TypeOf(fld.Type); ok {
			return fld.Name, true
		}
	}
	return "", false
}

// closeOutput closes w; the error of a null tensor that .npy or .npz
// cannot hold names the flag that fills them.
func closeOutput(w *tensorio.Writer) error {
	err := w.Close()
	if errors.Is(err, fstensor.ErrNullTensor) {
		err = &rewordedError{err.Error() + " (write them with --fill-nulls VALUE)", err}
	}
	return err
}

// rewordedError is an error with a message of the command's own.
type rewordedError struct {
	msg string
	err error
}

func (e *rewordedError) Error() string { return e.msg }
func (e *rewordedError) Unwrap() error { return e.err }
